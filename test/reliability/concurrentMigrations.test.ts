import { Client } from 'pg';
import { readMigrationsList } from '../../src/platform/db/migrate';
import { exited, listening, randomPort, spawnServer } from '../helpers/serverProcess';
import { adminQuery, testDatabaseUrl, withDatabase } from '../helpers/templates';

/**
 * Two service instances started at the same moment on a new, empty PostgreSQL
 * database, as a first rollout of two replicas does: each applies the pending
 * migrations at start. The schema engine holds PostgreSQL's advisory lock while
 * it migrates, so one applies the history and the other waits and finds
 * nothing left to do: both start, and each migration is applied and recorded
 * once. PostgreSQL only (the embedded database has one owner process).
 */
jest.setTimeout(120_000);

const url = testDatabaseUrl();

(url ? describe : describe.skip)('two instances starting at once on an empty database', () => {
  const name = `catalog_rollout_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let children: ReturnType<typeof spawnServer>[] = [];

  beforeAll(() => adminQuery(url!, `CREATE DATABASE ${name}`));
  afterAll(async () => {
    await Promise.all(
      children.map((c) => {
        const done = exited(c);
        c.kill('SIGTERM');
        return done;
      }),
    );
    await adminQuery(url!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('both start and answer; every migration is applied once', async () => {
    const databaseUrl = withDatabase(url!, name);
    const ports = [randomPort(), randomPort() + 1];
    children = ports.map((port) =>
      spawnServer({ ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', WORKER: 'false', LOG_LEVEL: 'info' }),
    );
    await Promise.all(children.map((c) => listening(c)));
    for (const port of ports) expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ migration_name: string; finished: boolean }>(
        'SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations WHERE rolled_back_at IS NULL ORDER BY migration_name',
      );
      const local = (await readMigrationsList()).migrationDirectories.map((d) => d.path);
      expect(rows).toEqual(local.map((migration_name) => ({ migration_name, finished: true })));
    } finally {
      await client.end();
    }
    // Exactly one of the two applied the history; the other found it applied.
    const applied = children.map((c) => /migrations applied/.test(c.output()));
    expect(applied.filter(Boolean)).toHaveLength(1);
  });
});
