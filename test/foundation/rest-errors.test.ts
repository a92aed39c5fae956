import { restRoutes } from '../../src/app';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { createKey } from '../public/helpers';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';

// REST problems speak REST: fields as the client sent them, the service's codes, plain messages.
// GraphQL's own wording (the REST routes run GraphQL operations) must never show through.

let t: TestServer;
let a: StoreFixture;
let productId: string;
/** A product with options and one variant, for the option and bulk variant routes. */
let optionsProductId: string;
let variantId: string;
let endpointId: string;
let attributeId: string;
let productTypeId: string;
/** A live secret key of store a that may write its catalog: the public twins of the product routes take it. */
let partnerKey: string;
/** A manual collection of store a holding productId. */
let collectionId: string;
let collections = 0;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  const created = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/products`, { token: a.ownerToken, body: { name: 'Base', price: 1, category_slugs: ['shoes'] } });
  productId = created.body.data.id;
  const withOptions = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/products`, { token: a.ownerToken, body: { name: 'Tee', price: 1, category_slugs: ['shoes'] } });
  optionsProductId = withOptions.body.data.id;
  const variants = await t.request('PUT', `/api/v1/merchant/stores/${a.storeId}/products/${optionsProductId}/variants`, { token: a.ownerToken, body: { variants: [{ sku: 'tee-s', options: { Size: 'S' } }] } });
  variantId = variants.body.data[0].id;
  // A public URL that does not resolve here: accepted (delivery checks it again), and nothing is ever sent.
  const endpoint = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints`, { token: a.ownerToken, body: { url: 'https://hooks.partner.example/base', event_types: ['*'] } });
  endpointId = endpoint.body.data.id;
  const attribute = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/attributes`, { token: a.ownerToken, body: { code: 'care', name: 'Care', type: 'plain_text' } });
  attributeId = attribute.body.data.id;
  const productType = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/product-types`, { token: a.ownerToken, body: { name: 'Base type' } });
  productTypeId = productType.body.data.id;
  partnerKey = (await createKey(t, a, { type: 'secret', mode: 'live', scopes: ['products:read', 'products:write'] })).secret;
  await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/locales`, { token: a.ownerToken, body: { locale: 'it' } });
  const collection = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/collections`, { token: a.ownerToken, body: { title: 'Base collection', kind: 'manual' } });
  collectionId = collection.body.data.id;
  await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/collections/${collectionId}/products`, { token: a.ownerToken, body: { product_ids: [productId] } });
});
afterAll(() => t.close());

const GRAPHQL_WORDING = /Field "|Variable "\$|Expected (value of )?type|Expected non-nullable|cannot represent|is not defined by type|of required type|does not exist in "|enum\b|Input(?:"|\b)|"\$\w+"/;

function expectRestProblem(res: TestResponse, errors: { field: string; code: string }[]) {
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body.code).toBe('validation_failed');
  expect(res.body.errors).toEqual(errors.map((e) => expect.objectContaining(e)));
  expect(JSON.stringify(res.body)).not.toMatch(GRAPHQL_WORDING);
}

