import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct } from '../products/helpers';
import { createCollection, memberIds } from './helpers';

// A smart collection follows the live product only: a staged price change leaves membership as it is (the storefront
// still sells the current price), and publishing it (all of it, or its prices alone) moves the product at once.

let t: TestServer;
let a: StoreFixture;
const req = (method: string, path: string, body?: unknown) => t.request(method, path, { token: a.ownerToken, body });
const productPath = (id: string) => `/api/v1/merchant/stores/${a.storeId}/products/${id}`;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

it.each([['everything', ''], ['prices only', '?scope=prices']])('a staged price edit changes membership when published (%s), not before', async (_, scope) => {
  const tag = scope ? 'scoped' : 'whole';
  const under50 = await createCollection(t, a, { title: `Under 50 ${tag}`, kind: 'smart', rules: [{ field: 'price', operator: 'less_than', value: 50 }, { field: 'tag', operator: 'equals', value: tag }] });
  const p = await createProduct(t, a, { price: 80, status: 'active', tags: [tag] });
  expect(await memberIds(t, a, under50.id)).toEqual([]);

  const staged = await req('PUT', `${productPath(p.id)}?staged=true`, { price: 30, name: 'Renamed later' });
  expect(staged.status).toBe(200);
  expect(await memberIds(t, a, under50.id)).toEqual([]);

  const published = await req('POST', `${productPath(p.id)}/staged/publish${scope}`);
  expect(published.status).toBe(200);
  expect(await memberIds(t, a, under50.id)).toEqual([p.id]);
  const live = await req('GET', productPath(p.id));
  expect(live.body.data.price).toBe(30);
  // A prices-only publish leaves the name staged.
  expect(live.body.data.has_staged_changes).toBe(scope !== '');
});

it('discarding a staged price edit leaves membership as it was', async () => {
  const under50 = await createCollection(t, a, { title: 'Under 50, discarded', kind: 'smart', rules: [{ field: 'price', operator: 'less_than', value: 50 }, { field: 'tag', operator: 'equals', value: 'discarded' }] });
  const p = await createProduct(t, a, { price: 20, status: 'active', tags: ['discarded'] });
  expect(await memberIds(t, a, under50.id)).toEqual([p.id]);
  expect((await req('PUT', `${productPath(p.id)}?staged=true`, { price: 70 })).status).toBe(200);
  expect(await memberIds(t, a, under50.id)).toEqual([p.id]);
  expect((await req('POST', `${productPath(p.id)}/staged/discard`)).status).toBe(200);
  expect(await memberIds(t, a, under50.id)).toEqual([p.id]);
});
