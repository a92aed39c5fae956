import type { Mode } from '../../src/kernel/access';
import { messageBodies } from '../../src/events/webhooks/payload';
import { generateSecret } from '../../src/events/webhooks/signing';
import { DISABLE_AFTER_FAILING_MS, JITTER, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../src/events/webhooks/retrySchedule';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey } from '../public/helpers';
import {
  type Answer,
  controllableClock,
  insertEndpoint,
  messagesOf,
  type Receiver,
  refusedPort,
  startReceiver,
  testWorker,
  verifyDelivery,
} from '../helpers/webhooks';

/**
 * The delivery engine through the real handler and a local receiver: every
 * delivery is checked with the `standardwebhooks` package; time moves only on
 * the controllable clock the service and the worker share.
 */

// Long enough that a busy machine's test process still reads a delivery before the worker gives up on it (at 400 ms a
// late request once landed after the step that expected it); the one test that waits it out waits three times.
const TIMEOUT_MS = 2_000;
const clock = controllableClock(new Date('2030-01-06T10:00:00Z'));
let t: TestServer;
let receiver: Receiver;
const worker = () => testWorker(t, { now: clock.now });

beforeAll(async () => {
  t = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) }, { now: clock.now });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
afterEach(async () => {
  // Each test leaves nothing due for the next one.
  await t.database.prisma.webhookEndpoint.deleteMany({});
  receiver.reset();
  receiver.setDefault({ status: 200, body: 'ok' });
});

const products = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}/products`;

/** A store whose own setup events are already dispatched (before any endpoint existed). */
async function freshStore(): Promise<StoreFixture> {
  const s = await createStoreFixture();
  await worker().runOnce();
  return s;
}

async function createProduct(s: StoreFixture, name = 'Trail runner') {
  const res = await t.request('POST', products(s), { token: s.ownerToken, body: { name, price: 89.5, category_slugs: ['shoes'] } });
  expect(res.status).toBe(201);
  return res.body.data;
}

/**
 * An endpoint created through the REST API (the secret is in this answer only).
 * Its own webhook_endpoint.created event is delivered and forgotten here.
 */
async function createEndpoint(s: StoreFixture, body: Record<string, unknown>): Promise<{ id: string; secret: string; version: number }> {
  const res = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/webhook-endpoints`, { token: s.ownerToken, body: { event_types: ['*'], ...body } });
  expect(res.status).toBe(201);
  expect(res.body.data.secret).toMatch(/^whsec_/);
  await worker().runOnce();
  receiver.reset();
  const row = await t.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.data.id } });
  return { id: row.id, secret: res.body.data.secret, version: row.version };
}

const endpointRow = (id: string) => t.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });

