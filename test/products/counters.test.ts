import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { controllableClock, testWorker } from '../helpers/webhooks';
import { createProduct, productPath, productsPath } from './helpers';

/**
 * The store's product counters (product_counts, kept by triggers on products)
 * give unfiltered and status lists their exact total. Whatever writes a
 * product (the API, the scheduler, a test catalog copy or deletion, racing
 * writers), the counters must equal what counting the rows says, and the
 * totals the lists answer must be those counts.
 */
let t: TestServer;
const clock = controllableClock();

beforeAll(async () => {
  t = await startTestServer({}, { now: clock.now });
});
afterAll(() => t.close());

type Counts = Record<string, number>;

/** Products of a store by "mode/status", counted from the rows. */
async function countedRows(storeId: string): Promise<Counts> {
  const rows = await db().$queryRaw<{ mode: string; status: string; n: bigint }[]>`
    SELECT mode::text, status::text, count(*) AS n FROM products WHERE store_id = ${storeId}::uuid GROUP BY 1, 2`;
  return Object.fromEntries(rows.map((r) => [`${r.mode}/${r.status}`, Number(r.n)]));
}

/** The same from the counters (zero sums left out, as counting rows has no zero groups). */
async function counters(storeId: string): Promise<Counts> {
  const rows = await db().$queryRaw<{ mode: string; status: string; n: bigint }[]>`
    SELECT mode::text, status::text, sum(count) AS n FROM product_counts WHERE store_id = ${storeId}::uuid GROUP BY 1, 2 HAVING sum(count) <> 0`;
  return Object.fromEntries(rows.map((r) => [`${r.mode}/${r.status}`, Number(r.n)]));
}

async function expectCountersMatchRows(storeId: string, expected: Counts) {
  expect(await countedRows(storeId)).toEqual(expected);
  expect(await counters(storeId)).toEqual(expected);
}

const list = (s: StoreFixture, query: string, mode: 'live' | 'test' = 'live') =>
  t.request('GET', `${productsPath(s.storeId)}?${query}`, { token: s.ownerToken, headers: { 'x-service-mode': mode } });

async function totals(s: StoreFixture, mode: 'live' | 'test' = 'live') {
  const [all, active, inactive] = await Promise.all(['per_page=1', 'is_active=true&per_page=1', 'is_active=false&per_page=1'].map((q) => list(s, q, mode)));
  for (const r of [all, active, inactive]) expect(r.body.meta.total_exact).toBe(true);
  return { all: all.body.meta.total, active: active.body.meta.total, inactive: inactive.body.meta.total };
}

