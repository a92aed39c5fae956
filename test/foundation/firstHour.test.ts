import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { cliOn } from '../helpers/cli';
import { describeEmbeddedProcesses, embeddedEnv, exited, randomPort, root } from '../helpers/serverProcess';
import { newTempDir } from '../helpers/templates';

const run = promisify(execFile);

/**
 * `npm start` exactly as a newcomer types it, in its own process group so that
 * stopping it is what Ctrl-C in a terminal does (npm does not pass SIGTERM on to
 * the script it runs).
 */
async function npmStart(dataDir: string, port: number) {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: embeddedEnv(dataDir, { PORT: String(port), OAUTH_ENABLED: 'true' }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => out.includes('"listening on') && (clearInterval(timer), resolve()), 50);
    child.once('exit', (code) => (clearInterval(timer), reject(new Error(`npm start exited (${code}):\n${out}`))));
  });
  return {
    output: () => out,
    /** Stops the whole group and resolves once the service has logged its clean stop and given up the data directory. */
    stop: async () => {
      process.kill(-child.pid!, 'SIGTERM');
      await exited(child);
      for (let waited = 0; waited < 15_000 && (!out.includes('"msg":"stopped"') || existsSync(path.join(dataDir, 'pglite.lock'))); waited += 50) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (!out.includes('"msg":"stopped"')) console.error(`service output:\n${out.slice(-3000)}`);
      return out.includes('"msg":"stopped"') && !existsSync(path.join(dataDir, 'pglite.lock'));
    },
  };
}

describeEmbeddedProcesses("a newcomer's first hour on the embedded database", () => {
  jest.setTimeout(600_000);

  it('keeps everything the CLI does while `npm start` runs: it works over HTTP at once and after a restart', async () => {
    const dataDir = newTempDir('catalog-first-hour-');
    const port = randomPort();
    const base = `http://127.0.0.1:${port}`;
    const cli = cliOn(dataDir).json;
    const get = (path: string, headers: Record<string, string>) => fetch(base + path, { headers }).then((r) => r.status);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const login = async (email: string, password: string) => {
      const res = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', variables: { e: email, p: password } }),
      });
      return (await res.json()) as { data?: { login: { token: string } }; errors?: Array<{ extensions: { code: string } }> };
    };

    let service = await npmStart(dataDir, port);
    try {
      // The printed curl, run as printed, answers with the demo products.
      const curlLine = /^\s*(curl -H "Authorization: Bearer (svc_dash_\w+)" http:\/\/localhost:\d+\/api\/v1\/merchant\/stores\/([0-9a-f-]+)\/products)$/m.exec(service.output());
      expect(curlLine).not.toBeNull();
      const [, curl, demoToken, demoStoreId] = curlLine!;
      const printed = JSON.parse((await run('sh', ['-c', curl])).stdout);
      expect(printed.data.length).toBeGreaterThan(0);

      // user create → the login mutation accepts the password at once.
      await cli('user', 'create', '--email', 'new@example.test', '--name', 'New', '--password', 'a long password');
      const newLogin = await login('new@example.test', 'a long password');
      expect(newLogin.errors).toBeUndefined();
      const newUserToken = newLogin.data!.login.token;

      // store and category create → the new owner can create a product in that category.
      const store = await cli('store', 'create', '--name', 'First hour', '--currency', 'EUR', '--owner', 'new@example.test');
      await cli('category', 'create', '--store', 'First hour', '--slug', 'tools', '--name', 'Tools');
      const created = await fetch(`${base}/api/v1/merchant/stores/${store.id}/products`, {
        method: 'POST',
        headers: { ...bearer(newUserToken), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hammer', price: 12.5, category_slugs: ['tools'] }),
      });
      expect(created.status).toBe(201);

      // member add → a token the service has already verified (and cached) gains the store at once.
      const productsOfNewStore = `/api/v1/merchant/stores/${store.id}/products`;
      expect(await get(productsOfNewStore, bearer(demoToken))).toBe(403);
      await cli('member', 'add', '--store', 'First hour', '--user', 'owner@demo.store', '--permissions', 'manage_products');
      expect(await get(productsOfNewStore, bearer(demoToken))).toBe(200);

      // token issue → accepted; token revoke → refused at once, though the service had just verified it.
      const issued = await cli('token', 'issue', '--user', 'new@example.test', '--name', 'laptop');
      expect(await get(productsOfNewStore, bearer(issued.token))).toBe(200);
      await cli('token', 'revoke', '--token', issued.token);
      expect(await get(productsOfNewStore, bearer(issued.token))).toBe(401);

      // key create → the public API accepts it; key revoke → refused at once.
      const key = await cli('key', 'create', '--store', 'First hour', '--type', 'secret', '--mode', 'test', '--name', 'backend', '--scopes', 'products:read');
      expect(await get('/api/public/v1/products', { 'x-api-key': key.secret })).toBe(200);
      const spare = await cli('key', 'create', '--store', 'First hour', '--type', 'publishable', '--mode', 'live', '--name', 'storefront');
      await cli('key', 'revoke', '--store', 'First hour', '--key', spare.id);
      expect(await get('/api/public/v1/products', { 'x-api-key': spare.secret })).toBe(401);

      // oauth-app create → the authorize endpoint knows the client at once.
      const app = await cli('oauth-app', 'create', '--owner', 'new@example.test', '--name', 'Sync', '--redirect-uris', 'https://sync.example.test/cb', '--scopes', 'public:read');
      const authorize = `/api/public/v1/oauth/authorize?response_type=code&client_id=${app.client_id}&redirect_uri=${encodeURIComponent('https://sync.example.test/cb')}&scope=public:read&state=s1&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&store_id=${store.id}`;
      expect(await get(authorize, bearer(newUserToken))).toBe(200);

      // The lists show it all.
      expect((await cli('user', 'list')).map((u: { email: string }) => u.email)).toEqual(expect.arrayContaining(['owner@demo.store', 'new@example.test']));
      expect((await cli('store', 'list')).map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['Demo Store', 'First hour']));

      // A restart keeps every one of those writes.
      expect(await service.stop()).toBe(true);
      service = await npmStart(dataDir, port);
      expect(service.output()).not.toContain('Demo store seeded');
      expect((await login('new@example.test', 'a long password')).data?.login.token).toMatch(/^svc_dash_/);
      expect(await get(productsOfNewStore, bearer(newUserToken))).toBe(200);
      expect(await get(productsOfNewStore, bearer(demoToken))).toBe(200);
      expect(await get(productsOfNewStore, bearer(issued.token))).toBe(401);
      expect(await get('/api/public/v1/products', { 'x-api-key': key.secret })).toBe(200);
      expect(await get('/api/public/v1/products', { 'x-api-key': spare.secret })).toBe(401);
      expect(await get(authorize, bearer(newUserToken))).toBe(200);
      expect(await get(`/api/v1/merchant/stores/${demoStoreId}/products`, bearer(demoToken))).toBe(200);
    } finally {
      expect(await service.stop()).toBe(true);
    }
  });
});
