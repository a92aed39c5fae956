import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, productPath, storedProduct } from '../products/helpers';

/**
 * Writes that race each other: a write with no precondition never fails
 * because another write happened (it runs again on fresh data), 412 is kept
 * for a stale precondition, and a write racing a delete answers 404, never
 * 500. On PGlite the writes are serial; on PostgreSQL they really overlap.
 */
let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => t.request(method, path, { token: a.ownerToken, body, headers });

describe('concurrent writes', () => {
  it('20 concurrent updates with no precondition all succeed, each its own version and event', async () => {
    const p = await createProduct(t, a);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => req('PUT', productPath(a.storeId, p.id), { description: `written by request ${i}` })));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const versions = results.map((r) => r.body.data.version as number).sort((x, y) => x - y);
    expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const stored = await storedProduct(p.id);
    expect(stored!.version).toBe(21);
    // The last version's body is what is stored.
    expect(results.find((r) => r.body.data.version === 21)!.body.data.description).toBe(stored!.description);
    const events = await db().event.count({ where: { resourceId: p.id, type: 'product.updated' } });
    expect(events).toBe(20);
  });

  it('concurrent updates through GraphQL with no expectedVersion all succeed', async () => {
    const p = await createProduct(t, a);
    const mutation = `mutation($storeId: ID!, $id: ID!, $input: ProductUpdateInput!) { updateProduct(storeId: $storeId, id: $id, input: $input) { version } }`;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.graphql(mutation, { storeId: a.storeId, id: p.id, input: { inventoryQuantity: i + 100 } }, { token: a.ownerToken })),
    );
    for (const r of results) expect(r.body.errors).toBeUndefined();
    expect((await storedProduct(p.id))!.version).toBe(11);
  });

  it('keeps 412 for a stale precondition under concurrency: of 10 writers of version 1, one wins', async () => {
    const p = await createProduct(t, a);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => req('PUT', productPath(a.storeId, p.id), { name: `Writer ${i}` }, { 'If-Match': '"v1"' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(412)]);
    expect((await storedProduct(p.id))!.version).toBe(2);
  });

  it('publish, unpublish, update and variant writes racing a delete answer 2xx or 404, never 5xx, and leave nothing behind', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 15; round++) {
      const p = await createProduct(t, a);
      const path = productPath(a.storeId, p.id);
      const results = await Promise.all([
        req('POST', `${path}/publish`),
        req('DELETE', path),
        req('POST', `${path}/unpublish`),
        req('PUT', path, { description: `racing ${round}` }),
        req('PUT', `${path}/variants`, { variants: [{ sku: `RACE-${round}-${Date.now()}`, options: { size: 'M' } }] }),
        req('PUT', `${path}/seo`, { title: `Race ${round}` }),
      ]);
      for (const r of results) {
        statuses.push(r.status);
        expect([200, 201, 204, 404]).toContain(r.status);
        if (r.status === 404) expect(r.body.code).toBe('not_found');
      }
      expect(results[1].status).toBe(204);
      expect(await storedProduct(p.id)).toBeNull();
      expect(await db().variant.count({ where: { productId: p.id } })).toBe(0);
      expect(await db().seo.count({ where: { productId: p.id } })).toBe(0);
    }
    expect(statuses.some((s) => s >= 500)).toBe(false);
  });
});
