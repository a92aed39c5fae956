/** Serving the merchant dashboard (the single-page app built from dashboard/) under /dashboard. */

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
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
const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.map']);
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Where the build is: dashboard/dist of the project, from src/ (tsx) or dist/src/ (the production build). */
function buildDir(): string | null {
  return ['../../dashboard/dist', '../../../dashboard/dist'].map((p) => path.resolve(__dirname, p)).find((d) => existsSync(path.join(d, 'index.html'))) ?? null;
}

interface CachedFile {
  body: Buffer;
  gzipped: Buffer | null;
  etag: string;
  type: string;
}

const gzip = promisify(gzipCallback);
const files = new Map<string, Promise<CachedFile | null>>();
const indexMtime = new Map<string, number | null>();

/**
 * A file of the build, read once and kept; a missing one is looked for again. The hashed assets never change
 * under their names; index.html is read again when a new build has replaced it (`npm run dashboard:build`
 * while the service runs), so it never points at assets that are gone.
 */
async function buildFile(dir: string, relative: string): Promise<CachedFile | null> {
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
      const ext = path.extname(relative).toLowerCase();
      return {
        body,
        gzipped: COMPRESSIBLE.has(ext) && body.length > 1024 ? await gzip(body) : null,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        type: CONTENT_TYPES[ext] ?? 'application/octet-stream',
      };
    })();
    files.set(key, file);
    void file.then((f) => f ?? files.delete(key));
  }
  return file;
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

function send(req: IncomingMessage, res: ServerResponse, method: string, file: CachedFile, cacheControl: string, extra: Record<string, string> = {}): void {
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', file.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
  if (req.headers['if-none-match'] === file.etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  const useGzip = !!file.gzipped && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = useGzip ? file.gzipped! : file.body;
  res.statusCode = 200;
  res.setHeader('Content-Type', file.type);
  res.setHeader('Content-Length', body.length);
  if (useGzip) res.setHeader('Content-Encoding', 'gzip');
  res.end(method === 'HEAD' ? undefined : body);
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
    if (file) return send(req, res, method, file, 'public, max-age=31536000, immutable');
    return sendHtml(res, method, 404, htmlPage('Not found', `<h1>Not found</h1><p>No such dashboard file. <a href="${DASHBOARD_PATH}/">Open the dashboard</a>.</p>`));
  }
  // A file at the build's top level (an icon, say), else the app's page, which routes the path itself.
  const top = urlPath.slice(DASHBOARD_PATH.length + 1);
  const file = top && SAFE_NAME.test(top) && top !== 'index.html' ? await buildFile(dir, top) : null;
  if (file) return send(req, res, method, file, 'public, max-age=3600');
  const index = await buildFile(dir, 'index.html');
  if (!index) throw new Error('dashboard/dist/index.html disappeared');
  send(req, res, method, index, 'no-cache', {
    'Content-Security-Policy': dashboardPolicy(opts.imageOrigin),
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
  });
}
