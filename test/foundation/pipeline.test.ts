import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, productPath, productsPath } from '../products/helpers';

/**
 * REST routes run through the pipeline /graphql runs (src/api/pipeline.ts): the rules written there as
 * plugins apply to them, seen here from outside: operation telemetry counts a REST call by its root field,
 * session CSRF and the idempotency plugin see REST writes, the document limits judge REST's documents, and
 * an unexpected failure is masked the same way on both surfaces.
 */
let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(async () => {
  await t?.close();
});

/** The operations the pipeline timed with this root field and type that succeeded (the histogram's _count series). */
async function operationCount(rootField: string, type: string): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('graphql_operation_duration_seconds_count{') && l.includes(`type="${type}"`) && l.includes(`root_field="${rootField}"`) && l.includes('outcome="ok"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('REST runs through the GraphQL pipeline', () => {
  it('operation telemetry counts REST reads and writes by their root field, compiled plans included', async () => {
    const before = { list: await operationCount('products', 'query'), read: await operationCount('product', 'query'), create: await operationCount('createProduct', 'mutation') };
    const created = await createProduct(t, a);
    expect((await t.request('GET', productsPath(a.storeId), { token: a.ownerToken })).status).toBe(200);
    expect((await t.request('GET', productPath(a.storeId, created.id), { token: a.ownerToken })).status).toBe(200);
    expect({ list: await operationCount('products', 'query'), read: await operationCount('product', 'query'), create: await operationCount('createProduct', 'mutation') }).toEqual({
      list: before.list + 1,
      read: before.read + 1,
      create: before.create + 1,
    });
  });

  it("a REST write's Idempotency-Key and a GraphQL idempotencyKey are the same rule: one key, one write, a replay that says so", async () => {
    const key = `pipeline-${Date.now()}`;
    const body = { name: 'Keyed', price: 5, category_slugs: [a.categories[0]] };
    const first = await t.request('POST', productsPath(a.storeId), { token: a.ownerToken, body, headers: { 'Idempotency-Key': key } });
    const again = await t.request('POST', productsPath(a.storeId), { token: a.ownerToken, body, headers: { 'Idempotency-Key': key } });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect([first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')]).toEqual([null, 'true']);
  });

  it("the document limits judge REST's documents too: a route whose document breaks one fails at start, naming the route", async () => {
    const config = loadConfig({ ...process.env, GRAPHQL_MAX_DEPTH: '3', DATA_DIR: t.config.dataDir });
    const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    const before = sockets();
    expect(() => createApp(config, { log: pino({ level: 'silent' }) })).toThrow(/REST route GET \/api\/v1\/merchant\/stores\/:storeId\/products: .*depth/i);
    // The failed start leaves no connection behind (with REDIS_URL set it had opened two Redis clients).
    await new Promise((r) => setTimeout(r, 200));
    expect(sockets()).toBeLessThanOrEqual(before);
  });
});
