import { PrismaClient } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { insertEndpoint, type Receiver, startReceiver, testWorker, verifyDelivery } from '../helpers/webhooks';

/**
 * Several instances on one PostgreSQL database: each runs its own worker with
 * its own connection pool, as separate service processes would. Every event
 * becomes its messages once and every message is attempted once (the receiver
 * answers 200). On the embedded database there is one connection, so the test
 * runs on PostgreSQL only.
 */

const onPostgres = !!process.env.DATABASE_URL;
const maybe = onPostgres ? describe : describe.skip;

let t: TestServer;
let s: StoreFixture;
let receiver: Receiver;
const extraClients: PrismaClient[] = [];

/** A second instance's database client: its own pool on the same database. */
async function anotherInstance(): Promise<PrismaClient> {
  const client = new PrismaClient({ adapter: t.database.adapterFactory });
  await client.$connect();
  extraClients.push(client);
  return client;
}

beforeAll(async () => {
  t = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WORKER_POLL_MS: '20', WEBHOOK_CONCURRENCY: '8' });
  s = await createStoreFixture();
  receiver = await startReceiver();
  await testWorker(t).runOnce(); // the fixture's own events
});
afterAll(async () => {
  for (const c of extraClients) await c.$disconnect();
  await receiver.close();
  await t.close();
});

const products = `/api/v1/merchant/stores/`;

async function writeProducts(n: number, prefix: string) {
  const ids: string[] = [];
  // A few writers at once, as API traffic would be.
  await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      for (let i = w; i < n; i += 4) {
        const res = await t.request('POST', `${products}${s.storeId}/products`, { token: s.ownerToken, body: { name: `${prefix} ${i}`, price: 10 + i, category_slugs: ['shoes'] } });
        expect(res.status).toBe(201);
        ids.push(res.body.data.id);
      }
    }),
  );
  return ids;
}

/** Every message of the endpoints delivered exactly once: one attempt, one request, all bodies verified. */
async function expectExactlyOnce(endpoints: { id: string; secret: string }[], events: number) {
  const messages = await t.database.prisma.webhookMessage.findMany({ where: { endpointId: { in: endpoints.map((e) => e.id) } }, include: { attempts: true } });
  expect(messages).toHaveLength(events * endpoints.length);
  // One message per (event, endpoint): the dispatcher never turned an event into messages twice.
  expect(new Set(messages.map((m) => `${m.eventId}/${m.endpointId}`)).size).toBe(messages.length);
  for (const m of messages) {
    expect(m.status).toBe('succeeded');
    expect(m.attemptCount).toBe(1);
    expect(m.attempts).toHaveLength(1);
  }
  const ids = receiver.requests.map((r) => r.headers['webhook-id']);
  expect(ids).toHaveLength(messages.length);
  expect(new Set(ids).size).toBe(ids.length);
  const secretOf = new Map(messages.map((m) => [`msg_${m.id}`, endpoints.find((e) => e.id === m.endpointId)!.secret]));
  for (const r of receiver.requests) verifyDelivery(secretOf.get(r.headers['webhook-id'])!, r);
}

maybe('two instances on one PostgreSQL database', () => {
  afterEach(async () => {
    await t.database.prisma.webhookEndpoint.deleteMany({});
    receiver.reset();
    receiver.setDefault({ status: 200, body: 'ok' });
  });

  it('running passes side by side, many times, while writes go on: each message attempted once', async () => {
    const endpoints = [
      await insertEndpoint(t, s.storeId, { url: `${receiver.url}/a` }),
      await insertEndpoint(t, s.storeId, { url: `${receiver.url}/b`, eventTypes: ['product.created'] }),
    ];
    const one = testWorker(t);
    const two = testWorker({ config: t.config, database: { ...t.database, prisma: await anotherInstance() } });
    receiver.setDefault({ status: 200, body: 'ok', delayMs: 5 });
    let written = 0;
    for (let round = 0; round < 10; round++) {
      const writes = writeProducts(6, `round ${round}`);
      await Promise.all([one.runOnce(), two.runOnce(), one.runOnce(), two.runOnce(), writes]);
      written += 6;
    }
    await Promise.all([one.runOnce(), two.runOnce()]);
    await expectExactlyOnce(endpoints, written);
  });

  it('two started workers (as in two service processes) share a burst: each message attempted once', async () => {
    const endpoints = [
      await insertEndpoint(t, s.storeId, { url: `${receiver.url}/a` }),
      await insertEndpoint(t, s.storeId, { url: `${receiver.url}/b` }),
      await insertEndpoint(t, s.storeId, { url: `${receiver.url}/c` }),
    ];
    receiver.setDefault({ status: 200, body: 'ok', delayMs: 10 });
    const workers = [testWorker(t), testWorker({ config: t.config, database: { ...t.database, prisma: await anotherInstance() } })];
    for (const w of workers) w.start();
    try {
      await writeProducts(40, 'burst');
      await receiver.waitFor(120, 30_000);
      // Give a duplicate the chance to show up.
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    await expectExactlyOnce(endpoints, 40);
  });
});