/** A valid body for each route that takes a JSON body, and where in it a field can go wrong. */
const BODY_ROUTES: Record<string, { path: () => string; valid: () => Record<string, unknown>; nest: (extra: Record<string, unknown>) => unknown; prefix: string; token?: () => string }> = {
  createProduct: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products`,
    valid: () => ({ name: 'x', price: 1, category_slugs: ['shoes'] }),
    nest: (extra) => ({ name: 'x', price: 1, category_slugs: ['shoes'], ...extra }),
    prefix: '',
  },
  updateProduct: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${productId}`,
    valid: () => ({ name: 'y' }),
    nest: (extra) => ({ name: 'y', ...extra }),
    prefix: '',
  },
  replaceProductVariants: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${productId}/variants`,
    valid: () => ({ variants: [{ sku: 'ok-1' }] }),
    nest: (extra) => ({ variants: [{ sku: 'ok-1' }, { sku: 'ok-2', ...extra }] }),
    prefix: 'variants.1.',
  },
  updateProductVariants: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${optionsProductId}/variants`,
    valid: () => ({ variants: [{ id: variantId, inventory_quantity: 1 }] }),
    nest: (extra) => ({ variants: [{ id: variantId, ...extra }] }),
    prefix: 'variants.0.',
  },
  generateProductVariants: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${optionsProductId}/variants/generate`,
    valid: () => ({ inventory_quantity: 1 }),
    nest: (extra) => ({ inventory_quantity: 1, ...extra }),
    prefix: '',
  },
  setProductOptions: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${optionsProductId}/options`,
    valid: () => ({ options: [{ name: 'Size', values: ['S'] }] }),
    nest: (extra) => ({ options: [{ name: 'Size', values: ['S'], ...extra }] }),
    prefix: 'options.0.',
  },
  setProductSeo: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${productId}/seo`,
    valid: () => ({ title: 'T' }),
    nest: (extra) => ({ title: 'T', ...extra }),
    prefix: '',
  },
  generateProductDescription: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/generate-description`,
    valid: () => ({ name: 'x' }),
    nest: (extra) => ({ name: 'x', ...extra }),
    prefix: '',
  },
  createWebhookEndpoint: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints`,
    valid: () => ({ url: 'https://hooks.partner.example/in', event_types: ['product.created'] }),
    nest: (extra) => ({ url: 'https://hooks.partner.example/in', event_types: ['product.created'], ...extra }),
    prefix: '',
  },
  updateWebhookEndpoint: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints/${endpointId}`,
    valid: () => ({ description: 'ERP' }),
    nest: (extra) => ({ description: 'ERP', ...extra }),
    prefix: '',
  },
  rollWebhookEndpointSecret: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints/${endpointId}/roll-secret`,
    valid: () => ({ overlap_hours: 1 }),
    nest: (extra) => ({ overlap_hours: 1, ...extra }),
    prefix: '',
  },
  replayWebhookMessages: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints/${endpointId}/replay`,
    valid: () => ({ since: new Date(Date.now() - 3_600_000).toISOString() }),
    nest: (extra) => ({ since: new Date(Date.now() - 3_600_000).toISOString(), ...extra }),
    prefix: '',
  },
  addStoreLocale: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/locales`,
    valid: () => ({ locale: 'de' }),
    nest: (extra) => ({ locale: 'de', ...extra }),
    prefix: '',
  },
  // The default locale made the default again: a valid body that changes nothing, whatever ran before.
  updateStoreLocale: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/locales/en`,
    valid: () => ({ default: true }),
    nest: (extra) => ({ default: true, ...extra }),
    prefix: '',
  },
  addStoreCurrency: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/currencies`,
    valid: () => ({ currency: 'JPY' }),
    nest: (extra) => ({ currency: 'JPY', ...extra }),
    prefix: '',
  },
  setProductTranslation: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${productId}/translations/it`,
    valid: () => ({ name: 'Basis' }),
    nest: (extra) => ({ name: 'Basis', seo: { slug: 'basis', ...extra } }),
    prefix: 'seo.',
  },
  setAttributeTranslation: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/attributes/${attributeId}/translations/it`,
    valid: () => ({ name: 'Pflege' }),
    nest: (extra) => ({ name: 'Pflege', ...extra }),
    prefix: '',
  },
  createAttribute: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/attributes`,
    valid: () => ({ code: 'fabric', name: 'Fabric', type: 'dropdown', values: [{ value: 'linen', name: 'Linen' }] }),
    nest: (extra) => ({ code: 'fabric', name: 'Fabric', type: 'dropdown', values: [{ value: 'linen', name: 'Linen' }, { value: 'wool', name: 'Wool', ...extra }] }),
    prefix: 'values.1.',
  },
  createCollection: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/collections`,
    valid: () => ({ title: `Collection ${++collections}`, kind: 'manual' }),
    nest: (extra) => ({ title: 'Collection', kind: 'manual', ...extra }),
    prefix: '',
  },
  updateCollection: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/collections/${collectionId}`,
    valid: () => ({ title: 'Base collection 2' }),
    nest: (extra) => ({ title: 'Base collection 2', ...extra }),
    prefix: '',
  },
  previewCollectionRules: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/collections/preview`,
    valid: () => ({ rules: [{ field: 'tag', operator: 'equals', value: 'summer' }] }),
    nest: (extra) => ({ rules: [{ field: 'tag', operator: 'equals', value: 'summer' }, { field: 'price', operator: 'less_than', value: 50, ...extra }] }),
    prefix: 'rules.1.',
  },
  addCollectionProducts: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/collections/${collectionId}/products`,
    valid: () => ({ product_ids: [productId] }),
    nest: (extra) => ({ product_ids: [productId], ...extra }),
    prefix: '',
  },
  removeCollectionProducts: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/collections/${collectionId}/products/remove`,
    valid: () => ({ product_ids: [optionsProductId] }),
    nest: (extra) => ({ product_ids: [optionsProductId], ...extra }),
    prefix: '',
  },
  moveCollectionProducts: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/collections/${collectionId}/products/move`,
    valid: () => ({ moves: [{ product_id: productId, position: 0 }] }),
    nest: (extra) => ({ moves: [{ product_id: productId, position: 0, ...extra }] }),
    prefix: 'moves.0.',
  },
  setCollectionTranslation: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/collections/${collectionId}/translations/it`,
    valid: () => ({ title: 'Collezione' }),
    nest: (extra) => ({ title: 'Collezione', ...extra }),
    prefix: '',
  },
  updateAttribute: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/attributes/${attributeId}`,
    valid: () => ({ name: 'Care instructions' }),
    nest: (extra) => ({ name: 'Care instructions', ...extra }),
    prefix: '',
  },
  createProductType: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/product-types`,
    valid: () => ({ name: 'Shirts', product_attributes: [{ code: 'care' }] }),
    nest: (extra) => ({ name: 'Shirts', product_attributes: [{ code: 'care', ...extra }] }),
    prefix: 'product_attributes.0.',
  },
  updateProductType: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/product-types/${productTypeId}`,
    valid: () => ({ name: 'Base type, renamed' }),
    nest: (extra) => ({ name: 'Base type, renamed', ...extra }),
    prefix: '',
  },
  generateTestProducts: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/test-catalog/generate`,
    valid: () => ({ count: 1 }),
    nest: (extra) => ({ count: 1, ...extra }),
    prefix: '',
  },
  publishStagedProduct: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/products/${productId}/staged/publish`,
    valid: () => ({ scope: 'prices' }),
    nest: (extra) => ({ scope: 'prices', ...extra }),
    prefix: '',
  },
  copyLiveProductsToTest: {
    path: () => `/api/v1/merchant/stores/${a.storeId}/test-catalog/copy`,
    valid: () => ({ search: 'base' }),
    nest: (extra) => ({ search: 'base', ...extra }),
    prefix: '',
  },
};

