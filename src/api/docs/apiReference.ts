/** The REST API reference page at /docs and the bundle it runs. */

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { prepareAsset, sendAsset, type StaticAsset } from '../../platform/http/compression';
import { escapeHtml } from './html';

/**
 * /docs: the REST API reference, rendered in the browser by Scalar (@scalar/api-reference) from
 * /api/openapi.json. The service serves Scalar's prebuilt standalone bundle itself, under a name that holds
 * its version and content hash, so the page works offline and loads nothing from another host.
 */

export const DOCS_ASSETS_PATH = '/docs/assets/';

interface Bundle {
  name: string;
  asset: StaticAsset;
  /** The Subresource Integrity value of the script element. */
  integrity: string;
}

let bundle: Promise<Bundle> | undefined;

/**
 * The standalone bundle (megabytes of JavaScript), read on the first visit rather than at start: an
 * instance nobody browses never holds it. The package's exports do not list it, so it is found next to the
 * main entry point.
 */
function scalarBundle(): Promise<Bundle> {
  bundle ??= (async () => {
    const dist = path.dirname(require.resolve('@scalar/api-reference'));
    const version = (JSON.parse(await readFile(path.join(dist, '..', 'package.json'), 'utf8')) as { version: string }).version;
    const body = await readFile(path.join(dist, 'browser', 'standalone.js'));
    const digest = createHash('sha256').update(body).digest();
    return {
      name: `scalar-api-reference-${version}.${digest.toString('hex').slice(0, 12)}.js`,
      asset: await prepareAsset(body, 'text/javascript; charset=utf-8'),
      integrity: `sha256-${digest.toString('base64')}`,
    };
  })();
  // A failed read is not remembered: the next visit tries again.
  bundle.catch(() => (bundle = undefined));
  return bundle;
}

/**
 * What Scalar is told. Fonts come from the system (its default fonts load from its CDN), and everything
 * that would call Scalar's services is off: telemetry, the AI agent, MCP, the developer toolbar. No proxy
 * URL is set, so "Test request" calls this origin directly.
 */
const SCALAR_CONFIGURATION = {
  url: '/api/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: false,
  documentDownloadType: 'json',
  defaultOpenFirstTag: true,
  metaData: { title: 'Store catalog REST API reference' },
  customCss: ':root{--scalar-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--scalar-font-code:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}',
} as const;

/**
 * The page: a configuration element Scalar reads (a JSON script, which never runs) and the bundle. Its
 * policy admits scripts from this origin only (the bundle, checked by its integrity hash too), no inline
 * script and no eval; Scalar injects its stylesheet and style attributes at run time, hence 'unsafe-inline'
 * styles. Requests (the document, "Test request") go to this origin only; the page may not be framed.
 */
export async function apiReferencePage(): Promise<string> {
  const b = await scalarBundle();
  const config = escapeHtml(JSON.stringify(SCALAR_CONFIGURATION));
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Store catalog REST API reference</title>
  <link rel="icon" href="data:,">
</head>
<body>
  <noscript>The reference needs JavaScript. The OpenAPI document is at <a href="/api/openapi.json">/api/openapi.json</a>; error codes are explained at <a href="/docs/errors">/docs/errors</a>.</noscript>
  <script id="api-reference" type="application/json" data-url="${SCALAR_CONFIGURATION.url}" data-configuration="${config}"></script>
  <script src="${DOCS_ASSETS_PATH}${b.name}" integrity="${b.integrity}"></script>
</body>
</html>
`;
}

export const API_REFERENCE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** GET/HEAD /docs/assets/<name>: the bundle under its current name, cached for a year; any other name is absent (false). */
export async function serveAsset(req: IncomingMessage, res: ServerResponse, name: string): Promise<boolean> {
  const b = await scalarBundle();
  if (name !== b.name) return false;
  sendAsset(req, res, b.asset, { cacheControl: 'public, max-age=31536000, immutable' });
  return true;
}
