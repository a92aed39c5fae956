import { SCOPE_DESCRIPTIONS } from '../../src/access/auth/credentials';
import { SCOPES } from '../../src/kernel/access';
import { testContext } from '../helpers/context';
import { createProduct } from '../../src/catalog/services/productCreate';
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
    // The test catalog: the tokens below come from the flow's default, test mode.
    ids[status] = (await createProduct(testContext(undefined, { mode: 'test' }), store.storeId, { name, price: '10', categorySlugs: ['shoes'], status, inventoryQuantity: 7 })).id;
  }
  ids.liveOnly = (await createProduct(testContext(), store.storeId, { name: 'Live catalog', price: '10', categorySlugs: ['shoes'], status: 'active' })).id;
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

  it("products:read: every product of the token's catalog, drafts and archived ones included, with inventory; nothing of the other mode", async () => {
    expect(SCOPE_DESCRIPTIONS['products:read']).toMatch(/drafts and archived ones included/);
    const { access_token } = await connectApp(t, store.ownerToken, app, store.storeId, { scope: 'products:read' });
    const list = await publicGet('/products', access_token);
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: string }) => p.id).sort()).toEqual([ids.active, ids.draft, ids.archived].sort());
    expect(list.body.data[0]).toMatchObject({ inventory_quantity: 7 });
    for (const status of ['draft', 'archived']) expect((await publicGet(`/products/${ids[status]}`, access_token)).body.data.status).toBe(status);
    expect((await publicGet(`/products/${ids.liveOnly}`, access_token)).status).toBe(404);
    expect((await publicGet('/payments/supported-countries', access_token)).body).toMatchObject({ code: 'insufficient_scope' });
    const write = await t.request('POST', '/api/public/v1/products', { token: access_token, body: { name: 'x', price: 1, category_slugs: ['shoes'] } });
    expect(write.body).toMatchObject({ code: 'insufficient_scope', required_scope: 'products:write' });
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

  it('products:write: writes the catalog and reads it, as the page says; not the payment countries', async () => {
    expect(SCOPE_DESCRIPTIONS['products:write']).toMatch(/includes products:read/);
    const { access_token } = await connectApp(t, store.ownerToken, app, store.storeId, { scope: 'products:write' });
    const write = await t.request('POST', '/api/public/v1/products', { token: access_token, body: { name: 'Written', price: 3, category_slugs: ['shoes'] } });
    expect(write.status).toBe(201);
    expect((await publicGet(`/products/${write.body.data.id}`, access_token)).body.data).toMatchObject({ name: 'Written', status: 'draft' });
    expect((await publicGet('/payments/supported-countries', access_token)).body).toMatchObject({ code: 'insufficient_scope' });
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
