import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { embeddedEnv, root } from '../helpers/serverProcess';
import { newTempDir } from '../helpers/templates';

const run = promisify(execFile);

/** Runs an entry point as `npm start` / `npm run cli` / `npm run db:migrate` do and returns its exit code and output. */
async function runEntry(script: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', ...script], { cwd: root, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const entryPoints: Record<string, string[]> = {
  'npm start': ['src/server.ts'],
  'npm run cli': ['src/cli.ts', 'user', 'create', '--email', 'ops@example.test', '--name', 'Ops'],
  'npm run db:migrate': ['scripts/db-migrate.ts'],
};

/** A port on which nothing listens: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe('operational errors are one clear line', () => {
  jest.setTimeout(120_000);

  const pgUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const withPassword = (url: string, password: string) => {
    const u = new URL(url);
    u.password = password;
    return u;
  };

  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    ['a refused connection', async () => `postgres://svc:s3cret-pass@127.0.0.1:${await closedPort()}/catalog`, /^error: cannot connect to PostgreSQL at postgres:\/\/svc@127\.0\.0\.1:\d+\/catalog: connection refused/],
    [
      'a missing database',
      async () => {
        const u = withPassword(pgUrl, 's3cret-pass');
        u.pathname = '/no_such_catalog_db';
        return u.toString();
      },
      /^error: PostgreSQL at postgres:\/\/\w+@[\w.]+:\d+\/no_such_catalog_db: database "no_such_catalog_db" does not exist \(create it/,
    ],
    [
      'an unknown user',
      async () => {
        const u = withPassword(pgUrl, 's3cret-pass');
        u.username = 'no_such_catalog_user';
        return u.toString();
      },
      /^error: PostgreSQL at postgres:\/\/no_such_catalog_user@[\w.]+:\d+\/\w+ refused the credentials: .*no_such_catalog_user/,
    ],
  ];

  for (const [entry, script] of Object.entries(entryPoints)) {
    for (const [problem, url, expected] of cases) {
      it(`${entry} with ${problem}: exit 1, one line with the URL but not its password`, async () => {
        const { code, stdout, stderr } = await runEntry(script, { ...process.env, NODE_OPTIONS: '', DATABASE_URL: await url(), DATA_DIR: newTempDir('catalog-ops-'), PORT: '0' });
        expect(code).toBe(1);
        expect(stdout).toBe('');
        const lines = stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(expected);
        expect(stderr).not.toContain('s3cret-pass');
      });
    }
  }

  it('npm start on a port already in use: exit 1, one line naming the port', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const { port } = blocker.address() as AddressInfo;
    try {
      const { code, stderr } = await runEntry(['src/server.ts'], embeddedEnv(newTempDir('catalog-ops-'), { PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false' }));
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(`error: 127.0.0.1:${port} is already in use (set PORT to another one)`);
    } finally {
      blocker.close();
    }
  });

  it('db:migrate says when nothing is pending', async () => {
    const dataDir = newTempDir('catalog-ops-');
    const first = await runEntry(['scripts/db-migrate.ts'], embeddedEnv(dataDir));
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^applied \d+ migrations? to PGlite .* in \d+ ms: \d+_init(, \d+_\w+)*\n$/);
    const again = await runEntry(['scripts/db-migrate.ts'], embeddedEnv(dataDir));
    expect(again.stdout).toMatch(/^no pending migrations: PGlite .* is up to date\n$/);
  });
});
