/**
 * npx tsx bench/writeCost.ts [options]: what recording domain events costs
 * each write. The service as it was before the transactional outbox (a git
 * worktree of --before, built there) and as it is (this checkout, or a
 * worktree of --after) run side by side in one run, each on its own fresh
 * copy of one seeded catalog, and every write scenario is measured on both:
 *
 *   statements   SQL statements per request, counted on the wire by a proxy
 *                between the service and PostgreSQL (bench/wire.ts): BEGIN
 *                and COMMIT included, whatever sent them. One process per
 *                version talks through the proxy, requests one at a time;
 *                the median of the samples is reported (a background job or
 *                an expired auth-cache entry only moves one sample). Prisma's
 *                own query counter (Database.queryCount()) is read alongside.
 *   throughput   saturation req/s, p50, and CPU per request of the service
 *                process and of PostgreSQL's backends, on a second process
 *                per version that talks to PostgreSQL directly; rounds
 *                alternate which version goes first.
 *
 * Every request really writes: values carry the run and a counter, and
 * publish, unpublish and delete take ids no earlier request of the same run
 * used (the state is reset between runs; delete gets freshly inserted
 * products). Results: bench/results/writes.md and writes.json.
 *
 *   --before=<ref>       the pre-outbox commit (default 33c59ed)
 *   --after=<ref>        build this commit in a worktree too (default: this checkout's working tree, rebuilt when src/ changed)
 *   --products=<n>       catalog size (default 20000: pools of drafts and active products for the run)
 *   --seconds=<n>        saturation seconds per round and version (default 2)
 *   --rounds=<n>         rounds per scenario (default 2)
 *   --connections=<n>    load connections (default 16)
 *   --samples=<n>        sequential requests whose statements are counted (default 15)
 *   --scenarios=<regex>  only scenarios whose id matches
 *   --out=<dir>          where writes.md and writes.json go (default bench/results)
 *   --keep-worktrees     leave the worktrees (printed) instead of removing them
 *   --before-dir=<dir>   use an already built checkout (e.g. a kept worktree) as "before" instead of building --before
 *   --report-only        rewrite writes.md from the out dir's writes.json (no measuring)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import type { LoadResult, RequestSpec } from './load';
import { adminQuery, ADMIN_URL, BackendCpuMeter, databaseUrl, dropAbandonedDatabases, ensurePostgres, machineBusyMicros, processCpuMicros, serverVersion, withClient } from './postgres';
import { freePorts, LoadGenerator, pinning, serviceEnv, startTarget, type Target } from './processes';
import { type ScenarioContext, WRITE_REQUESTS } from './scenarios';
import { catalogStatements, openFixture, prepareCatalog, type BenchFixture } from './seed';
import { buildThisCheckout, cleanupOf, git, Worktrees } from './versions';
import { statementLabel, StatementCounter } from './wire';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = (name: string) => args.includes(`--${name}`);

const beforeRef = option('before') ?? '33c59ed';
const afterRef = option('after');
const products = Number(option('products') ?? 20_000);
const seconds = Number(option('seconds') ?? 2);
const rounds = Number(option('rounds') ?? 2);
const connections = Number(option('connections') ?? 16);
const samples = Number(option('samples') ?? 15);
const warmupSeconds = 0.5;
const initialWarmup = 1;
const scenarioFilter = option('scenarios') ? new RegExp(option('scenarios')!) : null;
const outDir = path.resolve(option('out') ?? path.join(__dirname, 'results'));

const started = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);
const DB_PREFIX = `bench_writes_${process.pid}`;
const workDir = mkdtempSync(path.join(tmpdir(), 'bench-writes-'));
const worktrees = new Worktrees(log);
const databases: string[] = [];

// ---------------------------------------------------------------- versions

interface Version {
  label: 'before' | 'after';
  /** The checkout whose dist/ runs. */
  root: string;
  commit: string;
  /** What was measured, for the report: a commit, or the working tree on top of one. */
  describe: string;
  dbName: string;
  url: string;
  /** Behind the counting proxy: statements per request. */
  counted?: Target;
  counter?: StatementCounter;
  /** Direct to PostgreSQL: throughput. */
  direct?: Target;
  /** Next product number for products inserted for the delete scenario. */
  nextProduct: number;
}

