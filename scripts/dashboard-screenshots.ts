/**
 * The dashboard's screenshots (dashboard/screenshots/<name>.png, 1280x800), taken from the service on a fresh
 * embedded database with the demo store, more products with photos and a few changes, signed in as the demo owner
 * (the dashboard is built first when its sources are newer than dashboard/dist).
 *
 * Usage: npm run dashboard:screenshots [-- <name> …]   (only those screens; default all)
 *
 * A new screen is one more entry in SCREENS: its file name, the dashboard path (or a function of what the setup made)
 * and, when the screen needs data of its own, a setup that makes it through the API (`api.graphql`, `api.merchant`)
 * or prepares the page (a switch to flip). The page is shot once the path's page has its heading, the network is
 * quiet and no "Loading…" is left.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { type DemoService, ensureDashboardBuilt, merchantApi, seedProducts, sessionCookie, startDemoService } from './demoService';

const ROOT = path.resolve(__dirname, '..');
const OUT_DIR = path.join(ROOT, 'dashboard', 'screenshots');
const VIEWPORT = { width: 1280, height: 800 };

interface Api {
  service: DemoService;
  /** The products the script added (newest last), each with two photos and a few recorded changes. */
  productIds: string[];
  graphql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  merchant: typeof merchantApi;
}

interface Screen {
  name: string;
  /** A dashboard path ("products"), or an address of the service starting with "/" (the OAuth consent page). */
  path: string | ((api: Api, made: unknown) => string);
  /** Data this screen needs (through the API), made before the page opens; what it returns goes to `path`. */
  setup?: (api: Api) => Promise<unknown>;
  /** Done on the open page before the shot (a switch flipped, a section opened). */
  prepare?: (page: Page) => Promise<void>;
  /** A part of a long page to show at the top of the shot (a CSS selector). */
  scrollTo?: string;
  /** Shot without the session (the sign-in page, an invitation link). */
  signedOut?: boolean;
}

const last = (api: Api) => api.productIds.at(-1)!;

/** Options (two by three) and the variants of their combinations, on the newest product. */
async function withVariants(api: Api): Promise<void> {
  await api.merchant(api.service, 'PUT', `/products/${last(api)}/options`, { options: [{ name: 'Color', values: ['Sand', 'Slate'] }, { name: 'Size', values: ['S', 'M', 'L'] }] });
  await api.graphql('mutation($s: ID!, $p: ID!) { generateProductVariants(storeId: $s, productId: $p) { id } }', { s: api.service.storeId, p: last(api) });
}

/** A second language and currency, with the newest product translated. */
async function withLanguages(api: Api): Promise<void> {
  await api.merchant(api.service, 'POST', '/locales', { locale: 'de' });
  await api.merchant(api.service, 'POST', '/currencies', { currency: 'JPY' });
  await api.merchant(api.service, 'PUT', `/products/${last(api)}/translations/de`, { name: 'Leinendecke 6', description: 'Von Hand gefertigt, für lange Zeit.' });
}

