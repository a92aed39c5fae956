/**
 * Measures one scenario on the service and its baselines: response check,
 * SQL statements per request, saturation throughput with CPU per request,
 * then latency at a fixed rate.
 */
import { readFileSync } from 'node:fs';
import type { LoadResult, LoadSpec, RequestSpec } from './load';
import { BackendCpuMeter, processCpuMicros, statementCalls } from './postgres';
import type { LoadGenerator, Target, TargetName } from './processes';
import type { Scenario, ScenarioContext } from './scenarios';

export interface Durations {
  warmup: number;
  saturation: number;
  fixedRate: number;
  /** Sequential requests used to count SQL statements. */
  statementSamples: number;
  connections: number;
  fixedRateConnections: number;
}

export interface TargetResult {
  target: TargetName;
  saturation: LoadResult;
  fixed: LoadResult & { rate: number; note?: string };
  serviceCpuUs: number;
  pgCpuUs: number;
  statements: number | null;
  /** Peak RSS (MB) of the target during the saturation run. */
  rssLoadMb: number;
  /** Peak RSS growth (MB) per concurrent request, for scenarios that record it. */
  rssGrowthMbPerRequest?: number;
  rssPeakMb?: number;
}

export interface ScenarioResult {
  id: string;
  title: string;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  /** Baselines whose response differed from the service's (path of the first difference). */
  mismatches: { target: TargetName; diff: string }[];
  results: TargetResult[];
  reference?: 'B1' | 'B3';
}

export interface MeasureEnv {
  load: LoadGenerator;
  targets: Partial<Record<TargetName, Target>>;
  ctx: ScenarioContext;
  durations: Durations;
  dbName: string;
  /** pg_stat_statements is loaded: count statements on the server side. */
  pgStatements: boolean;
  /** Starts a fresh service process (peak-RSS scenarios measure on one). */
  freshService?: () => Promise<Target>;
  /** The small request that warms a fresh process up before its RSS baseline is read. */
  rssWarmup?: RequestSpec;
  log: (s: string) => void;
}

/** Expands templates the way the load generator does, for the one request of the response check ({{seq}} is 0: the load's counter starts at 1, and some bodies put it in a number). */
function firstRequest(r: RequestSpec, lists: Record<string, string[]>): RequestSpec {
  const expand = (s: string) => s.replace(/\{\{seq\}\}/g, '0').replace(/\{\{pick:([\w-]+)\}\}/g, (_m, n: string) => lists[n]?.[0] ?? '');
  return { ...r, path: expand(r.path), body: r.body === undefined ? undefined : expand(r.body) };
}

async function send(url: string, r: RequestSpec): Promise<{ status: number; text: string }> {
  const body = r.bodyFile ? readFileSync(r.bodyFile) : r.body;
  const res = await fetch(url + r.path, { method: r.method, headers: r.headers, body });
  return { status: res.status, text: await res.text() };
}

