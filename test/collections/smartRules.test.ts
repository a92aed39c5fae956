import { COLLECTION_RECOMPUTE, runDueCollectionRecomputes } from '../../src/catalog/services/collectionMembership';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { testContext } from '../helpers/context';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectProblem } from '../products/helpers';
import { collectionsPath, createCollection, createGearType, INVALID_RULE_ERRORS, INVALID_RULES, memberIds } from './helpers';

// Smart collections through the real HTTP handler: every rule kind, all and any, membership following each product
// write in its transaction (a price edit, a tag or category change, publishing, deletion), a rule change recomputed
// in the request or by the job, and rule errors reported all at once.

let t: TestServer;
let a: StoreFixture;
const req = (method: string, path: string, body?: unknown) => t.request(method, path, { token: a.ownerToken, body });
const base = () => `/api/v1/merchant/stores/${a.storeId}`;
let A: Record<string, any>;
let B: Record<string, any>;
let C: Record<string, any>;
let typeId: string;
let betweenBAndC: string;

const sorted = (ids: string[]) => [...ids].sort();
const smart = async (rules: unknown[], match: 'all' | 'any' = 'all') => {
  const c = await createCollection(t, a, { title: `Smart ${Math.random().toString(36).slice(2)}`, kind: 'smart', rules, match });
  expect(c.membership.state).toBe('current');
  return c;
};
const members = async (c: Record<string, any>) => sorted(await memberIds(t, a, c.id));

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  typeId = await createGearType(t, a);
  A = await createProduct(t, a, { name: 'A', tags: ['summer'], price: 20, inventory_quantity: 5, category_slugs: ['shoes'], product_type_id: typeId, attributes: { color: 'red', weight: 2 }, status: 'active' });
  B = await createProduct(t, a, { name: 'B', tags: ['winter'], price: 80, inventory_quantity: 0, category_slugs: ['shirts'] });
  await new Promise((r) => setTimeout(r, 20));
  betweenBAndC = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  C = await createProduct(t, a, { name: 'C', tags: ['summer', 'sale'], price: 45, inventory_quantity: 50, category_slugs: ['hats'], product_type_id: typeId, attributes: { color: 'blue', weight: 10 }, status: 'archived' });
});
afterAll(() => t.close());

describe('rule kinds', () => {
  it.each([
    ['tag equals', [{ field: 'tag', operator: 'equals', value: 'summer' }], ['A', 'C']],
    ['tag not_equals', [{ field: 'tag', operator: 'not_equals', value: 'summer' }], ['B']],
    ['category', [{ field: 'category', operator: 'equals', value: 'shirts' }], ['B']],
    ['category not_equals', [{ field: 'category', operator: 'not_equals', value: 'shirts' }], ['A', 'C']],
    ['product type', [{ field: 'product_type', operator: 'equals', value: () => typeId }], ['A', 'C']],
    ['product type not_equals', [{ field: 'product_type', operator: 'not_equals', value: () => typeId }], ['B']],
    ['attribute value', [{ field: 'attribute', attribute: 'color', operator: 'equals', value: 'red' }], ['A']],
    ['numeric attribute range', [{ field: 'attribute', attribute: 'weight', operator: 'greater_than', value: 5 }], ['C']],
    ['price below', [{ field: 'price', operator: 'less_than', value: 50 }], ['A', 'C']],
    ['price at least', [{ field: 'price', operator: 'at_least', value: '80' }], ['B']],
    ['price range (all)', [{ field: 'price', operator: 'at_least', value: 20 }, { field: 'price', operator: 'at_most', value: 45 }], ['A', 'C']],
    ['inventory out of stock', [{ field: 'inventory', operator: 'equals', value: 0 }], ['B']],
    ['inventory above', [{ field: 'inventory', operator: 'greater_than', value: 10 }], ['C']],
    ['status', [{ field: 'status', operator: 'equals', value: 'active' }], ['A']],
    ['status not_equals', [{ field: 'status', operator: 'not_equals', value: 'archived' }], ['A', 'B']],
    ['created after', [{ field: 'created_at', operator: 'after', value: () => betweenBAndC }], ['C']],
    ['created before', [{ field: 'created_at', operator: 'before', value: () => betweenBAndC }], ['A', 'B']],
  ])('%s', async (_name, rules, expected) => {
    const resolved = (rules as Record<string, unknown>[]).map((r) => ({ ...r, value: typeof r.value === 'function' ? (r.value as () => string)() : r.value }));
    const c = await smart(resolved);
    const names: Record<string, string> = { [A.id]: 'A', [B.id]: 'B', [C.id]: 'C' };
    expect((await members(c)).map((id) => names[id]).sort()).toEqual(expected);
    expect(c.products_count).toBe(expected.length);
  });

  it('matches all or any of the rules', async () => {
    const rules = [
      { field: 'tag', operator: 'equals', value: 'summer' },
      { field: 'price', operator: 'less_than', value: 30 },
    ];
    expect(await members(await smart(rules, 'all'))).toEqual([A.id]);
    expect(await members(await smart(rules, 'any'))).toEqual(sorted([A.id, C.id]));
    const winterOrCheap = await smart([{ field: 'tag', operator: 'equals', value: 'winter' }, { field: 'price', operator: 'less_than', value: 30 }], 'any');
    expect(await members(winterOrCheap)).toEqual(sorted([A.id, B.id]));
  });

  it('reports every rule error at once, with its path', async () => {
    const res = await req('POST', collectionsPath(a), {
      title: 'Bad rules',
      kind: 'smart',
      rules: INVALID_RULES,
    });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => `${e.field}:${e.code}`).sort()).toEqual(INVALID_RULE_ERRORS);
  });
});

