import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApiKey } from '../../src/access/services/apiKeys';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { controllableClock } from '../helpers/webhooks';
import { testContext } from '../helpers/context';
import { newTempDir } from '../helpers/templates';

/**
 * Webhook endpoints through the real handler, on REST and GraphQL: creation
 * (secret shown once), reads, updates, status changes, deletion, secret rolls,
 * validation and the SSRF guard at creation, the per-mode limit, the events
 * every write records, and who may do any of it. The service runs without
 * WEBHOOK_ALLOW_PRIVATE_TARGETS, as in production.
 */

const clock = controllableClock(new Date('2026-11-23T10:00:00.000Z'));
let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({}, { now: clock.now });
  a = await createStoreFixture();
});
afterAll(() => t.close());

const endpoints = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}/webhook-endpoints`;
const history = (s: StoreFixture, query = '') => `/api/v1/merchant/stores/${s.storeId}/changes${query}`;
const URL_A = 'https://hooks.example.com/catalog';

async function create(s: StoreFixture, body: Record<string, unknown> = {}, token = s.ownerToken) {
  const res = await t.request('POST', endpoints(s), { token, body: { url: URL_A, event_types: ['product.created'], ...body } });
  expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: expect.anything() });
  return res.body.data;
}

/** The events recorded for one endpoint, oldest first, as the change history shows them. */
async function eventsOf(s: StoreFixture, endpointId: string) {
  const res = await t.request('GET', history(s, `?resource_type=webhook_endpoint&resource_id=${endpointId}&limit=100`), { token: s.ownerToken });
  expect(res.status).toBe(200);
  return [...res.body.data].reverse();
}

const withoutSecret = ({ secret: _secret, ...rest }: Record<string, unknown>) => rest;

describe('creating an endpoint', () => {
  it('answers 201 with the secret once; reads show only its hint; the event carries the endpoint without it', async () => {
    const res = await t.request('POST', endpoints(a), {
      token: a.ownerToken,
      body: { url: URL_A, event_types: ['product.created', 'product.updated', 'product.created'], description: '  ERP sync  ' },
    });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toEqual({
      id: expect.any(String),
      store_id: a.storeId,
      mode: 'live',
      url: URL_A,
      description: 'ERP sync',
      event_types: ['product.created', 'product.updated'],
      status: 'enabled',
      disabled_reason: null,
      disabled_at: null,
      secret_hint: expect.any(String),
      previous_secret_expires_at: null,
      created_at: clock.now().toISOString(),
      updated_at: clock.now().toISOString(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(created.secret_hint).toBe(`whsec_…${created.secret.slice(-4)}`);
    expect(res.headers.get('location')).toBe(`${t.url}${endpoints(a)}/${created.id}`);

    const read = await t.request('GET', `${endpoints(a)}/${created.id}`, { token: a.ownerToken });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(withoutSecret(created));
    const list = await t.request('GET', endpoints(a), { token: a.ownerToken });
    expect(list.body.data).toContainEqual(withoutSecret(created));
    const gql = await t.graphql(`query($s: ID!) { webhookEndpoints(storeId: $s) { id secretHint } }`, { s: a.storeId }, { token: a.ownerToken });
    for (const text of [read.text, list.text, JSON.stringify(gql.body)]) expect(text).not.toContain(created.secret.slice(6));

    const [event] = await eventsOf(a, created.id);
    expect(event).toMatchObject({
      type: 'webhook_endpoint.created',
      mode: 'live',
      source: 'merchant_rest',
      actor: { kind: 'user', id: a.ownerId },
      resource: { type: 'webhook_endpoint', id: created.id, version: 1 },
      request_id: res.headers.get('x-request-id'),
      changes: null,
    });
    expect(event.data).toEqual(withoutSecret(created));
    const stored = JSON.stringify(await db().event.findMany({ where: { resourceId: created.id } }));
    expect(stored).not.toContain(created.secret.slice(6));
  });

  it('takes mode test, status disabled and "*"; "*" with other types is just "*"', async () => {
    const created = await create(a, { mode: 'test', status: 'disabled', event_types: ['product.deleted', '*'] });
    expect(created).toMatchObject({ mode: 'test', status: 'disabled', disabled_reason: 'manual', disabled_at: clock.now().toISOString(), event_types: ['*'] });
    const [event] = await eventsOf(a, created.id);
    expect(event).toMatchObject({ type: 'webhook_endpoint.created', mode: 'test' });
  });

  it('refuses invalid input with 422 naming the field, and records nothing', async () => {
    const before = await db().event.count({ where: { storeId: a.storeId } });
    const cases: [Record<string, unknown>, string, string][] = [
      [{ url: 'http://hooks.example.com/catalog' }, 'url', 'invalid_value'],
      [{ url: 'https://user:pass@hooks.example.com/catalog' }, 'url', 'invalid_value'],
      [{ url: 'hooks.example.com/catalog' }, 'url', 'invalid_value'],
      [{ url: 'ftp://hooks.example.com/catalog' }, 'url', 'invalid_value'],
      [{ url: `https://hooks.example.com/${'x'.repeat(2100)}` }, 'url', 'too_big'],
      [{ event_types: ['product.created', 'product.exploded'] }, 'event_types', 'unknown_event_type'],
      [{ event_types: [] }, 'event_types', 'too_small'],
      [{ event_types: 'product.created,product.updated' }, 'event_types', 'unknown_event_type'],
      [{ mode: 'production' }, 'mode', 'invalid_value'],
      [{ status: 'paused' }, 'status', 'invalid_value'],
      [{ description: 'x'.repeat(501) }, 'description', 'too_big'],
      [{ secret: 'whsec_mine' }, 'secret', 'unknown_field'],
    ];
    for (const [body, field, code] of cases) {
      const res = await t.request('POST', endpoints(a), { token: a.ownerToken, body: { url: URL_A, event_types: ['product.created'], ...body } });
      expect({ body, status: res.status, code: res.body.code, errors: res.body.errors }).toEqual({
        body,
        status: 422,
        code: 'validation_failed',
        errors: [expect.objectContaining({ field, code })],
      });
    }
    const unknown = await t.request('POST', endpoints(a), { token: a.ownerToken, body: { url: URL_A, event_types: ['product.exploded'] } });
    expect(unknown.body.errors[0].message).toContain('"product.exploded"');
    const missing = await t.request('POST', endpoints(a), { token: a.ownerToken, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((e: any) => [e.field, e.code]).sort()).toEqual([
      ['event_types', 'required'],
      ['url', 'required'],
    ]);
    expect(await db().event.count({ where: { storeId: a.storeId } })).toBe(before);
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[fd00::1]/hook',
    'https://localhost/hook',
    'https://metadata.google.internal/computeMetadata/v1/',
    'https://0.0.0.0/hook',
  ])('refuses %s with 422 webhook_url_forbidden', async (url) => {
    const res = await t.request('POST', endpoints(a), { token: a.ownerToken, body: { url, event_types: ['*'] } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'webhook_url_forbidden', errors: [{ field: 'url', code: 'webhook_url_forbidden' }] });
    expect(res.body.detail).toContain('public addresses only');
  });

  it('refuses http to a loopback host too: only WEBHOOK_ALLOW_PRIVATE_TARGETS=true allows it, and the refusal says so outside production', async () => {
    const res = await t.request('POST', endpoints(a), { token: a.ownerToken, body: { url: 'http://127.0.0.1:8080/hook', event_types: ['*'] } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      field: 'url',
      message:
        'must be an https URL; http is accepted only for a loopback host (localhost, 127.0.0.1), and only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for local development (see /docs/errors/webhook_url_forbidden)',
    });
  });

  it('names WEBHOOK_ALLOW_PRIVATE_TARGETS in a private-target refusal on REST and GraphQL outside production, and its error page explains the setting', async () => {
    const rest = await t.request('POST', endpoints(a), { token: a.ownerToken, body: { url: 'https://192.168.1.20/hook', event_types: ['*'] } });
    expect(rest.status).toBe(422);
    expect(rest.body.errors[0].message).toBe(
      'targets a private address (192.168.1.20); webhooks go to public addresses only; a receiver on this machine or network needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for local development (see /docs/errors/webhook_url_forbidden)',
    );
    const gql = await t.graphql(
      'mutation($s: ID!, $input: WebhookEndpointCreateInput!) { createWebhookEndpoint(storeId: $s, input: $input) { secret } }',
      { s: a.storeId, input: { url: 'https://localhost/hook', eventTypes: ['*'] } },
      { token: a.ownerToken },
    );
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'webhook_url_forbidden' });
    expect(gql.body.errors[0].message).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    const page = await fetch(new URL(rest.body.type, t.url));
    expect(page.status).toBe(200);
    const text = (await page.text()).replace(/<[^>]+>/g, '');
    expect(text).toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS=true');
    expect(text).toContain('http://localhost:8080/hooks');
    expect(text).toMatch(/Never set it in production/);
  });

  it('does not advertise the setting in production', async () => {
    const app = createApp(loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: newTempDir('catalog-data-'), SEED_DEMO: 'false' }), { log: pino({ level: 'silent' }) });
    const server = createServer((req, res) => void app.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const url of ['https://10.1.2.3/hook', 'http://127.0.0.1:8080/hook']) {
        const res = await fetch(base + endpoints(a), { method: 'POST', headers: { authorization: `Bearer ${a.ownerToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ url, event_types: ['*'] }) });
        expect(res.status).toBe(422);
        const body = await res.json();
        expect(body.errors[0].message).toMatch(/^(must be an https URL|targets a private address \(10\.1\.2\.3\); webhooks go to public addresses only)$/);
        expect(JSON.stringify(body)).not.toContain('WEBHOOK_ALLOW_PRIVATE_TARGETS');
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });
});

describe('the per-mode limit', () => {
  it('allows 16 endpoints per mode and store, refuses the 17th with 409, counts disabled ones, and frees a place on delete', async () => {
    const s = await createStoreFixture();
    const made = [];
    for (let i = 0; i < 16; i++) made.push(await create(s, { url: `https://hooks.example.com/${i}`, status: i % 2 ? 'disabled' : 'enabled' }));
    const refused = await t.request('POST', endpoints(s), { token: s.ownerToken, body: { url: URL_A, event_types: ['*'] } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict', limit: 16 });
    expect(refused.body.detail).toContain('at most 16 live webhook endpoints');
    // The other mode has its own 16.
    await create(s, { mode: 'test' });
    expect((await t.request('DELETE', `${endpoints(s)}/${made[3].id}`, { token: s.ownerToken })).status).toBe(204);
    await create(s);
    const live = await t.request('GET', `${endpoints(s)}?mode=live`, { token: s.ownerToken });
    expect(live.body.data).toHaveLength(16);
  });

  it('holds under concurrent creations', async () => {
    const s = await createStoreFixture();
    for (let i = 0; i < 14; i++) await create(s, { url: `https://hooks.example.com/${i}` });
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) => t.request('POST', endpoints(s), { token: s.ownerToken, body: { url: `https://hooks.example.com/c${i}`, event_types: ['*'] } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    expect(await db().webhookEndpoint.count({ where: { storeId: s.storeId } })).toBe(16);
  });
});

describe('updating an endpoint', () => {
  it('changes the fields sent; a status change records disabled/enabled, other fields updated, both when both change; the same values record nothing', async () => {
    const e = await create(a, { event_types: ['product.created'] });
    const patch = (body: Record<string, unknown>) => t.request('PATCH', `${endpoints(a)}/${e.id}`, { token: a.ownerToken, body });

    clock.advance(60_000);
    const edited = await patch({ url: 'https://hooks.example.com/v2', event_types: ['product.updated', 'product.updated', 'category.created'], description: 'v2' });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ url: 'https://hooks.example.com/v2', event_types: ['product.updated', 'category.created'], description: 'v2', status: 'enabled' });
    expect(edited.body.data.updated_at).toBe(clock.now().toISOString());
    expect(edited.body.data.secret_hint).toBe(e.secret_hint);

    clock.advance(60_000);
    const disabled = await patch({ status: 'disabled' });
    expect(disabled.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'manual', disabled_at: clock.now().toISOString() });

    // The same values again: nothing changes, nothing is recorded.
    const same = await patch({ status: 'disabled', description: 'v2', event_types: ['product.updated', 'category.created'] });
    expect(same.body.data).toEqual(disabled.body.data);

    clock.advance(60_000);
    const both = await patch({ status: 'enabled', description: 'back' });
    expect(both.body.data).toMatchObject({ status: 'enabled', disabled_reason: null, disabled_at: null, description: 'back' });

    const events = await eventsOf(a, e.id);
    expect(events.map((x: any) => [x.type, x.resource.version])).toEqual([
      ['webhook_endpoint.created', 1],
      ['webhook_endpoint.updated', 2],
      ['webhook_endpoint.disabled', 3],
      ['webhook_endpoint.updated', 4],
      ['webhook_endpoint.enabled', 4],
    ]);
    const [, update, disable, update2, enable] = events;
    expect(update.changes).toEqual([
      { field: 'url', previous: URL_A, next: 'https://hooks.example.com/v2' },
      { field: 'description', previous: '', next: 'v2' },
      { field: 'event_types', previous: ['product.created'], next: ['product.updated', 'category.created'] },
    ]);
    expect(update.data).toEqual(edited.body.data);
    expect(disable.changes).toEqual([
      { field: 'status', previous: 'enabled', next: 'disabled' },
      { field: 'disabled_reason', previous: null, next: 'manual' },
      { field: 'disabled_at', previous: null, next: disabled.body.data.disabled_at },
    ]);
    expect(update2.changes).toEqual([{ field: 'description', previous: 'v2', next: 'back' }]);
    expect(enable.changes.map((c: any) => c.field)).toEqual(['status', 'disabled_reason', 'disabled_at']);
    expect(enable.data).toEqual(both.body.data);
  });

  it('enabling clears the run of failures; the mode cannot change; read-only fields sent back are ignored', async () => {
    const e = await create(a);
    await db().webhookEndpoint.update({ where: { id: e.id }, data: { status: 'disabled', disabledReason: 'failing', disabledAt: clock.now(), failingSince: new Date(clock.now().getTime() - 3 * 86_400_000) } });
    const gql = (query: string, v: Record<string, unknown> = {}) => t.graphql(query, { s: a.storeId, id: e.id, ...v }, { token: a.ownerToken });
    const read = await gql(`query($s: ID!, $id: ID!) { webhookEndpoint(storeId: $s, id: $id) { status disabledReason failingSince } }`);
    expect(read.body.data.webhookEndpoint).toEqual({ status: 'disabled', disabledReason: 'failing', failingSince: expect.any(String) });
    const enabled = await gql(`mutation($s: ID!, $id: ID!) { updateWebhookEndpoint(storeId: $s, id: $id, input: {status: enabled}) { status disabledReason disabledAt failingSince } }`);
    expect(enabled.body.data.updateWebhookEndpoint).toEqual({ status: 'enabled', disabledReason: null, disabledAt: null, failingSince: null });

    const modeChange = await t.request('PATCH', `${endpoints(a)}/${e.id}`, { token: a.ownerToken, body: { mode: 'test' } });
    expect(modeChange.status).toBe(422);
    expect(modeChange.body.errors).toEqual([expect.objectContaining({ field: 'mode', code: 'immutable' })]);

    const current = (await t.request('GET', `${endpoints(a)}/${e.id}`, { token: a.ownerToken })).body.data;
    const echoed = await t.request('PATCH', `${endpoints(a)}/${e.id}`, { token: a.ownerToken, body: { ...current, description: 'echo' } });
    expect(echoed.status).toBe(200);
    expect(echoed.body.data).toMatchObject({ ...current, description: 'echo', updated_at: expect.any(String) });

    const forbidden = await t.request('PATCH', `${endpoints(a)}/${e.id}`, { token: a.ownerToken, body: { url: 'https://169.254.169.254/' } });
    expect(forbidden.body.code).toBe('webhook_url_forbidden');
    const badTypes = await t.request('PATCH', `${endpoints(a)}/${e.id}`, { token: a.ownerToken, body: { event_types: ['nope'] } });
    expect(badTypes.body.errors).toEqual([expect.objectContaining({ field: 'event_types', code: 'unknown_event_type' })]);
    expect((await t.request('GET', `${endpoints(a)}/${e.id}`, { token: a.ownerToken })).body.data.description).toBe('echo');
  });
});