const SCREENS: Screen[] = [
  { name: 'products', path: 'products' },
  { name: 'product-edit', path: (api) => `products/${api.productIds.at(-1)}` },
  { name: 'product-history', path: (api) => `products/${api.productIds.at(-1)}/history` },
  {
    name: 'products-test-mode',
    path: 'products',
    prepare: async (page) => {
      await page.getByRole('switch', { name: 'Test mode' }).click();
      await page.getByText('The test catalog is empty.').waitFor();
    },
  },
  { name: 'categories', path: 'categories' },
  { name: 'activity', path: 'activity' },
  {
    name: 'api-keys',
    path: 'api-keys',
    setup: async (api) => {
      for (const [name, type, scopes] of [
        ['Storefront', 'publishable', ['public:read']],
        ['Inventory sync', 'secret', ['products:read', 'products:write']],
      ] as const) {
        await api.graphql('mutation($s: ID!, $i: ApiKeyCreateInput!) { createApiKey(storeId: $s, input: $i) { secret } }', {
          s: api.service.storeId,
          i: { name, type, mode: 'live', scopes },
        });
      }
    },
  },
  {
    name: 'webhooks',
    path: 'webhooks',
    setup: async (api) => {
      await api.graphql('mutation($s: ID!, $i: WebhookEndpointCreateInput!) { createWebhookEndpoint(storeId: $s, input: $i) { secret } }', {
        s: api.service.storeId,
        i: { url: 'https://hooks.example.com/catalog', description: 'Search index', eventTypes: ['product.created', 'product.updated', 'product.deleted'] },
      });
    },
  },
  {
    name: 'team',
    path: 'team',
    setup: async (api) => {
      await api.graphql('mutation($s: ID!) { inviteStoreMember(storeId: $s, email: "sam@demo.store", permissions: ["manage_products"]) { invitation { id } } }', { s: api.service.storeId });
    },
  },
  { name: 'product-variants', path: (api) => `products/${last(api)}`, setup: withVariants, scrollTo: '#variant-grid-heading' },
  {
    name: 'attributes',
    path: 'attributes',
    setup: async (api) => {
      await api.merchant(api.service, 'POST', '/attributes', { code: 'colour', name: 'Colour', type: 'swatch', filterable: true, public: true, values: [{ value: 'sand', name: 'Sand', hex: '#d8c3a5' }, { value: 'slate', name: 'Slate', hex: '#5a6470' }] });
      await api.merchant(api.service, 'POST', '/attributes', { code: 'care', name: 'Care', type: 'rich_text', public: true });
      await api.merchant(api.service, 'POST', '/attributes', { code: 'released', name: 'Released', type: 'date' });
      await api.merchant(api.service, 'POST', '/product-types', { name: 'Ceramics', product_attributes: [{ code: 'colour', required: false }, { code: 'care' }, { code: 'released' }] });
    },
  },
  { name: 'product-types', path: 'product-types' },
  {
    name: 'attribute-edit',
    setup: async (api) => {
      const made = await api.merchant<{ data: { id: string } }>(api.service, 'POST', '/attributes', { code: 'glaze', name: 'Glaze', type: 'swatch', filterable: true, public: true, values: [{ value: 'moss', name: 'Moss', hex: '#6b7f3a' }, { value: 'ash', name: 'Ash', hex: '#b9b4aa' }, { value: 'ink', name: 'Ink', hex: '#27304a' }] });
      return made.data.id;
    },
    path: (_api, id) => `attributes/${String(id)}`,
  },
  {
    name: 'product-type-edit',
    setup: async (api) => {
      const made = await api.merchant<{ data: { id: string } }>(api.service, 'POST', '/product-types', { name: 'Tableware', product_attributes: [{ code: 'glaze', required: true }], variant_attributes: [] });
      return made.data.id;
    },
    path: (_api, id) => `product-types/${String(id)}`,
  },
  { name: 'languages', path: 'languages', setup: withLanguages },
  { name: 'translations', path: 'translations' },
  { name: 'product-translation', path: (api) => `products/${last(api)}/translate?locale=de` },
  {
    name: 'collections',
    path: 'collections',
    setup: async (api) => {
      const manual = await api.merchant<{ data: { id: string } }>(api.service, 'POST', '/collections', { title: 'Editor’s picks', kind: 'manual', published: true });
      await api.merchant(api.service, 'POST', `/collections/${manual.data.id}/products`, { product_ids: api.productIds.slice(0, 4) });
      await api.merchant(api.service, 'POST', '/collections', { title: 'Under 40', kind: 'smart', rules: [{ field: 'price', operator: 'less_than', value: '40' }], published: true });
      return manual.data.id;
    },
  },
  {
    name: 'collection-smart',
    setup: async (api) => {
      const made = await api.merchant<{ data: { id: string } }>(api.service, 'POST', '/collections', {
        title: 'Bestsellers under 40',
        kind: 'smart',
        rules: [
          { field: 'tag', operator: 'equals', value: 'bestseller' },
          { field: 'price', operator: 'less_than', value: '40' },
        ],
      });
      return made.data.id;
    },
    path: (_api, id) => `collections/${String(id)}`,
    prepare: async (page) => {
      await page.getByText(/products? match/).first().waitFor();
    },
    scrollTo: 'h2:has-text("Rules")',
  },
  {
    name: 'staged-changes',
    path: (api) => `products/${last(api)}`,
    setup: async (api) => {
      await api.merchant(api.service, 'PUT', `/products/${last(api)}?staged=true`, { name: 'Hand-thrown mug, autumn glaze', price: '34.00' });
    },
    scrollTo: '.staged-panel',
  },
  {
    name: 'collection-manual',
    setup: async (api) => {
      const made = await api.merchant<{ data: { id: string } }>(api.service, 'POST', '/collections', { title: 'Gift ideas', kind: 'manual', published: true });
      await api.merchant(api.service, 'POST', `/collections/${made.data.id}/products`, { product_ids: api.productIds.slice(0, 5) });
      return made.data.id;
    },
    path: (_api, id) => `collections/${String(id)}`,
    scrollTo: 'h2:has-text("Products")',
  },
  { name: 'import-export', path: 'import-export' },
  { name: 'sign-in', path: 'sign-in', signedOut: true },
  {
    name: 'invitation',
    signedOut: true,
    setup: async (api) => {
      const made = await api.graphql<{ inviteStoreMember: { link: { token: string } } }>('mutation($s: ID!) { inviteStoreMember(storeId: $s, email: "alex@demo.store", permissions: ["manage_products", "manage_api_keys"]) { link { token } } }', { s: api.service.storeId });
      return made.inviteStoreMember.link.token;
    },
    path: (_api, token) => `invite/${String(token)}`,
  },
  { name: 'oauth-apps', path: 'oauth-apps' },
  {
    name: 'oauth-consent',
    setup: async (api) => {
      const made = await api.graphql<{ createOAuthApp: { app: { clientId: string } } }>(
        'mutation($i: OAuthAppCreateInput!) { createOAuthApp(input: $i) { app { clientId } } }',
        { i: { name: 'Stock sync', allowedScopes: ['public:read', 'products:read'], redirectUris: ['http://127.0.0.1:9/callback'] } },
      );
      return made.createOAuthApp.app.clientId;
    },
    path: (api, clientId) => {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: String(clientId),
        redirect_uri: 'http://127.0.0.1:9/callback',
        scope: 'public:read products:read',
        state: randomBytes(8).toString('hex'),
        code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
        code_challenge_method: 'S256',
        store_id: api.service.storeId,
      });
      return `/api/public/v1/oauth/authorize?${query}`;
    },
  },
];

