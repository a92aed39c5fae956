import { db } from '../../src/platform/db/client';
import { gtin13 } from '../../src/kernel/gtin';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { filePart, makeImage, restUpload } from '../images/images';
import { createKey, createOAuthAccessToken } from '../public/helpers';
import { createProduct, expectGqlError, expectProblem, gqlData, productPath, productsPath } from '../products/helpers';

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true' }, { log: require('pino')({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
  a = await createStoreFixture();
});
afterAll(() => t.close());

const path = (productId: string, rest = '') => `${productPath(a.storeId, productId)}${rest}`;
const call = (method: string, productId: string, rest: string, body?: unknown, opts: { token?: string; headers?: Record<string, string> } = {}) =>
  t.request(method, path(productId, rest), { token: opts.token ?? a.ownerToken, body, headers: opts.headers });
const putOptions = (productId: string, options: unknown, query = '', headers?: Record<string, string>) => call('PUT', productId, `/options${query}`, { options }, { headers });
const putVariants = (productId: string, variants: unknown) => call('PUT', productId, '/variants', { variants });
const patchVariants = (productId: string, variants: unknown, opts: { token?: string; headers?: Record<string, string> } = {}) => call('PATCH', productId, '/variants', { variants }, opts);
const generate = (productId: string, body?: unknown, opts: { token?: string; headers?: Record<string, string> } = {}) => call('POST', productId, '/variants/generate', body, opts);
const listVariants = async (productId: string) => (await call('GET', productId, '/variants')).body.data as Record<string, any>[];
const getProduct = async (productId: string) => (await call('GET', productId, '')).body.data as Record<string, any>;
const history = async (productId: string) => (await call('GET', productId, '/changes')).body.data.reverse() as Record<string, any>[];

let n = 0;
const uniq = (prefix: string) => `${prefix}-${++n}-${Math.random().toString(36).slice(2, 6)}`;

const TEE = [
  { name: 'Size', values: ['S', 'M', 'L'] },
  { name: 'Color', values: ['Red', 'Blue'] },
];

