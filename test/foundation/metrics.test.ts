import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { collectProcessMetrics } from '../../src/platform/metrics';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey } from '../public/helpers';
import { type Receiver, startReceiver, testWorker } from '../helpers/webhooks';
import { filePart, makeImage, restUpload } from '../images/images';
import { createProduct, productsPath } from '../products/helpers';

/**
 * /metrics in the Prometheus text format, read back with a Prometheus
 * text-format parser as a scraper would: requests by route pattern, method and
 * status with their latency, rate-limit rejections, webhook delivery attempts,
 * the outbox and webhook queues, the pool, and the process's own metrics. Labels stay bounded
 * whatever paths clients send.
 */
interface Family {
  name: string;
  type: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}

let t: TestServer;
let a: StoreFixture;
let receiver: Receiver;

/** The families a scrape returns, by name; `text` keeps the exposition itself. */
async function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Map<string, Family> & { text: string }> {
  const res = await fetch(`${server.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const families = parsePrometheusTextFormat(text) as Family[];
  return Object.assign(new Map(families.map((f) => [f.name, f])), { text });
}

const sample = (f: Family | undefined, labels: Record<string, string>) => f?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

beforeAll(async () => {
  // The process metrics, as the service starts them (src/server.ts; test/foundation/server.test.ts scrapes a real one).
  collectProcessMetrics();
  // A public rate limit a test can reach: one request, then 429.
  t = await startTestServer({ RATE_LIMIT_LIVE_PER_SECOND: '0.01', RATE_LIMIT_LIVE_BURST: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  a = await createStoreFixture();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('/metrics', () => {
  it('counts requests by route pattern, method and status, with their latency', async () => {
    await createProduct(t, a);
    for (let i = 0; i < 3; i++) expect((await t.request('GET', productsPath(a.storeId), { token: a.ownerToken })).status).toBe(200);
    expect((await t.request('GET', `${productsPath(a.storeId)}?per_page=0`, { token: a.ownerToken })).status).toBe(422);
    expect((await t.graphql('{ __typename }', undefined, { token: a.ownerToken })).status).toBe(200);
    const m = await scrape(t);
    const route = '/api/v1/merchant/stores/:storeId/products';
    const requests = m.get('http_requests_total');
    expect(requests?.type).toBe('COUNTER');
    expect(Number(sample(requests, { route, method: 'GET', status: '200' })?.value)).toBeGreaterThanOrEqual(3);
    expect(Number(sample(requests, { route, method: 'GET', status: '422' })?.value)).toBeGreaterThanOrEqual(1);
    expect(Number(sample(requests, { route, method: 'POST', status: '201' })?.value)).toBeGreaterThanOrEqual(1);
    expect(Number(sample(requests, { route: '/graphql', method: 'POST', status: '200' })?.value)).toBeGreaterThanOrEqual(1);
    expect(m.get('http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    // The parser merges a labelled histogram's series into one; its count is read from the exposition.
    const count = new RegExp(`^http_request_duration_seconds_count\\{route="${route}",method="GET",status="200"\\} (\\d+)$`, 'm').exec(m.text);
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(3);
    // The process's own: CPU, memory, event loop.
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']) expect(m.has(name)).toBe(true);
  });

  it('times /graphql operations by type, root field and outcome, never by the client-chosen operation name', async () => {
    const name = `Op${Math.random().toString(36).slice(2, 8)}`;
    const ok = await t.graphql(`query ${name}($s: ID!) { products(storeId: $s) { items { id } } }`, { s: a.storeId }, { token: a.ownerToken });
    expect(ok.body.errors).toBeUndefined();
    const failed = await t.graphql('mutation { createProduct(storeId: "nope", input: { name: "x", price: 1 }) { id } }', undefined, { token: a.ownerToken });
    expect(failed.body.errors?.length).toBeGreaterThan(0);
    expect((await t.graphql('{ viewer { id } __typename other: viewer { id } }', undefined, { token: a.ownerToken })).body.errors).toBeUndefined();
    const m = await scrape(t);
    expect(m.get('graphql_operation_duration_seconds')?.type).toBe('HISTOGRAM');
    const count = (labels: string) => Number(new RegExp(`^graphql_operation_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(m.text)?.[1]);
    expect(count('type="query",root_field="products",outcome="ok"')).toBeGreaterThanOrEqual(1);
    expect(count('type="mutation",root_field="createProduct",outcome="error"')).toBeGreaterThanOrEqual(1);
    expect(count('type="query",root_field="viewer",outcome="ok"')).toBeGreaterThanOrEqual(1);
    expect(m.text).not.toContain(name);
  });

  it('labels any path no route matches as unmatched, however many clients send', async () => {
    for (let i = 0; i < 20; i++) expect((await t.request('GET', `/nothing/here/${i}-${Math.random()}`)).status).toBe(404);
    expect((await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/nothing-${Math.random()}`, { token: a.ownerToken })).status).toBe(404);
    const requests = (await scrape(t)).get('http_requests_total')!;
    expect(requests.metrics.filter((s) => s.labels?.route?.includes('nothing'))).toEqual([]);
    expect(Number(sample(requests, { route: 'unmatched', method: 'GET', status: '404' })?.value)).toBeGreaterThanOrEqual(21);
  });

  it('counts rate-limit rejections by mode', async () => {
    const { secret } = await createKey(t, a, { type: 'secret', mode: 'live', scopes: ['products:read'] });
    const before = Number(sample((await scrape(t)).get('rate_limit_rejections_total'), { mode: 'live' })?.value ?? 0);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await t.request('GET', '/api/public/v1/products', { token: secret })).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const after = Number(sample((await scrape(t)).get('rate_limit_rejections_total'), { mode: 'live' })?.value);
    expect(after - before).toBe(statuses.filter((s) => s === 429).length);
  });

  it('shows the outbox and webhook queues as the database holds them', async () => {
    // No worker runs in this test server: the events of the writes above wait for the dispatcher.
    await createProduct(t, a, { name: 'Queued' });
    const m = await scrape(t);
    expect(Number(sample(m.get('outbox_undispatched_events'), {})?.value)).toBeGreaterThanOrEqual(2);
    expect(Number(sample(m.get('webhook_pending_messages'), {})?.value)).toBe(0);
    expect(Number(sample(m.get('webhook_delivery_lag_seconds'), {})?.value)).toBe(0);
    if (t.database.kind === 'postgres') {
      expect(Number(sample(m.get('db_pool_connections'), { state: 'total' })?.value)).toBeGreaterThanOrEqual(1);
    } else {
      expect(m.get('db_pool_connections')?.metrics ?? []).toEqual([]);
    }
  });
  it('counts the bytes of accepted uploads', async () => {
    const bytes = async () => Number(sample((await scrape(t)).get('upload_bytes_total'), {})?.value ?? 0);
    const before = await bytes();
    const file = await makeImage('png', 40, 30);
    expect((await restUpload(t, a.storeId, a.ownerToken, [filePart(file, 'a.png', 'image/png')])).status).toBe(201);
    expect(await bytes()).toBe(before + file.length);
    // A refused file is not counted.
    expect((await restUpload(t, a.storeId, a.ownerToken, [filePart(Buffer.from('not an image at all'), 'b.png', 'image/png')])).status).toBe(415);
    expect(await bytes()).toBe(before + file.length);
  });

  it('counts webhook delivery attempts by outcome, and shows a failed one waiting for its retry', async () => {
    const attempts = async (outcome: string) => Number(sample((await scrape(t)).get('webhook_delivery_attempts_total'), { outcome })?.value ?? 0);
    const worker = testWorker(t);
    // Everything written so far is dispatched to no endpoint.
    await worker.runOnce();
    const created = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints`, { token: a.ownerToken, body: { url: receiver.url, event_types: ['product.created'] } });
    expect(created.status).toBe(201);
    const [delivered, failed] = [await attempts('delivered'), await attempts('failed')];
    await createProduct(t, a, { name: 'Delivered' });
    await worker.runOnce();
    await receiver.waitFor(1);
    expect(await attempts('delivered')).toBe(delivered + 1);
    receiver.setDefault({ status: 500, body: 'down' });
    await createProduct(t, a, { name: 'Refused' });
    await worker.runOnce();
    await receiver.waitFor(2);
    expect(await attempts('failed')).toBe(failed + 1);
    // The refused message waits for its retry, a few seconds from now: pending, not yet late.
    expect(Number(sample((await scrape(t)).get('webhook_pending_messages'), {})?.value)).toBe(1);
  });
});

