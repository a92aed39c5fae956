import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * What a page on another origin can make a browser send without a CORS
 * preflight: GET, and POST with a text/plain, form-urlencoded or multipart
 * body and no custom header. None of it may run a mutation on /graphql.
 */
let t: TestServer;
let a: StoreFixture;
let email: string;
const PASSWORD = 'correct horse battery';
const LOGIN = () => `mutation { login(email: "${email}", password: "${PASSWORD}") { token } }`;
const EVIL = 'https://evil.example';

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  email = (await db().user.findUniqueOrThrow({ where: { id: a.ownerId } })).email;
});
afterAll(() => t?.close());

const loginTokens = () => db().dashboardToken.count({ where: { userId: a.ownerId, name: 'login' } });
const codeOf = (res: { body: any }) => res.body?.errors?.[0]?.extensions?.code;

function multipart(operations: unknown, boundary = 'csrfBoundary1') {
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return { body: part('operations', JSON.stringify(operations)) + part('map', '{}') + `--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('CSRF on /graphql', () => {
  it('refuses application/x-www-form-urlencoded with 415, header or not, and runs nothing', async () => {
    const before = await loginTokens();
    for (const extra of [{}, { 'x-graphql-yoga-csrf': '1' }] as Record<string, string>[]) {
      const res = await t.request('POST', '/graphql', { rawBody: new URLSearchParams({ query: LOGIN() }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL, ...extra } });
      expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 415, code: 'unsupported_media_type' });
    }
    expect(await loginTokens()).toBe(before);
  });

  it('refuses a multipart POST without a CSRF header (403 csrf_header_required) before reading it, and runs it with one', async () => {
    const before = await loginTokens();
    const { body, contentType } = multipart({ query: LOGIN() });
    const refused = await t.request('POST', '/graphql', { rawBody: body, headers: { 'content-type': contentType, origin: EVIL } });
    expect({ status: refused.status, code: codeOf(refused) }).toEqual({ status: 403, code: 'csrf_header_required' });
    expect(await loginTokens()).toBe(before);

    for (const header of ['x-graphql-yoga-csrf', 'apollo-require-preflight']) {
      const ok = await t.request('POST', '/graphql', { rawBody: body, headers: { 'content-type': contentType, [header]: '1' } });
      expect(ok.status).toBe(200);
      expect(ok.body.data.login.token).toMatch(/^svc_dash_/);
    }
    expect(await loginTokens()).toBe(before + 2);
  });

  it('refuses text/plain and untyped POSTs without the header', async () => {
    const before = await loginTokens();
    const json = JSON.stringify({ query: LOGIN() });
    const plain = await t.request('POST', '/graphql', { rawBody: json, headers: { 'content-type': 'text/plain;charset=UTF-8', origin: EVIL } });
    expect({ status: plain.status, code: codeOf(plain) }).toEqual({ status: 403, code: 'csrf_header_required' });
    const untyped = await fetch(`${t.url}/graphql`, { method: 'POST', body: new Blob([json]) });
    expect(untyped.status).toBe(403);
    expect(await loginTokens()).toBe(before);
  });

  it('refuses a mutation over GET (405) and still answers queries over GET', async () => {
    const before = await loginTokens();
    const mutation = await t.request('GET', `/graphql?query=${encodeURIComponent(LOGIN())}`, { headers: { accept: 'application/json', origin: EVIL } });
    expect(mutation.status).toBe(405);
    expect(mutation.headers.get('allow')).toBe('POST');
    expect(await loginTokens()).toBe(before);
    const query = await t.request('GET', `/graphql?query=${encodeURIComponent('{ viewer { id } }')}`, { token: a.ownerToken, headers: { accept: 'application/json' } });
    expect(query.status).toBe(200);
    expect(query.body.data.viewer.id).toBe(a.ownerId);
  });

  it('runs application/json POSTs (what GraphQL clients and GraphiQL send) without any extra header', async () => {
    const res = await t.graphql('{ viewer { id } }', undefined, { token: a.ownerToken });
    expect(res.status).toBe(200);
    expect(res.body.data.viewer.id).toBe(a.ownerId);
  });
});

describe('CORS', () => {
  it('lets no other origin in to /graphql by default, and never with credentials', async () => {
    const preflight = await t.request('OPTIONS', '/graphql', {
      headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const post = await t.graphql('{ __typename }', undefined, { headers: { origin: EVIL } });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    expect(post.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lets the origins in GRAPHQL_CORS_ORIGINS in, without credentials, and no other', async () => {
    const dashboard = 'https://dashboard.example';
    const s = await startTestServer({ GRAPHQL_CORS_ORIGINS: `${dashboard}, https://admin.example` });
    try {
      const preflight = await s.request('OPTIONS', '/graphql', {
        headers: { origin: dashboard, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(dashboard);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const post = await s.graphql('{ __typename }', undefined, { headers: { origin: dashboard } });
      expect(post.headers.get('access-control-allow-origin')).toBe(dashboard);
      expect(post.headers.get('access-control-allow-credentials')).toBeNull();
      const evil = await s.request('OPTIONS', '/graphql', { headers: { origin: EVIL, 'access-control-request-method': 'POST' } });
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('gives the public API to any origin as `*`, never reflected and never with credentials', async () => {
    for (const method of ['OPTIONS', 'GET']) {
      const res = await t.request(method, '/api/public/v1/products', { headers: { origin: EVIL, 'access-control-request-method': 'GET' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});
