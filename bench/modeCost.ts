/**
 * npx tsx bench/modeCost.ts [options]: what the test-mode catalog costs the
 * reads. Three service processes run side by side in one run, each on its
 * own copy of one seeded live catalog:
 *
 *   before       the service before products had a mode (a git worktree of
 *                --before, built there), on the schema of its own migrations;
 *   after        this checkout, on the same catalog upgraded by this
 *                checkout's migrations (the mode columns and the indexes
 *                that lead with it);
 *   after+test   this checkout, the same upgraded catalog plus a test
 *                catalog of --test-products products in the same store
 *                (newer than every live product, with variants, categories,
 *                tags and search text like the live ones).
 *
 * Every read scenario of the main benchmark's list table (the REST list with
 * each filter, the GraphQL list, the REST read) is measured on all three at
 * saturation, rounds rotating which goes first. Every response is checked
 * to be the live catalog (the same total as "before"). Results:
 * bench/results/modes.md and modes.json.
 *
 *   --before=<ref>          the commit before the catalog mode (default 4808e9d^)
 *   --products=<n>          live catalog size (default 10000)
 *   --test-products=<n>     test catalog size beside it (default 100000)
 *   --seconds=<n>           saturation seconds per round and version (default 3)
 *   --rounds=<n>            rounds (default 2)
 *   --connections=<n>       load connections (default 16)
 *   --scenarios=<regex>     only scenarios whose id matches
 *   --out=<dir>             where modes.md and modes.json go (default bench/results)
 *   --keep-worktrees        leave the worktree (printed)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { applyMigrations } from '../src/platform/db/migrate';
import { type ProductFilter, productPageQuery } from '../src/catalog/services/productList';
import { postgresAdapterFactory } from '../src/platform/db/adapters';
import { adminQuery, databaseUrl, dropAbandonedDatabases, ensurePostgres, processCpuMicros, serverVersion, withClient } from './postgres';
import { freePort, LoadGenerator, pinning, serviceEnv, startTarget, type Target } from './processes';
import { LIST_FILTERS, type ScenarioContext, SCENARIOS } from './scenarios';
import { catalogStatements, openFixture, prepareCatalog } from './seed';
import { buildThisCheckout, cleanupOf, git, Worktrees } from './versions';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string) => args.includes(`--${name}`);

const beforeRef = option('before') ?? '4808e9d^';
const products = Number(option('products') ?? 10_000);
const testProducts = Number(option('test-products') ?? 100_000);
const seconds = Number(option('seconds') ?? 3);
const rounds = Number(option('rounds') ?? 2);
const connections = Number(option('connections') ?? 16);
const scenarioFilter = option('scenarios') ? new RegExp(option('scenarios')!) : null;
const outDir = path.resolve(option('out') ?? path.join(__dirname, 'results'));

const started = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);
const DB_PREFIX = `bench_modes_${process.pid}`;
const workDir = mkdtempSync(path.join(tmpdir(), 'bench-modes-'));
const worktrees = new Worktrees(log);
const databases: string[] = [];

type Label = 'before' | 'after' | 'after+test';
const LABELS: Label[] = ['before', 'after', 'after+test'];

/** The read scenarios of the main benchmark: every list filter, the GraphQL list and the read of one product. */
const READS = SCENARIOS.filter((s) => !s.mutates && (s.id.startsWith('rest-list-') || s.id === 'graphql-list' || s.id === 'rest-read')).filter(
  (s) => !scenarioFilter || scenarioFilter.test(s.id),
);

interface Round {
  round: number;
  rps: number;
  p50: number;
  p99: number;
  serviceCpuUs: number;
  bad: number;
}

/** The list's page statement (ids and capped count) as the service sends it, run with EXPLAIN (ANALYZE, BUFFERS): work that load on the machine does not change. */
interface PlanFigures {
  /** Shared buffers hit or read. */
  buffers: number;
  /** Median execution time of 7 runs. */
  ms: number;
  /** The index scans of the plan. */
  indexes: string[];
}

interface Outcome {
  id: string;
  title: string;
  plan?: Partial<Record<Label, PlanFigures>>;
  /** The response's `meta.total` on each version (REST lists): the live catalog's count, the same everywhere. */
  totals: Partial<Record<Label, number | null>>;
  rounds: Partial<Record<Label, Round[]>>;
}

