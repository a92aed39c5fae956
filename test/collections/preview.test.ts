import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectProblem } from '../products/helpers';
import { collectionsPath, createCollection, createGearType, INVALID_RULE_ERRORS, INVALID_RULES, memberIds } from './helpers';

// The rule preview (POST …/collections/preview, GraphQL collectionRulesPreview): the count of products smart rules
// match before saving, which is exactly the products_count saving them gives, with the first matching products;
// rule errors all at once with their paths; nothing written.

let t: TestServer;
let a: StoreFixture;
const req = (method: string, path: string, body?: unknown, token = a.ownerToken) => t.request(method, path, { token, body });
const base = () => `/api/v1/merchant/stores/${a.storeId}`;
const preview = (body: Record<string, unknown>, token?: string) => req('POST', `${collectionsPath(a)}/preview`, body, token);
let typeId: string;
let betweenBAndC: string;
const names: Record<string, string> = {};

const PREVIEW_QUERY = `query($s: ID!, $rules: [CollectionRuleInput!]!, $match: CollectionMatch, $sort: CollectionSort, $first: Int) {
  collectionRulesPreview(storeId: $s, rules: $rules, match: $match, sort: $sort) { count products(first: $first) { id name } } }`;
const gqlPreview = (variables: Record<string, unknown>) => t.graphql(PREVIEW_QUERY, { s: a.storeId, ...variables }, { token: a.ownerToken });

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  typeId = await createGearType(t, a);
  const made = async (fields: Record<string, unknown>) => {
    const p = await createProduct(t, a, fields);
    names[p.id] = fields.name as string;
    return p;
  };
  await made({ name: 'A', tags: ['summer'], price: 20, inventory_quantity: 5, category_slugs: ['shoes'], product_type_id: typeId, attributes: { color: 'red', weight: 2 }, status: 'active' });
  await made({ name: 'B', tags: ['winter'], price: 80, inventory_quantity: 0, category_slugs: ['shirts'] });
  await new Promise((r) => setTimeout(r, 20));
  betweenBAndC = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 20));
  await made({ name: 'C', tags: ['summer', 'sale'], price: 45, inventory_quantity: 50, category_slugs: ['hats'], product_type_id: typeId, attributes: { color: 'blue', weight: 10 }, status: 'archived' });
  await made({ name: 'D', tags: ['sale'], price: 30, inventory_quantity: 3, category_slugs: ['hats', 'shoes'], status: 'active' });
  await made({ name: 'E', tags: [], price: 55.5, inventory_quantity: 12, category_slugs: ['shirts'] });
});
afterAll(() => t.close());

