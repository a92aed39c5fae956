import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { controllableClock, type Receiver, startReceiver, testWorker, verifyDelivery } from '../helpers/webhooks';

/**
 * The delivery log through the real handler, with the real worker delivering
 * to a local receiver on a controllable clock: listing (newest first,
 * filters, keyset pages, 30 days), one message with its attempts and payload,
 * resend, replay and ping, each checked by what the receiver gets (verified
 * with the `standardwebhooks` package) and what the log shows afterwards.
 */

const clock = controllableClock(new Date('2030-03-04T09:00:00.000Z'));
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let t: TestServer;
let receiver: Receiver;
/** Retry waits exactly as in the table (jitter factor 1). */
const worker = () => testWorker(t, { now: clock.now, random: () => 0.5 });

beforeAll(async () => {
  t = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000' }, { now: clock.now });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
afterEach(() => {
  receiver.reset();
  receiver.setDefault({ status: 200, body: 'ok' });
});

const endpoints = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}/webhook-endpoints`;
const messages = (s: StoreFixture, query = '') => `/api/v1/merchant/stores/${s.storeId}/webhook-messages${query}`;
const now = () => clock.now().toISOString();

/** A store whose own setup events are already dispatched (before any endpoint existed). */
async function freshStore(): Promise<StoreFixture> {
  const s = await createStoreFixture();
  await worker().runOnce();
  return s;
}

async function createEndpoint(s: StoreFixture, body: Record<string, unknown>) {
  const res = await t.request('POST', endpoints(s), { token: s.ownerToken, body: { url: receiver.url, ...body } });
  expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
  return res.body.data as { id: string; secret: string; url: string };
}

async function createProduct(s: StoreFixture, name: string) {
  const res = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/products`, { token: s.ownerToken, body: { name, price: 10, category_slugs: ['shoes'] } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string };
}

const updateProduct = async (s: StoreFixture, id: string, body: Record<string, unknown>) =>
  expect((await t.request('PUT', `/api/v1/merchant/stores/${s.storeId}/products/${id}`, { token: s.ownerToken, body })).status).toBe(200);

const get = async (s: StoreFixture, path: string) => {
  const res = await t.request('GET', path, { token: s.ownerToken });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res;
};
const post = (s: StoreFixture, path: string, body?: unknown) => t.request('POST', path, { token: s.ownerToken, body });
const message = async (s: StoreFixture, id: string) => (await get(s, messages(s, `/${id}`))).body.data;

describe('the private-target switch (WEBHOOK_ALLOW_PRIVATE_TARGETS=true)', () => {
  it('allows http on loopback hosts and private addresses, still refuses http elsewhere and credentials in the URL', async () => {
    const s = await createStoreFixture();
    // Created disabled: they are about the check at creation, and must not receive the other tests' messages.
    for (const url of [receiver.url, 'http://localhost:9/hook', 'http://[::1]:9/hook', 'https://10.0.0.5/hook', 'https://169.254.169.254/']) {
      const res = await t.request('POST', endpoints(s), { token: s.ownerToken, body: { url, event_types: ['*'], status: 'disabled' } });
      expect({ url, status: res.status }).toEqual({ url, status: 201 });
    }
    for (const url of ['http://hooks.example.com/hook', 'http://10.0.0.5/hook', `http://user:pass@127.0.0.1:${receiver.port}/hooks`]) {
      const res = await t.request('POST', endpoints(s), { token: s.ownerToken, body: { url, event_types: ['*'] } });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 422, code: 'validation_failed' });
    }
  });
});

