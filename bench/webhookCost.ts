/**
 * npx tsx bench/webhookCost.ts [options]: what webhook delivery costs the
 * API's writes. One service process (the production build, its worker inside
 * as by default) on a seeded PostgreSQL catalog; a receiver process answers
 * every delivery with 204 at once. The same write load (PUT a product's
 * price: one product.updated event per request) runs with the store's
 * webhook endpoints disabled ("none") and with them enabled ("N endpoints",
 * each subscribed to every event, so every write becomes N signed
 * deliveries), rounds alternating which goes first, all in one run.
 *
 * Each measured run starts with an empty queue and ends by waiting until
 * every event of the run is dispatched and every message delivered: the
 * report shows the saturation req/s and latency of the writes, how many
 * deliveries arrived during the run, the backlog the run left, and how long
 * it took to drain. A second table runs both at a fixed rate (half the
 * saturation rate of "none"), the load a service normally sees, where
 * latency is what a client notices.
 *
 *   --products=<n>      catalog size (default 2000)
 *   --endpoints=<n>     enabled endpoints in the measured configuration (default 3)
 *   --seconds=<n>       seconds per measured run (default 5)
 *   --rounds=<n>        rounds (default 3)
 *   --connections=<n>   load connections (default 16)
 *   --out=<dir>         where webhooks.md and webhooks.json go (default bench/results)
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import type { LoadResult } from './load';
import { BackendCpuMeter, dropAbandonedDatabases, dropDatabase, ensurePostgres, processCpuMicros, serverVersion, withClient } from './postgres';
import { buildIsCurrent, freePort, killAllChildren, LoadGenerator, pinning, ROOT, serviceEnv, spawnNode, startTarget } from './processes';
import { type ScenarioContext, WRITE_REQUESTS } from './scenarios';
import { openFixture, prepareCatalog } from './seed';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const products = Number(option('products') ?? 2000);
const endpointCount = Number(option('endpoints') ?? 3);
const seconds = Number(option('seconds') ?? 5);
const rounds = Number(option('rounds') ?? 3);
const connections = Number(option('connections') ?? 16);
const outDir = path.resolve(option('out') ?? path.join(__dirname, 'results'));

const started = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);
const DB_PREFIX = 'bench_webhooks';
const dbName = `${DB_PREFIX}_${process.pid}`;
const workDir = mkdtempSync(path.join(tmpdir(), 'bench-webhooks-'));

type Config = 'none' | 'endpoints';

interface Run {
  round: number;
  config: Config;
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  serviceCpuUsPerWrite: number;
  /** CPU of the database's PostgreSQL backends during the load, per write (the worker's statements included). */
  pgCpuUsPerWrite: number;
  /** Deliveries the receiver got while the load ran. */
  deliveredDuringRun: number;
  /** Messages still to deliver (and events still to dispatch, times the endpoints) when the load stopped. */
  backlogAtEnd: number;
  /** From the end of the load until every event was dispatched and every message delivered. */
  drainMs: number;
  /** Deliveries the run caused in all (during the load and the drain). */
  delivered: number;
}

interface FixedRateRun {
  config: Config;
  rate: number;
  rps: number;
  p50: number;
  p99: number;
  drainMs: number;
}

