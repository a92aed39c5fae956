import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createOAuthAccessToken } from '../public/helpers';
import { basicAuth, registerApp, type RegisteredApp } from './helpers';

let t: TestServer;
let store: StoreFixture;
let app: RegisteredApp;

// No OAUTH_ENABLED: the default the spec ships with ("not yet active").
beforeAll(async () => {
  t = await startTestServer();
  store = await createStoreFixture();
  app = await registerApp(t, store.ownerToken);
});
afterAll(() => t.close());

describe('OAuth switched off (the default)', () => {
  it('is off unless OAUTH_ENABLED=true', () => {
    expect(t.config.oauthEnabled).toBe(false);
  });

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it.each([
    ['GET', '/authorize?response_type=code&client_id=x', {}, undefined],
    ['POST', '/authorize/consent', form, 'decision=approve'],
    ['POST', '/token', form, 'grant_type=authorization_code&code=x'],
    ['POST', '/revoke', form, 'token=x'],
    ['GET', '/token', {}, undefined],
    ['GET', '', {}, undefined],
    ['GET', '/.well-known/anything', {}, undefined],
  ])('%s /api/public/v1/oauth%s answers 404 oauth_not_enabled', async (method, path, headers, rawBody) => {
    const res = await t.request(method, `/api/public/v1/oauth${path}`, { headers: { ...headers, ...basicAuth(app.clientId, app.clientSecret) }, rawBody });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 404, code: 'oauth_not_enabled', title: 'Not Found' });
  });

  it('the authorization server metadata answers the same 404: no client discovers a flow that is off', async () => {
    const res = await t.request('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'oauth_not_enabled' });
    expect((await fetch(`${t.url}/.well-known/oauth-authorization-server`, { method: 'HEAD' })).status).toBe(404);
  });

  it('answers the same with a valid dashboard session', async () => {
    const res = await t.request('GET', `/api/public/v1/oauth/authorize?client_id=${app.clientId}`, { token: store.ownerToken });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('oauth_not_enabled');
  });

  it('does not honour OAuth access tokens, even ones issued while it was on', async () => {
    const { token } = await createOAuthAccessToken(store, 'test', ['public:read']);
    const res = await t.request('GET', '/api/public/v1/payments/supported-countries', { token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_token');
    expect(res.body.detail).toContain('OAuth is not enabled');
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
  });
});
