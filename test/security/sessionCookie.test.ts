import { cookieIsSecure, sessionSetCookie } from '../../src/access/auth/sessionCookie';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * The dashboard's session cookie, through the real handler: signIn sets an
 * HttpOnly, SameSite=Lax cookie (Secure unless on loopback over HTTP), the
 * cookie signs /graphql requests in, a mutation made with it needs the
 * session's X-CSRF-Token, signOut ends it, and the merchant REST API does not
 * take it, but for the exports the dashboard downloads (with the X-CSRF-Token).
 */
let t: TestServer;
let a: StoreFixture;
let email: string;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  t = await startTestServer({ DASHBOARD_SESSION_HOURS: '12' });
  a = await createStoreFixture();
  email = (await db().user.findUniqueOrThrow({ where: { id: a.ownerId } })).email;
});
afterAll(() => t?.close());

const SIGN_IN = 'mutation($email: String!, $password: String!) { signIn(email: $email, password: $password) { csrfToken expiresAt user { email } } }';
const SESSION = '{ dashboardSession { csrfToken user { email } } viewer { email } }';
const CREATE_CATEGORY = 'mutation($storeId: ID!, $slug: String!) { createCategory(storeId: $storeId, input: { slug: $slug, name: "Made with the cookie" }) { slug } }';
const codeOf = (res: { body: any }) => res.body?.errors?.[0]?.extensions?.code;

async function signIn(headers: Record<string, string> = {}) {
  const res = await t.graphql(SIGN_IN, { email, password: PASSWORD }, { headers });
  expect(res.body.errors).toBeUndefined();
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = /^svc_session=([^;]+)/.exec(setCookie)?.[0];
  expect(cookie).toBeDefined();
  return { res, setCookie, cookie: cookie!, csrfToken: res.body.data.signIn.csrfToken as string };
}

