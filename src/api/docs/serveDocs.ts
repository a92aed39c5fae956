/** Routing of the documentation pages under /docs. */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_REFERENCE_POLICY, apiReferencePage, DOCS_ASSETS_PATH, serveAsset } from './apiReference';
import { ERROR_PAGES_PATH } from './errorCatalog';
import { errorIndexPage, errorPage, isErrorCode, unknownErrorPage } from './errorPages';
import { htmlPage, sendHtml } from './html';

export const isDocsPath = (path: string) => path === '/docs' || path.startsWith('/docs/');

/**
 * GET/HEAD /docs (the API reference), /docs/assets/… (its bundle), /docs/errors (the error codes) and
 * /docs/errors/{code}. People read these, so every answer, errors included, is an HTML page.
 */
export async function serveDocs(req: IncomingMessage, res: ServerResponse, path: string, baseUrl: string): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendHtml(res, method, 405, htmlPage('Method not allowed', `<h1>Method not allowed</h1><p>The documentation pages answer GET and HEAD only.</p>`));
  }
  const route = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (route === '/docs') return sendHtml(res, method, 200, await apiReferencePage(), { policy: API_REFERENCE_POLICY });
  if (route.startsWith(DOCS_ASSETS_PATH) && (await serveAsset(req, res, route.slice(DOCS_ASSETS_PATH.length)))) return;
  if (route === ERROR_PAGES_PATH) return sendHtml(res, method, 200, errorIndexPage());
  if (route.startsWith(ERROR_PAGES_PATH + '/')) {
    const code = route.slice(ERROR_PAGES_PATH.length + 1);
    if (isErrorCode(code)) return sendHtml(res, method, 200, errorPage(code, baseUrl));
    return sendHtml(res, method, 404, unknownErrorPage(code));
  }
  sendHtml(res, method, 404, htmlPage('Not found', `<h1>Not found</h1><p>No documentation page here. See <a href="/docs">the API reference</a> or <a href="${ERROR_PAGES_PATH}">the error codes</a>.</p>`));
}

/** The route label of a docs path in the metrics (the asset and error-code names are not labels of their own). */
export const docsRouteLabel = (path: string) =>
  path.startsWith(DOCS_ASSETS_PATH) ? '/docs/assets/:file' : path.startsWith(ERROR_PAGES_PATH + '/') ? '/docs/errors/:code' : path.startsWith(ERROR_PAGES_PATH) ? ERROR_PAGES_PATH : '/docs';
