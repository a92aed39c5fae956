import { servedDataDir } from '../helpers/cli';
import { basicAuth, REDIRECT_URI } from './helpers';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

describeEmbeddedProcesses('npm run cli -- oauth-app', () => {
  jest.setTimeout(180_000);
  it('creates, lists, suspends, reactivates apps and rotates their secret', async () => {
    // Served from the start: the commands go through the service's socket.
    const server = await servedDataDir(migratedDataDir('catalog-oauth-cli-'), { OAUTH_ENABLED: 'true' });
    const { exec, json: cli } = server.cli;

    const dev = await cli('user', 'create', '--email', 'dev@example.test', '--name', 'Dev');
    const created = await cli('oauth-app', 'create', '--owner', 'dev@example.test', '--name', 'CLI app', '--redirect-uris', REDIRECT_URI, '--scopes', 'public:read,payments:read');
    expect(created).toEqual({
      id: expect.any(String),
      owner_id: dev.id,
      name: 'CLI app',
      client_id: expect.stringMatching(/^svc_oci_/),
      redirect_uris: [REDIRECT_URI],
      allowed_scopes: ['public:read', 'payments:read'],
      status: 'active',
      created_at: expect.any(String),
      client_secret: expect.stringMatching(/^svc_ocs_/),
      note: 'shown once: store it now',
    });

    const listed = await cli('oauth-app', 'list', '--owner', 'dev@example.test');
    expect(listed).toEqual([expect.objectContaining({ client_id: created.client_id })]);
    expect(JSON.stringify(listed)).not.toContain(created.client_secret);
    expect((await cli('oauth-app', 'suspend', '--client-id', created.client_id)).status).toBe('suspended');
    expect((await cli('oauth-app', 'activate', '--id', created.id)).status).toBe('active');

    const rotated = await cli('oauth-app', 'rotate-secret', '--client-id', created.client_id);
    expect(rotated).toMatchObject({ id: created.id, client_id: created.client_id, client_secret: expect.stringMatching(/^svc_ocs_/) });
    expect(rotated.client_secret).not.toBe(created.client_secret);

    const bad = exec('oauth-app', 'create', '--owner', 'dev@example.test', '--name', 'x', '--redirect-uris', 'http://evil.example.test/cb', '--scopes', 'public:read');
    await expect(bad).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('error: validation_failed: --redirect-uris.0: ') });

    // The client authenticates with the new secret only (RFC 7009 revocation answers 200 for an unknown token).
    const revoke = (secret: string) =>
      fetch(`${server.url}/api/public/v1/oauth/revoke`, {
        method: 'POST',
        headers: { authorization: basicAuth(created.client_id, secret).authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'token=svc_oat_unknown',
      });
    expect((await revoke(rotated.client_secret)).status).toBe(200);
    expect((await revoke(created.client_secret)).status).toBe(401);
  });
});
