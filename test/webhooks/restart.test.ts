import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from 'pg';
import { socketConnectionUrl } from '../../src/platform/db/embedded/open';
import { describeEmbeddedProcesses, embeddedEnv, exited, root, type ServerProcess, startServer } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';
import { type Receiver, startReceiver, verifyDelivery } from '../helpers/webhooks';

/**
 * The service as a real process on the embedded database: killed with
 * attempts in flight, it delivers everything outstanding once restarted (at
 * least once); stopped with SIGTERM, it finishes its attempts first; with
 * WORKER=false it only serves requests and `npm run worker` delivers.
 */

jest.setTimeout(120_000);

const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WORKER_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_CONCURRENCY: '2' };

/**
 * One data directory for the whole file, as an operator's: each test goes on
 * with the service the previous one left running (starting a fresh embedded
 * database is the slow part).
 */
const dataDir = migratedDataDir('catalog-webhooks-restart-');
let receiver: Receiver;
let service: ServerProcess;
let demo: { token: string; storeId: string };
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  receiver = await startReceiver();
  service = await startServer(dataDir, { env: ENV });
  demo = demoOf(service);
  endpoint = await addEndpoint(demo.storeId, receiver.url);
});
afterAll(async () => {
  if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
  await receiver.close();
});
afterEach(() => {
  receiver.reset();
  receiver.setDefault({ status: 200, body: 'ok' });
});

/** SQL through the running service's socket, as psql or the CLI reach the embedded database. */
async function sql<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: socketConnectionUrl(dataDir) });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The demo store and token the service printed at its first start. */
function demoOf(service: ServerProcess) {
  const m = /Authorization: Bearer (svc_dash_\w+)" http:\/\/localhost:\d+\/api\/v1\/merchant\/stores\/([0-9a-f-]+)\/products/.exec(service.output());
  if (!m) throw new Error(`no demo store printed:\n${service.output()}`);
  return { token: m[1], storeId: m[2] };
}

/** An endpoint of the demo store for every event type, through the REST API; waits for the delivery of its own creation. */
async function addEndpoint(storeId: string, url: string) {
  const res = await fetch(`${service.url}/api/v1/merchant/stores/${storeId}/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, event_types: ['*'] }),
  });
  expect(res.status).toBe(201);
  const { data } = (await res.json()) as { data: { id: string; secret: string } };
  const [created] = await receiver.waitFor(1);
  expect(verifyDelivery(data.secret, created).type).toBe('webhook_endpoint.created');
  receiver.reset();
  return { id: data.id, secret: data.secret };
}

async function createProducts(n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${service.url}/api/v1/merchant/stores/${demo.storeId}/products`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Outstanding ${i}`, price: 5 + i, category_slugs: ['home'] }),
    });
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as any).data.id);
  }
  return ids;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The messages about these products. */
const messagesAbout = (products: string[]) =>
  sql<{ id: string; status: string; attempt_count: number; product_id: string }>(
    `SELECT m.id, m.status::text AS status, m.attempt_count, e.resource_id AS product_id
     FROM webhook_messages m JOIN events e ON e.id = m.event_id WHERE m.endpoint_id = $1 AND e.resource_id = ANY($2) ORDER BY m.id`,
    [endpoint.id, products],
  );

function spawnWorker(): ChildProcess & { output(): string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], { cwd: root, env: embeddedEnv(dataDir, ENV), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

describeEmbeddedProcesses('a killed service', () => {
  it('delivers every outstanding message after a restart on the same data, the interrupted ones again (at least once)', async () => {
    // The receiver takes the first attempts and never answers.
    receiver.setDefault({ hang: true });
    const products = await createProducts(5);
    await receiver.waitFor(2);
    service.child.kill('SIGKILL');
    await exited(service.child);
    const beforeRestart = receiver.requests.length;
    expect(beforeRestart).toBe(2); // WEBHOOK_CONCURRENCY=2: two attempts were in flight, three messages waited
    const inFlight = new Set(receiver.requests.map((r) => r.headers['webhook-id']));

    receiver.setDefault({ status: 200, body: 'ok' });
    service = await startServer(dataDir, { env: ENV });
    const final = await until('every message delivered', async () => {
      const rows = await messagesAbout(products);
      return rows.length === products.length && rows.every((r) => r.status === 'succeeded') && rows;
    });
    // After the restart each product's creation was delivered, validly signed, and answered 200.
    const delivered = new Map(receiver.requests.slice(beforeRestart).map((r) => [r.headers['webhook-id'], verifyDelivery(endpoint.secret, r)]));
    expect(new Set(delivered.keys())).toEqual(new Set(final.map((r) => `msg_${r.id}`)));
    expect(new Set([...delivered.values()].map((b: any) => b.data.resource.id))).toEqual(new Set(products));
    // The attempts the kill interrupted were made again, under the same webhook-id, once their lease ran out.
    for (const id of inFlight) {
      expect(receiver.requests.filter((r) => r.headers['webhook-id'] === id)).toHaveLength(2);
      expect(final.find((r) => `msg_${r.id}` === id)!.attempt_count).toBe(2);
    }
  });
});

describeEmbeddedProcesses('a service stopped with SIGTERM', () => {
  it('finishes and records the attempts in flight before it exits: nothing is sent twice after a restart', async () => {
    receiver.setDefault({ status: 200, body: 'ok', delayMs: 700 });
    const products = await createProducts(1);
    await receiver.waitFor(1);
    expect(await service.stop()).toBe(0);
    expect(service.output()).toContain('"msg":"worker stopped"');
    receiver.setDefault({ status: 200, body: 'ok' });
    service = await startServer(dataDir, { env: ENV });
    expect((await messagesAbout(products)).map((r) => [r.status, r.attempt_count])).toEqual([['succeeded', 1]]);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests).toHaveLength(1);
    expect(verifyDelivery(endpoint.secret, receiver.requests[0]).data.resource.id).toBe(products[0]);
  });
});

describeEmbeddedProcesses('WORKER=false and `npm run worker`', () => {
  it('a service with WORKER=false delivers nothing; the worker process beside it delivers, and stops on SIGTERM', async () => {
    expect(await service.stop()).toBe(0);
    // Without a service to go through, the worker refuses to hold the embedded database itself.
    const alone = spawnWorker();
    expect(await exited(alone)).toBe(1);
    expect(alone.output()).toMatch(/reached through a running service: start it/);

    service = await startServer(dataDir, { env: { ...ENV, WORKER: 'false' } });
    let worker: (ChildProcess & { output(): string }) | null = null;
    try {
      const products = await createProducts(2);
      await new Promise((r) => setTimeout(r, 600));
      expect(receiver.requests).toHaveLength(0);
      expect(service.output()).not.toContain('worker started');

      worker = spawnWorker();
      const requests = await receiver.waitFor(2);
      const bodies = requests.map((r) => verifyDelivery(endpoint.secret, r));
      expect(bodies.map((b) => [b.type, b.data.resource.id]).sort()).toEqual(products.map((id) => ['product.created', id]).sort());
      // JSON lines, like the server's.
      const lines = worker.output().trim().split('\n');
      expect(lines.every((l) => JSON.parse(l).msg !== undefined)).toBe(true);
      expect(worker.output()).toContain('"msg":"worker started"');
      worker.kill('SIGTERM');
      expect(await exited(worker)).toBe(0);
      expect(worker.output()).toContain('"msg":"stopped"');
    } finally {
      if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    }
  });
});
