import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { filePart, makeImage, restUpload } from '../images/images';
import { createProduct, productPath, productsPath } from '../products/helpers';
import { createKey, publicGet } from '../public/helpers';

/**
 * U+0000 cannot be stored in PostgreSQL text. Wherever a client can send it
 * (a JSON string, a query parameter, a GraphQL literal or variable, a form
 * field of an upload) the answer is 422 validation_failed naming the field
 * with code invalid_character, and nothing is written: never a 500.
 */
let t: TestServer;
let a: StoreFixture;
let productId: string;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  productId = (await createProduct(t, a)).id;
});
afterAll(() => t.close());

const NUL = '\u0000';
const call = (method: string, path: string, body?: unknown) => t.request(method, path, { token: a.ownerToken, body });

function expectNulRefused(res: TestResponse, field: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status: 422, code: 'validation_failed' });
  expect(res.body.errors).toEqual(expect.arrayContaining([{ field, code: 'invalid_character', message: expect.stringContaining('NUL') }]));
}

function expectGqlNulRefused(res: TestResponse, field: string) {
  expect(res.status).toBe(200);
  expect(res.body.data ?? null).toBeNull();
  const [error] = res.body.errors;
  expect(error.extensions.code).toBe('validation_failed');
  expect(error.extensions.errors).toEqual(expect.arrayContaining([{ field, code: 'invalid_character', message: expect.stringContaining('NUL') }]));
}

describe('REST: NUL characters are refused with the field named', () => {
  const base = () => ({ name: 'Plain', price: 10, category_slugs: ['shoes'] });
  it.each([
    ['name', { name: `a${NUL}b` }],
    ['description', { description: `x${NUL}` }],
    ['tags.1', { tags: ['ok', `t${NUL}`] }],
    ['category_slugs.0', { category_slugs: [`sh${NUL}oes`] }],
  ])('POST /products with it in %s', async (field, fields) => {
    const before = await db().product.count({ where: { storeId: a.storeId } });
    expectNulRefused(await call('POST', productsPath(a.storeId), { ...base(), ...fields }), field);
    expect(await db().product.count({ where: { storeId: a.storeId } })).toBe(before);
  });

  it('PUT /products/{id}', async () => {
    expectNulRefused(await call('PUT', productPath(a.storeId, productId), { description: `d${NUL}` }), 'description');
    expect((await db().product.findUnique({ where: { id: productId } }))!.version).toBe(1);
  });

  it.each([
    ['variants.0.sku', [{ sku: `A${NUL}`, options: { size: 'M' } }]],
    ['variants.0.options', [{ sku: 'A-1', options: { [`si${NUL}ze`]: 'M' } }]],
    ['variants.0.options.size', [{ sku: 'A-1', options: { size: `M${NUL}` } }]],
    ['variants.0.title', [{ sku: 'A-1', title: `T${NUL}`, options: { size: 'M' } }]],
  ])('PUT /variants with it in %s', async (field, variants) => {
    expectNulRefused(await call('PUT', `${productPath(a.storeId, productId)}/variants`, { variants }), field);
    expect(await db().variant.count({ where: { productId } })).toBe(0);
  });

  it.each(['title', 'description', 'slug', 'canonical_url', 'og_image_url'])('PUT /seo with it in %s', async (field) => {
    expectNulRefused(await call('PUT', `${productPath(a.storeId, productId)}/seo`, { [field]: `x${NUL}` }), field);
    expect(await db().seo.count({ where: { productId } })).toBe(0);
  });

  it.each(['search', 'category', 'tags', 'sort'])('GET /products?%s=a%%00b', async (param) => {
    expectNulRefused(await call('GET', `${productsPath(a.storeId)}?${param}=a%00b`), param);
  });

  it('the public list ?search= that a publishable key reaches', async () => {
    const { secret } = await createKey(t, a, { type: 'publishable', mode: 'live' });
    const res = await publicGet(t, '/products?search=a%00b', { key: secret });
    expectNulRefused(res, 'search');
  });

  it('the alt text of an upload (a multipart field)', async () => {
    const res = await restUpload(t, a.storeId, a.ownerToken, [filePart(await makeImage('png'), 'a.png', 'image/png'), { name: 'alt', value: `alt${NUL}text` }]);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors[0]).toMatchObject({ code: 'invalid_character' });
    expect(await db().productImage.count({ where: { storeId: a.storeId } })).toBe(0);
  });
});

