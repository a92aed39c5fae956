/**
 * npm run bench [-- options]: seeds the catalogs, runs the service's
 * production build and the baselines (B0, B1, B1-lean, B3) on the same data, measures
 * every scenario and the growth curves, and writes bench/results/.
 *
 *   --quick               smoke run: 1k catalog, two scenarios, ~1 s each, all baselines; writes to a temp dir
 *   --sizes=1k,10k,…      catalogs to seed and measure (default 1k,10k,100k,1m)
 *   --table-size=10k      catalog the scenario table runs on (default 10k)
 *   --scenarios=<regex>   only scenarios whose id matches (the *-rich ones seed and serve the rich catalog of the
 *                         table size beside today's: not part of --quick)
 *   --seconds=<n>         saturation and fixed-rate duration per target (default 4)
 *   --out=<dir>           where results go (default bench/results)
 *   --reseed              reseed kept catalogs; --drop removes them afterwards
 *   --no-build            use the existing dist/ build
 *   --service-env=K=V,…   extra environment for the service process (experiments, e.g. MALLOC_ARENA_MAX=2)
 *                         (the service's node flags are start:prod's; BENCH_SERVICE_NODE_FLAGS="…" replaces them)
 *   --report-only         rewrite latest.md and the charts from the out dir's latest.json (no measuring)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { buildSchema, type GraphQLObjectType } from 'graphql';
import type { LoadResult, RequestSpec } from './load';
import { type Durations, measureScenario, type MeasureEnv, type ScenarioResult } from './measure';
import { dropAbandonedDatabases, dropDatabase, ensurePostgres, serverVersion, statementStatsAvailable, withClient } from './postgres';
import { buildIsCurrent, environmentOf, freePort, freePorts, killAllChildren, LoadGenerator, pinning, ROOT, serviceEnv, serviceNodeFlags, startProdEnv, startTarget, type Target, type TargetName } from './processes';
import { writeReport, type RunReport } from './report';
import { GRAPHQL_CURSOR, GRAPHQL_LIST, graphqlRequest, LIST_FILTERS, restListPath, type Scenario, type ScenarioContext, SCENARIOS } from './scenarios';
import { type BenchFixture, catalogDatabase, FILTER_VALUES, openFixture, prepareCatalog, SIZES, type SizeName } from './seed';
import { writeUploadBodies } from './uploads';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

const quick = flag('quick');
const sizeNames = (option('sizes') ?? (quick ? '1k' : '1k,10k,100k,1m')).split(',').map((s) => s.trim().toLowerCase() as SizeName);
for (const s of sizeNames) if (!SIZES[s]) throw new Error(`unknown size ${s} (use ${Object.keys(SIZES).join(', ')})`);
sizeNames.sort((a, b) => SIZES[a] - SIZES[b]);
const tableSize = (option('table-size') ?? (sizeNames.includes('10k') ? '10k' : sizeNames[0])) as SizeName;
const largest = sizeNames[sizeNames.length - 1];
const seconds = Number(option('seconds') ?? (quick ? 1 : 4));
const scenarioFilter = option('scenarios') ? new RegExp(option('scenarios')!) : null;
const outDir = path.resolve(option('out') ?? (quick ? mkdtempSync(path.join(tmpdir(), 'bench-quick-')) : path.join(__dirname, 'results')));
const workDir = mkdtempSync(path.join(tmpdir(), 'bench-work-'));

const durations: Durations = quick
  ? { warmup: 0.3, saturation: seconds, fixedRate: seconds, statementSamples: 5, connections: 8, fixedRateConnections: 8 }
  : { warmup: 1, saturation: seconds, fixedRate: seconds, statementSamples: 10, connections: 16, fixedRateConnections: 16 };
const curveSeconds = quick ? 0.5 : 2;
const concurrencyLevels = quick ? [1, 8] : [1, 2, 4, 8, 16, 32, 64];
const pageDepths = quick ? [1, 10] : [1, 10, 100, 1000];

const started = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);
const createdDatabases: string[] = [];

async function cleanup() {
  killAllChildren();
  if (quick || flag('drop')) for (const db of createdDatabases) await dropDatabase(db).catch(() => {});
  rmSync(workDir, { recursive: true, force: true });
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    log(`${sig}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** What the running service offers: REST routes from its OpenAPI document, GraphQL fields from the printed schema. */
async function availableEndpoints(service: Target): Promise<Set<string>> {
  const doc = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const out = new Set<string>();
  for (const [p, methods] of Object.entries(doc.paths ?? {})) for (const m of Object.keys(methods)) out.add(`${m.toUpperCase()} ${p}`);
  const schema = buildSchema(readFileSync(path.join(ROOT, 'schema.graphql'), 'utf8'));
  for (const type of [schema.getQueryType(), schema.getMutationType()] as (GraphQLObjectType | null)[]) {
    for (const f of Object.keys(type?.getFields() ?? {})) out.add(`graphql:${f}`);
  }
  return out;
}

