import { sha256Hex } from '../../src/access/auth/secrets';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { authorizationServer, authorizeAndDecide, loadOAuthLib, type OAuthLib, REDIRECT_URI, registerApp, type RegisteredApp } from './helpers';

let t: TestServer;
let store: StoreFixture;
let oauth: OAuthLib;
let app: RegisteredApp;

beforeAll(async () => {
  oauth = await loadOAuthLib();
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  app = await registerApp(t, store.ownerToken, { allowedScopes: ['public:read', 'products:read', 'payments:read'] });
});
afterAll(() => t.close());

const insecure = () => ({ [oauth.allowInsecureRequests]: true }) as const;
const COUNTRIES = '/api/public/v1/payments/supported-countries';

/** The whole client side of the flow, as a partner integration would write it with oauth4webapi. */
async function connect(opts: { scope?: string; mode?: 'test' | 'live'; clientApp?: RegisteredApp } = {}) {
  const a = opts.clientApp ?? app;
  const as = authorizationServer(t);
  const client = { client_id: a.clientId };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const callback = await authorizeAndDecide(t, store.ownerToken, {
    response_type: 'code',
    client_id: a.clientId,
    redirect_uri: REDIRECT_URI,
    scope: opts.scope ?? 'public:read products:read',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    mode: opts.mode,
    store_id: store.storeId,
  });
  const params = oauth.validateAuthResponse(as, client, callback, state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(a.clientSecret), params, REDIRECT_URI, verifier, insecure());
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  return { as, client, auth: oauth.ClientSecretBasic(a.clientSecret), tokens, code: params.get('code')!, verifier, response };
}

const callPublic = (token: string, headers: Record<string, string> = {}) => t.request('GET', COUNTRIES, { token, headers });

async function refreshWith(c: Awaited<ReturnType<typeof connect>>, refreshToken: string) {
  const response = await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, refreshToken, insecure());
  return oauth.processRefreshTokenResponse(c.as, c.client, response);
}

async function expectOAuthError(promise: Promise<unknown>, error: string) {
  const err = await promise.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(oauth.ResponseBodyError);
  expect(err).toMatchObject({ error, status: 400 });
}

