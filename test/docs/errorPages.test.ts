import { connect } from 'node:net';
import { ERROR_CATALOG } from '../../src/api/docs/errorCatalog';
import { type ErrorCode, STATUS_BY_CODE } from '../../src/platform/errors';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

let t: TestServer;
let s: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'false' });
  s = await createStoreFixture();
});
afterAll(() => t.close());

const CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];
/** What a reader sees of a page: tags out, entities decoded, spaces collapsed. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
/** The catalog's text as the page shows it (backquotes become code spans). */
const shown = (s: string) => s.replace(/`/g, '');

describe('every stable error code has a page that explains it', () => {
  it('the catalog explains every code in its own words (no shared placeholder text)', () => {
    expect(Object.keys(ERROR_CATALOG).sort()).toEqual([...CODES].sort());
    for (const field of ['meaning', 'action'] as const) {
      const texts = CODES.map((c) => ERROR_CATALOG[c][field]);
      for (const [i, value] of texts.entries()) {
        expect({ code: CODES[i], long: value.length >= 30, placeholder: /\b(TODO|TBD|lorem|placeholder)\b/i.test(value) }).toEqual({ code: CODES[i], long: true, placeholder: false });
      }
      // Codes that share a status still get their own explanation.
      expect(new Set(texts).size).toBeGreaterThanOrEqual(CODES.length - 2);
    }
  });

  it.each(CODES)('GET /docs/errors/%s: 200 HTML with its status, meaning and what to do', async (code) => {
    const res = await t.request('GET', `/docs/errors/${code}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(res.headers.get('content-security-policy')).not.toMatch(/script-src/);
    const page = text(res.text);
    expect(res.text).toContain(`<code id="code">${code}</code>`);
    expect(res.text).toContain(`<strong id="status">${STATUS_BY_CODE[code]}</strong>`);
    expect(page).toContain(shown(ERROR_CATALOG[code].meaning));
    expect(page).toContain(shown(ERROR_CATALOG[code].action));
    // The example is the body a client gets: a problem document, or GraphQL's error shape for a code only /graphql answers.
    // (invalid_variables' extensions carry its field errors after the code.)
    if (ERROR_CATALOG[code].graphqlOnly) expect(page).toContain(`{ "errors": [ { "message": ${JSON.stringify(ERROR_CATALOG[code].example)}, "extensions": { "code": "${code}"`);
    else expect(page).toContain(`"type": "${t.url}/docs/errors/${code}"`);
    expect(res.text).not.toMatch(/<script/i);
  });

  it('GET /docs/errors lists every code with a link to its page', async () => {
    const res = await t.request('GET', '/docs/errors');
    expect(res.status).toBe(200);
    for (const code of CODES) expect(res.text).toContain(`<a href="/docs/errors/${code}"><code>${code}</code></a>`);
    expect((await t.request('GET', '/docs/errors/')).status).toBe(200);
    expect((await t.request('HEAD', '/docs/errors')).text).toBe('');
  });

  it('an unknown code is a 404 HTML page that escapes what it repeats; other methods are 405 with Allow', async () => {
    const res = await t.request('GET', '/docs/errors/no_such_code');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('No such error code');
    const hostile = await t.request('GET', '/docs/errors/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(hostile.status).toBe(404);
    expect(hostile.text).not.toContain('<script>');
    for (const path of ['/docs/errors/toString', '/docs/errors/__proto__', '/docs/errors/constructor', '/docs/nothing', '/docs/assets/scalar.js']) {
      const r = await t.request('GET', path);
      expect({ path, status: r.status, html: r.headers.get('content-type') }).toEqual({ path, status: 404, html: 'text/html; charset=utf-8' });
    }
    const post = await t.request('POST', '/docs/errors/not_found', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('every problem the service emits points at a page it serves', () => {
  /** Follows `type` exactly as a client would and checks the page is the one for `code`. */
  async function resolves(problem: { type: string; code: string }) {
    expect(problem.type).toBe(`${t.url}/docs/errors/${problem.code}`);
    const res = await fetch(problem.type);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`<code id="code">${problem.code}</code>`);
  }

  it('on the merchant API, the public API, OAuth and unknown routes', async () => {
    const base = `/api/v1/merchant/stores/${s.storeId}/products`;
    const problems = [
      await t.request('GET', base), // unauthenticated
      await t.request('GET', base, { token: 'svc_dash_nottoken' }), // invalid_token
      await t.request('GET', `${base}/00000000-0000-0000-0000-000000000000`, { token: s.ownerToken }), // not_found
      await t.request('POST', base, { token: s.ownerToken, body: { name: 'x', price: 1 } }), // category_required
      await t.request('POST', base, { token: s.ownerToken, body: { name: '', price: -1, category_slugs: ['x'] } }), // validation_failed
      await t.request('POST', base, { token: s.ownerToken, rawBody: '{"name":', headers: { 'content-type': 'application/json' } }), // malformed_json
      await t.request('GET', `${base}?per_page=1000`, { token: s.ownerToken }), // validation_failed (parameter)
      await t.request('GET', '/api/v1/nothing-here', { token: s.ownerToken }), // route_not_found
      await t.request('GET', '/api/public/v1/products'), // unauthenticated (public realm)
      await t.request('GET', '/api/public/v1/products', { headers: { 'x-api-key': 'svc_test_bogus' } }), // invalid_api_key
      await t.request('GET', '/api/public/v1/oauth/authorize'), // oauth_not_enabled
      await t.request('DELETE', '/metrics'), // method_not_allowed
      await t.request('GET', '/nowhere'), // route_not_found outside /api
    ];
    const codes = problems.map((p) => p.body?.code);
    expect(codes).toEqual(expect.arrayContaining(['unauthenticated', 'invalid_token', 'not_found', 'category_required', 'validation_failed', 'malformed_json', 'route_not_found', 'invalid_api_key', 'oauth_not_enabled', 'method_not_allowed']));
    for (const p of problems) {
      expect(p.headers.get('content-type')).toBe('application/problem+json');
      await resolves(p.body);
    }
  });

  it('behind PUBLIC_BASE_URL the type is on that base', async () => {
    const behind = await startTestServer({ PUBLIC_BASE_URL: 'https://catalog.example.com/' });
    try {
      const res = await behind.request('GET', '/api/v1/merchant/stores/x/products');
      expect(res.body.type).toBe('https://catalog.example.com/docs/errors/unauthenticated');
    } finally {
      await behind.close();
    }
  });

  it('for a request node refuses before any handler (headers too large): a relative reference to the page', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const url = new URL(t.url);
      const socket = connect(Number(url.port), url.hostname, () => socket.write(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 431, code: 'headers_too_large', type: '/docs/errors/headers_too_large' });
    await resolves({ ...body, type: new URL(body.type, t.url).href });
  });
});
