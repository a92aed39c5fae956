import { defineAttribute, setProductAttributes } from '../helpers/attributes';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { expectGqlError, expectProblem } from '../products/helpers';

// The public API's collections through the real HTTP handler: published ones only (an unpublished one is 404), their
// title and description in the request's language, and a collection's active products with the storefront list's
// filters, sorts, facets and currency, in the collection's own sort by default; the same over GraphQL.

let t: TestServer;
let s: StoreFixture;
let other: StoreFixture;
const keys: Record<string, string> = {};
const P: Record<string, string> = {};
const C: Record<string, Record<string, any>> = {};

const merchant = (path: string) => `/api/v1/merchant/stores/${s.storeId}${path}`;
const post = async (path: string, body: unknown, store = s) => {
  const res = await t.request('POST', `/api/v1/merchant/stores/${store.storeId}${path}`, { token: store.ownerToken, body });
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
  return res.body?.data;
};
const pub = (path: string, key = keys.publishable, headers: Record<string, string> = {}) => publicGet(t, path, { key, headers });
const names = (res: { body: any }) => res.body.data.map((p: { name: string }) => p.name);

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000' });
  s = await createStoreFixture({ currency: 'EUR' });
  other = await createStoreFixture();
  await post('/locales', { locale: 'de' });
  await post('/currencies', { currency: 'JPY' });
  await defineAttribute(s.storeId, { code: 'material', name: 'Material', type: 'dropdown', values: ['cotton', 'linen'].map((v) => ({ value: v, name: v })) });
  const add = async (name: string, fields: Record<string, unknown>) => {
    P[name] = (await post('/products', { name, category_slugs: ['shoes'], status: 'active', ...fields })).id;
  };
  await add('Anorak', { price: 80, tags: ['summer'], prices: [{ currency: 'JPY', amount: '9000' }] });
  await add('Boots', { price: 120, tags: ['winter'] });
  await add('Cap', { price: 15, tags: ['summer'], prices: [{ currency: 'JPY', amount: '2000' }] });
  await add('Draft dress', { price: 30, tags: ['summer'], status: 'draft' });
  await add('Espadrilles', { price: 45, tags: ['summer'] });
  await setProductAttributes(P.Anorak, { material: 'cotton' });
  await setProductAttributes(P.Cap, { material: 'linen' });
  await setProductAttributes(P.Espadrilles, { material: 'cotton' });

  // A manual collection in the merchant's order (the draft among them), published, with a German title.
  C.picks = await post('/collections', { title: 'Staff picks', slug: 'staff-picks', description: 'Chosen by us', kind: 'manual', published: true });
  await post(`/collections/${C.picks.id}/products`, { product_ids: [P.Espadrilles, P['Draft dress'], P.Anorak, P.Cap, P.Boots] });
  const de = await t.request('PUT', merchant(`/collections/${C.picks.id}/translations/de`), { token: s.ownerToken, body: { title: 'Unsere Auswahl' } });
  expect(de.status).toBe(200);
  // A smart one, cheapest first; an unpublished one; another store's.
  C.summer = await post('/collections', { title: 'Summer', kind: 'smart', rules: [{ field: 'tag', operator: 'equals', value: 'summer' }], sort: 'price_asc', published: true });
  C.hidden = await post('/collections', { title: 'Hidden', kind: 'manual' });
  C.foreign = await post('/collections', { title: 'Foreign', kind: 'manual', published: true }, other);

  keys.publishable = (await createKey(t, s, { type: 'publishable', mode: 'live' })).secret;
  keys.testMode = (await createKey(t, s, { type: 'publishable', mode: 'test' })).secret;
  keys.productsRead = (await createKey(t, s, { type: 'secret', mode: 'live', scopes: ['products:read'] })).secret;
  keys.paymentsRead = (await createKey(t, s, { type: 'secret', mode: 'live', scopes: ['payments:read'] })).secret;
});
afterAll(() => t.close());