describe('listing the log', () => {
  let s: StoreFixture;
  let one: { id: string; secret: string };
  let two: { id: string; secret: string };
  let all: any[];

  beforeAll(async () => {
    s = await freshStore();
    one = await createEndpoint(s, { event_types: ['product.created'] });
    two = await createEndpoint(s, { url: `${receiver.url}/two`, event_types: ['product.created', 'product.updated'] });
    const p1 = await createProduct(s, 'One');
    await createProduct(s, 'Two');
    await createProduct(s, 'Three');
    await updateProduct(s, p1.id, { name: 'One, renamed' });
    expect(await worker().runOnce()).toMatchObject({ delivered: 7 });
    clock.advance(MINUTE);
    // The next update reaches endpoint two only, which answers 500 with a long body.
    receiver.answerNext({ status: 500, body: 'x'.repeat(5000) });
    await updateProduct(s, p1.id, { name: 'One, again' });
    expect(await worker().runOnce()).toMatchObject({ delivered: 1 });
    all = (await get(s, messages(s, '?limit=100'))).body.data;
  });

  it('shows every message newest first with its webhook-id, state and no payload', async () => {
    expect(all).toHaveLength(8);
    const newestFirst = [...all].sort((x, y) => y.created_at.localeCompare(x.created_at) || y.id.localeCompare(x.id));
    expect(all.map((m) => m.id)).toEqual(newestFirst.map((m) => m.id));
    expect(all[0]).toEqual({
      id: expect.any(String),
      webhook_id: `msg_${all[0].id}`,
      endpoint_id: two.id,
      mode: 'live',
      event_id: expect.any(String),
      event_type: 'product.updated',
      status: 'pending',
      trigger: 'scheduled',
      attempt_count: 1,
      next_attempt_at: new Date(clock.now().getTime() + MINUTE).toISOString(),
      last_attempt_at: now(),
      created_at: now(),
    });
    const count = (f: (m: any) => boolean) => all.filter(f).length;
    expect(count((m) => m.endpoint_id === one.id && m.event_type === 'product.created' && m.status === 'succeeded')).toBe(3);
    expect(count((m) => m.endpoint_id === two.id && m.status === 'succeeded')).toBe(4);
    // Each webhook-id the receiver saw is one message of the log, and each message was sent.
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set(all.map((m) => m.webhook_id)));
  });

  it('filters by endpoint, status and event type, alone and together', async () => {
    const ids = async (query: string) => (await get(s, messages(s, query))).body.data.map((m: any) => m.id);
    const expected = (f: (m: any) => boolean) => all.filter(f).map((m) => m.id);
    expect(await ids(`?endpoint_id=${one.id}`)).toEqual(expected((m) => m.endpoint_id === one.id));
    expect(await ids('?status=pending')).toEqual([all[0].id]);
    expect(await ids('?status=succeeded')).toHaveLength(7);
    expect(await ids('?status=failed')).toEqual([]);
    expect(await ids('?event_type=product.updated')).toEqual(expected((m) => m.event_type === 'product.updated'));
    expect(await ids(`?endpoint_id=${two.id}&status=succeeded&event_type=product.created`)).toEqual(
      expected((m) => m.endpoint_id === two.id && m.status === 'succeeded' && m.event_type === 'product.created'),
    );
    expect(await ids('?event_type=ping')).toEqual([]);
  });

  it('pages with keyset cursors: meta, Link header, every message once', async () => {
    const first = await get(s, messages(s, '?limit=3'));
    expect(first.body.data.map((m: any) => m.id)).toEqual(all.slice(0, 3).map((m) => m.id));
    expect(first.body.meta).toEqual({ limit: 3, has_more: true, next_cursor: expect.any(String) });
    expect(first.headers.get('link')).toBe(`<${t.url}${messages(s)}?limit=3&after=${first.body.meta.next_cursor}>; rel="next"`);
    const seen = [...first.body.data];
    let cursor = first.body.meta.next_cursor;
    while (cursor) {
      const page = await get(s, messages(s, `?limit=3&after=${cursor}`));
      seen.push(...page.body.data);
      cursor = page.body.meta.next_cursor;
      if (!cursor) {
        expect(page.body.meta.has_more).toBe(false);
        expect(page.headers.get('link')).toBeNull();
      }
    }
    expect(seen.map((m) => m.id)).toEqual(all.map((m) => m.id));
    const gql = await t.graphql(
      `query($s: ID!, $e: ID!) { webhookMessages(storeId: $s, first: 2, filter: {endpointId: $e, status: succeeded}) {
        edges { cursor node { id webhookId eventType } } pageInfo { hasNextPage endCursor } } }`,
      { s: s.storeId, e: two.id },
      { token: s.ownerToken },
    );
    const twoSucceeded = all.filter((m) => m.endpoint_id === two.id && m.status === 'succeeded');
    expect(gql.body.data.webhookMessages.edges.map((e: any) => e.node)).toEqual(
      twoSucceeded.slice(0, 2).map((m) => ({ id: m.id, webhookId: m.webhook_id, eventType: m.event_type })),
    );
    expect(gql.body.data.webhookMessages.pageInfo.hasNextPage).toBe(true);
  });

  it('refuses bad filters with 422 naming the parameter; an endpoint that is not the store\'s is a 404', async () => {
    for (const [query, field] of [
      ['?status=lost', 'status'],
      ['?event_type=product.exploded', 'event_type'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?after=bm90LWEtY3Vyc29y', 'after'],
    ]) {
      const res = await t.request('GET', messages(s, query), { token: s.ownerToken });
      expect({ query, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ query, status: 422, field });
    }
    const other = await createStoreFixture();
    const foreign = await t.request('POST', endpoints(other), { token: other.ownerToken, body: { url: receiver.url, event_types: ['*'], status: 'disabled' } });
    for (const id of [foreign.body.data.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await t.request('GET', messages(s, `?endpoint_id=${id}`), { token: s.ownerToken });
      expect({ id, status: res.status }).toEqual({ id, status: 404 });
    }
  });

  it('one message shows the payload as sent and every attempt, the first 2 KB of each answer', async () => {
    const failing = await message(s, all[0].id);
    expect(failing.payload).toEqual(expect.any(String));
    const body = JSON.parse(failing.payload);
    expect(body).toMatchObject({ type: 'product.updated', timestamp: expect.any(String), data: { id: failing.event_id, type: 'product.updated' } });
    expect(failing.attempts).toEqual([
      {
        id: expect.any(String),
        number: 1,
        trigger: 'scheduled',
        started_at: now(),
        duration_ms: expect.any(Number),
        succeeded: false,
        status_code: 500,
        response_body: 'x'.repeat(2048),
        error: expect.stringContaining('500'),
      },
    ]);
    const ok = await message(s, all.find((m) => m.status === 'succeeded').id);
    expect(ok.attempts).toEqual([expect.objectContaining({ number: 1, succeeded: true, status_code: 200, response_body: 'ok', error: null })]);
    const gql = await t.graphql(
      `query($s: ID!, $id: ID!) { webhookMessage(storeId: $s, id: $id) { webhookId payload attempts { number statusCode responseBody } } }`,
      { s: s.storeId, id: failing.id },
      { token: s.ownerToken },
    );
    expect(gql.body.data.webhookMessage).toEqual({ webhookId: `msg_${failing.id}`, payload: failing.payload, attempts: [{ number: 1, statusCode: 500, responseBody: 'x'.repeat(2048) }] });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect((await t.request('GET', messages(s, `/${id}`), { token: s.ownerToken })).status).toBe(404);
    }
  });

  it('resend: a pending message is due now and keeps its schedule; a succeeded one gets one more attempt with the same webhook-id and body', async () => {
    // The pending one (its retry is a minute away) goes now.
    const pending = all[0];
    const queued = await post(s, messages(s, `/${pending.id}/resend`));
    expect(queued.status).toBe(202);
    expect(queued.body.data).toMatchObject({ id: pending.id, status: 'pending', trigger: 'scheduled', next_attempt_at: now(), attempt_count: 1 });
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0].headers['webhook-id']).toBe(`msg_${pending.id}`);
    expect(verifyDelivery(two.secret, receiver.requests[0], clock.now()).type).toBe('product.updated');
    const delivered = await message(s, pending.id);
    expect(delivered).toMatchObject({ status: 'succeeded', trigger: 'scheduled', attempt_count: 2, next_attempt_at: null });
    expect(delivered.attempts.map((a: any) => [a.number, a.trigger, a.status_code])).toEqual([
      [1, 'scheduled', 500],
      [2, 'scheduled', 200],
    ]);

    // A succeeded one: one more attempt, trigger resend, the same bytes and webhook-id.
    receiver.reset();
    const done = all.find((m) => m.endpoint_id === one.id);
    const before = await message(s, done.id);
    const again = await post(s, messages(s, `/${done.id}/resend`));
    expect(again.status).toBe(202);
    expect(again.body.data).toMatchObject({ status: 'pending', trigger: 'resend', next_attempt_at: now(), webhook_id: `msg_${done.id}` });
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0];
    expect(req.headers['webhook-id']).toBe(`msg_${done.id}`);
    expect(req.body).toBe(before.payload);
    expect(verifyDelivery(one.secret, req, clock.now()).type).toBe('product.created');
    const resent = await message(s, done.id);
    expect(resent).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(resent.attempts.map((a: any) => [a.number, a.trigger, a.succeeded])).toEqual([
      [1, 'scheduled', true],
      [2, 'resend', true],
    ]);

    // A resend that fails is not retried.
    receiver.reset();
    receiver.setDefault({ status: 503, body: 'down' });
    const gql = await t.graphql(`mutation($s: ID!, $id: ID!) { resendWebhookMessage(storeId: $s, id: $id) { status trigger } }`, { s: s.storeId, id: done.id }, { token: s.ownerToken });
    expect(gql.body.data.resendWebhookMessage).toEqual({ status: 'pending', trigger: 'resend' });
    await worker().runOnce();
    expect(await message(s, done.id)).toMatchObject({ status: 'failed', next_attempt_at: null, attempt_count: 3 });
    clock.advance(2 * HOUR);
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(1);
  });

  it('resend on a disabled endpoint is 409 endpoint_disabled and changes nothing; unknown messages are 404', async () => {
    const m = all.find((x) => x.endpoint_id === one.id && x.status === 'succeeded' && x.id !== all[0].id);
    const before = await message(s, m.id);
    await t.request('PATCH', `${endpoints(s)}/${one.id}`, { token: s.ownerToken, body: { status: 'disabled' } });
    const refused = await post(s, messages(s, `/${m.id}/resend`));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'endpoint_disabled', endpoint_id: one.id });
    expect(await message(s, m.id)).toEqual(before);
    await t.request('PATCH', `${endpoints(s)}/${one.id}`, { token: s.ownerToken, body: { status: 'enabled' } });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) expect((await post(s, messages(s, `/${id}/resend`))).status).toBe(404);
    const other = await createStoreFixture();
    expect((await t.request('POST', `/api/v1/merchant/stores/${other.storeId}/webhook-messages/${m.id}/resend`, { token: other.ownerToken })).status).toBe(404);
  });
});

