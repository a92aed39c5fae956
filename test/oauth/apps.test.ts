import { sha256Hex } from '../../src/access/auth/secrets';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { basicAuth, connectApp, postForm, REDIRECT_URI, registerApp } from './helpers';

let t: TestServer;
let alice: StoreFixture;
let bob: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  alice = await createStoreFixture();
  bob = await createStoreFixture();
});
afterAll(() => t.close());

const APP_FIELDS = 'id name clientId redirectUris allowedScopes status createdAt';
const CREATE = `mutation($input: OAuthAppCreateInput!) { createOAuthApp(input: $input) { clientSecret app { ${APP_FIELDS} } } }`;
const LIST = `{ oauthApps { ${APP_FIELDS} } }`;
const SUSPEND = `mutation($id: ID!) { suspendOAuthApp(id: $id) { ${APP_FIELDS} } }`;
const ACTIVATE = `mutation($id: ID!) { activateOAuthApp(id: $id) { ${APP_FIELDS} } }`;
const ROTATE = `mutation($id: ID!) { rotateOAuthAppSecret(id: $id) { clientSecret app { id } } }`;

const input = (overrides: Record<string, unknown> = {}) => ({
  name: 'Inventory sync',
  redirectUris: [REDIRECT_URI, 'http://127.0.0.1:8123/cb'],
  allowedScopes: ['products:read', 'public:read'],
  ...overrides,
});