async function prepareVersions(): Promise<Version[]> {
  const beforeDir = option('before-dir');
  if (beforeDir) log(`before: the build in ${beforeDir} (--before-dir)`);
  let afterDescribe = '';
  // Both builds at once (tsc is mostly single-threaded).
  const [beforeRoot, afterRoot] = await Promise.all([
    beforeDir ? path.resolve(beforeDir) : worktrees.build(beforeRef, 'before'),
    (async () => {
      if (afterRef) {
        const dir = await worktrees.build(afterRef, 'after');
        afterDescribe = git(dir, 'rev-parse', '--short', 'HEAD');
        return dir;
      }
      const built = await buildThisCheckout(log);
      afterDescribe = built.describe;
      return built.root;
    })(),
  ]);
  const version = (label: Version['label'], root: string, describe: string): Version => ({
    label,
    root,
    commit: git(root, 'rev-parse', 'HEAD'),
    describe,
    dbName: `${DB_PREFIX}_${label}`,
    url: databaseUrl(`${DB_PREFIX}_${label}`),
    nextProduct: products + 1,
  });
  return [version('before', beforeRoot, git(beforeRoot, 'rev-parse', '--short', 'HEAD')), version('after', afterRoot, afterDescribe)];
}


// ---------------------------------------------------------------- scenarios

interface RunLists {
  lists: Record<string, string[]>;
  /** The list whose ids must not repeat within the run (a second publish of one product writes nothing). */
  once?: string;
}

interface WriteScenario {
  id: string;
  title: string;
  request: (c: ScenarioContext) => RequestSpec;
  /** The ids one run (on one version's database) picks from; `need` is how many requests the run is expected to send at most. */
  lists: (v: Version, need: number) => Promise<RunLists> | RunLists;
  /** Puts back what a run changed, so the next run finds the same state (outside any measurement). */
  reset?: (v: Version, lists: RunLists, sent: number) => Promise<void>;
}

interface Pools {
  drafts: string[];
  actives: string[];
  all: string[];
  withSeo: string[];
}

function writeScenarios(f: BenchFixture, pools: Pools): WriteScenario[] {
  const setStatus = (status: 'draft' | 'active') => async (v: Version, l: RunLists, sent: number) => {
    const ids = l.lists[l.once!].slice(0, sent);
    await withClient(v.url, (c) =>
      c.query(
        status === 'draft'
          ? `UPDATE products SET status = 'draft', published_at = NULL WHERE id = ANY($1::uuid[])`
          : `UPDATE products SET status = 'active', published_at = created_at + interval '1 hour' WHERE id = ANY($1::uuid[])`,
        [ids],
      ),
    );
  };
  return [
    { id: 'create', title: 'Create product', request: WRITE_REQUESTS.create, lists: () => ({ lists: {} }) },
    { id: 'update', title: 'Update product (price)', request: WRITE_REQUESTS.update, lists: () => ({ lists: { update: pools.all } }) },
    { id: 'publish', title: 'Publish a draft', request: WRITE_REQUESTS.publish, lists: () => ({ lists: { draft: pools.drafts }, once: 'draft' }), reset: setStatus('draft') },
    { id: 'unpublish', title: 'Unpublish an active product', request: WRITE_REQUESTS.unpublish, lists: () => ({ lists: { active: pools.actives }, once: 'active' }), reset: setStatus('active') },
    { id: 'variants-replace', title: 'Replace variants (3 variants)', request: WRITE_REQUESTS.variants, lists: () => ({ lists: { update: pools.all } }) },
    { id: 'seo', title: 'Set SEO record (replace an existing one)', request: WRITE_REQUESTS.seo, lists: () => ({ lists: { seo: pools.withSeo } }) },
    {
      id: 'delete',
      title: 'Delete product (with variants, image, SEO as seeded)',
      request: WRITE_REQUESTS.delete,
      // Products made for the run, like the seeded ones (variants, every 10th an image, every 5th SEO), so each request deletes one that exists.
      lists: async (v, need) => {
        const count = need;
        const first = v.nextProduct;
        v.nextProduct += count;
        const ids = await withClient(v.url, async (c) => {
          for (const sql of catalogStatements(f.storeId, count, { first, withCategories: false })) await c.query(sql);
          await c.query('ANALYZE products');
          const { rows } = await c.query<{ id: string }>(`SELECT md5($1 || ':p:' || i)::uuid::text AS id FROM generate_series($2::int, $3::int) i`, [f.storeId, first, first + count - 1]);
          return rows.map((r) => r.id);
        });
        return { lists: { delete: ids }, once: 'delete' };
      },
    },
  ];
}


