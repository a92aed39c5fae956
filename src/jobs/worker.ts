/** The background worker loop: webhook dispatch and delivery, scheduled publishing, jobs, retention. */

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../platform/config';
import { createContext, type RequestContext } from '../platform/context';
import type { PrismaClient } from '../platform/db/client';
import { SYSTEM } from '../kernel/principal';
import { pruneDeliveryLog, pruneEvents } from '../events/services/retention';
import { onWorkPending } from '../platform/outbox/signal';
import { pruneIdempotencyKeys } from '../api/idempotency';
import { runDueSchedules } from '../catalog/services/productSchedules';
import { sweepUnusedFiles } from '../catalog/services/storedFiles';
import { runDueTestCatalogJobs } from '../catalog/services/testCatalog';
import { runDueProductImports } from '../catalog/services/productImports';
import { runDueCollectionRecomputes } from '../catalog/services/collectionMembership';
import { storageFor } from '../platform/storage';
import { createDeliverer, type DeliveryDeps } from '../events/webhooks/deliver';
import { dispatchEvents } from '../events/webhooks/dispatch';

/**
 * The background worker: one loop that turns outbox events into webhook
 * messages, delivers due messages, runs due product schedules and test
 * catalog jobs (src/catalog/services/testCatalog.ts) and, now and then, prunes the
 * change history, the delivery log and expired idempotency keys, and removes
 * stored image files no image uses (UPLOAD_SWEEP_INTERVAL_MS). It runs inside the service
 * (WORKER=true, the default) or alone (`npm run worker`); several instances on
 * one PostgreSQL database share the work, every step taking its rows with
 * FOR UPDATE SKIP LOCKED.
 *
 * While there is work it loops at once; otherwise it sleeps WORKER_POLL_MS, or
 * until this process commits new work (src/platform/outbox/signal.ts) or an attempt
 * finishes. A failing step is logged and tried again on the next poll.
 */

interface WorkerOptions {
  config: Config;
  log: Logger;
  db: () => PrismaClient;
  /** The worker's clock; tests pass a controllable one and drive runOnce(). */
  now?: () => Date;
  /** [0, 1) for the retry jitter. */
  random?: () => number;
  /**
   * Requests the service in this process is answering now. While there are
   * any, the worker paces itself (BUSY_PASS_INTERVAL_MS): the API keeps the
   * event loop, and each pass takes larger batches. Absent for a worker on
   * its own (`npm run worker`).
   */
  requestsInFlight?: () => number;
}

interface RunResult {
  /** Events taken from the outbox. */
  dispatched: number;
  /** Attempts made (recorded). */
  delivered: number;
  /** Products published or unpublished on schedule. */
  published: number;
}

export interface Worker {
  start(): void;
  /** Stops claiming work and waits for the attempts in flight (each bounded by WEBHOOK_TIMEOUT_MS). */
  stop(): Promise<void>;
  /** Passes until nothing is due at the worker's `now`, waiting for every attempt; then prunes. For tests with a controllable clock. */
  runOnce(): Promise<RunResult>;
}

const DISPATCH_BATCH = 200;
const SCHEDULE_BATCH = 100;
/** Test catalog batches per pass (about 200 products each), so a large copy does not hold up deliveries. */
const TEST_CATALOG_BATCHES = 3;
/** How long a woken worker waits for more work to arrive before its pass. */
const WAKE_COALESCE_MS = 20;
/**
 * While work keeps arriving but no batch fills up (the worker keeps pace with
 * the API), passes are this far apart: each pass costs several statements
 * whatever it finds, so under steady writes one pass per interval takes many
 * events and results at once instead of a few per pass, and the API keeps the
 * database and the event loop. A full batch (a backlog) runs the next pass at once.
 */
const PASS_INTERVAL_MS = 50;
/**
 * While the service in this process is answering requests, passes are at
 * least this far apart, even with a backlog: delivery never takes the event
 * loop from the API for long, and it catches up in batches (every pass still
 * dispatches up to DISPATCH_BATCH events and fills every free delivery slot),
 * or at full speed as soon as no request is in flight.
 */