describe('PUT …/products/{productID}/options', () => {
  it('sets ordered options on a product, shown on the product (REST and GraphQL), one version and one event', async () => {
    const p = await createProduct(t, a);
    expect(p.options).toEqual([]);
    const res = await putOptions(p.id, TEE);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: p.id, options: TEE, version: p.version + 1 });
    expect(res.headers.get('etag')).toBe(`"v${p.version + 1}"`);
    expect((await getProduct(p.id)).options).toEqual(TEE);
    const gql = gqlData(await t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { options { name values } } }`, { s: a.storeId, id: p.id }, { token: a.ownerToken }));
    expect(gql.product.options).toEqual(TEE);

    // The same options again change nothing: no version, no event.
    expect((await putOptions(p.id, TEE)).body.data.version).toBe(p.version + 1);
    const events = await history(p.id);
    expect(events.map((e) => e.type)).toEqual(['product.created', 'product.options_updated']);
    expect(events[1].changes).toEqual([{ field: 'options', previous: [], next: TEE }]);
  });

  it('reports every problem of the options at once (422)', async () => {
    const p = await createProduct(t, a);
    const res = await putOptions(p.id, [
      { name: 'Size', values: ['S', 's', 'M'] },
      { name: 'size', values: ['X'] },
      { name: ' Color', values: [] },
      { name: 'Fit', values: Array.from({ length: 101 }, (_, i) => `v${i}`) },
    ]);
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => [e.field, e.code])).toEqual(
      expect.arrayContaining([
        ['options.2.name', 'invalid_value'],
        ['options.2.values', 'too_small'],
        ['options.3.values', 'too_big'],
      ]),
    );
    expect(problem.errors!.find((e) => e.field === 'options.3.values')!.message).toContain('values_per_option');
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `O${i}`, values: ['x'] }));
    const tooMany = expectProblem(await putOptions(p.id, six), 422, 'validation_failed');
    expect(tooMany.errors).toEqual([{ field: 'options', code: 'too_big', message: expect.stringContaining('options_per_product') }]);
    const dup = expectProblem(await putOptions(p.id, [{ name: 'Size', values: ['S', 's'] }, { name: 'size', values: ['X'] }]), 422, 'validation_failed');
    expect(dup.errors!.map((e) => [e.field, e.code])).toEqual([
      ['options.0.values.1', 'duplicate_value'],
      ['options.1.name', 'duplicate_option'],
    ]);
    expect((await getProduct(p.id)).options).toEqual([]);
  });

  it('renames options and values on every variant in the same write', async () => {
    const p = await createProduct(t, a);
    await putOptions(p.id, TEE);
    const created = (await generate(p.id, { sku_pattern: `${p.id.slice(0, 8)}-{size}-{COLOR}` })).body.data;
    expect(created).toHaveLength(6);
    const res = await putOptions(p.id, [
      { name: 'Colour', renamed_from: 'Color', values: ['Crimson', 'Blue'], renamed_values: { Red: 'Crimson' } },
      { name: 'size', values: ['S', 'M', 'L'] },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.options).toEqual([
      { name: 'Colour', values: ['Crimson', 'Blue'] },
      { name: 'size', values: ['S', 'M', 'L'] },
    ]);
    const variants = await listVariants(p.id);
    expect(variants.map((v) => v.options)).toEqual([
      { size: 'S', Colour: 'Crimson' },
      { size: 'S', Colour: 'Blue' },
      { size: 'M', Colour: 'Crimson' },
      { size: 'M', Colour: 'Blue' },
      { size: 'L', Colour: 'Crimson' },
      { size: 'L', Colour: 'Blue' },
    ]);
    // Same variants (ids, SKUs), renamed.
    expect(variants.map((v) => v.id)).toEqual(created.map((v: any) => v.id));
    const event = (await history(p.id)).at(-1)!;
    expect(event.type).toBe('product.options_updated');
    expect(event.changes.map((c: any) => c.field)).toEqual(['options', 'variants']);
    expect(event.data.variants[0].options).toEqual({ size: 'S', Colour: 'Crimson' });
  });

  it('answers 422 for a rename of what the product does not have', async () => {
    const p = await createProduct(t, a);
    await putOptions(p.id, TEE);
    const problem = expectProblem(await putOptions(p.id, [{ name: 'Fit', renamed_from: 'Shape', values: ['Slim'] }, { name: 'Size', values: ['S'], renamed_values: { XXL: 'S' } }]), 422, 'validation_failed');
    expect(problem.errors!.map((e) => [e.field, e.code])).toEqual([
      ['options.0.renamed_from', 'unknown_option'],
      ['options.1.renamed_values', 'unknown_option_value'],
    ]);
  });

  it('refuses to remove a value variants use (409 options_in_use listing them) unless delete_variants=true deletes them', async () => {
    const p = await createProduct(t, a);
    await putOptions(p.id, TEE);
    await generate(p.id, { sku_pattern: `${p.id.slice(0, 8)}-{Size}-{Color}` });
    const before = await listVariants(p.id);
    const res = await putOptions(p.id, [{ name: 'Size', values: ['S', 'M'] }, TEE[1]]);
    const problem = expectProblem(res, 409, 'options_in_use');
    const large = before.filter((v) => v.options.Size === 'L');
    expect(problem.variants).toEqual(large.map((v) => ({ id: v.id, sku: v.sku, options: v.options, reason: 'value_removed' })));
    expect(await listVariants(p.id)).toEqual(before);

    const deleted = await putOptions(p.id, [{ name: 'Size', values: ['S', 'M'] }, TEE[1]], '?delete_variants=true');
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.variants_count).toBe(4);
    expect((await listVariants(p.id)).map((v) => v.sku)).toEqual(before.filter((v) => v.options.Size !== 'L').map((v) => v.sku));
  });

  it('removing an option drops its key; variants that then share a combination are options_in_use, or deleted keeping the first', async () => {
    const p = await createProduct(t, a);
    await putOptions(p.id, TEE);
    await generate(p.id, { sku_pattern: `${p.id.slice(0, 8)}-{Size}-{Color}` });
    const before = await listVariants(p.id);
    const problem = expectProblem(await putOptions(p.id, [TEE[0]]), 409, 'options_in_use');
    expect(problem.variants).toEqual(before.filter((v) => v.options.Color === 'Blue').map((v) => expect.objectContaining({ sku: v.sku, reason: 'duplicate_combination' })));
    const res = await putOptions(p.id, [TEE[0]], '?delete_variants=true');
    expect(res.status).toBe(200);
    const after = await listVariants(p.id);
    expect(after.map((v) => [v.id, v.options])).toEqual(before.filter((v) => v.options.Color === 'Red').map((v) => [v.id, { Size: v.options.Size }]));
  });

  it('an added option gives existing variants its first value', async () => {
    const p = await createProduct(t, a);
    await putVariants(p.id, [{ sku: uniq('ADD'), options: { Size: 'S' } }, { sku: uniq('ADD'), options: { Size: 'M' } }]);
    const res = await putOptions(p.id, [{ name: 'Size', values: ['S', 'M'] }, { name: 'Material', values: ['Cotton', 'Linen'] }]);
    expect(res.status).toBe(200);
    expect((await listVariants(p.id)).map((v) => v.options)).toEqual([
      { Size: 'S', Material: 'Cotton' },
      { Size: 'M', Material: 'Cotton' },
    ]);
  });

  it('honours If-Match (412, nothing written) and is refused to staff without manage_products', async () => {
    const p = await createProduct(t, a);
    expectProblem(await putOptions(p.id, TEE, '', { 'if-match': `"v${p.version + 5}"` }), 412, 'precondition_failed');
    expect((await putOptions(p.id, TEE, '', { 'if-match': `"v${p.version}"` })).status).toBe(200);
    expectProblem(await call('PUT', p.id, '/options', { options: TEE }, { token: a.viewerToken }), 403, 'forbidden');
  });
});

describe('options on create', () => {
  it('POST …/products and GraphQL createProduct take the options, checked as PUT …/options checks them; generate then makes the variants', async () => {
    const created = await createProduct(t, a, { options: TEE });
    expect(created).toMatchObject({ options: TEE, variants_count: 0, version: 1 });
    expect((await getProduct(created.id)).options).toEqual(TEE);
    const events = await history(created.id);
    expect(events.map((e) => e.type)).toEqual(['product.created']);
    expect(events[0].data.options).toEqual(TEE);
    const generated = await generate(created.id);
    expect(generated.status).toBe(201);
    expect(generated.body.data.map((v: { options: Record<string, string> }) => v.options)).toEqual([
      { Size: 'S', Color: 'Red' }, { Size: 'S', Color: 'Blue' }, { Size: 'M', Color: 'Red' }, { Size: 'M', Color: 'Blue' }, { Size: 'L', Color: 'Red' }, { Size: 'L', Color: 'Blue' },
    ]);

    // Every problem at once, the options' with the other fields', named as sent; a rename names no option of a new product.
    const bad = await t.request('POST', productsPath(a.storeId), {
      token: a.ownerToken,
      body: {
        name: '', price: 10, category_slugs: [a.categories[0]],
        options: [{ name: 'Size', values: ['S', 'M', 's'] }, { name: 'size', values: ['X'] }, { name: 'Color', values: ['Red'], renamed_from: 'Colour', renamed_values: { Rot: 'Red' } }],
      },
    });
    const fields = expectProblem(bad, 422, 'validation_failed').errors!.map((e) => `${e.field} ${e.code}`);
    expect(fields.sort()).toEqual(['name too_small', 'options.0.values.2 duplicate_value', 'options.1.name duplicate_option', 'options.2.renamed_from unknown_option', 'options.2.renamed_values unknown_option_value']);
    const shape = expectProblem(
      await t.request('POST', productsPath(a.storeId), { token: a.ownerToken, body: { name: 'Tee', price: -1, category_slugs: [a.categories[0]], options: [{ name: 'Size', values: [] }, { name: ' Fit', values: ['x'] }] } }),
      422,
      'validation_failed',
    );
    expect(shape.errors!.map((e) => [e.field, e.code]).sort()).toEqual([['options.0.values', 'too_small'], ['options.1.name', 'invalid_value'], ['price', 'invalid_value']]);
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `O${i}`, values: ['x'] }));
    const tooMany = expectProblem(await t.request('POST', productsPath(a.storeId), { token: a.ownerToken, body: { name: 'Tee', price: 10, category_slugs: [a.categories[0]], options: six } }), 422, 'validation_failed');
    expect(tooMany.errors).toEqual([{ field: 'options', code: 'too_big', message: expect.stringContaining('options_per_product') }]);

    const gql = await t.graphql(
      `mutation($s: ID!, $input: ProductCreateInput!) { createProduct(storeId: $s, input: $input) { id options { name values } variantsCount } }`,
      { s: a.storeId, input: { name: 'Cap', price: '12', categorySlugs: [a.categories[0]], options: [{ name: 'Size', values: ['One size'] }] } },
      { token: a.ownerToken },
    );
    expect(gqlData(gql).createProduct).toMatchObject({ options: [{ name: 'Size', values: ['One size'] }], variantsCount: 0 });
    const gqlBad = await t.graphql(
      `mutation($s: ID!, $input: ProductCreateInput!) { createProduct(storeId: $s, input: $input) { id } }`,
      { s: a.storeId, input: { name: 'Cap', price: '12', categorySlugs: [a.categories[0]], options: [{ name: 'Size', values: ['S', 's'] }, { name: 'size', values: ['X'] }] } },
      { token: a.ownerToken },
    );
    const error = expectGqlError(gqlBad, 'validation_failed');
    expect(error.extensions.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['options.0.values.1', 'duplicate_value'],
      ['options.1.name', 'duplicate_option'],
    ]);
  });
});

describe('variants keep to the options', () => {
  it('a whole-set replace on a product without options derives them from the variants (clients from before options)', async () => {
    const p = await createProduct(t, a);
    const res = await putVariants(p.id, [
      { sku: uniq('OLD'), options: { Color: 'Red', Size: 'M' } },
      { sku: uniq('OLD'), options: { Color: 'Blue', Size: 'M' } },
      { sku: uniq('OLD'), options: { Color: 'Red', Size: 'L' } },
    ]);
    expect(res.status).toBe(200);
    expect((await getProduct(p.id)).options).toEqual([
      { name: 'Color', values: ['Red', 'Blue'] },
      { name: 'Size', values: ['M', 'L'] },
    ]);
    // A later replace adds the values it names…
    expect((await putVariants(p.id, [{ sku: uniq('OLD'), options: { Color: 'Green', Size: 'XL' } }])).status).toBe(200);
    expect((await getProduct(p.id)).options).toEqual([
      { name: 'Color', values: ['Red', 'Blue', 'Green'] },
      { name: 'Size', values: ['M', 'L', 'XL'] },
    ]);
    // …but every variant names every option.
    const problem = expectProblem(await putVariants(p.id, [{ sku: uniq('OLD'), options: { Color: 'Red' } }, { sku: uniq('OLD'), options: { color: 'Red', Size: 'M' } }]), 422, 'validation_failed');
    expect(problem.errors!.map((e) => [e.field, e.code])).toEqual([
      ['variants.1.options', 'unknown_option'],
      ['variants.0.options', 'missing_option'],
      ['variants.1.options', 'missing_option'],
    ]);
  });

  it('a product without options has at most one variant, with an empty map', async () => {
    const p = await createProduct(t, a);
    expect((await putVariants(p.id, [{ sku: uniq('ONE') }])).status).toBe(200);
    const problem = expectProblem(await putVariants(p.id, [{ sku: uniq('ONE') }, { sku: uniq('ONE') }]), 422, 'validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'variants.1.options', code: 'duplicate_options' })]);
  });
});

describe('POST …/variants/generate', () => {
  it('creates every missing combination after the existing variants, with defaults and the SKU pattern (201)', async () => {
    const p = await createProduct(t, a, { price: 20 });
    await putOptions(p.id, TEE);
    const code = p.id.split('-')[0].toUpperCase();
    const existing = await putVariants(p.id, [{ sku: uniq('HAND'), options: { Size: 'M', Color: 'Blue' }, price: 25 }]);
    const res = await generate(p.id, { price: '22.50', inventory_quantity: 7 });
    expect(res.status).toBe(201);
    expect(res.body.meta).toEqual({ created: 5 });
    expect(res.body.data.map((v: any) => [v.sku, v.title, v.options, v.price, v.inventory_quantity, v.position])).toEqual([
      [`${code}-S-Red`, 'S / Red', { Size: 'S', Color: 'Red' }, 22.5, 7, 1],
      [`${code}-S-Blue`, 'S / Blue', { Size: 'S', Color: 'Blue' }, 22.5, 7, 2],
      [`${code}-M-Red`, 'M / Red', { Size: 'M', Color: 'Red' }, 22.5, 7, 3],
      [`${code}-L-Red`, 'L / Red', { Size: 'L', Color: 'Red' }, 22.5, 7, 4],
      [`${code}-L-Blue`, 'L / Blue', { Size: 'L', Color: 'Blue' }, 22.5, 7, 5],
    ]);
    expect((await listVariants(p.id)).map((v) => v.sku)).toEqual([existing.body.data[0].sku, ...res.body.data.map((v: any) => v.sku)]);
    // Nothing left to create: 200 with none, no new version.
    const again = await generate(p.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ data: [], meta: { created: 0 } });
    const events = await history(p.id);
    expect(events.map((e) => e.type)).toEqual(['product.created', 'product.options_updated', 'product.variants_replaced', 'product.variants_updated']);
    expect(events[3].changes.map((c: any) => c.field)).toEqual(['variants_count', 'variants']);
  });

  it('refuses a pattern with unknown placeholders or duplicate SKUs (422) and taken SKUs (409 sku_taken), writing nothing', async () => {
    const p = await createProduct(t, a);
    await putOptions(p.id, TEE);
    const unknown = expectProblem(await generate(p.id, { sku_pattern: 'TEE-{Size}-{Colour}' }), 422, 'validation_failed');
    expect(unknown.errors).toEqual([expect.objectContaining({ field: 'sku_pattern', code: 'unknown_placeholder', message: expect.stringContaining('{Colour}') })]);
    const stray = expectProblem(await generate(p.id, { sku_pattern: 'TEE-{Size}-{Color' }), 422, 'validation_failed');
    expect(stray.errors).toEqual([expect.objectContaining({ field: 'sku_pattern', code: 'unknown_placeholder', message: expect.stringContaining('-{Color') })]);
    const dup = expectProblem(await generate(p.id, { sku_pattern: `${p.id}-{Size}` }), 422, 'validation_failed');
    expect(dup.errors).toEqual([expect.objectContaining({ field: 'sku_pattern', code: 'duplicate_sku' })]);

    const other = await createProduct(t, a);
    const prefix = uniq('GEN');
    await putVariants(other.id, [{ sku: `${prefix}-M-Blue` }]);
    const taken = expectProblem(await generate(p.id, { sku_pattern: `${prefix}-{Size}-{Color}` }), 409, 'sku_taken');
    expect(taken.skus).toEqual([`${prefix}-M-Blue`]);
    expect(await listVariants(p.id)).toEqual([]);
    expect((await getProduct(p.id)).version).toBe(p.version + 1);
  });

  it('makes 3 options × 12 values = 1,728 variants in one write, and refuses a 2,049th variant naming the limit', async () => {
    const p = await createProduct(t, a);
    const twelve = (prefix: string) => Array.from({ length: 12 }, (_, i) => `${prefix}${i + 1}`);
    await putOptions(p.id, [
      { name: 'A', values: twelve('a') },
      { name: 'B', values: twelve('b') },
      { name: 'C', values: twelve('c') },
    ]);
    const started = Date.now();
    const res = await generate(p.id, { sku_pattern: `${p.id.slice(0, 8)}-{A}-{B}-{C}` });
    expect(res.status).toBe(201);
    expect(res.body.meta.created).toBe(1728);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await db().variant.count({ where: { productId: p.id } })).toBe(1728);
    expect((await getProduct(p.id)).variants_count).toBe(1728);

    // 13 × 12 × 12 = 1,872 combinations fit; a fourth option of 2 values (3,744) does not.
    const grown = await putOptions(p.id, [
      { name: 'A', values: [...twelve('a'), 'a13'] },
      { name: 'B', values: twelve('b') },
      { name: 'C', values: twelve('c') },
      { name: 'D', values: ['d1', 'd2'] },
    ]);
    expect(grown.status).toBe(200);
    const over = expectProblem(await generate(p.id), 422, 'limit_exceeded');
    expect(over).toMatchObject({ limit_name: 'variants_per_product', limit: 2048 });
    expect(await db().variant.count({ where: { productId: p.id } })).toBe(1728);
  }, 120_000);
});

describe('variant fields', () => {
  const EAN = gtin13('400638133393');

  it('stores barcode, compare-at price, cost, weight, image and attributes, and shows them on REST, GraphQL and in events', async () => {
    const store = `/api/v1/merchant/stores/${a.storeId}`;
    const created = (path: string, body: unknown) => t.request('POST', `${store}${path}`, { token: a.ownerToken, body });
    expect((await created('/attributes', { code: 'fabric_weight', name: 'Fabric weight', type: 'numeric', unit: 'g' })).status).toBe(201);
    expect((await created('/attributes', { code: 'care', name: 'Care', type: 'multiselect', values: [{ value: 'wash_30', name: 'Wash at 30' }] })).status).toBe(201);
    const type = (await created('/product-types', { name: 'Fabrics', variant_attributes: [{ code: 'fabric_weight' }, { code: 'care' }] })).body.data;
    const p = await createProduct(t, a, { price: 30, product_type_id: type.id });
    const upload = await restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: p.id }, filePart(await makeImage('png'), 'a.png', 'image/png')]);
    const image = upload.body.data;
    const res = await putVariants(p.id, [
      {
        sku: uniq('RICH'),
        options: { Size: 'M' },
        barcode: EAN,
        compare_at_price: 39.9,
        cost: '12.35',
        weight: { value: 0.25, unit: 'kg' },
        image_id: image.id,
        attributes: { fabric_weight: 180, care: ['wash_30'] },
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({
      barcode: EAN,
      compare_at_price: 39.9,
      cost: 12.35,
      weight: { value: 0.25, unit: 'kg' },
      image_id: image.id,
      attributes: { fabric_weight: 180, care: ['wash_30'] },
    });
    const gql = gqlData(
      await t.graphql(`query($s: ID!, $p: ID!) { productVariants(storeId: $s, productId: $p) { barcode compareAtPrice cost weight { value unit } imageId attributes } }`, { s: a.storeId, p: p.id }, { token: a.staffToken }),
    );
    expect(gql.productVariants[0]).toEqual({ barcode: EAN, compareAtPrice: '39.90', cost: '12.35', weight: { value: 0.25, unit: 'kg' }, imageId: image.id, attributes: { fabric_weight: 180, care: ['wash_30'] } });
    const event = (await history(p.id)).find((e) => e.type === 'product.variants_replaced')!;
    expect(event.data.variants[0]).toMatchObject({ cost: 12.35, compare_at_price: 39.9, weight: { value: 0.25, unit: 'kg' } });

    // Deleting the image clears it on the variant.
    expect((await call('DELETE', p.id, `/images/${image.id}`)).status).toBe(204);
    expect((await listVariants(p.id))[0].image_id).toBeNull();
  });

  it('reports every field error of every variant at once', async () => {
    const p = await createProduct(t, a, { price: 30 });
    const foreign = await createProduct(t, a);
    const foreignImage = (await restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: foreign.id }, filePart(await makeImage('png'), 'b.png', 'image/png')])).body.data;
    const res = await putVariants(p.id, [
      { sku: uniq('BAD'), options: { Size: 'S' }, barcode: '4006381333932', weight: { value: 0, unit: 'st' } },
      { sku: uniq('BAD'), options: { Size: 'M' }, compare_at_price: 30, image_id: foreignImage.id },
      { sku: uniq('BAD'), options: { Size: 'L' }, price: 10, compare_at_price: 9.99, attributes: ['x'] },
    ]);
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => [e.field, e.code])).toEqual(
      expect.arrayContaining([
        ['variants.0.barcode', 'invalid_barcode'],
        ['variants.0.weight.value', 'too_small'],
        ['variants.0.weight.unit', 'invalid_value'],
        ['variants.2.attributes', 'invalid_type'],
      ]),
    );
    // Rules that need the product come once the types fit.
    const rules = expectProblem(
      await putVariants(p.id, [
        { sku: uniq('BAD'), options: { Size: 'M' }, compare_at_price: 30, image_id: foreignImage.id },
        { sku: uniq('BAD'), options: { Size: 'L' }, price: 10, compare_at_price: 9.99 },
      ]),
      422,
      'validation_failed',
    );
    expect(rules.errors!.map((e) => [e.field, e.code])).toEqual([
      ['variants.0.compare_at_price', 'compare_at_price_not_above_price'],
      ['variants.0.image_id', 'unknown_image'],
      ['variants.1.compare_at_price', 'compare_at_price_not_above_price'],
    ]);
    expect(await listVariants(p.id)).toEqual([]);
  });

  it('never shows cost to an API key or OAuth token, in the merchant-shaped public API or elsewhere', async () => {
    const p = await createProduct(t, a);
    await putVariants(p.id, [{ sku: uniq('COST'), cost: 3.5 }]);
    const { secret } = await createKey(t, a, { type: 'secret', mode: 'live', scopes: ['products:write'] });
    const viaKey = await t.request('GET', `/api/public/v1/products/${p.id}/variants`, { headers: { authorization: `Bearer ${secret}` } });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.data[0]).not.toHaveProperty('cost');
    expect(viaKey.body.data[0]).toHaveProperty('compare_at_price');
    const { token } = await createOAuthAccessToken(a, 'live', ['products:read']);
    const viaOAuth = await t.request('GET', `/api/public/v1/products/${p.id}/variants`, { headers: { authorization: `Bearer ${token}` } });
    expect(viaOAuth.status).toBe(200);
    expect(viaOAuth.body.data[0]).not.toHaveProperty('cost');
    const patched = await t.request('PATCH', `/api/public/v1/products/${p.id}/variants`, { headers: { authorization: `Bearer ${secret}` }, body: { variants: [{ id: viaKey.body.data[0].id, cost: 4 }] } });
    expect(patched.status).toBe(200);
    expect(patched.body.data[0]).not.toHaveProperty('cost');
    // Dashboard staff with manage_products see it.
    expect((await listVariants(p.id))[0].cost).toBe(4);
  });
});

describe('PATCH …/products/{productID}/variants', () => {
  it('updates many variants by id in one write: fields left out kept, null clears, one version and one event', async () => {
    const p = await createProduct(t, a, { price: 30 });
    await putOptions(p.id, TEE);
    const all = (await generate(p.id, { sku_pattern: `${p.id.slice(0, 8)}-{Size}-{Color}`, inventory_quantity: 2 })).body.data;
    const version = (await getProduct(p.id)).version;
    const res = await patchVariants(p.id, [
      { id: all[1].id, inventory_quantity: 9, barcode: gtin13('400638133393'), cost: 5 },
      { id: all[0].id, price: 40, compare_at_price: 45, weight: { value: 300, unit: 'g' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((v: any) => [v.id, v.inventory_quantity, v.price, v.compare_at_price, v.cost, v.sku])).toEqual([
      [all[1].id, 9, null, null, 5, all[1].sku],
      [all[0].id, 2, 40, 45, null, all[0].sku],
    ]);
    const cleared = await patchVariants(p.id, [{ id: all[0].id, price: null, compare_at_price: null, weight: null }]);
    expect(cleared.body.data[0]).toMatchObject({ price: null, compare_at_price: null, weight: null, inventory_quantity: 2 });
    expect((await getProduct(p.id)).version).toBe(version + 2);
    const events = (await history(p.id)).slice(-2);
    expect(events.map((e) => e.type)).toEqual(['product.variants_updated', 'product.variants_updated']);
    expect(events[0].changes.map((c: any) => c.field)).toEqual(['variants']);
    // A patch that changes nothing makes no version.
    await patchVariants(p.id, [{ id: all[0].id, inventory_quantity: 2 }]);
    expect((await getProduct(p.id)).version).toBe(version + 2);
  });

  it('lets two variants swap SKUs and combinations in one request', async () => {
    const p = await createProduct(t, a);
    await putOptions(p.id, [TEE[0]]);
    const [s, m] = (await generate(p.id, { sku_pattern: `${p.id.slice(0, 8)}-{Size}` })).body.data;
    const res = await patchVariants(p.id, [
      { id: s.id, sku: m.sku, options: { Size: 'M' } },
      { id: m.id, sku: s.sku, options: { Size: 'S' } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.map((v: any) => [v.id, v.sku, v.options.Size])).toEqual([
      [s.id, m.sku, 'M'],
      [m.id, s.sku, 'S'],
    ]);
  });

  it('reports every error of every item at once, naming variants.N.field, and writes nothing', async () => {
    const p = await createProduct(t, a, { price: 30 });
    await putOptions(p.id, TEE);
    const all = (await generate(p.id, { sku_pattern: `${p.id.slice(0, 8)}-{Size}-{Color}` })).body.data;
    const before = await listVariants(p.id);
    const res = await patchVariants(p.id, [
      { id: '00000000-0000-4000-8000-000000000000', inventory_quantity: 1 },
      { id: all[0].id, options: { Size: 'XL', Color: 'Red' } },
      { id: all[1].id, options: { Size: 'S' } },
      { id: all[2].id, options: { Size: 'S', Color: 'Red', Fit: 'Slim' } },
      { id: all[3].id, sku: all[4].sku, compare_at_price: 10 },
      { id: all[3].id, title: 'twice' },
    ]);
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => [e.field, e.code])).toEqual([
      ['variants.0.id', 'unknown_variant'],
      ['variants.1.options', 'unknown_option_value'],
      ['variants.2.options', 'missing_option'],
      ['variants.3.options', 'unknown_option'],
      ['variants.5.id', 'duplicate_variant'],
      ['variants.4.sku', 'duplicate_sku'],
      ['variants.4.compare_at_price', 'compare_at_price_not_above_price'],
    ]);
    const types = expectProblem(await patchVariants(p.id, [{ id: all[0].id, sku: null, inventory_quantity: -1, barcode: '123' }]), 422, 'validation_failed');
    expect(types.errors!.map((e) => [e.field, e.code])).toEqual([
      ['variants.0.sku', 'invalid_type'],
      ['variants.0.inventory_quantity', 'too_small'],
      ['variants.0.barcode', 'invalid_barcode'],
    ]);
    expect(await listVariants(p.id)).toEqual(before);
  });

  it('works over GraphQL (updateProductVariants, generateProductVariants, setProductOptions) with expectedVersion', async () => {
    const p = await createProduct(t, a);
    const set = gqlData(
      await t.graphql(
        `mutation($s: ID!, $p: ID!, $o: [ProductOptionInput!]!) { setProductOptions(storeId: $s, productId: $p, options: $o) { version options { name values } } }`,
        { s: a.storeId, p: p.id, o: [{ name: 'Size', values: ['S', 'M'] }] },
        { token: a.staffToken },
      ),
    );
    expect(set.setProductOptions).toEqual({ version: p.version + 1, options: [{ name: 'Size', values: ['S', 'M'] }] });
    const gen = gqlData(
      await t.graphql(
        `mutation($s: ID!, $p: ID!, $i: GenerateVariantsInput) { generateProductVariants(storeId: $s, productId: $p, input: $i) { id sku options } }`,
        { s: a.storeId, p: p.id, i: { skuPattern: `${p.id}-{Size}` } },
        { token: a.staffToken },
      ),
    );
    expect(gen.generateProductVariants.map((v: any) => v.sku)).toEqual([`${p.id}-S`, `${p.id}-M`]);
    const UPDATE = `mutation($s: ID!, $p: ID!, $v: [VariantPatchInput!]!, $e: Int) { updateProductVariants(storeId: $s, productId: $p, variants: $v, expectedVersion: $e) { id inventoryQuantity cost } }`;
    expectGqlError(await t.graphql(UPDATE, { s: a.storeId, p: p.id, v: [{ id: gen.generateProductVariants[0].id, inventoryQuantity: 3 }], e: p.version }, { token: a.staffToken }), 'precondition_failed');
    const upd = gqlData(await t.graphql(UPDATE, { s: a.storeId, p: p.id, v: [{ id: gen.generateProductVariants[0].id, inventoryQuantity: 3, cost: '1.00' }], e: p.version + 2 }, { token: a.staffToken }));
    expect(upd.updateProductVariants).toEqual([{ id: gen.generateProductVariants[0].id, inventoryQuantity: 3, cost: '1.00' }]);
    const invalid = expectGqlError(await t.graphql(UPDATE, { s: a.storeId, p: p.id, v: [{ id: gen.generateProductVariants[0].id, options: { Size: 'XL' } }] }, { token: a.staffToken }), 'validation_failed');
    expect(invalid.extensions.errors).toEqual([expect.objectContaining({ field: 'variants.0.options', code: 'unknown_option_value' })]);
  });
});
