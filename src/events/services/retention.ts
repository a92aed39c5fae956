/** Retention: pruning old events and delivery-log entries. */

import type { PrismaClient } from '../../platform/db/client';

/**
 * Keeps the change history to its retention period: the background worker
 * (src/jobs/worker.ts) deletes events older than `retentionDays`, in batches
 * so no statement holds locks for long. Several instances may run it at once: each batch deletes rows no
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

/**
 * Keeps the webhook delivery log to its retention period (WEBHOOK_LOG_RETENTION_DAYS):
 * deletes finished messages created before the cutoff whose last attempt is
 * older too, with their attempts. A message still pending is never deleted.
 */
export async function pruneDeliveryLog(db: PrismaClient, opts: { retentionDays: number; now: Date; batchSize?: number }): Promise<number> {
  const cutoff = new Date(opts.now.getTime() - opts.retentionDays * 86_400_000);
  const batch = opts.batchSize ?? 2000;
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM webhook_messages WHERE id IN (
        SELECT id FROM webhook_messages
        WHERE created_at < ${cutoff} AND status <> 'pending' AND (last_attempt_at IS NULL OR last_attempt_at < ${cutoff})
        ORDER BY created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED
      )`;
    total += deleted;
    if (deleted < batch) return total;
  }
}