describe('rolling the secret', () => {
  it('returns the new secret once; the old one is kept for the overlap (default 24 h, 0 to 168)', async () => {
    const e = await create(a);
    const roll = (body?: unknown) => t.request('POST', `${endpoints(a)}/${e.id}/roll-secret`, { token: a.ownerToken, body });

    const rolled = await roll();
    expect(rolled.status).toBe(200);
    const r1 = rolled.body.data;
    expect(r1.secret).toMatch(/^whsec_/);
    expect(r1.secret).not.toBe(e.secret);
    expect(r1.secret_hint).toBe(`whsec_…${r1.secret.slice(-4)}`);
    expect(r1.previous_secret_expires_at).toBe(new Date(clock.now().getTime() + 24 * 3600_000).toISOString());
    let row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: e.id } });
    expect([row.secret, row.previousSecret]).toEqual([r1.secret, e.secret]);

    const r2 = (await roll({ overlap_hours: 2 })).body.data;
    expect(r2.previous_secret_expires_at).toBe(new Date(clock.now().getTime() + 2 * 3600_000).toISOString());
    row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: e.id } });
    // Only the secret just replaced overlaps; the one before it stops at once.
    expect([row.secret, row.previousSecret]).toEqual([r2.secret, r1.secret]);

    const r3 = (await roll({ overlap_hours: 0 })).body.data;
    expect(r3.previous_secret_expires_at).toBeNull();
    row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: e.id } });
    expect([row.secret, row.previousSecret]).toEqual([r3.secret, null]);

    for (const [body, code] of [
      [{ overlap_hours: 169 }, 'too_big'],
      [{ overlap_hours: -1 }, 'too_small'],
      [{ overlap_hours: 1.5 }, 'invalid_type'],
      [{ overlap_hours: '2' }, 'invalid_type'],
      [{ overlap: 2 }, 'unknown_field'],
    ] as const) {
      const res = await roll(body);
      expect({ body, status: res.status, errors: res.body.errors }).toEqual({ body, status: 422, errors: [expect.objectContaining({ code })] });
    }

    const gql = await t.graphql(
      `mutation($s: ID!, $id: ID!) { rollWebhookEndpointSecret(storeId: $s, id: $id, overlapHours: 168) { secret endpoint { secretHint previousSecretExpiresAt } } }`,
      { s: a.storeId, id: e.id },
      { token: a.ownerToken },
    );
    const r4 = gql.body.data.rollWebhookEndpointSecret;
    expect(r4.endpoint).toEqual({ secretHint: `whsec_…${r4.secret.slice(-4)}`, previousSecretExpiresAt: new Date(clock.now().getTime() + 168 * 3600_000).toISOString() });

    const events = (await eventsOf(a, e.id)).filter((x: any) => x.type === 'webhook_endpoint.secret_rolled');
    expect(events).toHaveLength(4);
    expect(events[0].changes).toEqual([
      { field: 'secret_hint', previous: e.secret_hint, next: r1.secret_hint },
      { field: 'previous_secret_expires_at', previous: null, next: r1.previous_secret_expires_at },
    ]);
    const stored = JSON.stringify(await db().event.findMany({ where: { resourceId: e.id } }));
    for (const secret of [e.secret, r1.secret, r2.secret, r3.secret, r4.secret]) expect(stored).not.toContain(secret.slice(6));
  });
});