// ---------------------------------------------------------------- measuring

interface StatementSample {
  wire: number;
  ms: number[];
  prisma: number | null;
  labels: string[];
  statements: string[];
  status?: number;
}

interface StatementResult {
  /** Median over the samples. */
  perRequest: number;
  mean: number;
  prismaPerRequest: number | null;
  /** One request's statements, in order (the first sample with the median count), each with its median time over the samples of the same shape. */
  shape: { label: string; sql: string; ms: number }[];
  /** Median over the samples of the sum of their statement times: the request's time in the database, round trips included. */
  dbMs: number;
  samples: number[];
  failed?: string;
}

interface ThroughputRound {
  round: number;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  serviceCpuUs: number;
  pgCpuUs: number;
  /** Ids that had to repeat (a list too short for the run): those requests may have written nothing. */
  repeated: number;
  /** The machine's 1-minute load average as the round began (this run's own processes included). */
  load1: number;
  /** Cores' worth of CPU that neither the measured service, its PostgreSQL backends, the load generator nor this script used during the round: other work on the machine (and PostgreSQL's background processes), which skews req/s but not statement counts. */
  otherCores: number | null;
}

interface VersionResult {
  statements: StatementResult;
  rounds: ThroughputRound[];
}

interface ScenarioOutcome {
  id: string;
  title: string;
  before?: VersionResult;
  after?: VersionResult;
  error?: string;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

let phase = 0;
/** A run id per measured run: distinct SKUs, SEO titles and price cents for every run, the same on both versions. */
const runIdFor = (base: number, n: number) => (base + n).toString(36);

async function countStatements(load: LoadGenerator, v: Version, s: WriteScenario, ctx: ScenarioContext): Promise<StatementResult> {
  const target = v.counted!;
  const counter = v.counter!;
  const runLists = await s.lists(v, 2 + samples);
  const request = s.request(ctx);
  // Warm-up: the first request of a process resolves its token and plans its queries; it is not a write's steady cost.
  const warm = 2;
  const all = await load.run({ url: target.url, requests: [request], lists: runLists.lists, connections: 1, duration: 0, amount: warm });
  const sampled: StatementSample[] = [];
  if (all.non2xx || all.errors) {
    await s.reset?.(v, runLists, warm);
    return { perRequest: NaN, mean: NaN, prismaPerRequest: null, shape: [], dbMs: NaN, samples: [], failed: `answered ${all.firstBadStatus ?? 'with errors'} during warm-up` };
  }
  // One request per load run, each picking the list's next id after those already used.
  for (let i = 0; i < samples; i++) {
    const lists = Object.fromEntries(Object.entries(runLists.lists).map(([k, ids]) => [k, ids.slice(warm + i)]));
    const sampleCtx = { ...ctx, runId: `${ctx.runId}s${i}` };
    counter.reset();
    const prismaBefore = await target.queryCount();
    const r = await load.run({ url: target.url, requests: [s.request(sampleCtx)], lists, connections: 1, duration: 0, amount: 1 });
    const prismaAfter = await target.queryCount();
    const { statements, ms } = counter.snapshot();
    sampled.push({
      wire: statements.length,
      ms,
      prisma: prismaBefore === null || prismaAfter === null ? null : prismaAfter - prismaBefore,
      labels: statements.map(statementLabel),
      statements,
      status: r.ok ? undefined : (r.firstBadStatus ?? 0),
    });
  }
  await s.reset?.(v, runLists, warm + samples);
  const bad = sampled.find((x) => x.status !== undefined);
  const counts = sampled.map((x) => x.wire);
  const perRequest = median(counts);
  const typical = sampled.find((x) => x.wire === perRequest) ?? sampled[0];
  const prisma = sampled.map((x) => x.prisma).filter((x): x is number => x !== null);
  const sameShape = sampled.filter((x) => x.labels.join('|') === typical.labels.join('|'));
  return {
    perRequest,
    mean: mean(counts),
    prismaPerRequest: prisma.length === sampled.length ? median(prisma) : null,
    shape: typical.statements.map((sql, i) => ({ label: typical.labels[i], sql: sql.replace(/\s+/g, ' ').slice(0, 400), ms: median(sameShape.map((x) => x.ms[i])) })),
    dbMs: median(sampled.map((x) => x.ms.reduce((a, b) => a + b, 0))),
    samples: counts,
    ...(bad ? { failed: `a sampled request answered ${bad.status}` } : {}),
  };
}

/** An unmeasured run (its own lists, run id and reset); returns its rate. */
async function warmUp(load: LoadGenerator, v: Version, s: WriteScenario, ctx: ScenarioContext, duration: number): Promise<LoadResult> {
  const lists = await s.lists(v, Math.ceil(duration * 8000));
  const r = await load.run({ url: v.direct!.url, requests: [s.request(ctx)], lists: lists.lists, connections, duration });
  await s.reset?.(v, lists, r.ok + r.non2xx);
  return r;
}

async function throughputRound(load: LoadGenerator, v: Version, s: WriteScenario, ctx: ScenarioContext, round: number): Promise<ThroughputRound> {
  const target = v.direct!;
  // Its own run id, 50 away: other price cents than the measured run's, whose first requests update the same products.
  const warm = await warmUp(load, v, s, { ...ctx, runId: (Number.parseInt(ctx.runId, 36) + 50).toString(36) }, warmupSeconds);
  const load1 = loadavg()[0];
  const runLists = await s.lists(v, Math.ceil(Math.max(warm.rps, 1000) * seconds * 3) + 1000);
  const meter = new BackendCpuMeter(v.dbName);
  await meter.begin();
  const cpuBefore = processCpuMicros(target.pid) ?? 0;
  const loadCpuBefore = processCpuMicros(load.pid) ?? 0;
  const selfBefore = process.cpuUsage();
  const machineBefore = machineBusyMicros();
  const wallBefore = process.hrtime.bigint();
  const r: LoadResult = await load.run({ url: target.url, requests: [s.request(ctx)], lists: runLists.lists, connections, duration: seconds });
  const machineAfter = machineBusyMicros();
  const wall = Number(process.hrtime.bigint() - wallBefore) / 1e3;
  const self = process.cpuUsage(selfBefore);
  const loadCpu = (processCpuMicros(load.pid) ?? 0) - loadCpuBefore;
  const cpuAfter = processCpuMicros(target.pid) ?? 0;
  const pgCpu = await meter.end();
  const otherCores =
    machineBefore === null || machineAfter === null ? null : Math.max(0, machineAfter - machineBefore - (cpuAfter - cpuBefore) - pgCpu - loadCpu - self.user - self.system) / wall;
  const sent = r.ok + r.non2xx;
  await s.reset?.(v, runLists, sent);
  const limit = runLists.once ? runLists.lists[runLists.once].length : Infinity;
  return {
    round,
    rps: r.rps,
    p50: r.p50,
    p99: r.p99,
    ok: r.ok,
    non2xx: r.non2xx,
    errors: r.errors,
    serviceCpuUs: (cpuAfter - cpuBefore) / Math.max(1, sent),
    pgCpuUs: pgCpu / Math.max(1, sent),
    repeated: Math.max(0, sent - limit),
    load1,
    otherCores,
  };
}

// ---------------------------------------------------------------- report

interface WriteCostReport {
  startedAt: string;
  seconds: number;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; postgres: string; pinning: string };
  settings: { products: number; seconds: number; warmupSeconds: number; initialWarmup: number; rounds: number; connections: number; samples: number };
  versions: { label: string; commit: string; describe: string }[];
  method: string;
  scenarios: ScenarioOutcome[];
}