describe('GET /api/public/v1/collections', () => {
  it("lists the catalog's published collections, newest first, in the storefront view", async () => {
    const res = await pub('/collections');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => c.slug)).toEqual(['summer', 'staff-picks']);
    expect(res.body.data[1]).toEqual({
      id: C.picks.id,
      title: 'Staff picks',
      slug: 'staff-picks',
      description: 'Chosen by us',
      sort: 'manual',
      locale: 'en',
      published_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.body).toMatchObject({ livemode: true, locale: 'en', meta: { page: 1, per_page: 20, total: 2, has_more: false } });
  });

  it('pages, and refuses a page size out of range', async () => {
    const first = await pub('/collections?per_page=1');
    expect(first.body.data.map((c: any) => c.slug)).toEqual(['summer']);
    expect(first.body.meta).toMatchObject({ total: 2, has_more: true });
    expect(first.headers.get('link')).toContain('rel="next"');
    expectProblem(await pub('/collections?per_page=500'), 422, 'validation_failed');
  });

  it("answers in the request's locale, field by field along the fallback chain", async () => {
    const res = await pub('/collections?locale=de-AT');
    const picks = res.body.data.find((c: any) => c.id === C.picks.id);
    expect(picks).toMatchObject({ title: 'Unsere Auswahl', description: 'Chosen by us', locale: 'de' });
    expect(res.body.locale).toBe('de');
    expect(res.headers.get('content-language')).toBe('de');
    const byHeader = await pub(`/collections/${C.picks.id}`, keys.publishable, { 'accept-language': 'de;q=0.9, en;q=0.5' });
    expect(byHeader.body.data.title).toBe('Unsere Auswahl');
    expect(byHeader.headers.get('vary')).toMatch(/Accept-Language/);
    expectProblem(await pub('/collections?locale=not_a_tag!'), 422, 'validation_failed');
  });

  it("is the credential's catalog: a test-mode key sees the test catalog's collections (none here)", async () => {
    const res = await pub('/collections', keys.testMode);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], livemode: false, meta: { total: 0 } });
  });

  it.each([
    ['public:read', 'publishable', 200],
    ['products:read', 'productsRead', 200],
    ['payments:read only', 'paymentsRead', 403],
  ])('with %s answers %s', async (_what, key, status) => {
    expect((await pub('/collections', keys[key])).status).toBe(status);
    expect((await pub(`/collections/${C.picks.id}/products`, keys[key])).status).toBe(status);
  });
});

