import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import pino from 'pino';
import { createApp } from '../../src/app';
import { db } from '../../src/platform/db/client';
import { fingerprintOf, IDEMPOTENCY_TTL_MS, pruneIdempotencyKeys } from '../../src/api/idempotency';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { startServer, type ServerProcess } from '../helpers/serverProcess';
import { newTempDir, testDatabaseUrl, withDatabase } from '../helpers/templates';
import { testWorker } from '../helpers/webhooks';
import { filePart, form, makeImage, uploadPath } from '../images/images';
import { createKey, TestClock } from '../public/helpers';

/**
 * Idempotency keys (issue 12, item 13), through the real HTTP handler, with a
 * second instance on the same database: on PostgreSQL a second service process
 * (its own pool), on the embedded database, which one process owns, a second
 * app in this process. Keys live in the database, so either instance answers
 * a retry of a request the other one served.
 */

const onPostgres = !!testDatabaseUrl();
const clock = new TestClock();
let a: TestServer;
let b: { url: string; close: () => Promise<void> };
let s: StoreFixture;

/** Both instances serve one deployment, behind one public address: a replay renders the first result for it. */
const PUBLIC_BASE_URL = 'http://shop.example.test';

beforeAll(async () => {
  a = await startTestServer({ PUBLIC_BASE_URL }, { now: clock.now });
  s = await createStoreFixture();
  if (onPostgres) {
    const [{ name }] = await db().$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
    const proc: ServerProcess = await startServer(newTempDir('idem-b-'), {
      env: { DATABASE_URL: withDatabase(testDatabaseUrl()!, name), WORKER: 'false', SEED_DEMO: 'false', LOG_LEVEL: 'info', PUBLIC_BASE_URL },
    });
    b = { url: proc.url, close: async () => void (await proc.stop()) };
  } else {
    const app = createApp(a.config, { log: pino({ level: 'silent' }) });
    const server: Server = createServer((req, res) => void app.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    b = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await app.close();
      },
    };
  }
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

async function send(base: string, method: string, path: string, opts: { token?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.key !== undefined) headers['idempotency-key'] = opts.key;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
}

const newKey = () => `key-${randomBytes(8).toString('hex')}`;
const productsPath = () => `/api/v1/merchant/stores/${s.storeId}/products`;
const product = (name: string, extra: Record<string, unknown> = {}) => ({ name, price: 12.5, category_slugs: ['shoes'], ...extra });
const counts = async () => ({
  products: await db().product.count({ where: { storeId: s.storeId } }),
  events: await db().event.count({ where: { storeId: s.storeId } }),
});

describe('REST writes with an Idempotency-Key', () => {
  it('replays the first answer byte for byte on the other instance, with Idempotent-Replayed: true, writing nothing', async () => {
    const key = newKey();
    const first = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Replayed boots') });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await counts();

    // The same request, its keys in another order and spaced otherwise: the same request.
    const retry = await fetch(b.url + productsPath(), {
      method: 'POST',
      headers: { authorization: `Bearer ${s.ownerToken}`, 'idempotency-key': key, 'content-type': 'application/json' },
      body: `{ "category_slugs": ["shoes"],  "price": 12.5, "name": "Replayed boots" }`,
    });
    const bytes = Buffer.from(await retry.arrayBuffer());
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(bytes.equals(Buffer.from(first.text))).toBe(true);
    for (const h of ['etag', 'location', 'content-type']) expect(retry.headers.get(h)).toBe(first.headers.get(h));
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));

    const again = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Replayed boots') });
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await counts()).toEqual(before);
  });

  it('replays updates and deletions too (PUT, DELETE), including a 204 without a body', async () => {
    const created = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, body: product('To change') });
    const path = `${productsPath()}/${created.body.data.id}`;
    const putKey = newKey();
    const put = await send(a.url, 'PUT', path, { token: s.ownerToken, key: putKey, body: { description: 'first' } });
    expect(put.status).toBe(200);
    const putAgain = await send(b.url, 'PUT', path, { token: s.ownerToken, key: putKey, body: { description: 'first' } });
    expect({ status: putAgain.status, text: putAgain.text, etag: putAgain.headers.get('etag') }).toEqual({ status: 200, text: put.text, etag: put.headers.get('etag') });
    expect(putAgain.headers.get('idempotent-replayed')).toBe('true');

    const delKey = newKey();
    const del = await send(a.url, 'DELETE', path, { token: s.ownerToken, key: delKey });
    const delAgain = await send(b.url, 'DELETE', path, { token: s.ownerToken, key: delKey });
    expect(delAgain.status).toBe(del.status);
    expect(delAgain.text).toBe(del.text);
    expect(delAgain.headers.get('idempotent-replayed')).toBe('true');
    // Without the key the deletion runs again: the product is gone.
    expect((await send(a.url, 'DELETE', path, { token: s.ownerToken })).status).toBe(404);
  });

  it('refuses the same key with another request: 422 idempotency_key_reused (other body, other path, other method)', async () => {
    const key = newKey();
    expect((await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Original') })).status).toBe(201);
    const before = await counts();
    const otherBody = await send(b.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Original', { price: 13 }) });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.code).toBe('idempotency_key_reused');
    expect(otherBody.headers.get('content-type')).toBe('application/problem+json');
    const otherPath = await send(a.url, 'POST', `${productsPath()}?mode=live`, { token: s.ownerToken, key, body: product('Original') });
    expect(otherPath.body.code).toBe('idempotency_key_reused');
    const created = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, body: product('Another') });
    const otherMethod = await send(a.url, 'DELETE', `${productsPath()}/${created.body.data.id}`, { token: s.ownerToken, key });
    expect(otherMethod.status).toBe(422);
    expect(await db().product.count({ where: { storeId: s.storeId } })).toBe(before.products + 1);
  });

  it('answers 409 idempotency_key_in_progress while the first request holds the key, and takes over a reservation whose lock has passed', async () => {
    const key = newKey();
    const body = product('In flight');
    // Reserved by the same request still running on some instance (its lock runs for another minute).
    const now = new Date();
    const fingerprint = fingerprintOf({ method: 'POST', path: productsPath(), query: [], body });
    await db().idempotencyKey.create({
      data: {
        scope: `user:${s.ownerId}`, storeId: s.storeId, mode: 'live', key, fingerprint, reservation: '00000000-0000-4000-8000-000000000001',
        lockedUntil: new Date(now.getTime() + 60_000), createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      },
    });
    const before = await counts();
    const busy = await send(b.url, 'POST', productsPath(), { token: s.ownerToken, key, body });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('idempotency_key_in_progress');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await counts()).toEqual(before);

    // The request's instance died: once its lock has passed, a retry runs.
    await db().idempotencyKey.updateMany({ where: { key }, data: { lockedUntil: new Date(clock.now().getTime() - 1000) } });
    const retried = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect((await send(b.url, 'POST', productsPath(), { token: s.ownerToken, key, body })).text).toBe(retried.text);
  });

  it('runs concurrent identical requests on both instances once: one write, the others replay it or are told it is in progress', async () => {
    const key = newKey();
    const before = await counts();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(i % 2 ? a.url : b.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Concurrent') })),
    );
    const created = answers.filter((x) => x.status === 201);
    const fresh = created.filter((x) => x.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const x of created) expect(x.text).toBe(fresh[0].text);
    for (const x of answers.filter((x) => x.status !== 201)) expect([x.status, x.body.code]).toEqual([409, 'idempotency_key_in_progress']);
    expect(await counts()).toEqual({ products: before.products + 1, events: before.events + 1 });
  });

  (onPostgres ? it : it.skip)('answers 409 to a retry on the other instance while the first request is blocked in its write (PostgreSQL)', async () => {
    const key = newKey();
    const locker = new Client({ connectionString: withDatabase(testDatabaseUrl()!, (await db().$queryRaw<{ name: string }[]>`SELECT current_database() AS name`)[0].name) });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE products IN SHARE MODE'); // blocks every insert into products
      const first = send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Blocked') });
      for (let i = 0; i < 100 && (await db().idempotencyKey.count({ where: { key } })) === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const busy = await send(b.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Blocked') });
      expect([busy.status, busy.body.code]).toEqual([409, 'idempotency_key_in_progress']);
      await locker.query('COMMIT');
      const done = await first;
      expect(done.status).toBe(201);
      const replay = await send(b.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Blocked') });
      expect(replay.text).toBe(done.text);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    } finally {
      await locker.end();
    }
  });

  it('does not keep a request refused before writing (400, 403, 404, 422): the key can be used again', async () => {
    const key = newKey();
    const invalid = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('', { price: -1 }) });
    expect(invalid.status).toBe(422);
    const malformed = await fetch(a.url + productsPath(), { method: 'POST', headers: { authorization: `Bearer ${s.ownerToken}`, 'idempotency-key': key, 'content-type': 'application/json' }, body: '{' });
    expect(malformed.status).toBe(400);
    const unknownCategory = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Nowhere', { category_slugs: ['no-such'] }) });
    expect(unknownCategory.status).toBe(422);
    const missing = await send(a.url, 'PUT', `${productsPath()}/00000000-0000-4000-8000-000000000000`, { token: s.ownerToken, key, body: { description: 'x' } });
    expect(missing.status).toBe(404);
    expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);

    const forbidden = await send(a.url, 'POST', productsPath(), { token: s.viewerToken, key, body: product('Not allowed') });
    expect(forbidden.status).toBe(403);
    const ok = await send(b.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Finally') });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps keys apart per credential, per store and per mode', async () => {
    const key = newKey();
    const owner = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Owner’s') });
    expect(owner.status).toBe(201);
    // Another user's same key is theirs: a different request runs.
    const staff = await send(b.url, 'POST', productsPath(), { token: s.staffToken, key, body: product('Staff’s', { price: 99 }) });
    expect(staff.status).toBe(201);
    expect(staff.headers.get('idempotent-replayed')).toBeNull();
    expect(staff.body.data.id).not.toBe(owner.body.data.id);
    // The same user and key in test mode: another catalog, another key.
    const test = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Owner’s'), headers: { 'x-service-mode': 'test' } });
    expect(test.status).toBe(201);
    expect(test.headers.get('idempotent-replayed')).toBeNull();
    // Another store of another owner, same key.
    const other = await createStoreFixture();
    const elsewhere = await send(a.url, 'POST', `/api/v1/merchant/stores/${other.storeId}/products`, { token: other.ownerToken, key, body: product('Owner’s') });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    // And the owner's own retry still replays.
    expect((await send(b.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Owner’s') })).text).toBe(owner.text);
  });

  it('scopes public API keys to the API key: two keys of the store, same Idempotency-Key, two writes; each replays its own', async () => {
    const one = (await createKey(a, s, { type: 'secret', mode: 'test', scopes: ['products:write'] })).secret;
    const two = (await createKey(a, s, { type: 'secret', mode: 'test', scopes: ['products:write'] })).secret;
    const key = newKey();
    const byOne = await send(a.url, 'POST', '/api/public/v1/products', { token: one, key, body: product('Via key one') });
    expect(byOne.status).toBe(201);
    expect(byOne.body.livemode).toBe(false);
    const byTwo = await send(b.url, 'POST', '/api/public/v1/products', { token: two, key, body: product('Via key one') });
    expect(byTwo.status).toBe(201);
    expect(byTwo.body.data.id).not.toBe(byOne.body.data.id);
    const replay = await send(b.url, 'POST', '/api/public/v1/products', { token: one, key, body: product('Via key one') });
    expect(replay.text).toBe(byOne.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const reused = await send(a.url, 'POST', '/api/public/v1/products', { token: one, key, body: product('Something else') });
    expect([reused.status, reused.body.code, reused.body.livemode]).toEqual([422, 'idempotency_key_reused', false]);
  });

  it('replays an image upload (multipart) with its Location; another form with the key is idempotency_key_reused', async () => {
    const key = newKey();
    const image = await makeImage('png');
    const upload = (alt: string, base = a.url) =>
      fetch(base + uploadPath(s.storeId), {
        method: 'POST',
        headers: { authorization: `Bearer ${s.ownerToken}`, 'idempotency-key': key },
        body: form([filePart(image, 'boot.png', 'image/png'), { name: 'alt', value: alt }]),
      });
    const first = await upload('A boot');
    const firstText = await first.text();
    expect(first.status).toBe(201);
    const imagesBefore = await db().productImage.count({ where: { storeId: s.storeId } });
    const again = await upload('A boot', b.url); // another multipart boundary, the same form
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await upload('Another alt');
    expect(other.status).toBe(422);
    expect((await other.json()).code).toBe('idempotency_key_reused');
    expect(await db().productImage.count({ where: { storeId: s.storeId } })).toBe(imagesBefore);
  });

  it('refuses a malformed key with 400 invalid_idempotency_key before reading anything, and ignores the header on reads', async () => {
    for (const key of ['', 'x'.repeat(256), 'tab\there']) {
      const res = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Bad key') });
      expect([res.status, res.body.code]).toEqual([400, 'invalid_idempotency_key']);
    }
    expect((await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key: '~'.repeat(255), body: product('Longest key') })).status).toBe(201);
    const read = await send(a.url, 'GET', productsPath(), { token: s.ownerToken, key: 'x'.repeat(300) });
    expect(read.status).toBe(200);
    expect(read.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours; the worker’s retention step deletes expired keys', async () => {
    const key = newKey();
    const first = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Day one') });
    expect(first.status).toBe(201);
    clock.advance(IDEMPOTENCY_TTL_MS - 60_000);
    expect((await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Day one') })).headers.get('idempotent-replayed')).toBe('true');
    clock.advance(60_000);
    const later = await send(a.url, 'POST', productsPath(), { token: s.ownerToken, key, body: product('Day two') });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();

    const expired = await db().idempotencyKey.count({ where: { expiresAt: { lte: clock.now() } } });
    expect(expired).toBeGreaterThan(0);
    const kept = await db().idempotencyKey.count({ where: { expiresAt: { gt: clock.now() } } });
    await testWorker(a, { now: clock.now }).runOnce(); // its retention step
    expect(await db().idempotencyKey.count()).toBe(kept);
    // In batches, as the worker deletes them.
    clock.advance(IDEMPOTENCY_TTL_MS);
    expect(await pruneIdempotencyKeys(db(), { now: clock.now(), batchSize: 2 })).toBe(kept);
    expect(await db().idempotencyKey.count()).toBe(0);
    // Back to the other instance's time: instances agree on the clock (a skew of a day would expire its keys early).
    clock.set(Date.now());
  });
});

describe('GraphQL mutations with idempotencyKey', () => {
  const CREATE = `mutation($storeId: ID!, $input: CategoryInput!, $key: String) {
    createCategory(storeId: $storeId, input: $input, idempotencyKey: $key) { id slug name }
  }`;
  const gql = (base: string, query: string, variables: Record<string, unknown>, token = s.ownerToken, headers: Record<string, string> = {}) =>
    send(base, 'POST', '/graphql', { token, body: { query, variables }, headers });
  const categories = () => db().category.count({ where: { storeId: s.storeId } });

  it('replays the same data on either instance with Idempotent-Replayed: true; another request with the key is idempotency_key_reused', async () => {
    const key = newKey();
    const slug = `idem-${randomBytes(3).toString('hex')}`;
    const first = await gql(a.url, CREATE, { storeId: s.storeId, input: { slug, name: 'Idempotent' }, key });
    expect(first.body.errors).toBeUndefined();
    const before = await categories();
    const again = await gql(b.url, CREATE, { storeId: s.storeId, input: { slug, name: 'Idempotent' }, key });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await categories()).toBe(before);

    const other = await gql(a.url, CREATE, { storeId: s.storeId, input: { slug: `${slug}-2`, name: 'Other' }, key });
    expect(other.body.errors[0].extensions.code).toBe('idempotency_key_reused');
    expect(other.status).toBe(200); // as GraphQL answers other refusals
    // Another selection is another request too.
    const otherSelection = await gql(a.url, CREATE.replace('{ id slug name }', '{ id }'), { storeId: s.storeId, input: { slug, name: 'Idempotent' }, key });
    expect(otherSelection.body.errors[0].extensions.code).toBe('idempotency_key_reused');
    expect(await categories()).toBe(before);
  });

  it('runs concurrent identical mutations on both instances once', async () => {
    const key = newKey();
    const slug = `burst-${randomBytes(3).toString('hex')}`;
    const before = await categories();
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => gql(i % 2 ? a.url : b.url, CREATE, { storeId: s.storeId, input: { slug, name: 'Burst' }, key })));
    const ok = answers.filter((x) => x.body.data?.createCategory);
    const fresh = ok.filter((x) => x.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const x of ok) expect(x.body).toEqual(fresh[0].body);
    for (const x of answers.filter((x) => !x.body.data?.createCategory)) expect([x.status, x.body.errors[0].extensions.code]).toEqual([200, 'idempotency_key_in_progress']);
    expect(await categories()).toBe(before + 1);
  });

  it('does not keep a mutation that failed; the key then serves the corrected request', async () => {
    const key = newKey();
    const bad = await gql(a.url, CREATE, { storeId: s.storeId, input: { slug: 'Not A Slug', name: 'Bad' }, key });
    expect(bad.body.errors[0].extensions.code).toBe('validation_failed');
    const denied = await gql(a.url, CREATE, { storeId: s.storeId, input: { slug: 'denied', name: 'Denied' }, key }, s.viewerToken);
    expect(denied.body.errors[0].extensions.code).toBe('forbidden');
    const slug = `fixed-${randomBytes(3).toString('hex')}`;
    const ok = await gql(b.url, CREATE, { storeId: s.storeId, input: { slug, name: 'Fixed' }, key });
    expect(ok.body.data.createCategory.slug).toBe(slug);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps keys apart per user and mode, takes the key as a literal too, and refuses a keyed operation with other fields or a malformed key', async () => {
    const key = newKey();
    const literal = (slug: string) => `mutation { createCategory(storeId: "${s.storeId}", input: { slug: "${slug}", name: "Lit" }, idempotencyKey: "${key}") { slug } }`;
    const slug = `lit-${randomBytes(3).toString('hex')}`;
    expect((await gql(a.url, literal(slug), {})).body.data.createCategory.slug).toBe(slug);
    expect((await gql(b.url, literal(slug), {})).headers.get('idempotent-replayed')).toBe('true');
    // Another user with manage_products, same key, another request: runs.
    const staff = await memberToken(s.storeId, ['manage_products']);
    const theirs = await gql(a.url, literal(`${slug}-staff`), {}, staff);
    expect(theirs.body.data.createCategory.slug).toBe(`${slug}-staff`);
    // The same user and key in test mode: another key.
    const inTest = await gql(b.url, literal(`${slug}-test`), {}, s.ownerToken, { 'x-service-mode': 'test' });
    expect(inTest.body.data.createCategory.slug).toBe(`${slug}-test`);
    expect(inTest.headers.get('idempotent-replayed')).toBeNull();

    const two = await gql(a.url, `mutation($k: String) { a: createCategory(storeId: "${s.storeId}", input: { slug: "two-a", name: "A" }, idempotencyKey: $k) { id } b: deleteCategory(storeId: "${s.storeId}", category: "shoes") { id } }`, { k: newKey() });
    expect(two.body.data).toBeUndefined();
    expect(two.body.errors[0].extensions.code).toBe('invalid_idempotency_key');
    const long = await gql(a.url, CREATE, { storeId: s.storeId, input: { slug: 'long-key', name: 'Long' }, key: 'k'.repeat(256) });
    expect([long.status, long.body.errors[0].extensions.code]).toEqual([200, 'invalid_idempotency_key']);
    expect(await db().category.count({ where: { storeId: s.storeId, slug: { in: ['two-a', 'long-key'] } } })).toBe(0);
  });
});
