import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { scopeTable } from '../../src/access/auth/credentials';
import { SCOPES } from '../../src/kernel/access';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { getAuthorize, REDIRECT_URI, registerApp } from '../oauth/helpers';

/**
 * The scopes are described once: the docs' table is the consent page's words. Every scope table in the README
 * and the guides is exactly scopeTable() (the rendering of SCOPE_DESCRIPTIONS), and the consent page a person
 * sees shows, for each scope, the words of that table's row.
 */
const root = path.resolve(__dirname, '../..');
const documents = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Every Markdown table whose header row starts with "| scope |", as its lines. */
function scopeTables(file: string): string[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const tables: string[] = [];
  lines.forEach((line, i) => {
    if (!/^\|\s*scope\s*\|/.test(line)) return;
    let end = i;
    while (end < lines.length && lines[end].startsWith('|')) end++;
    tables.push(lines.slice(i, end).join('\n'));
  });
  return tables;
}

const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

describe('the scope table of the docs', () => {
  it('the OAuth guide has it', () => {
    expect(scopeTables('docs/oauth.md')).toEqual([scopeTable()]);
  });

  it.each(documents)('%s: every scope table is the one table', (file) => {
    for (const table of scopeTables(file)) expect(table).toBe(scopeTable());
  });
});

describe("the consent page's words are the table's", () => {
  let t: TestServer;
  let store: StoreFixture;
  beforeAll(async () => {
    t = await startTestServer({ OAUTH_ENABLED: 'true' });
    store = await createStoreFixture();
  });
  afterAll(() => t.close());

  it('for every scope, the page shows the grants column of its row in docs/oauth.md', async () => {
    const app = await registerApp(t, store.ownerToken, { allowedScopes: [...SCOPES] });
    const rows = scopeTables('docs/oauth.md')[0]
      .split('\n')
      .slice(2)
      .map((row) => row.split('|').map((c) => c.trim()))
      .map(([, scope, grants]) => [scope.replace(/`/g, ''), grants]);
    expect(rows.map(([scope]) => scope)).toEqual([...SCOPES]);
    const page = await getAuthorize(
      t,
      {
        response_type: 'code',
        client_id: app.clientId,
        redirect_uri: REDIRECT_URI,
        scope: SCOPES.join(' '),
        code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
        code_challenge_method: 'S256',
        store_id: store.storeId,
      },
      store.ownerToken,
    );
    expect(page.status).toBe(200);
    const shown = [...page.text.matchAll(/<li><code>([^<]+)<\/code>: ([^<]+)<\/li>/g)].map((m) => [m[1], unescapeHtml(m[2])]);
    expect(shown).toEqual(rows);
  });
});
