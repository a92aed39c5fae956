/** The catalog a request works on: one store, in the request's mode. */

import type { Mode } from '../../kernel/access';

/**
 * The products a request may see and change: one store's catalog in the
 * request's mode. Test data is separate from live data, so a product of the
 * other mode does not exist for the request (404), and lists, search and
 * counts never mix the two. Categories are store configuration, shared by both.
 */
export const catalogOf = (ctx: { mode: Mode }, storeId: string) => ({ storeId, mode: ctx.mode });
