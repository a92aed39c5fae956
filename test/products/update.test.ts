import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, GQL_PRODUCT, gqlData, MISSING_ID, productPath, storedProduct } from './helpers';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
});
afterAll(() => t.close());

const UPDATE = `mutation($storeId: ID!, $id: ID!, $input: ProductUpdateInput!, $v: Int) {
  updateProduct(storeId: $storeId, id: $id, input: $input, expectedVersion: $v) { ${GQL_PRODUCT} } }`;

const put = (s: StoreFixture, id: string, body: unknown, headers: Record<string, string> = {}, token = s.ownerToken) =>
  t.request('PUT', productPath(s.storeId, id), { token, body, headers });

describe('PUT /products/{id} (updateProduct)', () => {
  it('updates only the fields sent, bumps the version and the ETag', async () => {
    const p = await createProduct(t, a, { description: 'keep me', tags: ['keep'], inventory_quantity: 7 });
    await new Promise((r) => setTimeout(r, 5)); // updated_at has millisecond precision
    const res = await put(a, p.id, { name: 'Renamed', price: '99.95' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"v2"');
    const u = res.body.data;
    expect(u).toEqual({
      ...p,
      name: 'Renamed',
      price: 99.95,
      version: 2,
      updated_at: expect.any(String),
    });
    expect(new Date(u.updated_at).getTime()).toBeGreaterThan(new Date(p.updated_at).getTime());
    const row = await storedProduct(p.id);
    expect(row).toMatchObject({ name: 'Renamed', price: '99.95', description: 'keep me', tags: ['keep'], inventoryQuantity: 7, version: 2, slugs: ['shoes'] });
    const again = await put(a, p.id, { inventory_quantity: 2 });
    expect(again.headers.get('etag')).toBe('"v3"');
    expect(again.body.data).toMatchObject({ name: 'Renamed', inventory_quantity: 2, version: 3 });
  });

  it('treats an update without fields as a no-op: same version and ETag; a stale guard still fails', async () => {
    const p = await createProduct(t, a);
    const before = await storedProduct(p.id);
    for (const body of [{}, undefined, { version: 1 }]) {
      const res = await put(a, p.id, body, { 'If-Match': '"v1"' });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe('"v1"');
      expect(res.body.data).toEqual(p);
    }
    expect(await storedProduct(p.id)).toEqual(before);
    await put(a, p.id, { name: 'Changed' });
    expectProblem(await put(a, p.id, {}, { 'If-Match': '"v1"' }), 412, 'precondition_failed');
  });

  it('replaces category_slugs when sent and keeps them when not', async () => {
    const p = await createProduct(t, a, { category_slugs: ['shoes', 'hats'] });
    const res = await put(a, p.id, { category_slugs: ['shirts'] });
    expect(res.body.data.category_slugs).toEqual(['shirts']);
    expect((await storedProduct(p.id))!.slugs).toEqual(['shirts']);
    const keep = await put(a, p.id, { name: 'Other' });
    expect(keep.body.data.category_slugs).toEqual(['shirts']);
  });

  it.each([
    ['empty category_slugs', { category_slugs: [] }, 'category_required'],
    ['null category_slugs', { category_slugs: null }, 'validation_failed'],
    ['an unknown category slug', { category_slugs: ['shoes', 'socks'] }, 'unknown_category'],
    ['an empty name', { name: '' }, 'validation_failed'],
    ['a null name', { name: null }, 'validation_failed'],
    ['a 256-character name', { name: 'x'.repeat(256) }, 'validation_failed'],
    ['a price with 3 decimals', { price: 1.234 }, 'validation_failed'],
    ['a negative price', { price: -1 }, 'validation_failed'],
    ['a non-numeric price', { price: 'abc' }, 'validation_failed'],
    ['a fractional inventory', { inventory_quantity: 0.5 }, 'validation_failed'],
    ['a negative inventory', { inventory_quantity: -3 }, 'validation_failed'],
    ['an unknown status', { status: 'deleted' }, 'validation_failed'],
    ['an unknown field', { name: 'New name', colour: 'red' }, 'validation_failed'],
    ['a non-integer version', { name: 'New name', version: '1' }, 'validation_failed'],
  ])('rejects %s with 422 and leaves the product unchanged', async (_what, body, code) => {
    const p = await createProduct(t, a, { category_slugs: ['hats'] });
    const before = await storedProduct(p.id);
    const res = await put(a, p.id, body);
    const problem = expectProblem(res, 422, code);
    if (code === 'unknown_category') expect(problem.unknown_slugs).toEqual(['socks']);
    if (body && 'colour' in body) expect(problem.errors).toEqual([expect.objectContaining({ field: 'colour', code: 'unknown_field' })]);
    expect(await storedProduct(p.id)).toEqual(before);
  });

  it('accepts its own GET body back: read-only fields are ignored, the edit is applied', async () => {
    const p = await createProduct(t, a, { tags: ['a', 'b'], status: 'active' });
    const got = await t.request('GET', productPath(a.storeId, p.id), { token: a.ownerToken });
    const res = await put(a, p.id, { ...got.body.data, name: 'Round trip' }, { 'If-Match': got.headers.get('etag')! });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...got.body.data, name: 'Round trip', version: 2, updated_at: expect.any(String) });
    // Read-only values that differ from the stored ones are ignored, not applied.
    const res2 = await put(a, p.id, { ...res.body.data, id: MISSING_ID, currency: 'XXX', is_active: false, variants_count: 9, created_at: '2000-01-01T00:00:00.000Z' });
    expect(res2.status).toBe(200);
    expect(res2.body.data).toMatchObject({ id: p.id, currency: 'EUR', is_active: true, variants_count: 0, created_at: p.created_at });
  });

  describe('optimistic concurrency', () => {
    it('applies the update when If-Match names the current version, and 412s a stale one without writing', async () => {
      const p = await createProduct(t, a);
      const ok = await put(a, p.id, { name: 'First' }, { 'If-Match': '"v1"' });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('etag')).toBe('"v2"');
      const before = await storedProduct(p.id);
      const stale = await put(a, p.id, { name: 'Lost update' }, { 'If-Match': '"v1"' });
      const problem = expectProblem(stale, 412, 'precondition_failed');
      expect(problem.current_version).toBe(2);
      expect(await storedProduct(p.id)).toEqual(before);
    });

    it('uses the body version the same way', async () => {
      const p = await createProduct(t, a);
      expect((await put(a, p.id, { name: 'First', version: 1 })).status).toBe(200);
      const before = await storedProduct(p.id);
      expectProblem(await put(a, p.id, { name: 'Lost', version: 1 }), 412, 'precondition_failed');
      expectProblem(await put(a, p.id, { name: 'Future', version: 7 }), 412, 'precondition_failed');
      expect(await storedProduct(p.id)).toEqual(before);
      expect((await put(a, p.id, { name: 'Second', version: 2 })).body.data).toMatchObject({ name: 'Second', version: 3 });
    });

    it('412s when If-Match and the body version disagree, or If-Match is not an ETag of ours; * and no guard always apply', async () => {
      const p = await createProduct(t, a);
      const before = await storedProduct(p.id);
      expectProblem(await put(a, p.id, { name: 'X', version: 2 }, { 'If-Match': '"v1"' }), 412, 'precondition_failed');
      expectProblem(await put(a, p.id, { name: 'X' }, { 'If-Match': 'v1' }), 412, 'precondition_failed');
      expectProblem(await put(a, p.id, { name: 'X' }, { 'If-Match': '"abc"' }), 412, 'precondition_failed');
      expect(await storedProduct(p.id)).toEqual(before);
      expect((await put(a, p.id, { name: 'Star' }, { 'If-Match': '*' })).status).toBe(200);
      expect((await put(a, p.id, { name: 'Unguarded' })).body.data.version).toBe(3);
    });

    it('GraphQL expectedVersion: stale fails with precondition_failed and writes nothing', async () => {
      const p = await createProduct(t, a);
      const ok = gqlData(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { name: 'G1' }, v: 1 }, { token: a.ownerToken }));
      expect(ok.updateProduct).toMatchObject({ name: 'G1', version: 2 });
      const before = await storedProduct(p.id);
      const err = expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { name: 'G2' }, v: 1 }, { token: a.ownerToken }), 'precondition_failed');
      expect(err.extensions.current_version).toBe(2);
      expect(await storedProduct(p.id)).toEqual(before);
    });

    it('lets exactly one of two concurrent updates of the same version win', async () => {
      const p = await createProduct(t, a);
      const results = await Promise.all(['A', 'B', 'C'].map((name) => put(a, p.id, { name }, { 'If-Match': '"v1"' })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412]);
      const winner = results.find((r) => r.status === 200)!.body.data.name;
      expect(await storedProduct(p.id)).toMatchObject({ name: winner, version: 2 });
    });
  });

  it('keeps low-stock state and search text in step with the update', async () => {
    const p = await createProduct(t, a, { inventory_quantity: 50, low_stock_threshold: 5 });
    expect((await storedProduct(p.id))!.lowStock).toBe(false);
    await put(a, p.id, { inventory_quantity: 5 });
    expect((await storedProduct(p.id))!.lowStock).toBe(true);
    await put(a, p.id, { low_stock_threshold: 2 });
    expect((await storedProduct(p.id))!.lowStock).toBe(false);
    await put(a, p.id, { name: 'Zebra Runner', tags: ['Striped'] });
    expect((await storedProduct(p.id))!.searchText).toContain('zebra runner');
    expect((await storedProduct(p.id))!.searchText).toContain('striped');
  });

  it('sets published_at whenever an update makes a product active, like publish does', async () => {
    const p = await createProduct(t, a);
    expect(p.published_at).toBeNull();
    const res = await put(a, p.id, { status: 'active' });
    expect(res.body.data).toMatchObject({ status: 'active', is_active: true, published_at: expect.any(String) });
    const first = res.body.data.published_at;
    expect((await put(a, p.id, { name: 'Still active', status: 'active' })).body.data.published_at).toBe(first);
    expect((await put(a, p.id, { status: 'draft' })).body.data.published_at).toBe(first);
    await new Promise((r) => setTimeout(r, 5));
    const again = await put(a, p.id, { status: 'active' });
    expect(new Date(again.body.data.published_at).getTime()).toBeGreaterThan(new Date(first).getTime());
  });

  it('GraphQL updates partially and applies the same rules', async () => {
    const p = await createProduct(t, a, { description: 'keep' });
    const u = gqlData(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { price: 5, categorySlugs: ['hats'] } }, { token: a.ownerToken })).updateProduct;
    expect(u).toMatchObject({ price: '5.00', description: 'keep', categorySlugs: ['hats'], version: 2 });
    const before = await storedProduct(p.id);
    for (const [input, code] of [
      [{ categorySlugs: [] }, 'category_required'],
      [{ categorySlugs: ['nope'] }, 'unknown_category'],
      [{ price: '1.001' }, 'validation_failed'],
      [{ name: ' ' }, 'validation_failed'],
      [{ inventoryQuantity: -1 }, 'validation_failed'],
      [{ name: null }, 'validation_failed'],
      [{ categorySlugs: null }, 'validation_failed'],
    ] as const) {
      expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input }, { token: a.ownerToken }), code);
    }
    expect(await storedProduct(p.id)).toEqual(before);
  });

  it.each([
    ['an unknown id', MISSING_ID],
    ['a non-UUID id', 'abc'],
  ])('answers 404 for %s', async (_what, id) => {
    expectProblem(await put(a, id, { name: 'X' }), 404, 'not_found');
    expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id, input: { name: 'X' } }, { token: a.ownerToken }), 'not_found');
  });

  it("answers 404 for another store's product (both directions) and leaves it unchanged", async () => {
    const pa = await createProduct(t, a);
    const pb = await createProduct(t, b);
    const [beforeA, beforeB] = [await storedProduct(pa.id), await storedProduct(pb.id)];
    expectProblem(await put(a, pb.id, { name: 'Hijack' }), 404, 'not_found');
    expectProblem(await put(b, pa.id, { name: 'Hijack' }), 404, 'not_found');
    expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: pb.id, input: { name: 'Hijack' } }, { token: a.ownerToken }), 'not_found');
    expect([await storedProduct(pa.id), await storedProduct(pb.id)]).toEqual([beforeA, beforeB]);
  });

  it('answers 403 without manage_products and 401 without a token, writing nothing', async () => {
    const p = await createProduct(t, a);
    const before = await storedProduct(p.id);
    expectProblem(await put(a, p.id, { name: 'X' }, {}, a.viewerToken), 403, 'forbidden');
    expectProblem(await put(a, p.id, { name: 'X' }, {}, b.ownerToken), 403, 'forbidden');
    expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { name: 'X' } }, { token: a.viewerToken }), 'forbidden');
    const anon = await t.request('PUT', productPath(a.storeId, p.id), { body: { name: 'X' } });
    expectProblem(anon, 401, 'unauthenticated');
    expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { name: 'X' } }), 'unauthenticated');
    expect(await storedProduct(p.id)).toEqual(before);
  });
});
