/** HTML helpers of the documentation pages: escaping, the page frame, its security headers. */

import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Text of the error catalog as HTML: escaped, with `backquoted` parts as code. */
export const prose = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, '<code>$1</code>');

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;line-height:1.55;color:#1b1f24}
a{color:#0b57d0}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{background:#f4f5f7;padding:.8rem 1rem;overflow-x:auto;border-radius:6px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-bottom:1px solid #e3e5e8}
nav{font-size:.9rem;margin-bottom:1.5rem}.status{color:#5f6368}
`.trim();

/**
 * The static pages under /docs run no script: the policy admits their one style block by its hash and
 * nothing else, and they may not be framed.
 */
const PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "img-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <link rel="icon" href="data:,">
  <style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Writes an HTML page with the given policy (the static pages' by default). HEAD gets the headers alone. */
export function sendHtml(res: ServerResponse, method: string, status: number, html: string, opts: { policy?: string; cacheControl?: string } = {}): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(html));
  res.setHeader('Cache-Control', opts.cacheControl ?? 'no-cache');
  res.setHeader('Content-Security-Policy', opts.policy ?? PAGE_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(method === 'HEAD' ? undefined : html);
}
