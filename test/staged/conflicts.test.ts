import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectProblem, productPath } from '../products/helpers';
import { csv } from '../bulk/helpers';
import { filePart, form } from '../images/images';
import { testWorker } from '../helpers/webhooks';
import { productCalls } from './helpers';

let t: TestServer;
let a: StoreFixture;
let api: ReturnType<typeof productCalls>;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  api = productCalls(t, a);
});
afterAll(() => t.close());

/** A product with a staged name change. */
async function withStagedName() {
  const p = await createProduct(t, a, { price: 40 });
  const staged = await api.put(p.id, { name: 'Staged name' }, '?staged=true');
  expect(staged.status).toBe(200);
  return staged.body.data as Record<string, any>;
}

describe('a live write to a product with staged changes', () => {
  it('is 409 staged_changes_pending when it changes something staged, and writes nothing', async () => {
    const p = await withStagedName();
    expectProblem(await api.put(p.id, { price: 35 }), 409, 'staged_changes_pending');
    expectProblem(await t.request('PUT', api.path(p.id, '/seo'), { token: a.ownerToken, body: { title: 'Live title' } }), 409, 'staged_changes_pending');
    const live = (await api.get(p.id)).body.data;
    expect(live).toMatchObject({ price: 40, name: 'Trail Shoe', version: p.version, seo: null });
  });

  it('goes through when it writes only what is never staged (stock, status)', async () => {
    const p = await withStagedName();
    const res = await api.put(p.id, { inventory_quantity: 2, status: 'active' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ inventory_quantity: 2, status: 'active', name: 'Trail Shoe', has_staged_changes: true });
    // The staged version shows the current stock: it holds only what was staged.
    expect((await api.get(p.id, '/staged')).body.data).toMatchObject({ inventory_quantity: 2, status: 'active', name: 'Staged name' });
  });

  it('with apply_to=both changes the current product and the staged version in one write', async () => {
    const p = await withStagedName();
    const res = await api.put(p.id, { price: 33, description: 'Both' }, '?staged=false&apply_to=both', { 'If-Match': `"v${p.version}"` });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ price: 33, description: 'Both', name: 'Trail Shoe', has_staged_changes: true, version: p.version + 1 });
    expect((await api.get(p.id, '/staged')).body.data).toMatchObject({ price: 33, description: 'Both', name: 'Staged name' });
    expect((await api.get(p.id, '/staged/diff')).body.data).toEqual([{ field: 'name', previous: 'Trail Shoe', next: 'Staged name' }]);
    const types = (await api.history(p.id)).map((e) => e.type);
    expect(types.slice(-2)).toEqual(['product.updated', 'product.staged']);
  });

  it('with apply_to=both that makes both versions alike, drops the staged version', async () => {
    const p = await withStagedName();
    const res = await api.put(p.id, { name: 'Staged name' }, '?apply_to=both');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Staged name', has_staged_changes: false });
    expect((await api.get(p.id)).body.data.has_staged_changes).toBe(false);
    expect(await db().productStaged.count({ where: { productId: p.id } })).toBe(0);
  });

  it('is 409 for a replace of the variants too, unless apply_to=both', async () => {
    const p = await withStagedName();
    const body = { variants: [{ sku: `R-${p.id.slice(0, 8)}`, price: 41 }] };
    expectProblem(await t.request('PUT', api.path(p.id, '/variants'), { token: a.ownerToken, body }), 409, 'staged_changes_pending');
    const res = await t.request('PUT', `${api.path(p.id, '/variants')}?apply_to=both`, { token: a.ownerToken, body });
    expect(res.status).toBe(200);
    expect((await api.get(p.id, '/staged')).body.data).toMatchObject({ name: 'Staged name', variants_count: 1 });
  });

  it('refuses apply_to=both on a staged write', async () => {
    const p = await withStagedName();
    expectProblem(await api.put(p.id, { price: 1 }, '?staged=true&apply_to=both'), 422, 'validation_failed');
  });
});

