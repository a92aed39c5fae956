import { currentDatabase, db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { createProduct, gqlData, productPath, productsPath } from './helpers';

let t: TestServer;
let s: StoreFixture;

beforeAll(async () => {
  // Every request verifies its token: with the few-second verification cache a slow run could measure
  // authentication cached and the list uncached (or the reverse), and the difference would not be the list's cost.
  t = await startTestServer({ AUTH_CACHE_TTL_MS: '0' });
  s = await createStoreFixture();
  for (let i = 0; i < 20; i++) {
    const p = await createProduct(t, s, { name: `Product ${i}`, tags: ['a', `t${i}`], category_slugs: ['shoes', 'hats'] });
    await db().variant.createMany({
      data: [0, 1].map((v) => ({ storeId: s.storeId, productId: p.id, sku: `SKU-${i}-${v}`, optionsKey: `{"size":"${v}"}`, options: { size: String(v) } })),
    });
    await db().productImage.create({ data: { storeId: s.storeId, productId: p.id, sha256: String(i).padStart(64, '0'), mimeType: 'image/png', width: 1, height: 1, sizeBytes: 1 } });
    await db().seo.create({ data: { storeId: s.storeId, productId: p.id, slug: `product-${i}` } });
  }
});
afterAll(() => t.close());

/** Number of SQL statements the server sent while `fn` ran (requests run one at a time here). */
async function counted(fn: () => Promise<TestResponse>): Promise<{ res: TestResponse; queries: number }> {
  const before = currentDatabase()!.queryCount();
  const res = await fn();
  return { res, queries: currentDatabase()!.queryCount() - before };
}

describe('SQL statements per list request', () => {
  it('REST: a page of 20 products with categories, variants, images and SEO costs at most 2 statements beyond authentication', async () => {
    // per_page=0 is rejected after authentication and before the list runs: it measures authentication alone.
    const auth = await counted(() => t.request('GET', `${productsPath(s.storeId)}?per_page=0`, { token: s.ownerToken }));
    expect(auth.res.status).toBe(422);
    const page = await counted(() => t.request('GET', `${productsPath(s.storeId)}?per_page=20`, { token: s.ownerToken }));
    expect(page.res.status).toBe(200);
    expect(page.res.body.data).toHaveLength(20);
    expect(page.res.body.data[0]).toMatchObject({ category_slugs: ['hats', 'shoes'], variants_count: 2 });
    expect(page.queries - auth.queries).toBeLessThanOrEqual(2);
    // The same cost for 1 row and 20 rows: nothing runs per product.
    const one = await counted(() => t.request('GET', `${productsPath(s.storeId)}?per_page=1&search=product`, { token: s.ownerToken }));
    expect(one.res.body.data).toHaveLength(1);
    expect(one.queries).toBe(page.queries);
  });

  it('REST: reading one product costs one statement beyond authentication', async () => {
    const [first] = (await t.request('GET', productsPath(s.storeId), { token: s.ownerToken })).body.data;
    const auth = await counted(() => t.request('GET', `${productsPath(s.storeId)}?per_page=0`, { token: s.ownerToken }));
    const read = await counted(() => t.request('GET', productPath(s.storeId, first.id), { token: s.ownerToken }));
    expect(read.res.status).toBe(200);
    expect(read.queries - auth.queries).toBeLessThanOrEqual(1);
  });

  it('GraphQL: the page list and the connection cost at most 2 statements beyond authentication', async () => {
    const FIELDS = 'id name price currency categorySlugs variantsCount tags';
    const auth = await counted(() => t.graphql(`query($s: ID!) { products(storeId: $s, perPage: 0) { meta { total } } }`, { s: s.storeId }, { token: s.ownerToken }));
    expect(auth.res.body.errors[0].extensions.code).toBe('validation_failed');
    const page = await counted(() => t.graphql(`query($s: ID!) { products(storeId: $s, perPage: 20) { items { ${FIELDS} } meta { total } } }`, { s: s.storeId }, { token: s.ownerToken }));
    expect(gqlData(page.res).products.items).toHaveLength(20);
    expect(page.queries - auth.queries).toBeLessThanOrEqual(2);
    const conn = await counted(() => t.graphql(`query($s: ID!) { productsConnection(storeId: $s, first: 20) { edges { node { ${FIELDS} } } } }`, { s: s.storeId }, { token: s.ownerToken }));
    expect(gqlData(conn.res).productsConnection.edges).toHaveLength(20);
    expect(conn.queries - auth.queries).toBeLessThanOrEqual(2);
  });
});
