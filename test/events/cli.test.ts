import { userInfo } from 'node:os';
import { buildProgram } from '../../src/api/cli/command';
import { commands } from '../../src/cliCommands';
import { operatorContext } from '../../src/api/cli/context';
import { db } from '../../src/platform/db/client';
import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { startTestServer, type TestServer } from '../helpers/harness';
import { migratedDataDir } from '../helpers/templates';

/**
 * The CLI writes as the operator: every command that changes a store leaves
 * its events, recorded with source "cli", and `changes list` reads them back.
 */
const operator = userInfo().username;

describe('CLI commands (the real command table, run in this process on the test database)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  /** Parses and runs one command line as `npm run cli --` would, returning what it would print. */
  async function cli(...argv: string[]): Promise<any> {
    let result: unknown;
    const program = buildProgram(commands, {
      execute: async (command, flags) => {
        result = JSON.parse(JSON.stringify(await command.run(flags, operatorContext(t.config, db()))));
      },
      writeOut: () => {},
      writeErr: () => {},
    });
    await program.parseAsync(argv, { from: 'user' });
    return result;
  }

  it('record every change with the operator as actor, and no secret', async () => {
    const u = `${Date.now().toString(36)}`;
    await cli('user', 'create', '--email', `ana-${u}@example.test`, '--name', 'Ana', '--password', 'correct horse battery');
    await cli('user', 'create', '--email', `bo-${u}@example.test`, '--name', 'Bo');
    const store = await cli('store', 'create', '--name', `Ana shop ${u}`, '--currency', 'EUR', '--owner', `ana-${u}@example.test`);
    await cli('category', 'create', '--store', store.id, '--slug', 'hats', '--name', 'Hats');
    await cli('category', 'update', '--store', store.id, '--category', 'hats', '--name', 'Caps', '--slug', 'caps');
    await cli('category', 'delete', '--store', store.id, '--category', 'caps');
    await cli('member', 'add', '--store', store.id, '--user', `bo-${u}@example.test`, '--permissions', 'manage_products');
    // The same permissions again change nothing.
    await cli('member', 'add', '--store', store.id, '--user', `bo-${u}@example.test`, '--permissions', 'manage_products');
    await cli('member', 'add', '--store', store.id, '--user', `bo-${u}@example.test`, '--permissions', 'manage_products,view_changes');
    await cli('member', 'remove', '--store', store.id, '--user', `bo-${u}@example.test`);
    await expect(cli('member', 'remove', '--store', store.id, '--user', `ana-${u}@example.test`)).rejects.toMatchObject({ code: 'conflict' });
    const key = await cli('key', 'create', '--store', store.id, '--type', 'secret', '--mode', 'live', '--name', 'backend', '--scopes', 'products:read');
    const rolled = await cli('key', 'roll', '--store', store.id, '--key', key.id, '--expires-in-seconds', '0');
    await cli('key', 'revoke', '--store', store.id, '--key', rolled.id);
    const app = await cli('oauth-app', 'create', '--owner', `ana-${u}@example.test`, '--name', 'Sync', '--redirect-uris', 'https://sync.example.test/cb', '--scopes', 'public:read');
    await cli('oauth-app', 'suspend', '--id', app.id);
    await cli('oauth-app', 'activate', '--id', app.id);
    const rotated = await cli('oauth-app', 'rotate-secret', '--id', app.id);
    const token = await cli('token', 'issue', '--user', `ana-${u}@example.test`);

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
      'api_key.created',
      'api_key.rolled',
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
    const rest = await cli('changes', 'list', '--store', store.id, '--resource-type', 'category', '--after', byResource.next_cursor);
    expect(rest.data.map((e: any) => e.type)).toEqual(['category.created']);

    // OAuth apps belong to users: their events are in no store's history, but they are recorded.
    const appEvents = await db().event.findMany({ where: { resourceId: app.id }, orderBy: { id: 'asc' } });
    expect(appEvents.map((e) => [e.type, e.storeId, e.source])).toEqual([
      ['oauth_app.created', null, 'cli'],
      ['oauth_app.suspended', null, 'cli'],
      ['oauth_app.activated', null, 'cli'],
      ['oauth_app.updated', null, 'cli'],
    ]);
    const all = JSON.stringify(await db().event.findMany());
    for (const secret of [key.secret, rolled.secret, app.client_secret, rotated.client_secret, token.token, 'correct horse battery']) expect(all).not.toContain(secret);
  });
});

describeEmbeddedProcesses('the CLI process', () => {
  it('records the operating-system user who ran it, and `changes list` prints the history', async () => {
    // Served: the commands go through the service's socket.
    const { json: cli } = (await servedDataDir(migratedDataDir('catalog-events-cli-'))).cli;
    await cli('user', 'create', '--email', 'ana@example.test', '--name', 'Ana');
    const store = await cli('store', 'create', '--name', 'Ana shop', '--currency', 'EUR', '--owner', 'ana@example.test');
    const page = await cli('changes', 'list', '--store', "Ana shop");
    expect(page.data.map((e: any) => [e.type, e.source, e.actor])).toEqual([
      ['member.added', 'cli', { kind: 'operator', id: operator, name: `${operator} (CLI)` }],
      ['store.created', 'cli', { kind: 'operator', id: operator, name: `${operator} (CLI)` }],
    ]);
    expect(page.data[1].data).toMatchObject({ id: store.id, name: 'Ana shop', currency: 'EUR' });
  }, 120_000);
});
