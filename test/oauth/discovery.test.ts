import { loadConfig } from '../../src/platform/config';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { consentForm, loadOAuthLib, type OAuthLib, registerApp, type RegisteredApp, REDIRECT_URI } from './helpers';

/**
 * A partner integration written with a standard client library (oauth4webapi), knowing nothing but the issuer:
 * it discovers the endpoints from the authorization server's metadata (RFC 8414), sends the user's browser to
 * consent (signed in to the dashboard by its session cookie, the form carrying the session's CSRF token), checks
 * `iss` on the way back (RFC 9207), exchanges the code with PKCE, calls the public API, refreshes and revokes.
 */
let t: TestServer;
let store: StoreFixture;
let oauth: OAuthLib;
let app: RegisteredApp;
let email: string;
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const METADATA = '/.well-known/oauth-authorization-server';

beforeAll(async () => {
  oauth = await loadOAuthLib();
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  email = (await db().user.findUniqueOrThrow({ where: { id: store.ownerId } })).email;
  app = await registerApp(t, store.ownerToken, { name: 'Stock sync', allowedScopes: ['public:read', 'products:read'] });
});
afterAll(() => t.close());

const insecure = () => ({ [oauth.allowInsecureRequests]: true }) as const;

/** What the partner does first, with the issuer its documentation names (here, the address the service listens on). */
async function discover() {
  const issuer = new URL(t.url);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure() }));
}

/** The user's browser: signed in to the dashboard (the session cookie), it opens the authorization URL and answers the consent page. */
async function consentInBrowser(authorizationUrl: URL, decision: 'approve' | 'deny'): Promise<URL> {
  const signIn = await t.graphql('mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }', { e: email, p: 'correct horse battery' });
  const cookie = /^svc_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')![0];
  const page = await fetch(authorizationUrl, { headers: { ...BROWSER, cookie }, redirect: 'manual' });
  expect(page.status).toBe(200);
  const form = consentForm(await page.text());
  expect(form.get('csrf_token')).toBe(signIn.body.data.signIn.csrfToken);
  form.set('decision', decision);
  const answer = await fetch(`${t.url}/api/public/v1/oauth/authorize/consent`, {
    method: 'POST',
    headers: { ...BROWSER, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
    redirect: 'manual',
  });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get('location')!);
}

async function authorizationRequest(as: Awaited<ReturnType<typeof discover>>) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'public:read products:read',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    store_id: store.storeId,
  }).toString();
  return { url, verifier, state };
}

