import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildProgram } from '../../src/api/cli/command';
import { commands } from '../../src/cliCommands';
import { cliOn, servedDataDir, shellWords } from '../helpers/cli';
import { newTempDir } from '../helpers/templates';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The real commander program, in process, with its output captured and commands recorded instead of run. */
function program() {
  const out = { text: '', ran: [] as { name: string; flags: Record<string, unknown> }[] };
  const p = buildProgram(commands, {
    execute: async (command, flags) => {
      out.ran.push({ name: command.name, flags });
    },
    writeOut: (s) => (out.text += s),
    writeErr: (s) => (out.text += s),
  });
  return { p, out };
}

describeEmbeddedProcesses('npm run cli: help', () => {
  it.each(commands.map((c) => [c.name, c] as const))('%s --help shows the description, every flag and an example', async (_name, command) => {
    const { p, out } = program();
    await expect(p.parseAsync([...command.name.split(' '), '--help'], { from: 'user' })).rejects.toMatchObject({ code: 'commander.helpDisplayed', exitCode: 0 });
    expect(out.ran).toEqual([]);
    const help = oneLine(out.text);
    expect(help).toContain(`Usage: npm run cli -- ${command.name} [options]`);
    expect(help).toContain(oneLine(command.description));
    for (const option of command.options) expect(help).toContain(oneLine(`${option.flags} ${option.description}`).slice(0, 40));
    expect(command.examples.length).toBeGreaterThan(0);
    for (const example of command.examples) expect(help).toContain(example);
  });

  it.each(commands.flatMap((c) => c.examples.map((e) => [e, c.name] as const)))('the help example parses: %s', async (example, name) => {
    const words = shellWords(example, { TOKEN: 'svc_dash_example' });
    expect(words.slice(0, 4)).toEqual(['npm', 'run', 'cli', '--']);
    const { p, out } = program();
    await p.parseAsync(words.slice(4), { from: 'user' });
    expect(out.ran.map((r) => r.name)).toEqual([name]);
  });

  it('answers --help for the whole CLI and for one command without opening the database', async () => {
    const dataDir = newTempDir('catalog-cli-help-');
    // Verbatim, through npm: `--` hands --help to the script.
    const npm = await promisify(execFile)('npm', ['run', 'cli', '--', '--help'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_OPTIONS: '' },
    });
    expect(npm.stdout).toContain('Usage: npm run cli -- [options] [command]');
    for (const group of ['user', 'store', 'category', 'member', 'token', 'key', 'oauth-app']) expect(npm.stdout).toMatch(new RegExp(`^  ${group} `, 'm'));

    const { outcome } = cliOn(dataDir);
    const help = await outcome('user', 'create', '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('--password <password>');
    expect(help.stdout).toContain("Example:\n  npm run cli -- user create --email ana@example.com --name Ana --password 'a long password'");
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describeEmbeddedProcesses('npm run cli', () => {
  jest.setTimeout(300_000);

  it('refuses unknown commands and flags with the closest match, exit 2, before opening the database', async () => {
    const dataDir = newTempDir('catalog-cli-usage-');
    const { outcome } = cliOn(dataDir);
    const cases: [string[], string][] = [
      [['user', 'create', '--email', 'x@example.test', '--name', 'X', '--pasword', 'a long password'], "error: unknown option '--pasword' (Did you mean --password?)"],
      [['usr', 'list'], "error: unknown command 'usr' (Did you mean user?)"],
      [['store', 'craete', '--name', 'X'], "error: unknown command 'craete' (Did you mean create?)"],
      [['user', 'create', '--email', 'x@example.test'], "error: required option '--name <name>' not specified"],
      // A misspelled required flag is a mistyped flag first, with its closest match, not a missing one.
      [['store', 'create', '--nmae', 'X', '--currency', 'EUR', '--owner', 'x@example.test'], "error: unknown option '--nmae' (Did you mean --name?)"],
      [['category', 'create', '--store', 'X', '--slg', 'hats', '--name', 'Hats'], "error: unknown option '--slg' (Did you mean --slug?)"],
      [['products', 'import', 'products.csv', '--stor', 'X'], "error: unknown option '--stor' (Did you mean --store?)"],
      [['products', 'import', 'products.csv'], "error: required option '--store <store>' not specified"],
      [['store', 'create', '--name', 'Ana', 's', '--currency', 'EUR', '--owner', 'x@example.test'], "error: too many arguments for 'create'. Expected 0 arguments but got 1: s."],
      [['key', 'list', '--store', 'X', '--mode', 'prod'], "error: option '--mode <mode>' argument 'prod' is invalid. Allowed choices are test, live."],
      [['token', 'issue', '--user', 'x@example.test', '--expires-in-days', 'soon'], "error: option '--expires-in-days <days>' argument 'soon' is invalid. must be a whole number from 1 to 3650."],
      [['token', 'revoke'], 'error: give exactly one of --id or --token (see --help)'],
      [['oauth-app', 'suspend', '--id', randomUUID(), '--client-id', 'svc_oci_x'], 'error: give exactly one of --client-id or --id (see --help)'],
    ];
    for (const [args, message] of cases) {
      expect({ args, ...(await outcome(...args)) }).toEqual({ args, code: 2, stdout: '', stderr: `${message}\n` });
    }
    // Nothing was opened, so nothing can have been written.
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('creates and lists users, stores, categories, members and tokens; prints snake_case JSON; the token works over HTTP until revoked', async () => {
    const dataDir = newTempDir('catalog-cli-');
    const { outcome, json: cli } = cliOn(dataDir);
    const failure = async (...args: string[]) => {
      const r = await outcome(...args);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: [^\n]+\n$/);
      return { code: r.code, stderr: r.stderr.trim() };
    };

    // The first command opens the new data directory itself and migrates it; then a service holds it and the
    // others go through its socket.
    const owner = await cli('user', 'create', '--email', 'Owner@Example.test', '--name', 'Owner', '--password', 'a long password');
    expect(owner).toEqual({ id: expect.any(String), email: 'owner@example.test', name: 'Owner', has_password: true, created_at: expect.any(String) });
    const server = await servedDataDir(dataDir);

    const store = await cli('store', 'create', '--name', 'CLI store', '--currency', 'chf', '--owner', 'owner@example.test');
    expect(store).toEqual({
      id: expect.any(String),
      name: 'CLI store',
      currency: 'CHF',
      currencies: [],
      default_locale: 'en',
      locales: [],
      owner_id: owner.id,
      created_at: expect.any(String),
    });
    expect(await failure('store', 'create', '--name', 'Nowhere', '--currency', 'XYZ', '--owner', owner.id)).toEqual({
      code: 1,
      stderr: 'error: validation_failed: --currency: must be the ISO 4217 code of a currency in circulation, such as USD or EUR',
    });

    // A store is named by its id, or by its name while no other store has it (tested in stores.test.ts).
    const tools = await cli('category', 'create', '--store', 'cli STORE', '--slug', 'tools', '--name', 'Tools');
    expect(tools).toEqual({ id: expect.any(String), store_id: store.id, slug: 'tools', name: 'Tools', created_at: expect.any(String) });
    expect(await failure('category', 'create', '--store', store.id, '--slug', 'tools', '--name', 'More tools')).toEqual({
      code: 1,
      stderr: 'error: slug_taken: The slug "tools" is already used by another category of this store',
    });
    expect(await cli('category', 'list', '--store', store.id)).toEqual([tools]);

    const staff = await cli('user', 'create', '--email', 'staff@example.test', '--name', 'Staff');
    expect(staff.has_password).toBe(false);
    const member = await cli('member', 'add', '--store', store.id, '--user', 'staff@example.test', '--permissions', 'manage_products');
    expect(member).toEqual({
      store_id: store.id, user_id: staff.id, email: 'staff@example.test', name: 'Staff', role: 'staff', permissions: ['manage_products'], created_at: expect.any(String),
    });
    expect((await failure('member', 'add', '--store', store.id, '--user', staff.id, '--permissions', 'fly')).stderr).toMatch(/^error: validation_failed: --permissions\.0: /);
    expect((await cli('member', 'list', '--store', 'CLI store')).map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      ['owner@example.test', 'owner'],
      ['staff@example.test', 'staff'],
    ]);
    expect((await cli('user', 'list')).map((u: { email: string }) => u.email)).toEqual(['owner@example.test', 'staff@example.test']);

    const first = await cli('token', 'issue', '--user', 'staff@example.test', '--name', 'first');
    expect(first).toEqual({
      id: expect.any(String), user_id: staff.id, name: 'first', redacted_token: `svc_dash_…${first.token.slice(-4)}`,
      created_at: expect.any(String), expires_at: null, revoked_at: null, token: expect.stringMatching(/^svc_dash_/), note: 'shown once: store it now',
    });
    const second = await cli('token', 'issue', '--user', staff.id, '--name', 'second', '--expires-in-days', '30');
    expect(Date.parse(second.expires_at) - Date.parse(second.created_at)).toBeGreaterThan(29.9 * 86_400_000);
    const listed = await cli('token', 'list', '--user', 'staff@example.test');
    expect(listed.map((t: { name: string }) => t.name)).toEqual(['second', 'first']);
    expect(JSON.stringify(listed)).not.toContain(first.token);

    // Revoked by id and by the token itself; revoking again changes nothing.
    const revoked = await cli('token', 'revoke', '--id', first.id);
    expect(revoked).toMatchObject({ id: first.id, revoked_at: expect.any(String) });
    expect(await cli('token', 'revoke', '--token', first.token)).toEqual(revoked);
    expect((await cli('token', 'revoke', '--token', second.token)).revoked_at).not.toBeNull();
    const kept = await cli('token', 'issue', '--user', 'staff@example.test');
    expect(await cli('store', 'list', '--owner', 'owner@example.test')).toEqual([store]);

    const url = `${server.url}/api/v1/merchant/stores/${store.id}/products`;
    const create = (token: string) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hammer', price: 9.5, category_slugs: ['tools'] }),
      });
    const res = await create(kept.token);
    expect(res.status).toBe(201);
    expect((await res.json()).data).toMatchObject({ name: 'Hammer', price: 9.5, currency: 'CHF', status: 'draft' });
    for (const token of [first.token, second.token]) expect((await create(token)).status).toBe(401);
  });
});
