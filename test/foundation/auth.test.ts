import { revokeDashboardToken } from '../../src/access/auth/dashboardTokens';
import { testContext } from '../helpers/context';
import { db } from '../../src/platform/db/client';
import { addMember } from '../../src/access/services/stores';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
});
afterAll(() => t.close());

const listPath = (storeId: string) => `/api/v1/merchant/stores/${storeId}/products`;
const LIST = `query($storeId: ID!) { products(storeId: $storeId) { meta { total } } }`;

describe('manage_products on the merchant API (REST and GraphQL)', () => {
  it.each([
    ['the store owner', () => a.ownerToken, 200],
    ['staff with manage_products', () => a.staffToken, 200],
    ['staff without manage_products', () => a.viewerToken, 403],
    ["another store's owner", () => b.ownerToken, 403],
  ])('%s gets %#', async (_who, token, status) => {
    const rest = await t.request('GET', listPath(a.storeId), { token: token() });
    expect(rest.status).toBe(status);
    const gql = await t.graphql(LIST, { storeId: a.storeId }, { token: token() });
    if (status === 200) {
      expect(gql.body.errors).toBeUndefined();
      expect(gql.body.data.products.meta.total).toBe(0);
    } else {
      expect(rest.headers.get('content-type')).toBe('application/problem+json');
      expect(rest.body).toMatchObject({ status: 403, code: 'forbidden', title: 'Forbidden' });
      expect(gql.body.errors[0].extensions.code).toBe('forbidden');
      expect(gql.body.data).toBeNull();
    }
  });

  it('names the missing permission in the 403, on REST and GraphQL alike, in the message and as required_permission', async () => {
    const cases: Array<[string, string, string, Record<string, unknown>, string, Record<string, unknown>]> = [
      ['GET', listPath(a.storeId), LIST, { storeId: a.storeId }, 'This action requires the manage_products permission on this store', { required_permission: 'manage_products', required_permissions: ['manage_products'] }],
      [
        'GET',
        `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints`,
        'query($storeId: ID!) { webhookEndpoints(storeId: $storeId) { id } }',
        { storeId: a.storeId },
        'This action requires the manage_webhooks permission on this store',
        { required_permission: 'manage_webhooks', required_permissions: ['manage_webhooks'] },
      ],
      [
        'GET',
        `/api/v1/merchant/stores/${a.storeId}/changes`,
        'query($storeId: ID!) { changes(storeId: $storeId) { edges { cursor } } }',
        { storeId: a.storeId },
        'This action requires the view_changes permission on this store',
        { required_permission: 'view_changes' },
      ],
    ];
    for (const [method, path, query, variables, message, fields] of cases) {
      const rest = await t.request(method, path, { token: a.viewerToken });
      expect(rest.status).toBe(403);
      expect(rest.body).toMatchObject({ code: 'forbidden', detail: message, ...fields });
      const gql = await t.graphql(query, variables, { token: a.viewerToken });
      expect(gql.body.errors[0]).toMatchObject({ message, extensions: { code: 'forbidden', ...fields } });
    }
    const team = await t.graphql('query($storeId: ID!) { storeMembers(storeId: $storeId) { role } }', { storeId: a.storeId }, { token: a.staffToken });
    expect(team.body.errors[0]).toMatchObject({ message: "This action requires being the store's owner", extensions: { code: 'forbidden', required_role: 'owner' } });
  });

  it('answers 401 with WWW-Authenticate when no token is sent', async () => {
    const rest = await t.request('GET', listPath(a.storeId));
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(rest.body).toMatchObject({ code: 'unauthenticated', status: 401 });
    const gql = await t.graphql(LIST, { storeId: a.storeId });
    expect(gql.status).toBe(401);
    expect(gql.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(gql.body.errors[0].extensions.code).toBe('unauthenticated');
  });

  it.each([
    ['a malformed token', 'svc_dash_nope'],
    ['a token with a wrong checksum', a => a.ownerToken.slice(0, -1) + (a.ownerToken.endsWith('A') ? 'B' : 'A')],
    ['an unknown well-formed token', 'svc_dash_' + '1'.repeat(44)],
    ['a non-dashboard token', 'abc'],
  ] as [string, string | ((f: StoreFixture) => string)][])('answers 401 invalid_token for %s', async (_what, tok) => {
    const token = typeof tok === 'function' ? tok(a) : tok;
    const rest = await t.request('GET', listPath(a.storeId), { token });
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('invalid_token');
    expect(rest.headers.get('www-authenticate')).toContain('Bearer');
    const gql = await t.graphql(LIST, { storeId: a.storeId }, { token });
    expect(gql.status).toBe(401);
    expect(gql.body.errors[0].extensions.code).toBe('invalid_token');
  });

  it('rejects a revoked token at once', async () => {
    const token = await memberToken(a.storeId, ['manage_products']);
    expect((await t.request('GET', listPath(a.storeId), { token })).status).toBe(200);
    const row = await db().dashboardToken.findFirstOrThrow({ orderBy: { createdAt: 'desc' } });
    await revokeDashboardToken(testContext(), row.id);
    const res = await t.request('GET', listPath(a.storeId), { token });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/revoked/);
  });

  it('stores dashboard tokens only as SHA-256 digests', async () => {
    const rows = await db().dashboardToken.findMany();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.tokenHash).not.toContain('svc_dash_');
    }
    expect(JSON.stringify(rows)).not.toContain(a.ownerToken);
  });
});

describe('login mutation', () => {
  const LOGIN = `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token userId } }`;

  it('returns a working dashboard token for the right password', async () => {
    const owner = await db().user.findUniqueOrThrow({ where: { id: a.ownerId } });
    const res = await t.graphql(LOGIN, { e: owner.email.toUpperCase(), p: 'correct horse battery' });
    expect(res.body.errors).toBeUndefined();
    const { token, userId } = res.body.data.login;
    expect(token).toMatch(/^svc_dash_[0-9A-Za-z]{40,}$/);
    expect(userId).toBe(a.ownerId);
    expect((await t.request('GET', listPath(a.storeId), { token })).status).toBe(200);
    expect(owner.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const owner = await db().user.findUniqueOrThrow({ where: { id: a.ownerId } });
    for (const [e, p] of [[owner.email, 'wrong password'], ['nobody@example.test', 'whatever']]) {
      const res = await t.graphql(LOGIN, { e, p });
      expect(res.body.errors[0].extensions.code).toBe('invalid_credentials');
      expect(res.body.errors[0].message).toBe('Email or password is incorrect');
    }
  });
});

describe('verified-token cache', () => {
  const listOnce = (token: string) => t.request('GET', listPath(a.storeId), { token });

  it('looks a token up once, then serves it for a few seconds without a query', async () => {
    const token = await memberToken(a.storeId, ['manage_products']);
    const before = t.database.queryCount();
    await listOnce(token);
    const first = t.database.queryCount() - before;
    const mid = t.database.queryCount();
    expect((await listOnce(token)).status).toBe(200);
    const second = t.database.queryCount() - mid;
    expect(second).toBe(first - 1);
  });

  it('sees permission changes made through the service at once', async () => {
    const token = await memberToken(a.storeId, ['manage_products']);
    expect((await listOnce(token)).status).toBe(200);
    const row = await db().dashboardToken.findFirstOrThrow({ orderBy: { createdAt: 'desc' } });
    await addMember(testContext(), { storeId: a.storeId, userId: row.userId, permissions: [] });
    expect((await listOnce(token)).status).toBe(403);
  });
});