describe('authorization code flow with PKCE, end to end with oauth4webapi', () => {
  it('issues a 1-hour svc_oat_ access token and a refresh token that the public API accepts', async () => {
    const { tokens, response } = await connect();
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'public:read products:read' });
    expect(tokens.access_token).toMatch(/^svc_oat_[0-9A-Za-z]{49}$/);
    expect(tokens.refresh_token).toMatch(/^svc_ort_[0-9A-Za-z]{49}$/);
    expect(response.headers.get('cache-control')).toBe('no-store');

    const res = await callPublic(tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-mode')).toBe('test');
    expect(res.body.livemode).toBe(false);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('keeps only SHA-256 digests of codes and tokens in the database', async () => {
    const { tokens, code } = await connect();
    const rows = await db().oAuthToken.findMany({ where: { tokenHash: { in: [code, tokens.access_token, tokens.refresh_token!].map(sha256Hex) } } });
    expect(rows.map((r) => r.kind).sort()).toEqual(['access', 'authorization_code', 'refresh']);
    const dump = JSON.stringify(await db().$queryRawUnsafe('SELECT * FROM oauth_tokens'));
    for (const secret of [code, tokens.access_token, tokens.refresh_token!]) expect(dump).not.toContain(secret);
    const apps = JSON.stringify(await db().$queryRawUnsafe('SELECT * FROM oauth_apps'));
    expect(apps).not.toContain(app.clientSecret);
    expect(apps).toContain(sha256Hex(app.clientSecret));
  });

  it('gives the token the mode of its grant: a live grant serves live and answers 403 mode_mismatch to test', async () => {
    const { tokens } = await connect({ mode: 'live' });
    const own = await callPublic(tokens.access_token);
    expect(own.status).toBe(200);
    expect(own.headers.get('x-service-mode')).toBe('live');
    expect(own.body.livemode).toBe(true);
    expect((await callPublic(tokens.access_token, { 'x-service-mode': 'live' })).status).toBe(200);
    const other = await callPublic(tokens.access_token, { 'x-service-mode': 'test' });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('mode_mismatch');
    const byQuery = await t.request('GET', `${COUNTRIES}?mode=test`, { token: tokens.access_token });
    expect(byQuery.body.code).toBe('mode_mismatch');
  });

  it('gives the token exactly the granted scopes', async () => {
    const { tokens } = await connect({ scope: 'products:read' });
    expect(tokens.scope).toBe('products:read');
    const res = await callPublic(tokens.access_token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('insufficient_scope');
    expect((await t.request('GET', '/api/public/v1/products', { token: tokens.access_token })).status).toBe(200);
  });
});

describe('refresh tokens', () => {
  it('rotate: each refresh returns a new pair and spends the old refresh token', async () => {
    const c = await connect();
    const second = await refreshWith(c, c.tokens.refresh_token!);
    expect(second.refresh_token).not.toBe(c.tokens.refresh_token);
    expect(second.access_token).not.toBe(c.tokens.access_token);
    expect(second).toMatchObject({ expires_in: 3600, scope: 'public:read products:read' });
    expect((await callPublic(second.access_token)).status).toBe(200);
    const third = await refreshWith(c, second.refresh_token!);
    expect((await callPublic(third.access_token)).status).toBe(200);
  });

  it('detect reuse: presenting a spent refresh token revokes the whole grant', async () => {
    const c = await connect();
    const second = await refreshWith(c, c.tokens.refresh_token!);
    await expectOAuthError(refreshWith(c, c.tokens.refresh_token!), 'invalid_grant');
    // The legitimate holder's newer tokens die with the grant.
    await expectOAuthError(refreshWith(c, second.refresh_token!), 'invalid_grant');
    for (const token of [c.tokens.access_token, second.access_token]) {
      const res = await callPublic(token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_token');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('let only one of two concurrent uses of the same refresh token win', async () => {
    const c = await connect();
    const results = await Promise.allSettled([refreshWith(c, c.tokens.refresh_token!), refreshWith(c, c.tokens.refresh_token!)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    // The loser counts as reuse, so the grant is gone either way.
    const winner = results.find((r): r is PromiseFulfilledResult<Awaited<ReturnType<typeof refreshWith>>> => r.status === 'fulfilled')!;
    expect((await callPublic(winner.value.access_token)).status).toBe(401);
  });

  it('refuse another client, and a scope other than the granted one', async () => {
    const c = await connect();
    const other = await registerApp(t, store.ownerToken);
    const response = await oauth.refreshTokenGrantRequest(c.as, { client_id: other.clientId }, oauth.ClientSecretBasic(other.clientSecret), c.tokens.refresh_token!, insecure());
    await expectOAuthError(oauth.processRefreshTokenResponse(c.as, { client_id: other.clientId }, response), 'invalid_grant');
    const widened = await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, c.tokens.refresh_token!, {
      ...insecure(),
      additionalParameters: { scope: 'public:read products:read payments:read' },
    });
    await expectOAuthError(oauth.processRefreshTokenResponse(c.as, c.client, widened), 'invalid_scope');
    // Neither refusal spent the token.
    expect((await refreshWith(c, c.tokens.refresh_token!)).access_token).toMatch(/^svc_oat_/);
  });
});

describe('revocation (RFC 7009)', () => {
  const revoke = async (c: Awaited<ReturnType<typeof connect>>, token: string, hint?: string) => {
    const response = await oauth.revocationRequest(c.as, c.client, c.auth, token, { ...insecure(), additionalParameters: hint ? { token_type_hint: hint } : undefined });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    await oauth.processRevocationResponse(response);
  };

  it('revokes an access token alone; the refresh token still works', async () => {
    const c = await connect();
    await revoke(c, c.tokens.access_token, 'access_token');
    expect((await callPublic(c.tokens.access_token)).status).toBe(401);
    const next = await refreshWith(c, c.tokens.refresh_token!);
    expect((await callPublic(next.access_token)).status).toBe(200);
  });

  it('revokes the whole grant when given a refresh token, whatever the hint', async () => {
    const c = await connect();
    await revoke(c, c.tokens.refresh_token!, 'access_token');
    expect((await callPublic(c.tokens.access_token)).status).toBe(401);
    await expectOAuthError(refreshWith(c, c.tokens.refresh_token!), 'invalid_grant');
    const grant = await db().oAuthToken.findUnique({ where: { tokenHash: sha256Hex(c.tokens.access_token) }, select: { grant: { select: { revokedAt: true } } } });
    expect(grant!.grant.revokedAt).toBeInstanceOf(Date);
  });

  it('answers 200 for unknown, malformed and already revoked tokens, and ignores tokens of other clients', async () => {
    const c = await connect();
    await revoke(c, 'svc_oat_' + '1'.repeat(50));
    await revoke(c, 'not-a-token');
    await revoke(c, c.tokens.access_token);
    await revoke(c, c.tokens.access_token);

    const mine = await connect();
    const other = await registerApp(t, store.ownerToken);
    const response = await oauth.revocationRequest(mine.as, { client_id: other.clientId }, oauth.ClientSecretBasic(other.clientSecret), mine.tokens.access_token, insecure());
    expect(response.status).toBe(200);
    expect((await callPublic(mine.tokens.access_token)).status).toBe(200);
  });
});

describe('a suspended app', () => {
  const SUSPEND = `mutation($id: ID!) { suspendOAuthApp(id: $id) { status } }`;
  const ACTIVATE = `mutation($id: ID!) { activateOAuthApp(id: $id) { status } }`;

  it("has its tokens answer 403 app_suspended and cannot refresh, until it is reactivated", async () => {
    const own = await registerApp(t, store.ownerToken);
    const c = await connect({ clientApp: own });
    const suspended = await t.graphql(SUSPEND, { id: own.id }, { token: store.ownerToken });
    expect(suspended.body.data.suspendOAuthApp.status).toBe('suspended');

    const res = await callPublic(c.tokens.access_token);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('app_suspended');
    const response = await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, c.tokens.refresh_token!, insecure());
    await expectOAuthError(oauth.processRefreshTokenResponse(c.as, c.client, response), 'unauthorized_client');

    await t.graphql(ACTIVATE, { id: own.id }, { token: store.ownerToken });
    expect((await callPublic(c.tokens.access_token)).status).toBe(200);
    expect((await refreshWith(c, c.tokens.refresh_token!)).access_token).toMatch(/^svc_oat_/);
  });
});