describe('GraphQL: NUL characters are refused before the operation runs', () => {
  it('in a variable, named by its path', async () => {
    const res = await t.graphql(
      'mutation($s: ID!, $input: ProductCreateInput!) { createProduct(storeId: $s, input: $input) { id } }',
      { s: a.storeId, input: { name: `a${NUL}b`, price: '1', categorySlugs: ['shoes'] } },
      { token: a.ownerToken },
    );
    expectGqlNulRefused(res, '$input.name');
  });

  it('in a string literal of the document, named by the argument path', async () => {
    const res = await t.graphql(`mutation($s: ID!) { createProduct(storeId: $s, input: {name: "a\\u0000b", price: "1", categorySlugs: ["shoes"]}) { id } }`, { s: a.storeId }, { token: a.ownerToken });
    expectGqlNulRefused(res, 'createProduct.input.name');
  });

  it('in a search argument', async () => {
    const res = await t.graphql('query($s: ID!, $q: String) { products(storeId: $s, filter: {search: $q}) { totalCount } }', { s: a.storeId, q: `x${NUL}` }, { token: a.ownerToken });
    // Whatever the argument's shape, the NUL is what is refused first.
    expect(JSON.stringify(res.body)).not.toContain('internal_error');
    expect(res.body.errors?.[0]?.extensions?.code).toMatch(/validation_failed|GRAPHQL_VALIDATION_FAILED/);
  });

  it('in a login email', async () => {
    const res = await t.graphql('mutation($e: String!) { login(email: $e, password: "whatever") { token } }', { e: `owner${NUL}@example.test` });
    expectGqlNulRefused(res, '$e');
  });

  it('in an API key name and an OAuth app name', async () => {
    const key = await t.graphql(
      'mutation($s: ID!, $input: ApiKeyCreateInput!) { createApiKey(storeId: $s, input: $input) { secret } }',
      { s: a.storeId, input: { name: `key${NUL}`, type: 'secret', mode: 'test', scopes: ['products:read'] } },
      { token: a.ownerToken },
    );
    expectGqlNulRefused(key, '$input.name');
    const app = await t.graphql(
      'mutation($input: OAuthAppCreateInput!) { createOAuthApp(input: $input) { clientSecret } }',
      { input: { name: `app${NUL}`, redirectUris: ['https://example.com/cb'], allowedScopes: ['products:read'] } },
      { token: a.ownerToken },
    );
    expectGqlNulRefused(app, '$input.name');
  });
});

describe('OAuth endpoints: NUL characters are refused', () => {
  let o: TestServer;
  beforeAll(async () => {
    o = await startTestServer({ OAUTH_ENABLED: 'true' });
  });
  afterAll(() => o.close());
  const B = '/api/public/v1/oauth';

  it('in an authorization request parameter: 422 naming it', async () => {
    const res = await o.request('GET', `${B}/authorize?client_id=a%00b&response_type=code&redirect_uri=https://example.com/cb&scope=products:read&state=s`);
    expectNulRefused(res, 'client_id');
  });

  it.each(['token', 'revoke'])('in the %s form: invalid_request in the OAuth error format', async (endpoint) => {
    const res = await o.request('POST', `${B}/${endpoint}`, {
      rawBody: 'grant_type=refresh_token&refresh_token=a%00b&token=a%00b&client_id=x&client_secret=y',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('NUL') });
  });
});
