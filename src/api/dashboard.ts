/** Serving the merchant dashboard (the single-page app built from dashboard/) under /dashboard. */

import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { cacheBound, registerCache } from '../platform/caches';
import { prepareAsset, sendAsset, type StaticAsset } from '../platform/http/compression';
import { htmlPage, sendHtml } from './docs/html';

/**
 * /dashboard: the merchant dashboard, a single-page app (dashboard/, built by
 * `npm install` into dashboard/dist) on the same /graphql API every client
 * uses. Its files are served from memory: index.html for /dashboard and every
 * path under it that is not a file (the app routes in the browser), never
 * cached; the hashed assets under /dashboard/assets/ cached for a year as
 * immutable. The page runs only its own scripts and talks to this origin only.
 */

const DASHBOARD_PATH = '/dashboard';
export const DASHBOARD_SIGN_IN_PATH = '/dashboard/sign-in';
const ASSETS_PATH = '/dashboard/assets/';

export const isDashboardPath = (p: string) => p === DASHBOARD_PATH || p.startsWith(DASHBOARD_PATH + '/');

/** The route label of a dashboard path in the metrics. */
export const dashboardRouteLabel = (p: string) => (p.startsWith(ASSETS_PATH) ? '/dashboard/assets/:file' : '/dashboard');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Where the build is: dashboard/dist of the project, from src/ (tsx) or dist/src/ (the production build). */
function buildDir(): string | null {
  return ['../../dashboard/dist', '../../../dashboard/dist'].map((p) => path.resolve(__dirname, p)).find((d) => existsSync(path.join(d, 'index.html'))) ?? null;
}

const files = new Map<string, Promise<StaticAsset | null>>();
const indexMtime = new Map<string, number | null>();
// A missing file is never kept, so only the build's own files count (a few dozen), under the `dashboard_files` bound.
registerCache('dashboard_files', () => files.size);

/**
 * A file of the build, read once and kept; a missing one is looked for again. The hashed assets never change
 * under their names; index.html is read again when a new build has replaced it (`npm run dashboard:build`
 * while the service runs), so it never points at assets that are gone.
 */
async function buildFile(dir: string, relative: string): Promise<StaticAsset | null> {
  const key = path.join(dir, relative);
  if (relative === 'index.html') {
    const mtime = await stat(key).then((st) => st.mtimeMs, () => null);
    if (mtime !== indexMtime.get(key)) {
      files.delete(key);
      indexMtime.set(key, mtime);
    }
  }
  let file = files.get(key);
  if (!file) {
    file = (async () => {
      let body: Buffer;
      try {
        body = await readFile(key);
      } catch {
        return null;
      }
      return prepareAsset(body, CONTENT_TYPES[path.extname(relative).toLowerCase()] ?? 'application/octet-stream');
    })();
    if (files.size >= cacheBound('dashboard_files')) files.delete(files.keys().next().value!);
    files.set(key, file);
    void file.then((f) => f ?? files.delete(key));
  }
  return file;
}

/**
 * The dashboard's stylesheet as its built page links it (/dashboard/assets/index-….css), for the service's own
 * pages that people meet between dashboard pages (OAuth consent), so they look the same; null when not built.
 */
export async function dashboardStylesheet(): Promise<string | null> {
  const dir = buildDir();
  const index = dir ? await buildFile(dir, 'index.html') : null;
  const html = index?.encodings.identity.body.toString('utf8') ?? '';
  return /<link rel="stylesheet"[^>]*href="(\/dashboard\/assets\/[\w.-]+\.css)"/.exec(html)?.[1] ?? null;
}

/**
 * The page's policy: its own scripts and styles only (React sets styles through the DOM, which a policy
 * does not restrict), requests to this origin only, images from here (and from the image host when images
 * are redirected there), no framing, forms post here only.
 */
function dashboardPolicy(imageOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${imageOrigin ? ' ' + imageOrigin : ''}`,
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function serveDashboard(req: IncomingMessage, res: ServerResponse, urlPath: string, opts: { imageOrigin?: string }): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return sendHtml(res, method, 405, htmlPage('Method not allowed', '<h1>Method not allowed</h1><p>The dashboard\'s pages answer GET and HEAD only; it talks to <code>/graphql</code>.</p>'));
  }
  const dir = buildDir();
  if (!dir) {
    return sendHtml(
      res,
      method,
      503,
      htmlPage('Dashboard not built', '<h1>The dashboard is not built</h1><p><code>npm install</code> builds it; after an install without dev dependencies, run <code>npm run dashboard:build</code> where they are installed.</p>'),
    );
  }
  if (urlPath.startsWith(ASSETS_PATH)) {
    const name = urlPath.slice(ASSETS_PATH.length);
    const file = SAFE_NAME.test(name) ? await buildFile(dir, path.join('assets', name)) : null;
    if (file) return sendAsset(req, res, file, { cacheControl: 'public, max-age=31536000, immutable' });
    return sendHtml(res, method, 404, htmlPage('Not found', `<h1>Not found</h1><p>No such dashboard file. <a href="${DASHBOARD_PATH}/">Open the dashboard</a>.</p>`));
  }
  // A file at the build's top level (an icon, say), else the app's page, which routes the path itself.
  const top = urlPath.slice(DASHBOARD_PATH.length + 1);
  const file = top && SAFE_NAME.test(top) && top !== 'index.html' ? await buildFile(dir, top) : null;
  if (file) return sendAsset(req, res, file, { cacheControl: 'public, max-age=3600' });
  const index = await buildFile(dir, 'index.html');
  if (!index) throw new Error('dashboard/dist/index.html disappeared');
  sendAsset(req, res, index, {
    cacheControl: 'no-cache',
    headers: { 'Content-Security-Policy': dashboardPolicy(opts.imageOrigin), 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'same-origin' },
  });
}
