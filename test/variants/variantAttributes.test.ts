import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { createProduct, expectProblem, gqlData, productPath } from '../products/helpers';

let t: TestServer;
let a: StoreFixture;
let typeId: string;

const base = () => `/api/v1/merchant/stores/${a.storeId}`;
const post = async (path: string, body: unknown) => {
  const res = await t.request('POST', `${base()}${path}`, { token: a.ownerToken, body });
  if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${res.text}`);
  return res.body.data as Record<string, any>;
};
const call = (method: string, productId: string, rest: string, body?: unknown) => t.request(method, `${productPath(a.storeId, productId)}${rest}`, { token: a.ownerToken, body });
const history = async (productId: string) => (await call('GET', productId, '/changes')).body.data.reverse() as Record<string, any>[];

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  await post('/attributes', { code: 'shade', name: 'Shade', type: 'dropdown', values: [{ value: 'red', name: 'Red' }, { value: 'blue', name: 'Blue' }], public: true });
  await post('/attributes', { code: 'fabric', name: 'Fabric', type: 'multiselect', values: ['cotton', 'linen', 'silk'].map((v) => ({ value: v, name: v })), public: true });
  await post('/attributes', { code: 'notes', name: 'Notes', type: 'rich_text' });
  await post('/attributes', { code: 'grams', name: 'Grams', type: 'numeric', unit: 'g' });
  await post('/attributes', { code: 'finish', name: 'Finish', type: 'plain_text', public: true });
  const type = await post('/product-types', {
    name: 'Shirts',
    product_attributes: [{ code: 'finish' }],
    variant_attributes: [{ code: 'shade', required: true }, { code: 'fabric' }, { code: 'notes' }, { code: 'grams' }],
  });
  typeId = type.id;
});
afterAll(() => t.close());

const typed = (fields: Record<string, unknown> = {}) => createProduct(t, a, { product_type_id: typeId, ...fields });

describe('variant attributes against the product type', () => {
  it('PUT variants names every bad value at once, then stores the values normalised', async () => {
    const p = await typed();
    const bad = await call('PUT', p.id, '/variants', {
      variants: [
        { sku: `A-${p.id}`, options: { Size: 'S' }, attributes: { shade: 'red' } },
        { sku: `B-${p.id}`, options: { Size: 'M' }, attributes: { grams: 'heavy' } },
        { sku: `C-${p.id}`, options: { Size: 'L' }, attributes: { shade: 'green', nope: 1 } },
      ],
    });
    expect(expectProblem(bad, 422, 'validation_failed').errors).toEqual(
      expect.arrayContaining([
        { field: 'variants.1.attributes.grams', code: 'invalid_type', message: 'must be a number' },
        { field: 'variants.1.attributes.shade', code: 'required', message: 'is required by the product type' },
        { field: 'variants.2.attributes.shade', code: 'invalid_value', message: 'must be one of: red, blue' },
        { field: 'variants.2.attributes.nope', code: 'unknown_attribute', message: expect.any(String) },
      ]),
    );
    expect(bad.body.errors).toHaveLength(4);

    const ok = await call('PUT', p.id, '/variants', {
      variants: [{ sku: `A-${p.id}`, options: { Size: 'S' }, attributes: { shade: 'red', fabric: ['silk', 'cotton', 'silk'], notes: '<p>Soft<script>alert(1)</script></p>', grams: 180 } }],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].attributes).toEqual({ shade: 'red', fabric: ['cotton', 'silk'], notes: '<p>Soft</p>', grams: 180 });
    expect((await call('GET', p.id, '/variants')).body.data[0].attributes).toEqual(ok.body.data[0].attributes);
  });

  it('PATCH variants checks the values sent (a new set) and stores them normalised; the event carries the variant fields', async () => {
    const p = await typed();
    const put = await call('PUT', p.id, '/variants', {
      variants: [
        { sku: `A-${p.id}`, options: { Size: 'S' }, cost: 4.5, attributes: { shade: 'red' } },
        { sku: `B-${p.id}`, options: { Size: 'M' }, attributes: { shade: 'blue' } },
      ],
    });
    const [v0, v1] = put.body.data;
    const bad = await call('PATCH', p.id, '/variants', { variants: [{ id: v0.id, inventory_quantity: 3 }, { id: v1.id, attributes: { shade: 'blue', fabric: 'wool' } }] });
    expect(expectProblem(bad, 422, 'validation_failed').errors).toEqual([{ field: 'variants.1.attributes.fabric', code: 'invalid_type', message: expect.any(String) }]);
    // A variant attribute left out of the patch is kept; the required one must be in a new set.
    const missing = await call('PATCH', p.id, '/variants', { variants: [{ id: v1.id, attributes: { fabric: ['linen'] } }] });
    expect(expectProblem(missing, 422, 'validation_failed').errors).toEqual([{ field: 'variants.0.attributes.shade', code: 'required', message: 'is required by the product type' }]);

    const ok = await call('PATCH', p.id, '/variants', { variants: [{ id: v0.id, inventory_quantity: 3 }, { id: v1.id, attributes: { shade: 'blue', fabric: ['silk', 'linen'] } }] });
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((v: any) => v.attributes)).toEqual([{ shade: 'red' }, { shade: 'blue', fabric: ['linen', 'silk'] }]);

    const event = (await history(p.id)).at(-1)!;
    expect(event.type).toBe('product.variants_updated');
    expect(event.data.variants).toEqual([
      expect.objectContaining({ id: v0.id, inventory_quantity: 3, cost: 4.5, attributes: { shade: 'red' }, barcode: null, compare_at_price: null, weight: null, image_id: null }),
      expect.objectContaining({ id: v1.id, attributes: { shade: 'blue', fabric: ['linen', 'silk'] } }),
    ]);
    expect(event.changes.map((c: any) => c.field)).toContain('variants');
  });

  it('refuses variant values on a product without a type, as the product level does', async () => {
    const p = await createProduct(t, a);
    const res = await call('PUT', p.id, '/variants', { variants: [{ sku: `A-${p.id}`, attributes: { shade: 'red' } }] });
    expect(expectProblem(res, 422, 'validation_failed').errors).toEqual([{ field: 'variants.0.attributes', code: 'product_type_required', message: expect.any(String) }]);
    const v = (await call('PUT', p.id, '/variants', { variants: [{ sku: `A-${p.id}` }] })).body.data[0];
    const patch = await call('PATCH', p.id, '/variants', { variants: [{ id: v.id, attributes: { shade: 'red' } }] });
    expect(expectProblem(patch, 422, 'validation_failed').errors).toEqual([{ field: 'variants.0.attributes', code: 'product_type_required', message: expect.any(String) }]);
  });

  it('generate refuses a required variant attribute without a value for it, and gives every new variant the attributes sent', async () => {
    const p = await typed();
    expect((await call('PUT', p.id, '/options', { options: [{ name: 'Size', values: ['S', 'M'] }] })).status).toBe(200);
    const refused = await call('POST', p.id, '/variants/generate', {});
    expect(expectProblem(refused, 422, 'validation_failed').errors).toEqual([{ field: 'attributes.shade', code: 'required', message: 'is required by the product type' }]);
    const bad = await call('POST', p.id, '/variants/generate', { attributes: { shade: 'green', fabric: ['silk'] } });
    expect(expectProblem(bad, 422, 'validation_failed').errors).toEqual([{ field: 'attributes.shade', code: 'invalid_value', message: 'must be one of: red, blue' }]);

    const res = await call('POST', p.id, '/variants/generate', { attributes: { shade: 'blue', fabric: ['silk', 'cotton'] }, price: 25 });
    expect(res.status).toBe(201);
    expect(res.body.data.map((v: any) => [v.options, v.attributes])).toEqual([
      [{ Size: 'S' }, { shade: 'blue', fabric: ['cotton', 'silk'] }],
      [{ Size: 'M' }, { shade: 'blue', fabric: ['cotton', 'silk'] }],
    ]);
    const event = (await history(p.id)).at(-1)!;
    expect(event.type).toBe('product.variants_updated');
    expect(event.data.variants).toHaveLength(2);
    expect(event.data.variants[0]).toMatchObject({ price: 25, cost: null, attributes: { shade: 'blue', fabric: ['cotton', 'silk'] } });
  });

  it('generate on a product without a type needs no attributes', async () => {
    const p = await createProduct(t, a);
    await call('PUT', p.id, '/options', { options: [{ name: 'Size', values: ['S'] }] });
    const res = await call('POST', p.id, '/variants/generate', {});
    expect(res.status).toBe(201);
    expect(res.body.data[0].attributes).toEqual({});
  });

  it('checks the same over GraphQL (replace, update by id, generate)', async () => {
    const p = await typed();
    const replace = await t.graphql(
      `mutation($s: ID!, $p: ID!, $v: [VariantInput!]!) { replaceProductVariants(storeId: $s, productId: $p, variants: $v) { id attributes } }`,
      { s: a.storeId, p: p.id, v: [{ sku: `G-${p.id}`, options: { Size: 'S' }, attributes: { shade: 'pink', grams: '1' } }] },
      { token: a.ownerToken },
    );
    expect(replace.body.errors[0].extensions).toMatchObject({
      code: 'validation_failed',
      errors: [
        { field: 'variants.0.attributes.shade', code: 'invalid_value', message: 'must be one of: red, blue' },
        { field: 'variants.0.attributes.grams', code: 'invalid_type', message: 'must be a number' },
      ],
    });
    const ok = gqlData(
      await t.graphql(
        `mutation($s: ID!, $p: ID!, $v: [VariantInput!]!) { replaceProductVariants(storeId: $s, productId: $p, variants: $v) { id attributes } }`,
        { s: a.storeId, p: p.id, v: [{ sku: `G-${p.id}`, options: { Size: 'S' }, attributes: { shade: 'red', fabric: ['linen', 'cotton'] } }] },
        { token: a.ownerToken },
      ),
    ).replaceProductVariants;
    expect(ok[0].attributes).toEqual({ shade: 'red', fabric: ['cotton', 'linen'] });
    const updated = await t.graphql(
      `mutation($s: ID!, $p: ID!, $v: [VariantPatchInput!]!) { updateProductVariants(storeId: $s, productId: $p, variants: $v) { id attributes } }`,
      { s: a.storeId, p: p.id, v: [{ id: ok[0].id, attributes: { fabric: ['linen'] } }] },
      { token: a.ownerToken },
    );
    expect(updated.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ field: 'variants.0.attributes.shade', code: 'required' }] });
    await call('PUT', p.id, '/options', { options: [{ name: 'Size', values: ['S', 'M'] }] });
    const generated = gqlData(
      await t.graphql(
        `mutation($s: ID!, $p: ID!, $i: GenerateVariantsInput) { generateProductVariants(storeId: $s, productId: $p, input: $i) { options attributes } }`,
        { s: a.storeId, p: p.id, i: { attributes: { shade: 'red' } } },
        { token: a.ownerToken },
      ),
    ).generateProductVariants;
    expect(generated).toEqual([{ options: { Size: 'M' }, attributes: { shade: 'red' } }]);
  });
});

describe('the storefront view of a product', () => {
  it('shows options and variants with public attribute values only, never cost or inventory counts', async () => {
    const p = await typed({ status: 'active', attributes: { finish: 'Matte' } });
    await call('PUT', p.id, '/options', { options: [{ name: 'Size', values: ['S', 'M'] }] });
    const put = await call('PUT', p.id, '/variants', {
      variants: [
        { sku: `S-${p.id}`, options: { Size: 'S' }, price: 30, compare_at_price: 40, cost: 12, inventory_quantity: 0, weight: { value: 0.2, unit: 'kg' }, attributes: { shade: 'red', fabric: ['cotton'], notes: '<p>Staff only</p>', grams: 200 } },
        { sku: `M-${p.id}`, options: { Size: 'M' }, cost: 13, inventory_quantity: 5, attributes: { shade: 'blue' } },
      ],
    });
    expect(put.status).toBe(200);
    const key = (await createKey(t, a, { type: 'publishable', mode: 'live' })).secret;
    const one = await publicGet(t, `/products/${p.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body.data.options).toEqual([{ name: 'Size', values: ['S', 'M'] }]);
    expect(one.body.data.attributes).toEqual({ finish: 'Matte' });
    expect(one.body.data.variants).toEqual([
      {
        id: put.body.data[0].id,
        sku: `S-${p.id}`,
        title: '',
        options: { Size: 'S' },
        price: 30,
        compare_at_price: 40,
        in_stock: false,
        position: 0,
        barcode: null,
        weight: { value: 0.2, unit: 'kg' },
        image_id: null,
        attributes: { shade: 'red', fabric: ['cotton'] },
      },
      expect.objectContaining({ sku: `M-${p.id}`, price: null, in_stock: true, attributes: { shade: 'blue' } }),
    ]);
    expect(JSON.stringify(one.body)).not.toContain('cost');
    expect(JSON.stringify(one.body)).not.toContain('inventory_quantity');
    const list = await publicGet(t, '/products?per_page=100', { key });
    expect(list.body.data.find((x: any) => x.id === p.id).variants).toEqual(one.body.data.variants);
  });
});
