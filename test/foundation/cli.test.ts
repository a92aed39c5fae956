import { cliOn, serveDataDir } from '../helpers/cli';
import { newTempDir } from '../helpers/templates';

describe('npm run cli', () => {
  jest.setTimeout(120_000);

  it('creates a user, a store, a category, a member and a token that the API accepts', async () => {
    const dataDir = newTempDir('catalog-cli-');
    const { exec, json: cli } = cliOn(dataDir);
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

    const bad = exec('member', 'add', '--store', store.id, '--user', 'staff@example.test', '--permissions', 'fly');
    await expect(bad).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('validation_failed') });

    // The token works against the same database.
    const server = await serveDataDir(dataDir);
    try {
      const url = `${server.url}/api/v1/merchant/stores/${store.id}/products`;
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hammer', price: 9.5, category_slugs: ['tools'] }),
      });
      expect(res.status).toBe(201);
      expect((await res.json()).data).toMatchObject({ name: 'Hammer', price: 9.5, currency: 'CHF', status: 'draft' });
    } finally {
      await server.close();
    }
  });
});
