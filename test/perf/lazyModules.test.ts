/**
 * What a request does not need is not loaded at start (issue 13, memory):
 * the GraphiQL bundle loads on the first visit of the page, sharp (libvips)
 * on the first image upload, the OpenAI SDK when an AI provider is
 * configured, pino-pretty when logs are pretty, ioredis and cockatiel when
 * REDIS_URL is set, the AWS SDK's S3 client when a bucket is configured, sanitize-html when a rich text value is written. Checked in a fresh Node process, the way the
 * service starts, by the modules it has loaded.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { adminQuery, testDatabaseUrl, withDatabase } from '../helpers/templates';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Starts the app in a fresh process (no database needed to build it), runs `then`, and prints which of the heavy
 * modules are loaded. On the embedded database unless `databaseUrl` is given.
 */
async function loadedAfter(then: string, databaseUrl?: string): Promise<string[]> {
  const database = databaseUrl ? `DATABASE_URL: ${JSON.stringify(databaseUrl)}` : `DATA_DIR: ${JSON.stringify(path.join(ROOT, 'data-lazy-test'))}`;
  const script = `
    const { createApp } = require('./src/app');
    const { loadConfig } = require('./src/platform/config');
    const heavy = ['@graphql-yoga/render-graphiql', 'node_modules/sharp/', 'node_modules/openai/', 'node_modules/pino-pretty/', 'node_modules/ioredis/', 'node_modules/cockatiel/', '@aws-sdk/client-s3', 'node_modules/sanitize-html/', '@electric-sql/pglite', 'pglite-prisma-adapter'];
    (async () => {
      const app = createApp(loadConfig({ NODE_ENV: 'production', ${database} }));
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

  it('none of the GraphiQL bundle, sharp, the OpenAI SDK, pino-pretty, the Redis client, the S3 client, sanitize-html or PGlite is loaded once the app is built', async () => {
    expect(await loadedAfter('')).toEqual([]);
  }, 60_000);

  it('PGlite and its Prisma adapter load when the embedded database is opened, and not on PostgreSQL', async () => {
    const openEmbedded = `await require('./src/platform/db/adapters').openPGlite().then((db) => db.close());`;
    expect(await loadedAfter(openEmbedded)).toEqual(['@electric-sql/pglite', 'pglite-prisma-adapter']);
    const url = testDatabaseUrl();
    if (!url) return;
    // Opened through the service's own path on a new PostgreSQL database (its migrations, a query): PGlite stays unloaded.
    const name = `catalog_lazy_${process.pid}`;
    const databaseUrl = withDatabase(url, name);
    await adminQuery(url, `CREATE DATABASE ${name}`);
    try {
      const openPostgres = `
        const { openDatabase } = require('./src/platform/db/client');
        const database = await openDatabase(loadConfig({ NODE_ENV: 'production', DATABASE_URL: ${JSON.stringify(databaseUrl)} }).database, { role: 'service' });
        await database.prisma.store.count();
        await database.close();`;
      expect(await loadedAfter(openPostgres, databaseUrl)).toEqual([]);
    } finally {
      await adminQuery(url, `DROP DATABASE ${name} WITH (FORCE)`);
    }
  }, 120_000);

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

/** The parts of a V8 heap snapshot the checks below read. */
interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * The sizes of strings of at least `minBytes` that start with `prefix` (a snapshot keeps only a string's first
 * characters as its name, so the size is the self size), and the `edges` objects of Prisma's parameter graph.
 */
function readSnapshot(file: string, prefix: string, minBytes: number) {
  const snap = JSON.parse(readFileSync(file, 'utf8')) as HeapSnapshot;
  const { node_fields, node_types, edge_fields, edge_types } = snap.snapshot.meta;
  const [type, name, selfSize, edgeCount] = ['type', 'name', 'self_size', 'edge_count'].map((f) => node_fields.indexOf(f));
  const [edgeType, edgeName, toNode] = ['type', 'name_or_index', 'to_node'].map((f) => edge_fields.indexOf(f));
  const width = node_fields.length;
  const nodeType = (at: number) => node_types[0][snap.nodes[at + type]];
  const strings: number[] = [];
  // What each node's elements store (V8's backing array for integer keys) weighs, by the node that owns it.
  const elementBytes = new Map<number, number>();
  const edgesTargets: number[] = [];
  let edge = 0;
  for (let at = 0; at < snap.nodes.length; at += width) {
    const nodeName = snap.strings[snap.nodes[at + name]];
    if (nodeType(at) === 'string' && snap.nodes[at + selfSize] >= minBytes && nodeName.startsWith(prefix)) strings.push(snap.nodes[at + selfSize]);
    for (let e = 0; e < snap.nodes[at + edgeCount]; e++, edge += edge_fields.length) {
      const kind = edge_types[0][snap.edges[edge + edgeType]];
      if (kind !== 'property' && kind !== 'internal') continue;
      const label = snap.strings[snap.edges[edge + edgeName]];
      const target = snap.edges[edge + toNode];
      if (kind === 'internal' && label === 'elements') elementBytes.set(at, snap.nodes[target + selfSize]);
      if (kind === 'property' && label === 'edges') edgesTargets.push(target);
    }
  }
  const edgesObjects = edgesTargets.map((at) => ({ constructor: snap.strings[snap.nodes[at + name]], elementBytes: elementBytes.get(at) ?? 0 }));
  return { strings, edgesObjects };
}

describe("Prisma's query compiler at start", () => {
  // Two edits of scripts/prisma-memory.cjs, checked in a heap snapshot of a process that has connected and run a
  // query: the compiler's wasm text (2.3 MB of base64, which starts "AGFzbQ", the wasm magic number) is not held,
  // and the parameter graph keeps its edges in Maps, not in objects whose integer keys V8 stores as holey arrays as
  // long as the largest key (13 MB in all). The process runs the production build (tsc's output under plain node:
  // under tsx the client's require keeps no module, so the first check would pass without its edit). On the embedded
  // database whatever the run's DATABASE_URL: the client and its compiler are the same on both.
  it('holds neither the wasm text nor the parameter graph in holey arrays', async () => {
    const dataDir = path.join(ROOT, 'data-compiler-test');
    // Beside dist/, where the build finds prisma/ as dist/ does.
    const build = path.join(ROOT, 'dist-compiler-test');
    const snapshotFile = path.join(dataDir, 'after-query.heapsnapshot');
    const script = `
      const { loadConfig } = require(${JSON.stringify(path.join(build, 'src/platform/config'))});
      const { openDatabase } = require(${JSON.stringify(path.join(build, 'src/platform/db/client'))});
      (async () => {
        const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: ${JSON.stringify(dataDir)} });
        const database = await openDatabase(config.database, { role: 'service' });
        await database.prisma.store.count();
        require('node:v8').writeHeapSnapshot(${JSON.stringify(snapshotFile)});
        console.log(JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('query_compiler'))));
        await database.close();
        process.exit(0);
      })();`;
    try {
      const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
      await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', build, '--sourceMap', 'false'], { cwd: ROOT, timeout: 120_000 });
      const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: ROOT, timeout: 90_000 });
      const held: string[] = JSON.parse(stdout.trim().split('\n').pop()!);
      expect(held.filter((k) => k.includes('wasm-base64'))).toEqual([]);
      // The compiler's glue module stays: it is what runs the compiled wasm.
      expect(held.some((k) => /query_compiler_\w+_bg\.postgresql\.js$/.test(k))).toBe(true);

      const { strings, edgesObjects } = readSnapshot(snapshotFile, 'AGFzbQ', 100_000);
      expect(strings).toEqual([]);
      // The graph is there (one edges Map per node, thousands of them) ...
      expect(edgesObjects.filter((o) => o.constructor === 'Map').length).toBeGreaterThan(1000);
      // ... and no edges object stores its keys as an array.
      expect(edgesObjects.filter((o) => o.elementBytes > 1024)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(build, { recursive: true, force: true });
    }
  }, 240_000);
});
