import { createHash } from 'node:crypto';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { makeImage, filePart, restUpload } from '../images/images';
import { getAuthorize, REDIRECT_URI, registerApp } from '../oauth/helpers';

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  a = await createStoreFixture();
});
afterAll(() => t.close());

const KIB = 1024;

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every kind of response: JSON, problems, GraphQL, GraphiQL, redirects, uploads, OpenAPI, early 413s, OAuth', async () => {
    const uploaded = await restUpload(t, a.storeId, a.ownerToken, [filePart(await makeImage('png', 8, 8), 'a.png', 'image/png')]);
    expect(uploaded.status).toBe(201);
    const responses = await Promise.all([
      t.request('GET', '/healthz'),
      t.request('GET', '/readyz'),
      t.request('GET', '/nope'),
      t.request('GET', '/api/openapi.json'),
      t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products`, { token: a.ownerToken }),
      t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products`),
      t.request('POST', `/api/v1/merchant/stores/${a.storeId}/products`, { token: a.ownerToken, rawBody: 'x'.repeat(1100 * KIB), headers: { 'content-type': 'application/json' } }),
      t.request('GET', '/api/public/v1/products'),
      t.graphql('{ __typename }'),
      t.graphql('{ viewer { id } }', undefined, { token: 'svc_dash_not_a_token' }),
      t.request('GET', '/graphql', { headers: { accept: 'text/html' } }),
      t.request('GET', new URL(uploaded.body.data.url).pathname),
      t.request('POST', '/api/public/v1/oauth/token', { rawBody: 'grant_type=nothing', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      fetch(`${t.url}/`, { redirect: 'manual' }).then((r) => ({ status: r.status, headers: r.headers })),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 404, 200, 200, 401, 413, 401, 200, 401, 200, 200, 401, 302]);
    for (const r of responses) expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('GraphiQL (GET /graphql in a browser)', () => {
  let page: Awaited<ReturnType<TestServer['request']>>;
  let policy: Map<string, string[]>;
  beforeAll(async () => {
    page = await t.request('GET', '/graphql', { headers: { accept: 'text/html,application/xhtml+xml' } });
    policy = new Map(
      (page.headers.get('content-security-policy') ?? '').split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values] as [string, string[]];
      }),
    );
  });

  it('may not be framed', () => {
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('has a strict policy: nothing by default, its own inline script by hash and no other script, no eval, no base or form targets', () => {
    expect(policy.get('default-src')).toEqual(["'none'"]);
    const scriptSrc = policy.get('script-src')!;
    expect(scriptSrc.every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s))).toBe(true);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('still lets its bundled assets load: every inline script is admitted by its hash, nothing comes from elsewhere', () => {
    const scripts = [...page.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(policy.get('script-src')).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    // No script, stylesheet or font fetched from anywhere (no CDN): everything is inline or a data:/blob: URL.
    expect(page.text).not.toMatch(/<script[^>]+src=/);
    expect(page.text).not.toMatch(/<link[^>]+rel="?stylesheet/);
    // The editors' workers are started from blob: URLs built from the bundled code.
    expect(page.text).toContain('URL.createObjectURL(blob)');
    expect(policy.get('worker-src')).toEqual(['blob:']);
    // The favicon is a data: URL.
    expect(page.text).toMatch(/<link rel="icon" href="data:/);
    expect(policy.get('img-src')).toContain('data:');
  });

  it('applies to the page only: a GraphQL GET for JSON runs as before', async () => {
    const res = await t.request('GET', '/graphql?query=%7B__typename%7D', { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('the OAuth consent page', () => {
  it('may not be framed and runs no script at all', async () => {
    const app = await registerApp(t, a.ownerToken);
    const res = await getAuthorize(
      t,
      { response_type: 'code', client_id: app.clientId, redirect_uri: REDIRECT_URI, scope: 'public:read', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256', store_id: a.storeId },
      a.ownerToken,
    );
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.text).not.toContain('<script');
  });
});