const f0 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(0));
const f1 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(1));
const f2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '–');
const signed = (v: number) => (!Number.isFinite(v) ? '–' : v > 0 ? `+${f1(v)}` : f1(v));

/** The statements of one request as "BEGIN 0.05 · SELECT products 0.61 · …" (milliseconds each). */
function shapeLine(shape: { label: string; ms?: number }[]): string {
  return shape.map((x) => `${x.label}${x.ms !== undefined && Number.isFinite(x.ms) ? ` ${f2(x.ms)}` : ''}`).join(' · ') || '–';
}

/** What the second shape has beyond the first: each label's surplus. */
function added(before: { label: string }[], after: { label: string }[]): string {
  const count = (xs: { label: string }[]) => xs.reduce((m, x) => m.set(x.label, (m.get(x.label) ?? 0) + 1), new Map<string, number>());
  const b = count(before);
  const a = count(after);
  const diff: string[] = [];
  for (const label of new Set([...a.keys(), ...b.keys()])) {
    const d = (a.get(label) ?? 0) - (b.get(label) ?? 0);
    if (d) diff.push(`${d > 0 ? '+' : '−'}${Math.abs(d)} ${label}`);
  }
  return diff.join(', ') || 'none';
}

/** The issue's bound: an event costs one INSERT per write and nothing else on the wire. */
function onlyOneInsert(before: { label: string }[], after: { label: string }[]): string {
  const diff = added(before, after);
  return diff === '+1 INSERT events' ? 'yes' : `**no**: ${diff}`;
}