describe('the count is what saving gives', () => {
  it.each([
    ['tag', [{ field: 'tag', operator: 'equals', value: 'summer' }], 'all'],
    ['tag not_equals', [{ field: 'tag', operator: 'not_equals', value: 'sale' }], 'all'],
    ['category by slug', [{ field: 'category', operator: 'equals', value: 'shoes' }], 'all'],
    ['product type', [{ field: 'product_type', operator: 'not_equals', value: () => typeId }], 'all'],
    ['attribute value', [{ field: 'attribute', attribute: 'color', operator: 'equals', value: 'blue' }], 'all'],
    ['numeric attribute', [{ field: 'attribute', attribute: 'weight', operator: 'at_most', value: 5 }], 'all'],
    ['price range', [{ field: 'price', operator: 'at_least', value: 20 }, { field: 'price', operator: 'at_most', value: '45' }], 'all'],
    ['inventory', [{ field: 'inventory', operator: 'greater_than', value: 4 }], 'all'],
    ['status', [{ field: 'status', operator: 'not_equals', value: 'archived' }], 'all'],
    ['created after', [{ field: 'created_at', operator: 'after', value: () => betweenBAndC }], 'all'],
    ['any of', [{ field: 'tag', operator: 'equals', value: 'winter' }, { field: 'price', operator: 'less_than', value: 25 }, { field: 'category', operator: 'equals', value: 'hats' }], 'any'],
    ['matching nothing', [{ field: 'tag', operator: 'equals', value: 'nothing-has-this' }], 'all'],
  ])('%s', async (_name, ruleList, match) => {
    const rules = (ruleList as Record<string, unknown>[]).map((r) => ({ ...r, value: typeof r.value === 'function' ? (r.value as () => string)() : r.value }));
    const before = await db().event.count({ where: { storeId: a.storeId } });
    const res = await preview({ rules, match, first: 50 });
    expect(res.status).toBe(200);
    const rest = res.body.data as { products_count: number; products: { id: string; name: string }[] };
    // Nothing written: no event, no collection.
    expect(await db().event.count({ where: { storeId: a.storeId } })).toBe(before);
    expect(await db().collection.count({ where: { storeId: a.storeId } })).toBe(0);

    const gql = await gqlPreview({ rules, match, first: 50 });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.collectionRulesPreview.count).toBe(rest.products_count);

    const saved = await createCollection(t, a, { title: 'Preview check', kind: 'smart', rules, match });
    try {
      expect(rest.products_count).toBe(saved.products_count);
      // The listed products are the members, newest first as the saved collection lists them.
      expect(rest.products.map((p) => p.id)).toEqual(await memberIds(t, a, saved.id));
      expect(gql.body.data.collectionRulesPreview.products.map((p: { id: string }) => p.id)).toEqual(rest.products.map((p) => p.id));
    } finally {
      await req('DELETE', `${collectionsPath(a)}/${saved.id}`);
    }
  });

  it('lists the first products in the sort asked, five by default', async () => {
    const rules = [{ field: 'price', operator: 'greater_than', value: 0 }];
    const res = await preview({ rules });
    expect(res.body.data.products_count).toBe(5);
    expect(res.body.data.products.map((p: { name: string }) => p.name)).toEqual(['E', 'D', 'C', 'B', 'A']);
    // The merchant representation, as the collection's product list gives it.
    expect(res.body.data.products[0]).toMatchObject({ name: 'E', price: 55.5, category_slugs: ['shirts'] });
    const cheapest = await preview({ rules, sort: 'price_asc', first: 2 });
    expect(cheapest.body.data.products.map((p: { name: string }) => p.name)).toEqual(['A', 'D']);
    expect(cheapest.body.data.products_count).toBe(5);
    const dearest = await gqlPreview({ rules, sort: 'price_desc', first: 1 });
    expect(dearest.body.data.collectionRulesPreview.products.map((p: { name: string }) => p.name)).toEqual(['B']);
    const countOnly = await preview({ rules, first: 0 });
    expect(countOnly.body.data).toEqual({ products_count: 5, products: [] });
  });

  it('follows product writes: a price change moves the count as it moves membership', async () => {
    const rules = [{ field: 'price', operator: 'less_than', value: 50 }];
    const saved = await createCollection(t, a, { title: 'Under 50', kind: 'smart', rules });
    const under = (await preview({ rules })).body.data.products_count;
    expect(under).toBe(saved.products_count);
    const e = Object.keys(names).find((id) => names[id] === 'E')!;
    expect((await req('PUT', `${base()}/products/${e}`, { price: 49 })).status).toBe(200);
    expect((await preview({ rules })).body.data.products_count).toBe(under + 1);
    expect((await req('GET', `${collectionsPath(a)}/${saved.id}`)).body.data.products_count).toBe(under + 1);
    expect((await req('PUT', `${base()}/products/${e}`, { price: 55.5 })).status).toBe(200);
    await req('DELETE', `${collectionsPath(a)}/${saved.id}`);
  });
});

describe('errors, all at once', () => {
  const bad = [...INVALID_RULES, { field: 'inventory', operator: 'at_least', value: '' }];
  const expected = [...INVALID_RULE_ERRORS, 'rules.7.value:required'].sort();

  it('reports every rule error with its path, as a create does (REST and GraphQL)', async () => {
    const problem = expectProblem(await preview({ rules: bad }), 422, 'validation_failed');
    expect(problem.errors!.map((e) => `${e.field}:${e.code}`).sort()).toEqual(expected);
    const created = expectProblem(await req('POST', collectionsPath(a), { title: 'Bad', kind: 'smart', rules: bad }), 422, 'validation_failed');
    expect(created.errors!.map((e) => `${e.field}:${e.code}`).sort()).toEqual(expected);

    const gql = await gqlPreview({ rules: bad });
    expect(gql.body.errors[0].extensions.code).toBe('validation_failed');
    expect(gql.body.errors[0].extensions.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`).sort()).toEqual(expected);
  });

  it('needs a rule, a smart sort and a short list', async () => {
    const empty = expectProblem(await preview({ rules: [], sort: 'manual', first: 51 }), 422, 'validation_failed');
    expect(empty.errors!.map((e) => `${e.field}:${e.code}`).sort()).toEqual(['rules:required', 'sort:invalid_choice']);
    const tooMany = expectProblem(await preview({ rules: [{ field: 'tag', operator: 'equals', value: 'x' }], first: 51 }), 422, 'validation_failed');
    expect(tooMany.errors!.map((e) => `${e.field}:${e.code}`)).toEqual(['first:too_big']);
    const unknown = expectProblem(await preview({ rules: [{ field: 'tag', operator: 'equals', value: 'x' }], title: 'No' }), 422, 'validation_failed');
    expect(unknown.errors!.map((e) => `${e.field}:${e.code}`)).toEqual(['title:unknown_field']);
  });

  it('reads what reading products needs', async () => {
    const rules = [{ field: 'tag', operator: 'equals', value: 'summer' }];
    expect((await preview({ rules }, a.staffToken)).status).toBe(200);
    expect((await preview({ rules }, a.viewerToken)).status).toBe(403);
  });
});
