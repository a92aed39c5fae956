import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describeEmbeddedProcesses, embeddedEnv, exited, root, spawnServer, startServer } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

const run = promisify(execFile);

/** The embedded data directory has one owner: the running service, which shares it; others are refused or go through it. */
describeEmbeddedProcesses('one owner for the embedded database', () => {
  jest.setTimeout(180_000);

  it('refuses a second service, shares with db:migrate and psql, survives a kill -9, and cleans up on SIGTERM', async () => {
    const dataDir = migratedDataDir('catalog-owner-');
    const first = await startServer(dataDir);
    const holderPid = first.child.pid!;
    try {
      // A second service on the same directory stops at once with one line naming the holder.
      const second = spawnServer(embeddedEnv(dataDir, { PORT: String(first.port + 1), HOST: '127.0.0.1' }));
      const started = Date.now();
      expect(await exited(second)).toBe(1);
      expect(Date.now() - started).toBeLessThan(15_000);
      const lines = second.output().trim().split('\n');
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^error: the embedded database .* is in use by the service "src/server.ts" \\(pid ${holderPid}, since .*\\): stop it first, or set DATA_DIR to another directory$`))]);

      // db:migrate goes through the running service and says there is nothing to do.
      const migrate = await run(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], { cwd: root, env: embeddedEnv(dataDir) });
      expect(migrate.stdout.trim()).toBe(`no pending migrations: PGlite ${path.join(dataDir, 'pglite')} through the running service (pid ${holderPid}) is up to date`);

      // psql, as docs/operations.md shows it, reads the service's data.
      const psql = await run('psql', ['-h', dataDir, '-U', 'postgres', 'postgres', '-At', '-c', 'SELECT count(*) FROM products']);
      expect(Number(psql.stdout.trim())).toBeGreaterThan(0);
    } finally {
      first.child.kill('SIGKILL');
      await exited(first.child);
    }

    // The killed service left its lock and socket behind: the next start takes them over and keeps the data.
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);
    const restarted = await startServer(dataDir);
    expect(restarted.output()).not.toContain('Demo store seeded'); // the data survived: no second seed
    const login = await fetch(`${restarted.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { login(email: "owner@demo.store", password: "demo-password") { token } }' }),
    });
    expect((await login.json()).data.login.token).toMatch(/^svc_dash_/);
    expect(await restarted.stop()).toBe(0);
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
    expect(existsSync(path.join(dataDir, '.s.PGSQL.5432'))).toBe(false);
  });
});