describe('a product write through the REST API', () => {
  it('is delivered once, signed (standardwebhooks accepts it), with its type, the event as body and Standard Webhooks headers', async () => {
    const s = await freshStore();
    const endpoint = await createEndpoint(s, { url: receiver.url });
    const product = await createProduct(s);
    // Nothing is sent on the request path: the receiver hears of it only when the worker runs.
    expect(receiver.requests).toHaveLength(0);
    const run = await worker().runOnce();
    expect(run).toMatchObject({ dispatched: 1, delivered: 1 });
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0];
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toMatch(/webhooks/);
    expect(req.headers['webhook-timestamp']).toBe(String(Math.floor(clock.now().getTime() / 1000)));
    expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const body = verifyDelivery(endpoint.secret, req, clock.now());
    expect(Object.keys(body)).toEqual(['type', 'timestamp', 'data']);
    expect(body.type).toBe('product.created');
    expect(body.data).toMatchObject({ type: 'product.created', store_id: s.storeId, mode: 'live', resource: { type: 'product', id: product.id, version: 1 } });
    expect(body.data.data).toEqual(product);
    // The history API shows the same event the webhook carried.
    const history = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/changes?resource_id=${product.id}`, { token: s.ownerToken });
    expect(body.data).toEqual(history.body.data[0]);
    expect(body.timestamp).toBe(history.body.data[0].occurred_at);

    const message = (await messagesOf(t, endpoint.id)).find((m) => m.eventType === 'product.created')!;
    expect(req.headers['webhook-id']).toBe(`msg_${message.id}`);
    // No body is stored for an event's message: the log builds it from the event, the same bytes as sent.
    expect(message).toMatchObject({ status: 'succeeded', attemptCount: 1, nextAttemptAt: null, lockedUntil: null, eventType: 'product.created', payload: null });
    const shown = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/webhook-messages/${message.id}`, { token: s.ownerToken });
    expect(shown.body.data.payload).toBe(req.body);
    expect(message.attempts).toHaveLength(1);
    expect(message.attempts[0]).toMatchObject({ number: 1, trigger: 'scheduled', succeeded: true, statusCode: 200, responseBody: 'ok', error: null });
    expect(message.attempts[0].startedAt).toEqual(clock.now());

    // A second run has nothing to do.
    expect(await worker().runOnce()).toEqual({ dispatched: 0, delivered: 0, published: 0 });
    expect(receiver.requests).toHaveLength(1);
  });

  it('reaches a test endpoint only with test-mode events and a live endpoint only with live ones', async () => {
    const s = await freshStore();
    const live = await createEndpoint(s, { url: `${receiver.url}/live`, mode: 'live' });
    const test = await createEndpoint(s, { url: `${receiver.url}/test`, mode: 'test' });
    await createProduct(s);
    // Creating a test-mode API key records a test-mode event (api_key.created).
    await createKey(t, s, { type: 'secret', mode: 'test', scopes: ['public:read'] });
    await worker().runOnce();
    const byPath = (p: string) => receiver.requests.filter((r) => r.path === p);
    expect(byPath('/hooks/live').map((r) => verifyDelivery(live.secret, r, clock.now()).type)).toEqual(['product.created']);
    const toTest = byPath('/hooks/test').map((r) => verifyDelivery(test.secret, r, clock.now()));
    expect(toTest.map((b) => [b.type, b.data.mode])).toEqual([['api_key.created', 'test']]);
  });

  it('reaches an endpoint only with the event types it wants', async () => {
    const s = await freshStore();
    const deletes = await createEndpoint(s, { url: `${receiver.url}/deletes`, event_types: ['product.deleted'] });
    const product = await createProduct(s);
    await t.request('PUT', `${products(s)}/${product.id}`, { token: s.ownerToken, body: { name: 'Renamed' } });
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(0);
    expect(await messagesOf(t, deletes.id)).toHaveLength(0);
    expect((await t.request('DELETE', `${products(s)}/${product.id}`, { token: s.ownerToken })).status).toBe(204);
    await worker().runOnce();
    expect(receiver.requests.map((r) => verifyDelivery(deletes.secret, r, clock.now()).type)).toEqual(['product.deleted']);
  });

  it('is not sent to a disabled endpoint, nor to another store', async () => {
    const s = await freshStore();
    const other = await freshStore();
    await insertEndpoint(t, other.storeId, { url: `${receiver.url}/other` });
    const off = await insertEndpoint(t, s.storeId, { url: receiver.url });
    await t.database.prisma.webhookEndpoint.update({ where: { id: off.id }, data: { status: 'disabled', disabledReason: 'manual', disabledAt: clock.now() } });
    await createProduct(s);
    const run = await worker().runOnce();
    expect(run.dispatched).toBe(1);
    expect(run.delivered).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });
});

/**
 * Drives one message through all its attempts: before each due time nothing
 * happens; at it, one attempt, with the same webhook-id, recorded with
 * `expectAttempt`; the next due time lies within the schedule's jitter bounds.
 */
