import { createProduct } from '../../src/catalog/services/productCreate';
import { testContext } from '../helpers/context';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, createOAuthAccessToken, publicGet } from './helpers';

let t: TestServer;
let store: StoreFixture;
let other: StoreFixture;
const keys: Record<string, string> = {};
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000', OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  other = await createStoreFixture({ currency: 'USD' });
  // The catalog of the test-mode credentials below (test data is separate from live data).
  const add = async (s: StoreFixture, name: string, fields: Record<string, unknown>) => {
    ids[name] = (await createProduct(testContext(undefined, { mode: 'test' }), s.storeId, { name, price: '10', categorySlugs: ['shoes'], ...fields })).id;
  };
  await add(store, 'Trail runner', { status: 'active', price: '120.50', tags: ['running', 'outdoor'], inventoryQuantity: 3, description: 'Grippy sole' });
  await add(store, 'Linen shirt', { status: 'active', price: '45', categorySlugs: ['shirts'], tags: ['summer'], inventoryQuantity: 0 });
  await add(store, 'Sun hat', { status: 'active', price: '19.99', categorySlugs: ['hats'], tags: ['summer', 'outdoor'], inventoryQuantity: 12 });
  await add(store, 'Secret prototype', { status: 'draft', tags: ['running'] });
  await add(store, 'Old boot', { status: 'archived' });
  await add(other, 'Elsewhere', { status: 'active' });

  keys.publishable = (await createKey(t, store, { type: 'publishable', mode: 'test' })).secret;
  keys.publishableLive = (await createKey(t, store, { type: 'publishable', mode: 'live' })).secret;
  keys.productsRead = (await createKey(t, store, { type: 'secret', mode: 'test', scopes: ['products:read'] })).secret;
  keys.paymentsRead = (await createKey(t, store, { type: 'secret', mode: 'test', scopes: ['payments:read'] })).secret;
  keys.productsWrite = (await createKey(t, store, { type: 'secret', mode: 'test', scopes: ['products:write'] })).secret;
  keys.system = (await createKey(t, store, { type: 'system', mode: 'live' })).secret;
  keys.oauthPayments = (await createOAuthAccessToken(store, 'test', ['payments:read'])).token;
});
afterAll(() => t.close());
let liveId = '';
beforeAll(async () => {
  liveId = (await createProduct(testContext(), store.storeId, { name: 'Live only', price: '10', categorySlugs: ['shoes'], status: 'active' })).id;
});

describe('GET /payments/supported-countries', () => {
  it('lists the countries in the list envelope with livemode', async () => {
    const res = await publicGet(t, '/payments/supported-countries', { key: keys.publishable });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { data, meta, livemode } = res.body;
    expect(livemode).toBe(false);
    expect(meta).toEqual({ total: data.length });
    expect(data.length).toBeGreaterThanOrEqual(30);
    expect(data).toContainEqual({ code: 'US', name: 'United States', default_currency: 'USD', supported_currencies: ['USD'] });
    expect(data).toContainEqual(expect.objectContaining({ code: 'DE', default_currency: 'EUR' }));
    const codes = data.map((c: { code: string }) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
    for (const c of data) {
      expect(c.code).toMatch(/^[A-Z]{2}$/);
      expect(c.default_currency).toMatch(/^[A-Z]{3}$/);
      expect(c.supported_currencies).toContain(c.default_currency);
      for (const cur of c.supported_currencies) expect(cur).toMatch(/^[A-Z]{3}$/);
    }
  });

  it('says livemode true for a live credential', async () => {
    const res = await publicGet(t, '/payments/supported-countries', { key: keys.system });
    expect(res.body.livemode).toBe(true);
    expect(res.headers.get('x-service-mode')).toBe('live');
  });

  it.each([
    ['public:read (publishable)', 'publishable', 200],
    ['payments:read only', 'paymentsRead', 200],
    ['payments:read through an OAuth grant', 'oauthPayments', 200],
    ['products:read only', 'productsRead', 403],
    ['products:write only', 'productsWrite', 403],
  ])('with %s answers %s', async (_what, key, status) => {
    const res = await publicGet(t, '/payments/supported-countries', { key: keys[key] });
    expect(res.status).toBe(status);
    if (status === 403) {
      expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'public:read', required_scopes: ['public:read', 'payments:read'], livemode: false });
      expect(res.body.detail).toContain('public:read or payments:read');
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="public-api", error="insufficient_scope", scope="public:read payments:read"');
    }
  });
});

