/** GET/HEAD /uploads/…: serving stored image files, streamed or redirected. */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors';
import { CONTENT_KEY, type FileStorage, MIME_BY_EXT } from './fileStorage';

/** How long a client or cache may keep a redirect to an object's URL: a day, so a change of S3_PUBLIC_URL or IMAGE_DELIVERY takes effect within one. */
const REDIRECT_MAX_AGE_SECONDS = 86_400;

/**
 * GET/HEAD /uploads/<sha256>.<ext>. The name is the content's hash, so a URL
 * never changes meaning: the response is cacheable forever and its ETag is the hash.
 * Only names matching CONTENT_KEY reach storage, which rules out path traversal.
 *
 * With `delivery: 'redirect'` (S3) the answer is a 302 to the object's own URL, so the
 * bytes come from the bucket or its CDN; the image URLs the API hands out stay the
 * service's, and do not change with the delivery or the bucket.
 */
export async function serveUpload(req: IncomingMessage, res: ServerResponse, name: string, storage: FileStorage, delivery: 'proxy' | 'redirect' = 'proxy'): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    throw new AppError('method_not_allowed', `${method} is not supported on uploads`, { headers: { Allow: 'GET, HEAD' } });
  }
  const m = CONTENT_KEY.exec(name);
  const url = m && delivery === 'redirect' ? storage.urlOf(name) : null;
  if (url) {
    // Asking the bucket first keeps a 404 a 404, not a redirect to an error page of the bucket's.
    if (!(await storage.exists(name))) throw new AppError('not_found', 'No uploaded file has this name');
    res.statusCode = 302;
    res.setHeader('Location', url);
    res.setHeader('Cache-Control', `public, max-age=${REDIRECT_MAX_AGE_SECONDS}`);
    res.end();
    return;
  }
  const file = m ? await storage.get(name) : null;
  if (!m || !file) throw new AppError('not_found', 'No uploaded file has this name');
  const etag = `"${m[1]}"`;
  res.setHeader('Content-Type', MIME_BY_EXT[m[2]]);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('ETag', etag);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const notModified = ifNoneMatch(req.headers['if-none-match'], etag);
  if (notModified || method === 'HEAD') file.stream.destroy();
  if (notModified) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Length', file.size);
  if (method === 'HEAD') return void res.end();
  // Headers are gone once bytes flow: a failure (client gone, disk error) can only cut the connection.
  await pipeline(file.stream, res).catch(() => res.destroy());
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
