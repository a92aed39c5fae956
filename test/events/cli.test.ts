import { userInfo } from 'node:os';
import { db } from '../../src/db/client';
import { cliOn, serveDataDir } from '../helpers/cli';
import { newTempDir } from '../helpers/templates';

/**
 * The CLI writes as the operator: every command that changes a store leaves
 * its events, recorded with source "cli", and `changes list` reads them back.
 * Real processes on a real embedded database.
 */
describe('CLI writes', () => {
  it('record who ran them, through the CLI, with no secret, and read back with `changes list`', async () => {
    const dataDir = newTempDir('catalog-events-cli-');
    const { json: cli, outcome } = cliOn(dataDir);
    const operator = userInfo().username;
    await cli('user', 'create', '--email', 'ana@example.test', '--name', 'Ana', '--password', 'correct horse battery');
    await cli('user', 'create', '--email', 'bo@example.test', '--name', 'Bo');
    const store = await cli('store', 'create', '--name', 'Ana shop', '--currency', 'EUR', '--owner', 'ana@example.test');
    await cli('category', 'create', '--store', store.id, '--slug', 'hats', '--name', 'Hats');
    await cli('category', 'update', '--store', store.id, '--category', 'hats', '--name', 'Caps', '--slug', 'caps');
    await cli('category', 'delete', '--store', store.id, '--category', 'caps');
    await cli('member', 'add', '--store', store.id, '--user', 'bo@example.test', '--permissions', 'manage_products');
    await cli('member', 'add', '--store', store.id, '--user', 'bo@example.test', '--permissions', 'manage_products,view_changes');
    await cli('member', 'remove', '--store', store.id, '--user', 'bo@example.test');
    const key = await cli('key', 'create', '--store', store.id, '--type', 'secret', '--mode', 'live', '--name', 'backend', '--scopes', 'products:read');
    await cli('key', 'revoke', '--store', store.id, '--key', key.id);
    const app = await cli('oauth-app', 'create', '--owner', 'ana@example.test', '--name', 'Sync', '--redirect-uris', 'https://sync.example.test/cb', '--scopes', 'public:read');
    const rotated = await cli('oauth-app', 'rotate-secret', '--id', app.id);
    const token = await cli('token', 'issue', '--user', 'ana@example.test');
    // A refused command changes nothing and records nothing.
    expect((await outcome('member', 'remove', '--store', store.id, '--user', 'ana@example.test')).code).toBe(1);

    const page = await cli('changes', 'list', '--store', store.id, '--limit', '100');
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((e: any) => e.type).reverse()).toEqual([
      'store.created',
      'member.added',
      'category.created',
      'category.updated',
      'category.deleted',
      'member.added',
      'member.updated',
      'member.removed',
      'api_key.created',
      'api_key.revoked',
    ]);
    for (const e of page.data) {
      expect(e).toMatchObject({ source: 'cli', store_id: store.id, actor: { kind: 'operator', id: operator, name: `${operator} (CLI)` } });
    }
    const updated = page.data.find((e: any) => e.type === 'category.updated');
    expect(updated.changes).toEqual([
      { field: 'slug', previous: 'hats', next: 'caps' },
      { field: 'name', previous: 'Hats', next: 'Caps' },
    ]);
    const memberUpdate = page.data.find((e: any) => e.type === 'member.updated');
    expect(memberUpdate.changes).toEqual([{ field: 'permissions', previous: ['manage_products'], next: ['manage_products', 'view_changes'] }]);
    const byResource = await cli('changes', 'list', '--store', store.id, '--resource-type', 'category', '--limit', '2');
    expect(byResource.data.map((e: any) => e.type)).toEqual(['category.deleted', 'category.updated']);
    expect(byResource.next_cursor).toEqual(expect.any(String));
    const rest = await cli('changes', 'list', '--store', store.id, '--resource-type', 'category', '--after', byResource.next_cursor);
    expect(rest.data.map((e: any) => e.type)).toEqual(['category.created']);

    // Every stored event, store-bound or not (OAuth apps belong to users), holds none of the secrets the commands printed.
    const server = await serveDataDir(dataDir);
    try {
      const events = await db().event.findMany({ orderBy: { id: 'asc' } });
      expect(events.filter((e) => e.resourceType === 'oauth_app').map((e) => e.type)).toEqual(['oauth_app.created', 'oauth_app.updated']);
      const all = JSON.stringify(events);
      for (const secret of [key.secret, app.client_secret, rotated.client_secret, token.token, 'correct horse battery']) expect(all).not.toContain(secret);
    } finally {
      await server.close();
    }
  }, 180_000);
});