describe('dashboard session cookie', () => {
  it('signIn sets an HttpOnly, SameSite=Lax cookie for the session length; not Secure on loopback over HTTP, Secure elsewhere', async () => {
    const { res, setCookie, cookie } = await signIn();
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/Max-Age=43200/);
    expect(setCookie).not.toMatch(/Secure/i);
    expect(cookie).toMatch(/^svc_session=svc_dash_/);
    expect(Date.parse(res.body.data.signIn.expiresAt) - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    // The token is stored as a session of the user, named so in the token list.
    expect(await db().dashboardToken.count({ where: { userId: a.ownerId, name: 'dashboard session', revokedAt: null } })).toBeGreaterThan(0);

    // Behind TLS (PUBLIC_BASE_URL https, or any host that is not loopback) the cookie is Secure.
    expect(cookieIsSecure('https://shop.example', '127.0.0.1:4000')).toBe(true);
    expect(cookieIsSecure(undefined, 'shop.example')).toBe(true);
    expect(cookieIsSecure(undefined, 'localhost:4000')).toBe(false);
    expect(sessionSetCookie('svc_dash_x', new Date(60_000), new Date(0), true)).toMatch(/;\s*Secure/);
  });

  it('signIn answers as the signed-in user: their memberships show in its selection', async () => {
    const res = await t.graphql('mutation($email: String!, $password: String!) { signIn(email: $email, password: $password) { user { memberships { role store { id } } } } }', { email, password: PASSWORD });
    expect(res.body.data.signIn.user.memberships).toEqual([{ role: 'owner', store: { id: a.storeId } }]);
  });

  it('the cookie signs /graphql in: dashboardSession gives the CSRF token, queries need nothing more', async () => {
    const { cookie, csrfToken } = await signIn();
    const res = await t.graphql(SESSION, {}, { headers: { cookie } });
    expect(res.body).toEqual({ data: { dashboardSession: { csrfToken, user: { email } }, viewer: { email } } });
    const signedOut = await t.graphql(SESSION, {});
    expect(signedOut.body).toEqual({ data: { dashboardSession: null, viewer: null } });
  });

  it('a mutation with the cookie runs only with the session\'s X-CSRF-Token: none or another session\'s is 403-coded csrf_token_invalid and writes nothing', async () => {
    const mine = await signIn();
    const other = await signIn();
    const count = () => db().category.count({ where: { storeId: a.storeId } });
    const before = await count();
    const missing = await t.graphql(CREATE_CATEGORY, { storeId: a.storeId, slug: 'no-token' }, { headers: { cookie: mine.cookie } });
    expect(codeOf(missing)).toBe('csrf_token_invalid');
    expect(missing.body.errors[0].message).toMatch(/X-CSRF-Token/);
    const wrong = await t.graphql(CREATE_CATEGORY, { storeId: a.storeId, slug: 'wrong-token' }, { headers: { cookie: mine.cookie, 'x-csrf-token': other.csrfToken } });
    expect(codeOf(wrong)).toBe('csrf_token_invalid');
    expect(await count()).toBe(before);

    const ok = await t.graphql(CREATE_CATEGORY, { storeId: a.storeId, slug: 'with-token' }, { headers: { cookie: mine.cookie, 'x-csrf-token': mine.csrfToken } });
    expect(ok.body).toEqual({ data: { createCategory: { slug: 'with-token' } } });
    // A bearer token needs no CSRF token: it is never sent by the browser on its own.
    const bearer = await t.graphql(CREATE_CATEGORY, { storeId: a.storeId, slug: 'with-bearer' }, { token: a.ownerToken, headers: { cookie: mine.cookie } });
    expect(bearer.body).toEqual({ data: { createCategory: { slug: 'with-bearer' } } });
  });

  it('an upload (multipart) with the cookie and without the CSRF token is refused before its body is read', async () => {
    const { cookie } = await signIn();
    const boundary = 'sessionBoundary';
    const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = part('operations', JSON.stringify({ query: 'mutation { signOut }' })) + part('map', '{}') + `--${boundary}--\r\n`;
    const res = await t.request('POST', '/graphql', { rawBody: body, headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-graphql-yoga-csrf': '1' } });
    expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 403, code: 'csrf_token_invalid' });
  });

  it('signIn needs no CSRF token even with a stale cookie, and ends the session the browser had', async () => {
    const first = await signIn();
    const second = await signIn({ cookie: first.cookie });
    expect(second.cookie).not.toBe(first.cookie);
    const stale = await t.graphql(SESSION, {}, { headers: { cookie: first.cookie } });
    expect(stale.body.data.dashboardSession).toBeNull();
    // The response clears the cookie that no longer works.
    expect(stale.headers.get('set-cookie')).toMatch(/^svc_session=;.*Max-Age=0/);
  });

  it('signOut revokes the session: the same cookie is anonymous afterwards', async () => {
    const { cookie, csrfToken } = await signIn();
    const out = await t.graphql('mutation { signOut }', {}, { headers: { cookie, 'x-csrf-token': csrfToken } });
    expect(out.body).toEqual({ data: { signOut: true } });
    expect(out.headers.get('set-cookie')).toMatch(/^svc_session=;.*Max-Age=0/);
    const after = await t.graphql(SESSION, {}, { headers: { cookie } });
    expect(after.body.data).toEqual({ dashboardSession: null, viewer: null });
    // Signing out without a session says so and still clears the cookie.
    const none = await t.graphql('mutation { signOut }', {});
    expect(none.body).toEqual({ data: { signOut: false } });
  });

  it('bad credentials: invalid_credentials, no cookie; one signIn per document', async () => {
    const bad = await t.graphql(SIGN_IN, { email, password: 'wrong password!' });
    expect(codeOf(bad)).toBe('invalid_credentials');
    expect(bad.headers.get('set-cookie')).toBeNull();
    const two = await t.graphql(`mutation { a: signIn(email: "${email}", password: "${PASSWORD}") { csrfToken } b: signIn(email: "${email}", password: "${PASSWORD}") { csrfToken } }`, {});
    expect(codeOf(two)).toBe('too_many_logins');
  });

  it('the merchant REST API does not take the cookie: 401 without a bearer token', async () => {
    const { cookie, csrfToken } = await signIn();
    const res = await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products`, { headers: { cookie, 'x-csrf-token': csrfToken } });
    expect(res.status).toBe(401);
  });

  it('the exports, which the dashboard downloads, take the cookie only with the session\'s X-CSRF-Token', async () => {
    const { cookie, csrfToken } = await signIn();
    const path = `/api/v1/merchant/stores/${a.storeId}/products/export?format=csv`;
    // A link or a form of another site's page sends the cookie alone.
    expect((await t.request('GET', path, { headers: { cookie } })).status).toBe(401);
    expect((await t.request('GET', path, { headers: { cookie, 'x-csrf-token': 'another-sessions-token' } })).status).toBe(401);
    const ok = await t.request('GET', path, { headers: { cookie, 'x-csrf-token': csrfToken } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(ok.text.split('\n')[0]).toMatch(/^id,sku,name,/);
    // Only GET: an import is not a download.
    expect((await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/products/imports`, { headers: { cookie, 'x-csrf-token': csrfToken } })).status).toBe(401);
  });
});
