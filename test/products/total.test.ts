import { db } from '../../src/platform/db/client';
import { COUNTED_PAGES_AHEAD } from '../../src/catalog/services/productList';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * The totals rule (docs/merchant-api.md, Totals): unfiltered and status lists are exact at
 * any size (store counters); any other filter counts its matches up to ten
 * pages past the page asked for, then says `total_exact: false` with `total`
 * at that bound (more than `total` match). `has_more` is exact either way.
 */
let t: TestServer;
let a: StoreFixture;
const PRODUCTS = 2005;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  // Written in one statement; every tenth product carries the tag "tenth" (200 of them), every thousandth "rare".
  await db().$executeRawUnsafe(
    `INSERT INTO products (id, store_id, name, price, tags, search_text, updated_at, created_at)
     SELECT gen_random_uuid(), $1::uuid, 'Item ' || g, 1,
            CASE WHEN g % 1000 = 0 THEN ARRAY['rare', 'tenth'] WHEN g % 10 = 0 THEN ARRAY['tenth'] ELSE ARRAY[]::text[] END,
            'item ' || g, now(), now() - g * interval '1 second'
     FROM generate_series(1, $2::int) g`,
    a.storeId,
    PRODUCTS,
  );
}, 120_000);
afterAll(() => t.close());

const list = (q: string) => t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products?${q}`, { token: a.ownerToken });

describe('totals of large lists', () => {
  it('gives the exact total of an unfiltered list at any size, from the store counters', async () => {
    const res = await list('per_page=20');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: PRODUCTS, total_exact: true, total_pages: 101, has_more: true });
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data[0].name).toBe('Item 1');
  });

  it('gives exact totals of status lists at any size', async () => {
    expect((await list('is_active=false&per_page=1')).body.meta).toMatchObject({ total: PRODUCTS, total_exact: true, has_more: true });
    expect((await list('is_active=true')).body.meta).toEqual({ page: 1, per_page: 20, total: 0, total_exact: true, total_pages: 0, has_more: false });
  });

  it('counts any other filter up to ten pages ahead and then says total is only a bound', async () => {
    expect(COUNTED_PAGES_AHEAD).toBe(10);
    const res = await list('search=item&sort=-created_at');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: 200, total_exact: false, total_pages: 10, has_more: true });
    expect(res.body.data[0].name).toBe('Item 1');
    // The bound follows the page asked for.
    expect((await list('search=item&page=5&per_page=50')).body.meta).toEqual({ page: 5, per_page: 50, total: 700, total_exact: false, total_pages: 14, has_more: true });
    expect((await list('tags=tenth&per_page=19')).body.meta).toMatchObject({ total: 190, total_exact: false, has_more: true });
  });

  it('links the next page while there is one, and leaves rel="last" out when the total is only a bound', async () => {
    const rels = (link: string | null) => Object.fromEntries((link ?? '').split(',').map((part) => [/rel="(\w+)"/.exec(part)![1], new URL(/<([^>]+)>/.exec(part)![1]).searchParams.get('page')]));
    const first = await list('search=item&sort=-created_at');
    expect(rels(first.headers.get('link'))).toEqual({ first: '1', next: '2' });
    // Page 10 is the last the bound of page 1 knew of: has_more decides the next link, not total_pages.
    const tenth = await list('search=item&sort=-created_at&page=10');
    expect(tenth.body.meta).toMatchObject({ total_exact: false, has_more: true });
    expect(rels(tenth.headers.get('link'))).toEqual({ first: '1', prev: '9', next: '11' });
    const exact = await list('tags=rare');
    expect(rels(exact.headers.get('link'))).toEqual({ first: '1', last: '1' });
  });

  it('is exact at the bound itself and below it', async () => {
    // Exactly 200 matches and a bound of 200: counted to the end, so exact.
    expect((await list('tags=tenth')).body.meta).toEqual({ page: 1, per_page: 20, total: 200, total_exact: true, total_pages: 10, has_more: true });
    expect((await list('tags=rare')).body.meta).toEqual({ page: 1, per_page: 20, total: 2, total_exact: true, total_pages: 1, has_more: false });
  });

  it('counts to the end for a deep page, so has_more and the page agree', async () => {
    const res = await list('search=item&per_page=100&page=21');
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta).toMatchObject({ page: 21, total: PRODUCTS, total_exact: true, has_more: false });
  });
});