function renderMarkdown(r: WriteCostReport): string {
  const [before, after] = r.versions;
  const rps = (x?: VersionResult) => mean(x?.rounds.map((o) => o.rps) ?? []);
  const lines: string[] = [];
  lines.push('# Write cost of the event outbox: before and after, one run', '');
  lines.push(
    `Generated by \`npx tsx bench/writeCost.ts\` on ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC in ${r.seconds.toFixed(0)} s. ` +
      `**before** = \`${before.describe}\` (no events), **after** = \`${after.describe}\` (every write inserts its events in its transaction). ` +
      `Both ran in the same run, each on its own fresh copy of one seeded catalog of ${r.settings.products.toLocaleString('en')} products.`,
    '',
  );
  lines.push(`Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ${r.machine.memoryGb.toFixed(0)} GB, Node ${r.machine.node}, PostgreSQL ${r.machine.postgres}; ${r.machine.pinning}.`, '');
  const others = r.scenarios
    .flatMap((s) => [...(s.before?.rounds ?? []), ...(s.after?.rounds ?? [])])
    .map((o) => o.otherCores)
    .filter((x): x is number => x !== null && x !== undefined);
  if (others.length) {
    const busy = Math.max(...others) > 0.5;
    lines.push(
      `CPU used during the rounds by anything but the measured service, its PostgreSQL backends, the load generator and the script (PostgreSQL's own background work, such as autovacuum after the deletes, counts here): ${Math.min(...others).toFixed(2)}–${Math.max(...others).toFixed(2)} cores of ${r.machine.cores}` +
        (busy ? ' — other work shared the machine, so req/s are indicative only (statement counts are not affected).' : '.'),
      '',
    );
  }
  lines.push('## Throughput and statements per request', '');
  lines.push('| Scenario | before req/s | after req/s | after/before | before stmts/req | after stmts/req | Δ stmts | only one INSERT events more? | Prisma-counted before → after |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const s of r.scenarios) {
    if (!s.before || !s.after) {
      lines.push(`| ${s.title} | – | – | – | – | – | – | – | failed: ${s.error ?? '?'} |`);
      continue;
    }
    const b = rps(s.before);
    const a = rps(s.after);
    lines.push(
      `| ${s.title} | ${f0(b)} | ${f0(a)} | ${f2(a / b)} | ${f1(s.before.statements.perRequest)} | ${f1(s.after.statements.perRequest)} | ${signed(s.after.statements.perRequest - s.before.statements.perRequest)} | ${onlyOneInsert(s.before.statements.shape, s.after.statements.shape)} | ${f1(s.before.statements.prismaPerRequest)} → ${f1(s.after.statements.prismaPerRequest)} |`,
    );
  }
  lines.push('');
  lines.push(
    `req/s: mean of ${r.settings.rounds} round${r.settings.rounds === 1 ? '' : 's'} of ${r.settings.seconds} s at ${r.settings.connections} connections (each process first ran every scenario for ${r.settings.initialWarmup} s; each round has its own ${r.settings.warmupSeconds} s warm-up; rounds alternate which version goes first). ` +
      `Statements: median over ${r.settings.samples} sequential requests, counted on the wire, BEGIN and COMMIT included. ` +
      "Prisma-counted: the service's own counter (`Database.queryCount()`, Prisma query events) over the same requests; it sees COMMIT but not BEGIN (the driver adapter sends BEGIN itself), hence one less for a write in a transaction.",
    '',
  );
  lines.push('## Latency and CPU per request', '');
  lines.push('| Scenario | database time per request, ms, one at a time: before → after | p50 ms under load before → after | node CPU µs before → after | PostgreSQL CPU µs before → after | rounds req/s before; after |');
  lines.push('|---|---:|---:|---:|---:|---|');
  for (const s of r.scenarios) {
    if (!s.before || !s.after) continue;
    const m = (x: VersionResult, k: 'p50' | 'serviceCpuUs' | 'pgCpuUs') => mean(x.rounds.map((o) => o[k]));
    lines.push(
      `| ${s.title} | ${f2(s.before.statements.dbMs)} → ${f2(s.after.statements.dbMs)} | ${f2(m(s.before, 'p50'))} → ${f2(m(s.after, 'p50'))} | ${f0(m(s.before, 'serviceCpuUs'))} → ${f0(m(s.after, 'serviceCpuUs'))} | ${f0(m(s.before, 'pgCpuUs'))} → ${f0(m(s.after, 'pgCpuUs'))} | ${s.before.rounds.map((o) => f0(o.rps)).join(', ')}; ${s.after.rounds.map((o) => f0(o.rps)).join(', ')} |`,
    );
  }
  lines.push('');
  lines.push('## The statements of one request', '');
  lines.push(
    'In order, as sent (verb and first table; the full SQL is in writes.json), each with its time in milliseconds from the message to its completion (median over the samples): server work plus a local round trip.',
    '',
  );
  for (const s of r.scenarios) {
    if (!s.before || !s.after) continue;
    lines.push(`**${s.title}**`, '');
    lines.push(`- before (${f1(s.before.statements.perRequest)}): ${shapeLine(s.before.statements.shape)}`);
    lines.push(`- after (${f1(s.after.statements.perRequest)}): ${shapeLine(s.after.statements.shape)}`);
    lines.push(`- after − before: ${added(s.before.statements.shape, s.after.statements.shape)}`, '');
  }
  const notes: string[] = [];
  for (const s of r.scenarios) {
    for (const [label, x] of [['before', s.before], ['after', s.after]] as const) {
      if (!x) continue;
      if (x.statements.failed) notes.push(`${s.title}, ${label}: ${x.statements.failed}.`);
      if (new Set(x.statements.samples).size > 1) notes.push(`${s.title}, ${label}: the samples varied (${x.statements.samples.join(', ')}); the median is reported.`);
      for (const o of x.rounds) {
        if (o.non2xx || o.errors) notes.push(`${s.title}, ${label}, round ${o.round}: ${o.non2xx} non-2xx, ${o.errors} errors.`);
        if (o.repeated) notes.push(`${s.title}, ${label}, round ${o.round}: ${o.repeated} requests reused an id (list too short), possibly writing nothing.`);
      }
    }
  }
  if (notes.length) lines.push('## Notes', '', ...notes.map((n) => `- ${n}`), '');
  lines.push('## Method', '', r.method, '');
  return lines.join('\n');
}