async function followSchedule(mode: Mode, endpointId: string, secret: string, expectAttempt: (a: any) => void) {
  const max = MAX_ATTEMPTS[mode];
  const webhookIds = new Set<string>();
  let seen = receiver.requests.length;
  for (let n = 1; n <= max; n++) {
    if (n > 1) {
      const [m] = await messagesOf(t, endpointId);
      const gap = m.nextAttemptAt!.getTime() - m.lastAttemptAt!.getTime();
      const planned = RETRY_DELAYS_MS[mode][n - 2];
      expect(gap).toBeGreaterThanOrEqual(Math.floor(planned * (1 - JITTER)));
      expect(gap).toBeLessThanOrEqual(Math.ceil(planned * (1 + JITTER)));
      // A moment before it is due, nothing happens.
      clock.set(new Date(m.nextAttemptAt!.getTime() - 1000));
      expect((await worker().runOnce()).delivered).toBe(0);
      clock.set(m.nextAttemptAt!);
    }
    const run = await worker().runOnce();
    expect(run.delivered).toBe(1);
    const [m] = await messagesOf(t, endpointId);
    expect(m.attemptCount).toBe(n);
    expect(m.attempts).toHaveLength(n);
    const attempt = m.attempts[n - 1];
    expect(attempt).toMatchObject({ number: n, trigger: 'scheduled', succeeded: false });
    expect(attempt.startedAt).toEqual(clock.now());
    expectAttempt(attempt);
    expect(m.lockedUntil).toBeNull();
    if (receiver.requests.length > seen) {
      const req = receiver.requests[receiver.requests.length - 1];
      verifyDelivery(secret, req, clock.now());
      webhookIds.add(req.headers['webhook-id']);
      seen = receiver.requests.length;
    }
  }
  const [final] = await messagesOf(t, endpointId);
  expect(final).toMatchObject({ status: 'failed', nextAttemptAt: null, attemptCount: max });
  // Nothing more, however long we wait.
  clock.advance(10 * 86_400_000);
  expect((await worker().runOnce()).delivered).toBe(0);
  return { webhookIds, final };
}

describe('retries', () => {
  it('a live endpoint answering 500 gets 8 attempts over about 3 days, each with the same webhook-id, then the message fails', async () => {
    const s = await freshStore();
    receiver.setDefault({ status: 500, body: 'database down' });
    const endpoint = await insertEndpoint(t, s.storeId, { url: receiver.url });
    await createProduct(s);
    const start = clock.now().getTime();
    const { webhookIds, final } = await followSchedule('live', endpoint.id, endpoint.secret, (a) => {
      expect(a).toMatchObject({ statusCode: 500, responseBody: 'database down', error: 'answered 500, not 2xx' });
    });
    expect(receiver.requests).toHaveLength(8);
    expect([...webhookIds]).toEqual([`msg_${final.id}`]);
    // The whole schedule spans about three days.
    const span = final.attempts[7].startedAt.getTime() - start;
    expect(span / 3_600_000).toBeGreaterThan(72 * (1 - JITTER));
    expect(span / 3_600_000).toBeLessThan(72 * (1 + JITTER));
  });

  it('a test endpoint that never answers (timeout) gets 3 attempts within an hour', async () => {
    const s = await freshStore();
    receiver.setDefault({ hang: true });
    const endpoint = await insertEndpoint(t, s.storeId, { url: receiver.url, mode: 'test' });
    await createKey(t, s, { type: 'secret', mode: 'test', scopes: ['public:read'] });
    const start = clock.now().getTime();
    const { final } = await followSchedule('test', endpoint.id, endpoint.secret, (a) => {
      expect(a).toMatchObject({ statusCode: null, responseBody: null, error: `timed out after ${TIMEOUT_MS} ms without an answer` });
      expect(a.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    });
    expect(receiver.requests).toHaveLength(3);
    expect(final.attempts[2].startedAt.getTime() - start).toBeLessThan(3_600_000);
  });

  it('a live endpoint refusing connections gets the same schedule', async () => {
    const s = await freshStore();
    const port = await refusedPort();
    const endpoint = await insertEndpoint(t, s.storeId, { url: `http://127.0.0.1:${port}/hooks` });
    await createProduct(s);
    await followSchedule('live', endpoint.id, endpoint.secret, (a) => {
      expect(a).toMatchObject({ statusCode: null, error: `connection refused by 127.0.0.1:${port}` });
    });
  });

  it('a failure followed by a success: the message succeeds on its second attempt and the endpoint is healthy again', async () => {
    const s = await freshStore();
    receiver.answerNext({ destroy: true });
    const endpoint = await insertEndpoint(t, s.storeId, { url: receiver.url });
    await createProduct(s);
    await worker().runOnce();
    const failedAt = clock.now();
    expect((await endpointRow(endpoint.id)).failingSince).toEqual(failedAt);
    const [m1] = await messagesOf(t, endpoint.id);
    expect(m1.attempts[0].error).toMatch(/reset|closed/);
    clock.set(m1.nextAttemptAt!);
    await worker().runOnce();
    const [m2] = await messagesOf(t, endpoint.id);
    expect(m2.status).toBe('succeeded');
    expect(m2.attempts.map((a) => a.succeeded)).toEqual([false, true]);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of receiver.requests.slice(1)) verifyDelivery(endpoint.secret, r, clock.now());
    expect((await endpointRow(endpoint.id)).failingSince).toBeNull();
  });
});

