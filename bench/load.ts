/**
 * The load generator: a child process (pinned to its own core by the bench)
 * that runs autocannon on request and answers over IPC. Latencies are
 * recorded here in microseconds (autocannon's own histogram has 1 ms steps,
 * too coarse for 1-3 ms requests).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface RequestSpec {
  method: string;
  /** May contain {{seq}} (a counter) and {{pick:<list>}} (the next id of a list). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A body read from a file once (large uploads). */
  bodyFile?: string;
}

export interface LoadSpec {
  url: string;
  /** Sent in turn, across all connections. */
  requests: RequestSpec[];
  lists?: Record<string, string[]>;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration: number;
  amount?: number;
  /** Overall requests per second; unset: as fast as the server answers. */
  rate?: number;
}

export interface LoadResult {
  ok: number;
  errors: number;
  non2xx: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  /** First non-2xx status seen, to explain a failing scenario. */
  firstBadStatus?: number;
}

const TEMPLATE = /\{\{(seq|pick:[\w-]+)\}\}/g;
const HAS_TEMPLATE = /\{\{(seq|pick:[\w-]+)\}\}/;
const fileCache = new Map<string, Buffer>();

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let seq = 0;
  const cursors: Record<string, number> = {};
  const expand = (s: string) =>
    s.replace(TEMPLATE, (_m, key: string) => {
      if (key === 'seq') return String(seq);
      const name = key.slice(5);
      const list = spec.lists?.[name] ?? [];
      const i = cursors[name] ?? 0;
      cursors[name] = i + 1;
      return list[i % list.length];
    });
  const built = spec.requests.map((r) => ({
    method: r.method,
    path: r.path,
    headers: r.headers ?? {},
    body: r.bodyFile ? (fileCache.get(r.bodyFile) ?? fileCache.set(r.bodyFile, readFileSync(r.bodyFile)).get(r.bodyFile)!) : r.body,
  }));
  const dynamic = built.length > 1 || spec.requests.some((r) => HAS_TEMPLATE.test(r.path) || HAS_TEMPLATE.test(r.body ?? ''));
  let next = 0;
  const requests = dynamic
    ? [
        {
          setupRequest: (req: Record<string, unknown>) => {
            const r = built[next++ % built.length];
            seq += 1;
            return { ...req, method: r.method, path: expand(r.path), headers: r.headers, body: typeof r.body === 'string' ? expand(r.body) : r.body };
          },
        },
      ]
    : [built[0]];

  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let non2xx = 0;
  let firstBadStatus: number | undefined;
  const started = process.hrtime.bigint();
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    amount: spec.amount,
    overallRate: spec.rate,
    requests: requests as never,
    timeout: 60,
    // autocannon notices the end of a run on its sampling tick (default 1 s): sample often so short runs end on time.
    sampleInt: 50,
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status < 200 || status >= 300) {
      non2xx += 1;
      firstBadStatus ??= status;
      return;
    }
    if (n === latencies.length) {
      const grown = new Float64Array(n * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = ms;
  });
  const result = await instance;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = latencies.slice(0, n).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    ok: n,
    errors: result.errors + result.timeouts,
    non2xx,
    seconds,
    rps: n / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: n ? sum / n : NaN,
    firstBadStatus,
  };
}

if (require.main === module && process.send) {
  process.on('message', (m: { id: number; spec: LoadSpec }) => {
    runLoad(m.spec).then(
      (result) => process.send!({ id: m.id, result }),
      (err: Error) => process.send!({ id: m.id, error: err.stack ?? String(err) }),
    );
  });
}
