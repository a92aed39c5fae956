import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { closeDatabase, openDatabase } from '../../src/db/client';
import { newTempDir } from '../helpers/templates';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

describe('npm run cli', () => {
  jest.setTimeout(120_000);

  it('creates a user, a store, a category, a member and a token that the API accepts', async () => {
    const dataDir = newTempDir('catalog-cli-');
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_OPTIONS: '' };
    const cli = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: root, env });
      return JSON.parse(stdout);
    };
    const owner = await cli('user', 'create', '--email', 'Owner@Example.test', '--name', 'Owner');
    expect(owner.email).toBe('owner@example.test');
    const store = await cli('store', 'create', '--name', 'CLI store', '--currency', 'chf', '--owner', 'owner@example.test');
    expect(store.currency).toBe('CHF');
    await cli('category', 'create', '--store', store.id, '--slug', 'tools', '--name', 'Tools');
    await cli('user', 'create', '--email', 'staff@example.test', '--name', 'Staff');
    const member = await cli('member', 'add', '--store', store.id, '--user', 'staff@example.test', '--permissions', 'manage_products');
    expect(member).toMatchObject({ role: 'staff', permissions: ['manage_products'] });
    const { token } = await cli('token', 'issue', '--user', 'staff@example.test');
    expect(token).toMatch(/^svc_dash_/);

    const bad = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'member', 'add', '--store', store.id, '--user', 'staff@example.test', '--permissions', 'fly'], { cwd: root, env });
    await expect(bad).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('validation_failed') });

    // The token works against the same database.
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
    await openDatabase(config.database);
    const app = createApp(config, { log: pino({ level: 'silent' }) });
    const server = createServer((req, res) => void app.handler(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/merchant/stores/${store.id}/products`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hammer', price: 9.5, category_slugs: ['tools'] }),
      });
      expect(res.status).toBe(201);
      expect((await res.json()).data).toMatchObject({ name: 'Hammer', price: 9.5, currency: 'CHF', status: 'draft' });
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await closeDatabase();
    }
  });
});