describe('answers', () => {
  it('a redirect is a failed attempt and is not followed', async () => {
    const s = await freshStore();
    receiver.setDefault((req): Answer => (req.path === '/hooks' ? { status: 302, headers: { location: `${receiver.url}/moved` } } : { status: 200 }));
    const endpoint = await insertEndpoint(t, s.storeId, { url: receiver.url });
    await createProduct(s);
    await worker().runOnce();
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hooks']);
    const [m] = await messagesOf(t, endpoint.id);
    expect(m.status).toBe('pending');
    expect(m.attempts[0]).toMatchObject({ succeeded: false, statusCode: 302, error: 'answered 302 (a redirect, which is not followed)' });
  });

  it('keeps the first 2 KB of an answer', async () => {
    const s = await freshStore();
    receiver.setDefault({ status: 200, body: 'x'.repeat(3000) + 'y'.repeat(100_000) });
    const endpoint = await insertEndpoint(t, s.storeId, { url: receiver.url });
    await createProduct(s);
    await worker().runOnce();
    const [m] = await messagesOf(t, endpoint.id);
    expect(m.attempts[0]).toMatchObject({ succeeded: true, statusCode: 200, responseBody: 'x'.repeat(2048) });
  });

  it('410 Gone disables the endpoint at once, records webhook_endpoint.disabled and fails its messages without sending them', async () => {
    const s = await freshStore();
    const watcher = await insertEndpoint(t, s.storeId, { url: `${receiver.url}/watcher`, eventTypes: ['webhook_endpoint.disabled'] });
    const gone = await insertEndpoint(t, s.storeId, { url: `${receiver.url}/gone`, eventTypes: ['product.created'] });
    receiver.setDefault((req): Answer => (req.path === '/hooks/gone' ? { status: 410, body: 'gone' } : { status: 200 }));
    await createProduct(s);
    await worker().runOnce();
    const row = await endpointRow(gone.id);
    expect(row).toMatchObject({ status: 'disabled', disabledReason: 'gone', disabledAt: clock.now(), version: gone.version + 1 });
    const [m] = await messagesOf(t, gone.id);
    expect(m).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(m.attempts[0]).toMatchObject({ statusCode: 410, error: 'answered 410 Gone: the endpoint is disabled' });

    // The history shows who disabled it and why.
    const history = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/changes?resource_id=${gone.id}`, { token: s.ownerToken });
    expect(history.status).toBe(200);
    expect(history.body.data).toHaveLength(1);
    const event = history.body.data[0];
    expect(event).toMatchObject({ type: 'webhook_endpoint.disabled', mode: 'live', source: 'system', actor: { kind: 'system' }, resource: { type: 'webhook_endpoint', id: gone.id } });
    expect(event.data).toMatchObject({ id: gone.id, status: 'disabled', disabled_reason: 'gone' });
    expect(JSON.stringify(event)).not.toContain(gone.secret);
    expect(event.changes.map((c: any) => c.field)).toEqual(expect.arrayContaining(['status', 'disabled_reason', 'disabled_at']));
    // …and it is itself delivered to the endpoint that wants it.
    const toWatcher = receiver.requests.filter((r) => r.path === '/hooks/watcher');
    expect(toWatcher.map((r) => verifyDelivery(watcher.secret, r, clock.now()).type)).toEqual(['webhook_endpoint.disabled']);

    // Later events do not go to it; a message still pending for it fails without a request.
    await createProduct(s, 'After');
    await t.database.prisma.webhookMessage.create({
      data: { id: '01900000-0000-7000-8000-000000000001', endpointId: gone.id, storeId: s.storeId, mode: 'live', eventType: 'product.created', payload: '{}', nextAttemptAt: clock.now(), createdAt: clock.now() },
    });
    const before = receiver.requests.length;
    await worker().runOnce();
    expect(receiver.requests.filter((r) => r.path === '/hooks/gone')).toHaveLength(1);
    expect(receiver.requests.length).toBe(before);
    const late = await t.database.prisma.webhookMessage.findUniqueOrThrow({ where: { id: '01900000-0000-7000-8000-000000000001' }, include: { attempts: true } });
    expect(late.status).toBe('failed');
    expect(late.attempts).toMatchObject([{ succeeded: false, statusCode: null, error: 'endpoint disabled', durationMs: 0 }]);
  });

  it('a live endpoint failing every attempt for 3 days is disabled; one success in between resets the count', async () => {
    const s = await freshStore();
    receiver.setDefault({ status: 503 });
    const endpoint = await insertEndpoint(t, s.storeId, { url: receiver.url, eventTypes: ['product.created', 'product.updated'] });
    const product = await createProduct(s);
    await worker().runOnce();
    const firstFailure = clock.now();
    expect((await endpointRow(endpoint.id)).failingSince).toEqual(firstFailure);

    // Just under 3 days later a new event fails too: still enabled.
    clock.set(new Date(firstFailure.getTime() + DISABLE_AFTER_FAILING_MS - 60_000));
    await t.database.prisma.webhookMessage.updateMany({ where: { endpointId: endpoint.id }, data: { status: 'failed', nextAttemptAt: null } });
    await t.request('PUT', `${products(s)}/${product.id}`, { token: s.ownerToken, body: { name: 'Renamed once' } });
    await worker().runOnce();
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: 'enabled', failingSince: firstFailure });

    // Three days after the first failure, the next failed attempt disables it.
    clock.set(new Date(firstFailure.getTime() + DISABLE_AFTER_FAILING_MS));
    await t.database.prisma.webhookMessage.updateMany({ where: { endpointId: endpoint.id }, data: { status: 'failed', nextAttemptAt: null } });
    await t.request('PUT', `${products(s)}/${product.id}`, { token: s.ownerToken, body: { name: 'Renamed twice' } });
    await worker().runOnce();
    expect(await endpointRow(endpoint.id)).toMatchObject({ status: 'disabled', disabledReason: 'failing', disabledAt: clock.now() });
    const history = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/changes?resource_id=${endpoint.id}`, { token: s.ownerToken });
    expect(history.body.data.map((e: any) => [e.type, e.data.disabled_reason])).toEqual([['webhook_endpoint.disabled', 'failing']]);

    // Another endpoint that fails, then succeeds once, starts counting again from its next failure.
    const flaky = await insertEndpoint(t, s.storeId, { url: `${receiver.url}/flaky`, eventTypes: ['product.updated'] });
    receiver.setDefault((req): Answer => ({ status: req.path === '/hooks/flaky' ? 500 : 200 }));
    await t.request('PUT', `${products(s)}/${product.id}`, { token: s.ownerToken, body: { name: 'Renamed 3' } });
    await worker().runOnce();
    const flakyStart = clock.now();
    expect((await endpointRow(flaky.id)).failingSince).toEqual(flakyStart);
    clock.advance(2 * 86_400_000);
    await t.database.prisma.webhookMessage.updateMany({ where: { endpointId: flaky.id }, data: { status: 'failed', nextAttemptAt: null } });
    receiver.answerNext({ status: 204 });
    await t.request('PUT', `${products(s)}/${product.id}`, { token: s.ownerToken, body: { name: 'Renamed 4' } });
    await worker().runOnce();
    expect((await endpointRow(flaky.id)).failingSince).toBeNull();
    clock.advance(2 * 86_400_000);
    await t.request('PUT', `${products(s)}/${product.id}`, { token: s.ownerToken, body: { name: 'Renamed 5' } });
    await worker().runOnce();
    expect(await endpointRow(flaky.id)).toMatchObject({ status: 'enabled', failingSince: clock.now() });
  });
});

