import { sha256Hex } from '../../src/access/auth/secrets';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { authorizationServer, authorizeAndDecide, basicAuth, loadOAuthLib, type OAuthLib, postForm, REDIRECT_URI, registerApp, type RegisteredApp } from './helpers';

let t: TestServer;
let store: StoreFixture;
let oauth: OAuthLib;
let app: RegisteredApp;

beforeAll(async () => {
  oauth = await loadOAuthLib();
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  app = await registerApp(t, store.ownerToken);
});
afterAll(() => t.close());

const COUNTRIES = '/api/public/v1/payments/supported-countries';

/** A fresh authorization code for `app`, obtained through the consent screen, and its PKCE verifier. */
async function newCode(a: RegisteredApp = app) {
  const verifier = oauth.generateRandomCodeVerifier();
  const callback = await authorizeAndDecide(t, store.ownerToken, {
    response_type: 'code',
    client_id: a.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'public:read',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    store_id: store.storeId,
  });
  return { code: callback.searchParams.get('code')!, verifier, callback };
}

const exchange = (form: Record<string, string>, headers: Record<string, string> = basicAuth(app.clientId, app.clientSecret)) =>
  postForm(t, '/token', form, headers);

const codeForm = (c: { code: string; verifier: string }, extra: Record<string, string> = {}) => ({
  grant_type: 'authorization_code',
  code: c.code,
  redirect_uri: REDIRECT_URI,
  code_verifier: c.verifier,
  ...extra,
});

function expectTokenError(res: { status: number; body: any; headers: Headers }, error: string, status = 400) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.body.error).toBe(error);
  expect(typeof res.body.error_description).toBe('string');
}

