/**
 * The product list's address (search, filters, sort, page) as last shown, so that the editor's way back and the
 * end of a delete return to the same list rather than a cleared one.
 */
let lastListPath = 'products';

export const rememberListPath = (path: string) => {
  lastListPath = path;
};

export const listPath = () => lastListPath;
