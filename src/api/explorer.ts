/** GraphiQL at GET /graphql: the page, and the example tabs it opens with. */

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphiQLOptions } from 'graphql-yoga';
import { prepareAsset, sendAsset, type StaticAsset } from '../platform/http/compression';

type RenderGraphiQL = typeof import('@graphql-yoga/render-graphiql').renderGraphiQL;
let renderer: RenderGraphiQL | undefined;

/**
 * The GraphiQL page, rendered by @graphql-yoga/render-graphiql, which is
 * loaded on the first visit rather than at start: the module holds the
 * whole GraphiQL bundle, which an API instance that nobody browses never needs.
 */
export function renderExplorerPage(opts: GraphiQLOptions): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  renderer ??= (require('@graphql-yoga/render-graphiql') as { renderGraphiQL: RenderGraphiQL }).renderGraphiQL;
  const page = renderer(opts);
  // The last </body>: the inline bundle holds the string too.
  const end = page.lastIndexOf('</body>');
  return end < 0 ? page : `${page.slice(0, end)}${REST_REFERENCE_LINK}\n${page.slice(end)}`;
}

/** GraphiQL has no slot for a link of ours: a small one sits in its left sidebar, below the sidebar's own buttons. */
const REST_REFERENCE_LINK =
  '<a id="rest-api-reference" href="/docs" title="REST API reference and error codes" ' +
  'style="position:fixed;left:4px;top:112px;width:56px;z-index:10;text-align:center;font:600 11px/1.3 system-ui,sans-serif;color:#5f6368">REST API docs</a>';

/**
 * What GraphiQL opens with on a first visit (GET /graphql in a browser): three example tabs that
 * run as they are, and a header editor that says where a dashboard token comes from.
 *
 * GraphiQL's header and variable editors read JSON with comments (jsonc), so the guidance lives
 * there as `//` lines. A tab that needs no token keeps the Authorization line commented out: a
 * placeholder sent as a header would answer 401 before the operation runs.
 */

export const TOKEN_PLACEHOLDER = 'svc_dash_PASTE_YOUR_TOKEN_HERE';
export const STORE_ID_PLACEHOLDER = 'PASTE_A_STORE_ID_HERE';

const TOKEN_SOURCES = [
  '// A dashboard token (svc_dash_…) comes from:',
  '//   - the output of `npm start`: the first start prints one for the demo owner;',
  '//   - the `login` mutation (the "Login" tab);',
  '//   - `npm run cli -- token issue --user <email>`.',
];

/** Header editor of a tab that runs without a token: the Authorization line waits, commented out. */
export const HEADERS_WITHOUT_TOKEN = [
  '{',
  ...TOKEN_SOURCES.map((l) => `  ${l}`),
  '  // Uncomment the next line and put your token in place of the placeholder:',
  `  // "Authorization": "Bearer ${TOKEN_PLACEHOLDER}"`,
  '}',
].join('\n');

/** Header editor of a tab that needs a token: the Authorization line is live, with a placeholder to replace. */
export const HEADERS_WITH_TOKEN = [
  '{',
  ...TOKEN_SOURCES.map((l) => `  ${l}`),
  '  // Put your token in place of the placeholder:',
  `  "Authorization": "Bearer ${TOKEN_PLACEHOLDER}"`,
  '}',
].join('\n');

export const VIEWER_EXAMPLE = `# Who am I? Runs without a token: viewer is null until the Authorization header
# carries a dashboard token (see the Headers editor below), then it shows your
# stores and their ids.
query Viewer {
  viewer {
    id
    email
    name
    memberships {
      role
      permissions
      store {
        id
        name
        currency
      }
    }
  }
}
`;

export const LOGIN_EXAMPLE = `# Exchanges email and password for a dashboard token (needs no token).
# owner@demo.store / demo-password is the demo owner \`npm start\` seeds.
# Copy data.login.token into the Authorization header of the other tabs.
mutation Login {
  login(email: "owner@demo.store", password: "demo-password") {
    token
    userId
  }
}
`;

export const PRODUCTS_EXAMPLE = `# A page of a store's products, newest first. Needs a token (Headers editor
# below) and the store's id (Variables editor: the Viewer tab lists your
# stores; \`npm start\` prints the demo store's id).
query Products($storeId: ID!) {
  products(storeId: $storeId, perPage: 10, sort: CREATED_AT_DESC) {
    items {
      id
      name
      price
      currency
      status
      inventoryQuantity
      categorySlugs
    }
    meta {
      page
      perPage
      total
      totalPages
      hasMore
    }
  }
}
`;

export const PRODUCTS_VARIABLES = [
  '{',
  '  // The id of a store you manage (the Viewer tab lists them):',
  `  "storeId": "${STORE_ID_PLACEHOLDER}"`,
  '}',
].join('\n');

export const explorerTabs = [
  { query: VIEWER_EXAMPLE, headers: HEADERS_WITHOUT_TOKEN, variables: null },
  { query: LOGIN_EXAMPLE, headers: HEADERS_WITHOUT_TOKEN, variables: null },
  { query: PRODUCTS_EXAMPLE, headers: HEADERS_WITH_TOKEN, variables: PRODUCTS_VARIABLES },
];

export const graphiqlOptions: GraphiQLOptions = {
  title: 'Store catalog GraphQL explorer',
  defaultTabs: explorerTabs,
  // A tab opened with "+" starts with the same guidance.
  defaultHeaders: HEADERS_WITHOUT_TOKEN,
};

/**
 * Response headers of the GraphiQL page. Its JavaScript is bundled inline (no CDN), so the policy
 * admits exactly that script by its SHA-256 hash and nothing else: no other inline or remote
 * script, no eval. What the bundle needs besides: its editor workers start from blob: URLs,
 * Monaco injects style elements at run time ('unsafe-inline' styles; script is what matters), the
 * favicon and some icons are data: URLs, and queries go to this origin. The page may not be
 * framed (clickjacking) nor send its URL on in a Referer.
 *
 * `page` is the HTML Yoga serves (renderGraphiQL with graphiqlOptions); the hash is of its one script.
 */
function graphiqlSecurityHeaders(page: string): Record<string, string> {
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  const policy = [
    "default-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'worker-src blob:',
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return { 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' };
}

/** Yoga's own rule (shouldRenderGraphiQL): a GET of /graphql that accepts HTML is a person opening GraphiQL. HEAD asks for the same page's headers. */
export const wantsExplorerPage = (req: IncomingMessage) => (req.method === 'GET' || req.method === 'HEAD') && (req.headers.accept ?? '').includes('text/html');

let explorerPage: Promise<{ asset: StaticAsset; headers: Record<string, string> }> | undefined;

/**
 * GraphiQL's page (some 9 MB, its bundle inline), rendered and compressed once on the first visit and kept:
 * every visit gets the stored bytes in the encoding it accepts (about 2 MB in Brotli), and a browser that has
 * the page gets 304 on its ETag. `no-cache`: the browser asks again each time, so a new release shows at once.
 * The page differs from /graphql's JSON answers, hence Vary: Accept.
 */
export async function serveExplorerPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  explorerPage ??= (async () => {
    const page = renderExplorerPage({ ...graphiqlOptions });
    return { asset: await prepareAsset(page, 'text/html; charset=utf-8'), headers: graphiqlSecurityHeaders(page) };
  })();
  // A failure is not remembered: the next visit tries again.
  explorerPage.catch(() => (explorerPage = undefined));
  const { asset, headers } = await explorerPage;
  sendAsset(req, res, asset, { cacheControl: 'no-cache', headers: { ...headers, Vary: 'Accept' } });
}