describe('product counters', () => {
  it('follow create, publish, unpublish, status updates and deletes through the API, and serve the list totals', async () => {
    const s = await createStoreFixture();
    const draft = await createProduct(t, s, { name: 'Draft' });
    const active = await createProduct(t, s, { name: 'Active', status: 'active' });
    const archived = await createProduct(t, s, { name: 'Archived', status: 'archived' });
    await expectCountersMatchRows(s.storeId, { 'live/draft': 1, 'live/active': 1, 'live/archived': 1 });
    expect(await totals(s)).toEqual({ all: 3, active: 1, inactive: 2 });

    expect((await t.request('POST', `${productPath(s.storeId, draft.id)}/publish`, { token: s.ownerToken })).status).toBe(200);
    // Publishing twice changes nothing.
    expect((await t.request('POST', `${productPath(s.storeId, draft.id)}/publish`, { token: s.ownerToken })).status).toBe(200);
    await expectCountersMatchRows(s.storeId, { 'live/active': 2, 'live/archived': 1 });
    expect(await totals(s)).toEqual({ all: 3, active: 2, inactive: 1 });

    expect((await t.request('POST', `${productPath(s.storeId, active.id)}/unpublish`, { token: s.ownerToken })).status).toBe(200);
    expect((await t.request('PUT', productPath(s.storeId, archived.id), { token: s.ownerToken, body: { status: 'active' } })).status).toBe(200);
    // An update that leaves the status alone moves nothing.
    expect((await t.request('PUT', productPath(s.storeId, archived.id), { token: s.ownerToken, body: { name: 'Renamed', status: 'active' } })).status).toBe(200);
    await expectCountersMatchRows(s.storeId, { 'live/active': 2, 'live/draft': 1 });

    expect((await t.request('DELETE', productPath(s.storeId, draft.id), { token: s.ownerToken })).status).toBe(204);
    await expectCountersMatchRows(s.storeId, { 'live/active': 1, 'live/draft': 1 });
    expect(await totals(s)).toEqual({ all: 2, active: 1, inactive: 1 });
  });

  it('give GraphQL lists the same exact totals, by status', async () => {
    const s = await createStoreFixture();
    await createProduct(t, s, { status: 'active' });
    await createProduct(t, s, { status: 'archived' });
    await createProduct(t, s);
    const query = `query($storeId: ID!, $filter: ProductFilter) { products(storeId: $storeId, perPage: 1, filter: $filter) { meta { total totalExact hasMore } } }`;
    const totalOf = async (filter: Record<string, unknown>) => {
      const res = await t.graphql(query, { storeId: s.storeId, filter }, { token: s.ownerToken });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.products.meta;
    };
    expect(await totalOf({})).toEqual({ total: 3, totalExact: true, hasMore: true });
    expect(await totalOf({ isActive: true })).toEqual({ total: 1, totalExact: true, hasMore: false });
    expect(await totalOf({ isActive: false })).toEqual({ total: 2, totalExact: true, hasMore: true });
  });

  it('follow the scheduler publishing and unpublishing', async () => {
    const s = await createStoreFixture();
    const HOUR = 3_600_000;
    await createProduct(t, s, { publish_at: new Date(clock.now().getTime() + HOUR).toISOString() });
    await createProduct(t, s, { status: 'active', unpublish_at: new Date(clock.now().getTime() + HOUR).toISOString() });
    await expectCountersMatchRows(s.storeId, { 'live/draft': 1, 'live/active': 1 });
    clock.advance(2 * HOUR);
    await testWorker(t, { now: clock.now }).runOnce();
    const rows = await countedRows(s.storeId);
    expect(rows).toEqual({ 'live/draft': 1, 'live/active': 1 });
    expect(await db().product.count({ where: { storeId: s.storeId, publishAt: null, unpublishAt: null } })).toBe(2);
    await expectCountersMatchRows(s.storeId, rows);
  });

  it('follow a test catalog copy and the deletion of test data, each mode on its own', async () => {
    const s = await createStoreFixture();
    for (let i = 0; i < 5; i++) await createProduct(t, s, { name: `Live ${i}`, status: i < 2 ? 'active' : 'draft' });
    const copy = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/test-catalog/copy`, { token: s.ownerToken });
    expect(copy.status).toBe(202);
    await testWorker(t, { now: clock.now }).runOnce();
    await expectCountersMatchRows(s.storeId, { 'live/active': 2, 'live/draft': 3, 'test/active': 2, 'test/draft': 3 });
    expect(await totals(s, 'test')).toEqual({ all: 5, active: 2, inactive: 3 });

    const deletion = await t.request('DELETE', `/api/v1/merchant/stores/${s.storeId}/test-catalog`, { token: s.ownerToken });
    expect(deletion.status).toBe(202);
    await testWorker(t, { now: clock.now }).runOnce();
    await expectCountersMatchRows(s.storeId, { 'live/active': 2, 'live/draft': 3 });
    expect(await totals(s, 'test')).toEqual({ all: 0, active: 0, inactive: 0 });
    expect(await totals(s, 'live')).toEqual({ all: 5, active: 2, inactive: 3 });
  });

  it('stay exact under racing creates, publishes, unpublishes and deletes (on PostgreSQL they overlap)', async () => {
    const s = await createStoreFixture();
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) => t.request('POST', productsPath(s.storeId), {
        token: s.ownerToken,
        body: { name: `Racer ${i}`, price: 10, category_slugs: [s.categories[0]], status: ['draft', 'active', 'archived'][i % 3] },
      })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(24).fill(201));
    const ids = created.map((r) => r.body.data.id as string);
    const writes = await Promise.all(
      ids.flatMap((id, i) => [
        t.request('POST', `${productPath(s.storeId, id)}/${i % 2 ? 'publish' : 'unpublish'}`, { token: s.ownerToken }),
        i % 4 === 0 ? t.request('DELETE', productPath(s.storeId, id), { token: s.ownerToken }) : t.request('PUT', productPath(s.storeId, id), { token: s.ownerToken, body: { status: 'draft' } }),
      ]),
    );
    // A publish racing a delete may find nothing (404) and publishing an archived product is 409; never 5xx.
    for (const r of writes) expect([200, 204, 404, 409]).toContain(r.status);
    const rows = await countedRows(s.storeId);
    expect(Object.values(rows).reduce((a, b) => a + b, 0)).toBe(18);
    await expectCountersMatchRows(s.storeId, rows);
    const lists = await totals(s);
    expect(lists.all).toBe(18);
    expect(lists.active).toBe(rows['live/active'] ?? 0);
  });
});
