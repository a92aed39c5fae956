/**
 * Memory under the mixed load, into bench/results/memory.md: the service's production build (one process) on the
 * 10,000-product bench catalog (PostgreSQL), with REST list, REST read, GraphQL list and GraphQL read (dashboard
 * token) sent together at c=20 for minutes. Every few seconds the process's RSS (/proc/<pid>/status VmRSS) and V8
 * heap, and the sizes of its caches, are read from /proc and /metrics; the report gives RSS at start, after the
 * warm-up and at the end, the maximum, and the slope after the warm-up (MB per minute, least squares).
 *
 * Usage: npm run bench:memory [-- --minutes 10] [-- --warmup 60] [-- --service-env K=V,…] [-- --heap-snapshots]
 *        [-- --out <file>] [-- --reseed]
 *   --minutes         the soak's length, warm-up included (default 10)
 *   --warmup          seconds counted as warm-up (default a tenth of the run, at least 30)
 *   --service-env     extra environment for the service, over start:prod's (e.g. MALLOC_MMAP_THRESHOLD_=131072)
 *   --no-node-flags   without the V8 flags of package.json's start:prod (which the service otherwise gets on its command
 *                     line, as in production)
 *   --node-flags      these flags instead of start:prod's (e.g. "--max-semi-space-size=2 --optimize-for-size")
 *   --heap-snapshots  writes a heap snapshot after the warm-up and one at the end (bench/results/heap/, git-ignored)
 *                     and compares them by constructor (bench/heapDiff.ts); a snapshot costs seconds and RSS, so
 *                     such a run's figures are not the ones to record
 *   --out             where the report goes (default bench/results/memory.md; a run shorter than 10 minutes
 *                     writes bench/results/memory-<n>min.md unless --out says otherwise)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { compareSnapshots } from './heapDiff';
import type { LoadResult, RequestSpec } from './load';
import { ensurePostgres, serverVersion } from './postgres';
import { buildIsCurrent, environmentOf, freePort, killAllChildren, LoadGenerator, pinning, ROOT, serviceEnv, serviceNodeFlags, startProdEnv, startTarget, type Target } from './processes';
import { GRAPHQL_LIST, GRAPHQL_READ, graphqlRequest, restListPath, type ScenarioContext } from './scenarios';
import { catalogDatabase, openFixture, prepareCatalog } from './seed';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};
const MINUTES = Number(option('minutes') ?? 10);
const WARMUP_SECONDS = Number(option('warmup') ?? Math.max(30, (MINUTES * 60) / 10));
const SAMPLE_EVERY_MS = 5000;
const CONNECTIONS = 20;
const SNAPSHOTS = argv.includes('--heap-snapshots');
const NODE_FLAGS = option('node-flags') ?? (argv.includes('--no-node-flags') ? '' : serviceNodeFlags().join(' '));
const SERVICE_ENV = environmentOf((option('service-env') ?? '').split(','));
const OUT = path.resolve(option('out') ?? path.join(__dirname, 'results', MINUTES >= 10 ? 'memory.md' : `memory-${MINUTES}min.md`));
const HEAP_DIR = path.join(__dirname, 'results', 'heap');
const started = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);

interface Sample {
  /** Seconds since the load started. */
  t: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  /** Entries of each cache (cache_entries), when the service exposes them. */
  caches: Record<string, number>;
  load1: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** The metrics a sample needs, read from the Prometheus text of /metrics. */
