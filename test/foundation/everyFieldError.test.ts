import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { db } from '../../src/platform/db/client';

// One submit, every problem: a type error (1.5 for a whole number) and the rule errors of the same request
// (an empty name, a negative price) come back together, each naming its field as the client sent it, with a
// documented code. Before, GraphQL's coercion refused the type error alone and the rules ran a round later.

let t: TestServer;
let a: StoreFixture;
let productId: string;

/** The field-error codes the error pages document (/docs/errors/validation_failed); zod's own (custom, invalid_format…) never show. */
const DOCUMENTED = /^(required|unknown_field|invalid_type|invalid_value|too_small|too_big|invalid_character|unknown_event_type|[a-z]+_[a-z_]+)$/;
const ZOD_ONLY = ['custom', 'invalid_format', 'invalid_union', 'unrecognized_keys', 'not_multiple_of', 'invalid_key', 'invalid_element', 'invalid_integer', 'invalid_boolean', 'invalid_json'];

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  const created = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/products`, { token: a.ownerToken, body: { name: 'Base', price: 1, category_slugs: ['shoes'] } });
  productId = created.body.data.id;
});
afterAll(() => t.close());

type Expected = { field: string; code: string; message?: string };

function expectEveryError(res: TestResponse, expected: Expected[]) {
  expect(res.status).toBe(422);
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.errors).toHaveLength(expected.length);
  expect(res.body.errors).toEqual(expect.arrayContaining(expected.map((e) => expect.objectContaining(e))));
  for (const e of res.body.errors) {
    expect(e.code).toMatch(DOCUMENTED);
    expect(ZOD_ONLY).not.toContain(e.code);
    expect(e.message).not.toMatch(/^Invalid input|^Too (small|big)/);
  }
  for (const e of expected) expect(res.body.detail).toContain(`${e.field}: `);
}

const products = () => `/api/v1/merchant/stores/${a.storeId}/products`;

describe('REST: every field error of one body in one 422', () => {
  it('create product: an empty name, a negative price and a fractional quantity, all three at once', async () => {
    const res = await t.request('POST', products(), { token: a.ownerToken, body: { name: '', price: -1, inventory_quantity: 1.5, category_slugs: ['shoes'] } });
    expectEveryError(res, [
      { field: 'name', code: 'too_small', message: 'must not be empty' },
      { field: 'price', code: 'invalid_value', message: 'must be a number >= 0 with at most 2 decimals and below 10,000,000,000' },
      { field: 'inventory_quantity', code: 'invalid_type', message: 'must be an integer' },
    ]);
    expect(await db().product.count({ where: { storeId: a.storeId } })).toBe(1);
  });

  it("the issue's body exactly: every error, with no category required one hiding them", async () => {
    const res = await t.request('POST', products(), { token: a.ownerToken, body: { name: '', price: -1, inventory_quantity: 1.5 } });
    expectEveryError(res, [
      { field: 'name', code: 'too_small' },
      { field: 'price', code: 'invalid_value' },
      { field: 'inventory_quantity', code: 'invalid_type' },
    ]);
  });

  it('create product: unknown fields, wrong types and broken rules together', async () => {
    const res = await t.request('POST', products(), {
      token: a.ownerToken,
      body: { name: 'x'.repeat(256), price: '1.234', status: 'weird', low_stock_threshold: -2, tags: ['ok', ''], colour: 'red', category_slugs: ['shoes'] },
    });
    expectEveryError(res, [
      { field: 'colour', code: 'unknown_field' },
      { field: 'status', code: 'invalid_value' },
      { field: 'name', code: 'too_big', message: 'must be at most 255 characters' },
      { field: 'price', code: 'invalid_value' },
      { field: 'low_stock_threshold', code: 'too_small', message: 'must be at least 0' },
      { field: 'tags.1', code: 'too_small' },
    ]);
  });

  it('update product: type and rule errors together, nothing written', async () => {
    const res = await t.request('PUT', `${products()}/${productId}`, { token: a.ownerToken, body: { name: '', inventory_quantity: 'many', low_stock_threshold: -1, price: -5 } });
    expectEveryError(res, [
      { field: 'inventory_quantity', code: 'invalid_type' },
      { field: 'name', code: 'too_small' },
      { field: 'low_stock_threshold', code: 'too_small' },
      { field: 'price', code: 'invalid_value' },
    ]);
    expect((await db().product.findUniqueOrThrow({ where: { id: productId } })).name).toBe('Base');
  });

  it('variants: every bad field of every variant, named by its path', async () => {
    const res = await t.request('PUT', `${products()}/${productId}/variants`, {
      token: a.ownerToken,
      body: { variants: [{ sku: '', inventory_quantity: 1.5, price: -3 }, { sku: 'ok', position: 'first', inventory_quantity: -1 }] },
    });
    expectEveryError(res, [
      { field: 'variants.0.inventory_quantity', code: 'invalid_type' },
      { field: 'variants.0.sku', code: 'too_small' },
      { field: 'variants.0.price', code: 'invalid_value' },
      { field: 'variants.1.position', code: 'invalid_type' },
      { field: 'variants.1.inventory_quantity', code: 'too_small' },
    ]);
  });

  it('SEO: a wrong type beside rules broken', async () => {
    const res = await t.request('PUT', `${products()}/${productId}/seo`, { token: a.ownerToken, body: { noindex: 'yes', title: 'x'.repeat(71), canonical_url: 'not a url', slug: 'Not A Slug' } });
    expect(res.body.errors.map((e: Expected) => e.field).sort()).toEqual(['canonical_url', 'noindex', 'slug', 'title']);
    expectEveryError(res, [
      { field: 'noindex', code: 'invalid_type' },
      { field: 'title', code: 'too_big', message: 'must be at most 70 characters' },
      { field: 'canonical_url', code: 'invalid_value' },
      { field: 'slug', code: 'invalid_value' },
    ]);
  });

  it('webhook endpoint: an unknown status and an unknown event type together', async () => {
    const res = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints`, {
      token: a.ownerToken,
      body: { url: 'https://hooks.partner.example/in', event_types: ['product.nope'], status: 'weird', description: 'd'.repeat(1001) },
    });
    expectEveryError(res, [
      { field: 'status', code: 'invalid_value' },
      { field: 'event_types', code: 'unknown_event_type' },
      { field: 'description', code: 'too_big' },
    ]);
  });

  it('a body with only rule errors still answers all of them (the service itself)', async () => {
    const res = await t.request('POST', products(), { token: a.ownerToken, body: { name: '', price: -1, inventory_quantity: -1, category_slugs: ['shoes'] } });
    expectEveryError(res, [
      { field: 'name', code: 'too_small' },
      { field: 'price', code: 'invalid_value' },
      { field: 'inventory_quantity', code: 'too_small' },
    ]);
  });
});

