import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { closeDatabase, openDatabase } from '../../src/db/client';
import { newTempDir } from '../helpers/templates';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

describe('npm run cli -- key …', () => {
  jest.setTimeout(180_000);

  it('creates, lists, rolls and revokes keys that the public API honours', async () => {
    // The CLI works on its own embedded database, whatever the test run's DATABASE_URL.
    const dataDir = newTempDir('catalog-cli-keys-');
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_OPTIONS: '' };
    const cli = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env });
      return JSON.parse(stdout);
    };
    await cli('user', 'create', '--email', 'keys@example.test', '--name', 'Keys');
    const store = await cli('store', 'create', '--name', 'Key store', '--currency', 'eur', '--owner', 'keys@example.test');

    const created = await cli('key', 'create', '--store', store.id, '--type', 'secret', '--mode', 'live', '--name', 'backend', '--scopes', 'payments:read');
    expect(created.secret).toMatch(/^svc_live_sk_[0-9A-Za-z]{39}$/);
    expect(created).toMatchObject({ type: 'secret', mode: 'live', scopes: ['payments:read'], key: `svc_live_sk_…${created.secret.slice(-4)}` });

    const rolled = await cli('key', 'roll', '--store', store.id, '--key', created.id, '--expires-in-seconds', '0');
    expect(rolled.secret).toMatch(/^svc_live_sk_/);
    expect(rolled.rolled_from_id).toBe(created.id);
    expect(rolled.previous.expires_at).not.toBeNull();

    const publishable = await cli('key', 'create', '--store', store.id, '--type', 'publishable', '--mode', 'test', '--name', 'web');
    const revoked = await cli('key', 'revoke', '--store', store.id, '--key', publishable.id);
    expect(revoked.revoked_at).not.toBeNull();

    const listed = await cli('key', 'list', '--store', store.id);
    expect(listed.map((k: { id: string }) => k.id).sort()).toEqual([created.id, rolled.id, publishable.id].sort());
    const output = JSON.stringify(listed);
    for (const secret of [created.secret, rolled.secret, publishable.secret]) expect(output).not.toContain(secret);

    const bad = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'key', 'create', '--store', store.id, '--type', 'publishable', '--mode', 'prod', '--name', 'x'], { cwd: root, env });
    await expect(bad).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('validation_failed') });

    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
    await openDatabase(config.database);
    const app = createApp(config, { log: pino({ level: 'silent' }) });
    const server = createServer((req, res) => void app.handler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v1/payments/supported-countries`;
      const status = async (key: string) => (await fetch(url, { headers: { 'x-api-key': key } })).status;
      expect(await status(rolled.secret)).toBe(200);
      expect(await status(created.secret)).toBe(401);
      expect(await status(publishable.secret)).toBe(401);
    } finally {
      await new Promise((r) => server.close(r));
      await app.close();
      await closeDatabase();
    }
  });
});
