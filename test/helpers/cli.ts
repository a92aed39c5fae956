import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';
import { closeDatabase, openDatabase } from '../../src/platform/db/client';
import { killedWithTestFile } from './serverProcess';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `src/cli.ts` as a real process on its own embedded database in `dataDir`
 * (whatever the test run's DATABASE_URL): `exec` resolves with stdout/stderr or
 * rejects with the exit code, `json` parses the printed result, `outcome`
 * resolves with the exit code and both streams whatever the code.
 */
export function cliOn(dataDir: string) {
  const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_OPTIONS: '' };
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
