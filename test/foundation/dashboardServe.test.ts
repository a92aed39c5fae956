import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/harness';
import { root } from '../helpers/serverProcess';

/**
 * /dashboard as a browser fetches it: the app's page for every path under it
 * (the app routes in the browser), never cached and under a strict policy; its
 * hashed assets immutable; nothing outside the build reachable.
 */
const dist = path.join(root, 'dashboard', 'dist');
let t: TestServer;
let asset: string;

beforeAll(async () => {
  // `npm install` builds it; a checkout that skipped that builds it here.
  if (!existsSync(path.join(dist, 'index.html'))) execFileSync('npm', ['run', '-s', 'dashboard:build'], { cwd: root, stdio: 'ignore' });
  // The entry script the built page loads (other chunks load when their screen is first opened).
  asset = /<script type="module"[^>]*src="\/dashboard\/assets\/([^"]+\.js)"/.exec(readFileSync(path.join(dist, 'index.html'), 'utf8'))![1]!;
  t = await startTestServer();
}, 180_000);
afterAll(() => t?.close());

const get = (p: string, headers: Record<string, string> = {}) => fetch(t.url + p, { headers, redirect: 'manual' });

describe('/dashboard', () => {
  it.each(['/dashboard', '/dashboard/', '/dashboard/products/123', '/dashboard/sign-in?return_to=%2Fapi'])('%s: the app page, not cached, strict policy, not frameable', async (p) => {
    const res = await get(p);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).toContain(`/dashboard/assets/${asset}`);
    // Nothing inline for the policy to refuse: scripts come from files.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('assets: immutable for a year, gzipped when accepted, revalidated by ETag; an unknown one is 404', async () => {
    const res = await get(`/dashboard/assets/${asset}`, { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // fetch decodes the body itself; the header says it came compressed.
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const body = await res.text();
    expect(body.length).toBeGreaterThan(1000);
    const etag = res.headers.get('etag')!;
    // The ETag is of the gzip bytes: it revalidates a request that gets those bytes again.
    expect((await get(`/dashboard/assets/${asset}`, { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304);
    expect((await get('/dashboard/assets/nope-123.js')).status).toBe(404);
  });

  it('nothing outside the build: encoded traversal and odd names are 404, other methods 405', async () => {
    for (const p of ['/dashboard/assets/..%2F..%2F..%2Fpackage.json', '/dashboard/assets/%2e%2e%2fpackage.json', '/dashboard/assets/.hidden']) {
      const res = await get(p);
      expect({ p, status: res.status }).toEqual({ p, status: 404 });
      expect(await res.text()).not.toContain('store-catalog-service');
    }
    // A path that is no file of the build is the app's page, never a file from elsewhere.
    const up = await get('/dashboard/..%2Fpackage.json');
    expect(await up.text()).not.toContain('"name": "store-catalog-service"');
    const post = await fetch(`${t.url}/dashboard`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
