import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData, MISSING_ID, productPath, productsPath } from '../products/helpers';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
});
afterAll(() => t.close());

const variantsPath = (s: StoreFixture, productId: string) => `${productPath(s.storeId, productId)}/variants`;
const put = (s: StoreFixture, productId: string, body: unknown, token = s.ownerToken) => t.request('PUT', variantsPath(s, productId), { token, body });
const get = (s: StoreFixture, productId: string, token = s.ownerToken) => t.request('GET', variantsPath(s, productId), { token });

let skuCounter = 0;
const sku = (prefix = 'SKU') => `${prefix}-${++skuCounter}`;

const REPLACE = `mutation($storeId: ID!, $productId: ID!, $variants: [VariantInput!]!) {
  replaceProductVariants(storeId: $storeId, productId: $productId, variants: $variants) { id sku title options price inventoryQuantity position }
}`;
const LIST = `query($storeId: ID!, $productId: ID!) { productVariants(storeId: $storeId, productId: $productId) { id sku options price position } }`;

describe('PUT /products/{id}/variants', () => {
  it('replaces the set and returns it ordered, with option names kept as sent', async () => {
    const p = await createProduct(t, a);
    const res = await put(a, p.id, {
      variants: [
        { sku: 'TEE-RED-M', title: 'Red / M', options: { Color: 'Red', size_label: 'M' }, price: 19.5, inventory_quantity: 3 },
        { sku: 'TEE-BLUE-M', title: 'Blue / M', options: { Color: 'Blue', size_label: 'M' }, inventory_quantity: 0 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({ sku: 'TEE-RED-M', title: 'Red / M', options: { Color: 'Red', size_label: 'M' }, price: 19.5, inventory_quantity: 3, position: 0 }),
      expect.objectContaining({ sku: 'TEE-BLUE-M', options: { Color: 'Blue', size_label: 'M' }, price: null, inventory_quantity: 0, position: 1 }),
    ]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual([
      'attributes', 'barcode', 'compare_at_price', 'cost', 'created_at', 'id', 'image_id', 'inventory_quantity', 'options', 'position', 'price', 'prices', 'sku', 'title', 'updated_at', 'weight',
    ]);

    const listed = await get(a, p.id);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ data: res.body.data });
    const rows = await db().variant.findMany({ where: { productId: p.id }, orderBy: { position: 'asc' } });
    expect(rows.map((r) => [r.sku, r.optionsKey, r.price?.toFixed(2) ?? null])).toEqual([
      ['TEE-RED-M', '{"Color":"Red","size_label":"M"}', '19.50'],
      ['TEE-BLUE-M', '{"Color":"Blue","size_label":"M"}', null],
    ]);
  });

  it('accepts a bare array, orders by position, and applies defaults', async () => {
    const p = await createProduct(t, a);
    const res = await put(a, p.id, [
      { sku: 'B-1', position: 5, options: { Size: 'L' } },
      { sku: 'B-2', position: 1, options: { Size: 'S' } },
      { sku: 'B-3', options: { Size: 'M' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((v: any) => [v.sku, v.position])).toEqual([['B-2', 1], ['B-3', 2], ['B-1', 5]]);
    expect(res.body.data[0]).toMatchObject({ title: '', inventory_quantity: 0, price: null });
    expect((await get(a, p.id)).body.data.map((v: any) => v.sku)).toEqual(['B-2', 'B-3', 'B-1']);
  });

  it('keeps the id of a variant whose SKU stays, drops the others, and bumps the product version', async () => {
    const p = await createProduct(t, a);
    const first = (await put(a, p.id, { variants: [{ sku: 'K-1', options: { Size: 'S' } }, { sku: 'K-2', options: { Size: 'M' } }] })).body.data;
    // K-1 and the new K-3 swap option combinations with what existed: allowed, since the whole set is replaced.
    const second = await put(a, p.id, { variants: [{ sku: 'K-3', options: { Size: 'S' } }, { sku: 'K-1', options: { Size: 'M' }, price: '5.00' }] });
    expect(second.status).toBe(200);
    const byId = Object.fromEntries(second.body.data.map((v: any) => [v.sku, v]));
    expect(byId['K-1'].id).toBe(first[0].id);
    expect(byId['K-1'].created_at).toBe(first[0].created_at);
    expect(byId['K-1']).toMatchObject({ options: { Size: 'M' }, price: 5 });
    expect(byId['K-3'].id).not.toBe(first[1].id);
    expect(Object.keys(byId).sort()).toEqual(['K-1', 'K-3']);

    const product = (await t.request('GET', productPath(a.storeId, p.id), { token: a.ownerToken })).body.data;
    expect(product).toMatchObject({ variants_count: 2, version: p.version + 2 });

    const cleared = await put(a, p.id, { variants: [] });
    expect(cleared.body).toEqual({ data: [] });
    expect(await db().variant.count({ where: { productId: p.id } })).toBe(0);
  });

  it('lets the products list find a product by a variant SKU, and forgets removed SKUs', async () => {
    const p = await createProduct(t, a, { name: 'Plain Mug' });
    await put(a, p.id, { variants: [{ sku: 'MUG-ZX81-BLK', options: { Color: 'Black' } }] });
    const search = (q: string) => t.request('GET', `${productsPath(a.storeId)}?search=${encodeURIComponent(q)}`, { token: a.ownerToken });
    const found = await search('zx81-blk');
    expect(found.status).toBe(200);
    expect(found.body.data.map((x: any) => x.id)).toEqual([p.id]);

    await put(a, p.id, { variants: [{ sku: 'MUG-QQ42', options: { Color: 'Black' } }] });
    expect((await search('zx81')).body.data).toEqual([]);
    expect((await search('mug-qq42')).body.data.map((x: any) => x.id)).toEqual([p.id]);
    // The product's own text still matches after the replace.
    expect((await search('plain mug')).body.data.map((x: any) => x.id)).toEqual([p.id]);
  });

  it('ignores read-only fields echoed back from a GET', async () => {
    const p = await createProduct(t, a);
    const first = (await put(a, p.id, { variants: [{ sku: sku('ECHO'), options: { Size: 'S' }, inventory_quantity: 1 }] })).body.data;
    const echoed = first.map((v: any) => ({ ...v, inventory_quantity: 7 }));
    const res = await put(a, p.id, { variants: echoed });
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({ id: first[0].id, inventory_quantity: 7 });
  });
});

describe('variant validation (422, nothing written)', () => {
  let p: Record<string, any>;
  let before: unknown;
  beforeAll(async () => {
    p = await createProduct(t, a);
    before = (await put(a, p.id, { variants: [{ sku: 'KEEP-1', options: { Size: 'S' } }] })).body.data;
  });
  afterEach(async () => {
    expect((await get(a, p.id)).body.data).toEqual(before);
  });

  const ok = (over: Record<string, unknown> = {}) => ({ sku: sku('V'), options: { Size: 'M' }, ...over });

  it.each([
    ['an empty SKU', [ok({ sku: '  ' })], 'variants.0.sku'],
    ['a SKU over 100 characters', [ok({ sku: 'x'.repeat(101) })], 'variants.0.sku'],
    ['a title over 255 characters', [ok({ title: 't'.repeat(256) })], 'variants.0.title'],
    ['a negative inventory', [ok({ inventory_quantity: -1 })], 'variants.0.inventory_quantity'],
    ['a fractional inventory', [ok({ inventory_quantity: 1.5 })], 'variants.0.inventory_quantity'],
    ['a negative price', [ok({ price: -1 })], 'variants.0.price'],
    ['a price with 3 decimals', [ok({ price: 1.999 })], 'variants.0.price'],
    ['a non-numeric price', [ok({ price: 'cheap' })], 'variants.0.price'],
    ['a negative position', [ok({ position: -1 })], 'variants.0.position'],
    ['an option value that is not a string', [ok({ options: { Size: 42 } })], 'variants.0.options'],
    ['an empty option value', [ok({ options: { Size: ' ' } })], 'variants.0.options'],
    ['an empty option name', [ok({ options: { '': 'M' } })], 'variants.0.options'],
    ['options given as a list', [ok({ options: ['M'] })], 'variants.0.options'],
    ['more than 5 options', [ok({ options: Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`o${i}`, 'x'])) })], 'variants.0.options'],
    ['a variant that is not an object', [ok(), 'nope'], 'variants.1'],
    ['an unknown field', [ok({ colour: 'red' })], 'variants.0.colour'],
    ['a missing SKU', [{ options: { Size: 'M' } }], 'variants.0.sku'],
  ])('rejects %s', async (_what, variants, field) => {
    const res = await put(a, p.id, { variants });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => e.field)).toContain(field);
  });

  it('names a bad option by its name as sent (never renamed)', async () => {
    const problem = expectProblem(await put(a, p.id, { variants: [ok({ options: { sizeLabel: '' } })] }), 422, 'validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'variants.0.options', message: expect.stringContaining('"sizeLabel"') })]);
  });

  it('rejects the same SKU twice in one request, naming both positions', async () => {
    const res = await put(a, p.id, { variants: [ok({ sku: 'DUP-1' }), ok({ sku: 'DUP-1', options: { Size: 'L' } })] });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'variants.1.sku', code: 'duplicate_sku' })]);
    expect(problem.errors![0].message).toContain('also used by variants.0');
  });

  it('rejects the same option combination twice, whatever the key order', async () => {
    const res = await put(a, p.id, { variants: [ok({ options: { Color: 'Red', Size: 'M' } }), ok({ options: { Size: 'M', Color: 'Red' } })] });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'variants.1.options', code: 'duplicate_options' })]);
  });

  it('rejects a 2,049th variant, naming the limit', async () => {
    const variants = Array.from({ length: 2049 }, (_, i) => ({ sku: `MANY-${i}`, options: { n: String(i % 100), m: String(Math.floor(i / 100)) } }));
    const problem = expectProblem(await put(a, p.id, { variants }), 422, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'variants', code: 'too_big', message: expect.stringContaining('variants_per_product') }]);
  });

  it.each([
    ['an empty body', undefined],
    ['an object without variants', { items: [] }],
    ['variants that are not a list', { variants: { sku: 'X' } }],
  ])('rejects %s', async (_what, body) => {
    const problem = expectProblem(await put(a, p.id, body), 422, 'validation_failed');
    expect(problem.errors![0].field).toBe('variants');
  });
});

