/** The process's Prometheus metrics, served at /metrics. */

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { currentDatabase, readRows } from './db/client';
import type { ReplicaStatus } from './db/replicas';
import { type CacheSize, cacheSizes } from './caches';

/**
 * The process's Prometheus metrics (prom-client), served at /metrics in the
 * text format. Labels are bounded: a REST route is its path pattern
 * (`/api/v1/merchant/stores/:storeId/products`), a path no route matches is
 * `unmatched`, so no client can grow the series. One registry per process:
 * Prometheus scrapes each instance.
 */
export const registry = new Registry();

let collectingProcessMetrics = false;
/**
 * Adds prom-client's process metrics (CPU, memory, event loop lag, GC) to the registry. The service calls it
 * once at start (src/server.ts); importing this module does not: they watch the process until it exits (a GC
 * observer and an event-loop-delay timer that nothing can stop), which the CLI and the standalone worker,
 * which serve no /metrics, do not need. A test run evaluates this module once per test file in the same
 * process, and each evaluation's observer kept that file's whole module graph alive, its closed databases
 * included.
 */
export function collectProcessMetrics(): void {
  if (collectingProcessMetrics) return;
  collectingProcessMetrics = true;
  collectDefaultMetrics({ register: registry });
}

/** From a millisecond to ten seconds: a cached read and a slow bulk call land in different buckets. */
const LATENCY_BUCKETS_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request to the end of its response, by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: LATENCY_BUCKETS_SECONDS,
  registers: [registry],
});

export const graphqlOperationDuration = new Histogram({
  name: 'graphql_operation_duration_seconds',
  help: 'Execution time of GraphQL operations (/graphql and the REST routes, which run them), by operation type, root field (`multiple` for several) and outcome (ok, or error when the result carries errors)',
  labelNames: ['type', 'root_field', 'outcome'] as const,
  buckets: LATENCY_BUCKETS_SECONDS,
  registers: [registry],
});

export const rateLimitRejections = new Counter({
  name: 'rate_limit_rejections_total',
  help: 'Public API requests refused with 429 by the rate limit, by mode',
  labelNames: ['mode'] as const,
  registers: [registry],
});

export const uploadedBytes = new Counter({
  name: 'upload_bytes_total',
  help: 'Bytes of image files accepted by uploads (as sent, before re-encoding)',
  registers: [registry],
});

new Gauge({
  name: 'db_pool_connections',
  help: 'Connections of the PostgreSQL pool, by state (total, idle, waiting: requests waiting for one); absent on the embedded database',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const stats = currentDatabase()?.poolStats();
    if (!stats) return;
    this.set({ state: 'total' }, stats.total);
    this.set({ state: 'idle' }, stats.idle);
    this.set({ state: 'waiting' }, stats.waiting);
  },
});

/** Queue depths read from the database when scraped: the outbox and the webhook queue. */
interface Backlog {
  undispatched: number | string;
  pending: number | string;
  oldest_due_seconds: number | string | null;
}

const BACKLOG_SQL = `SELECT (SELECT count(*) FROM events WHERE dispatched_at IS NULL) AS undispatched,
  (SELECT count(*) FROM webhook_messages WHERE status = 'pending') AS pending,
  (SELECT extract(epoch FROM now() - min(next_attempt_at)) FROM webhook_messages WHERE status = 'pending' AND next_attempt_at <= now()) AS oldest_due_seconds`;

let backlog: Promise<Backlog | null> | undefined;
/**
 * One query per scrape for the three gauges below (each gauge's collect asks; the first starts it). While the
 * database is not open or does not answer they read NaN (unknown), rather than failing the scrape or showing 0.
 */
function readBacklog(): Promise<Backlog | null> {
  backlog ??= Promise.resolve()
    .then(() => readRows<Backlog>(BACKLOG_SQL, []))
    .then((rows) => rows[0] ?? null)
    .catch(() => null)
    .finally(() => setImmediate(() => (backlog = undefined)));
  return backlog;
}

/** A gauge set from the backlog at each scrape: NaN (unknown) when the database did not answer. */
function backlogGauge(name: string, help: string, value: (b: Backlog) => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const b = await readBacklog();
      this.set(b ? value(b) : Number.NaN);
    },
  });
}

backlogGauge('outbox_undispatched_events', 'Events written but not yet turned into webhook messages by the dispatcher', (b) => Number(b.undispatched));
backlogGauge('webhook_pending_messages', 'Webhook messages waiting for a delivery attempt (first or retry)', (b) => Number(b.pending));
backlogGauge('webhook_delivery_lag_seconds', 'How long the oldest due webhook message has waited past its attempt time (0: none is late)', (b) =>
  b.oldest_due_seconds === null ? 0 : Math.max(0, Number(b.oldest_due_seconds)),
);

export const webhookDeliveries = new Counter({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts, by outcome (delivered, failed)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

/** Each streaming replica as its monitor last saw it (absent without DATABASE_REPLICA_URLS). */
function replicaGauge(name: string, help: string, value: (r: ReplicaStatus) => number): void {
  new Gauge({
    name,
    help,
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const r of currentDatabase()?.replicas?.status() ?? []) this.set({ replica: r.name }, value(r));
    },
  });
}

replicaGauge('db_replica_lag_seconds', 'How far each replica is behind the primary (the age of the oldest write it has not replayed); NaN while down or unknown', (r) =>
  r.lagMs === null || !r.up ? Number.NaN : r.lagMs / 1000,
);
replicaGauge('db_replica_up', 'Whether each replica answered its last poll as a streaming replica (1) or not (0)', (r) => (r.up ? 1 : 0));
replicaGauge('db_replica_serving', 'Whether reads may go to each replica now: up and within DATABASE_REPLICA_MAX_LAG_MS (1), or skipped (0)', (r) => (r.serving ? 1 : 0));

export const databaseReads = new Counter({
  name: 'db_reads_total',
  help: 'Query operations with replicas configured, by the database that served their reads (replica, primary) and why: caught_up (a replica past the client\'s last write), no_replica_serving, behind_own_write (no serving replica has replayed the client\'s last write), position_unknown (the shared write positions did not answer), replica_failed (the replica failed and the primary answered)',
  labelNames: ['target', 'reason'] as const,
  registers: [registry],
});

/** Every in-process cache's entries and bound (src/platform/caches.ts), so a cache that fills up is seen before memory is. */
function cacheGauge(name: string, help: string, value: (c: CacheSize) => number | null): void {
  new Gauge({
    name,
    help,
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [cache, size] of cacheSizes()) {
        const v = value(size);
        if (v !== null) this.set({ cache }, v);
      }
    },
  });
}

cacheGauge('cache_entries', 'Entries each in-process cache holds now (absent for a cache that cannot tell; its bound still holds)', (c) => c.entries);
cacheGauge('cache_max_entries', 'The most entries each in-process cache may hold', (c) => c.max);
