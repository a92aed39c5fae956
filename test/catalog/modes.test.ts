import { createProduct } from '../../src/catalog/services/productCreate';
import { testContext } from '../helpers/context';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { filePart, form, makeImage } from '../images/images';
import { createKey, createOAuthAccessToken } from '../public/helpers';

/**
 * Test data is separate from live data: every credential type in each mode
 * reads, lists, searches and writes only its own mode's catalog, and an id of
 * the other mode does not exist for it. The merchant API and the dashboard
 * GraphQL work on live data unless the request names test mode.
 */

let t: TestServer;
let store: StoreFixture;
const MODES = ['test', 'live'] as const;
type Mode = (typeof MODES)[number];
const other = (m: Mode): Mode => (m === 'test' ? 'live' : 'test');
/** Per mode: an active and a draft product, all named "... lamp" so a search finds them. */
const seeded: Record<Mode, { active: string; draft: string }> = { test: { active: '', draft: '' }, live: { active: '', draft: '' } };
const credentials: Record<string, Record<Mode, string>> = { secret: { test: '', live: '' }, system: { test: '', live: '' }, oauth: { test: '', live: '' }, publishable: { test: '', live: '' } };

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000', OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  for (const mode of MODES) {
    const ctx = testContext(undefined, { mode });
    seeded[mode].active = (await createProduct(ctx, store.storeId, { name: `${mode} desk lamp`, price: '20', status: 'active', categorySlugs: ['shoes'] })).id;
    seeded[mode].draft = (await createProduct(ctx, store.storeId, { name: `${mode} floor lamp`, price: '30', categorySlugs: ['shoes'] })).id;
    credentials.secret[mode] = (await createKey(t, store, { type: 'secret', mode, scopes: ['products:read', 'products:write'] })).secret;
    credentials.system[mode] = (await createKey(t, store, { type: 'system', mode })).secret;
    credentials.oauth[mode] = (await createOAuthAccessToken(store, mode, ['products:read', 'products:write'])).token;
    credentials.publishable[mode] = (await createKey(t, store, { type: 'publishable', mode })).secret;
  }
});
afterAll(() => t.close());

