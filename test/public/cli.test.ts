import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

describeEmbeddedProcesses('npm run cli -- key …', () => {
  jest.setTimeout(180_000);

  it('creates, lists, rolls and revokes keys that the public API honours', async () => {
    // The CLI works on its own embedded database, whatever the test run's DATABASE_URL; served from the start, the
    // commands go through the service's socket.
    const server = await servedDataDir(migratedDataDir('catalog-cli-keys-'));
    const { exec, json: cli } = server.cli;
    await cli('user', 'create', '--email', 'keys@example.test', '--name', 'Keys');
    const store = await cli('store', 'create', '--name', 'Key store', '--currency', 'eur', '--owner', 'keys@example.test');

    const created = await cli('key', 'create', '--store', store.id, '--type', 'secret', '--mode', 'live', '--name', 'backend', '--scopes', 'payments:read');
    expect(created.secret).toMatch(/^svc_live_sk_[0-9A-Za-z]{39}$/);
    expect(created).toMatchObject({ store_id: store.id, type: 'secret', mode: 'live', scopes: ['payments:read'], redacted_key: `svc_live_sk_…${created.secret.slice(-4)}` });

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

    // A mode outside the choices is a usage error (exit 2); a scope the key type may not carry is the service's 422.
    const badMode = exec('key', 'create', '--store', store.id, '--type', 'publishable', '--mode', 'prod', '--name', 'x');
    await expect(badMode).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Allowed choices are test, live') });
    const badScope = exec('key', 'create', '--store', store.id, '--type', 'publishable', '--mode', 'test', '--name', 'x', '--scopes', 'products:write');
    await expect(badScope).rejects.toMatchObject({ code: 1, stderr: 'error: validation_failed: --scopes: a publishable key may only carry public:read\n' });

    const url = `${server.url}/api/public/v1/payments/supported-countries`;
    const status = async (key: string) => (await fetch(url, { headers: { 'x-api-key': key } })).status;
    expect(await status(rolled.secret)).toBe(200);
    expect(await status(created.secret)).toBe(401);
    expect(await status(publishable.secret)).toBe(401);
  });
});