describe('SKU uniqueness per store (409) and atomic replace', () => {
  it('answers 409 sku_taken naming the SKU held by another product; other stores may reuse it', async () => {
    const holder = await createProduct(t, a);
    await put(a, holder.id, { variants: [{ sku: 'SHARED-1', options: { Size: 'S' } }] });
    const p = await createProduct(t, a);
    const res = await put(a, p.id, { variants: [{ sku: 'OWN-1', options: { Size: 'S' } }, { sku: 'SHARED-1', options: { Size: 'M' } }] });
    const problem = expectProblem(res, 409, 'sku_taken');
    expect(problem.detail).toContain('SHARED-1');
    expect(problem.skus).toEqual(['SHARED-1']);
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'variants.1.sku', code: 'sku_taken' })]);

    const other = await createProduct(t, b);
    expect((await put(b, other.id, { variants: [{ sku: 'SHARED-1' }] })).status).toBe(200);
  });

  it('leaves the previous set intact when the 3rd variant of a replace fails', async () => {
    const holder = await createProduct(t, a);
    await put(a, holder.id, { variants: [{ sku: 'TAKEN-3' }] });
    const p = await createProduct(t, a);
    const before = (await put(a, p.id, { variants: [{ sku: 'T-1', options: { Size: 'S' }, price: 10 }, { sku: 'T-2', options: { Size: 'M' } }] })).body.data;
    const productBefore = (await t.request('GET', productPath(a.storeId, p.id), { token: a.ownerToken })).body.data;

    const res = await put(a, p.id, {
      variants: [
        { sku: 'T-1', options: { Size: 'S' }, price: 99 },
        { sku: 'T-NEW', options: { Size: 'L' } },
        { sku: 'TAKEN-3', options: { Size: 'XL' } },
      ],
    });
    expectProblem(res, 409, 'sku_taken');
    expect((await get(a, p.id)).body.data).toEqual(before);
    const productAfter = (await t.request('GET', productPath(a.storeId, p.id), { token: a.ownerToken })).body.data;
    expect(productAfter).toMatchObject({ version: productBefore.version, variants_count: 2 });
    expect(await db().variant.count({ where: { sku: 'T-NEW' } })).toBe(0);
  });
});

