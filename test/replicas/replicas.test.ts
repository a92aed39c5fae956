import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { type App, createApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/platform/config';
import { type Database, openDatabase } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { canRunReplicaCluster, type ReplicaCluster, startReplicaCluster } from '../helpers/replicaCluster';
import { newTempDir } from '../helpers/templates';

/**
 * Reads on a streaming replica, through the real HTTP handler of two app instances that share a Redis (the
 * deployment docs/operations.md's "Scale out reads" describes): a primary and a replica of the test's own
 * (test/helpers/replicaCluster.ts). The PostgreSQL pass runs it (it needs root and PostgreSQL's server
 * binaries, which that pass's machine has); the embedded pass has no PostgreSQL to replicate.
 */
jest.setTimeout(120_000);

const MAX_LAG_MS = 4000;
const runs = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

(runs ? describe : describe.skip)('streaming replicas with read-your-writes', () => {
  let cluster: ReplicaCluster;
  let database: Database;
  let config: Config;
  const warnings: Record<string, unknown>[] = [];
  const instances: { app: App; server: Server; url: string }[] = [];
  let store: StoreFixture;
  let readerToken: string;

  beforeAll(async () => {
    if (!(await canRunReplicaCluster())) throw new Error('the replica tests need root and PostgreSQL\'s server binaries (PG_BIN_DIR, else Debian\'s under /usr/lib/postgresql)');
    cluster = await startReplicaCluster();
    config = loadConfig({
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      WORKER: 'false',
      DATA_DIR: newTempDir('catalog-replicas-data-'),
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_POOL_SIZE: '4',
      DATABASE_REPLICA_URLS: cluster.replicaUrl,
      DATABASE_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      DATABASE_REPLICA_POLL_MS: '100',
      REDIS_URL: process.env.REDIS_URL!,
    });
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) });
    database = await openDatabase(config.database, { useReplicas: true, log });
    for (let i = 0; i < 2; i++) {
      const app = createApp(config, { log });
      const server = createServer((req, res) => void app.handler(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      instances.push({ app, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }
    store = await createStoreFixture();
    readerToken = store.staffToken; // another user than the owner, who writes in these tests
    await caughtUp();
  });

  afterAll(async () => {
    for (const { app, server } of instances) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    }
    await database?.close();
    await cluster?.stop();
  });

  const call = async (instance: number, method: string, path: string, token: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(instances[instance].url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const products = () => `/api/v1/merchant/stores/${store.storeId}/products`;
  const metrics = async () => (await fetch(`${instances[0].url}/metrics`)).text();
  const metric = (text: string, name: string, labels: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
    return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const replicaLabel = () => `replica="127.0.0.1:${cluster.replicaPort}/postgres"`;
  const reads = async (target: string, reason: string) => metric(await metrics(), 'db_reads_total', `target="${target}",reason="${reason}"`);
  const until = async (what: string, check: () => Promise<boolean>, ms = MAX_LAG_MS * 3) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** The replica serves and has replayed everything written so far. */
  const caughtUp = () => until('the replica has caught up', async () => metric(await metrics(), 'db_replica_lag_seconds', replicaLabel()) === 0 && metric(await metrics(), 'db_replica_serving', replicaLabel()) === 1);

  it('serves a read-heavy mix from the replica, and shows its lag and the routing in /metrics', async () => {
    for (let i = 0; i < 5; i++) expect((await call(i % 2, 'POST', products(), store.ownerToken, { name: `Mix lamp ${i}`, price: 10 + i, category_slugs: ['shoes'] })).status).toBe(201);
    await caughtUp();
    const before = await reads('replica', 'caught_up');
    const listed = await call(0, 'GET', `${products()}?per_page=50`, readerToken);
    expect(listed.status).toBe(200);
    const ids = (listed.body.data as { id: string }[]).map((p) => p.id);
    expect(ids.length).toBeGreaterThanOrEqual(5);
    const mix = Array.from({ length: 60 }, (_, i) => {
      const instance = i % 2;
      if (i % 3 === 0) return call(instance, 'GET', `${products()}?per_page=10`, readerToken);
      if (i % 3 === 1) return call(instance, 'GET', `${products()}/${ids[i % ids.length]}`, readerToken);
      return call(instance, 'POST', '/graphql', readerToken, { query: 'query($s: ID!) { products(storeId: $s, perPage: 5) { items { id name } } }', variables: { s: store.storeId } });
    });
    for (const res of await Promise.all(mix)) {
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
    }
    // Every one of them (the list above too) was a query operation the replica answered.
    expect((await reads('replica', 'caught_up')) - before).toBeGreaterThanOrEqual(60);
    const text = await metrics();
    expect(text).toContain(`db_replica_lag_seconds{${replicaLabel()}} 0`);
    expect(text).toContain(`db_replica_up{${replicaLabel()}} 1`);
    expect(text).toContain(`db_replica_serving{${replicaLabel()}} 1`);
  });

  it('shows a client its own write at once through the other instance, while the replica has not replayed it', async () => {
    await caughtUp();
    // Replay paused: the replica serves (its lag is within the limit for a while) but lacks whatever is written now.
    await cluster.onReplica('SELECT pg_wal_replay_pause()');
    try {
      const behindBefore = await reads('primary', 'behind_own_write');
      const created = await call(0, 'POST', products(), store.ownerToken, { name: 'Written through instance 0', price: 42, category_slugs: ['shoes'] });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      // The writer, through instance 1 at once: the replica has not replayed the write, so the primary answers.
      const own = await call(1, 'GET', `${products()}/${id}`, store.ownerToken);
      expect(own.status).toBe(200);
      expect(own.body.data.name).toBe('Written through instance 0');
      const ownList = await call(1, 'POST', '/graphql', store.ownerToken, { query: 'query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { name } }', variables: { s: store.storeId, id } });
      expect(ownList.body.data.product.name).toBe('Written through instance 0');
      expect((await reads('primary', 'behind_own_write')) - behindBefore).toBe(2);
      // Another client, who wrote nothing, reads the replica: a moment old, it has no such product yet.
      const replicaBefore = await reads('replica', 'caught_up');
      expect((await call(1, 'GET', `${products()}/${id}`, readerToken)).status).toBe(404);
      expect((await reads('replica', 'caught_up')) - replicaBefore).toBe(1);
      // Exports stream from the replica their operation read: the writer's has the product, the other user's not yet.
      const exported = async (token: string) => (await fetch(`${instances[1].url}${products()}/export?format=jsonl`, { headers: { authorization: `Bearer ${token}` } })).text();
      expect(await exported(store.ownerToken)).toContain('Written through instance 0');
      expect(await exported(readerToken)).not.toContain('Written through instance 0');
    } finally {
      await cluster.onReplica('SELECT pg_wal_replay_resume()');
    }
    await caughtUp();
  });

  it('skips a replica that lags past DATABASE_REPLICA_MAX_LAG_MS, with a warning and metrics, and uses it again once it catches up', async () => {
    await cluster.onReplica('SELECT pg_wal_replay_pause()');
    try {
      expect((await call(0, 'POST', products(), store.ownerToken, { name: 'While the replica lags', price: 3, category_slugs: ['shoes'] })).status).toBe(201);
      await until('the replica is skipped', async () => metric(await metrics(), 'db_replica_serving', replicaLabel()) === 0);
      const text = await metrics();
      expect(metric(text, 'db_replica_lag_seconds', replicaLabel())).toBeGreaterThan(MAX_LAG_MS / 1000);
      expect(metric(text, 'db_replica_up', replicaLabel())).toBe(1);
      expect(warnings.some((w) => w.reason === 'lagging' && typeof w.msg === 'string' && w.msg.startsWith('database replica skipped'))).toBe(true);
      const before = await reads('primary', 'no_replica_serving');
      const listed = await call(1, 'GET', `${products()}?per_page=50`, readerToken);
      expect(listed.status).toBe(200);
      expect((listed.body.data as { name: string }[]).map((p) => p.name)).toContain('While the replica lags');
      expect((await reads('primary', 'no_replica_serving')) - before).toBe(1);
    } finally {
      await cluster.onReplica('SELECT pg_wal_replay_resume()');
    }
    await caughtUp();
  });

  it('costs no request an error when the replica stops mid-load: reads fall back to the primary', async () => {
    await caughtUp();
    const failedBefore = await reads('primary', 'replica_failed');
    const skippedBefore = await reads('primary', 'no_replica_serving');
    const statuses: number[] = [];
    let stop = false;
    const worker = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const res =
          i % 2 === 0
            ? await call(n % 2, 'GET', `${products()}?per_page=10`, readerToken)
            : await call(n % 2, 'POST', '/graphql', readerToken, { query: 'query($s: ID!) { products(storeId: $s, perPage: 5) { items { id name } } }', variables: { s: store.storeId } });
        statuses.push(res.status === 200 && !res.body.errors ? 200 : res.status === 200 ? 599 : res.status);
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, n) => worker(n)));
    await new Promise((r) => setTimeout(r, 800));
    await cluster.crashReplica();
    await until('the replica is seen down', async () => metric(await metrics(), 'db_replica_up', replicaLabel()) === 0);
    await new Promise((r) => setTimeout(r, 800));
    stop = true;
    await load;
    expect(statuses.length).toBeGreaterThan(50);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const fellBack = (await reads('primary', 'replica_failed')) - failedBefore + ((await reads('primary', 'no_replica_serving')) - skippedBefore);
    expect(fellBack).toBeGreaterThan(0);
    const text = await metrics();
    expect(text).toContain(`db_replica_serving{${replicaLabel()}} 0`);
    expect(metric(text, 'db_replica_lag_seconds', replicaLabel())).toBeNaN(); // unknown while down (prom-client writes `Nan`)
    expect(warnings.some((w) => w.reason === 'down' || (typeof w.msg === 'string' && w.msg.startsWith('database replica failed a read')))).toBe(true);
  });
});
