import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startLocalS3 } from '../helpers/s3';
import { describeEmbeddedProcesses, embeddedEnv, root, startServer } from '../helpers/serverProcess';
import { migratedDataDir, newTempDir } from '../helpers/templates';

/**
 * Nothing is lost at start (issue 26): `npm start` checks every precondition
 * (the port, the uploads storage, Redis, the data directory, the database)
 * before it migrates or seeds, so a failed start leaves the demo store's
 * one-time token to the next one; and any start-up failure is one line on
 * stderr, with no stack trace, and exit 1.
 */

const run = promisify(execFile);

async function runEntry(script: string, env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', script], { cwd: root, env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** A port something else holds. */
async function takenPort(): Promise<{ port: number; blocker: Server }> {
  const blocker = createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  return { port: (blocker.address() as AddressInfo).port, blocker };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const { port, blocker } = await takenPort();
  await new Promise((r) => blocker.close(r));
  return port;
}

/** Exit 1 with exactly one line on stderr, nothing on stdout (no token, no log), and no stack trace anywhere. */
function expectOneLineFailure(result: { code: number; stdout: string; stderr: string }, expected: RegExp) {
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/^\s+at /m);
  const lines = result.stderr.trim().split('\n');
  expect(lines).toEqual([expect.stringMatching(expected)]);
  expect(result.code).toBe(1);
}

describeEmbeddedProcesses('npm start checks every precondition before it migrates or seeds', () => {
  jest.setTimeout(180_000);

  it('fails one line at a time on a taken port, an unreachable Redis, a missing bucket or bad configuration, and the next good start still prints the one-time token', async () => {
    const dataDir = newTempDir('catalog-start-');
    const start = (extra: Record<string, string>) => runEntry('src/server.ts', embeddedEnv(dataDir, { HOST: '127.0.0.1', ...extra }));

    const { port, blocker } = await takenPort();
    try {
      expectOneLineFailure(await start({ PORT: String(port) }), new RegExp(`^error: 127\\.0\\.0\\.1:${port} is already in use \\(set PORT to another one\\)$`));
    } finally {
      blocker.close();
    }
    // Not migrated, not seeded: the embedded database was not even opened.
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);

    const redisPort = await closedPort();
    expectOneLineFailure(
      await start({ PORT: String(await closedPort()), REDIS_URL: `redis://:s3cret@127.0.0.1:${redisPort}` }),
      new RegExp(`^error: Redis at redis://127\\.0\\.0\\.1:${redisPort} \\(REDIS_URL\\) does not answer: connection refused; .*unset it`),
    );

    const s3 = await startLocalS3();
    try {
      expectOneLineFailure(
        await start({ PORT: String(await closedPort()), ...s3.env, S3_BUCKET: 'no-such-bucket' }),
        /^error: S3 bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ does not exist: create it, or fix S3_BUCKET$/,
      );
    } finally {
      await s3.close();
    }

    expectOneLineFailure(await start({ PORT: 'eighty' }), /^error: Invalid configuration: PORT: .+$/);
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);

    const server = await startServer(dataDir);
    try {
      expect(server.output()).toMatch(/Demo store seeded \(shown once\):[\s\S]*token: +svc_dash_\w+/);
    } finally {
      await server.stop();
    }
  });

  it('fails one line when the uploads directory cannot be made, before the database is opened', async () => {
    const dataDir = newTempDir('catalog-start-');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'uploads'), 'a file where the uploads directory belongs');
    expectOneLineFailure(
      await runEntry('src/server.ts', embeddedEnv(dataDir, { HOST: '127.0.0.1', PORT: String(await closedPort()) })),
      /^error: the uploads directory .*uploads cannot be written \(E\w+\): fix its permissions, or set DATA_DIR to a writable directory$/,
    );
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });

  it('fails one line, no stack trace, on an embedded database directory PGlite cannot open', async () => {
    const dataDir = newTempDir('catalog-start-');
    mkdirSync(path.join(dataDir, 'pglite'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pglite', 'PG_VERSION'), 'not a version\n');
    expectOneLineFailure(
      await runEntry('src/server.ts', embeddedEnv(dataDir, { HOST: '127.0.0.1', PORT: String(await closedPort()) })),
      /^error: the embedded database .*pglite cannot be opened \(.+\): if it is damaged or of another version, move it away or set DATA_DIR to another directory$/,
    );
  });

  it('a second service on the same data directory fails one line naming the first; so does a worker with no service to work through', async () => {
    const dataDir = migratedDataDir('catalog-start-');
    expectOneLineFailure(await runEntry('src/worker.ts', embeddedEnv(dataDir)), /^error: the embedded database under .* is reached through a running service: start it/);
    const first = await startServer(dataDir, { env: { SEED_DEMO: 'false' } });
    try {
      expectOneLineFailure(
        await runEntry('src/server.ts', embeddedEnv(dataDir, { HOST: '127.0.0.1', PORT: String(await closedPort()) })),
        new RegExp(`^error: the embedded database .* is in use by the service "src/server.ts" \\(pid ${first.child.pid}, since .+\\): stop it first, or set DATA_DIR to another directory$`),
      );
    } finally {
      await first.stop();
    }
  });
});