describe('secret roll', () => {
  it('while the previous secret overlaps, each delivery carries two signatures and either secret verifies it; afterwards only the new one', async () => {
    const s = await freshStore();
    const endpoint = await createEndpoint(s, { url: receiver.url });
    const oldSecret = endpoint.secret;
    const rolled = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/webhook-endpoints/${endpoint.id}/roll-secret`, { token: s.ownerToken, body: {} });
    expect(rolled.status).toBe(200);
    const newSecret: string = rolled.body.data.secret;
    expect(newSecret).not.toBe(oldSecret);
    await createProduct(s);
    await worker().runOnce();
    // The roll's own event, then the product's: both signed with both secrets.
    expect(receiver.requests).toHaveLength(2);
    for (const req of receiver.requests) {
      expect(req.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verifyDelivery(oldSecret, req, clock.now()).type).toBe(verifyDelivery(newSecret, req, clock.now()).type);
      expect(() => verifyDelivery(generateSecret(), req, clock.now())).toThrow();
    }
    // (Attempts run in parallel: their order is not promised.)
    expect(receiver.requests.map((r) => verifyDelivery(newSecret, r, clock.now()).type).sort()).toEqual(['product.created', 'webhook_endpoint.secret_rolled']);

    // After the overlap (24 h by default), only the new secret signs.
    clock.advance(24 * 3_600_000 + 1000);
    await createProduct(s, 'Second');
    await worker().runOnce();
    const after = receiver.requests[2];
    expect(after.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifyDelivery(newSecret, after, clock.now()).type).toBe('product.created');
    expect(() => verifyDelivery(oldSecret, after, clock.now())).toThrow();
  });
});

describe('server-side request forgery at delivery', () => {
  it('an endpoint stored with a loopback, private or metadata address fails its attempt with a clear error and nothing reaches it', async () => {
    const s = await freshStore();
    const guarded = testWorker(t, { now: clock.now, config: { webhooks: { ...t.config.webhooks, allowPrivateTargets: false } } });
    const targets = [
      [`http://127.0.0.1:${receiver.port}/hooks`, 'forbidden target: 127.0.0.1 is a loopback address; webhooks go to public addresses only'],
      [`http://localhost:${receiver.port}/hooks`, 'forbidden target: localhost is a private host name; webhooks go to public addresses only'],
      [`http://[::1]:${receiver.port}/hooks`, 'forbidden target: ::1 is a loopback address; webhooks go to public addresses only'],
      [`http://0x7f000001:${receiver.port}/hooks`, 'forbidden target: 127.0.0.1 is a loopback address; webhooks go to public addresses only'],
      ['http://169.254.169.254/latest/meta-data/', 'forbidden target: 169.254.169.254 is a link-local (cloud metadata) address; webhooks go to public addresses only'],
      ['https://10.0.0.7/hooks', 'forbidden target: 10.0.0.7 is a private address; webhooks go to public addresses only'],
    ];
    const endpoints = [];
    for (const [url] of targets) endpoints.push(await insertEndpoint(t, s.storeId, { url }));
    await createProduct(s);
    await guarded.runOnce();
    expect(receiver.requests).toHaveLength(0);
    for (const [i, e] of endpoints.entries()) {
      const [m] = await messagesOf(t, e.id);
      expect(m.attempts).toHaveLength(1);
      expect(m.attempts[0]).toMatchObject({ succeeded: false, statusCode: null, error: targets[i][1] });
    }
    // The same IPv4 loopback rows with private targets allowed (tests, local development) reach the receiver on their retry.
    const reachable = [endpoints[0], endpoints[1], endpoints[3]];
    for (const e of reachable) {
      const [m] = await messagesOf(t, e.id);
      clock.set(new Date(Math.max(clock.now().getTime(), m.nextAttemptAt!.getTime())));
    }
    await t.database.prisma.webhookEndpoint.deleteMany({ where: { id: { notIn: reachable.map((e) => e.id) } } });
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(3);
    for (const req of receiver.requests) {
      const message = await t.database.prisma.webhookMessage.findUniqueOrThrow({ where: { id: req.headers['webhook-id'].slice('msg_'.length) } });
      verifyDelivery(reachable.find((e) => e.id === message.endpointId)!.secret, req, clock.now());
    }
  });
});

