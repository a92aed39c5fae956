import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';
import { closeDatabase, openDatabase } from '../../src/platform/db/client';
import { killedWithTestFile } from './serverProcess';
import { adminQuery, migratedDataDir, newTempDir, templateStatePath, testDatabaseUrl, withDatabase } from './templates';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `src/cli.ts` as a real process on its own embedded database in `dataDir`
 * (whatever the test run's DATABASE_URL), or on the PostgreSQL database `databaseUrl` names: `exec` resolves with stdout/stderr or
 * rejects with the exit code, `json` parses the printed result, `outcome`
 * resolves with the exit code and both streams whatever the code.
 */
export function cliOn(dataDir: string, databaseUrl = '') {
  const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, NODE_OPTIONS: '' };
  const exec = (...args: string[]) => {
    const running = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env });
    killedWithTestFile(running.child);
    return running;
  };
  const outcome = (...args: string[]): Promise<CliOutcome> =>
    exec(...args).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code?: number; stdout?: string; stderr?: string }) => {
        if (typeof e.code !== 'number') throw e;
        return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
      },
    );
  return { exec, outcome, json: async (...args: string[]) => JSON.parse((await exec(...args)).stdout) };
}

/**
 * The words of a documented command line as a POSIX shell splits them (quotes
 * removed, `$VAR` expanded from `env`), so documentation is run as a reader's
 * shell would run it.
 */
export function shellWords(line: string, env: Record<string, string> = {}): string[] {
  const out = execFileSync('sh', ['-c', `set -- ${line}\nprintf '%s\\0' "$@"`], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

/** Serves the real handler over the embedded database in `dataDir` (after the CLI has written to it). */
export async function serveDataDir(dataDir: string, env: Record<string, string> = {}) {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false', ...env });
  // The service's role: it holds the directory and shares it over the socket, so CLI processes run beside it go through it.
  const database = await openDatabase(config.database, { role: 'service' });
  const app = createApp(config, { log: pino({ level: 'silent' }) });
  database.onWriteByOtherProcess(() => app.forgetCachedState());
  const server = createServer((req, res) => void app.handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await app.close();
      await closeDatabase();
    },
  };
}

/**
 * serveDataDir for the rest of the test: CLI processes run on `dataDir` (`cli`) go through the service's socket, as
 * beside `npm start`, instead of each opening the database itself (seconds apiece). `close` stops the service, else
 * the test's end does. `dataDir` is typically a migratedDataDir.
 */
export async function servedDataDir(dataDir: string, env: Record<string, string> = {}) {
  const server = await serveDataDir(dataDir, env);
  let closing: Promise<void> | undefined;
  const close = () => {
    openServices.delete(close);
    return (closing ??= server.close());
  };
  openServices.add(close);
  return { dataDir, cli: cliOn(dataDir), url: server.url, close };
}

/** Services servedDataDir started: a test that does not stop its own has it stopped when it ends. */
const openServices = new Set<() => Promise<void>>();
afterEach(async () => {
  await Promise.all([...openServices].map((close) => close()));
});

/**
 * A database of the kind under test that CLI processes and the test share: under DATABASE_URL a fresh PostgreSQL
 * database copied from the migrated template, else the embedded one of a new data directory (migrated already).
 * `serve` serves the real handler over it and makes it the test's own database (fixtures are written through it); CLI
 * processes run beside it go through it. `drop` removes the PostgreSQL database once the server is closed.
 */
export async function sharedCliDatabase(prefix: string) {
  const url = testDatabaseUrl();
  if (!url) {
    const dataDir = migratedDataDir(prefix);
    return { cli: cliOn(dataDir), serve: () => serveDataDir(dataDir), drop: async () => {} };
  }
  const dataDir = newTempDir(prefix);
  const { template } = JSON.parse(readFileSync(templateStatePath(), 'utf8')) as { template: string };
  const name = `catalog_cli_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  const databaseUrl = withDatabase(url, name);
  return {
    cli: cliOn(dataDir, databaseUrl),
    serve: () => serveDataDir(dataDir, { DATABASE_URL: databaseUrl }),
    drop: () => adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
