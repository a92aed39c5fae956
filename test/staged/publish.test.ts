import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { createProduct, expectProblem } from '../products/helpers';
import { productCalls } from './helpers';

let t: TestServer;
let a: StoreFixture;
let api: ReturnType<typeof productCalls>;
let publishableKey: string;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  api = productCalls(t, a);
  publishableKey = (await createKey(t, a, { type: 'publishable', mode: 'live' })).secret;
});
afterAll(() => t.close());

const publicProduct = async (id: string) => {
  const res = await publicGet(t, `/products/${id}`, { key: publishableKey });
  expect(res.status).toBe(200);
  return res.body.data;
};

/** An active product with a variant, as a storefront sells it. */
async function liveProduct() {
  const p = await createProduct(t, a, { price: 20, status: 'active', description: 'Plain' });
  const variants = await t.request('PUT', `${api.path(p.id, '/variants')}`, { token: a.ownerToken, body: { variants: [{ sku: `SKU-${p.id.slice(0, 8)}`, price: 21, inventory_quantity: 3 }] } });
  expect(variants.status).toBe(200);
  return { ...(await api.get(p.id)).body.data, variant: variants.body.data[0] };
}

describe('a staged price change', () => {
  it('is invisible to a publishable key and the live product until published', async () => {
    const p = await liveProduct();
    const staged = await api.put(p.id, { price: 15, name: 'Summer Shoe' }, '?staged=true');
    expect(staged.status).toBe(200);
    // The answer is the staged product; the product has one version, which the staged write moved.
    expect(staged.body.data).toMatchObject({ price: 15, name: 'Summer Shoe', has_staged_changes: true, version: p.version + 1 });
    expect(staged.headers.get('etag')).toBe(`"v${p.version + 1}"`);

    const live = (await api.get(p.id)).body.data;
    expect(live).toMatchObject({ price: 20, name: 'Trail Shoe', has_staged_changes: true, version: p.version + 1 });
    expect(await publicProduct(p.id)).toMatchObject({ price: 20, name: 'Trail Shoe' });

    const read = await api.get(p.id, '/staged');
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ price: 15, name: 'Summer Shoe', description: 'Plain', has_staged_changes: true });
    expect(read.body.meta).toMatchObject({ has_staged_changes: true, publish_at: null, updated_by: expect.any(String) });

    const published = await api.post(p.id, '/staged/publish');
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ price: 15, name: 'Summer Shoe', has_staged_changes: false, version: p.version + 2 });
    expect(await publicProduct(p.id)).toMatchObject({ price: 15, name: 'Summer Shoe' });
    expect((await api.get(p.id, '/staged')).body.meta).toMatchObject({ has_staged_changes: false });
  });

  it('shows its difference in the change history format, variants by id', async () => {
    const p = await liveProduct();
    await api.put(p.id, { price: 18, prices: [] }, '?staged=true');
    const patch = await t.request('PATCH', `${api.path(p.id, '/variants')}?staged=true`, { token: a.ownerToken, body: { variants: [{ id: p.variant.id, compare_at_price: 30 }] } });
    expect(patch.status).toBe(200);
    expect(patch.body.data[0]).toMatchObject({ id: p.variant.id, price: 21, compare_at_price: 30 });
    const live = await t.request('GET', api.path(p.id, '/variants'), { token: a.ownerToken });
    expect(live.body.data[0].compare_at_price).toBeNull();

    const diff = await api.get(p.id, '/staged/diff');
    expect(diff.status).toBe(200);
    expect(diff.body.data).toEqual([
      { field: 'price', previous: 20, next: 18 },
      { field: `variants.${p.variant.id}.compare_at_price`, previous: null, next: 30 },
    ]);
  });
});