describe('OAuth app management in GraphQL', () => {
  it('creates an app owned by the signed-in user and shows the client secret once', async () => {
    const res = await t.graphql(CREATE, { input: input() }, { token: alice.ownerToken });
    expect(res.body.errors).toBeUndefined();
    const { app, clientSecret } = res.body.data.createOAuthApp;
    expect(clientSecret).toMatch(/^svc_ocs_[0-9A-Za-z]{49}$/);
    expect(app).toMatchObject({
      name: 'Inventory sync',
      clientId: expect.stringMatching(/^svc_oci_/),
      redirectUris: [REDIRECT_URI, 'http://127.0.0.1:8123/cb'],
      allowedScopes: ['public:read', 'products:read'],
      status: 'active',
    });
    const row = await db().oAuthApp.findUniqueOrThrow({ where: { id: app.id } });
    expect(row.ownerId).toBe(alice.ownerId);
    expect(row.clientSecretHash).toBe(sha256Hex(clientSecret));

    const list = await t.graphql(LIST, {}, { token: alice.ownerToken });
    expect(list.body.data.oauthApps.map((a: { id: string }) => a.id)).toContain(app.id);
    expect(list.text).not.toContain(clientSecret);
    expect(list.text).not.toContain(row.clientSecretHash);
    expect((await t.graphql(LIST, {}, { token: bob.ownerToken })).body.data.oauthApps).toEqual([]);
  });

  it.each([
    ['no redirect URI', { redirectUris: [] }, 'redirectUris'],
    ['an http redirect URI on a public host', { redirectUris: ['http://partner.example.test/cb'] }, 'redirectUris.0'],
    ['a redirect URI with a fragment', { redirectUris: ['https://partner.example.test/cb#x'] }, 'redirectUris.0'],
    ['a relative redirect URI', { redirectUris: ['/cb'] }, 'redirectUris.0'],
    ['no scopes', { allowedScopes: [] }, 'allowedScopes'],
    ['an unknown scope', { allowedScopes: ['admin'] }, 'allowedScopes.0'],
    ['an empty name', { name: '  ' }, 'name'],
  ])('refuses %s with 422-style validation_failed naming the field', async (_what, overrides, field) => {
    const res = await t.graphql(CREATE, { input: input(overrides) }, { token: alice.ownerToken });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('validation_failed');
    expect(res.body.errors[0].extensions.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('needs a signed-in user', async () => {
    const res = await t.graphql(CREATE, { input: input() });
    expect(res.body.errors[0].extensions.code).toBe('unauthenticated');
    expect((await t.graphql(LIST, {})).body.errors[0].extensions.code).toBe('unauthenticated');
  });

  it('lets only the owner suspend, reactivate and rotate; others see not_found', async () => {
    const { app, clientSecret } = (await t.graphql(CREATE, { input: input() }, { token: alice.ownerToken })).body.data.createOAuthApp;
    for (const op of [SUSPEND, ACTIVATE, ROTATE]) {
      const res = await t.graphql(op, { id: app.id }, { token: bob.ownerToken });
      expect(res.body.errors[0].extensions.code).toBe('not_found');
    }
    expect((await t.graphql(SUSPEND, { id: 'not-a-uuid' }, { token: alice.ownerToken })).body.errors[0].extensions.code).toBe('not_found');

    expect((await t.graphql(SUSPEND, { id: app.id }, { token: alice.ownerToken })).body.data.suspendOAuthApp.status).toBe('suspended');
    expect((await t.graphql(ACTIVATE, { id: app.id }, { token: alice.ownerToken })).body.data.activateOAuthApp.status).toBe('active');
    const rotated = (await t.graphql(ROTATE, { id: app.id }, { token: alice.ownerToken })).body.data.rotateOAuthAppSecret;
    expect(rotated.clientSecret).not.toBe(clientSecret);
    const row = await db().oAuthApp.findUniqueOrThrow({ where: { id: app.id } });
    expect(row.clientSecretHash).toBe(sha256Hex(rotated.clientSecret));
  });
});

describe("a store's OAuth grants", () => {
  const GRANTS = `query($storeId: ID!) { oauthGrants(storeId: $storeId) { id grantedBy mode scopes revokedAt app { name clientId } } }`;
  const REVOKE = `mutation($storeId: ID!, $id: ID!) { revokeOAuthGrant(storeId: $storeId, id: $id) { id revokedAt } }`;
  const COUNTRIES = '/api/public/v1/payments/supported-countries';

  it('lists the apps connected to the store and lets the owner disconnect one at once', async () => {
    const partner = await registerApp(t, bob.ownerToken, { name: 'Bob tools' });
    const tokens = await connectApp(t, alice.ownerToken, partner, alice.storeId, { mode: 'live' });
    expect((await t.request('GET', COUNTRIES, { token: tokens.access_token })).status).toBe(200);

    const list = await t.graphql(GRANTS, { storeId: alice.storeId }, { token: alice.ownerToken });
    expect(list.body.errors).toBeUndefined();
    const grant = list.body.data.oauthGrants[0];
    expect(grant).toMatchObject({ mode: 'live', scopes: ['public:read'], revokedAt: null, app: { name: 'Bob tools', clientId: partner.clientId } });
    expect(grant.grantedBy).toMatch(/^owner-.*@example\.test$/);

    const revoked = await t.graphql(REVOKE, { storeId: alice.storeId, id: grant.id }, { token: alice.ownerToken });
    expect(revoked.body.data.revokeOAuthGrant.revokedAt).toEqual(expect.any(String));
    expect((await t.request('GET', COUNTRIES, { token: tokens.access_token })).status).toBe(401);
    const refresh = await postForm(t, '/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, basicAuth(partner.clientId, partner.clientSecret));
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('needs manage_oauth_apps on that store; grants of other stores are not found', async () => {
    const partner = await registerApp(t, alice.ownerToken);
    await connectApp(t, alice.ownerToken, partner, alice.storeId);
    const grantId = (await t.graphql(GRANTS, { storeId: alice.storeId }, { token: alice.ownerToken })).body.data.oauthGrants[0].id;
    const staff = await memberToken(alice.storeId, ['manage_products']);
    expect((await t.graphql(GRANTS, { storeId: alice.storeId }, { token: staff })).body.errors[0].extensions.code).toBe('forbidden');
    expect((await t.graphql(REVOKE, { storeId: alice.storeId, id: grantId }, { token: staff })).body.errors[0].extensions.code).toBe('forbidden');
    expect((await t.graphql(REVOKE, { storeId: bob.storeId, id: grantId }, { token: bob.ownerToken })).body.errors[0].extensions.code).toBe('not_found');
    const manager = await memberToken(alice.storeId, ['manage_oauth_apps']);
    expect((await t.graphql(REVOKE, { storeId: alice.storeId, id: grantId }, { token: manager })).body.data.revokeOAuthGrant.id).toBe(grantId);
  });
});
