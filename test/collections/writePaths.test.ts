import { runDueSchedules } from '../../src/catalog/services/productSchedules';
import { runDueTestCatalogJobs } from '../../src/catalog/services/testCatalog';
import { importProducts } from '../../src/catalog/transfer/importer';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { testContext } from '../helpers/context';
import { startTestServer, type TestServer } from '../helpers/harness';
import { chunksOf, generatedCsv } from '../bulk/helpers';
import { createProduct } from '../products/helpers';
import { collectionsPath, createCollection, memberIds } from './helpers';

// The write paths besides the product routes keep smart membership too, each in its own transaction: the bulk
// import, scheduled publishing, the test catalog's copy and generator, and variants (their attribute values).

let t: TestServer;
let a: StoreFixture;
let clock = new Date();
const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => t.request(method, path, { token: a.ownerToken, body, headers });
const base = () => `/api/v1/merchant/stores/${a.storeId}`;
const countOf = async (id: string, mode = 'live') => (await req('GET', `${collectionsPath(a)}/${id}`, undefined, { 'X-Service-Mode': mode })).body.data.products_count;

beforeAll(async () => {
  t = await startTestServer({}, { now: () => clock });
  a = await createStoreFixture();
});
afterAll(() => t.close());

it('the bulk import: created products join smart collections in their batch', async () => {
  const c = await createCollection(t, a, { title: 'Imported shoes', kind: 'smart', rules: [{ field: 'category', operator: 'equals', value: 'shoes' }] });
  const operator = testContext({ kind: 'operator', username: 'tester' }, { source: 'cli' });
  const r = await importProducts(operator, a.storeId, chunksOf(generatedCsv(30)), { format: 'csv', maxRows: 100, errorPolicy: 'reject_failed_rows' });
  expect(r).toMatchObject({ created: 30, rejected: 0 });
  expect(await countOf(c.id)).toBe(30);
});

it('scheduled publishing: the scheduler moves the product into a status collection', async () => {
  const live = await createCollection(t, a, { title: 'On sale now', kind: 'smart', rules: [{ field: 'status', operator: 'equals', value: 'active' }, { field: 'tag', operator: 'equals', value: 'scheduled' }] });
  const p = await createProduct(t, a, { tags: ['scheduled'], publish_at: new Date(clock.getTime() + 60_000).toISOString() });
  expect(await memberIds(t, a, live.id)).toEqual([]);
  clock = new Date(clock.getTime() + 120_000);
  expect(await runDueSchedules(t.app.systemContext(), {})).toBeGreaterThanOrEqual(1);
  expect(await memberIds(t, a, live.id)).toEqual([p.id]);
});

it('variants: an attribute value on a variant counts for the product', async () => {
  const color = await req('POST', `${base()}/attributes`, { code: 'shade', name: 'Shade', type: 'dropdown', values: [{ value: 'red', name: 'Red' }, { value: 'blue', name: 'Blue' }] });
  const type = await req('POST', `${base()}/product-types`, { name: 'Shaded', variant_attributes: [{ attribute_id: color.body.data.id }] });
  const c = await createCollection(t, a, { title: 'Blue things', kind: 'smart', rules: [{ field: 'attribute', attribute: 'shade', operator: 'equals', value: 'blue' }] });
  const p = await createProduct(t, a, { product_type_id: type.body.data.id });
  expect((await req('PUT', `${base()}/products/${p.id}/variants`, { variants: [{ sku: 'shade-red', attributes: { shade: 'red' } }] })).status).toBe(200);
  expect(await memberIds(t, a, c.id)).toEqual([]);
  expect((await req('PUT', `${base()}/products/${p.id}/variants`, { variants: [{ sku: 'shade-blue', attributes: { shade: 'blue' } }] })).status).toBe(200);
  expect(await memberIds(t, a, c.id)).toEqual([p.id]);
});

it("the test catalog: generated and copied products join the test catalog's smart collections", async () => {
  const testRules = { title: 'Test cheap', kind: 'smart', rules: [{ field: 'price', operator: 'at_least', value: 0 }] };
  const inTest = (await req('POST', collectionsPath(a), testRules, { 'X-Service-Mode': 'test' })).body.data;
  const generated = await req('POST', `${base()}/test-catalog/generate`, { count: 3 });
  expect(generated.status).toBeLessThan(300);
  expect(await countOf(inTest.id, 'test')).toBe(3);
  const copy = await req('POST', `${base()}/test-catalog/copy`, { search: 'scheduled' });
  expect(copy.status).toBeLessThan(300);
  while (await runDueTestCatalogJobs(t.app.systemContext(), { limit: 1 }));
  expect(await countOf(inTest.id, 'test')).toBe(4);
});