/** The service's environment, plus any `--service-env=K=V,K=V` given on the command line. */
const serverEnv = (url: string | null, dataDir: string) =>
  serviceEnv(url, dataDir, environmentOf((option('service-env') ?? '').split(',')));

/** The service and baselines named, each on a free port, all on the catalog at `url`. */
async function startTargets(names: TargetName[], url: string, dataDir: string): Promise<Partial<Record<TargetName, Target>>> {
  const ports = await freePorts(names.length);
  const targets: Partial<Record<TargetName, Target>> = {};
  await Promise.all(names.map(async (name, i) => (targets[name] = await startTarget(name, ports[i], serverEnv(url, dataDir)))));
  return targets;
}

/** p50 of one request sent back to back: enough requests for a stable median, even when one takes a second. */
async function sequentialP50(load: LoadGenerator, url: string, request: RequestSpec): Promise<LoadResult> {
  const probe = await load.run({ url, requests: [request], connections: 1, duration: 0, amount: 1 });
  if (!probe.ok) return probe;
  const amount = Math.max(5, Math.min(2000, Math.round((curveSeconds * 1000) / probe.mean)));
  return load.run({ url, requests: [request], connections: 1, duration: 0, amount });
}

async function filterShares(url: string, storeId: string): Promise<Record<string, number>> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<Record<string, string>>(
      `SELECT count(*) AS total,
        count(*) FILTER (WHERE search_text LIKE '%${FILTER_VALUES.commonTerm}%') AS "search-common",
        count(*) FILTER (WHERE search_text LIKE '%${FILTER_VALUES.rareTerm}%') AS "search-rare",
        count(*) FILTER (WHERE id IN (SELECT pc.product_id FROM product_categories pc JOIN categories k ON k.id = pc.category_id WHERE k.slug = '${FILTER_VALUES.category}' AND k.store_id = $1)) AS category,
        count(*) FILTER (WHERE tags && ARRAY['${FILTER_VALUES.tag}']) AS tags,
        count(*) FILTER (WHERE status = 'active') AS "is-active",
        count(*) FILTER (WHERE low_stock) AS "low-stock",
        count(*) FILTER (WHERE search_text LIKE '%${FILTER_VALUES.commonTerm}%' AND status = 'active' AND tags && ARRAY['${FILTER_VALUES.tag}']) AS combined
       FROM products WHERE store_id = $1`,
      [storeId],
    );
    return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
  });
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  await ensurePostgres(log);
  await dropAbandonedDatabases('bench_quick');
  if (flag('no-build')) log('using the existing build (--no-build)');
  else if (buildIsCurrent(ROOT)) log('dist/ is newer than every source file: build skipped');
  else {
    log('building the service (npm run build)');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const report: RunReport = {
    startedAt: new Date(started).toISOString(),
    mode: quick ? 'quick' : 'full',
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      memoryGb: totalmem() / 2 ** 30,
      node: process.version,
      postgres: await serverVersion(),
      pinning,
      serviceNodeFlags: serviceNodeFlags().join(' '),
      serviceStartEnv: Object.entries(startProdEnv())
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    },
    durations,
    tableSize,
    statementSource: 'service and baseline statement counters',
    catalogs: [],
    scenarios: [],
    sizeCurve: [],
    pageCurve: [],
    concurrency: [],
    startup: null,
    uploads: {},
    seconds: 0,
  };

  const selected = SCENARIOS.filter((s) => (quick ? s.quick : true) && (!scenarioFilter || scenarioFilter.test(s.id)));
  const uploads = selected.some((s) => s.id.startsWith('upload-'))
    ? await writeUploadBodies(workDir, { '100k': 100 * 1024, '1m': 1024 * 1024, '5m': 5 * 1024 * 1024 })
    : {};
  report.uploads = Object.fromEntries(Object.entries(uploads).map(([k, u]) => [k, { imageBytes: u.imageBytes, width: u.width, height: u.height }]));
  const load = new LoadGenerator();
  const runId = Date.now().toString(36);

  for (const size of sizeNames) {
    const dbName = quick ? `bench_quick_${process.pid}_${size}` : catalogDatabase(size, 'standard');
    log(`catalog ${size}: preparing ${dbName}`);
    createdDatabases.push(dbName);
    const catalog = await prepareCatalog(SIZES[size], { dbName, reuse: !quick && !flag('reseed'), log });
    const fixture: BenchFixture = await openFixture(catalog.url);
    report.catalogs.push({ size, products: SIZES[size], dbName, seedSeconds: catalog.seedSeconds, shares: size === tableSize ? await filterShares(catalog.url, fixture.storeId) : undefined });
    const pgStatements = await statementStatsAvailable(catalog.url);
    if (pgStatements) report.statementSource = 'pg_stat_statements';

    const names: TargetName[] = size === tableSize ? ['service', 'B0', 'B1', 'B1-lean', 'B3'] : ['service'];
    const dataDir = mkdtempSync(path.join(workDir, 'data-'));
    const targets = await startTargets(names, catalog.url, dataDir);
    const service = targets.service!;
    if (size === tableSize) report.serviceStartRssMb = service.rssKb().current / 1024;
    const endpoints = await availableEndpoints(service);
    const ctx: ScenarioContext = { f: fixture, uploads, runId };
    const auth = { authorization: `Bearer ${fixture.token}` };

    if (endpoints.has('GET /api/v1/merchant/stores/{storeId}/products')) {
      log(`catalog ${size}: page-1 latency per filter`);
      const filters = quick ? LIST_FILTERS.slice(0, 2) : LIST_FILTERS;
      // A fresh process: let the JIT, the pool and the statement caches warm up on every filter first.
      const all = filters.map((f) => ({ method: 'GET', path: restListPath(ctx, f.query), headers: auth }));
      await load.run({ url: service.url, requests: all, connections: 2, duration: quick ? 0.5 : 3 });
      for (const filter of filters) {
        const r = await sequentialP50(load, service.url, { method: 'GET', path: restListPath(ctx, filter.query), headers: auth });
        report.sizeCurve.push({ size, products: SIZES[size], filter: filter.id, title: filter.title, p50: r.p50, ok: r.ok > 0 && !r.non2xx });
      }
    }

    if (size === tableSize) {
      const env: MeasureEnv = {
        load,
        targets,
        ctx,
        durations,
        dbName,
        pgStatements,
        log,
        freshService: async () => startTarget('service', await freePort(), serverEnv(catalog.url, dataDir)),
        rssWarmup: uploads['100k'] && { method: 'POST', path: `/api/v1/merchant/stores/${fixture.storeId}/products/images`, headers: { ...auth, 'content-type': uploads['100k'].contentType }, bodyFile: uploads['100k'].file },
      };
      const rich = selected.some((s) => s.catalog === 'rich') ? await openRichCatalog(size, report) : null;
      const envFor = (s: Scenario): MeasureEnv => (s.catalog === 'rich' && rich ? { ...env, ...rich.env } : env);
      // Reads first, on the untouched catalog; writes after, then undone.
      const ordered = [...selected.filter((s) => !s.mutates), ...selected.filter((s) => s.mutates)];
      for (const s of ordered) {
        const missing = s.needs.filter((n) => !endpoints.has(n));
        if (missing.length) {
          log(`  skip ${s.id}: the service has no ${missing.join(', ')} yet`);
          report.scenarios.push({ id: s.id, title: s.title, status: 'skipped', reason: `not in the service yet: ${missing.join(', ')}`, mismatches: [], results: [] });
          continue;
        }
        log(`  scenario ${s.id}`);
        const result: ScenarioResult = await measureScenario(envFor(s), s).catch((e: Error) => ({
          id: s.id,
          title: s.title,
          status: 'failed' as const,
          reason: e.message,
          mismatches: [],
          results: [],
        }));
        if (result.status === 'failed') log(`    FAILED: ${result.reason}`);
        for (const m of result.mismatches) log(`    ${m.target} response differs: ${m.diff}`);
        report.scenarios.push(result);
      }
      await rich?.stop();
      await fixture.restore();

      log('throughput vs concurrency (REST list page 1, no filter)');
      const listReq: RequestSpec = { method: 'GET', path: restListPath(ctx, ''), headers: auth };
      for (const name of ['service', 'B1', 'B0'] as TargetName[]) {
        if (name === 'B0') await fetch(`${targets.B0!.url}/__body`, { method: 'PUT', body: await (await fetch(service.url + listReq.path, { headers: auth })).text() });
        for (const connections of concurrencyLevels) {
          const r = await load.run({ url: targets[name]!.url, requests: [listReq], connections, duration: curveSeconds });
          report.concurrency.push({ target: name, connections, rps: r.rps, p50: r.p50 });
        }
      }
    }

    if (size === largest && endpoints.has('graphql:productsConnection')) {
      log(`catalog ${size}: latency vs page depth`);
      report.pageCurve.push(...(await pageCurve(load, service, ctx, SIZES[size])));
    }
    for (const t of Object.values(targets)) await t!.stop();
  }

  if (!quick) {
    log('startup to ready on the embedded database (first and second start)');
    const dataDir = mkdtempSync(path.join(workDir, 'embedded-'));
    const first = await startTarget('service', await freePort(), serverEnv(null, dataDir));
    await first.stop();
    const second = await startTarget('service', await freePort(), serverEnv(null, dataDir));
    await second.stop();
    report.startup = { firstMs: first.readyMs, secondMs: second.readyMs };
  }
  load.stop();
  report.seconds = (Date.now() - started) / 1000;
  const failures = writeReport(outDir, report);
  log(`results in ${outDir}${failures ? ` (${failures} scenario(s) failed or differ from their baselines)` : ''}`);
  return failures;
}

