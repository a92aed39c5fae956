/** Scheduled publishing and unpublishing of products, run by the worker. */

import type { RequestContext } from '../../platform/context';
import { transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { emitProductEvent, productBeforeWrite, setProductStatus, writeProductVersion } from './products';
import { runDueStagedPublishes } from './stagedChanges';

/**
 * Scheduled publishing: publishes products whose publish_at has come,
 * unpublishes those whose unpublish_at has and publishes staged changes
 * whose publish time has, as the system, with the usual
 * events. Called by the worker on every poll; safe on several instances at once.
 * Returns how many products it changed.
 *
 * Each product is one transaction that claims its row with FOR UPDATE SKIP
 * LOCKED: another instance skips a row being worked on and, once that commits,
 * no longer finds it due, so no product is published twice. A product that
 * fails is logged and left due (the next poll tries it again); the others go on.
 */
export async function runDueSchedules(ctx: RequestContext, opts: { limit?: number } = {}): Promise<number> {
  const limit = opts.limit ?? 100;
  // Usually nothing is due: one read, and no transaction, on every poll of every worker.
  const now = ctx.now();
  const [{ due, stagedDue }] = await ctx.db.$queryRaw<{ due: boolean; stagedDue: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM products WHERE publish_at <= ${now} OR unpublish_at <= ${now}) AS due,
      EXISTS (SELECT 1 FROM product_staged WHERE publish_at <= ${now}) AS "stagedDue"`;
  // Staged changes scheduled for publishing (src/catalog/services/stagedChanges.ts), claimed alike.
  const stagedPublished = stagedDue ? await runDueStagedPublishes(ctx, limit) : 0;
  if (!due) return stagedPublished;
  const failed: string[] = [];
  let changed = stagedPublished;
  for (let i = 0; i < limit; i++) {
    let claimed: string | null = null;
    try {
      const found = await transaction(ctx, async (t) => {
        claimed = await claimDueProduct(t, failed);
        if (claimed) await runSchedule(t, claimed);
        return claimed !== null;
      });
      if (!found) break;
      changed++;
    } catch (err) {
      if (!claimed) throw err;
      failed.push(claimed);
      ctx.log.error({ err, productId: claimed }, 'scheduled publishing failed for a product; it stays due and is retried on the next run');
    }
  }
  return changed;
}

/** Locks the product that is due first (and not locked by another run), skipping those that failed in this run. */
async function claimDueProduct(t: TransactionContext, skip: string[]): Promise<string | null> {
  const now = t.now();
  const rows = await t.tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM products
    WHERE (publish_at <= ${now} OR unpublish_at <= ${now}) AND NOT (id = ANY(${skip}::uuid[]))
    ORDER BY LEAST(publish_at, unpublish_at), id
    LIMIT 1
    FOR UPDATE SKIP LOCKED`;
  return rows[0]?.id ?? null;
}

/**
 * Runs what is due of one locked product through the publish/unpublish path of
 * the product service; a schedule that can no longer run is cleared instead.
 */
async function runSchedule(t: TransactionContext, id: string): Promise<void> {
  const now = t.now().getTime();
  const row = await t.tx.product.findUniqueOrThrow({ where: { id }, select: { storeId: true, mode: true, status: true, publishAt: true, unpublishAt: true } });
  // The schedule runs in the product's own catalog (test or live), and its events carry that mode.
  t = { ...t, mode: row.mode };
  const publishDue = row.publishAt !== null && row.publishAt.getTime() <= now;
  const unpublishDue = row.unpublishAt !== null && row.unpublishAt.getTime() <= now;
  const log = t.log.child({ productId: id, storeId: row.storeId });

  if (publishDue && unpublishDue) {
    // The whole window passed before the scheduler ran (it was stopped): publishing only to
    // unpublish at once would announce a product nobody could see. The schedule lapses.
    log.warn({ publishAt: row.publishAt, unpublishAt: row.unpublishAt }, 'publish and unpublish times both passed while the scheduler was not running; the product stays as it is');
    return clearSchedule(t, row.storeId, id, { publishAt: null, unpublishAt: null });
  }
  if (publishDue) {
    if (row.status === 'draft') {
      await setProductStatus(t, row.storeId, id, 'active');
      log.info('published on schedule');
    } else {
      // Active or archived meanwhile (possible only through a write that bypassed the service's rules).
      log.warn({ status: row.status }, 'scheduled publishing skipped: the product is not a draft');
      await clearSchedule(t, row.storeId, id, { publishAt: null });
    }
    return;
  }
  if (row.status === 'active') {
    await setProductStatus(t, row.storeId, id, 'draft');
    log.info('unpublished on schedule');
  } else {
    // Never published by its time (a draft whose unpublish_at was set ahead of a publish by hand), or archived.
    log.info({ status: row.status }, 'scheduled unpublishing lapsed: the product is not active');
    await clearSchedule(t, row.storeId, id, { unpublishAt: null });
  }
}

/** Clears a schedule that could not run, as product.updated (the representation changes). */
async function clearSchedule(t: TransactionContext, storeId: string, id: string, data: { publishAt?: null; unpublishAt?: null }) {
  const before = await productBeforeWrite(t, storeId, id, {});
  const after = await writeProductVersion(t, before, data);
  emitProductEvent(t, 'product.updated', after, { before });
}
