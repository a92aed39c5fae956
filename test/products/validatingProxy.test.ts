import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createKey } from '../public/helpers';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { randomPort } from '../helpers/serverProcess';
import { startTestServer, type TestServer } from '../helpers/harness';
import { productsPath } from './helpers';

/**
 * A partner's view: Stoplight Prism's validating proxy, with the document the service publishes, in front of the
 * running service, over a tour of both APIs. With --errors the proxy refuses a request the document calls
 * invalid (422) and answers 500 for a response that violates it; every response also carries the violations it
 * found in sl-violations. The tour must meet none.
 */

const root = path.resolve(__dirname, '../..');
let t: TestServer;
let s: StoreFixture;
let dir: string;
let prism: ChildProcess;
let proxy: string;
let output = '';

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture();
  dir = mkdtempSync(path.join(tmpdir(), 'prism-'));
  const doc = path.join(dir, 'openapi.json');
  writeFileSync(doc, (await t.request('GET', '/api/openapi.json')).text);
  const port = randomPort();
  proxy = `http://127.0.0.1:${port}`;
  prism = spawn(process.execPath, [path.join(root, 'node_modules/@stoplight/prism-cli/dist/index.js'), 'proxy', doc, t.url, '--port', String(port), '--errors', '--verboseLevel', 'warn'], {
    cwd: dir,
    env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  prism.stdout!.on('data', (d) => (output += d));
  prism.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (prism.exitCode !== null) throw new Error(`prism exited: ${output}`);
    const up = await fetch(`${proxy}/api/public/v1/products`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`prism did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 90_000);

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((r) => prism.once('exit', r));
    prism.kill('SIGTERM');
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

interface Call {
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One request through the proxy: its status, body, and what the proxy found wrong with the exchange. */
async function viaProxy(c: Call) {
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  if (c.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(proxy + c.path, { method: c.method, headers, body: c.body === undefined ? undefined : JSON.stringify(c.body) });
  const text = await res.text();
  const violations = res.headers.get('sl-violations');
  const refusedByProxy = /stoplight\.io\/prism/.test(text);
  return { status: res.status, body: text ? JSON.parse(text) : undefined, found: refusedByProxy || violations ? `${c.method} ${c.path} → ${res.status}: ${violations ?? ''} ${text}` : undefined };
}

it('finds no violation over a tour of the merchant API, the public API with both kinds of key, the change history and errors', async () => {
  const found: string[] = [];
  const call = async (c: Call) => {
    const r = await viaProxy(c);
    if (r.found) found.push(r.found);
    return r;
  };
  const token = s.ownerToken;
  const base = productsPath(s.storeId);

  // Merchant CRUD.
  const created = await call({ method: 'POST', path: base, token, body: { name: 'Boots', price: 89, category_slugs: [s.categories[0]] } });
  expect(created.status).toBe(201);
  const id = created.body.data.id as string;
  await call({ method: 'GET', path: `${base}/${id}`, token });
  await call({ method: 'PUT', path: `${base}/${id}`, token, body: { price: 79.5, tags: ['winter'] }, headers: { 'if-match': '"v1"' } });
  await call({ method: 'POST', path: `${base}/${id}/publish`, token });
  await call({ method: 'GET', path: `${base}?is_active=true&sort=-price&per_page=10&tags=winter`, token });
  const other = await call({ method: 'POST', path: base, token, body: { name: 'Scarf', price: '12.00', inventory_quantity: 2, category_slugs: [s.categories[1]] } });
  await call({ method: 'DELETE', path: `${base}/${other.body.data.id}`, token });

  // Change history: created, updated, published, deleted.
  await call({ method: 'GET', path: `/api/v1/merchant/stores/${s.storeId}/changes`, token });
  await call({ method: 'GET', path: `${base}/${id}/changes`, token });

  // The public API: a publishable key reads the storefront, a secret key the whole catalog.
  const publishable = (await createKey(t, s, { type: 'publishable', mode: 'live' })).secret;
  const secret = (await createKey(t, s, { type: 'secret', mode: 'live', scopes: ['products:read', 'products:write'] })).secret;
  await call({ method: 'GET', path: '/api/public/v1/products?search=boots', token: publishable });
  await call({ method: 'GET', path: `/api/public/v1/products/${id}`, token: publishable });
  await call({ method: 'GET', path: '/api/public/v1/products?is_active=false&low_stock=true&scheduled=false&sort=inventory_quantity', token: secret });
  await call({ method: 'GET', path: `/api/public/v1/products/${id}`, token: secret });
  await call({ method: 'GET', path: '/api/public/v1/payments/supported-countries', token: publishable, headers: { 'x-service-mode': 'live' } });

  // Errors, each answered by the service (a valid request the service refuses).
  expect((await call({ method: 'GET', path: `${base}/00000000-0000-4000-8000-000000000000`, token })).status).toBe(404);
  expect((await call({ method: 'POST', path: base, token, body: { name: 'No category', price: 5, category_slugs: ['nope'] } })).status).toBe(422);
  // No credential: the document calls the request invalid, so the proxy refuses it itself, as the service does.
  const anonymous = await viaProxy({ method: 'GET', path: '/api/public/v1/products' });
  expect([anonymous.status, anonymous.body.type]).toEqual([401, expect.stringContaining('stoplight.io/prism/errors#UNAUTHORIZED')]);
  expect((await t.request('GET', '/api/public/v1/products')).status).toBe(401);
  expect((await call({ method: 'GET', path: '/api/public/v1/products', token: publishable, headers: { 'x-service-mode': 'test' } })).status).toBe(403);
  expect((await call({ method: 'GET', path: `/api/public/v1/products/00000000-0000-4000-8000-000000000000`, token: publishable })).status).toBe(404);
  expect((await call({ method: 'PUT', path: `${base}/${id}`, token, body: { price: 1 }, headers: { 'if-match': '"v1"' } })).status).toBe(412);

  expect(found).toEqual([]);
}, 120_000);
