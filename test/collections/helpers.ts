import type { StoreFixture } from '../helpers/fixtures';
import type { TestServer } from '../helpers/harness';

export const collectionsPath = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}/collections`;

/** Creates a collection over REST as the owner; fails the test on anything but 201. */
export async function createCollection(t: TestServer, s: StoreFixture, body: Record<string, unknown>) {
  const res = await t.request('POST', collectionsPath(s), { token: s.ownerToken, body });
  if (res.status !== 201) throw new Error(`create collection failed: ${res.status} ${res.text}`);
  return res.body.data as Record<string, any>;
}

/** Every member id of a collection, in its sort, read page by page over REST. */
export async function memberIds(t: TestServer, s: StoreFixture, collection: string, perPage = 100): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request('GET', `${collectionsPath(s)}/${collection}/products?page=${page}&per_page=${perPage}`, { token: s.ownerToken });
    if (res.status !== 200) throw new Error(`members failed: ${res.status} ${res.text}`);
    ids.push(...res.body.data.map((p: { id: string }) => p.id));
    if (!res.body.meta.has_more) return ids;
  }
}

/** What rule tests name: the attributes color (dropdown: red, blue) and weight (numeric, kg), and a product type "Gear" with both; its id. */
export async function createGearType(t: TestServer, s: StoreFixture): Promise<string> {
  const base = `/api/v1/merchant/stores/${s.storeId}`;
  const post = (path: string, body: unknown) => t.request('POST', `${base}${path}`, { token: s.ownerToken, body });
  const color = await post('/attributes', { code: 'color', name: 'Color', type: 'dropdown', values: [{ value: 'red', name: 'Red' }, { value: 'blue', name: 'Blue' }] });
  const weight = await post('/attributes', { code: 'weight', name: 'Weight', type: 'numeric', unit: 'kg' });
  const type = await post('/product-types', { name: 'Gear', product_attributes: [{ attribute_id: color.body.data.id }, { attribute_id: weight.body.data.id }] });
  if (type.status !== 201) throw new Error(`product type failed: ${type.status} ${type.text}`);
  return type.body.data.id as string;
}

/** Rules with one error each (against a store with createGearType's vocabulary), and the errors they give, sorted. */
export const INVALID_RULES = [
  { field: 'tag', operator: 'greater_than', value: 'x' },
  { field: 'category', operator: 'equals', value: 'nope' },
  { field: 'price', operator: 'less_than', value: 'cheap' },
  { field: 'attribute', operator: 'equals', value: 'red' },
  { field: 'attribute', attribute: 'color', operator: 'greater_than', value: 3 },
  { field: 'colour', operator: 'equals', value: 'x' },
  { field: 'created_at', operator: 'after', value: 'yesterday' },
];
export const INVALID_RULE_ERRORS = [
  'rules.0.operator:invalid_choice',
  'rules.1.value:unknown_reference',
  'rules.2.value:invalid',
  'rules.3.attribute:required',
  'rules.4.attribute:invalid',
  'rules.5.field:invalid_choice',
  'rules.6.value:invalid',
].sort();