// The public API's twins of the product routes: the same operations, reached with an API key.
for (const [twin, merchant] of Object.entries({
  createPublicProduct: 'createProduct',
  updatePublicProduct: 'updateProduct',
  replacePublicProductVariants: 'replaceProductVariants',
  updatePublicProductVariants: 'updateProductVariants',
  generatePublicProductVariants: 'generateProductVariants',
  setPublicProductOptions: 'setProductOptions',
  setPublicProductSeo: 'setProductSeo',
})) {
  const route = BODY_ROUTES[merchant];
  BODY_ROUTES[twin] = { ...route, path: () => route.path().replace(`/api/v1/merchant/stores/${a.storeId}`, '/api/public/v1'), token: () => partnerKey };
}

/** Routes whose body is not JSON input: publish/unpublish, discarding staged changes, ping and resend take none; multipart routes (image upload, product import) are tested in test/images and test/bulk. */
const NO_JSON_INPUT = new Set([
  'publishProduct', 'unpublishProduct', 'pingWebhookEndpoint', 'resendWebhookMessage',
  'publishPublicProduct', 'unpublishPublicProduct', 'discardStagedProduct',
]);

describe('unknown fields: 422, code unknown_field, the field named as sent', () => {
  it('covers every REST route that takes a JSON body', () => {
    const withBody = restRoutes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.multipart && !NO_JSON_INPUT.has(r.operationId)).map((r) => r.operationId);
    expect(withBody.sort()).toEqual(Object.keys(BODY_ROUTES).sort());
  });

  it.each(Object.keys(BODY_ROUTES))('%s: an unknown key, at its level of nesting', async (operationId) => {
    const route = BODY_ROUTES[operationId];
    const method = restRoutes.find((r) => r.operationId === operationId)!.method;
    const token = route.token?.() ?? a.ownerToken;
    const res = await t.request(method, route.path(), { token, body: route.nest({ colour: 'red' }) });
    expectRestProblem(res, [{ field: `${route.prefix}colour`, code: 'unknown_field' }]);
    expect(res.body.detail).toMatch(new RegExp(`^${route.prefix.replace(/\./g, '\\.')}colour: is not a known field`));
    // The same body without it is fine: the field was the only problem.
    const ok = await t.request(method, route.path(), { token, body: route.valid() });
    expect(ok.status).toBeLessThan(300);
  });

  it('names the key exactly as sent (case and spelling kept) and lists every unknown one', async () => {
    const res = await t.request('POST', BODY_ROUTES.createProduct.path(), { token: a.ownerToken, body: { name: 'x', price: 1, category_slugs: ['shoes'], Colour: 'red', 'size-eu': 42 } });
    expectRestProblem(res, [
      { field: 'Colour', code: 'unknown_field' },
      { field: 'size-eu', code: 'unknown_field' },
    ]);
  });

  it('rejects an unknown key beside the variants list and inside nested input (seo on create is not a create field)', async () => {
    const wrapper = await t.request('PUT', BODY_ROUTES.replaceProductVariants.path(), { token: a.ownerToken, body: { variants: [{ sku: 'w-1' }], colour: 'red' } });
    expectRestProblem(wrapper, [{ field: 'colour', code: 'unknown_field' }]);
    const seoOnCreate = await t.request('POST', BODY_ROUTES.createProduct.path(), { token: a.ownerToken, body: { name: 'x', price: 1, category_slugs: ['shoes'], seo: { colour: 'red' } } });
    expectRestProblem(seoOnCreate, [{ field: 'seo', code: 'unknown_field' }]);
  });

  it('keeps option and attribute names free-form (they are the merchant\'s words, not fields)', async () => {
    const variants = await t.request('PUT', BODY_ROUTES.replaceProductVariants.path(), { token: a.ownerToken, body: { variants: [{ sku: 'o-1', options: { Colour: 'Red', size_eu: '42' } }] } });
    expect(variants.status).toBe(200);
    const description = await t.request('POST', BODY_ROUTES.generateProductDescription.path(), { token: a.ownerToken, body: { name: 'x', attributes: { Colour: 'red' } } });
    expect(description.status).toBe(200);
  });
});

