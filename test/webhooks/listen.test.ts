import { spawn } from 'node:child_process';
import path from 'node:path';
import { cliOn } from '../helpers/cli';
import { describeEmbeddedProcesses, embeddedEnv, exited, randomPort, root, startServer } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

/** Resolves when `read()` contains `text`; rejects after `ms`. */
function waitFor(read: () => string, text: string, ms = 60_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      if (read().includes(text)) {
        clearInterval(timer);
        resolve();
      } else if (Date.now() - started > ms) {
        clearInterval(timer);
        reject(new Error(`"${text}" did not appear in:\n${read()}`));
      }
    }, 50);
  });
}

describeEmbeddedProcesses('npm run webhooks:listen', () => {
  jest.setTimeout(180_000);

  it('registers an endpoint, prints the deliveries whose signature verifies, refuses a forged one with 400, and deletes the endpoint when stopped', async () => {
    const dataDir = migratedDataDir('catalog-listen-');
    const server = await startServer(dataDir, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      // The variables as the README's tour sets them: token env, run against the same service.
      const { stdout } = await cliOn(dataDir).exec('token', 'env', '--user', 'owner@demo.store');
      const vars = Object.fromEntries([...stdout.matchAll(/^export (\w+)='([^']*)'$/gm)].map((m) => [m[1], m[2]]));
      expect(Object.keys(vars)).toEqual(['BASE', 'STORE', 'TOKEN']);
      const base = server.url; // the CLI names localhost; the test's service listens on 127.0.0.1
      const port = randomPort();
      const listener = spawn(process.execPath, ['--import', 'tsx', path.join('scripts', 'webhooks-listen.ts'), '--port', String(port), '--ping'], {
        cwd: root,
        env: { ...embeddedEnv(dataDir), ...vars, BASE: base },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      listener.stdout.on('data', (d) => (out += d));
      listener.stderr.on('data', (d) => (err += d));

      await waitFor(() => out, ' ping endpoint ');
      expect(out).toMatch(/^verified msg_\S+ webhook_endpoint\.created webhook_endpoint \S+ v1$/m);
      expect(out).toMatch(/^verified msg_\S+ ping endpoint \S+$/m);

      // A delivery signed with another secret is refused and not printed.
      const forged = await fetch(`http://127.0.0.1:${port}/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl' },
        body: JSON.stringify({ type: 'product.deleted', timestamp: new Date().toISOString(), data: {} }),
      });
      expect(forged.status).toBe(400);
      await waitFor(() => err, 'rejected a delivery');
      expect(out).not.toContain('msg_forged');

      listener.kill('SIGINT');
      expect(await exited(listener)).toBe(0);
      const endpoints = await fetch(`${base}/api/v1/merchant/stores/${vars.STORE}/webhook-endpoints`, { headers: { authorization: `Bearer ${vars.TOKEN}` } });
      expect((await endpoints.json()).data).toEqual([]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
