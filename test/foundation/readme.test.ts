import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type CliOutcome, cliOn, shellWords } from '../helpers/cli';
import { describeEmbeddedProcesses, startServer } from '../helpers/serverProcess';
import { newTempDir } from '../helpers/templates';

/** Every line of the README's shell blocks that starts with `prefix`, in order. */
function readmeExamples(prefix: string): string[] {
  const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^\s*```sh\n([\s\S]*?)^\s*```/gm)].map((m) => m[1]);
  return blocks.flatMap((b) => b.split('\n').map((l) => l.trim())).filter((l) => l.startsWith(prefix));
}

/** Runs each line as a reader's shell would split it; returns the arguments and parsed output of each. */
async function runVerbatim(lines: string[], outcome: (...args: string[]) => Promise<CliOutcome>) {
  const results: { args: string[]; output: any }[] = [];
  for (const line of lines) {
    // No placeholder to fill in, no variable, no continuation line.
    expect(line).not.toMatch(/<[^>]*>|\$|\\$/);
    const words = shellWords(line);
    expect(words.slice(0, 4)).toEqual(['npm', 'run', 'cli', '--']);
    const args = words.slice(4);
    const r = await outcome(...args);
    expect({ line, code: r.code, stderr: r.stderr }).toEqual({ line, code: 0, stderr: '' });
    results.push({ args, output: args.includes('--help') ? r.stdout : JSON.parse(r.stdout) });
  }
  return (command: string) => results.filter((r) => r.args.slice(0, 2).join(' ') === command).map((r) => r.output);
}

describeEmbeddedProcesses('the README CLI examples', () => {
  jest.setTimeout(300_000);

  it('run verbatim, in order, beside `npm start` on a fresh data directory; the token and the key they print work over HTTP at once', async () => {
    const lines = readmeExamples('npm run cli ');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    // As a newcomer follows the README: the service runs (demo seeded) and the CLI goes through it.
    const projectDir = newTempDir('catalog-readme-');
    const dataDir = path.join(projectDir, 'data'); // the default DATA_DIR, seen from the project directory
    const server = await startServer(dataDir);
    try {
      const outputsOf = await runVerbatim(lines, cliOn(dataDir).outcome);

      const tokens = outputsOf('token issue');
      expect(tokens.length).toBeGreaterThan(0);
      for (const { token, user_id: userId } of tokens) {
        // The stores whose products the token's user may manage, as the examples set them up.
        const storeIds = [
          ...outputsOf('store create').filter((s) => s.owner_id === userId).map((s) => s.id),
          ...outputsOf('member add').filter((m) => m.user_id === userId && m.permissions.includes('manage_products')).map((m) => m.store_id),
        ];
        expect(storeIds.length).toBeGreaterThan(0);
        for (const storeId of storeIds) {
          const res = await fetch(`${server.url}/api/v1/merchant/stores/${storeId}/products`, { headers: { authorization: `Bearer ${token}` } });
          expect({ storeId, status: res.status }).toEqual({ storeId, status: 200 });
        }
      }
      for (const { secret, scopes } of outputsOf('key create')) {
        const res = await fetch(`${server.url}/api/public/v1/payments/supported-countries`, { headers: { 'x-api-key': secret } });
        expect(res.status).toBe(scopes.includes('public:read') || scopes.includes('payments:read') ? 200 : 403);
      }

      // The history shows the examples' own writes, newest first, made by the operator through the CLI.
      for (const { data } of outputsOf('changes list')) {
        expect(data[0]).toMatchObject({ type: 'api_key.created', source: 'cli', actor: { kind: 'operator' } });
      }

      // The psql line, run verbatim by a shell in the project directory, reads the running service's data.
      const [psqlLine] = readmeExamples('psql ');
      const psql = spawnSync('sh', ['-c', psqlLine], { cwd: projectDir, input: 'SELECT email FROM users ORDER BY email;\n', encoding: 'utf8' });
      expect(psql.status).toBe(0);
      expect(psql.stdout).toContain('ana@example.com');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