describe('/metrics without a database', () => {
  it('still answers, with the process metrics, and the queue gauges unknown (NaN)', async () => {
    // A fresh process with no database open: the scrape does not fail, and no queue reads as empty.
    const script = `const m = require('./src/platform/metrics'); m.collectProcessMetrics(); m.registry.metrics().then((text) => console.log(JSON.stringify(text)))`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { cwd: path.resolve(__dirname, '../..'), timeout: 60_000 });
    const families = new Map((parsePrometheusTextFormat(JSON.parse(stdout.trim().split('\n').pop()!)) as Family[]).map((f) => [f.name, f]));
    expect(families.has('process_cpu_user_seconds_total')).toBe(true);
    // prom-client writes NaN as `Nan`; Prometheus reads any case.
    for (const name of ['outbox_undispatched_events', 'webhook_pending_messages', 'webhook_delivery_lag_seconds']) {
      expect(families.get(name)?.metrics.map((m) => m.value?.toLowerCase())).toEqual(['nan']);
    }
  }, 60_000);
});

describe('/metrics with METRICS_TOKEN', () => {
  let guarded: TestServer;
  const token = 'metrics-token-0123456789';
  beforeAll(async () => {
    guarded = await startTestServer({ METRICS_TOKEN: token });
  });
  afterAll(() => guarded?.close());

  it('asks for the token as a bearer token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Basic ${token}`]) {
      const res = await fetch(`${guarded.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect({ status: res.status, code: (await res.json()).code }).toEqual({ status: 401, code: 'unauthenticated' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    }
    expect((await scrape(guarded, { authorization: `Bearer ${token}` })).has('http_requests_total')).toBe(true);
  });

  it('is read-only', async () => {
    const res = await fetch(`${guarded.url}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});
