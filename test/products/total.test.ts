import { db } from '../../src/db/client';
import { EXACT_TOTAL_LIMIT } from '../../src/services/productList';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  // More products than the exact count covers, written in one statement.
  await db().$executeRawUnsafe(
    `INSERT INTO products (id, store_id, name, price, tags, search_text, updated_at, created_at)
     SELECT gen_random_uuid(), $1::uuid, 'Item ' || g, 1, CASE WHEN g % 1000 = 0 THEN ARRAY['rare'] ELSE ARRAY[]::text[] END,
            'item ' || g, now(), now() - g * interval '1 second'
     FROM generate_series(1, $2::int) g`,
    a.storeId,
    EXACT_TOTAL_LIMIT + 5,
  );
}, 120_000);
afterAll(() => t.close());

const list = (q: string) => t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products?${q}`, { token: a.ownerToken });

describe('totals of large lists', () => {
  it('gives the exact total of an unfiltered list at any size, from the store counters', async () => {
    const res = await list('per_page=20');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: EXACT_TOTAL_LIMIT + 5, total_exact: true, total_pages: 501, has_more: true });
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data[0].name).toBe('Item 1');
  });

  it('gives exact totals of status lists at any size', async () => {
    expect((await list('is_active=false&per_page=1')).body.meta).toMatchObject({ total: EXACT_TOTAL_LIMIT + 5, total_exact: true, has_more: true });
    expect((await list('is_active=true')).body.meta).toEqual({ page: 1, per_page: 20, total: 0, total_exact: true, total_pages: 0, has_more: false });
  });

  it('counts any other filter exactly up to 10,000 matches and says when total is only a lower bound', async () => {
    const res = await list('search=item&sort=-created_at');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: EXACT_TOTAL_LIMIT, total_exact: false, total_pages: 500, has_more: true });
    expect(res.body.data[0].name).toBe('Item 1');
  });

  it('stays exact for a filter with fewer matches', async () => {
    const res = await list('tags=rare');
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 10, total_exact: true, total_pages: 1, has_more: false });
  });

  it('keeps counting past the cap for a deep page, so has_more and the page agree', async () => {
    const res = await list('search=item&per_page=100&page=101');
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta).toMatchObject({ page: 101, total: EXACT_TOTAL_LIMIT + 5, total_exact: true, has_more: false });
  });
});