describe('GET /products', () => {
  it("lists only the credential's store's active products, with storefront fields", async () => {
    const res = await publicGet(t, '/products', { key: keys.publishable });
    expect(res.status).toBe(200);
    expect(res.body.livemode).toBe(false);
    const names = res.body.data.map((p: { name: string }) => p.name).sort();
    expect(names).toEqual(['Linen shirt', 'Sun hat', 'Trail runner']);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 3, total_exact: true, total_pages: 1, has_more: false });
    const runner = res.body.data.find((p: { name: string }) => p.name === 'Trail runner');
    expect(runner).toEqual({
      id: ids['Trail runner'], name: 'Trail runner', description: 'Grippy sole', price: 120.5, compare_at_price: null, currency: 'EUR', currencies: ['EUR'], in_stock: true,
      tags: ['running', 'outdoor'], category_slugs: ['shoes'], attributes: {}, options: [], variants: [], images: [], published_at: expect.any(String), updated_at: expect.any(String),
    });
    expect(res.body.data.find((p: { name: string }) => p.name === 'Linen shirt').in_stock).toBe(false);
  });

  it.each([
    ['search=runner', ['Trail runner']],
    ['category=shirts', ['Linen shirt']],
    ['tags=outdoor', ['Sun hat', 'Trail runner']],
    ['tags=running', ['Trail runner']],
    ['sort=price', ['Sun hat', 'Linen shirt', 'Trail runner']],
    ['sort=-price', ['Trail runner', 'Linen shirt', 'Sun hat']],
  ])('filters and sorts like the merchant list: %s', async (query, expected) => {
    const res = await publicGet(t, `/products?${query}`, { key: keys.publishable });
    expect(res.status).toBe(200);
    const names = res.body.data.map((p: { name: string }) => p.name);
    expect(query.startsWith('sort') ? names : names.sort()).toEqual(expected);
  });

  it('pages with meta and Link headers', async () => {
    const res = await publicGet(t, '/products?per_page=1&page=2&sort=name', { key: keys.publishable });
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['Sun hat']);
    expect(res.body.meta).toEqual({ page: 2, per_page: 1, total: 3, total_exact: true, total_pages: 3, has_more: true });
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it('rejects bad paging and sorting by inventory (not public) with 422', async () => {
    for (const q of ['per_page=500', 'page=0', 'sort=inventory_quantity', 'page=abc']) {
      const res = await publicGet(t, `/products?${q}`, { key: keys.publishable });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', livemode: false });
    }
  });

  it.each([
    ['products:read', 'productsRead', 200],
    ['system key (all scopes)', 'system', 200],
    ['payments:read only', 'paymentsRead', 403],
    ['products:write only (writing includes reading)', 'productsWrite', 200],
    ['an OAuth token with payments:read only', 'oauthPayments', 403],
  ])('with %s answers %s', async (_what, key, status) => {
    const res = await publicGet(t, '/products', { key: keys[key] });
    expect(res.status).toBe(status);
    if (status === 403) {
      expect(res.body).toMatchObject({ code: 'insufficient_scope', required_scopes: ['public:read', 'products:read'] });
      expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    }
  });
});

describe('GET /products/{productID}', () => {
  it('returns an active product', async () => {
    const res = await publicGet(t, `/products/${ids['Sun hat']}`, { key: keys.publishable });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { id: ids['Sun hat'], name: 'Sun hat', price: 19.99, in_stock: true }, livemode: false });
    expect(res.body.data).not.toHaveProperty('inventory_quantity');
    expect(res.body.data).not.toHaveProperty('status');
  });

  it.each([
    ['a draft', () => ids['Secret prototype']],
    ['an archived product', () => ids['Old boot']],
    ["another store's product", () => ids.Elsewhere],
    ['a live-mode product (the key is a test key)', () => liveId],
    ['an unknown id', () => '00000000-0000-4000-8000-000000000000'],
    ['a malformed id', () => 'not-a-uuid'],
  ])('answers 404 for %s', async (_what, id) => {
    const res = await publicGet(t, `/products/${id()}`, { key: keys.publishable });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', livemode: false });
    expect(res.headers.get('x-service-mode')).toBe('test');
  });
});

describe('the public surface', () => {
  it('answers 404 route_not_found for an unknown public path, after authentication', async () => {
    expect((await publicGet(t, '/nothing-here')).status).toBe(401);
    const res = await publicGet(t, '/nothing-here', { key: keys.publishable });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'route_not_found', livemode: false });
  });

  it('is not reachable with a dashboard token on /graphql', async () => {
    const res = await t.graphql('{ publicProducts { meta { total } } }', {}, { token: store.ownerToken });
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
  });

  it('is described in the OpenAPI document with API key security', async () => {
    const res = await t.request('GET', '/api/openapi.json');
    const op = res.body.paths['/api/public/v1/products/{productId}'].get;
    expect(op.security).toEqual([{ apiKey: [] }, { apiKeyHeader: [] }, { oauth2: ['public:read'] }, { oauth2: ['products:read'] }, { oauth2: ['products:write'] }]);
    expect(res.body.paths['/api/public/v1/payments/supported-countries'].get.operationId).toBe('listSupportedCountries');
  });
});