const METHOD = [
  'Statements are counted on the wire: each version has one service process whose DATABASE_URL points at a TCP proxy (bench/wire.ts) that reads the',
  "PostgreSQL frontend protocol and counts every simple Query and every extended-protocol Execute, with the SQL of the Parse it belongs to. It sees what",
  "reaches the server, whoever sent it (Prisma's query compiler, the driver adapter's BEGIN, the transaction's COMMIT), and works the same on both",
  "versions. pg_stat_statements is not loaded on this server (it needs a restart with shared_preload_libraries), and Prisma's own counter (query",
  "events) is read alongside for comparison. Requests are sent one at a time after two warm-up requests (token check and plans cached; the counting",
  'process has AUTH_CACHE_TTL_MS=60000), one load run per request, and the median per request is reported, so a background statement (the event',
  'pruning job, an auth-cache refill) in one sample does not count. The proxy also reads the server side and times each statement from its',
  'message to its CommandComplete; a COMMIT\'s time is mostly the WAL flush. Throughput is measured on a second process per version that talks to',
  'PostgreSQL directly (the proxy would add a hop to every statement), with the harness load generator (autocannon, pinned to its own core when',
  'taskset is available). Every request writes something: prices carry a counter and the run, SKUs and SEO titles too; publish, unpublish and',
  'delete take ids not used earlier in the run, the statuses are reset between runs and the delete scenario gets freshly inserted products.',
].join(' ');