interface Report {
  startedAt: string;
  machine: { cpu: string; cores: number; memoryGb: number; node: string; postgres: string; pinning: string };
  settings: { products: number; endpoints: number; seconds: number; rounds: number; connections: number };
  runs: Run[];
  fixedRate: FixedRateRun[];
  /** Median req/s with endpoints over median req/s without. */
  ratio: number;
  duplicates: number;
  seconds: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

async function startReceiver(): Promise<{ url: string; stats: () => Promise<{ received: number; unique: number }> }> {
  const child = spawnNode(['--import', 'tsx', path.join(__dirname, 'receiver.ts')], { cpu: 1, ipc: true, env: {} });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { type?: string; port?: number }) => (m?.type === 'listening' ? resolve(m.port!) : reject(new Error('receiver failed'))));
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return { url, stats: async () => (await fetch(`${url}/stats`)).json() as Promise<{ received: number; unique: number }> };
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  await ensurePostgres(log);
  await dropAbandonedDatabases(DB_PREFIX);
  if (buildIsCurrent(ROOT)) log('dist/ is newer than every source file: build skipped');
  else {
    log('building the service (npm run build)');
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
  }
  log(`seeding ${products} products into ${dbName}`);
  const catalog = await prepareCatalog(products, { dbName, reuse: false, log: () => {} });
  const fixture = await openFixture(catalog.url);
  const ids = await withClient(catalog.url, async (c) => (await c.query<{ id: string }>(`SELECT id::text AS id FROM products WHERE store_id = $1`, [fixture.storeId])).rows.map((r) => r.id));

  const receiver = await startReceiver();
  log(`receiver at ${receiver.url}`);
  // Endpoints are rows like those the API creates; switching them with SQL between runs records no event of its own.
  await withClient(catalog.url, async (c) => {
    for (let i = 0; i < endpointCount; i++) {
      await c.query(
        `INSERT INTO webhook_endpoints (id, store_id, mode, url, description, event_types, status, secret, updated_at)
         VALUES ($1, $2, 'live', $3, 'bench', ARRAY['*'], 'disabled', $4, now())`,
        [randomUUID(), fixture.storeId, `${receiver.url}/hooks/${i}`, `whsec_${randomBytes(32).toString('base64')}`],
      );
    }
  });
  const setConfig = (config: Config) =>
    withClient(catalog.url, (c) => c.query(`UPDATE webhook_endpoints SET status = $1 WHERE store_id = $2`, [config === 'endpoints' ? 'enabled' : 'disabled', fixture.storeId]));
  const backlog = () =>
    withClient(catalog.url, async (c) => {
      const { rows } = await c.query<{ undispatched: string; pending: string }>(
        `SELECT (SELECT count(*) FROM events WHERE dispatched_at IS NULL) AS undispatched, (SELECT count(*) FROM webhook_messages WHERE status = 'pending') AS pending`,
      );
      return { undispatched: Number(rows[0].undispatched), pending: Number(rows[0].pending) };
    });
  const drain = async (): Promise<number> => {
    const t0 = Date.now();
    for (;;) {
      const b = await backlog();
      if (b.undispatched === 0 && b.pending === 0) return Date.now() - t0;
      if (Date.now() - t0 > 300_000) throw new Error(`the queue did not drain in 300 s: ${JSON.stringify(b)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const service = await startTarget('service', await freePort(), serviceEnv(catalog.url, path.join(workDir, 'data'), { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }));
  log(`service ready in ${service.readyMs} ms (worker inside, as by default)`);
  const load = new LoadGenerator();
  let runNo = 0;
  const ctx = (): ScenarioContext => ({ f: fixture, uploads: {}, runId: (Date.now() + runNo++).toString(36) });
  const lists = { update: ids };
  const write = (c: ScenarioContext, duration: number, rate?: number) =>
    load.run({ url: service.url, requests: [WRITE_REQUESTS.update(c)], lists, connections, duration, ...(rate ? { rate } : {}) });

  log('warm-up: one unmeasured run with endpoints and one without');
  for (const config of ['endpoints', 'none'] as Config[]) {
    await setConfig(config);
    await write(ctx(), 2);
    await drain();
  }

  const runs: Run[] = [];
  for (let round = 1; round <= rounds; round++) {
    const order: Config[] = round % 2 ? ['none', 'endpoints'] : ['endpoints', 'none'];
    for (const config of order) {
      await setConfig(config);
      await write(ctx(), 0.5);
      await drain();
      const before = await receiver.stats();
      const cpuBefore = processCpuMicros(service.pid) ?? 0;
      const pgMeter = new BackendCpuMeter(dbName);
      await pgMeter.begin();
      const r: LoadResult = await write(ctx(), seconds);
      const cpu = (processCpuMicros(service.pid) ?? 0) - cpuBefore;
      const pgCpu = await pgMeter.end();
      const atEnd = await receiver.stats();
      const b = await backlog();
      const drainMs = await drain();
      const after = await receiver.stats();
      const run: Run = {
        round,
        config,
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        ok: r.ok,
        non2xx: r.non2xx,
        errors: r.errors,
        serviceCpuUsPerWrite: cpu / Math.max(1, r.ok + r.non2xx),
        pgCpuUsPerWrite: pgCpu / Math.max(1, r.ok + r.non2xx),
        deliveredDuringRun: atEnd.received - before.received,
        backlogAtEnd: b.pending + b.undispatched * (config === 'endpoints' ? endpointCount : 0),
        drainMs,
        delivered: after.received - before.received,
      };
      runs.push(run);
      log(
        `round ${round} ${config === 'none' ? 'none' : `${endpointCount} endpoints`}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, ` +
          `CPU/write service ${run.serviceCpuUsPerWrite.toFixed(0)} µs, PostgreSQL ${run.pgCpuUsPerWrite.toFixed(0)} µs, ` +
          `${run.deliveredDuringRun} delivered during the run, backlog ${run.backlogAtEnd}, drained in ${drainMs} ms`,
      );
    }
  }
  const noneRps = median(runs.filter((r) => r.config === 'none').map((r) => r.rps));
  const withRps = median(runs.filter((r) => r.config === 'endpoints').map((r) => r.rps));

  const rate = Math.max(10, Math.round(noneRps / 2));
  const fixedRate: FixedRateRun[] = [];
  for (const config of ['none', 'endpoints'] as Config[]) {
    await setConfig(config);
    await drain();
    const r = await write(ctx(), seconds, rate);
    const drainMs = await drain();
    fixedRate.push({ config, rate, rps: r.rps, p50: r.p50, p99: r.p99, drainMs });
    log(`fixed rate ${rate}/s, ${config}: p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, drained in ${drainMs} ms`);
  }
  const stats = await receiver.stats();

  const report: Report = {
    startedAt: new Date(started).toISOString(),
    machine: { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: totalmem() / 2 ** 30, node: process.version, postgres: await serverVersion(), pinning },
    settings: { products, endpoints: endpointCount, seconds, rounds, connections },
    runs,
    fixedRate,
    ratio: withRps / noneRps,
    duplicates: stats.received - stats.unique,
    seconds: (Date.now() - started) / 1000,
  };
  writeFileSync(path.join(outDir, 'webhooks.json'), JSON.stringify(report, null, 2) + '\n');
  writeFileSync(path.join(outDir, 'webhooks.md'), render(report));
  log(`with ${endpointCount} endpoints: ${(report.ratio * 100).toFixed(1)} % of the write throughput without (${withRps.toFixed(0)} vs ${noneRps.toFixed(0)} req/s)`);
  log(`wrote ${path.relative(ROOT, path.join(outDir, 'webhooks.md'))}`);
  load.stop();
  await service.stop();
}

function render(r: Report): string {
  const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  const name = (c: Config) => (c === 'none' ? 'none' : `${r.settings.endpoints} endpoints`);
  const lines = [
    '# Webhook delivery and write throughput',
    '',
    `Generated by \`npx tsx bench/webhookCost.ts\` on ${r.startedAt.slice(0, 10)} (${f(r.seconds)} s). Machine: ${r.machine.cpu}, ${r.machine.cores} cores, ` +
      `Node ${r.machine.node}, PostgreSQL ${r.machine.postgres}; ${r.machine.pinning}; the receiver shares the load generator's core.`,
    '',
    `One service process with its worker inside (the default), ${r.settings.products} products, PUT price writes (one \`product.updated\` event each) ` +
      `from ${r.settings.connections} connections for ${r.settings.seconds} s per run. "none": the store's endpoints are disabled; ` +
      `"${r.settings.endpoints} endpoints": enabled, every write is ${r.settings.endpoints} signed deliveries to a receiver that answers 204. ` +
      'Every run starts with an empty queue; the drain is the time after the load until every message of the run was delivered.',
    '',
    `**Write throughput with ${r.settings.endpoints} endpoints: ${f(r.ratio * 100, 1)} % of none** (median req/s over ${r.settings.rounds} rounds, alternating order). ` +
      `Duplicate deliveries seen by the receiver: ${r.duplicates}.`,
    '',
    '| round | configuration | req/s | p50 ms | p99 ms | service CPU µs/write | PostgreSQL CPU µs/write | delivered during the run | backlog at the end | drain ms | delivered in all | non-2xx |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.runs.map(
      (x) =>
        `| ${x.round} | ${name(x.config)} | ${f(x.rps)} | ${f(x.p50, 2)} | ${f(x.p99, 2)} | ${f(x.serviceCpuUsPerWrite)} | ${f(x.pgCpuUsPerWrite)} | ${x.deliveredDuringRun} | ${x.backlogAtEnd} | ${x.drainMs} | ${x.delivered} | ${x.non2xx + x.errors} |`,
    ),
    '',
    `At a fixed rate of ${r.fixedRate[0]?.rate ?? 'n/a'} writes/s (half the saturation rate without endpoints):`,
    '',
    '| configuration | req/s | p50 ms | p99 ms | drain ms |',
    '|---|---|---|---|---|',
    ...r.fixedRate.map((x) => `| ${name(x.config)} | ${f(x.rps)} | ${f(x.p50, 2)} | ${f(x.p99, 2)} | ${x.drainMs} |`),
    '',
  ];
  return lines.join('\n');
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    killAllChildren();
    await dropDatabase(dbName).catch(() => {});
    rmSync(workDir, { recursive: true, force: true });
  });