/** The first path at which two JSON values differ, or null when they are equal. */
export function jsonDiff(a: unknown, b: unknown, path = '$'): string | null {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return `${path}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: length ${a.length} vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = jsonDiff(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (a && typeof a === 'object') {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b as object).sort();
    const missing = ka.filter((k) => !kb.includes(k)).concat(kb.filter((k) => !ka.includes(k)));
    if (missing.length) return `${path}: keys ${missing.join(', ')} only on one side`;
    for (const k of ka) {
      const d = jsonDiff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return a === b ? null : `${path}: ${JSON.stringify(a)?.slice(0, 80)} vs ${JSON.stringify(b)?.slice(0, 80)}`;
}

async function statementsPerRequest(env: MeasureEnv, target: Target, spec: Omit<LoadSpec, 'url' | 'connections' | 'duration'>, slow: boolean): Promise<number | null> {
  const n = slow ? 3 : env.durations.statementSamples;
  const before = env.pgStatements ? await statementCalls(env.dbName) : await target.queryCount();
  const r = await env.load.run({ ...spec, url: target.url, connections: 1, duration: 0, amount: n });
  const after = env.pgStatements ? await statementCalls(env.dbName) : await target.queryCount();
  if (before === null || after === null || !r.ok) return null;
  return (after - before) / (r.ok + r.non2xx);
}

async function measureTarget(env: MeasureEnv, s: Scenario, target: Target, spec: Omit<LoadSpec, 'url' | 'connections' | 'duration'>, rate: number | null): Promise<TargetResult> {
  const d = env.durations;
  const connections = s.connections ?? d.connections;
  // Peak RSS is read on a fresh process whose only earlier work is a small warm-up (libraries loaded, nothing big retained by the allocator).
  const rssRun = s.peakRss && env.rssWarmup !== undefined;
  let statements: number | null = null;
  if (rssRun) await env.load.run({ url: target.url, requests: [env.rssWarmup!], connections: 1, duration: 0, amount: 2 });
  else {
    statements = await statementsPerRequest(env, target, spec, !!s.minSeconds);
    await env.load.run({ ...spec, url: target.url, connections, duration: d.warmup });
  }

  const meter = new BackendCpuMeter(env.dbName);
  await meter.begin();
  target.resetPeakRss();
  const rssBefore = target.rssKb().current;
  const cpuBefore = processCpuMicros(target.pid) ?? 0;
  const saturation = await env.load.run({ ...spec, url: target.url, connections, duration: Math.max(d.saturation, s.minSeconds ?? 0) });
  const cpuAfter = processCpuMicros(target.pid) ?? 0;
  const pgCpu = await meter.end();
  const rss = target.rssKb();
  const requests = Math.max(1, saturation.ok + saturation.non2xx);
  if (rssRun) statements = await statementsPerRequest(env, target, spec, true);

  // A fixed rate the target cannot sustain only measures its queue: then it is measured at half its own saturation.
  let fixedRate = rate ?? saturation.rps / 2;
  let note: string | undefined;
  if (rate !== null && saturation.rps < rate * 1.1) {
    fixedRate = saturation.rps / 2;
    note = `cannot sustain ${rate.toFixed(0)} req/s; measured at half its own saturation`;
  }
  const fixed = await env.load.run({
    ...spec,
    url: target.url,
    connections: Math.max(1, Math.min(d.fixedRateConnections, Math.floor(fixedRate))),
    duration: Math.max(d.fixedRate, s.minSeconds ?? 0),
    rate: Math.max(1, Math.round(fixedRate)),
  });
  return {
    target: target.name,
    saturation,
    fixed: { ...fixed, rate: fixedRate, note },
    serviceCpuUs: (cpuAfter - cpuBefore) / requests,
    pgCpuUs: pgCpu / requests,
    statements,
    rssLoadMb: rss.peak / 1024,
    ...(s.peakRss ? { rssPeakMb: rss.peak / 1024, rssGrowthMbPerRequest: (rss.peak - rssBefore) / 1024 / connections } : {}),
  };
}

export async function measureScenario(env: MeasureEnv, s: Scenario): Promise<ScenarioResult> {
  const base = { id: s.id, title: s.title, mismatches: [] as ScenarioResult['mismatches'], results: [] as TargetResult[], reference: s.reference };
  const service = env.targets.service!;
  const requests = s.requests(env.ctx);
  const lists = s.lists?.(env.ctx) ?? {};
  const spec = { requests, lists };

  // The response check: the service must answer 2xx, and every baseline with the same JSON.
  const check = firstRequest(requests[0], lists);
  const own = await send(service.url, check);
  if (own.status < 200 || own.status >= 300) return { ...base, status: 'failed', reason: `service answered ${own.status}: ${own.text.slice(0, 300)}` };
  for (const name of s.baselines) {
    const t = env.targets[name]!;
    if (name === 'B0') {
      await fetch(`${t.url}/__body`, { method: 'PUT', body: own.text });
      continue;
    }
    const other = await send(t.url, check);
    let diff: string | null;
    // Absolute URLs (image URLs, Link) carry each server's own port.
    const normalized = (text: string, origin: string) => JSON.parse(text.replaceAll(origin, 'http://origin'));
    try {
      diff = other.status !== own.status ? `status ${other.status} vs ${own.status}: ${other.text.slice(0, 200)}` : jsonDiff(normalized(own.text, service.url), normalized(other.text, t.url));
    } catch {
      diff = 'response is not JSON';
    }
    if (diff) base.mismatches.push({ target: name, diff });
  }

  const order: TargetName[] = [...(s.reference ? [s.reference] : []), ...s.baselines.filter((b) => b !== s.reference), 'service'];
  let rate: number | null = null;
  for (const name of order) {
    env.log(`    ${name.padEnd(7)} ${s.id}`);
    const fresh = name === 'service' && s.peakRss && env.freshService ? await env.freshService() : undefined;
    const r = await measureTarget({ ...env, rssWarmup: fresh ? env.rssWarmup : undefined }, s, fresh ?? env.targets[name]!, spec, rate).finally(() => fresh?.stop());
    if (name === s.reference) rate = r.saturation.rps / 2;
    base.results.push(r);
  }
  const bad = base.results.find((r) => r.saturation.non2xx || r.saturation.errors);
  if (bad) {
    return { ...base, status: 'failed', reason: `${bad.target}: ${bad.saturation.non2xx} non-2xx (first ${bad.saturation.firstBadStatus}), ${bad.saturation.errors} errors` };
  }
  return { ...base, status: 'ok' };
}

/** Sequential latency (one connection) of one request: the growth curves. */
export async function sequentialLatency(env: Pick<MeasureEnv, 'load'>, url: string, request: RequestSpec, seconds: number): Promise<LoadResult> {
  return env.load.run({ url, requests: [request], connections: 1, duration: seconds });
}