describe('ping', () => {
  it('sends a ping to that endpoint only, signed; it is in the log with trigger ping and no event', async () => {
    const s = await freshStore();
    const target = await createEndpoint(s, { event_types: ['product.deleted'] });
    await createEndpoint(s, { url: `${receiver.url}/other`, event_types: ['*'] });
    await worker().runOnce(); // the endpoints' own creation events go to the "*" endpoint
    receiver.reset();

    const res = await post(s, `${endpoints(s)}/${target.id}/ping`);
    expect(res.status).toBe(202);
    const queued = res.body.data;
    expect(queued).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7/),
      webhook_id: `msg_${queued.id}`,
      endpoint_id: target.id,
      mode: 'live',
      event_id: null,
      event_type: 'ping',
      status: 'pending',
      trigger: 'ping',
      attempt_count: 0,
      next_attempt_at: now(),
      last_attempt_at: null,
      created_at: now(),
      payload: expect.any(String),
      attempts: [],
    });
    await worker().runOnce();
    expect(receiver.requests.map((r) => r.path)).toEqual(['/hooks']);
    const [req] = receiver.requests;
    expect(req.headers['webhook-id']).toBe(`msg_${queued.id}`);
    expect(req.body).toBe(queued.payload);
    expect(verifyDelivery(target.secret, req, clock.now())).toEqual({
      type: 'ping',
      timestamp: now(),
      data: { endpoint_id: target.id, store_id: s.storeId, mode: 'live', url: target.url },
    });
    const sent = await message(s, queued.id);
    expect(sent).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    expect(sent.attempts).toEqual([expect.objectContaining({ number: 1, trigger: 'ping', status_code: 200 })]);
    expect((await get(s, messages(s, '?event_type=ping'))).body.data.map((m: any) => m.id)).toEqual([queued.id]);
  });

  it('a failing ping is not retried; a disabled endpoint answers 409 endpoint_disabled and gets no message', async () => {
    const s = await freshStore();
    const target = await createEndpoint(s, { event_types: ['product.deleted'] });
    receiver.setDefault({ status: 500, body: 'no' });
    const gql = await t.graphql(`mutation($s: ID!, $id: ID!) { pingWebhookEndpoint(storeId: $s, id: $id) { id eventType trigger webhookId } }`, { s: s.storeId, id: target.id }, { token: s.ownerToken });
    const ping = gql.body.data.pingWebhookEndpoint;
    expect(ping).toMatchObject({ eventType: 'ping', trigger: 'ping', webhookId: `msg_${ping.id}` });
    await worker().runOnce();
    clock.advance(HOUR);
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(1);
    expect(await message(s, ping.id)).toMatchObject({ status: 'failed', attempt_count: 1, next_attempt_at: null });

    await t.request('PATCH', `${endpoints(s)}/${target.id}`, { token: s.ownerToken, body: { status: 'disabled' } });
    const refused = await post(s, `${endpoints(s)}/${target.id}/ping`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('endpoint_disabled');
    const viaGql = await t.graphql(`mutation($s: ID!, $id: ID!) { pingWebhookEndpoint(storeId: $s, id: $id) { id } }`, { s: s.storeId, id: target.id }, { token: s.ownerToken });
    expect(viaGql.body.errors[0].extensions.code).toBe('endpoint_disabled');
    expect((await get(s, messages(s))).body.data).toHaveLength(1);
  });

  it('wakes this process\'s worker at once, long before its next poll', async () => {
    const s = await freshStore();
    const target = await createEndpoint(s, { event_types: ['product.deleted'] });
    const running = testWorker(t, { now: clock.now, config: { worker: { enabled: true, pollMs: 60_000 } } });
    running.start();
    try {
      // Let the first pass finish, so the worker is asleep until its next poll (a minute away) or a signal.
      await new Promise((r) => setTimeout(r, 500));
      const res = await post(s, `${endpoints(s)}/${target.id}/ping`);
      expect(res.status).toBe(202);
      const [req] = await receiver.waitFor(1, 10_000);
      expect(req.headers['webhook-id']).toBe(`msg_${res.body.data.id}`);
    } finally {
      await running.stop();
    }
  });
});