describe('membership follows every product write, in its transaction', () => {
  it('a price edit moves a product into "under 50" at once (PATCH price, then GET members)', async () => {
    const under50 = await smart([{ field: 'price', operator: 'less_than', value: 50 }]);
    expect(await members(under50)).toEqual(sorted([A.id, C.id]));
    const edited = await req('PUT', `${base()}/products/${B.id}`, { price: 40 });
    expect(edited.status).toBe(200);
    expect(await members(under50)).toEqual(sorted([A.id, B.id, C.id]));
    expect((await req('GET', `${collectionsPath(a)}/${under50.id}`)).body.data.products_count).toBe(3);
    const history = await req('GET', `${collectionsPath(a)}/${under50.id}/changes?type=collection.products_added`);
    expect(history.body.data[0]).toMatchObject({ type: 'collection.products_added', data: { id: under50.id, product_ids: [B.id] } });
    // The event is in the product write's transaction: same request id.
    const productEvent = (await req('GET', `${base()}/products/${B.id}/changes?limit=1`)).body.data[0];
    expect(history.body.data[0].request_id).toBe(productEvent.request_id);
    expect((await req('PUT', `${base()}/products/${B.id}`, { price: 80 })).status).toBe(200);
    expect(await members(under50)).toEqual(sorted([A.id, C.id]));
  });

  it('follows tags, categories, publishing, new products and deletions', async () => {
    const sale = await smart([{ field: 'tag', operator: 'equals', value: 'sale' }]);
    const hats = await smart([{ field: 'category', operator: 'equals', value: 'hats' }]);
    const live = await smart([{ field: 'status', operator: 'equals', value: 'active' }]);
    const D = await createProduct(t, a, { name: 'D', tags: ['sale'], category_slugs: ['hats'] });
    expect(await members(sale)).toEqual(sorted([C.id, D.id]));
    expect(await members(hats)).toEqual(sorted([C.id, D.id]));
    await req('PUT', `${base()}/products/${D.id}`, { tags: [], category_slugs: ['shoes'] });
    expect(await members(sale)).toEqual([C.id]);
    expect(await members(hats)).toEqual([C.id]);
    expect((await req('POST', `${base()}/products/${D.id}/publish`)).status).toBe(200);
    expect(await members(live)).toEqual(sorted([A.id, D.id]));
    expect((await req('DELETE', `${base()}/products/${D.id}`)).status).toBe(204);
    expect(await members(live)).toEqual([A.id]);
    expect((await req('GET', `${collectionsPath(a)}/${live.id}`)).body.data.products_count).toBe(1);
  });

  it('keeps a category rule by the category id: renaming its slug changes nothing', async () => {
    const s = await createStoreFixture({ categories: ['boots', 'socks'] });
    const boot = await createProduct(t, s, { name: 'Boot', category_slugs: ['boots'] });
    const c = await createCollection(t, s, { title: 'Boots', kind: 'smart', rules: [{ field: 'category', operator: 'equals', value: 'boots' }] });
    const renamed = await t.graphql(
      `mutation($s: ID!) { updateCategory(storeId: $s, category: "boots", input: { slug: "winter-boots" }) { id slug } }`,
      { s: s.storeId },
      { token: s.ownerToken },
    );
    expect(renamed.body.data.updateCategory.slug).toBe('winter-boots');
    expect(c.rules).toEqual([{ field: 'category', operator: 'equals', value: renamed.body.data.updateCategory.id }]);
    expect((await t.request('PUT', `/api/v1/merchant/stores/${s.storeId}/products/${boot.id}`, { token: s.ownerToken, body: { price: 12 } })).status).toBe(200);
    expect(await memberIds(t, s, c.id)).toEqual([boot.id]);
  });

  it('follows attribute values written through the product type or the product', async () => {
    const blue = await smart([{ field: 'attribute', attribute: 'color', operator: 'equals', value: 'blue' }]);
    expect(await members(blue)).toEqual([C.id]);
    expect((await req('PUT', `${base()}/products/${A.id}`, { attributes: { color: 'blue' } })).status).toBe(200);
    expect(await members(blue)).toEqual(sorted([A.id, C.id]));
    expect((await req('PUT', `${base()}/products/${A.id}`, { attributes: { color: 'red' } })).status).toBe(200);
    expect(await members(blue)).toEqual([C.id]);
  });
});