describe('GET /api/public/v1/collections/{collectionId}', () => {
  it('reads a published collection by id or slug; unpublished, unknown and foreign ones are 404', async () => {
    const byId = await pub(`/collections/${C.summer.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ data: { id: C.summer.id, slug: 'summer', sort: 'price_asc' }, livemode: true, locale: 'en' });
    expect((await pub('/collections/STAFF-PICKS')).body.data.id).toBe(C.picks.id);
    for (const ref of [C.hidden.id, 'hidden', C.foreign.id, '00000000-0000-4000-8000-000000000000']) {
      expectProblem(await pub(`/collections/${ref}`), 404, 'not_found');
      expectProblem(await pub(`/collections/${ref}/products`), 404, 'not_found');
    }
    expectProblem(await pub(`/collections/${C.picks.id}`, keys.testMode), 404, 'not_found');
  });

  it('disappears from the storefront when unpublished, and comes back when published again', async () => {
    const url = merchant(`/collections/${C.hidden.id}`);
    expect((await t.request('PATCH', url, { token: s.ownerToken, body: { published: true } })).status).toBe(200);
    expect((await pub('/collections/hidden')).status).toBe(200);
    expect((await t.request('PATCH', url, { token: s.ownerToken, body: { published: false } })).status).toBe(200);
    expectProblem(await pub('/collections/hidden'), 404, 'not_found');
  });
});

describe("GET /api/public/v1/collections/{collectionId}/products", () => {
  it("lists a manual collection's active products in the merchant's order, the draft left out", async () => {
    const res = await pub(`/collections/${C.picks.id}/products`);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Espadrilles', 'Anorak', 'Cap', 'Boots']);
    expect(res.body.data[0]).toMatchObject({ name: 'Espadrilles', price: 45, currency: 'EUR', in_stock: expect.any(Boolean) });
    expect(res.body.data[0]).not.toHaveProperty('inventory_quantity');
    expect(res.body).toMatchObject({ livemode: true, locale: 'en', meta: { total: 4, has_more: false } });
    const page2 = await pub(`/collections/staff-picks/products?per_page=2&page=2`);
    expect(names(page2)).toEqual(['Cap', 'Boots']);
  });

  it("lists a smart collection in its sort, another sort when asked, and follows a product write at once", async () => {
    expect(names(await pub(`/collections/summer/products`))).toEqual(['Cap', 'Espadrilles', 'Anorak']);
    expect(names(await pub(`/collections/summer/products?sort=-price`))).toEqual(['Anorak', 'Espadrilles', 'Cap']);
    expect(names(await pub(`/collections/summer/products?sort=name`))).toEqual(['Anorak', 'Cap', 'Espadrilles']);
    const patched = await t.request('PUT', merchant(`/products/${P.Boots}`), { token: s.ownerToken, body: { tags: ['winter', 'summer'] } });
    expect(patched.status).toBe(200);
    expect(names(await pub(`/collections/summer/products`))).toEqual(['Cap', 'Espadrilles', 'Anorak', 'Boots']);
    await t.request('PUT', merchant(`/products/${P.Boots}`), { token: s.ownerToken, body: { tags: ['winter'] } });
    expect(names(await pub(`/collections/summer/products`))).toEqual(['Cap', 'Espadrilles', 'Anorak']);
    expectProblem(await pub(`/collections/summer/products?sort=inventory_quantity`), 422, 'validation_failed');
  });

  it("takes the product list's filters, within the collection", async () => {
    expect(names(await pub(`/collections/staff-picks/products?tags=summer`))).toEqual(['Espadrilles', 'Anorak', 'Cap']);
    expect(names(await pub(`/collections/staff-picks/products?price_min=40&price_max=100`))).toEqual(['Espadrilles', 'Anorak']);
    expect(names(await pub(`/collections/staff-picks/products?search=cap`))).toEqual(['Cap']);
    expect(names(await pub(`/collections/staff-picks/products?attributes[material]=cotton`))).toEqual(['Espadrilles', 'Anorak']);
    expect(names(await pub(`/collections/summer/products?attributes[material]=cotton`))).toEqual(['Espadrilles', 'Anorak']);
    const filtered = await pub(`/collections/staff-picks/products?tags=summer&per_page=1`);
    expect(filtered.body.meta).toMatchObject({ total: 3, has_more: true });
  });

  it("counts facets over the collection's active products", async () => {
    const res = await pub(`/collections/staff-picks/products?facets=material`);
    expect(res.status).toBe(200);
    expect(res.body.meta.facets).toEqual([
      {
        code: 'material',
        name: 'Material',
        type: 'dropdown',
        unit: null,
        values: [
          { value: 'cotton', name: 'cotton', count: 2, selected: false },
          { value: 'linen', name: 'linen', count: 1, selected: false },
        ],
      },
    ]);
  });

  it('answers in a further currency: its prices, its price sort; one the store does not sell in is 422', async () => {
    const res = await pub(`/collections/staff-picks/products?currency=JPY&sort=price`);
    expect(res.status).toBe(200);
    const rows = res.body.data.map((p: any) => [p.name, p.price, p.currency]);
    expect(rows.slice(0, 2)).toEqual([
      ['Cap', 2000, 'JPY'],
      ['Anorak', 9000, 'JPY'],
    ]);
    // Products without a price in JPY come last (among themselves by id, as in the product list).
    expect(rows.slice(2).sort()).toEqual([
      ['Boots', null, 'JPY'],
      ['Espadrilles', null, 'JPY'],
    ]);
    const unsold = expectProblem(await pub(`/collections/staff-picks/products?currency=USD`), 422, 'validation_failed');
    expect(unsold.errors).toEqual([expect.objectContaining({ field: 'currency', code: 'currency_not_sold' })]);
  });
});

describe('GraphQL', () => {
  // The public fields are reached through the REST routes above (each runs one of them) with an API key; /graphql is the
  // dashboard's and answers them to no dashboard token.
  it('is not reachable with a dashboard token', async () => {
    for (const query of ['{ publicCollections { meta { total } } }', '{ publicCollection(collection: "staff-picks") { id } }', '{ publicCollectionProducts(collection: "staff-picks") { meta { total } } }']) {
      expectGqlError(await t.graphql(query, {}, { token: s.ownerToken }), 'forbidden');
    }
  });
});