describe('GraphQL: one error listing every field problem of the input', () => {
  const create = `mutation($storeId: ID!, $input: ProductCreateInput!) { createProduct(storeId: $storeId, input: $input) { id } }`;

  function expectInputErrors(res: TestResponse, expected: Expected[]) {
    expect(res.body.data ?? null).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    const [error] = res.body.errors;
    expect(error.extensions.code).toBe('invalid_variables');
    expect(error.extensions.errors).toHaveLength(expected.length);
    expect(error.extensions.errors).toEqual(expect.arrayContaining(expected.map((e) => expect.objectContaining(e))));
    for (const e of error.extensions.errors) expect(ZOD_ONLY).not.toContain(e.code);
    expect(error.message).not.toMatch(/Variable "\$|cannot represent/);
  }

  it('createProduct: the type error and the rule errors of one input together, by their input path', async () => {
    const res = await t.graphql(create, { storeId: a.storeId, input: { name: '', price: -1, inventoryQuantity: 1.5, categorySlugs: ['shoes'] } }, { token: a.ownerToken });
    expectInputErrors(res, [
      { field: 'inventoryQuantity', code: 'invalid_type', message: 'must be an integer' },
      { field: 'name', code: 'too_small', message: 'must not be empty' },
      { field: 'price', code: 'invalid_value' },
    ]);
  });

  it('several type errors and several rule errors at once; a field with a type error is named once', async () => {
    const res = await t.graphql(
      create,
      { storeId: a.storeId, input: { name: 7, price: -1, inventoryQuantity: 'ten', lowStockThreshold: -4, status: 'LOUD', tags: [''], categorySlugs: ['shoes'] } },
      { token: a.ownerToken },
    );
    expectInputErrors(res, [
      { field: 'name', code: 'invalid_type' },
      { field: 'inventoryQuantity', code: 'invalid_type' },
      { field: 'status', code: 'invalid_value' },
      { field: 'price', code: 'invalid_value' },
      { field: 'lowStockThreshold', code: 'too_small' },
      { field: 'tags.0', code: 'too_small' },
    ]);
  });

  it('updateProduct and replaceProductVariants name fields as the dashboard keys them', async () => {
    const update = await t.graphql(
      `mutation($storeId: ID!, $id: ID!, $input: ProductUpdateInput!) { updateProduct(storeId: $storeId, id: $id, input: $input) { id } }`,
      { storeId: a.storeId, id: productId, input: { name: '', inventoryQuantity: 2.5 } },
      { token: a.ownerToken },
    );
    expectInputErrors(update, [
      { field: 'inventoryQuantity', code: 'invalid_type' },
      { field: 'name', code: 'too_small' },
    ]);
    const variants = await t.graphql(
      `mutation($storeId: ID!, $productId: ID!, $variants: [VariantInput!]!) { replaceProductVariants(storeId: $storeId, productId: $productId, variants: $variants) { id } }`,
      { storeId: a.storeId, productId, variants: [{ sku: 'a', inventoryQuantity: 0.5 }, { sku: '', price: -1 }] },
      { token: a.ownerToken },
    );
    expectInputErrors(variants, [
      { field: 'variants.0.inventoryQuantity', code: 'invalid_type' },
      { field: 'variants.1.sku', code: 'too_small' },
      { field: 'variants.1.price', code: 'invalid_value' },
    ]);
  });

  it('createCategory, createApiKey and createWebhookEndpoint', async () => {
    const category = await t.graphql(
      `mutation($storeId: ID!, $input: CategoryInput!) { createCategory(storeId: $storeId, input: $input) { id } }`,
      { storeId: a.storeId, input: { slug: 5, name: '' } },
      { token: a.ownerToken },
    );
    expectInputErrors(category, [
      { field: 'slug', code: 'invalid_type' },
      { field: 'name', code: 'too_small' },
    ]);
    const key = await t.graphql(
      `mutation($storeId: ID!, $input: ApiKeyCreateInput!) { createApiKey(storeId: $storeId, input: $input) { secret } }`,
      { storeId: a.storeId, input: { name: '', type: 'root', mode: 'live', scopes: ['products:read', 'everything'] } },
      { token: a.ownerToken },
    );
    expectInputErrors(key, [
      { field: 'type', code: 'invalid_value' },
      { field: 'name', code: 'too_small' },
      { field: 'scopes.1', code: 'invalid_value' },
    ]);
    const endpoint = await t.graphql(
      `mutation($storeId: ID!, $input: WebhookEndpointCreateInput!) { createWebhookEndpoint(storeId: $storeId, input: $input) { secret } }`,
      { storeId: a.storeId, input: { url: 'https://hooks.partner.example/in', eventTypes: ['product.nope'], status: 'paused' } },
      { token: a.ownerToken },
    );
    expectInputErrors(endpoint, [
      { field: 'status', code: 'invalid_value' },
      { field: 'eventTypes', code: 'unknown_event_type' },
    ]);
  });

  it('valid input still runs, and rule errors alone keep their validation_failed answer', async () => {
    const ok = await t.graphql(create, { storeId: a.storeId, input: { name: 'Fine', price: '2.50', inventoryQuantity: 3, categorySlugs: ['shoes'] } }, { token: a.ownerToken });
    expect(ok.body.data.createProduct.id).toEqual(expect.any(String));
    const rules = await t.graphql(create, { storeId: a.storeId, input: { name: '', price: -1, categorySlugs: ['shoes'] } }, { token: a.ownerToken });
    expect(rules.body.errors[0].extensions.code).toBe('validation_failed');
    expect(rules.body.errors[0].extensions.errors.map((e: Expected) => e.field).sort()).toEqual(['name', 'price']);
  });
});

describe('the error pages document the field-error codes', () => {
  it('validation_failed lists the codes the answers above carry; invalid_variables says extensions.errors lists every problem', async () => {
    const page = await t.request('GET', '/docs/errors/validation_failed');
    expect(page.status).toBe(200);
    for (const code of ['required', 'unknown_field', 'invalid_type', 'invalid_value', 'too_small', 'too_big', 'invalid_character']) expect(page.text).toContain(code);
    const graphql = await t.request('GET', '/docs/errors/invalid_variables');
    expect(graphql.text).toContain('extensions.errors');
    expect(graphql.text).toContain('every problem');
  });
});
