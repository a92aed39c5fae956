import type { Logger } from 'pino';
import type { PrismaClient } from '../db/client';

/**
 * Keeps the change history to its retention period: a scheduled job deletes
 * events older than `retentionDays`, in batches so no statement holds locks
 * for long. Several instances may run it at once: each batch deletes rows no
 * other batch sees twice, and a lost race only deletes nothing.
 */
export async function pruneEvents(db: PrismaClient, opts: { retentionDays: number; now: Date; batchSize?: number }): Promise<number> {
  const cutoff = new Date(opts.now.getTime() - opts.retentionDays * 86_400_000);
  const batch = opts.batchSize ?? 5000;
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM events WHERE id IN (
        SELECT id FROM events WHERE occurred_at < ${cutoff} ORDER BY occurred_at LIMIT ${batch} FOR UPDATE SKIP LOCKED
      )`;
    total += deleted;
    if (deleted < batch) return total;
  }
}

/** Runs pruneEvents now and then every `intervalMs`; returns a stop function. A failed run is logged and retried next time. */
export function schedulePruning(db: () => PrismaClient, log: Logger, opts: { retentionDays: number; intervalMs: number; now?: () => Date }): () => void {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = pruneEvents(db(), { retentionDays: opts.retentionDays, now: (opts.now ?? (() => new Date()))() })
      .then((n) => {
        if (n > 0) log.info({ deleted: n, retention_days: opts.retentionDays }, 'pruned events past their retention');
      })
      .catch((err) => log.warn({ err }, 'could not prune old events; will retry'))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(run, Math.min(opts.intervalMs, 60_000));
  const timer = setInterval(run, opts.intervalMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