describe('If-Match on staged writes', () => {
  it('applies to the product version, which staged writes move: a stale ETag is 412 and writes nothing', async () => {
    const p = await withStagedName();
    const stale = `"v${p.version - 1}"`;
    const res = await api.put(p.id, { price: 1 }, '?staged=true', { 'If-Match': stale });
    expectProblem(res, 412, 'precondition_failed');
    expect((await api.get(p.id, '/staged')).body.data.price).toBe(40);
  });

  it('two editors staging at once from the same version: one wins, the other gets 412, nothing half-written', async () => {
    const p = await withStagedName();
    const ifMatch = { 'If-Match': `"v${p.version}"` };
    const [first, second] = await Promise.all([
      api.put(p.id, { price: 11, description: 'Editor one' }, '?staged=true', ifMatch),
      api.put(p.id, { price: 22, description: 'Editor two' }, '?staged=true', ifMatch),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 412]);
    const winner = first.status === 200 ? first : second;
    const staged = (await api.get(p.id, '/staged')).body.data;
    expect({ price: staged.price, description: staged.description, version: staged.version }).toEqual({
      price: winner.body.data.price,
      description: winner.body.data.description,
      version: p.version + 1,
    });
    // The current product kept its content; one product.staged per staged write that won.
    expect((await api.get(p.id)).body.data).toMatchObject({ price: 40, description: '', version: p.version + 1 });
    expect((await api.history(p.id, '?type=product.staged')).length).toBe(2);
  });

  it('many editors staging at once without If-Match: every write lands, one after the other, never a 500', async () => {
    const p = await withStagedName();
    const writes = await Promise.all(Array.from({ length: 6 }, (_, i) => api.put(p.id, { tags: [`t${i}`] }, '?staged=true')));
    expect(writes.map((w) => w.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const live = (await api.get(p.id)).body.data;
    expect(live).toMatchObject({ tags: [], version: p.version + 6, has_staged_changes: true });
    const staged = (await api.get(p.id, '/staged')).body.data;
    expect(staged.tags).toHaveLength(1);
    expect(staged.name).toBe('Staged name');
  });

  it('a staged write racing a live write with apply_to=both: both land, in some order, never a 500', async () => {
    const p = await withStagedName();
    const [staged, live] = await Promise.all([api.put(p.id, { description: 'staged' }, '?staged=true'), api.put(p.id, { price: 39 }, '?apply_to=both')]);
    expect([staged.status, live.status]).toEqual([200, 200]);
    expect((await api.get(p.id)).body.data).toMatchObject({ price: 39, description: '' });
    expect((await api.get(p.id, '/staged')).body.data).toMatchObject({ price: 39, description: 'staged', name: 'Staged name' });
  });
});

describe('other writes that can be staged', () => {
  it('SEO: the staged record is the staged product\'s; the live one stays', async () => {
    const p = await createProduct(t, a);
    const res = await t.request('PUT', `${api.path(p.id, '/seo')}?staged=true`, { token: a.ownerToken, body: { title: 'Staged title', slug: `staged-${p.id.slice(0, 8)}` } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Staged title' });
    expect((await api.get(p.id)).body.data.seo).toBeNull();
    expect((await api.get(p.id, '/staged')).body.data.seo).toMatchObject({ title: 'Staged title' });
    expect((await api.post(p.id, '/staged/publish')).body.data.seo).toMatchObject({ title: 'Staged title' });
  });

  it('options: a staged rename of a value reaches the variants of the staged version only', async () => {
    const p = await createProduct(t, a);
    expect((await t.request('PUT', api.path(p.id, '/options'), { token: a.ownerToken, body: { options: [{ name: 'Size', values: ['S', 'M'] }] } })).status).toBe(200);
    expect((await t.request('POST', api.path(p.id, '/variants/generate'), { token: a.ownerToken })).status).toBe(201);
    const rename = await t.request('PUT', `${api.path(p.id, '/options')}?staged=true`, {
      token: a.ownerToken,
      body: { options: [{ name: 'Size', values: ['Small', 'M'], renamed_values: { S: 'Small' } }] },
    });
    expect(rename.status).toBe(200);
    expect(rename.body.data.options).toEqual([{ name: 'Size', values: ['Small', 'M'] }]);
    const live = await t.request('GET', api.path(p.id, '/variants'), { token: a.ownerToken });
    expect(live.body.data.map((v: { options: unknown }) => v.options)).toEqual([{ Size: 'S' }, { Size: 'M' }]);
    const diff = (await api.get(p.id, '/staged/diff')).body.data.map((c: { field: string }) => c.field);
    expect(diff).toEqual(['options', `variants.${live.body.data[0].id}.options`]);
    expectProblem(await t.request('PUT', `${api.path(p.id, '/options')}?staged=true&delete_variants=true`, { token: a.ownerToken, body: { options: [] } }), 422, 'not_stageable');
    await api.post(p.id, '/staged/publish');
    const after = await t.request('GET', api.path(p.id, '/variants'), { token: a.ownerToken });
    expect(after.body.data.map((v: { options: unknown }) => v.options)).toEqual([{ Size: 'Small' }, { Size: 'M' }]);
  });

  it('variants: SKU, stock and cost are never staged (422 naming variants.N.field)', async () => {
    const p = await createProduct(t, a);
    const put = await t.request('PUT', api.path(p.id, '/variants'), { token: a.ownerToken, body: { variants: [{ sku: `V-${p.id.slice(0, 8)}` }] } });
    const id = put.body.data[0].id;
    const res = await t.request('PATCH', `${api.path(p.id, '/variants')}?staged=true`, { token: a.ownerToken, body: { variants: [{ id, price: 3, inventory_quantity: 1, sku: 'X' }] } });
    const problem = expectProblem(res, 422, 'not_stageable');
    expect(problem.errors!.map((e) => e.field).sort()).toEqual(['variants.0.inventory_quantity', 'variants.0.sku']);
  });
});

describe('an import of a product with staged changes', () => {
  it('rejects a row that changes something staged, and writes a row that changes only stock', async () => {
    const p = await withStagedName();
    const q = await withStagedName();
    const file = csv(['id', 'price', 'inventory_quantity'], [
      [p.id, '12', ''],
      [q.id, '', '9'],
    ]);
    const res = await t.request('POST', `${productPath(a.storeId, '').slice(0, -1)}/imports`, {
      token: a.ownerToken,
      rawBody: form([filePart(Buffer.from(file), 'products.csv', 'text/csv', 'file'), { name: 'error_policy', value: 'reject_failed_rows' }]),
    });
    expect(res.status).toBe(202);
    await testWorker(t).runOnce();
    const job = (await t.request('GET', `${productPath(a.storeId, '').slice(0, -1)}/imports/${res.body.data.id}`, { token: a.ownerToken })).body.data;
    expect(job).toMatchObject({ status: 'succeeded', counts: { updated: 1, rejected: 1 } });
    expect(job.errors).toEqual([{ row: 2, field: 'id', code: 'staged_changes_pending', message: expect.any(String) }]);
    expect((await api.get(p.id)).body.data.price).toBe(40);
    expect((await api.get(q.id)).body.data).toMatchObject({ inventory_quantity: 9, has_staged_changes: true });
  });
});