describe('concurrent replaces of one product', () => {
  it('run one after the other: both succeed and the result is exactly one of the two sets', async () => {
    const p = await createProduct(t, a);
    const setA = [{ sku: 'C-1', options: { Size: 'S' } }, { sku: 'C-2', options: { Size: 'M' } }];
    const setB = [{ sku: 'C-2', options: { Size: 'S' } }, { sku: 'C-3', options: { Size: 'M' } }];
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => put(a, p.id, { variants: i % 2 ? setB : setA })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const final = (await get(a, p.id)).body.data.map((v: any) => [v.sku, v.options.Size]);
    expect([JSON.stringify([['C-1', 'S'], ['C-2', 'M']]), JSON.stringify([['C-2', 'S'], ['C-3', 'M']])]).toContain(JSON.stringify(final));
    const product = (await t.request('GET', productPath(a.storeId, p.id), { token: a.ownerToken })).body.data;
    expect(product.version).toBe(p.version + 6);
  });
});

describe('access', () => {
  let p: Record<string, any>;
  let foreign: Record<string, any>;
  beforeAll(async () => {
    p = await createProduct(t, a);
    foreign = await createProduct(t, b);
    await put(b, foreign.id, { variants: [{ sku: sku('FOREIGN') }] });
  });

  it('answers 401 without a token', async () => {
    expectProblem(await t.request('PUT', variantsPath(a, p.id), { body: { variants: [] } }), 401, 'unauthenticated');
    expectProblem(await t.request('GET', variantsPath(a, p.id)), 401, 'unauthenticated');
    const gql = await t.graphql(LIST, { storeId: a.storeId, productId: p.id });
    expect(gql.status).toBe(401);
    expectGqlError(gql, 'unauthenticated');
  });

  it('answers 403 to staff without manage_products and to another store\'s owner', async () => {
    expectProblem(await put(a, p.id, { variants: [] }, a.viewerToken), 403, 'forbidden');
    expectProblem(await get(a, p.id, a.viewerToken), 403, 'forbidden');
    expectProblem(await get(a, p.id, b.ownerToken), 403, 'forbidden');
    expectGqlError(await t.graphql(REPLACE, { storeId: a.storeId, productId: p.id, variants: [] }, { token: a.viewerToken }), 'forbidden');
    expectGqlError(await t.graphql(LIST, { storeId: a.storeId, productId: p.id }, { token: a.viewerToken }), 'forbidden');
  });

  it('lets staff with manage_products replace variants', async () => {
    expect((await put(a, p.id, { variants: [{ sku: sku('STAFF') }] }, a.staffToken)).status).toBe(200);
  });

  it.each([
    ['an unknown id', () => MISSING_ID],
    ['a malformed id', () => 'not-a-uuid'],
    ["another store's product", () => foreign.id],
  ])('answers 404 for %s', async (_what, id) => {
    expectProblem(await put(a, id(), { variants: [{ sku: sku('NF') }] }), 404, 'not_found');
    expectProblem(await get(a, id()), 404, 'not_found');
    expectGqlError(await t.graphql(REPLACE, { storeId: a.storeId, productId: id(), variants: [] }, { token: a.ownerToken }), 'not_found');
    expectGqlError(await t.graphql(LIST, { storeId: a.storeId, productId: id() }, { token: a.ownerToken }), 'not_found');
    // The foreign product's variants are untouched.
    expect(await db().variant.count({ where: { productId: foreign.id } })).toBe(1);
  });
});