describe('publishing with scope=prices', () => {
  it('publishes the price fields and leaves the rest staged', async () => {
    const p = await liveProduct();
    await api.put(p.id, { price: 12, description: 'New text', tags: ['sale'] }, '?staged=true');
    await t.request('PATCH', `${api.path(p.id, '/variants')}?staged=true`, { token: a.ownerToken, body: { variants: [{ id: p.variant.id, price: 11, barcode: '4006381333931' }] } });

    const res = await api.post(p.id, '/staged/publish?scope=prices');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ price: 12, description: 'Plain', tags: [], has_staged_changes: true });
    expect(await publicProduct(p.id)).toMatchObject({ price: 12, description: 'Plain' });
    const variants = (await t.request('GET', api.path(p.id, '/variants'), { token: a.ownerToken })).body.data;
    expect(variants[0]).toMatchObject({ price: 11, barcode: null });

    const diff = (await api.get(p.id, '/staged/diff')).body.data;
    expect(diff.map((c: { field: string }) => c.field)).toEqual(['description', 'tags', `variants.${p.variant.id}.barcode`]);

    const all = await api.post(p.id, '/staged/publish');
    expect(all.body.data).toMatchObject({ price: 12, description: 'New text', tags: ['sale'], has_staged_changes: false });
    expect((await api.get(p.id, '/staged/diff')).body.data).toEqual([]);
  });

  it('records the live write: product.updated, product.variants_updated and product.staged_published', async () => {
    const p = await liveProduct();
    await api.put(p.id, { price: 9 }, '?staged=true');
    await t.request('PATCH', `${api.path(p.id, '/variants')}?staged=true`, { token: a.ownerToken, body: { variants: [{ id: p.variant.id, price: 8 }] } });
    await api.post(p.id, '/staged/publish', { scope: 'prices' });
    const types = (await api.history(p.id)).map((e) => e.type);
    expect(types.slice(-5)).toEqual(['product.staged', 'product.staged', 'product.updated', 'product.variants_updated', 'product.staged_published']);
    // Staged edits are marked apart from live ones, and filterable.
    const staged = await api.history(p.id, '?staged=true');
    expect(staged.map((e) => [e.type, e.staged])).toEqual([['product.staged', true], ['product.staged', true]]);
    expect(staged[0].changes).toEqual([{ field: 'price', previous: 20, next: 9 }]);
    expect((await api.history(p.id, '?staged=false')).every((e) => !e.staged && e.type !== 'product.staged')).toBe(true);
    const [published] = await api.history(p.id, '?type=product.staged_published');
    expect(published.data).toMatchObject({ price: 9, scope: 'prices', has_staged_changes: false });
    expect(published.changes).toEqual([
      { field: 'price', previous: 20, next: 9 },
      { field: `variants.${p.variant.id}.price`, previous: 21, next: 8 },
    ]);
  });
});

describe('discarding', () => {
  it('drops the staged changes and records product.staged_discarded', async () => {
    const p = await liveProduct();
    await api.put(p.id, { name: 'Never shown' }, '?staged=true');
    const res = await api.post(p.id, '/staged/discard');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Trail Shoe', has_staged_changes: false });
    expect((await api.get(p.id, '/staged')).body.data.name).toBe('Trail Shoe');
    const [discarded] = await api.history(p.id, '?type=product.staged_discarded');
    expect(discarded.changes).toEqual([{ field: 'name', previous: 'Never shown', next: 'Trail Shoe' }]);
  });

  it('changes nothing on a product without staged changes', async () => {
    const p = await liveProduct();
    const res = await api.post(p.id, '/staged/discard');
    expect(res.status).toBe(200);
    expect(res.body.data.version).toBe(p.version);
  });
});

describe('what cannot be staged', () => {
  it('answers 422 not_stageable for fields a staged version does not hold, naming them', async () => {
    const p = await liveProduct();
    const res = await api.put(p.id, { price: 5, inventory_quantity: 2, status: 'draft' }, '?staged=true');
    const problem = expectProblem(res, 422, 'not_stageable');
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(['inventory_quantity', 'status']);
    expect((await api.get(p.id)).body.data.has_staged_changes).toBe(false);
  });

  it('answers 422 not_stageable for staged=true on a write that cannot be staged', async () => {
    const p = await liveProduct();
    expectProblem(await api.post(p.id, '/unpublish?staged=true'), 422, 'not_stageable');
    expect((await api.get(p.id)).body.data.status).toBe('active');
  });

  it('validates a staged write as a live one, every error at once', async () => {
    const p = await liveProduct();
    const res = await api.put(p.id, { price: -1, name: '', category_slugs: ['nope'] }, '?staged=true');
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(['name', 'price']);
    expectProblem(await api.put(p.id, { category_slugs: ['nope'] }, '?staged=true'), 422, 'unknown_category');
  });
});