/**
 * The rich catalog of the table's size (issue 27) with a service and the REST baselines of its own, for the *-rich
 * scenarios: same build, same settings, measured in the same run as today's catalog.
 */
async function openRichCatalog(size: SizeName, report: RunReport): Promise<{ stop: () => Promise<void>; env: Pick<MeasureEnv, 'targets' | 'ctx' | 'dbName' | 'freshService'> }> {
  const dbName = quick ? `bench_quick_${process.pid}_${size}_rich` : catalogDatabase(size, 'rich');
  log(`catalog ${size} rich: preparing ${dbName}`);
  createdDatabases.push(dbName);
  const catalog = await prepareCatalog(SIZES[size], { dbName, reuse: !quick && !flag('reseed'), log, kind: 'rich' });
  const fixture = await openFixture(catalog.url);
  report.catalogs.push({ size, kind: 'rich', products: SIZES[size], dbName, seedSeconds: catalog.seedSeconds });
  const dataDir = mkdtempSync(path.join(workDir, 'data-rich-'));
  const targets = await startTargets(['service', 'B0', 'B1', 'B1-lean'], catalog.url, dataDir);
  return {
    stop: async () => {
      await Promise.all(Object.values(targets).map((t) => t.stop()));
    },
    env: {
      targets,
      ctx: { f: fixture, uploads: {}, runId: Date.now().toString(36) },
      dbName,
      freshService: async () => startTarget('service', await freePort(), serverEnv(catalog.url, dataDir)),
    },
  };
}