/** Some recorded changes on a product, for its history and the store's activity. */
async function makeHistory(api: Api, productId: string): Promise<void> {
  await api.merchant(api.service, 'PUT', `/products/${productId}`, { price: '39.00', tags: ['seeded', 'bestseller'] });
  await api.merchant(api.service, 'PUT', `/products/${productId}`, { inventory_quantity: 12, description: 'Hand-finished, made to last.' });
  await api.merchant(api.service, 'POST', `/products/${productId}/publish`);
}

async function waitUntilShown(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.locator('h1').first().waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo(0, 0));
}

async function main(): Promise<void> {
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  const unknown = only.filter((n) => !SCREENS.some((s) => s.name === n));
  if (unknown.length) throw new Error(`no such screen: ${unknown.join(', ')} (screens: ${SCREENS.map((s) => s.name).join(', ')})`);
  const screens = only.length ? SCREENS.filter((s) => only.includes(s.name)) : SCREENS;

  ensureDashboardBuilt();
  const service = await startDemoService({ OAUTH_ENABLED: 'true' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
  try {
    const api: Api = {
      service,
      productIds: [],
      merchant: merchantApi,
      graphql: async (query, variables = {}) => {
        const res = await fetch(`${service.url}/graphql`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${service.token}` },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await res.json()) as { data?: unknown; errors?: unknown[] };
        if (body.errors?.length) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
        return body.data as never;
      },
    };
    api.productIds = await seedProducts(service, 6, 2);
    await makeHistory(api, api.productIds.at(-1)!);
    const [name, value] = (await sessionCookie(service)).split('=') as [string, string];
    mkdirSync(OUT_DIR, { recursive: true });
    for (const screen of screens) {
      const made = screen.setup ? await screen.setup(api) : undefined;
      const target = typeof screen.path === 'function' ? screen.path(api, made) : screen.path;
      const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US', timezoneId: 'UTC' });
      if (!screen.signedOut) await context.addCookies([{ name, value, url: service.url }]);
      const page = await context.newPage();
      await page.goto(target.startsWith('/') ? service.url + target : `${service.url}/dashboard/${target}`);
      await waitUntilShown(page);
      if (screen.prepare) {
        await screen.prepare(page);
        await waitUntilShown(page);
      }
      if (screen.scrollTo) {
        await page.locator(screen.scrollTo).first().evaluate((element) => element.scrollIntoView({ block: 'start' }));
        // Clear of the sticky header.
        await page.evaluate(() => window.scrollBy(0, -72));
      }
      const file = path.join(OUT_DIR, `${screen.name}.png`);
      await page.screenshot({ path: file });
      console.log(`${path.relative(ROOT, file)}`);
      await context.close();
    }
  } finally {
    await browser.close();
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