describe('a secret roll, as the receiver sees it', () => {
  it('during the overlap messages verify with the old and the new secret; after it, or with overlap 0, only with the new one', async () => {
    const s = await freshStore();
    const e = await createEndpoint(s, { event_types: ['product.deleted'] });
    const pingAndReceive = async () => {
      receiver.reset();
      expect((await post(s, `${endpoints(s)}/${e.id}/ping`)).status).toBe(202);
      await worker().runOnce();
      expect(receiver.requests).toHaveLength(1);
      return receiver.requests[0];
    };
    const rolled = (await post(s, `${endpoints(s)}/${e.id}/roll-secret`, { overlap_hours: 1 })).body.data;
    const during = await pingAndReceive();
    expect(during.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyDelivery(e.secret, during, clock.now()).type).toBe('ping');
    expect(verifyDelivery(rolled.secret, during, clock.now()).type).toBe('ping');

    clock.advance(HOUR + 1000);
    const after = await pingAndReceive();
    expect(verifyDelivery(rolled.secret, after, clock.now()).type).toBe('ping');
    expect(() => verifyDelivery(e.secret, after, clock.now())).toThrow();

    const immediate = (await post(s, `${endpoints(s)}/${e.id}/roll-secret`, { overlap_hours: 0 })).body.data;
    const next = await pingAndReceive();
    expect(next.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verifyDelivery(immediate.secret, next, clock.now()).type).toBe('ping');
    expect(() => verifyDelivery(rolled.secret, next, clock.now())).toThrow();
  });
});

