import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { openTestDatabase } from '../helpers/harness';
import { exited, listening, randomPort, spawnServer } from '../helpers/serverProcess';
import { testDatabaseUrl, withDatabase } from '../helpers/templates';
import { productPath, productsPath } from '../products/helpers';

/**
 * Two service processes on one PostgreSQL and one Redis, as a deployment
 * behind a load balancer runs them: the public API's rate limit is one bucket
 * for both, optimistic concurrency holds across them, and writes without a
 * precondition made through both at once all succeed. PostgreSQL and Redis
 * only (the embedded database has one owner process).
 */
jest.setTimeout(120_000);

const url = testDatabaseUrl();
const redisUrl = process.env.REDIS_URL;
const runs = url !== undefined && redisUrl !== undefined;

interface Instance {
  url: string;
  stop: () => Promise<unknown>;
  output: () => string;
}

async function startInstance(databaseUrl: string, env: Record<string, string>): Promise<Instance> {
  const port = randomPort();
  const child = spawnServer({ ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, REDIS_URL: redisUrl!, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'info', ...env });
  await listening(child);
  return {
    url: `http://127.0.0.1:${port}`,
    output: child.output,
    stop: () => {
      const done = exited(child);
      child.kill('SIGTERM');
      return done;
    },
  };
}

(runs ? describe : describe.skip)('two service instances on one PostgreSQL and Redis', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let instances: Instance[];
  let a: StoreFixture;

  beforeAll(async () => {
    database = await openTestDatabase();
    const [{ name }] = await db().$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
    const databaseUrl = withDatabase(url!, name);
    // A small shared limit, so that whether the two share one bucket shows in a dozen requests.
    const env = { RATE_LIMIT_LIVE_PER_SECOND: '0.1', RATE_LIMIT_LIVE_BURST: '6', RATE_LIMIT_REDIS_PREFIX: `test:instances:${name}:`, WORKER: 'false' };
    instances = await Promise.all([startInstance(databaseUrl, env), startInstance(databaseUrl, env)]);
    a = await createStoreFixture();
  });
  afterAll(async () => {
    await Promise.all((instances ?? []).map((i) => i.stop()));
    await database?.close();
    await database?.dropDatabase();
  });

  const call = (i: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(instances[i].url + path, {
      method,
      headers: { authorization: `Bearer ${a.ownerToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (res) => ({ status: res.status, headers: res.headers, body: await res.json().catch(() => null) }));

  it('the public rate limit is one bucket for both instances', async () => {
    const key = await call(0, 'POST', '/graphql', {
      query: 'mutation($s: ID!, $input: ApiKeyCreateInput!) { createApiKey(storeId: $s, input: $input) { secret } }',
      variables: { s: a.storeId, input: { name: 'shared', type: 'secret', mode: 'live', scopes: ['products:read'] } },
    });
    expect(key.body.errors).toBeUndefined();
    const secret = key.body.data.createApiKey.secret as string;
    const statuses: number[] = [];
    for (let n = 0; n < 12; n++) {
      const res = await fetch(`${instances[n % 2].url}/api/public/v1/products`, { headers: { authorization: `Bearer ${secret}` } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    // Six tokens in one bucket: six answers in all, whichever instance served them (separate buckets would allow twelve).
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });

  it('optimistic concurrency holds across instances: of two writers of one version, one wins', async () => {
    const created = await call(0, 'POST', productsPath(a.storeId), { name: 'Shared', price: 10, category_slugs: ['shoes'] });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const results = await Promise.all([0, 1, 0, 1].map((i, n) => call(i, 'PUT', productPath(a.storeId, id), { name: `Writer ${n}` }, { 'If-Match': '"v1"' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412]);
    const read = await call(1, 'GET', productPath(a.storeId, id));
    expect(read.body.data.version).toBe(2);
  });

  it('writes without a precondition through both instances at once all succeed, each its own version', async () => {
    const created = await call(1, 'POST', productsPath(a.storeId), { name: 'Busy', price: 10, category_slugs: ['shoes'] });
    const id = created.body.data.id;
    const results = await Promise.all(Array.from({ length: 12 }, (_, n) => call(n % 2, 'PUT', productPath(a.storeId, id), { description: `from ${n}` })));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(results.map((r) => r.body.data.version).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, n) => n + 2));
    expect(await db().event.count({ where: { resourceId: id, type: 'product.updated' } })).toBe(12);
  });
});
