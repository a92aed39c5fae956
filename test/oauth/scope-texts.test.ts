import { SCOPE_DESCRIPTIONS } from '../../src/auth/credentials';
import { SCOPES } from '../../src/domain/access';
import { testContext } from '../helpers/context';
import { createProduct } from '../../src/services/products';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { connectApp, getAuthorize, REDIRECT_URI, registerApp, type RegisteredApp } from './helpers';

// What the consent page promises for a scope is what a token with that scope gets from the public API.

let t: TestServer;
let store: StoreFixture;
let app: RegisteredApp;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true', RATE_LIMIT_TEST_PER_SECOND: '1000' });
  store = await createStoreFixture();
  app = await registerApp(t, store.ownerToken, { allowedScopes: [...SCOPES] });
  for (const [name, status] of [['Live one', 'active'], ['Work in progress', 'draft'], ['Retired', 'archived']] as const) {
    ids[status] = (await createProduct(testContext(), store.storeId, { name, price: '10', categorySlugs: ['shoes'], status, inventoryQuantity: 7 })).id;
  }
});
afterAll(() => t.close());

const publicGet = (path: string, token: string) => t.request('GET', `/api/public/v1${path}`, { token });

async function consentPage(scope: string) {
  const res = await getAuthorize(
    t,
    { response_type: 'code', client_id: app.clientId, redirect_uri: REDIRECT_URI, scope, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', store_id: store.storeId },
    store.ownerToken,
  );
  expect(res.status).toBe(200);
  return res.text;
}

describe('the consent page describes each scope as the public API serves it', () => {
  it.each(SCOPES)('%s: the page shows its description', async (scope) => {
    const page = await consentPage(scope);
    const escaped = SCOPE_DESCRIPTIONS[scope].replace(/'/g, '&#39;');
    expect(page).toContain(`<li><code>${scope}</code>: ${escaped}</li>`);
    expect(page).not.toMatch(/inactive/i);
  });

  it('products:read: active products only, storefront fields; drafts and archived products stay hidden', async () => {
    expect(SCOPE_DESCRIPTIONS['products:read']).toMatch(/active products/);
    const { access_token } = await connectApp(t, store.ownerToken, app, store.storeId, { scope: 'products:read' });
    const list = await publicGet('/products', access_token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([ids.active]);
    expect(list.body.data[0]).toMatchObject({ in_stock: true });
    expect(list.body.data[0]).not.toHaveProperty('inventory_quantity');
    for (const hidden of [ids.draft, ids.archived]) expect((await publicGet(`/products/${hidden}`, access_token)).status).toBe(404);
    expect((await publicGet('/payments/supported-countries', access_token)).body).toMatchObject({ code: 'insufficient_scope' });
  });

  it('public:read: the same products and the payment countries', async () => {
    const { access_token } = await connectApp(t, store.ownerToken, app, store.storeId, { scope: 'public:read' });
    expect((await publicGet('/products', access_token)).body.data.map((p: { id: string }) => p.id)).toEqual([ids.active]);
    expect((await publicGet('/payments/supported-countries', access_token)).status).toBe(200);
  });

  it('payments:read: the payment countries, no products', async () => {
    const { access_token } = await connectApp(t, store.ownerToken, app, store.storeId, { scope: 'payments:read' });
    expect((await publicGet('/payments/supported-countries', access_token)).status).toBe(200);
    expect((await publicGet('/products', access_token)).body).toMatchObject({ code: 'insufficient_scope' });
  });

  it('products:write: grants nothing today, as the page says', async () => {
    expect(SCOPE_DESCRIPTIONS['products:write']).toMatch(/grants no access today/);
    const { access_token } = await connectApp(t, store.ownerToken, app, store.storeId, { scope: 'products:write' });
    for (const path of ['/products', `/products/${ids.active}`, '/payments/supported-countries']) {
      expect((await publicGet(path, access_token)).body).toMatchObject({ code: 'insufficient_scope' });
    }
    const write = await t.request('POST', '/api/public/v1/products', { token: access_token, body: { name: 'x' } });
    expect(write.status).toBe(405);
  });
});

describe('the same words reach developers', () => {
  it('in the OpenAPI document and the GraphQL schema', async () => {
    const openapi = await t.request('GET', '/api/openapi.json');
    const scheme: string = openapi.body.components.securitySchemes.apiKey.description;
    const types = await t.graphql('{ __type(name: "OAuthAppCreateInput") { inputFields { name description } } }');
    const allowed: string = types.body.data.__type.inputFields.find((f: { name: string }) => f.name === 'allowedScopes').description;
    for (const scope of SCOPES) {
      expect(scheme).toContain(`${scope}: ${SCOPE_DESCRIPTIONS[scope]}`);
      expect(allowed).toContain(`${scope}: ${SCOPE_DESCRIPTIONS[scope]}`);
    }
  });
});