describe('deleting an endpoint', () => {
  it('answers 204, records the endpoint as it was, and 404 afterwards', async () => {
    const e = await create(a, { description: 'to go' });
    const del = await t.request('DELETE', `${endpoints(a)}/${e.id}`, { token: a.ownerToken });
    expect(del.status).toBe(204);
    expect((await t.request('GET', `${endpoints(a)}/${e.id}`, { token: a.ownerToken })).status).toBe(404);
    expect((await t.request('DELETE', `${endpoints(a)}/${e.id}`, { token: a.ownerToken })).status).toBe(404);
    const events = await eventsOf(a, e.id);
    expect(events.map((x: any) => x.type)).toEqual(['webhook_endpoint.created', 'webhook_endpoint.deleted']);
    expect(events[1].data).toEqual(withoutSecret(e));
  });

  it('404 for an unknown or malformed id and for an endpoint of another store', async () => {
    const b = await createStoreFixture();
    const other = await create(b);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', other.id]) {
      for (const [method, suffix] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/roll-secret'], ['POST', '/ping']] as const) {
        const res = await t.request(method, `${endpoints(a)}/${encodeURIComponent(id)}${suffix}`, { token: a.ownerToken, body: method === 'PATCH' ? { description: 'x' } : undefined });
        expect({ id, method, suffix, status: res.status, code: res.body.code }).toEqual({ id, method, suffix, status: 404, code: 'not_found' });
      }
    }
    expect((await t.request('GET', `${endpoints(b)}/${other.id}`, { token: b.ownerToken })).body.data.description).toBe('');
  });
});

