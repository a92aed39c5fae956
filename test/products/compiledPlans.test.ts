import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../../src/app';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { filePart, makeImage, restUpload } from '../images/images';
import { createKey } from '../public/helpers';
import { addVariant, defineAttribute, setProductAttributes } from '../helpers/attributes';
import { createProduct, MISSING_ID, productPath, productsPath } from './helpers';

/**
 * The hot REST reads (a product list page, one product) are answered by direct
 * plans: the services without GraphQL execution. They must answer exactly as
 * executing the route's operation does. A second handler on the same database
 * runs every route through execution; each request goes to both, and status,
 * body and the headers a client reads must be equal, for every filter, sort
 * and page, for products with and without images, SEO, variants, categories
 * and schedules, and for every kind of caller, allowed or not.
 */
let t: TestServer;
let executed: Server;
let executedUrl: string;
let a: StoreFixture;
let b: StoreFixture;
const ids: string[] = [];
let otherStoreProduct: string;
const keys: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer();
  const app = createApp(t.config, { log: pino({ level: 'silent' }), compiledPlans: false });
  executed = createServer((req, res) => void app.handler(req, res));
  await new Promise<void>((resolve) => executed.listen(0, '127.0.0.1', resolve));
  executedUrl = `http://127.0.0.1:${(executed.address() as AddressInfo).port}`;

  a = await createStoreFixture({ categories: ['shoes', 'bags', 'hats'] });
  b = await createStoreFixture();
  const day = 24 * 3600_000;
  const specs: Record<string, unknown>[] = [
    { name: 'Trail Shoe', price: 89.9, category_slugs: ['shoes', 'bags'], tags: ['sale', 'new'], status: 'active' },
    { name: 'Shoe', price: 10, category_slugs: ['shoes'], status: 'active', inventory_quantity: 2, low_stock_threshold: 5 },
    { name: 'Canvas Bag', price: 0.5, category_slugs: ['bags'], description: 'A shoe bag', tags: ['sale'] },
    { name: 'Scheduled Hat', price: 25, category_slugs: ['hats'], publish_at: new Date(Date.now() + 3 * day).toISOString() },
    { name: 'Leaving Hat', price: 1234567.89, category_slugs: ['hats'], status: 'active', unpublish_at: new Date(Date.now() + 5 * day).toISOString() },
    { name: 'Old Shoe', price: 5, category_slugs: ['shoes'], status: 'archived', inventory_quantity: 0 },
  ];
  for (let i = 0; i < 14; i++) specs.push({ name: `Plain product ${i}`, price: 3 + i, category_slugs: [i % 2 ? 'bags' : 'shoes'], tags: i % 3 ? [] : ['sale'] });
  for (const spec of specs) ids.push((await createProduct(t, a, spec)).id);
  // The richest product: two images in order, an SEO record, variants.
  const rich = ids[0];
  for (const [i, alt] of ['Front', 'Side'].entries()) {
    const res = await restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: rich }, { name: 'alt', value: alt }, filePart(await makeImage('png', 20 + i, 10), `${i}.png`, 'image/png')]);
    expect(res.status).toBe(201);
  }
  const seo = { title: 'Trail', description: 'For trails', slug: 'trail-shoe', canonical_url: 'https://shop.example.test/trail', og_image_url: 'https://cdn.example.test/t.png', noindex: true };
  expect((await t.request('PUT', `${productPath(a.storeId, rich)}/seo`, { token: a.ownerToken, body: seo })).status).toBe(200);
  const variants = [{ sku: 'TS-1', title: 'Size 1', options: { size: '1' }, price: 90, inventory_quantity: 1 }, { sku: 'TS-2', title: 'Size 2', options: { size: '2' } }];
  expect((await t.request('PUT', `${productPath(a.storeId, rich)}/variants`, { token: a.ownerToken, body: { variants } })).status).toBe(200);
  // A product with an SEO record of nulls but a slug.
  expect((await t.request('PUT', `${productPath(a.storeId, ids[2])}/seo`, { token: a.ownerToken, body: { slug: 'canvas-bag' } })).status).toBe(200);
  otherStoreProduct = (await createProduct(t, b, { name: 'Other Shoe' })).id;
  await defineAttribute(a.storeId, { code: 'material', name: 'Material', type: 'dropdown', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }] });
  await defineAttribute(a.storeId, { code: 'capacity', type: 'numeric', unit: 'l' });
  await defineAttribute(a.storeId, { code: 'size', type: 'swatch', values: [{ value: 'S', name: 'Small', hex: '#000000' }] });
  for (const [i, id] of ids.slice(0, 6).entries()) await setProductAttributes(id, { material: i % 2 ? 'cotton' : 'linen', capacity: i / 2 });
  await addVariant(ids[1], 'ATTR-S', { size: 'S' });

  keys.readLive = (await createKey(t, a, { type: 'secret', mode: 'live', scopes: ['products:read'] })).secret;
  keys.writeTest = (await createKey(t, a, { type: 'secret', mode: 'test', scopes: ['products:write'] })).secret;
  keys.publicOnly = (await createKey(t, a, { type: 'secret', mode: 'live', scopes: ['public:read'] })).secret;
  keys.publishable = (await createKey(t, a, { type: 'publishable', mode: 'live' })).secret;
  keys.otherStore = (await createKey(t, b, { type: 'secret', mode: 'live', scopes: ['products:read'] })).secret;
  // The test-mode catalog has its own products.
  const created = await t.request('POST', '/api/public/v1/products', { token: keys.writeTest, body: { name: 'Test-mode Shoe', price: 7, category_slugs: ['shoes'] } });
  expect({ status: created.status, body: created.status === 201 ? null : created.body }).toEqual({ status: 201, body: null });
  ids.push(created.body.data.id);
});

