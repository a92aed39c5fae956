import { db } from '../../src/platform/db/client';
import { CATALOG_LIMITS } from '../../src/catalog/limits';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { expectProblem, gqlData, productPath, productsPath } from '../products/helpers';
import { createKey, publicGet } from '../public/helpers';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
});
afterAll(() => t.close());

const base = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}`;
const attrs = (s: StoreFixture) => `${base(s)}/attributes`;
const types = (s: StoreFixture) => `${base(s)}/product-types`;
const post = (path: string, body: unknown, token = a.ownerToken) => t.request('POST', path, { token, body });
const patch = (path: string, body: unknown, token = a.ownerToken) => t.request('PATCH', path, { token, body });

let n = 0;
const code = (prefix: string) => `${prefix}_${++n}`;

async function attribute(s: StoreFixture, body: Record<string, unknown>) {
  const res = await post(attrs(s), body, s.ownerToken);
  if (res.status !== 201) throw new Error(`attribute create failed: ${res.status} ${res.text}`);
  return res.body.data as Record<string, any>;
}

async function productType(s: StoreFixture, body: Record<string, unknown>) {
  const res = await post(types(s), body, s.ownerToken);
  if (res.status !== 201) throw new Error(`product type create failed: ${res.status} ${res.text}`);
  return res.body.data as Record<string, any>;
}

async function product(s: StoreFixture, fields: Record<string, unknown>) {
  return post(productsPath(s.storeId), { name: 'Tee', price: 19.9, category_slugs: [s.categories[0]], ...fields }, s.ownerToken);
}

const events = async (s: StoreFixture, query: string) => (await t.request('GET', `${base(s)}/changes${query}`, { token: s.ownerToken })).body.data as any[];

describe('attributes over REST', () => {
  it('creates, reads (by id and code), lists, updates and deletes an attribute, each change an event', async () => {
    const c = code('material');
    const created = await post(attrs(a), { code: c, name: 'Material', type: 'dropdown', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }], filterable: true, public: true });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`${t.url}${attrs(a)}/${created.body.data.id}`);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      code: c,
      name: 'Material',
      type: 'dropdown',
      unit: null,
      values: [
        { value: 'cotton', name: 'Cotton', hex: null },
        { value: 'linen', name: 'Linen', hex: null },
      ],
      reference_type: null,
      filterable: true,
      public: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      version: 1,
      translations: {},
    });
    const id = created.body.data.id;
    expect((await t.request('GET', `${attrs(a)}/${c}`, { token: a.ownerToken })).body.data).toEqual(created.body.data);
    expect((await t.request('GET', `${attrs(a)}/${id}`, { token: a.staffToken })).body.data).toEqual(created.body.data);
    expect((await t.request('GET', `${attrs(b)}/${id}`, { token: b.ownerToken })).status).toBe(404);

    const listed = await t.request('GET', `${attrs(a)}?per_page=100`, { token: a.ownerToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((x: any) => x.code)).toContain(c);
    expect(listed.body.meta).toMatchObject({ page: 1, per_page: 100, total_exact: true });

    // A read body sent back edited: read-only fields and an unchanged code and type are accepted.
    const updated = await patch(`${attrs(a)}/${c}`, { ...created.body.data, name: 'Fabric', values: [{ value: 'linen', name: 'Linen' }, { value: 'cotton', name: 'Cotton (organic)' }, { value: 'wool', name: 'Wool' }] });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Fabric', version: 2, values: [{ value: 'linen' }, { value: 'cotton', name: 'Cotton (organic)' }, { value: 'wool' }] });

    expect((await t.request('DELETE', `${attrs(a)}/${c}`, { token: a.ownerToken })).status).toBe(204);
    expect((await t.request('GET', `${attrs(a)}/${c}`, { token: a.ownerToken })).status).toBe(404);

    const history = await events(a, `?resource_type=attribute`);
    const mine = history.filter((e) => e.resource.id === id);
    expect(mine.map((e) => [e.type, e.resource.version, e.mode])).toEqual([
      ['attribute.deleted', 3, 'live'],
      ['attribute.updated', 2, 'live'],
      ['attribute.created', 1, 'live'],
    ]);
    expect(mine[2].data).toEqual(created.body.data);
    expect(mine[1].changes.map((ch: any) => ch.field)).toEqual(['name', 'values']);
  });

  it('refuses a body breaking the type rules with every error at once', async () => {
    const res = await post(attrs(a), {
      code: 'Bad Code',
      name: '',
      type: 'numeric',
      values: [{ value: 'x', name: 'X', hex: '#FF0000' }],
      reference_type: 'product',
    });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ field: 'code', code: 'invalid_value' }),
      expect.objectContaining({ field: 'name', code: 'too_small' }),
    ]));
    // The shape rules run once each field is valid: all of them together.
    const shape = await post(attrs(a), { code: code('shape'), name: 'Shape', type: 'plain_text', unit: 'cm', values: [{ value: 'x', name: 'X' }], reference_type: 'product' });
    expect(expectProblem(shape, 422, 'validation_failed').errors).toEqual([
      { field: 'values', code: 'not_allowed', message: expect.any(String) },
      { field: 'unit', code: 'not_allowed', message: expect.any(String) },
      { field: 'reference_type', code: 'not_allowed', message: expect.any(String) },
    ]);
    const swatch = await post(attrs(a), { code: code('color'), name: 'Color', type: 'swatch', values: [{ value: 'red', name: 'Red' }, { value: 'red', name: 'Red', hex: '#ff0000' }] });
    expect(expectProblem(swatch, 422, 'validation_failed').errors).toEqual([
      { field: 'values.0.hex', code: 'required', message: expect.any(String) },
      { field: 'values.1.value', code: 'duplicate_value', message: expect.any(String) },
    ]);
    const noValues = await post(attrs(a), { code: code('size'), name: 'Size', type: 'multiselect' });
    expect(expectProblem(noValues, 422, 'validation_failed').errors).toEqual([{ field: 'values', code: 'required', message: expect.any(String) }]);
    const noTarget = await post(attrs(a), { code: code('related'), name: 'Related', type: 'reference' });
    expect(expectProblem(noTarget, 422, 'validation_failed').errors).toEqual([{ field: 'reference_type', code: 'required', message: expect.any(String) }]);
    const tooMany = await post(attrs(a), {
      code: code('many'),
      name: 'Many',
      type: 'dropdown',
      values: Array.from({ length: CATALOG_LIMITS.valuesPerAttribute + 1 }, (_, i) => ({ value: `v${i}`, name: `V${i}` })),
    });
    const big = expectProblem(tooMany, 422, 'validation_failed').errors!;
    expect(big).toEqual([{ field: 'values', code: 'too_big', message: expect.stringContaining(String(CATALOG_LIMITS.valuesPerAttribute)) }]);
  });

  it('keeps code and type (422 immutable), and a code unique in the store (409 code_taken)', async () => {
    const c = code('capacity');
    await attribute(a, { code: c, name: 'Capacity', type: 'numeric', unit: 'l' });
    const res = await patch(`${attrs(a)}/${c}`, { code: `${c}_x`, type: 'plain_text' });
    expect(expectProblem(res, 422, 'validation_failed').errors).toEqual([
      { field: 'code', code: 'immutable', message: expect.any(String) },
      { field: 'type', code: 'immutable', message: expect.any(String) },
    ]);
    const taken = expectProblem(await post(attrs(a), { code: c, name: 'Again', type: 'boolean' }), 409, 'code_taken');
    expect(taken.attribute_code).toBe(c);
    // Another store may use the same code.
    expect((await post(attrs(b), { code: c, name: 'Capacity', type: 'numeric' }, b.ownerToken)).status).toBe(201);
  });

  it('needs manage_products to write and to read', async () => {
    expect((await post(attrs(a), { code: code('x'), name: 'X', type: 'boolean' }, a.viewerToken)).status).toBe(403);
    expect((await t.request('GET', attrs(a), { token: a.viewerToken })).status).toBe(403);
    expect((await post(attrs(a), { code: code('x'), name: 'X', type: 'boolean' }, a.staffToken)).status).toBe(201);
  });

  it('refuses the store\'s attribute past the limit with limit_exceeded', async () => {
    const s = await createStoreFixture();
    await db().attribute.createMany({ data: Array.from({ length: CATALOG_LIMITS.attributesPerStore }, (_, i) => ({ storeId: s.storeId, code: `a${i}`, name: `A${i}`, type: 'boolean' as const })) });
    const res = await post(attrs(s), { code: 'one_more', name: 'One more', type: 'boolean' }, s.ownerToken);
    const problem = expectProblem(res, 422, 'limit_exceeded');
    expect(problem).toMatchObject({ limit_name: 'attributes_per_store', limit: CATALOG_LIMITS.attributesPerStore });
  });

  it('refuses to remove a value products hold (409 attribute_value_in_use), and to delete an attribute types apply (409 attribute_in_use)', async () => {
    const c = code('fabric');
    await attribute(a, { code: c, name: 'Fabric', type: 'multiselect', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }, { value: 'silk', name: 'Silk' }] });
    const type = await productType(a, { name: `Shirts ${c}`, product_attributes: [{ code: c }] });
    expect((await product(a, { product_type_id: type.id, attributes: { [c]: ['linen'] } })).status).toBe(201);
    const inUse = expectProblem(await patch(`${attrs(a)}/${c}`, { values: [{ value: 'cotton', name: 'Cotton' }] }), 409, 'attribute_value_in_use');
    expect(inUse).toMatchObject({ values: ['linen'], products: 1 });
    // silk is held by nobody: it may go.
    expect((await patch(`${attrs(a)}/${c}`, { values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }] })).status).toBe(200);
    const deleting = expectProblem(await t.request('DELETE', `${attrs(a)}/${c}`, { token: a.ownerToken }), 409, 'attribute_in_use');
    expect(deleting.product_types).toEqual([{ id: type.id, name: type.name }]);
  });
});

describe('product types over REST', () => {
  it('creates a type with product and variant attributes in order, by code or id, and reads it back', async () => {
    const m = await attribute(a, { code: code('material'), name: 'Material', type: 'plain_text' });
    const w = await attribute(a, { code: code('weight'), name: 'Weight', type: 'numeric', unit: 'g' });
    const col = await attribute(a, { code: code('color'), name: 'Color', type: 'swatch', values: [{ value: 'red', name: 'Red', hex: '#FF0000' }] });
    const res = await post(types(a), { name: 'Mugs', product_attributes: [{ code: w.code, required: true }, { attribute_id: m.id }], variant_attributes: [{ code: col.code }] });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(String),
      name: 'Mugs',
      product_attributes: [
        { attribute_id: w.id, code: w.code, required: true },
        { attribute_id: m.id, code: m.code, required: false },
      ],
      variant_attributes: [{ attribute_id: col.id, code: col.code, required: false }],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      version: 1,
    });
    expect((await t.request('GET', `${types(a)}/Mugs`, { token: a.ownerToken })).body.data).toEqual(res.body.data);
    expect(col.values).toEqual([{ value: 'red', name: 'Red', hex: '#ff0000' }]);
    const listed = await t.request('GET', `${types(a)}?per_page=100`, { token: a.ownerToken });
    expect(listed.body.data.map((x: any) => x.name)).toContain('Mugs');
    expectProblem(await post(types(a), { name: 'Mugs' }), 409, 'name_taken');
  });

  it('names every bad assignment at once: unknown, twice, both levels', async () => {
    const m = await attribute(a, { code: code('material'), name: 'Material', type: 'plain_text' });
    const res = await post(types(a), {
      name: code('Broken'),
      product_attributes: [{ code: m.code }, { code: 'nope_nothing' }, {}],
      variant_attributes: [{ attribute_id: m.id }],
    });
    expect(expectProblem(res, 422, 'validation_failed').errors).toEqual([
      { field: 'product_attributes.1.code', code: 'unknown_attribute', message: expect.any(String) },
      { field: 'product_attributes.2.attribute_id', code: 'required', message: expect.any(String) },
      { field: 'variant_attributes.0', code: 'duplicate_attribute', message: expect.any(String) },
    ]);
  });

  it('refuses to delete a type products have (409 product_type_in_use), and deletes an unused one', async () => {
    const type = await productType(a, { name: code('Boxes') });
    const p = await product(a, { product_type_id: type.id });
    expect(p.status).toBe(201);
    expect(expectProblem(await t.request('DELETE', `${types(a)}/${type.id}`, { token: a.ownerToken }), 409, 'product_type_in_use').products).toBe(1);
    expect((await t.request('PUT', productPath(a.storeId, p.body.data.id), { token: a.ownerToken, body: { product_type_id: null } })).status).toBe(200);
    expect((await t.request('DELETE', `${types(a)}/${type.id}`, { token: a.ownerToken })).status).toBe(204);
    const history = (await events(a, '?resource_type=product_type')).filter((e) => e.resource.id === type.id);
    expect(history.map((e) => e.type)).toEqual(['product_type.deleted', 'product_type.created']);
  });

  it('drops the values of an attribute removed from the type, one product event each', async () => {
    const keep = await attribute(a, { code: code('keep'), name: 'Keep', type: 'boolean' });
    const drop = await attribute(a, { code: code('drop'), name: 'Drop', type: 'plain_text' });
    const type = await productType(a, { name: code('Lamps'), product_attributes: [{ code: keep.code }, { code: drop.code }] });
    const p1 = (await product(a, { product_type_id: type.id, attributes: { [keep.code]: true, [drop.code]: 'x' } })).body.data;
    const p2 = (await product(a, { product_type_id: type.id, attributes: { [keep.code]: false } })).body.data;
    const res = await patch(`${types(a)}/${type.id}`, { product_attributes: [{ code: keep.code }] });
    expect(res.status).toBe(200);
    expect(res.body.data.product_attributes.map((x: any) => x.code)).toEqual([keep.code]);
    const after1 = (await t.request('GET', productPath(a.storeId, p1.id), { token: a.ownerToken })).body.data;
    expect(after1).toMatchObject({ attributes: { [keep.code]: true }, version: 2 });
    // p2 had no value of it: untouched, no new version.
    expect((await t.request('GET', productPath(a.storeId, p2.id), { token: a.ownerToken })).body.data.version).toBe(1);
    const productEvents = (await events(a, '?resource_type=product&type=product.updated')).filter((e) => [p1.id, p2.id].includes(e.resource.id));
    expect(productEvents.map((e) => [e.resource.id, e.resource.version])).toEqual([[p1.id, 2]]);
    expect(productEvents[0].changes).toEqual(expect.arrayContaining([{ field: 'attributes', previous: { [keep.code]: true, [drop.code]: 'x' }, next: { [keep.code]: true } }]));
  });

  it('drops variant-level values of an attribute moved to the product level, recording product.variants_replaced', async () => {
    const shade = await attribute(a, { code: code('shade'), name: 'Shade', type: 'plain_text' });
    const type = await productType(a, { name: code('Paints'), variant_attributes: [{ code: shade.code }] });
    const p = (await product(a, { product_type_id: type.id })).body.data;
    // Variant values are written by the variant endpoints; here they are set in place.
    await db().variant.create({ data: { storeId: a.storeId, mode: 'live', productId: p.id, sku: code('PAINT'), optionsKey: '{}', attributes: { [shade.code]: 'Blue' } } });
    const res = await patch(`${types(a)}/${type.id}`, { product_attributes: [{ code: shade.code }], variant_attributes: [] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ product_attributes: [{ code: shade.code }], variant_attributes: [] });
    expect((await db().variant.findFirstOrThrow({ where: { productId: p.id } })).attributes).toEqual({});
    const replaced = (await events(a, '?type=product.variants_replaced')).filter((e) => e.resource.id === p.id);
    expect(replaced).toHaveLength(1);
    expect(replaced[0].resource.version).toBe(2);
  });

  it('holds a type to the attributes-per-type limit, and the store to the product-types limit', async () => {
    const s = await createStoreFixture();
    await db().attribute.createMany({ data: Array.from({ length: CATALOG_LIMITS.attributesPerProductType + 1 }, (_, i) => ({ storeId: s.storeId, code: `a${i}`, name: `A${i}`, type: 'boolean' as const })) });
    const all = Array.from({ length: CATALOG_LIMITS.attributesPerProductType + 1 }, (_, i) => ({ code: `a${i}` }));
    const tooMany = await post(types(s), { name: 'Big', product_attributes: all.slice(0, 60), variant_attributes: all.slice(60) }, s.ownerToken);
    expect(expectProblem(tooMany, 422, 'validation_failed').errors).toEqual([
      { field: 'product_attributes', code: 'too_big', message: expect.stringContaining(String(CATALOG_LIMITS.attributesPerProductType)) },
    ]);
    await db().productType.createMany({ data: Array.from({ length: CATALOG_LIMITS.productTypesPerStore }, (_, i) => ({ storeId: s.storeId, name: `T${i}` })) });
    const over = expectProblem(await post(types(s), { name: 'One more' }, s.ownerToken), 422, 'limit_exceeded');
    expect(over).toMatchObject({ limit_name: 'product_types_per_store', limit: CATALOG_LIMITS.productTypesPerStore });
  });

  it('races product writes against the type dropping their attribute: no 500, and no product keeps a value the type lacks', async () => {
    const keep = await attribute(a, { code: code('keep'), name: 'Keep', type: 'numeric' });
    const drop = await attribute(a, { code: code('drop'), name: 'Drop', type: 'numeric' });
    const type = await productType(a, { name: code('Racks'), product_attributes: [{ code: keep.code }, { code: drop.code }] });
    const ids = await Promise.all(Array.from({ length: 4 }, async () => (await product(a, { product_type_id: type.id })).body.data.id as string));
    const writes = ids.flatMap((id, i) => [1, 2].map((k) => t.request('PUT', productPath(a.storeId, id), { token: a.ownerToken, body: { attributes: { [drop.code]: i * 10 + k, [keep.code]: k } } })));
    const [change, ...results] = await Promise.all([patch(`${types(a)}/${type.id}`, { product_attributes: [{ code: keep.code }] }), ...writes]);
    expect(change.status).toBe(200);
    for (const r of results) {
      expect([200, 422]).toContain(r.status);
      if (r.status === 422) expect(r.body.errors).toEqual([expect.objectContaining({ field: `attributes.${drop.code}`, code: 'unknown_attribute' })]);
    }
    const rows = await db().product.findMany({ where: { id: { in: ids } } });
    for (const row of rows) expect(Object.keys(row.attributes as object)).not.toContain(drop.code);
  });

  it('refuses a newly required attribute products lack (409 attribute_values_missing) unless a default is given', async () => {
    const size = await attribute(a, { code: code('size'), name: 'Size', type: 'dropdown', values: [{ value: 's', name: 'S' }, { value: 'm', name: 'M' }] });
    const type = await productType(a, { name: code('Coats') });
    const p = (await product(a, { product_type_id: type.id })).body.data;
    const missing = expectProblem(await patch(`${types(a)}/${type.id}`, { product_attributes: [{ code: size.code, required: true }] }), 409, 'attribute_values_missing');
    expect(missing).toMatchObject({ attributes: [size.code], products: 1 });
    const badDefault = await patch(`${types(a)}/${type.id}`, { product_attributes: [{ code: size.code, required: true, default_value: 'xl' }] });
    expect(expectProblem(badDefault, 422, 'validation_failed').errors).toEqual([{ field: 'product_attributes.0.default_value', code: 'invalid_value', message: expect.any(String) }]);
    const ok = await patch(`${types(a)}/${type.id}`, { product_attributes: [{ code: size.code, required: true, default_value: 'm' }] });
    expect(ok.status).toBe(200);
    expect((await t.request('GET', productPath(a.storeId, p.id), { token: a.ownerToken })).body.data.attributes).toEqual({ [size.code]: 'm' });
  });
});

describe('product attribute values', () => {
  let type: Record<string, any>;
  let defs: Record<string, Record<string, any>>;
  let category: { id: string };

  beforeAll(async () => {
    const s = await createStoreFixture();
    a = s;
    defs = {
      text: await attribute(a, { code: 'care', name: 'Care', type: 'plain_text' }),
      rich: await attribute(a, { code: 'story', name: 'Story', type: 'rich_text' }),
      num: await attribute(a, { code: 'capacity', name: 'Capacity', type: 'numeric', unit: 'l' }),
      bool: await attribute(a, { code: 'organic', name: 'Organic', type: 'boolean' }),
      date: await attribute(a, { code: 'released', name: 'Released', type: 'date' }),
      time: await attribute(a, { code: 'launch', name: 'Launch', type: 'date_time' }),
      drop: await attribute(a, { code: 'material', name: 'Material', type: 'dropdown', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }], public: true }),
      multi: await attribute(a, { code: 'seasons', name: 'Seasons', type: 'multiselect', values: ['spring', 'summer', 'autumn', 'winter'].map((v) => ({ value: v, name: v })) }),
      swatch: await attribute(a, { code: 'color', name: 'Color', type: 'swatch', values: [{ value: 'red', name: 'Red', hex: '#ff0000' }], public: true }),
      ref: await attribute(a, { code: 'collection', name: 'Collection', type: 'reference', reference_type: 'category' }),
    };
    type = await productType(a, { name: 'Everything', product_attributes: Object.values(defs).map((d) => ({ code: d.code, required: d.code === 'material' })) });
    category = (await db().category.findFirstOrThrow({ where: { storeId: a.storeId } }))!;
  });

  it('stores every type in its encoding', async () => {
    const res = await product(a, {
      product_type_id: type.id,
      attributes: {
        care: '  Wash cold  ',
        story: '<p onclick="steal()">Made <strong>slowly</strong><script>alert(1)</script> <a href="javascript:alert(1)">here</a> <a href="https://example.com">and here</a></p>',
        capacity: 1.5,
        organic: true,
        released: '2026-02-28',
        launch: '2026-05-01T09:00:00+02:00',
        material: 'linen',
        seasons: ['winter', 'spring', 'winter'],
        color: 'red',
        collection: category.id,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.product_type_id).toBe(type.id);
    expect(res.body.data.attributes).toEqual({
      care: 'Wash cold',
      story: '<p>Made <strong>slowly</strong> <a rel="noopener noreferrer">here</a> <a href="https://example.com" rel="noopener noreferrer">and here</a></p>',
      capacity: 1.5,
      organic: true,
      released: '2026-02-28',
      launch: '2026-05-01T07:00:00.000Z',
      material: 'linen',
      seasons: ['spring', 'winter'],
      color: 'red',
      collection: category.id,
    });
    const stored = await db().product.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(stored.attributes).toEqual(res.body.data.attributes);
    // The created event carries them, as REST shows the product.
    const created = (await events(a, '?type=product.created')).find((e) => e.resource.id === res.body.data.id);
    expect(created.data.attributes).toEqual(res.body.data.attributes);
  });

  it('names every bad value at once, with the product\'s other field errors checked first', async () => {
    const res = await product(a, {
      product_type_id: type.id,
      attributes: {
        care: 5,
        capacity: '1.5',
        organic: 'yes',
        released: '2026-02-30',
        launch: '2026-05-01 09:00',
        seasons: ['summer', 'monsoon'],
        color: 'blue',
        collection: '00000000-0000-4000-8000-000000000000',
        unknown_code: 1,
        'Not A Code': 1,
      },
    });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors).toEqual([
      { field: 'attributes.care', code: 'invalid_type', message: 'must be a string' },
      { field: 'attributes.capacity', code: 'invalid_type', message: 'must be a number' },
      { field: 'attributes.organic', code: 'invalid_type', message: 'must be true or false' },
      { field: 'attributes.released', code: 'invalid_value', message: expect.any(String) },
      { field: 'attributes.launch', code: 'invalid_value', message: expect.any(String) },
      { field: 'attributes.seasons', code: 'invalid_value', message: expect.stringContaining('"monsoon"') },
      { field: 'attributes.color', code: 'invalid_value', message: 'must be one of: red' },
      { field: 'attributes.unknown_code', code: 'unknown_attribute', message: expect.any(String) },
      { field: 'attributes', code: 'unknown_attribute', message: expect.stringContaining('"Not A Code"') },
      { field: 'attributes.material', code: 'required', message: 'is required by the product type' },
      { field: 'attributes.collection', code: 'unknown_reference', message: expect.any(String) },
    ]);
    expect(await db().product.count({ where: { storeId: a.storeId, name: 'Tee', attributes: { path: ['care'], equals: 5 } } })).toBe(0);
  });

  it('refuses values without a type, and an unknown type', async () => {
    expect(expectProblem(await product(a, { attributes: { material: 'linen' } }), 422, 'validation_failed').errors).toEqual([
      { field: 'attributes', code: 'product_type_required', message: expect.any(String) },
    ]);
    expect(expectProblem(await product(a, { product_type_id: '00000000-0000-4000-8000-000000000000' }), 422, 'validation_failed').errors).toEqual([
      { field: 'product_type_id', code: 'unknown_product_type', message: expect.any(String) },
    ]);
  });

  it('merges values on update (null clears one), writes nothing for the same values, and drops values a new type lacks', async () => {
    const p = (await product(a, { product_type_id: type.id, attributes: { material: 'cotton', organic: true, capacity: 2 } })).body.data;
    const path = productPath(a.storeId, p.id);
    const put = (body: unknown) => t.request('PUT', path, { token: a.ownerToken, body });
    const merged = await put({ attributes: { organic: null, capacity: 3 } });
    expect(merged.status).toBe(200);
    expect(merged.body.data).toMatchObject({ attributes: { material: 'cotton', capacity: 3 }, version: 2 });
    const same = await put({ attributes: { capacity: 3 } });
    expect(same.body.data.version).toBe(2);
    expect(expectProblem(await put({ attributes: { material: null } }), 422, 'validation_failed').errors).toEqual([
      { field: 'attributes.material', code: 'required', message: 'is required by the product type' },
    ]);
    const small = await productType(a, { name: code('Small'), product_attributes: [{ code: 'capacity' }] });
    const moved = await put({ product_type_id: small.id });
    expect(moved.body.data).toMatchObject({ product_type_id: small.id, attributes: { capacity: 3 }, version: 3 });
    const none = await put({ product_type_id: null });
    expect(none.body.data).toMatchObject({ product_type_id: null, attributes: {}, version: 4 });
  });

  it('reads the same over GraphQL, with the product type', async () => {
    const p = (await product(a, { product_type_id: type.id, attributes: { material: 'cotton', capacity: 2 } })).body.data;
    const res = await t.graphql(
      `query($storeId: ID!, $id: ID!) { product(storeId: $storeId, id: $id) { productTypeId attributes productType { name productAttributes { code required } } } }`,
      { storeId: a.storeId, id: p.id },
      { token: a.ownerToken },
    );
    const data = gqlData(res).product;
    expect(data.productTypeId).toBe(type.id);
    expect(data.attributes).toEqual({ material: 'cotton', capacity: 2 });
    expect(data.productType.name).toBe('Everything');
    expect(data.productType.productAttributes.find((x: any) => x.code === 'material')).toEqual({ code: 'material', required: true });

    const updated = await t.graphql(
      `mutation($storeId: ID!, $id: ID!, $input: ProductUpdateInput!) { updateProduct(storeId: $storeId, id: $id, input: $input) { attributes } }`,
      { storeId: a.storeId, id: p.id, input: { attributes: { capacity: 'two' } } },
      { token: a.ownerToken },
    );
    expect(updated.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ field: 'attributes.capacity', code: 'invalid_type', message: 'must be a number' }] });
  });

  it('shows the public API only the values of public attributes', async () => {
    const p = (await product(a, { product_type_id: type.id, status: 'active', attributes: { material: 'linen', color: 'red', capacity: 2, care: 'Wash cold' } })).body.data;
    const key = (await createKey(t, a, { type: 'publishable', mode: 'live' })).secret;
    const one = await publicGet(t, `/products/${p.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body.data.attributes).toEqual({ material: 'linen', color: 'red' });
    const list = await publicGet(t, '/products?per_page=100', { key });
    expect(list.body.data.find((x: any) => x.id === p.id).attributes).toEqual({ material: 'linen', color: 'red' });
  });

  it('lists and writes attributes and product types over GraphQL', async () => {
    const list = await t.graphql(
      `query($storeId: ID!) { attributes(storeId: $storeId, perPage: 3) { items { code type values { value hex } } meta { page perPage total hasMore } } productTypes(storeId: $storeId) { items { name } } }`,
      { storeId: a.storeId },
      { token: a.ownerToken },
    );
    const data = gqlData(list);
    expect(data.attributes.items.map((x: any) => x.code)).toEqual(['capacity', 'care', 'collection']);
    expect(data.attributes.meta).toEqual({ page: 1, perPage: 3, total: 10, hasMore: true });
    expect(data.productTypes.items.map((x: any) => x.name)).toContain('Everything');
    const created = await t.graphql(
      `mutation($storeId: ID!) { createAttribute(storeId: $storeId, input: { code: "gql_made", name: "Made", type: boolean }) { code type version } }`,
      { storeId: a.storeId },
      { token: a.ownerToken },
    );
    expect(gqlData(created).createAttribute).toEqual({ code: 'gql_made', type: 'boolean', version: 1 });
    const denied = await t.graphql(
      `mutation($storeId: ID!) { deleteAttribute(storeId: $storeId, attribute: "gql_made") { id } }`,
      { storeId: a.storeId },
      { token: a.viewerToken },
    );
    expect(denied.body.errors[0].extensions.code).toBe('forbidden');
  });
});
