import { createHash } from 'node:crypto';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { authorizeAndDecide, consentForm, getAuthorize, postForm, REDIRECT_URI, registerApp, type RegisteredApp } from './helpers';

let t: TestServer;
let store: StoreFixture;
let other: StoreFixture;
let app: RegisteredApp;

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  other = await createStoreFixture();
  app = await registerApp(t, store.ownerToken, { name: 'Stock <sync> & "co"', allowedScopes: ['public:read', 'products:read'] });
});
afterAll(() => t.close());

const CHALLENGE = createHash('sha256').update('v'.repeat(43)).digest('base64url');

const request = (overrides: Record<string, string | undefined> = {}) => ({
  response_type: 'code',
  client_id: app.clientId,
  redirect_uri: REDIRECT_URI,
  scope: 'public:read',
  state: 'st-123',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  store_id: store.storeId,
  ...overrides,
});

/** The error redirect a client gets back: to its registered URI, with error and state. */
function expectErrorRedirect(location: string | null, error: string, state: string | null = 'st-123') {
  expect(location).not.toBeNull();
  const url = new URL(location!);
  expect(url.origin + url.pathname).toBe(REDIRECT_URI);
  expect(url.searchParams.get('error')).toBe(error);
  expect(url.searchParams.get('error_description')).toBeTruthy();
  expect(url.searchParams.get('state')).toBe(state);
  expect(url.searchParams.get('code')).toBeNull();
}