describe('the authorization server metadata (RFC 8414)', () => {
  it('is at /.well-known/oauth-authorization-server: the issuer, every endpoint, and what the server supports', async () => {
    const res = await t.request('GET', METADATA);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toEqual({
      issuer: t.url,
      authorization_endpoint: `${t.url}/api/public/v1/oauth/authorize`,
      token_endpoint: `${t.url}/api/public/v1/oauth/token`,
      revocation_endpoint: `${t.url}/api/public/v1/oauth/revoke`,
      scopes_supported: ['public:read', 'products:read', 'products:write', 'payments:read'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${t.url}/docs`,
    });
  });

  it('names the same issuer whatever host name the client used', async () => {
    const port = new URL(t.url).port;
    for (const host of [`localhost:${port}`, `catalog.internal:${port}`]) {
      const res = await t.request('GET', METADATA, { headers: { host } });
      expect({ host, issuer: res.body.issuer }).toEqual({ host, issuer: t.url });
    }
  });

  it('answers GET and HEAD only', async () => {
    const res = await t.request('POST', METADATA);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('production with OAuth on will not start without PUBLIC_BASE_URL, the issuer', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', OAUTH_ENABLED: 'true' })).toThrow(/PUBLIC_BASE_URL: required in production when OAUTH_ENABLED=true/);
    expect(loadConfig({ NODE_ENV: 'production', OAUTH_ENABLED: 'true', PUBLIC_BASE_URL: 'https://catalog.example.com' }).publicBaseUrl).toBe('https://catalog.example.com');
  });
});

describe('a partner on oauth4webapi, from discovery to revocation', () => {
  it('discovers, gets consent in the browser, checks iss, exchanges the code with PKCE, calls the API, refreshes and revokes', async () => {
    const as = await discover();
    expect(as.issuer).toBe(t.url);
    const client = { client_id: app.clientId };
    const auth = oauth.ClientSecretBasic(app.clientSecret);
    const { url, verifier, state } = await authorizationRequest(as);

    const callback = await consentInBrowser(url, 'approve');
    expect(callback.searchParams.get('iss')).toBe(as.issuer);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, REDIRECT_URI, verifier, insecure());
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'public:read products:read' });

    const products = await t.request('GET', '/api/public/v1/products', { token: tokens.access_token });
    expect(products.status).toBe(200);
    expect(products.body.livemode).toBe(false);

    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure()));
    expect((await t.request('GET', '/api/public/v1/products', { token: refreshed.access_token })).status).toBe(200);

    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, auth, refreshed.refresh_token!, insecure()));
    expect((await t.request('GET', '/api/public/v1/products', { token: refreshed.access_token })).status).toBe(401);
  });

  it('a deny comes back with error, error_description, state and iss; the library reports access_denied', async () => {
    const as = await discover();
    const { url, state } = await authorizationRequest(as);
    const callback = await consentInBrowser(url, 'deny');
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(Object.fromEntries(callback.searchParams)).toEqual({ error: 'access_denied', error_description: 'The user denied access', state, iss: as.issuer });
    const err = (() => {
      try {
        oauth.validateAuthResponse(as, { client_id: app.clientId }, callback, state);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect(err).toMatchObject({ error: 'access_denied', error_description: 'The user denied access' });
  });

  it('an invalid request sent back to the client carries iss too, which the library checks', async () => {
    const as = await discover();
    const { url, state } = await authorizationRequest(as);
    url.searchParams.set('scope', 'products:write');
    const signIn = await t.graphql('mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }', { e: email, p: 'correct horse battery' });
    const cookie = /^svc_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')![0];
    const res = await fetch(url, { headers: { ...BROWSER, cookie }, redirect: 'manual' });
    expect(res.status).toBe(302);
    const callback = new URL(res.headers.get('location')!);
    expect(callback.searchParams.get('iss')).toBe(t.url);
    expect(() => oauth.validateAuthResponse(as, { client_id: app.clientId }, callback, state)).toThrow(oauth.AuthorizationResponseError);
  });
});

// Last: these start servers of their own, after which this file's server is done.
describe('the issuer from PUBLIC_BASE_URL', () => {
  it('with PUBLIC_BASE_URL, that is the issuer; one with a path has its metadata at the well-known path followed by it', async () => {
    // Each server of its own, one after the other (a test server's database is the process's while it runs).
    const behind = await startTestServer({ OAUTH_ENABLED: 'true', PUBLIC_BASE_URL: 'https://catalog.example.com/' });
    try {
      const res = await behind.request('GET', METADATA);
      expect(res.body).toMatchObject({ issuer: 'https://catalog.example.com', token_endpoint: 'https://catalog.example.com/api/public/v1/oauth/token' });
    } finally {
      await behind.close();
    }
    const prefixed = await startTestServer({ OAUTH_ENABLED: 'true', PUBLIC_BASE_URL: 'https://example.com/catalog' });
    try {
      const atPath = await prefixed.request('GET', `${METADATA}/catalog`);
      expect(atPath.body).toMatchObject({ issuer: 'https://example.com/catalog', authorization_endpoint: 'https://example.com/catalog/api/public/v1/oauth/authorize' });
      const plain = await fetch(`${prefixed.url}${METADATA}`);
      expect(plain.status).toBe(404);
      expect(await plain.json()).toMatchObject({ code: 'route_not_found' });
    } finally {
      await prefixed.close();
    }
  });

});