describe('type errors: validation_failed with the field named, never GraphQL wording', () => {
  const create = (extra: Record<string, unknown>) => BODY_ROUTES.createProduct.nest(extra);
  it.each([
    ['a missing required field', { price: 1, category_slugs: ['shoes'] }, [{ field: 'name', code: 'required' }]],
    ['null for a required field', create({ name: null }), [{ field: 'name', code: 'invalid_type' }]],
    ['a number for a string', create({ name: 5 }), [{ field: 'name', code: 'invalid_type' }]],
    ['a fraction for an integer', create({ inventory_quantity: 1.5 }), [{ field: 'inventory_quantity', code: 'invalid_type' }]],
    ['an integer beyond 32 bits', create({ inventory_quantity: 2 ** 31 }), [{ field: 'inventory_quantity', code: 'invalid_value' }]],
    ['an unknown enum value', create({ status: 'weird' }), [{ field: 'status', code: 'invalid_value' }]],
    ['a boolean for a decimal', create({ price: true }), [{ field: 'price', code: 'invalid_value' }]],
    ['numbers in a string list', create({ tags: ['a', 2] }), [{ field: 'tags.1', code: 'invalid_type' }]],
    ['null in a list of required strings', create({ category_slugs: [null] }), [{ field: 'category_slugs.0', code: 'invalid_type' }]],
  ])('create with %s', async (_what, body, errors) => {
    expectRestProblem(await t.request('POST', BODY_ROUTES.createProduct.path(), { token: a.ownerToken, body }), errors);
  });

  it('names nested fields by their path: variants, SEO, description input', async () => {
    expectRestProblem(await t.request('PUT', BODY_ROUTES.replaceProductVariants.path(), { token: a.ownerToken, body: { variants: [{ sku: 'a' }, { title: 'no sku', inventory_quantity: 'many' }, 5] } }), [
      { field: 'variants.1.inventory_quantity', code: 'invalid_type' },
      { field: 'variants.1.sku', code: 'required' },
      { field: 'variants.2', code: 'invalid_type' },
    ]);
    expectRestProblem(await t.request('PUT', BODY_ROUTES.setProductSeo.path(), { token: a.ownerToken, body: { noindex: 'yes' } }), [{ field: 'noindex', code: 'invalid_type' }]);
    const description = await t.request('POST', BODY_ROUTES.generateProductDescription.path(), { token: a.ownerToken, body: { name: 'x', tone: 'angry', max_words: 'ten' } });
    expectRestProblem(description, [
      { field: 'max_words', code: 'invalid_type' },
      { field: 'tone', code: 'invalid_value' },
    ]);
    expect(description.body.errors.find((e: { field: string }) => e.field === 'tone').message).toBe('must be one of: friendly, luxury, neutral, playful');
  });

  it('gives plain messages', async () => {
    const res = await t.request('POST', BODY_ROUTES.createProduct.path(), { token: a.ownerToken, body: create({ name: 5, inventory_quantity: 1.5, status: 'weird' }) });
    expect(res.body.errors).toEqual([
      { field: 'inventory_quantity', code: 'invalid_type', message: 'must be an integer' },
      { field: 'name', code: 'invalid_type', message: 'must be a string' },
      { field: 'status', code: 'invalid_value', message: 'must be one of: active, archived, draft' },
    ]);
  });

  it('writes nothing', async () => {
    const list = await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products`, { token: a.ownerToken });
    // The base product (renamed y by the update routes), the product with options, and one x from each create route's valid body (merchant and public).
    expect(list.body.data.map((p: { name: string }) => p.name).sort()).toEqual(['Tee', 'x', 'x', 'y']);
  });
});

describe('integer query parameters: named as sent, and a number too large is out of range, not "not an integer"', () => {
  const products = () => `/api/v1/merchant/stores/${a.storeId}/products`;
  const outOfRange = (field: string, min: number, max: number) => ({
    status: 422,
    code: 'validation_failed',
    detail: `${field}: is out of range: must be between ${min} and ${max}`,
    errors: [{ field, code: 'out_of_range', message: `is out of range: must be between ${min} and ${max}` }],
  });

  it.each([
    ['per_page=100000', 'per_page', 1, 100],
    ['per_page=0', 'per_page', 1, 100],
    ['per_page=1e30', 'per_page', 1, 100],
    ['per_page=99999999999999999999', 'per_page', 1, 100],
    ['page=99999999999999999999', 'page', 1, 1_000_000],
    ['page=0', 'page', 1, 1_000_000],
  ])('merchant and public product lists: %s', async (query, field, min, max) => {
    const merchant = await t.request('GET', `${products()}?${query}`, { token: a.ownerToken });
    expect(merchant.body).toMatchObject(outOfRange(field, min, max));
    const partner = await t.request('GET', `/api/public/v1/products?${query}`, { headers: { authorization: `Bearer ${partnerKey}` } });
    expect(partner.body).toMatchObject(outOfRange(field, min, max));
  });

  it('history and delivery-log limits too; what is not an integer still says so', async () => {
    expect((await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/changes?limit=99999999999999999999`, { token: a.ownerToken })).body).toMatchObject(outOfRange('limit', 1, 100));
    expect((await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/webhook-messages?limit=1e30`, { token: a.ownerToken })).body).toMatchObject(outOfRange('limit', 1, 100));
    for (const bad of ['abc', '1.5', '12px']) {
      const res = await t.request('GET', `${products()}?per_page=${bad}`, { token: a.ownerToken });
      expect(res.body).toMatchObject({ status: 422, detail: 'per_page: must be an integer', errors: [{ field: 'per_page', code: 'invalid_parameter', message: 'must be an integer' }] });
    }
    expect((await t.request('GET', `${products()}?per_page=100`, { token: a.ownerToken })).status).toBe(200);
  });
});