describe('GET /authorize', () => {
  it('shows the signed-in user a consent page naming the app, the store, the mode and the scopes', async () => {
    const res = await getAuthorize(t, request({ scope: 'products:read public:read', mode: 'live' }), store.ownerToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.text).toContain('<span id="app-name">Stock &lt;sync&gt; &amp; &quot;co&quot;</span>');
    expect(res.text).not.toContain('<sync>');
    expect(res.text).toContain('<strong id="mode">live</strong>');
    expect(res.text).toMatch(/<code>public:read<\/code>[^<]*<\/li>\s*<li><code>products:read<\/code>/);
    const storeName = (await db().store.findUniqueOrThrow({ where: { id: store.storeId } })).name;
    expect(res.text).toContain(`Store: <strong>${storeName}</strong>`);
    expect(res.text).toContain('action="/api/public/v1/oauth/authorize/consent"');
  });

  it('escapes the state into the form so it round-trips unchanged', async () => {
    const state = `"><script>alert(1)</script>&x='`;
    const res = await getAuthorize(t, request({ state }), store.ownerToken);
    expect(res.text).not.toContain('<script>');
    expect(consentForm(res.text).get('state')).toBe(state);
    const callback = await authorizeAndDecide(t, store.ownerToken, request({ state }));
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toMatch(/^svc_oac_/);
    expect(callback.searchParams.get('iss')).toBe(t.url);
  });

  it('offers a store picker when store_id is not sent, listing only stores the user may connect', async () => {
    const res = await getAuthorize(t, request({ store_id: undefined }), store.ownerToken);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<option value="${store.storeId}">`);
    expect(res.text).not.toContain(other.storeId);
  });

  describe('never redirects before client_id and redirect_uri are validated', () => {
    it.each([
      ['no client_id', { client_id: undefined }, /client_id is required/],
      ['an unknown client_id', { client_id: 'svc_oci_nope' }, /registered OAuth app/],
      ['no redirect_uri', { redirect_uri: undefined }, /redirect_uri is required/],
      ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example.test/cb' }, /exact match/],
      ['a redirect_uri that only shares a prefix', { redirect_uri: REDIRECT_URI + '/../x' }, /exact match/],
      ['a redirect_uri with extra query', { redirect_uri: REDIRECT_URI + '?next=https://evil.example.test' }, /exact match/],
    ])('%s: 400 problem', async (_what, overrides, detail) => {
      const res = await getAuthorize(t, request(overrides), store.ownerToken);
      expect(res.status).toBe(400);
      expect(res.location).toBeNull();
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body).toMatchObject({ status: 400, code: 'invalid_parameter' });
      expect(res.body.detail).toMatch(detail);
    });

    it('client_id sent twice: 400 problem', async () => {
      const res = await fetch(`${t.url}/api/public/v1/oauth/authorize?${new URLSearchParams(request())}&client_id=x`, {
        headers: { authorization: `Bearer ${store.ownerToken}` },
        redirect: 'manual',
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect((await res.json()).detail).toMatch(/client_id must not be sent more than once/);
    });

    it('without a dashboard token: 401 problem with WWW-Authenticate', async () => {
      const res = await getAuthorize(t, request());
      expect(res.status).toBe(401);
      expect(res.location).toBeNull();
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.body.code).toBe('unauthenticated');
      const bad = await getAuthorize(t, request(), 'svc_dash_' + '1'.repeat(44));
      expect(bad.status).toBe(401);
      expect(bad.body.code).toBe('invalid_token');
    });
  });

  describe('redirects errors to the validated redirect_uri with error and state (RFC 6749 4.1.2.1)', () => {
    it.each([
      ['no code_challenge (PKCE is required)', { code_challenge: undefined }, 'invalid_request'],
      ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
      ['a malformed code_challenge', { code_challenge: 'short' }, 'invalid_request'],
      ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
      ['no response_type', { response_type: undefined }, 'invalid_request'],
      ['no scope', { scope: undefined }, 'invalid_scope'],
      ['a scope the app may not ask for', { scope: 'public:read products:write' }, 'invalid_scope'],
      ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
      ['mode=production', { mode: 'production' }, 'invalid_request'],
      ["a store the user does not belong to", { store_id: '00000000-0000-4000-8000-000000000000' }, 'access_denied'],
      ['a malformed store_id', { store_id: 'abc' }, 'access_denied'],
    ])('%s', async (_what, overrides, error) => {
      const res = await getAuthorize(t, request(overrides), store.ownerToken);
      expect(res.status).toBe(302);
      expectErrorRedirect(res.location, error);
    });

    it("another store's owner asking for this store: access_denied", async () => {
      const res = await getAuthorize(t, request(), other.ownerToken);
      expectErrorRedirect(res.location, 'access_denied');
    });

    it('state sent twice: invalid_request without echoing either', async () => {
      const res = await fetch(`${t.url}/api/public/v1/oauth/authorize?${new URLSearchParams(request())}&state=again`, {
        headers: { authorization: `Bearer ${store.ownerToken}` },
        redirect: 'manual',
      });
      expectErrorRedirect(res.headers.get('location'), 'invalid_request', null);
    });
  });

  it('lets staff connect a store only with manage_oauth_apps', async () => {
    const without = await getAuthorize(t, request(), await memberToken(store.storeId, ['manage_products']));
    expectErrorRedirect(without.location, 'access_denied');
    const withPermission = await getAuthorize(t, request(), await memberToken(store.storeId, ['manage_oauth_apps']));
    expect(withPermission.status).toBe(200);
  });
});

describe('POST /authorize/consent', () => {
  it('on approval redirects (303) with a single-use code and the state, and records a grant for the user and store', async () => {
    const callback = await authorizeAndDecide(t, store.ownerToken, request({ scope: 'products:read public:read', mode: 'live' }));
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe('st-123');
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { appId: app.id }, orderBy: { createdAt: 'desc' } });
    expect(grant).toMatchObject({ storeId: store.storeId, userId: store.ownerId, mode: 'live', scopes: ['public:read', 'products:read'], codeChallenge: CHALLENGE });
  });

  it('on denial redirects with error=access_denied and issues nothing', async () => {
    const before = await db().oAuthGrant.count();
    const callback = await authorizeAndDecide(t, store.ownerToken, request(), 'deny');
    expectErrorRedirect(callback.toString(), 'access_denied');
    expect(await db().oAuthGrant.count()).toBe(before);
  });

  it('needs the bearer token too, so a cross-site form post cannot approve (CSRF)', async () => {
    const page = await getAuthorize(t, request(), store.ownerToken);
    const form = consentForm(page.text);
    form.set('decision', 'approve');
    const before = await db().oAuthGrant.count();
    const res = await postForm(t, '/authorize/consent', form);
    expect(res.status).toBe(401);
    expect(res.location).toBeNull();
    expect(res.body.code).toBe('unauthenticated');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="dashboard"');
    expect(await db().oAuthGrant.count()).toBe(before);
    // Authentication is checked before anything in the body is looked at.
    expect((await postForm(t, '/authorize/consent', { decision: 'approve' })).status).toBe(401);
  });

  it('re-validates the posted request: a tampered scope or store is refused like on GET', async () => {
    const page = await getAuthorize(t, request(), store.ownerToken);
    const widened = consentForm(page.text);
    widened.set('decision', 'approve');
    widened.set('scope', 'public:read products:write');
    const res = await postForm(t, '/authorize/consent', widened, { authorization: `Bearer ${store.ownerToken}` });
    expect(res.status).toBe(303);
    expectErrorRedirect(res.location, 'invalid_scope');

    const foreign = consentForm(page.text);
    foreign.set('decision', 'approve');
    foreign.set('store_id', other.storeId);
    expectErrorRedirect((await postForm(t, '/authorize/consent', foreign, { authorization: `Bearer ${store.ownerToken}` })).location, 'access_denied');

    const tampered = consentForm(page.text);
    tampered.set('decision', 'approve');
    tampered.set('redirect_uri', 'https://evil.example.test/cb');
    const problem = await postForm(t, '/authorize/consent', tampered, { authorization: `Bearer ${store.ownerToken}` });
    expect(problem.status).toBe(400);
    expect(problem.location).toBeNull();
  });

  it('refuses a missing decision and a body that is not form-encoded', async () => {
    const page = await getAuthorize(t, request(), store.ownerToken);
    const form = consentForm(page.text);
    expectErrorRedirect((await postForm(t, '/authorize/consent', form, { authorization: `Bearer ${store.ownerToken}` })).location, 'invalid_request');
    const json = await t.request('POST', '/api/public/v1/oauth/authorize/consent', { token: store.ownerToken, body: Object.fromEntries(form) });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('unsupported_media_type');
  });

  it('refuses a suspended app with 403 app_suspended, without redirecting', async () => {
    const suspended = await registerApp(t, store.ownerToken);
    await t.graphql(`mutation($id: ID!) { suspendOAuthApp(id: $id) { status } }`, { id: suspended.id }, { token: store.ownerToken });
    const res = await getAuthorize(t, request({ client_id: suspended.clientId }), store.ownerToken);
    expect(res.status).toBe(403);
    expect(res.location).toBeNull();
    expect(res.body.code).toBe('app_suspended');
  });
});

describe('methods and paths', () => {
  it('answers 405 with Allow for the wrong method and 404 for unknown OAuth paths', async () => {
    const wrong = await t.request('GET', '/api/public/v1/oauth/token');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    const post = await t.request('POST', '/api/public/v1/oauth/authorize');
    expect(post.headers.get('allow')).toBe('GET');
    const unknown = await t.request('GET', '/api/public/v1/oauth/userinfo');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('route_not_found');
  });
});