const BUSY_PASS_INTERVAL_MS = 200;
/** The first pruning runs this soon after start (or after one interval, if shorter). */
const FIRST_PRUNE_MS = 60_000;

export function createWorker(opts: WorkerOptions): Worker {
  const { config, log } = opts;
  const now = opts.now ?? (() => new Date());
  const systemContext = (): RequestContext =>
    createContext({ requestId: randomUUID(), source: 'system', principal: SYSTEM, config, log, db: opts.db(), now });
  const deps: DeliveryDeps = { db: opts.db, config, log, now, systemContext, random: opts.random };

  let running = false;
  let wakeUp: (() => void) | null = null;
  let again = false;
  let loop: Promise<void> | null = null;
  let unsubscribe: (() => void) | null = null;
  let nextPruneAt = 0;
  let pruning: Promise<void> | null = null;
  let nextSweepAt = 0;
  let sweeping: Promise<void> | null = null;
  /** The product import this worker runs (one at a time, beside the loop: an import takes seconds to minutes, deliveries go on meanwhile). */
  let importing: Promise<number> | null = null;

  const wake = () => {
    again = true;
    wakeUp?.();
  };
  const deliverer = createDeliverer(deps, { onSettled: wake });

  async function step<T>(name: string, fn: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      log.error({ err, step: name }, `worker: ${name} failed; retrying on the next poll`);
      return fallback;
    }
  }

  async function prune(at: Date): Promise<void> {
    const events = await step('prune events', () => pruneEvents(opts.db(), { retentionDays: config.changes.retentionDays, now: at }), 0);
    if (events > 0) log.info({ deleted: events, retention_days: config.changes.retentionDays }, 'pruned events past their retention');
    const messages = await step('prune delivery log', () => pruneDeliveryLog(opts.db(), { retentionDays: config.webhooks.logRetentionDays, now: at }), 0);
    if (messages > 0) log.info({ deleted: messages, retention_days: config.webhooks.logRetentionDays }, 'pruned webhook messages past their retention');
    const keys = await step('prune idempotency keys', () => pruneIdempotencyKeys(opts.db(), { now: at }), 0);
    if (keys > 0) log.info({ deleted: keys }, 'pruned expired idempotency keys');
  }

  /** Removes stored files no image uses any more (services/storedFiles.ts). */
  async function sweepFiles(at: Date): Promise<void> {
    const swept = await step('sweep stored files', () => sweepUnusedFiles(opts.db(), storageFor(config), { minAgeMs: config.uploadSweep.minAgeMs, now: at, stopped: () => !running }), null);
    if (swept?.removed) log.info({ removed: swept.removed, examined: swept.examined }, 'removed stored files no image uses');
  }

  /** Dispatch, claim and start deliveries, run schedules and test catalog batches. Returns whether it found work, and the attempts it started. */
  async function pass(): Promise<{ result: RunResult; testCatalog: number; done: Promise<number> }> {
    const dispatched = await step('dispatch', () => dispatchEvents(opts.db(), { now: now(), limit: DISPATCH_BATCH }), { events: 0, messages: 0 });
    const claim = await step('deliver', () => deliverer.claimAndStart({ now: now() }), { claimed: 0, done: Promise.resolve([]) });
    const published = await step('scheduled publishing', () => runDueSchedules(systemContext(), { limit: SCHEDULE_BATCH }), 0);
    const testCatalog = await step('test catalog jobs', () => runDueTestCatalogJobs(systemContext(), { limit: TEST_CATALOG_BATCHES }), 0);
    // Counted with the test catalog's batches: a pass that ran one loops again at once.
    const recomputes = await step('collection recomputes', () => runDueCollectionRecomputes(systemContext(), { maxBatches: TEST_CATALOG_BATCHES }), 0);
    importing ??= step('product imports', () => runDueProductImports(systemContext()), 0).then((ran) => {
      importing = null;
      // It committed events, and another import may be waiting.
      if (ran) wake();
      return ran;
    });
    return {
      result: { dispatched: dispatched.events, delivered: claim.claimed, published },
      testCatalog: testCatalog + recomputes,
      done: claim.done.then((outcomes) => outcomes.length),
    };
  }

  async function run(): Promise<void> {
    nextPruneAt = Date.now() + Math.min(config.changes.pruneIntervalMs, FIRST_PRUNE_MS);
    nextSweepAt = Date.now() + Math.min(config.uploadSweep.intervalMs, FIRST_PRUNE_MS);
    while (running) {
      again = false;
      const { result, testCatalog } = await pass();
      if (Date.now() >= nextPruneAt && !pruning) {
        nextPruneAt = Date.now() + config.changes.pruneIntervalMs;
        pruning = prune(now()).finally(() => {
          pruning = null;
        });
      }
      if (config.uploadSweep.intervalMs > 0 && Date.now() >= nextSweepAt && !sweeping) {
        nextSweepAt = Date.now() + config.uploadSweep.intervalMs;
        sweeping = sweepFiles(now()).finally(() => {
          sweeping = null;
        });
      }
      if (!running) break;
      const full = result.dispatched >= DISPATCH_BATCH || result.published >= SCHEDULE_BATCH || testCatalog >= TEST_CATALOG_BATCHES;
      const paced = (opts.requestsInFlight?.() ?? 0) > 0;
      if (full && !paced) continue;
      const busy = full || result.dispatched > 0 || result.delivered > 0 || result.published > 0 || testCatalog > 0;
      if (busy || again) {
        // Every free slot was taken, so more messages may be due: go on once half the slots are free again (or the interval is over), unless paced.
        const slotsTaken = result.delivered > 0 && deliverer.inFlight() >= config.webhooks.concurrency;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, paced ? BUSY_PASS_INTERVAL_MS : PASS_INTERVAL_MS);
          function done() {
            clearTimeout(timer);
            wakeUp = null;
            resolve();
          }
          wakeUp = () => {
            if (!paced && slotsTaken && deliverer.inFlight() <= config.webhooks.concurrency / 2) done();
          };
        });
        continue;
      }
      const untilPrune = Math.max(0, nextPruneAt - Date.now());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(config.worker.pollMs, untilPrune + 1));
        function done() {
          clearTimeout(timer);
          wakeUp = null;
          resolve();
        }
        // Woken by new work: wait a moment, so that work committed together is handled in one pass.
        wakeUp = () => {
          clearTimeout(timer);
          wakeUp = null;
          setTimeout(resolve, WAKE_COALESCE_MS);
        };
      });
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      unsubscribe = onWorkPending(wake);
      loop = run().catch((err) => log.error({ err }, 'worker loop stopped unexpectedly'));
      log.info({ poll_ms: config.worker.pollMs, concurrency: config.webhooks.concurrency }, 'worker started');
    },
    async stop() {
      if (!running && !loop) return;
      running = false;
      unsubscribe?.();
      unsubscribe = null;
      wakeUp?.();
      await loop;
      loop = null;
      await deliverer.idle();
      await Promise.all([pruning, sweeping, importing]);
      deliverer.close();
      log.info('worker stopped');
    },
    async runOnce() {
      const total: RunResult = { dispatched: 0, delivered: 0, published: 0 };
      for (let i = 0; i < 100; i++) {
        const { result, testCatalog, done } = await pass();
        total.dispatched += result.dispatched;
        total.published += result.published;
        total.delivered += await done;
        const imported = (await importing) ?? 0;
        if (result.dispatched === 0 && result.delivered === 0 && result.published === 0 && testCatalog === 0 && imported === 0) break;
      }
      await prune(now());
      return total;
    },
  };
}