describe('replay after an outage', () => {
  it('the endpoint failed for 3 days and was disabled; once enabled, replay since a time queues those failed messages once more', async () => {
    const s = await freshStore();
    const e = await createEndpoint(s, { event_types: ['product.created'] });
    receiver.setDefault({ status: 500, body: 'down' });
    const outageStart = clock.now();
    await createProduct(s, 'Before');
    await worker().runOnce();
    clock.advance(HOUR);
    const since = clock.now();
    await createProduct(s, 'During');
    await createProduct(s, 'Also during');
    // Retries follow the schedule until every message failed and the endpoint was disabled.
    for (let i = 0; i < 30; i++) {
      await worker().runOnce();
      if ((await get(s, messages(s, '?status=pending'))).body.data.length === 0) break;
      clock.advance(6 * HOUR);
    }
    const failed = (await get(s, messages(s, '?status=failed'))).body.data;
    expect(failed).toHaveLength(3);
    const endpoint = (await get(s, `${endpoints(s)}/${e.id}`)).body.data;
    expect(endpoint).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });

    const disabled = await post(s, `${endpoints(s)}/${e.id}/replay`, { since: since.toISOString() });
    expect(disabled.status).toBe(409);
    expect(disabled.body.code).toBe('endpoint_disabled');

    // The receiver is fixed; the merchant enables the endpoint and replays from the hour after the outage began.
    receiver.reset();
    receiver.setDefault({ status: 200, body: 'ok' });
    await t.request('PATCH', `${endpoints(s)}/${e.id}`, { token: s.ownerToken, body: { status: 'enabled' } });
    const replay = await post(s, `${endpoints(s)}/${e.id}/replay`, { since: since.toISOString() });
    expect(replay.status).toBe(202);
    expect(replay.body.data).toEqual({ endpoint_id: e.id, since: since.toISOString(), replayed: 2 });
    const queued = (await get(s, messages(s, '?status=pending'))).body.data;
    expect(queued).toHaveLength(2);
    for (const m of queued) expect(m).toMatchObject({ trigger: 'replay', next_attempt_at: now() });
    await worker().runOnce();
    expect(receiver.requests).toHaveLength(2);
    const names = receiver.requests.map((r) => verifyDelivery(e.secret, r, clock.now()).data.data.name).sort();
    expect(names).toEqual(['Also during', 'During']);
    for (const m of queued) {
      const after = await message(s, m.id);
      expect(after.status).toBe('succeeded');
      expect(after.attempts.at(-1)).toMatchObject({ trigger: 'replay', status_code: 200, number: after.attempt_count });
    }
    // The message from before `since` is still failed; replaying from the outage's start sends it too.
    const gql = await t.graphql(
      `mutation($s: ID!, $e: ID!, $since: DateTime!) { replayWebhookMessages(storeId: $s, endpointId: $e, since: $since) { endpointId replayed } }`,
      { s: s.storeId, e: e.id, since: outageStart.toISOString() },
      { token: s.ownerToken },
    );
    expect(gql.body.data.replayWebhookMessages).toEqual({ endpointId: e.id, replayed: 1 });
    await worker().runOnce();
    expect((await get(s, messages(s, '?status=succeeded'))).body.data).toHaveLength(3);
  });

  it('since is required, RFC 3339, within the 30 days of the log and not in the future', async () => {
    const s = await createStoreFixture();
    const e = await createEndpoint(s, { event_types: ['*'] });
    const replay = (body: unknown) => post(s, `${endpoints(s)}/${e.id}/replay`, body);
    const day = 86_400_000;
    for (const [body, code] of [
      [undefined, 'required'],
      [{}, 'required'],
      [{ since: 'yesterday' }, 'invalid_value'],
      [{ since: '2030-03-01' }, 'invalid_value'],
      [{ since: 1767225600 }, 'invalid_value'],
      [{ since: new Date(clock.now().getTime() - 31 * day).toISOString() }, 'out_of_range'],
      [{ since: new Date(clock.now().getTime() + MINUTE).toISOString() }, 'in_the_future'],
      [{ since: now(), endpoint: 'x' }, 'unknown_field'],
    ] as const) {
      const res = await replay(body);
      expect({ body, status: res.status, error: res.body.errors?.[0] }).toEqual({ body, status: 422, error: expect.objectContaining({ code }) });
    }
    const ok = await replay({ since: new Date(clock.now().getTime() - 29 * day).toISOString().replace('Z', '+00:00') });
    expect(ok.body.data).toMatchObject({ endpoint_id: e.id, replayed: 0 });
    expect((await post(s, `${endpoints(s)}/00000000-0000-4000-8000-000000000000/replay`, { since: now() })).status).toBe(404);
  });
});