afterAll(async () => {
  executed?.closeAllConnections();
  await new Promise((resolve) => executed?.close(resolve));
  await t?.close();
});

/** Status, body and the headers a client reads, as the handler at `base` answers. */
async function answer(base: string, path: string, token: string | undefined, method = 'GET') {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const res = await fetch(base + path, { method, headers });
  // Links and image URLs are absolute: each handler names its own host.
  const text = (await res.text()).replaceAll(base, 'http://service');
  const body = text ? JSON.parse(text) : null;
  if (body && typeof body === 'object') delete body.request_id;
  const shown = ['content-type', 'etag', 'link', 'retry-after', 'www-authenticate', 'x-service-mode', 'cache-control'];
  return { status: res.status, headers: Object.fromEntries(shown.map((h) => [h, res.headers.get(h)?.replaceAll(base, 'http://service') ?? null])), body };
}

/** Sends the request to the service and to the executing handler; they must answer alike. Returns the answer. */
async function expectSameAnswer(path: string, token: string | undefined, method = 'GET') {
  const [direct, viaExecution] = await Promise.all([answer(t.url, path, token, method), answer(executedUrl, path, token, method)]);
  expect({ path, ...direct }).toEqual({ path, ...viaExecution });
  return direct;
}

const LIST_QUERIES = [
  '',
  '?per_page=5',
  '?per_page=5&page=2',
  '?per_page=5&page=4',
  '?page=50',
  '?sort=-price',
  '?sort=price&per_page=3&page=2',
  '?sort=name',
  '?sort=-name&per_page=4',
  '?sort=created_at',
  '?sort=inventory_quantity',
  '?search=shoe',
  '?search=SHOE&per_page=2',
  '?search=hat&sort=price',
  '?search=nothing-matches',
  '?category=shoes',
  '?category=bags&sort=-price',
  '?category=missing',
  '?tags=sale',
  '?tags=sale,new&per_page=2&page=2',
  '?is_active=true',
  '?is_active=false',
  '?low_stock=true',
  '?scheduled=true',
  '?search=shoe&category=shoes&tags=sale&is_active=true',
  '?attributes[material]=cotton&facets=material,capacity,size',
  '?attributes[capacity][gte]=1&attributes[size]=S&facets=capacity&sort=price',
  '?facets=material&is_active=true',
  '?attributes[material]=wool&attributes[nope]=1&facets=nope',
  // Refused the same way.
  '?per_page=0',
  '?per_page=101',
  '?page=0',
  '?page=-1',
  '?sort=bogus',
  '?is_active=yes',
  `?search=${'x'.repeat(300)}`,
];