describe('GraphQL', () => {
  it('creates, lists, reads, updates and deletes with the same rules', async () => {
    const s = await createStoreFixture();
    const q = (query: string, v: Record<string, unknown> = {}) => t.graphql(query, { s: s.storeId, ...v }, { token: s.ownerToken });
    const created = await q(
      `mutation($s: ID!) { createWebhookEndpoint(storeId: $s, input: {url: "https://hooks.example.com/gql", eventTypes: ["product.created"], mode: test}) {
        secret endpoint { id storeId mode url eventTypes status secretHint createdAt } } }`,
    );
    expect(created.body.errors).toBeUndefined();
    const { secret, endpoint } = created.body.data.createWebhookEndpoint;
    expect(endpoint).toMatchObject({ storeId: s.storeId, mode: 'test', url: 'https://hooks.example.com/gql', eventTypes: ['product.created'], status: 'enabled' });
    expect(endpoint.secretHint).toBe(`whsec_…${secret.slice(-4)}`);

    const list = await q(`query($s: ID!) { test: webhookEndpoints(storeId: $s, mode: test) { id } live: webhookEndpoints(storeId: $s, mode: live) { id } }`);
    expect(list.body.data).toEqual({ test: [{ id: endpoint.id }], live: [] });

    const bad = await q(`mutation($s: ID!) { createWebhookEndpoint(storeId: $s, input: {url: "https://10.0.0.1/", eventTypes: ["*"]}) { secret } }`);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'webhook_url_forbidden' });
    const unknown = await q(`mutation($s: ID!) { createWebhookEndpoint(storeId: $s, input: {url: "https://hooks.example.com/", eventTypes: ["x.y"]}) { secret } }`);
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ field: 'eventTypes', code: 'unknown_event_type' }] });

    const updated = await q(`mutation($s: ID!, $id: ID!) { updateWebhookEndpoint(storeId: $s, id: $id, input: {status: disabled, eventTypes: ["*"]}) { status disabledReason eventTypes } }`, {
      id: endpoint.id,
    });
    expect(updated.body.data.updateWebhookEndpoint).toEqual({ status: 'disabled', disabledReason: 'manual', eventTypes: ['*'] });
    const deleted = await q(`mutation($s: ID!, $id: ID!) { deleteWebhookEndpoint(storeId: $s, id: $id) { id status } }`, { id: endpoint.id });
    expect(deleted.body.data.deleteWebhookEndpoint).toEqual({ id: endpoint.id, status: 'disabled' });
    const gone = await q(`query($s: ID!, $id: ID!) { webhookEndpoint(storeId: $s, id: $id) { id } }`, { id: endpoint.id });
    expect(gone.body.errors[0].extensions.code).toBe('not_found');

    const history = await q(`query($s: ID!) { changes(storeId: $s, filter: {resourceType: webhook_endpoint}) { edges { node { type mode source } } } }`);
    expect(history.body.data.changes.edges.map((e: any) => e.node)).toEqual([
      { type: 'webhook_endpoint.deleted', mode: 'test', source: 'dashboard_graphql' },
      { type: 'webhook_endpoint.disabled', mode: 'test', source: 'dashboard_graphql' },
      { type: 'webhook_endpoint.updated', mode: 'test', source: 'dashboard_graphql' },
      { type: 'webhook_endpoint.created', mode: 'test', source: 'dashboard_graphql' },
    ]);
  });
});

