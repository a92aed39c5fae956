/**
 * What a request does not need is not loaded at start (issue 13, memory):
 * the GraphiQL bundle loads on the first visit of the page, sharp (libvips)
 * on the first image upload. Checked in a fresh Node process, the way the
 * service starts, by the modules it has loaded.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');

/** Starts the app in a fresh process (no database needed to build it), runs `then`, and prints which of the heavy modules are loaded. */
async function loadedAfter(then: string): Promise<string[]> {
  const script = `
    const { createApp } = require('./src/app');
    const { loadConfig } = require('./src/config');
    const heavy = ['@graphql-yoga/render-graphiql', 'node_modules/sharp/'];
    (async () => {
      const app = createApp(loadConfig({ NODE_ENV: 'production', DATA_DIR: ${JSON.stringify(path.join(ROOT, 'data-lazy-test'))} }));
      ${then}
      const loaded = Object.keys(require.cache);
      console.log(JSON.stringify(heavy.filter((h) => loaded.some((k) => k.includes(h)))));
      process.exit(0);
    })();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('modules loaded on first use', () => {
  it('neither the GraphiQL bundle nor sharp is loaded once the app is built', async () => {
    expect(await loadedAfter('')).toEqual([]);
  }, 60_000);

  it('the GraphiQL bundle loads when the page is first rendered', async () => {
    expect(await loadedAfter(`require('./src/explorer').renderExplorerPage(require('./src/explorer').graphiqlOptions);`)).toEqual(['@graphql-yoga/render-graphiql']);
  }, 60_000);
});