describe('delivery log retention', () => {
  it('the worker deletes finished messages and their attempts after WEBHOOK_LOG_RETENTION_DAYS; recent and pending ones stay', async () => {
    const s = await freshStore();
    receiver.setDefault((req): Answer => ({ status: req.path === '/hooks/down' ? 500 : 200 }));
    const ok = await insertEndpoint(t, s.storeId, { url: receiver.url });
    const down = await insertEndpoint(t, s.storeId, { url: `${receiver.url}/down`, mode: 'live' });
    await createProduct(s, 'Old');
    await worker().runOnce();
    const [old] = await messagesOf(t, ok.id);
    const [stillPending] = await messagesOf(t, down.id);
    expect([old.status, stillPending.status]).toEqual(['succeeded', 'pending']);

    // 30 days and a minute later, with a fresh delivery made just now.
    clock.advance(30 * 86_400_000 + 60_000);
    await t.database.prisma.webhookMessage.update({ where: { id: stillPending.id }, data: { nextAttemptAt: new Date(clock.now().getTime() + 3_600_000) } });
    await createProduct(s, 'New');
    await worker().runOnce();
    const kept = await messagesOf(t, ok.id);
    expect((await messageBodies(t.database.prisma, kept)).map((b) => JSON.parse(b!).data.data.name)).toEqual(['New']);
    expect(await t.database.prisma.webhookAttempt.count({ where: { messageId: old.id } })).toBe(0);
    // A message still waiting for its next attempt is never pruned.
    expect((await messagesOf(t, down.id)).map((m) => m.id)).toContain(stillPending.id);
  });
});

describe('a message whose event left the change history', () => {
  it('fails without a request: there is no body to send (CHANGES_RETENTION_DAYS shorter than the wait)', async () => {
    const s = await freshStore();
    const endpoint = await createEndpoint(s, { url: receiver.url, event_types: ['product.created'] });
    receiver.answerNext({ status: 500 });
    await createProduct(s);
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(1);
    const [pending] = await messagesOf(t, endpoint.id);
    expect(pending.status).toBe('pending');
    // The retention job deletes the event while the message waits for its retry.
    await t.database.prisma.event.deleteMany({ where: { id: pending.eventId! } });
    clock.advance(RETRY_DELAYS_MS.live[0] * (1 + JITTER) + 1000);
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(1);
    const [failed] = await messagesOf(t, endpoint.id);
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 2, nextAttemptAt: null });
    expect(failed.attempts[1]).toMatchObject({ number: 2, succeeded: false, statusCode: null, error: expect.stringContaining('no longer in the change history') });
  });
});