describe('POST /token, grant_type=authorization_code', () => {
  it('answers the RFC 6749 5.1 token response, never cached', async () => {
    const res = await exchange(codeForm(await newCode()));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^svc_oat_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^svc_ort_/),
      scope: 'public:read',
    });
    const row = await db().oAuthToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(res.body.access_token) } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(3599_000);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(3601_000);
  });

  it('accepts client_secret_post as well as client_secret_basic', async () => {
    const res = await exchange(codeForm(await newCode(), { client_id: app.clientId, client_secret: app.clientSecret }), {});
    expect(res.status).toBe(200);
  });

  it('refuses a wrong PKCE verifier with invalid_grant (through oauth4webapi), and a malformed one with invalid_request', async () => {
    const c = await newCode();
    const as = authorizationServer(t);
    const client = { client_id: app.clientId };
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(app.clientSecret),
      oauth.validateAuthResponse(as, client, c.callback, oauth.expectNoState),
      REDIRECT_URI,
      oauth.generateRandomCodeVerifier(),
      { [oauth.allowInsecureRequests]: true },
    );
    const err = await oauth.processAuthorizationCodeResponse(as, client, response).catch((e) => e);
    expect(err).toBeInstanceOf(oauth.ResponseBodyError);
    expect(err).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });

    expectTokenError(await exchange(codeForm(c, { code_verifier: 'too-short' })), 'invalid_request');
    expectTokenError(await exchange(codeForm(c, { code_verifier: '' })), 'invalid_request');
    // A failed verification does not spend the code: the real client can still redeem it.
    expect((await exchange(codeForm(c))).status).toBe(200);
  });

  it('refuses a redirect_uri other than the one of the authorization request', async () => {
    const c = await newCode();
    expectTokenError(await exchange(codeForm(c, { redirect_uri: REDIRECT_URI + '/other' })), 'invalid_grant');
    expectTokenError(await exchange(codeForm(c, { redirect_uri: '' })), 'invalid_request');
  });

  it('makes codes single-use: a second redemption fails and revokes the tokens of the first (RFC 6749 4.1.2)', async () => {
    const c = await newCode();
    const first = await exchange(codeForm(c));
    expect(first.status).toBe(200);
    expect((await t.request('GET', COUNTRIES, { token: first.body.access_token })).status).toBe(200);
    const second = await exchange(codeForm(c));
    expectTokenError(second, 'invalid_grant');
    expect(second.body.error_description).toMatch(/already been used/);
    const after = await t.request('GET', COUNTRIES, { token: first.body.access_token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('invalid_token');
    expectTokenError(await exchange({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token }), 'invalid_grant');
  });

  it("refuses another client's code without revoking it", async () => {
    const c = await newCode();
    const other = await registerApp(t, store.ownerToken);
    expectTokenError(await exchange(codeForm(c), basicAuth(other.clientId, other.clientSecret)), 'invalid_grant');
    expect((await exchange(codeForm(c))).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const c = await newCode();
    // The code lives 60 seconds; move its expiry into the past instead of waiting.
    await db().oAuthToken.update({ where: { tokenHash: sha256Hex(c.code) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await exchange(codeForm(c));
    expectTokenError(res, 'invalid_grant');
    expect(res.body.error_description).toMatch(/expired/);
  });

  it.each([
    ['an unknown code', { code: 'svc_oac_' + '1'.repeat(49) }, 'invalid_grant'],
    ['a malformed code', { code: 'abc' }, 'invalid_grant'],
    ['no code', { code: '' }, 'invalid_request'],
    ['a refresh token as code', { code: 'svc_ort_' + '1'.repeat(49) }, 'invalid_grant'],
  ])('refuses %s', async (_what, override, error) => {
    const c = await newCode();
    expectTokenError(await exchange({ ...codeForm(c), ...override }), error);
  });
});

describe('POST /token, client authentication and request shape', () => {
  it.each([
    ['no client credentials', () => ({})],
    ['a wrong secret (basic)', () => basicAuth(app.clientId, app.clientSecret + 'x')],
    ['a wrong secret (post)', () => ({ client_id: app.clientId, client_secret: 'wrong' })],
    ['an unknown client', () => basicAuth('svc_oci_unknown', app.clientSecret)],
    ['a Basic header that is not base64 of id:secret', () => ({ authorization: 'Basic !!!' })],
    ['a Bearer header', () => ({ authorization: `Bearer ${store.ownerToken}` })],
  ] as [string, () => Record<string, string>][])('%s: 401 invalid_client with WWW-Authenticate', async (_what, credentials) => {
    const { authorization, ...body } = credentials();
    const res = await exchange({ ...codeForm(await newCode()), ...body }, authorization ? { authorization } : {});
    expectTokenError(res, 'invalid_client', 401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
  });

  it('refuses two client authentication methods at once', async () => {
    const res = await exchange(codeForm(await newCode(), { client_secret: app.clientSecret }));
    expectTokenError(res, 'invalid_request');
  });

  it.each([
    ['no grant_type', { grant_type: '' }, 'invalid_request'],
    ['grant_type=client_credentials', { grant_type: 'client_credentials' }, 'unsupported_grant_type'],
    ['grant_type=password', { grant_type: 'password' }, 'unsupported_grant_type'],
    ['refresh_token without the token', { grant_type: 'refresh_token' }, 'invalid_request'],
    ['an unknown refresh token', { grant_type: 'refresh_token', refresh_token: 'svc_ort_' + '1'.repeat(49) }, 'invalid_grant'],
  ])('%s', async (_what, form, error) => {
    expectTokenError(await exchange(form), error);
  });

  it('refuses a parameter sent twice and a body that is not form-encoded, as OAuth errors', async () => {
    const c = await newCode();
    const twice = new URLSearchParams(codeForm(c));
    twice.append('code', c.code);
    expectTokenError(await postForm(t, '/token', twice, basicAuth(app.clientId, app.clientSecret)), 'invalid_request');
    const json = await t.request('POST', '/api/public/v1/oauth/token', { body: codeForm(c), headers: basicAuth(app.clientId, app.clientSecret) });
    expectTokenError(json, 'invalid_request');
  });

  it('refuses the old client secret once it is rotated', async () => {
    const own = await registerApp(t, store.ownerToken);
    const c = await newCode(own);
    const rotated = await t.graphql(`mutation($id: ID!) { rotateOAuthAppSecret(id: $id) { clientSecret } }`, { id: own.id }, { token: store.ownerToken });
    const secret = rotated.body.data.rotateOAuthAppSecret.clientSecret;
    expect(secret).not.toBe(own.clientSecret);
    expectTokenError(await exchange(codeForm(c), basicAuth(own.clientId, own.clientSecret)), 'invalid_client', 401);
    expect((await exchange(codeForm(c), basicAuth(own.clientId, secret))).status).toBe(200);
  });
});

describe('POST /revoke', () => {
  it('needs client authentication and the token parameter', async () => {
    expectTokenError(await postForm(t, '/revoke', { token: 'x' }), 'invalid_client', 401);
    expectTokenError(await postForm(t, '/revoke', {}, basicAuth(app.clientId, app.clientSecret)), 'invalid_request');
  });

  it('answers 200 with an empty body', async () => {
    const res = await postForm(t, '/revoke', { token: 'svc_oat_unknown', token_type_hint: 'something_else' }, basicAuth(app.clientId, app.clientSecret));
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('lets a suspended app still revoke its tokens', async () => {
    const own = await registerApp(t, store.ownerToken);
    const tokens = (await exchange(codeForm(await newCode(own)), basicAuth(own.clientId, own.clientSecret))).body;
    await t.graphql(`mutation($id: ID!) { suspendOAuthApp(id: $id) { status } }`, { id: own.id }, { token: store.ownerToken });
    expect((await postForm(t, '/revoke', { token: tokens.refresh_token }, basicAuth(own.clientId, own.clientSecret))).status).toBe(200);
    await t.graphql(`mutation($id: ID!) { activateOAuthApp(id: $id) { status } }`, { id: own.id }, { token: store.ownerToken });
    expect((await t.request('GET', COUNTRIES, { token: tokens.access_token })).status).toBe(401);
  });
});