describe('rule changes recompute membership', () => {
  it('in the request for a small catalog', async () => {
    const c = await smart([{ field: 'tag', operator: 'equals', value: 'winter' }]);
    expect(await members(c)).toEqual([B.id]);
    const changed = await req('PATCH', `${collectionsPath(a)}/${c.id}`, { rules: [{ field: 'tag', operator: 'equals', value: 'summer' }] });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ products_count: 2, membership: { state: 'current' }, version: 2 });
    expect(await members(c)).toEqual(sorted([A.id, C.id]));
    const any = await req('PATCH', `${collectionsPath(a)}/${c.id}`, { rules: [{ field: 'tag', operator: 'equals', value: 'summer' }, { field: 'tag', operator: 'equals', value: 'winter' }], match: 'any' });
    expect(any.body.data.products_count).toBe(3);
  });

  it('the same rules sent again, their keys in another order, are no change: no new version, no recompute', async () => {
    const c = await smart([{ field: 'price', operator: 'at_least', value: 10 }]);
    const again = await req('PATCH', `${collectionsPath(a)}/${c.id}`, { rules: [{ value: 10, operator: 'at_least', field: 'price' }] });
    expect(again.status).toBe(200);
    expect(again.body.data.version).toBe(c.version);
    const changes = await req('GET', `${collectionsPath(a)}/${c.id}/changes`);
    expect(changes.body.data.map((e: { type: string }) => e.type)).toEqual(['collection.created']);
  });

  it('through a job with progress above the threshold; products written meanwhile follow the new rules', async () => {
    const saved = { ...COLLECTION_RECOMPUTE };
    const c = await smart([{ field: 'tag', operator: 'equals', value: 'winter' }]);
    Object.assign(COLLECTION_RECOMPUTE, { inTransaction: 1, batch: 2 });
    try {
      const changed = await req('PATCH', `${collectionsPath(a)}/${c.id}`, { rules: [{ field: 'tag', operator: 'equals', value: 'summer' }] });
      expect(changed.body.data.membership).toMatchObject({ state: 'recomputing', done: 0, total: expect.any(Number) });
      // Written before the job ran: already a member under the new rules.
      const E = await createProduct(t, a, { name: 'E', tags: ['summer'] });
      expect(await members(c)).toEqual(expect.arrayContaining([E.id]));
      expect(await runDueCollectionRecomputes(testContext(), { maxBatches: 1 })).toBe(1);
      const midway = (await req('GET', `${collectionsPath(a)}/${c.id}`)).body.data.membership;
      expect(midway).toMatchObject({ state: 'recomputing', done: 2 });
      await runDueCollectionRecomputes(testContext());
      const done = (await req('GET', `${collectionsPath(a)}/${c.id}`)).body.data;
      expect(done.membership.state).toBe('current');
      expect(done.membership.done).toBe(done.membership.total);
      expect(await members(c)).toEqual(sorted([A.id, C.id, E.id]));
      expect((await req('DELETE', `${base()}/products/${E.id}`)).status).toBe(204);
    } finally {
      Object.assign(COLLECTION_RECOMPUTE, saved);
    }
  });
});

describe('races', () => {
  it('product writes racing a rule change all succeed, and membership is exact after both', async () => {
    const s = await createStoreFixture();
    const products = [];
    for (let i = 0; i < 6; i++) products.push(await createProduct(t, s, { name: `R${i}`, price: 10 }));
    const c = await createCollection(t, s, { title: 'Cheap', kind: 'smart', rules: [{ field: 'price', operator: 'less_than', value: 50 }] });
    const writes = products.map((p, i) => t.request('PUT', `/api/v1/merchant/stores/${s.storeId}/products/${p.id}`, { token: s.ownerToken, body: { price: i % 2 ? 80 : 20 } }));
    const rule = t.request('PATCH', `${collectionsPath(s)}/${c.id}`, { token: s.ownerToken, body: { rules: [{ field: 'price', operator: 'less_than', value: 30 }] } });
    const results = await Promise.all([...writes, rule]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(sorted(await memberIds(t, s, c.id))).toEqual(sorted(products.filter((_, i) => i % 2 === 0).map((p) => p.id)));
    expect((await t.request('GET', `${collectionsPath(s)}/${c.id}`, { token: s.ownerToken })).body.data.products_count).toBe(3);
  });
});

describe('sorts', () => {
  it('lists a smart collection newest first, by name, and by price either way', async () => {
    const c = await smart([{ field: 'tag', operator: 'equals', value: 'summer' }, { field: 'tag', operator: 'equals', value: 'winter' }], 'any');
    const order = async (sort: string) => {
      expect((await req('PATCH', `${collectionsPath(a)}/${c.id}`, { sort })).status).toBe(200);
      return memberIds(t, a, c.id);
    };
    expect(await order('newest')).toEqual([C.id, B.id, A.id]);
    expect(await order('name')).toEqual([A.id, B.id, C.id]);
    expect(await order('price_asc')).toEqual([A.id, C.id, B.id]);
    expect(await order('price_desc')).toEqual([B.id, C.id, A.id]);
  });
});