describe('the 30 days of the log', () => {
  it('a message older than the retention is neither listed nor readable nor resendable', async () => {
    const s = await freshStore();
    const e = await createEndpoint(s, { event_types: ['product.deleted'] });
    const ping = (await post(s, `${endpoints(s)}/${e.id}/ping`)).body.data;
    await worker().runOnce();
    clock.advance(30 * 86_400_000 - MINUTE);
    expect((await get(s, messages(s))).body.data.map((m: any) => m.id)).toEqual([ping.id]);
    clock.advance(2 * MINUTE);
    expect((await get(s, messages(s))).body.data).toEqual([]);
    expect((await t.request('GET', messages(s, `/${ping.id}`), { token: s.ownerToken })).status).toBe(404);
    expect((await post(s, messages(s, `/${ping.id}/resend`))).status).toBe(404);
  });
});

describe('resend while an attempt is in flight', () => {
  it('is 409 conflict (the attempt would swallow it); once the attempt is recorded, the resend goes', async () => {
    const s = await freshStore();
    const e = await createEndpoint(s, { event_types: ['product.created'] });
    await createProduct(s, 'In flight');
    receiver.reset();
    receiver.answerNext({ status: 200, delayMs: 1500 });
    const w = worker();
    const run = w.runOnce();
    await receiver.waitFor(1, 10_000);
    const [m] = (await get(s, messages(s, `?endpoint_id=${e.id}`))).body.data;
    const refused = await post(s, messages(s, `/${m.id}/resend`));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'conflict' });
    await run;
    expect((await message(s, m.id))).toMatchObject({ status: 'succeeded', attempt_count: 1 });
    const queued = await post(s, messages(s, `/${m.id}/resend`));
    expect(queued.status).toBe(202);
    await worker().runOnce();
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([`msg_${m.id}`, `msg_${m.id}`]);
    expect((await message(s, m.id)).attempts.map((a: any) => a.trigger)).toEqual(['scheduled', 'resend']);
  });
});
