/**
 * What a request does not need is not loaded at start (issue 13, memory):
 * the GraphiQL bundle loads on the first visit of the page, sharp (libvips)
 * on the first image upload, the OpenAI SDK when an AI provider is
 * configured, pino-pretty when logs are pretty, ioredis and cockatiel when
 * REDIS_URL is set, the AWS SDK's S3 client when a bucket is configured, sanitize-html when a rich text value is written. Checked in a fresh Node process, the way the
 * service starts, by the modules it has loaded.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');

/** Starts the app in a fresh process (no database needed to build it), runs `then`, and prints which of the heavy modules are loaded. */
async function loadedAfter(then: string): Promise<string[]> {
  const script = `
    const { createApp } = require('./src/app');
    const { loadConfig } = require('./src/platform/config');
    const heavy = ['@graphql-yoga/render-graphiql', 'node_modules/sharp/', 'node_modules/openai/', 'node_modules/pino-pretty/', 'node_modules/ioredis/', 'node_modules/cockatiel/', '@aws-sdk/client-s3', 'node_modules/sanitize-html/'];
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
  it('the OpenAI SDK loads when an OpenAI-compatible provider is made', async () => {
    const make = `new (require('./src/catalog/services/descriptions').OpenAICompatibleProvider)({ kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'k', model: 'm', timeoutMs: 1000 });`;
    expect(await loadedAfter(make)).toEqual(['node_modules/openai/']);
  }, 60_000);

  it('none of the GraphiQL bundle, sharp, the OpenAI SDK, pino-pretty, the Redis client, the S3 client or sanitize-html is loaded once the app is built', async () => {
    expect(await loadedAfter('')).toEqual([]);
  }, 60_000);

  it('sanitize-html loads when a rich text value is first sanitized', async () => {
    expect(await loadedAfter(`require('./src/catalog/services/attributeValues').sanitizeRichText('<p>x</p>');`)).toEqual(['node_modules/sanitize-html/']);
  }, 60_000);

  it('the S3 client loads when a bucket is the configured storage', async () => {
    const make = `require('./src/platform/storage').storageFor({ storage: { driver: 's3', bucket: 'b', region: 'us-east-1', forcePathStyle: true, keyPrefix: '' } });`;
    expect(await loadedAfter(make)).toEqual(['@aws-sdk/client-s3']);
  }, 60_000);

  it('the GraphiQL bundle loads when the page is first rendered', async () => {
    expect(await loadedAfter(`require('./src/api/explorer').renderExplorerPage(require('./src/api/explorer').graphiqlOptions);`)).toEqual(['@graphql-yoga/render-graphiql']);
  }, 60_000);
});

describe("the query compiler's wasm text", () => {
  // Prisma's generated client loads its query compiler from a module that holds it as base64 text; scripts/generate.sh
  // makes the client drop that module once it has read it, so the text (4.6 MB, source and export) is not kept.
  // On the embedded database whatever the run's DATABASE_URL: the client and its compiler are the same on both.
  it('is not held once the client has connected and run a query', async () => {
    const dataDir = path.join(ROOT, 'data-compiler-test');
    const script = `
      const { loadConfig } = require('./src/platform/config');
      const { openDatabase } = require('./src/platform/db/client');
      (async () => {
        const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: ${JSON.stringify(dataDir)} });
        const database = await openDatabase(config.database, { role: 'service' });
        await database.prisma.store.count();
        console.log(JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('query_compiler'))));
        await database.close();
        process.exit(0);
      })();`;
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, timeout: 60_000 });
      const held: string[] = JSON.parse(stdout.trim().split('\n').pop()!);
      expect(held.filter((k) => k.includes('wasm-base64'))).toEqual([]);
      // The compiler's glue module stays: it is what runs the compiled wasm.
      expect(held.some((k) => /query_compiler_\w+_bg\.postgresql\.js$/.test(k))).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