interface ModeCostReport {
  startedAt: string;
  seconds: number;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; postgres: string; pinning: string };
  settings: { products: number; testProducts: number; seconds: number; rounds: number; connections: number };
  versions: Record<Label, string>;
  scenarios: Outcome[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

/** Adds `count` test-mode products (numbers after the live ones) to the store, with their variants, SEO records and categories. */
async function addTestCatalog(url: string, storeId: string, first: number, count: number) {
  await withClient(url, async (c) => {
    await c.query('SET synchronous_commit = off');
    const batch = 50_000;
    for (let from = first; from < first + count; from += batch) {
      const n = Math.min(batch, first + count - from);
      await c.query('BEGIN');
      for (const sql of catalogStatements(storeId, n, { first: from, withCategories: false, mode: 'test' })) await c.query(sql);
      await c.query('COMMIT');
      log(`  test catalog: ${from + n - first}/${count}`);
    }
    await c.query('VACUUM ANALYZE');
  });
}

/** The filter object a REST list query string means (the list scenarios' parameters). */
function filterOf(query: string): ProductFilter {
  const q = new URLSearchParams(query);
  const f: ProductFilter = {};
  if (q.get('search')) f.search = q.get('search')!;
  if (q.get('category')) f.category = q.get('category')!;
  if (q.get('tags')) f.tags = q.get('tags')!.split(',');
  if (q.get('is_active')) f.isActive = q.get('is_active') === 'true';
  if (q.get('low_stock')) f.lowStock = q.get('low_stock') === 'true';
  return f;
}

type PageStatement = (storeId: string, filter: ProductFilter) => { text: string; values: unknown[] };

/** This checkout's list statement for the live catalog. */
const pageStatementAfter: PageStatement = (storeId, filter) => productPageQuery(storeId, 'live', filter, { page: 1, perPage: 20 }).sql;

/**
 * The list statement of another version, from its build (dist/) in its worktree: before the catalog mode,
 * productPageQuery took no mode argument.
 */
function pageStatementOf(root: string): PageStatement {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { productPageQuery: build } = require(path.join(root, 'dist/src/services/productList.js')) as { productPageQuery: (...a: unknown[]) => { sql: { text: string; values: unknown[] } } };
  return (storeId, filter) => (build.length >= 5 ? build(storeId, 'live', filter, { page: 1, perPage: 20 }) : build(storeId, filter, { page: 1, perPage: 20 })).sql;
}

async function planFigures(url: string, sql: { text: string; values: unknown[] }): Promise<PlanFigures> {
  return withClient(url, async (c) => {
    const runs: { ms: number; buffers: number; indexes: string[] }[] = [];
    for (let i = 0; i < 7; i++) {
      const { rows } = await c.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql.text}`, sql.values as unknown[]);
      const [{ Plan, 'Execution Time': ms }] = rows[0]['QUERY PLAN'];
      const indexes: string[] = [];
      const walk = (n: PlanNode) => {
        if (n['Index Name']) indexes.push(n['Index Name']);
        for (const child of n.Plans ?? []) walk(child);
      };
      walk(Plan);
      runs.push({ ms, buffers: (Plan['Shared Hit Blocks'] ?? 0) + (Plan['Shared Read Blocks'] ?? 0), indexes });
    }
    const last = runs[runs.length - 1];
    return { buffers: last.buffers, ms: median(runs.map((r) => r.ms)), indexes: [...new Set(last.indexes)] };
  });
}

interface PlanNode {
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

async function listTotal(target: Target, c: ScenarioContext, scenario: (typeof READS)[number]): Promise<number | null> {
  const [req] = scenario.requests(c);
  const res = await fetch(`${target.url}${req.path}`, { method: req.method, headers: req.headers, body: req.body });
  if (!res.ok) throw new Error(`${scenario.id}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { meta?: { total?: number } };
  return body.meta?.total ?? null;
}

const cleanup = cleanupOf({ databases, worktrees, keepWorktrees: flag('keep-worktrees'), workDir, log });

async function main(): Promise<number> {
  await ensurePostgres(log);
  await dropAbandonedDatabases('bench_modes');
  const [beforeRoot, after] = await Promise.all([worktrees.build(beforeRef, 'before'), buildThisCheckout(log)]);
  const pageStatementBefore = pageStatementOf(beforeRoot);
  const versions: Record<Label, string> = {
    before: git(beforeRoot, 'rev-parse', '--short', 'HEAD'),
    after: after.describe,
    'after+test': `${after.describe}, plus ${testProducts.toLocaleString('en')} test-mode products`,
  };

  const seedDb = `${DB_PREFIX}_seed`;
  databases.push(seedDb);
  log(`seeding ${products} live products on the schema of ${versions.before}`);
  const seed = await prepareCatalog(products, { dbName: seedDb, reuse: false, log: () => {}, migrationsDir: path.join(beforeRoot, 'prisma/migrations') });
  // Credentials and ids, issued once in the seed: every copy has the same store, token and products.
  const fixture = await openFixture(seed.url);
  const dbs = Object.fromEntries(LABELS.map((l) => [l, `${DB_PREFIX}_${l.replace('+', '_')}`])) as Record<Label, string>;
  for (const l of ['before', 'after'] as Label[]) {
    databases.push(dbs[l]);
    await adminQuery(`CREATE DATABASE "${dbs[l]}" TEMPLATE "${seedDb}"`);
  }
  log('after: upgrading its copy with this checkout\'s migrations');
  await applyMigrations(postgresAdapterFactory(databaseUrl(dbs.after), 2));
  await withClient(databaseUrl(dbs.after), (c) => c.query('VACUUM ANALYZE'));
  databases.push(dbs['after+test']);
  await adminQuery(`CREATE DATABASE "${dbs['after+test']}" TEMPLATE "${dbs.after}"`);
  log(`after+test: adding ${testProducts} test-mode products`);
  await addTestCatalog(databaseUrl(dbs['after+test']), fixture.storeId, products + 1, testProducts);

  log('starting the three services');
  const targets = {} as Record<Label, Target>;
  for (const l of LABELS) {
    const root = l === 'before' ? beforeRoot : after.root;
    targets[l] = await startTarget('service', await freePort(), serviceEnv(databaseUrl(dbs[l]), mkdtempSync(path.join(workDir, 'data-'))), { root });
  }

  const load = new LoadGenerator();
  const ctx: ScenarioContext = { f: fixture, uploads: {}, runId: Date.now().toString(36) };
  const outcomes: Outcome[] = [];
  log('warming up (1 s per scenario and version)');
  for (const s of READS) for (const l of LABELS) await load.run({ url: targets[l].url, requests: s.requests(ctx), connections, duration: 1 });
  let failed = 0;
  for (const s of READS) {
    const outcome: Outcome = { id: s.id, title: s.title, totals: {}, rounds: {} };
    if (s.id.startsWith('rest-list-')) {
      const filter = filterOf(LIST_FILTERS.find((x) => `rest-list-${x.id}` === s.id)?.query ?? '');
      outcome.plan = {
        before: await planFigures(databaseUrl(dbs.before), pageStatementBefore(fixture.storeId, filter)),
        after: await planFigures(databaseUrl(dbs.after), pageStatementAfter(fixture.storeId, filter)),
        'after+test': await planFigures(databaseUrl(dbs['after+test']), pageStatementAfter(fixture.storeId, filter)),
      };
      for (const l of LABELS) outcome.totals[l] = await listTotal(targets[l], ctx, s);
      if (LABELS.some((l) => outcome.totals[l] !== outcome.totals.before)) {
        log(`  ${s.id}: totals differ ${JSON.stringify(outcome.totals)}: a version does not serve the live catalog alone`);
        failed++;
      }
    }
    for (let round = 1; round <= rounds; round++) {
      // Rotate the order: each version goes first in some round.
      const order = LABELS.map((_, i) => LABELS[(i + round - 1) % LABELS.length]);
      for (const l of order) {
        await load.run({ url: targets[l].url, requests: s.requests(ctx), connections, duration: 0.5 });
        const cpu0 = processCpuMicros(targets[l].pid) ?? 0;
        const r = await load.run({ url: targets[l].url, requests: s.requests(ctx), connections, duration: seconds });
        const cpu = (processCpuMicros(targets[l].pid) ?? 0) - cpu0;
        const bad = r.non2xx + r.errors;
        if (bad) failed++;
        (outcome.rounds[l] ??= []).push({ round, rps: r.rps, p50: r.p50, p99: r.p99, serviceCpuUs: cpu / Math.max(1, r.ok + r.non2xx), bad });
      }
    }
    const m = (l: Label) => median(outcome.rounds[l]!.map((x) => x.rps));
    log(`${s.id}: before ${m('before').toFixed(0)}, after ${m('after').toFixed(0)}, after+test ${m('after+test').toFixed(0)} req/s`);
    outcomes.push(outcome);
  }
  load.stop();

  const report: ModeCostReport = {
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: totalmem() / 2 ** 30, node: process.version, postgres: await serverVersion(), pinning },
    settings: { products, testProducts, seconds, rounds, connections },
    versions,
    scenarios: outcomes,
  };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'modes.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.join(outDir, 'modes.md'), render(report));
  log(`results in ${path.join(outDir, 'modes.md')}`);
  return failed ? 1 : 0;
}

function render(r: ModeCostReport): string {
  const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  const pct = (a: number, b: number) => `${f((a / b) * 100)} %`;
  const med = (o: Outcome, l: Label, k: 'rps' | 'p50' | 'serviceCpuUs') => median((o.rounds[l] ?? []).map((x) => x[k]));
  return [
    '# What the test-mode catalog costs the reads',
    '',
    `Generated by \`npx tsx bench/modeCost.ts\` on ${r.startedAt.slice(0, 10)} (${f(r.seconds)} s). Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ` +
      `Node ${r.machine.node}, PostgreSQL ${r.machine.postgres}; ${r.machine.pinning}.`,
    '',
    `Three services in one run, each on its own copy of one seeded catalog of ${r.settings.products.toLocaleString('en')} live products: ` +
      `**before** is ${r.versions.before} (products had no mode), on its own schema; **after** is ${r.versions.after}, on the same catalog upgraded by its migrations; ` +
      `**after+test** is the same build and catalog with ${r.settings.testProducts.toLocaleString('en')} test-mode products added to the same store ` +
      '(newer than every live product, so a list that did not skip them by index would read them first). ' +
      `Saturation req/s from ${r.settings.connections} connections, ${r.settings.seconds} s per round, median of ${r.settings.rounds} rounds, the order rotating. ` +
      'The totals column is the REST list\'s `meta.total` on all three: the live catalog alone.',
    '',
    '| scenario | total (all three) | before req/s | after req/s | after / before | after+test req/s | after+test / after | p50 ms before / after / after+test | service CPU µs/req before / after / after+test |',
    '|---|--:|--:|--:|--:|--:|--:|---|---|',
    ...r.scenarios.map((o) => {
      const [b, a, t] = LABELS.map((l) => med(o, l, 'rps'));
      const total = o.totals.before ?? null;
      const agree = LABELS.every((l) => o.totals[l] === total);
      return (
        `| ${o.title} | ${total === null ? '—' : `${total.toLocaleString('en')}${agree ? '' : ` (differ: ${JSON.stringify(o.totals)})`}`} | ${f(b)} | ${f(a)} | ${pct(a, b)} | ${f(t)} | ${pct(t, a)} | ` +
        `${LABELS.map((l) => f(med(o, l, 'p50'), 2)).join(' / ')} | ${LABELS.map((l) => f(med(o, l, 'serviceCpuUs'))).join(' / ')} |`
      );
    }),
    '',
    `The list's page statement (the page's ids and the total, as each version sends it: before's from its own build), run with \`EXPLAIN (ANALYZE, BUFFERS)\` ` +
      `on each database: the buffers it touches are work that other load on the machine does not change; the time is the median of 7 runs. ` +
      'This is the cost of the mode itself; the req/s above also carry everything else that changed in the service between the two versions.',
    '',
    '| scenario | buffers before / after / after+test | ms before / after / after+test | indexes (after+test) |',
    '|---|--:|--:|---|',
    ...r.scenarios
      .filter((o) => o.plan?.after && o.plan['after+test'])
      .map((o) => {
        const plans = LABELS.map((l) => o.plan![l]);
        return (
          `| ${o.title} | ${plans.map((p) => (p ? String(p.buffers) : 'n/a')).join(' / ')} | ${plans.map((p) => (p ? f(p.ms, 2) : 'n/a')).join(' / ')} | ` +
          `${o.plan!['after+test']!.indexes.map((i) => `\`${i}\``).join(', ')} |`
        );
      }),
    '',
  ].join('\n');
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (e) => {
    console.error(e);
    await cleanup();
    process.exit(1);
  });