describe('compiled plans answer as GraphQL execution does', () => {
  it.each(LIST_QUERIES)('the product list %s, for the owner, a product manager and an API key', async (query) => {
    const answered = await expectSameAnswer(productsPath(a.storeId) + query, a.ownerToken);
    await expectSameAnswer(productsPath(a.storeId) + query, a.staffToken);
    await expectSameAnswer(`/api/public/v1/products${query}`, keys.readLive);
    expect([200, 422]).toContain(answered.status);
  });

  it('every product, with images, SEO, variants, schedules and money of every size, is read alike', async () => {
    const page = await expectSameAnswer(`${productsPath(a.storeId)}?per_page=100`, a.ownerToken);
    expect(page.body.data).toHaveLength(ids.length - 1);
    const rich = page.body.data.find((p: { name: string }) => p.name === 'Trail Shoe');
    expect(rich).toMatchObject({ variants_count: 2, category_slugs: ['bags', 'shoes'], seo: { slug: 'trail-shoe', noindex: true } });
    expect(rich.images.map((i: { alt: string }) => i.alt)).toEqual(['Front', 'Side']);
    for (const id of ids) {
      await expectSameAnswer(productPath(a.storeId, id), a.ownerToken);
      await expectSameAnswer(productPath(a.storeId, id), a.ownerToken, 'HEAD');
      await expectSameAnswer(`/api/public/v1/products/${id}`, keys.readLive);
      await expectSameAnswer(`/api/public/v1/products/${id}`, keys.writeTest);
    }
  });

  it.each([
    ['a missing product', () => productPath(a.storeId, MISSING_ID)],
    ['an id that is not a UUID', () => productPath(a.storeId, 'not-a-uuid')],
    ["another store's product", () => productPath(a.storeId, otherStoreProduct)],
    ['a store id that is not a UUID', () => productPath('nope', ids[0])],
    ["another store's path", () => productPath(b.storeId, otherStoreProduct)],
    ['the list of another store', () => productsPath(b.storeId)],
    ['the list of a store id that is not a UUID', () => productsPath('nope')],
  ])('%s is refused alike', async (_what, path) => {
    const answered = await expectSameAnswer(path(), a.ownerToken);
    expect(answered.status).toBeGreaterThanOrEqual(400);
  });

  it.each([
    ['no credential', () => undefined, () => productsPath(a.storeId)],
    ['a member without manage_products', () => a.viewerToken, () => productsPath(a.storeId)],
    ['a member without manage_products, one product', () => a.viewerToken, () => productPath(a.storeId, ids[0])],
    ['a malformed token', () => 'svc_dash_nonsense', () => productPath(a.storeId, ids[0])],
    ['an API key on the merchant path', () => keys.readLive, () => productsPath(a.storeId)],
    ['a key with public:read only (the public representation)', () => keys.publicOnly, () => '/api/public/v1/products'],
    ['a publishable key', () => keys.publishable, () => `/api/public/v1/products/${ids[0]}`],
    ["another store's key", () => keys.otherStore, () => `/api/public/v1/products/${ids[0]}`],
    ['a test-mode key on the live catalog', () => keys.writeTest, () => `/api/public/v1/products?mode=live`],
    ['a test-mode key listing its catalog', () => keys.writeTest, () => '/api/public/v1/products?per_page=3'],
  ])('%s is answered alike', async (_what, token, path) => {
    await expectSameAnswer(path(), token());
  });

  it("a collection's products (the merchant's hot read of collections) are answered alike, in every sort and refusal", async () => {
    const collections = `/api/v1/merchant/stores/${a.storeId}/collections`;
    const manual = await t.request('POST', collections, { token: a.ownerToken, body: { title: 'Picked', kind: 'manual' } });
    expect(manual.status).toBe(201);
    const added = await t.request('POST', `${collections}/${manual.body.data.id}/products`, { token: a.ownerToken, body: { product_ids: [ids[3], ids[0], ids[5], ids[2]] } });
    expect(added.status).toBe(200);
    const refs = [manual.body.data.id, manual.body.data.slug];
    for (const sort of ['newest', 'name', 'price_asc', 'price_desc']) {
      const smart = await t.request('POST', collections, { token: a.ownerToken, body: { title: `Sale by ${sort}`, kind: 'smart', sort, rules: [{ field: 'tag', operator: 'equals', value: 'sale' }] } });
      expect(smart.status).toBe(201);
      refs.push(smart.body.data.id);
    }
    for (const ref of refs) {
      for (const query of ['', '?per_page=2', '?per_page=2&page=2', '?page=9', '?per_page=0']) {
        const answered = await expectSameAnswer(`${collections}/${ref}/products${query}`, a.ownerToken);
        expect([200, 422]).toContain(answered.status);
      }
      await expectSameAnswer(`${collections}/${ref}/products`, a.staffToken);
      await expectSameAnswer(`${collections}/${ref}/products`, a.viewerToken);
      await expectSameAnswer(`${collections}/${ref}/products`, undefined);
    }
    const picked = await expectSameAnswer(`${collections}/${refs[0]}/products`, a.ownerToken);
    expect(picked.body.data.map((p: { id: string }) => p.id)).toEqual([ids[3], ids[0], ids[5], ids[2]]);
    await expectSameAnswer(`${collections}/${MISSING_ID}/products`, a.ownerToken);
    await expectSameAnswer(`/api/v1/merchant/stores/${b.storeId}/collections/${refs[0]}/products`, b.ownerToken);
    await expectSameAnswer(`/api/v1/merchant/stores/nope/collections/${refs[0]}/products`, a.ownerToken);
  });
});