const call = (method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
  t.request(method, `/api/public/v1${path}`, { headers: { authorization: `Bearer ${key}`, ...headers }, body });
const ids = (res: TestResponse) => (res.body.data as { id: string }[]).map((p) => p.id).sort();

describe.each(['secret', 'system', 'oauth'])('a %s credential', (kind) => {
  describe.each(MODES)('in %s mode', (mode) => {
    const key = () => credentials[kind][mode];

    it('reads its own mode’s products in every status, and an id of the other mode is 404', async () => {
      for (const id of [seeded[mode].active, seeded[mode].draft]) {
        const res = await call('GET', `/products/${id}`, key());
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ data: { id }, livemode: mode === 'live' });
        expect(res.headers.get('x-service-mode')).toBe(mode);
        expect(res.headers.get('etag')).toBe(`"v${res.body.data.version}"`);
      }
      for (const id of [seeded[other(mode)].active, seeded[other(mode)].draft]) {
        const res = await call('GET', `/products/${id}`, key());
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found', livemode: mode === 'live' });
      }
    });

    it('lists and searches only its own mode’s products, with totals of that mode', async () => {
      const list = await call('GET', '/products?per_page=100', key());
      expect(list.status).toBe(200);
      const own = (await call('GET', '/products?per_page=100&search=lamp', key())).body;
      expect(own.data.length).toBeGreaterThanOrEqual(2);
      expect(own.data.every((p: { name: string }) => p.name.split(' ').includes(mode))).toBe(true);
      expect(ids(list)).toEqual(expect.arrayContaining([seeded[mode].active, seeded[mode].draft]));
      expect(ids(list)).not.toEqual(expect.arrayContaining([seeded[other(mode)].active]));
      expect(list.body.data.some((p: { name: string }) => p.name.split(' ').includes(other(mode)))).toBe(false);
      expect(list.body.meta.total).toBe(list.body.data.length);
      const search = await call('GET', `/products?search=${other(mode)}`, key());
      expect(search.body.data).toEqual([]);
      expect(search.body.meta.total).toBe(0);
      // Categories are shared, the products in them are not: the category filter reads this mode's only.
      const byCategory = await call('GET', '/products?per_page=100&category=shoes', key());
      expect(ids(byCategory)).toEqual(expect.arrayContaining([seeded[mode].active, seeded[mode].draft]));
      expect(byCategory.body.data.some((p: { name: string }) => p.name.split(' ').includes(other(mode)))).toBe(false);
      expect(byCategory.body.meta.total).toBe(byCategory.body.data.length);
    });

    it('writes into its own mode only: the product is there, absent from the other mode, and the other mode’s ids cannot be changed', async () => {
      const created = await call('POST', '/products', key(), { name: `${kind} ${mode} written lamp`, price: 12.5, category_slugs: ['shoes'] });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ data: { name: `${kind} ${mode} written lamp`, price: 12.5, status: 'draft', category_slugs: ['shoes'] }, livemode: mode === 'live' });
      expect(created.headers.get('location')).toBe(`${t.url}/api/public/v1/products/${created.body.data.id}`);
      const id = created.body.data.id;
      expect((await call('GET', `/products/${id}`, key())).status).toBe(200);
      expect((await call('GET', `/products/${id}`, credentials[kind][other(mode)])).status).toBe(404);
      const merchant = await t.request('GET', `/api/v1/merchant/stores/${store.storeId}/products/${id}`, { token: store.ownerToken, headers: { 'x-service-mode': mode } });
      expect(merchant.status).toBe(200);
      const merchantOther = await t.request('GET', `/api/v1/merchant/stores/${store.storeId}/products/${id}`, { token: store.ownerToken, headers: { 'x-service-mode': other(mode) } });
      expect(merchantOther.status).toBe(404);

      const foreign = seeded[other(mode)].active;
      expect((await call('PUT', `/products/${foreign}`, key(), { name: 'hijacked' })).status).toBe(404);
      expect((await call('POST', `/products/${foreign}/unpublish`, key())).status).toBe(404);
      expect((await call('PUT', `/products/${foreign}/variants`, key(), { variants: [{ sku: 'X-1' }] })).status).toBe(404);
      expect((await call('PUT', `/products/${foreign}/seo`, key(), { title: 'hijacked' })).status).toBe(404);
      expect((await call('DELETE', `/products/${foreign}`, key())).status).toBe(404);
      const untouched = await t.request('GET', `/api/v1/merchant/stores/${store.storeId}/products/${foreign}`, { token: store.ownerToken, headers: { 'x-service-mode': other(mode) } });
      expect(untouched.body.data).toMatchObject({ status: 'active', version: 1 });
      expect(untouched.body.data.name).toBe(`${other(mode)} desk lamp`);
    });

    it('is refused the other mode outright (403 mode_mismatch), whatever it asks', async () => {
      const res = await call('GET', '/products', key(), undefined, { 'x-service-mode': other(mode) });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('mode_mismatch');
    });
  });
});

describe.each(MODES)('a publishable key in %s mode', (mode) => {
  it('sees the active products of its own mode only, in the storefront view, and cannot write', async () => {
    const list = await call('GET', '/products?per_page=100', credentials.publishable[mode]);
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { name: string }) => p.name)).toEqual([`${mode} desk lamp`]);
    expect(list.body.data[0]).not.toHaveProperty('status');
    expect((await call('GET', `/products/${seeded[mode].draft}`, credentials.publishable[mode])).status).toBe(404);
    expect((await call('GET', `/products/${seeded[other(mode)].active}`, credentials.publishable[mode])).status).toBe(404);
    const write = await call('POST', '/products', credentials.publishable[mode], { name: 'nope', price: 1, category_slugs: ['shoes'] });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'products:write' });
  });
});

