import { createHash } from 'node:crypto';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { consentForm, OAUTH, postForm, REDIRECT_URI, registerApp, type RegisteredApp } from './helpers';

/**
 * The authorization pages in a browser: with no bearer header, the dashboard's
 * session cookie signs the user in; signed out, a navigation goes to the
 * dashboard's sign-in page and back; the consent form carries the session's
 * CSRF token; errors are pages. (The click-through in a real browser is in
 * test/dashboard.)
 */
let t: TestServer;
let store: StoreFixture;
let app: RegisteredApp;
let email: string;
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  app = await registerApp(t, store.ownerToken, { name: 'Stock sync' });
  email = (await db().user.findUniqueOrThrow({ where: { id: store.ownerId } })).email;
});
afterAll(() => t.close());

const query = () =>
  new URLSearchParams({
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'public:read',
    state: 'st-9',
    code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
    code_challenge_method: 'S256',
    store_id: store.storeId,
  });

async function sessionCookie() {
  const res = await t.graphql('mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }', { e: email, p: 'correct horse battery' });
  return { cookie: /^svc_session=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0], csrfToken: res.body.data.signIn.csrfToken as string };
}

const get = (path: string, headers: Record<string, string>) => fetch(`${t.url}${path}`, { headers, redirect: 'manual' });

describe('OAuth authorization in a browser, with the dashboard session', () => {
  it('signed out, a navigation is sent to the dashboard sign-in with the way back; an API client still gets 401', async () => {
    const path = `${OAUTH}/authorize?${query()}`;
    const res = await get(path, BROWSER);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!, t.url);
    expect(location.pathname).toBe('/dashboard/sign-in');
    expect(location.searchParams.get('return_to')).toBe(path);
    const api = await get(path, {});
    expect(api.status).toBe(401);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
  });

  it('signed in by the cookie: the consent page carries the session CSRF token; posting it approves (303 with a code)', async () => {
    const { cookie, csrfToken } = await sessionCookie();
    const page = await get(`${OAUTH}/authorize?${query()}`, { ...BROWSER, cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Stock sync');
    const form = consentForm(html);
    expect(form.get('csrf_token')).toBe(csrfToken);
    form.set('decision', 'approve');
    const res = await postForm(t, '/authorize/consent', form, { ...BROWSER, cookie });
    expect(res.status).toBe(303);
    const callback = new URL(res.location!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('code')).toMatch(/^svc_oac_/);
    expect(callback.searchParams.get('state')).toBe('st-9');
  });

  it('a consent post with the cookie but without the session CSRF token is refused with a page, and grants nothing', async () => {
    const { cookie } = await sessionCookie();
    const other = await sessionCookie();
    const page = await get(`${OAUTH}/authorize?${query()}`, { ...BROWSER, cookie });
    const form = consentForm(await page.text());
    form.set('decision', 'approve');
    const before = await db().oAuthGrant.count();
    for (const csrf of [null, other.csrfToken]) {
      if (csrf === null) form.delete('csrf_token');
      else form.set('csrf_token', csrf);
      const res = await postForm(t, '/authorize/consent', form, { ...BROWSER, cookie });
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toContain('csrf_token_invalid');
      expect(res.location).toBeNull();
    }
    expect(await db().oAuthGrant.count()).toBe(before);
  });

  it('errors before the redirect URI is trusted are pages for a browser (and problems for an API client)', async () => {
    const bad = query();
    bad.set('client_id', 'nope');
    const res = await get(`${OAUTH}/authorize?${bad}`, BROWSER);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('client_id does not name a registered OAuth app');
    expect(html).toContain('/docs/errors/invalid_parameter');
    const api = await get(`${OAUTH}/authorize?${bad}`, {});
    expect(api.headers.get('content-type')).toBe('application/problem+json');
  });
});