// ---------------------------------------------------------------- main

const cleanup = cleanupOf({ databases, worktrees, keepWorktrees: flag('keep-worktrees'), workDir, log });

async function main() {
  await ensurePostgres(log);
  await dropAbandonedDatabases('bench_writes');
  const seedDb = `${DB_PREFIX}_seed`;
  databases.push(seedDb);
  log(`seeding ${products} products into ${seedDb} while the versions build`);
  const [versions, catalog] = await Promise.all([
    prepareVersions(),
    prepareCatalog(products, { dbName: seedDb, reuse: false, log: () => {} }).then((c) => {
      log('seeded');
      return c;
    }),
  ]);
  const fixture = await openFixture(catalog.url);
  const pools = await withClient(catalog.url, async (c) => {
    const ids = async (where: string) =>
      (await c.query<{ id: string }>(`SELECT p.id::text AS id FROM products p WHERE p.store_id = $1 ${where} ORDER BY p.created_at`, [fixture.storeId])).rows.map((r) => r.id);
    return {
      drafts: await ids(`AND p.status = 'draft'`),
      actives: await ids(`AND p.status = 'active'`),
      all: await ids(''),
      withSeo: await ids('AND EXISTS (SELECT 1 FROM product_seo s WHERE s.product_id = p.id)'),
    };
  });
  for (const v of versions) {
    databases.push(v.dbName);
    await adminQuery(`CREATE DATABASE "${v.dbName}" TEMPLATE "${seedDb}"`);
  }

  log('starting both versions (a counted and a direct process each)');
  const upstream = new URL(ADMIN_URL);
  await Promise.all(
    versions.map(async (v) => {
      const dataDir = mkdtempSync(path.join(workDir, `${v.label}-`));
      v.counter = await new StatementCounter({ host: upstream.hostname, port: Number(upstream.port || 5432) }).start();
      const [countedPort, directPort] = await freePorts(2);
      [v.counted, v.direct] = await Promise.all([
        startTarget('service', countedPort, serviceEnv(v.counter.proxied(v.url), path.join(dataDir, 'counted'), { AUTH_CACHE_TTL_MS: '60000' }), { root: v.root }),
        startTarget('service', directPort, serviceEnv(v.url, path.join(dataDir, 'direct')), { root: v.root }),
      ]);
    }),
  );

  const load = new LoadGenerator();
  const base = Date.now();
  const outcomes: ScenarioOutcome[] = [];
  const scenarios = writeScenarios(fixture, pools).filter((s) => !scenarioFilter || scenarioFilter.test(s.id));
  // Fresh processes and connections: JIT, query plans and PostgreSQL's per-connection caches warm up on every scenario first.
  log(`warming up (${initialWarmup} s per scenario and version)`);
  for (const s of scenarios) for (const v of versions) await warmUp(load, v, s, { f: fixture, uploads: {}, runId: runIdFor(base, phase) }, initialWarmup);
  phase++;
  for (const s of scenarios) {
    log(`scenario ${s.id}`);
    const outcome: ScenarioOutcome = { id: s.id, title: s.title };
    try {
      const results: Partial<Record<Version['label'], VersionResult>> = {};
      const countPhase = phase++;
      for (const v of versions) {
        const statements = await countStatements(load, v, s, { f: fixture, uploads: {}, runId: runIdFor(base, countPhase) });
        results[v.label] = { statements, rounds: [] };
        log(`  ${v.label.padEnd(6)} ${f1(statements.perRequest)} statements/request (Prisma counter ${f1(statements.prismaPerRequest)})${statements.failed ? `: ${statements.failed}` : ''}`);
      }
      for (let round = 1; round <= rounds; round++) {
        const roundPhase = phase++;
        const order = round % 2 ? versions : [...versions].reverse();
        for (const v of order) {
          const r = await throughputRound(load, v, s, { f: fixture, uploads: {}, runId: runIdFor(base, roundPhase) }, round);
          results[v.label]!.rounds.push(r);
          log(`  ${v.label.padEnd(6)} round ${round}: ${f0(r.rps)} req/s, p50 ${f2(r.p50)} ms${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}${r.repeated ? `, ${r.repeated} repeated ids` : ''}`);
        }
      }
      for (const v of versions) results[v.label]!.rounds.sort((a, b) => a.round - b.round);
      Object.assign(outcome, results);
    } catch (e) {
      outcome.error = (e as Error).message;
      log(`  FAILED: ${outcome.error}`);
    }
    outcomes.push(outcome);
  }
  load.stop();
  for (const v of versions) {
    await v.counted?.stop();
    await v.direct?.stop();
    await v.counter?.stop();
  }

  const report: WriteCostReport = {
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: totalmem() / 2 ** 30, node: process.version, postgres: await serverVersion(), pinning },
    settings: { products, seconds, warmupSeconds, initialWarmup, rounds, connections, samples },
    versions: versions.map((v) => ({ label: v.label, commit: v.commit, describe: v.describe })),
    method: METHOD,
    scenarios: outcomes,
  };
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'writes.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.join(outDir, 'writes.md'), renderMarkdown(report));
  log(`results in ${path.join(outDir, 'writes.md')}`);
  return outcomes.some((o) => o.error || o.before?.statements.failed || o.after?.statements.failed) ? 1 : 0;
}

if (flag('report-only')) {
  const report = JSON.parse(readFileSync(path.join(outDir, 'writes.json'), 'utf8')) as WriteCostReport;
  writeFileSync(path.join(outDir, 'writes.md'), renderMarkdown(report));
  rmSync(workDir, { recursive: true, force: true });
  console.log(`rewrote ${path.join(outDir, 'writes.md')}`);
} else {
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
}