async function scrape(service: Target): Promise<Omit<Sample, 't' | 'rssMb' | 'load1'>> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const caches: Record<string, number> = {};
  for (const m of text.matchAll(/^cache_entries\{cache="([^"]+)"\} (\S+)$/gm)) caches[m[1]] = Number(m[2]);
  return {
    heapUsedMb: mb(value('nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(value('nodejs_heap_size_total_bytes')),
    externalMb: mb(value('nodejs_external_memory_bytes')),
    caches,
  };
}

/** Least-squares slope of y over t (per second), and how much of the variance the line explains. */
function slope(points: { t: number; y: number }[]): { perSecond: number; r2: number } {
  const n = points.length;
  if (n < 2) return { perSecond: NaN, r2: NaN };
  const mt = points.reduce((s, p) => s + p.t, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const p of points) {
    sxy += (p.t - mt) * (p.y - my);
    sxx += (p.t - mt) ** 2;
    syy += (p.y - my) ** 2;
  }
  return { perSecond: sxy / sxx, r2: syy ? (sxy * sxy) / (sxx * syy) : 1 };
}

/** The four requests of the mix, sent in turn across the connections: lists over the first pages, reads over 200 products. */
function mixRequests(c: ScenarioContext): { requests: RequestSpec[]; lists: Record<string, string[]> } {
  const headers = { authorization: `Bearer ${c.f.token}` };
  const gqlList = graphqlRequest(c, GRAPHQL_LIST, { storeId: c.f.storeId, page: 1, perPage: 20 });
  const gqlRead = graphqlRequest(c, GRAPHQL_READ, { storeId: c.f.storeId, id: '__ID__' });
  return {
    requests: [
      { method: 'GET', path: `${restListPath(c, '')}?page={{pick:page}}`, headers },
      { method: 'GET', path: `/api/v1/merchant/stores/${c.f.storeId}/products/{{pick:read}}`, headers },
      { ...gqlList, body: gqlList.body!.replace('"page":1', '"page":{{pick:page}}') },
      { ...gqlRead, body: gqlRead.body!.replace('__ID__', '{{pick:read}}') },
    ],
    lists: { page: ['1', '2', '3', '4', '5'], read: c.f.updateIds },
  };
}

/** Asks the service for a heap snapshot (--heapsnapshot-signal) and waits for the file; returns its path. */
async function heapSnapshot(service: Target, label: string): Promise<string> {
  const before = new Set(readdirSync(ROOT).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(service.pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const fresh = readdirSync(ROOT).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (fresh) {
      // Written in full once the next snapshot-free second passes with the same size.
      const file = path.join(ROOT, fresh);
      let size = -1;
      for (;;) {
        const now = statSync(file).size;
        if (now === size && now > 0) break;
        size = now;
        await new Promise((r) => setTimeout(r, 1000));
      }
      mkdirSync(HEAP_DIR, { recursive: true });
      const target = path.join(HEAP_DIR, `${label}.heapsnapshot`);
      renameSync(file, target);
      return target;
    }
  }
  throw new Error('no heap snapshot appeared');
}

/** The process's resident memory by kind of mapping (/proc/<pid>/smaps), in MB: where RSS that is not the V8 heap is. */
function residentByMapping(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let kind = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1];
      kind = !name ? 'anonymous (V8 heap and code, wasm, malloc arenas, buffers)' : name === '[heap]' ? 'malloc heap ([heap])' : name.endsWith('/node') ? 'node binary' : /\.so(\.|$)|\.node$/.test(name) ? 'shared libraries and native addons' : name.startsWith('[') ? `${name}` : 'other files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] = (out[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return out;
}

const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');

async function main() {
  await ensurePostgres(log);
  const dbName = catalogDatabase('10k', 'standard');
  const catalog = await prepareCatalog(10_000, { dbName, reuse: !argv.includes('--reseed'), log });
  log(`catalog: ${dbName} (${catalog.seedSeconds ? `seeded in ${catalog.seedSeconds.toFixed(0)} s` : 'kept from an earlier run'})`);
  const fixture = await openFixture(catalog.url);
  if (!buildIsCurrent(ROOT)) {
    log('building the service (npm run build)');
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-memory-'));
  const env = serviceEnv(catalog.url, dataDir, SNAPSHOTS ? { ...SERVICE_ENV, NODE_OPTIONS: `${SERVICE_ENV.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2`.trim() } : SERVICE_ENV);
  const service = await startTarget('service', await freePort(), env, { nodeFlags: NODE_FLAGS.split(' ').filter(Boolean) });
  const loader = new LoadGenerator();
  const samples: Sample[] = [];
  const loadStart = [...loadavg()];
  try {
    const rssMb = () => service.rssKb().current / 1024;
    const startRss = rssMb();
    const startHeap = await scrape(service);
    log(`service up (pid ${service.pid}): RSS ${fmt(startRss)} MB, heap used ${fmt(startHeap.heapUsedMb)} MB`);
    const { requests, lists } = mixRequests({ f: fixture, uploads: {}, runId: Date.now().toString(36) });
    const seconds = MINUTES * 60;
    const t0 = Date.now();
    const run = loader.run({ url: service.url, requests, lists, connections: CONNECTIONS, duration: seconds });
    let done = false;
    let result: LoadResult | undefined;
    let failure: unknown;
    run.then(
      (r) => ((result = r), (done = true)),
      (e) => ((failure = e), (done = true)),
    );
    const snapshots: string[] = [];
    let snapshotTaken = false;
    while (!done) {
      await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
      if (done) break;
      const t = (Date.now() - t0) / 1000;
      const s: Sample = { t, rssMb: rssMb(), ...(await scrape(service)), load1: loadavg()[0] };
      samples.push(s);
      const caches = Object.entries(s.caches).map(([k, v]) => `${k}=${v}`).join(' ');
      log(`${fmt(t, 0)} s: RSS ${fmt(s.rssMb)} MB, heap ${fmt(s.heapUsedMb)}/${fmt(s.heapTotalMb)} MB, external ${fmt(s.externalMb)} MB, load ${fmt(s.load1, 2)}${caches ? `, ${caches}` : ''}`);
      if (SNAPSHOTS && !snapshotTaken && t >= WARMUP_SECONDS) {
        snapshotTaken = true;
        snapshots.push(await heapSnapshot(service, 'after-warmup'));
        log(`heap snapshot: ${snapshots[0]}`);
      }
    }
    if (failure) throw failure;
    const endRss = rssMb();
    const end = await scrape(service);
    const byMapping = residentByMapping(service.pid);
    if (SNAPSHOTS) {
      snapshots.push(await heapSnapshot(service, 'end'));
      log(`heap snapshot: ${snapshots[1]}`);
      const diff = compareSnapshots(snapshots[0], snapshots[1], 25);
      writeFileSync(path.join(HEAP_DIR, 'diff.md'), diff);
      console.log(diff);
    }
    const r = result!;
    const afterWarmup = samples.filter((s) => s.t >= WARMUP_SECONDS);
    const warm = afterWarmup[0] ?? samples[samples.length - 1];
    const rssSlope = slope(afterWarmup.map((s) => ({ t: s.t, y: s.rssMb })));
    const heapSlope = slope(afterWarmup.map((s) => ({ t: s.t, y: s.heapUsedMb })));
    const maxRss = Math.max(startRss, endRss, ...samples.map((s) => s.rssMb));
    const loadEnd = loadavg();
    const meanLoad = samples.reduce((a, s) => a + s.load1, 0) / Math.max(1, samples.length);
    const target = endRss <= 180;
    const lines = [
      `# Memory under the mixed load`,
      '',
      `Written by \`npm run bench:memory -- ${argv.includes('--minutes') || argv.some((a) => a.startsWith('--minutes=')) ? argv.join(' ') : [`--minutes ${MINUTES}`, ...argv].join(' ')}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
      '',
      `The service's production build, one process, on the 10,000-product bench catalog (PostgreSQL ${await serverVersion()}, DATABASE_POOL_SIZE=10),`,
      `REST list, REST read, GraphQL list and GraphQL read (dashboard token; lists over pages 1-5, reads over 200 products) sent in turn`,
      `over ${CONNECTIONS} connections for ${MINUTES} minutes; RSS (VmRSS) and the V8 heap (/metrics) read every ${SAMPLE_EVERY_MS / 1000} s.`,
      `Warm-up: the first ${WARMUP_SECONDS} s. Node flags: ${NODE_FLAGS ? `\`${NODE_FLAGS}\`` : 'none'}${option('node-flags') === undefined && process.env.BENCH_SERVICE_NODE_FLAGS === undefined && NODE_FLAGS ? " (package.json's start:prod)" : ''}. Environment of start:prod: ${Object.entries(startProdEnv()).map(([k, v]) => `\`${k}=${v}\``).join(', ')}; besides it and the bench's: ${Object.keys(SERVICE_ENV).length ? Object.entries(SERVICE_ENV).map(([k, v]) => `\`${k}=${v}\``).join(', ') : 'none'}.`,
      '',
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(mb(totalmem()) / 1024)} GB; ${pinning}; Node ${process.version}.`,
      `Load average (1 min) at the start ${fmt(loadStart[0], 2)}, during the run ${fmt(meanLoad, 2)} on average, at the end ${fmt(loadEnd[0], 2)} (the service, PostgreSQL and the load generator among it${meanLoad > cpus().length ? '; more runnable work than cores' : ''}).`,
      '',
      '| figure | value |',
      '|---|--:|',
      `| RSS at start (idle, after /readyz) | ${fmt(startRss)} MB |`,
      `| RSS after the warm-up (${fmt(warm.t, 0)} s) | ${fmt(warm.rssMb)} MB |`,
      `| RSS at the end of the mix | **${fmt(endRss)} MB** (target ≤ 180 MB: ${target ? 'met' : 'missed'}) |`,
      `| RSS maximum | ${fmt(maxRss)} MB |`,
      `| RSS slope after the warm-up | ${fmt(rssSlope.perSecond * 60, 2)} MB/min (r² ${fmt(rssSlope.r2, 2)}) |`,
      `| V8 heap used: start, after warm-up, end | ${fmt(startHeap.heapUsedMb)}, ${fmt(warm.heapUsedMb)}, ${fmt(end.heapUsedMb)} MB |`,
      `| V8 heap used slope after the warm-up | ${fmt(heapSlope.perSecond * 60, 2)} MB/min (r² ${fmt(heapSlope.r2, 2)}) |`,
      `| V8 heap total at the end; external memory | ${fmt(end.heapTotalMb)} MB; ${fmt(end.externalMb)} MB |`,
      `| requests answered (2xx), errors, non-2xx | ${r.ok.toLocaleString('en-US')}, ${r.errors}, ${r.non2xx}${r.firstBadStatus ? ` (first ${r.firstBadStatus})` : ''} |`,
      `| throughput; latency p50 / p99 | ${fmt(r.rps, 0)} req/s; ${fmt(r.p50, 2)} / ${fmt(r.p99, 2)} ms |`,
      '',
      '## Where the resident memory is at the end',
      '',
      '| mappings (/proc/<pid>/smaps) | RSS MB |',
      '|---|--:|',
      ...Object.entries(byMapping)
        .sort((x, y) => y[1] - x[1])
        .filter(([, v]) => v >= 0.5)
        .map(([k, v]) => `| ${k} | ${fmt(v)} |`),
      '',
      `Cache entries at the end (\`cache_entries\` in /metrics): ${Object.keys(end.caches).length ? Object.entries(end.caches).map(([k, v]) => `${k} ${v}`).join(', ') : 'not exposed by this build'}.`,
      '',
      '## Samples (every minute)',
      '',
      '| s | RSS MB | heap used MB | heap total MB | external MB | load (1 min) |',
      '|--:|--:|--:|--:|--:|--:|',
      ...samples.filter((s, i) => i % Math.round(60_000 / SAMPLE_EVERY_MS) === 0 || i === samples.length - 1).map((s) => `| ${fmt(s.t, 0)} | ${fmt(s.rssMb)} | ${fmt(s.heapUsedMb)} | ${fmt(s.heapTotalMb)} | ${fmt(s.externalMb)} | ${fmt(s.load1, 2)} |`),
      '',
    ];
    if (!SNAPSHOTS) {
      mkdirSync(path.dirname(OUT), { recursive: true });
      // The reading written by hand under the figures stays until someone rewrites it for the new figures.
      const reading = existsSync(OUT) ? readFileSync(OUT, 'utf8').split(/^(?=## Reading it$)/m)[1] : undefined;
      writeFileSync(OUT, lines.join('\n') + (reading ? `\n${reading}` : ''));
      log(`wrote ${path.relative(ROOT, OUT)}`);
    }
    console.log(lines.slice(12).join('\n'));
  } finally {
    loader.stop();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
    // A snapshot the service was still writing when the run ended.
    for (const f of readdirSync(ROOT)) if (/^Heap\..*\.heapsnapshot$/.test(f) && existsSync(path.join(ROOT, f))) rmSync(path.join(ROOT, f));
  }
}

main()
  .then(() => process.exit(0))
  .catch((e) => {
    console.error(e);
    killAllChildren();
    process.exit(1);
  });