describe('who may manage endpoints', () => {
  let s: StoreFixture;
  let endpointId: string;
  let messageId: string;
  beforeAll(async () => {
    s = await createStoreFixture();
    endpointId = (await create(s)).id;
    messageId = (await t.request('POST', `${endpoints(s)}/${endpointId}/ping`, { token: s.ownerToken })).body.data.id;
  });

  const routes = () => {
    const messages = `/api/v1/merchant/stores/${s.storeId}/webhook-messages`;
    return [
      ['GET', endpoints(s), undefined],
      ['POST', endpoints(s), { url: URL_A, event_types: ['*'] }],
      ['GET', `${endpoints(s)}/${endpointId}`, undefined],
      ['PATCH', `${endpoints(s)}/${endpointId}`, { description: 'mine now' }],
      ['POST', `${endpoints(s)}/${endpointId}/roll-secret`, {}],
      ['POST', `${endpoints(s)}/${endpointId}/ping`, undefined],
      ['POST', `${endpoints(s)}/${endpointId}/replay`, { since: clock.now().toISOString() }],
      ['GET', messages, undefined],
      ['GET', `${messages}/${messageId}`, undefined],
      ['POST', `${messages}/${messageId}/resend`, undefined],
      ['DELETE', `${endpoints(s)}/${endpointId}`, undefined],
    ] as const;
  };

  it('a member without manage_webhooks gets 403 forbidden on every route, and nothing changes', async () => {
    const almostAll = await memberToken(s.storeId, ['manage_products', 'manage_api_keys', 'manage_oauth_apps', 'view_changes']);
    const before = await db().event.count({ where: { storeId: s.storeId } });
    const messagesBefore = await db().webhookMessage.findMany({ where: { storeId: s.storeId } });
    for (const token of [s.staffToken, s.viewerToken, almostAll]) {
      for (const [method, path, body] of routes()) {
        const res = await t.request(method, path, { token, body });
        expect({ method, path, status: res.status, code: res.body?.code }).toEqual({ method, path, status: 403, code: 'forbidden' });
      }
    }
    // A member of another store, owner there, has no say here.
    for (const [method, path, body] of routes()) {
      const res = await t.request(method, path, { token: a.ownerToken, body });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 403 });
    }
    expect(await db().event.count({ where: { storeId: s.storeId } })).toBe(before);
    expect(await db().webhookMessage.findMany({ where: { storeId: s.storeId } })).toEqual(messagesBefore);
  });

  it('without a token: 401; with a public API key: 401 (dashboard tokens only), and the public API has no webhook routes', async () => {
    const { secret: key } = await createApiKey(testContext(), s.storeId, { name: 'backend', type: 'system', mode: 'live' });
    for (const [method, path, body] of routes()) {
      for (const token of [undefined, key]) {
        const res = await t.request(method, path, { token, body });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      }
    }
    const gql = await t.graphql(`query($s: ID!) { webhookEndpoints(storeId: $s) { id } }`, { s: s.storeId }, { token: key });
    expect(gql.status).toBe(401);
    const anonymous = await t.graphql(`query($s: ID!) { webhookEndpoints(storeId: $s) { id } }`, { s: s.storeId });
    expect(anonymous.body.errors[0].extensions.code).toBe('unauthenticated');
    for (const path of ['/api/public/v1/webhook-endpoints', `/api/public/v1/stores/${s.storeId}/webhook-endpoints`]) {
      const res = await t.request('GET', path, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(404);
    }
  });

  it('the owner and a member holding manage_webhooks may do everything (GraphQL alike)', async () => {
    const member = await memberToken(s.storeId, ['manage_webhooks']);
    const gql = await t.graphql(
      `query($s: ID!, $m: ID!) { webhookEndpoints(storeId: $s) { id } webhookMessage(storeId: $s, id: $m) { id } webhookMessages(storeId: $s) { edges { node { id } } } }`,
      { s: s.storeId, m: messageId },
      { token: member },
    );
    expect(gql.body.errors).toBeUndefined();
    const forbidden = await t.graphql(`query($s: ID!) { webhookEndpoints(storeId: $s) { id } }`, { s: s.storeId }, { token: s.staffToken });
    expect(forbidden.body.errors[0].extensions.code).toBe('forbidden');
    const expected = [200, 201, 200, 200, 200, 202, 202, 200, 200, 202, 204];
    const got = [];
    for (const [i, [method, path, body]] of routes().entries()) {
      const res = await t.request(method, path, { token: i % 2 ? member : s.ownerToken, body });
      got.push(res.status);
    }
    expect(got).toEqual(expected);
    const events = (await eventsOf(s, endpointId)).map((e: any) => [e.type, e.actor.kind]);
    expect(events).toEqual([
      ['webhook_endpoint.created', 'user'],
      ['webhook_endpoint.updated', 'user'],
      ['webhook_endpoint.secret_rolled', 'user'],
      ['webhook_endpoint.deleted', 'user'],
    ]);
  });
});