describe('the merchant API and the dashboard GraphQL', () => {
  const merchantList = (headers: Record<string, string> = {}, query = '') =>
    t.request('GET', `/api/v1/merchant/stores/${store.storeId}/products?per_page=100${query}`, { token: store.ownerToken, headers });

  it('work on live data by default and say so; X-Service-Mode: test (or ?mode=test) switches to the test catalog', async () => {
    const live = await merchantList();
    expect(live.headers.get('x-service-mode')).toBe('live');
    expect(live.body.data.every((p: { name: string }) => !p.name.startsWith('test'))).toBe(true);
    expect(ids(live)).toEqual(expect.arrayContaining([seeded.live.active, seeded.live.draft]));
    const test = await merchantList({ 'x-service-mode': 'test' });
    expect(test.headers.get('x-service-mode')).toBe('test');
    expect(ids(test)).toEqual(expect.arrayContaining([seeded.test.active, seeded.test.draft]));
    expect(test.body.data.some((p: { name: string }) => p.name.startsWith('live'))).toBe(false);
    expect(ids(await merchantList({}, '&mode=test'))).toEqual(ids(test));
    const bad = await merchantList({ 'x-service-mode': 'sandbox' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_mode');
  });

  it('GraphQL: the header or a mode argument picks the catalog; the two may not disagree', async () => {
    const q = `query($s: ID!, $m: ServiceMode) { products(storeId: $s, mode: $m, perPage: 100) { items { id name } meta { total } } }`;
    const names = (res: TestResponse) => res.body.data.products.items.map((p: { name: string }) => p.name) as string[];
    const byDefault = await t.graphql(q, { s: store.storeId }, { token: store.ownerToken });
    expect(byDefault.headers.get('x-service-mode')).toBe('live');
    expect(names(byDefault).every((n) => !n.startsWith('test'))).toBe(true);
    const byArgument = await t.graphql(q, { s: store.storeId, m: 'test' }, { token: store.ownerToken });
    expect(names(byArgument).length).toBeGreaterThan(0);
    expect(names(byArgument).every((n) => !n.startsWith('live'))).toBe(true);
    const byHeader = await t.graphql(q, { s: store.storeId }, { token: store.ownerToken, headers: { 'x-service-mode': 'test' } });
    expect(byHeader.headers.get('x-service-mode')).toBe('test');
    expect(names(byHeader).sort()).toEqual(names(byArgument).sort());
    const conflict = await t.graphql(q, { s: store.storeId, m: 'live' }, { token: store.ownerToken, headers: { 'x-service-mode': 'test' } });
    expect(conflict.body.errors[0].extensions.code).toBe('conflicting_mode');
    const other = await t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { id } }`, { s: store.storeId, id: seeded.test.active }, { token: store.ownerToken });
    expect(other.body.errors[0].extensions.code).toBe('not_found');
  });

  it('keeps SKUs and SEO slugs unique per mode: the same SKU and slug may exist once in each catalog', async () => {
    for (const mode of MODES) {
      const headers = { 'x-service-mode': mode };
      const base = `/api/v1/merchant/stores/${store.storeId}/products`;
      const p = await t.request('POST', base, { token: store.ownerToken, headers, body: { name: `${mode} sku lamp`, price: 5, category_slugs: ['shoes'] } });
      expect(p.status).toBe(201);
      const v = await t.request('PUT', `${base}/${p.body.data.id}/variants`, { token: store.ownerToken, headers, body: { variants: [{ sku: 'LAMP-SHARED' }] } });
      expect(v.status).toBe(200);
      const s = await t.request('PUT', `${base}/${p.body.data.id}/seo`, { token: store.ownerToken, headers, body: { slug: 'shared-lamp' } });
      expect(s.status).toBe(200);
      // Within one mode the SKU is still unique.
      const q = await t.request('POST', base, { token: store.ownerToken, headers, body: { name: `${mode} second sku lamp`, price: 5, category_slugs: ['shoes'] } });
      const clash = await t.request('PUT', `${base}/${q.body.data.id}/variants`, { token: store.ownerToken, headers, body: { variants: [{ sku: 'LAMP-SHARED' }] } });
      expect(clash.status).toBe(409);
      expect(clash.body.code).toBe('sku_taken');
    }
  });
});

describe("an OAuth app's test token", () => {
  /** Everything a reader of the live catalog can see: the merchant list, each product, its variants, and the live history. */
  async function liveCatalogSnapshot(): Promise<string> {
    const base = `/api/v1/merchant/stores/${store.storeId}`;
    const list = await t.request('GET', `${base}/products?per_page=100`, { token: store.ownerToken });
    const parts = [list.text];
    for (const p of list.body.data as { id: string }[]) {
      parts.push((await t.request('GET', `${base}/products/${p.id}`, { token: store.ownerToken })).text);
      parts.push((await t.request('GET', `${base}/products/${p.id}/variants`, { token: store.ownerToken })).text);
    }
    parts.push((await t.request('GET', `${base}/changes?mode=live&limit=100`, { token: store.ownerToken })).text);
    return parts.join('\n');
  }

  it('builds a test catalog through the public API while the live catalog stays byte for byte the same', async () => {
    const before = await liveCatalogSnapshot();
    const { token } = await createOAuthAccessToken(store, 'test', ['products:read', 'products:write']);
    const created = await call('POST', '/products', token, { name: 'Sandbox chair', price: 80, category_slugs: ['shoes'], tags: ['sandbox'] });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const etag = created.headers.get('etag')!;
    const updated = await call('PUT', `/products/${id}`, token, { price: 75.5 }, { 'if-match': etag });
    expect(updated.status).toBe(200);
    expect(updated.body.data.price).toBe(75.5);
    const stale = await call('PUT', `/products/${id}`, token, { price: 1 }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect((await call('PUT', `/products/${id}/variants`, token, { variants: [{ sku: 'CHAIR-1', options: { colour: 'oak' } }] })).status).toBe(200);
    expect((await call('PUT', `/products/${id}/seo`, token, { title: 'Sandbox chair', slug: 'sandbox-chair' })).status).toBe(200);
    const upload = await t.request('POST', '/api/public/v1/products/images', {
      headers: { authorization: `Bearer ${token}` },
      rawBody: form([{ name: 'product_id', value: id }, filePart(await makeImage('png'), 'chair.png', 'image/png')]),
    });
    expect(upload.status).toBe(201);
    expect(upload.body.livemode).toBe(false);
    const published = await call('POST', `/products/${id}/publish`, token);
    expect(published.body.data).toMatchObject({ status: 'active', variants_count: 1, seo: { slug: 'sandbox-chair' } });
    expect(published.body.data.images).toHaveLength(1);

    // The test catalog has it; the live one is exactly as it was, history included.
    const testList = await t.request('GET', `/api/v1/merchant/stores/${store.storeId}/products?search=sandbox`, { token: store.ownerToken, headers: { 'x-service-mode': 'test' } });
    expect(testList.body.data.map((p: { id: string }) => p.id)).toEqual([id]);
    expect(await liveCatalogSnapshot()).toBe(before);

    // Every one of those writes left a test-mode event, attributed to the OAuth app.
    const history = await t.request('GET', `/api/v1/merchant/stores/${store.storeId}/changes?resource_id=${id}&limit=100`, { token: store.ownerToken });
    const types = history.body.data.map((e: { type: string }) => e.type).reverse();
    expect(types).toEqual(['product.created', 'product.updated', 'product.variants_replaced', 'product.seo_updated', 'product.image_added', 'product.published']);
    expect(history.body.data.every((e: { mode: string; actor: { kind: string } }) => e.mode === 'test' && e.actor.kind === 'oauth_app')).toBe(true);
    const testOnly = await t.request('GET', `/api/v1/merchant/stores/${store.storeId}/changes?limit=100`, { token: store.ownerToken, headers: { 'x-service-mode': 'test' } });
    expect(testOnly.body.data.length).toBeGreaterThanOrEqual(6);
    expect(testOnly.body.data.every((e: { mode: string }) => e.mode === 'test')).toBe(true);
    const gql = await t.graphql(`query($s: ID!) { changes(storeId: $s, first: 100, filter: { mode: live }) { edges { node { mode } } } }`, { s: store.storeId }, { token: store.ownerToken });
    expect(gql.body.data.changes.edges.every((e: { node: { mode: string } }) => e.node.mode === 'live')).toBe(true);
    const contradicted = await t.graphql(`query($s: ID!) { changes(storeId: $s, filter: { mode: live }) { edges { node { mode } } } }`, { s: store.storeId }, { token: store.ownerToken, headers: { 'x-service-mode': 'test' } });
    expect(contradicted.body.errors[0].extensions.code).toBe('conflicting_mode');
  });
});