describe('GraphQL', () => {
  it('replaces and lists variants, and exposes them on Product', async () => {
    const p = await createProduct(t, a);
    const res = gqlData(
      await t.graphql(
        REPLACE,
        {
          storeId: a.storeId,
          productId: p.id,
          variants: [
            { sku: 'G-2', options: { Size: 'L' }, position: 2, price: '12.50', inventoryQuantity: 4 },
            { sku: 'G-1', title: 'Small', options: { Size: 'S' }, position: 1 },
          ],
        },
        { token: a.staffToken },
      ),
    );
    expect(res.replaceProductVariants).toEqual([
      expect.objectContaining({ sku: 'G-1', title: 'Small', options: { Size: 'S' }, price: null, inventoryQuantity: 0, position: 1 }),
      expect.objectContaining({ sku: 'G-2', options: { Size: 'L' }, price: '12.50', inventoryQuantity: 4, position: 2 }),
    ]);
    const listed = gqlData(await t.graphql(LIST, { storeId: a.storeId, productId: p.id }, { token: a.ownerToken }));
    expect(listed.productVariants.map((v: any) => v.sku)).toEqual(['G-1', 'G-2']);
    const product = gqlData(
      await t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { variantsCount variants { sku position } } }`, { s: a.storeId, id: p.id }, { token: a.ownerToken }),
    );
    expect(product.product).toEqual({ variantsCount: 2, variants: [{ sku: 'G-1', position: 1 }, { sku: 'G-2', position: 2 }] });
  });

  it('reports validation errors and SKU clashes with stable codes', async () => {
    const holder = await createProduct(t, a);
    await put(a, holder.id, { variants: [{ sku: 'GQL-TAKEN' }] });
    const p = await createProduct(t, a);
    const invalid = expectGqlError(
      await t.graphql(REPLACE, { storeId: a.storeId, productId: p.id, variants: [{ sku: 'X', inventoryQuantity: -2 }] }, { token: a.ownerToken }),
      'validation_failed',
    );
    expect(invalid.extensions.errors[0].field).toBe('variants.0.inventoryQuantity');
    const dup = expectGqlError(
      await t.graphql(REPLACE, { storeId: a.storeId, productId: p.id, variants: [{ sku: 'D' }, { sku: 'D', options: { a: 'b' } }] }, { token: a.ownerToken }),
      'validation_failed',
    );
    expect(dup.extensions.errors[0]).toMatchObject({ field: 'variants.1.sku', code: 'duplicate_sku' });
    const taken = expectGqlError(await t.graphql(REPLACE, { storeId: a.storeId, productId: p.id, variants: [{ sku: 'GQL-TAKEN' }] }, { token: a.ownerToken }), 'sku_taken');
    expect(taken.extensions.skus).toEqual(['GQL-TAKEN']);
  });
});