/** Page-based (REST and GraphQL) against cursor-based (GraphQL connection) at growing depth. */
async function pageCurve(load: LoadGenerator, service: Target, ctx: ScenarioContext, products: number) {
  const auth = { authorization: `Bearer ${ctx.f.token}` };
  const points: RunReport['pageCurve'] = [];
  // Real cursors: walk the connection 100 rows at a time and keep the cursor before each measured page.
  const wanted = new Map(pageDepths.filter((p) => p > 1 && (p - 1) * 20 < products).map((p) => [(p - 1) * 20, p]));
  const cursors = new Map<number, string>([[1, '']]);
  let after: string | null = null;
  let seen = 0;
  const deepest = Math.max(...wanted.keys(), 0);
  while (seen < deepest) {
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query($s: ID!, $a: String) { productsConnection(storeId: $s, first: 100, after: $a) { edges { cursor } pageInfo { hasNextPage } } }', variables: { s: ctx.f.storeId, a: after } }),
    });
    const body = (await res.json()) as { data?: { productsConnection: { edges: { cursor: string }[]; pageInfo: { hasNextPage: boolean } } } };
    const edges = body.data?.productsConnection.edges ?? [];
    if (!edges.length) break;
    edges.forEach((e, i) => {
      const page = wanted.get(seen + i + 1);
      if (page) cursors.set(page, e.cursor);
    });
    seen += edges.length;
    after = edges[edges.length - 1].cursor;
    if (!body.data?.productsConnection.pageInfo.hasNextPage) break;
  }
  for (const page of pageDepths.filter((p) => (p - 1) * 20 < products)) {
    const rest = await sequentialP50(load, service.url, { method: 'GET', path: restListPath(ctx, `page=${page}`), headers: auth });
    const gqlPage = await sequentialP50(load, service.url, graphqlRequest(ctx, GRAPHQL_LIST, { storeId: ctx.f.storeId, page, perPage: 20 }));
    points.push({ page, kind: 'REST page', p50: rest.p50 }, { page, kind: 'GraphQL page', p50: gqlPage.p50 });
    if (cursors.has(page)) {
      const cursor = await sequentialP50(load, service.url, graphqlRequest(ctx, GRAPHQL_CURSOR, { storeId: ctx.f.storeId, first: 20, after: cursors.get(page) || null }));
      points.push({ page, kind: 'GraphQL cursor', p50: cursor.p50 });
    }
  }
  return points;
}

if (flag('report-only')) {
  const failures = writeReport(outDir, JSON.parse(readFileSync(path.join(outDir, 'latest.json'), 'utf8')) as RunReport);
  rmSync(workDir, { recursive: true, force: true });
  console.log(`rewrote ${outDir}/latest.md${failures ? ` (${failures} scenario(s) failed or differ)` : ''}`);
} else {
  main()
    .then(async (failures) => {
      await cleanup();
      process.exit(quick && failures ? 1 : 0);
    })
    .catch(async (e) => {
      console.error(e);
      await cleanup();
      process.exit(1);
    });
}
