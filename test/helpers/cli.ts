import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { closeDatabase, openDatabase } from '../../src/db/client';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

/**
 * Runs `src/cli.ts` as a real process on its own embedded database in `dataDir`
 * (whatever the test run's DATABASE_URL): `exec` resolves with stdout/stderr or
 * rejects with the exit code, `json` parses the printed result.
 */
export function cliOn(dataDir: string) {
  const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_OPTIONS: '' };
  const exec = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env });
  return { exec, json: async (...args: string[]) => JSON.parse((await exec(...args)).stdout) };
}

/** Serves the real handler over the embedded database in `dataDir` (after the CLI has written to it). */
export async function serveDataDir(dataDir: string) {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
  await openDatabase(config.database);
  const app = createApp(config, { log: pino({ level: 'silent' }) });
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
