import { db } from '../../src/platform/db/client';
import { CATALOG_LIMITS } from '../../src/catalog/limits';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectProblem } from '../products/helpers';
import { collectionsPath, createCollection, memberIds } from './helpers';

// Manual collections through the real HTTP handler: add (at a position or the end), remove, move (to a position,
// before, after), the 5,000-product limit, and a full 5,000-product list reordered by move operations.

let t: TestServer;
let a: StoreFixture;
const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => t.request(method, path, { token: a.ownerToken, body, headers });

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

/** Products inserted in one statement (triggers keep counters and ordinals); their ids in name order. */
async function bulkProducts(storeId: string, n: number, prefix: string): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO products (id, store_id, name, price, search_text, updated_at, created_at)
     SELECT gen_random_uuid(), $1::uuid, $2 || lpad(g::text, 5, '0'), 1 + g % 100, 'x', now(), now() - g * interval '1 second'
     FROM generate_series(1, $3::int) g RETURNING id::text AS id, name`,
    storeId,
    prefix,
    n,
  );
  return (rows as unknown as { id: string; name: string }[]).sort((x, y) => x.name.localeCompare(y.name)).map((r) => r.id);
}

describe('manual operations', () => {
  let ids: string[];
  let url: string;
  beforeAll(async () => {
    ids = [];
    for (const name of ['P0', 'P1', 'P2', 'P3', 'P4']) ids.push((await createProduct(t, a, { name })).id);
    url = `${collectionsPath(a)}/${(await createCollection(t, a, { title: 'Hand picked', kind: 'manual' })).id}`;
  });
  const order = async () => memberIds(t, a, url.split('/').pop()!);

  it('adds at the end and at a position, keeping members already in where they are', async () => {
    const first = await req('POST', `${url}/products`, { product_ids: [ids[0], ids[1]] });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ products_count: 2, version: 2 });
    await req('POST', `${url}/products`, { product_ids: [ids[2], ids[0]], position: 1 });
    expect(await order()).toEqual([ids[0], ids[2], ids[1]]);
    await req('POST', `${url}/products`, { product_ids: [ids[3], ids[4]], position: 99 });
    expect(await order()).toEqual([ids[0], ids[2], ids[1], ids[3], ids[4]]);
  });

  it('moves to a position, before and after another member; several moves apply in order', async () => {
    expect((await req('POST', `${url}/products/move`, { product_id: ids[4], position: 0 })).status).toBe(200);
    expect(await order()).toEqual([ids[4], ids[0], ids[2], ids[1], ids[3]]);
    await req('POST', `${url}/products/move`, { product_id: ids[4], after: ids[3] });
    expect(await order()).toEqual([ids[0], ids[2], ids[1], ids[3], ids[4]]);
    await req('POST', `${url}/products/move`, { moves: [{ product_id: ids[1], before: ids[2] }, { product_id: ids[4], position: 3 }] });
    expect(await order()).toEqual([ids[0], ids[1], ids[2], ids[4], ids[3]]);
    const history = await req('GET', `${url}/changes?type=collection.products_moved&limit=1`);
    expect(history.body.data[0].data.moves).toEqual([
      { product_id: ids[1], from: 2, to: 1 },
      { product_id: ids[4], from: 4, to: 3 },
    ]);
  });

  it('removes (by list or one by one) and closes up', async () => {
    expect((await req('POST', `${url}/products/remove`, { product_ids: [ids[1], ids[4]] })).status).toBe(200);
    expect(await order()).toEqual([ids[0], ids[2], ids[3]]);
    expect((await req('DELETE', `${url}/products/${ids[0]}`)).status).toBe(204);
    expect(await order()).toEqual([ids[2], ids[3]]);
    expect((await req('POST', `${url}/products/move`, { product_id: ids[3], position: 0 })).status).toBe(200);
    expect(await order()).toEqual([ids[3], ids[2]]);
  });

  it('refuses products of another store, non-members in moves, unknown body fields, and stale versions', async () => {
    const other = await createStoreFixture();
    const foreign = await createProduct(t, other);
    const unknown = expectProblem(await req('POST', `${url}/products`, { product_ids: [ids[0], foreign.id] }), 422, 'validation_failed');
    expect(unknown.errors).toEqual([expect.objectContaining({ field: 'product_ids.1', code: 'unknown_product' })]);
    const notMember = expectProblem(await req('POST', `${url}/products/move`, { moves: [{ product_id: ids[0], position: 0 }] }), 422, 'validation_failed');
    expect(notMember.errors).toEqual([expect.objectContaining({ field: 'moves.0.product_id', code: 'not_a_member' })]);
    expectProblem(await req('POST', `${url}/products`, { product_ids: [ids[0]], extra: 1 }), 422, 'validation_failed');
    const current = (await req('GET', url)).body.data.version;
    expectProblem(await req('POST', `${url}/products`, { product_ids: [ids[0]] }, { 'If-Match': `"v${current - 1}"` }), 412, 'precondition_failed');
  });

  it('refuses manual operations on a smart collection (409 collection_is_smart)', async () => {
    const s = await createCollection(t, a, { title: 'Rules', kind: 'smart', rules: [{ field: 'tag', operator: 'equals', value: 'x' }] });
    expectProblem(await req('POST', `${collectionsPath(a)}/${s.id}/products`, { product_ids: [ids[0]] }), 409, 'collection_is_smart');
  });
});

describe('5,000 products', () => {
  it('holds at most 5,000 products (422 limit_exceeded, nothing added) and reorders a full list by moves', async () => {
    const s = await createStoreFixture();
    const ids = await bulkProducts(s.storeId, CATALOG_LIMITS.productsPerManualCollection + 1, 'N');
    const c = await createCollection(t, s, { title: 'Big', kind: 'manual' });
    const url = `${collectionsPath(s)}/${c.id}`;
    const sreq = (method: string, path: string, body?: unknown) => t.request(method, path, { token: s.ownerToken, body });
    const all = ids.slice(0, CATALOG_LIMITS.productsPerManualCollection);
    const added = await sreq('POST', `${url}/products`, { product_ids: all });
    expect(added.status).toBe(200);
    expect(added.body.data.products_count).toBe(5000);
    const over = expectProblem(await sreq('POST', `${url}/products`, { product_ids: [ids[5000]] }), 422, 'limit_exceeded');
    expect(over).toMatchObject({ limit_name: 'products_per_manual_collection', limit: 5000 });
    expect((await sreq('GET', url)).body.data.products_count).toBe(5000);

    // Reverse the first ten and send the last one to the front, the middle one to the end.
    const moves = [
      ...all.slice(0, 10).map((id, i) => ({ product_id: id, position: 9 - i })),
      { product_id: all[4999], position: 0 },
      { product_id: all[2500], after: all[4998] },
    ];
    const moved = await sreq('POST', `${url}/products/move`, { moves });
    expect(moved.status).toBe(200);
    const expected = [...all];
    for (const m of moves) {
      const from = expected.indexOf(m.product_id);
      expected.splice(from, 1);
      const to = 'after' in m ? expected.indexOf(m.after as string) + 1 : Math.min(m.position as number, expected.length);
      expected.splice(to, 0, m.product_id);
    }
    const first = await sreq('GET', `${url}/products?per_page=20`);
    expect(first.body.data.map((p: any) => p.id)).toEqual(expected.slice(0, 20));
    expect(first.body.meta).toMatchObject({ total: 5000, total_exact: true });
    const last = await sreq('GET', `${url}/products?per_page=20&page=250`);
    expect(last.body.data.map((p: any) => p.id)).toEqual(expected.slice(4980));
    // Positions stay dense: 0..4999, each once.
    const [dense] = await db().$queryRawUnsafe<{ n: bigint; lo: number; hi: number; d: bigint }[]>(
      `SELECT count(*) AS n, min(position) AS lo, max(position) AS hi, count(DISTINCT position) AS d FROM collection_products WHERE collection_id = $1::uuid`,
      c.id,
    );
    expect([Number(dense.n), dense.lo, dense.hi, Number(dense.d)]).toEqual([5000, 0, 4999, 5000]);
    // Removing half of them closes up too.
    const removed = await sreq('POST', `${url}/products/remove`, { product_ids: expected.filter((_, i) => i % 2 === 1) });
    expect(removed.body.data.products_count).toBe(2500);
    const after = await sreq('GET', `${url}/products?per_page=5`);
    expect(after.body.data.map((p: any) => p.id)).toEqual(expected.filter((_, i) => i % 2 === 0).slice(0, 5));
  }, 120_000);
});
