/**
 * Staged changes: a product's staged version beside its current one (commercetools' staged and current projections).
 * A staged write runs the live write's own service, with its validation, on the staged version and keeps what it
 * made; publishing writes that to the current product through writeProductVersion; discarding drops it.
 * docs/staged-changes.md has the rules.
 */

import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import type { FieldChange } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import { AppError, notFound } from '../../platform/errors';
import { actorOf, emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { fieldChanges } from '../../platform/outbox/fieldChanges';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { catalogOf } from './catalogScope';
import { BEFORE_PRODUCT_WRITE, emitProductEvent, type GuardedContext, productBeforeWrite, requireVersion, searchText, writeProductVersion } from './products';
import { withPriceChangesPerCurrency } from './prices';
import { PRODUCT_VIEW_INCLUDE, productParts, productView, type ProductViewRow, variantView } from './views';
import { contentToPublish, productColumns, type PublishScope, readContent, sameContent, type StagedContent, writeContentParts } from './stagedContent';

type ProductQuery = { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect };

/** Where a write goes: the staged version, or the current product (and, with applyTo both, the staged version too). */
export interface WriteTarget {
  staged?: boolean | null;
  applyTo?: 'live' | 'both' | null;
}

/** A write's input as the staging rules see it: the fields it sends that a staged write may not. */
export interface StagedWriteCheck {
  /** Sent fields that are never staged (named as the input names them); a staged write sending any is a 422. */
  unstageable: string[];
  /** Whether the write changes anything a staged version holds (a live write then meets the 409 rule). */
  touchesStaged: boolean;
}

export const stagedChangesPending = () =>
  new AppError(
    'staged_changes_pending',
    'The product has staged changes: stage this write too (staged=true), apply it to both versions (staged=false&apply_to=both), or publish or discard the staged changes first',
  );

const notStageable = (fields: string[]) =>
  new AppError('not_stageable', `${fields.join(', ')}: never staged; write without staged=true`, {
    errors: fields.map((field) => ({ field, code: 'not_stageable', message: 'is not part of a staged version: write it to the current product (without staged=true)' })),
  });

type StagedRow = Prisma.ProductStagedGetPayload<object>;
type LockedProduct = { id: string; storeId: string; mode: string; version: number; hasStagedChanges: boolean };

/** Locks the product's row for the write (as productBeforeWrite does, before any savepoint: a rollback to one would release it). */
async function lockProduct(t: TransactionContext, storeId: string, id: string): Promise<LockedProduct> {
  if (!isUuid(id)) throw notFound('Product');
  const [row] = await t.tx.$queryRaw<LockedProduct[]>`
    SELECT id::text AS id, store_id::text AS "storeId", mode::text AS mode, version, has_staged_changes AS "hasStagedChanges"
    FROM products WHERE id = ${id}::uuid AND store_id = ${storeId}::uuid AND mode = ${t.mode}::"Mode" FOR UPDATE`;
  if (!row) throw notFound('Product');
  return row;
}

const stagedRowOf = (t: TransactionContext, product: { id: string; hasStagedChanges: boolean }) =>
  product.hasStagedChanges ? t.tx.productStaged.findUnique({ where: { productId: product.id } }) : Promise.resolve(null);

/**
 * Runs `work` on the staged version: inside a savepoint the staged content is written over the current rows, `work`
 * runs there (a product service, with its checks, or a read), and what it made is read back; then the savepoint is
 * rolled back, with the events `work` recorded. The product's row must be locked already.
 */
async function inStagedVersion<T>(t: TransactionContext, product: { id: string; storeId: string }, staged: StagedRow | null, work: () => Promise<T>) {
  await t.tx.$executeRawUnsafe('SAVEPOINT staged_version');
  const events = t.outbox.length;
  try {
    if (staged) await overlay(t, product, staged.content as unknown as StagedContent);
    const result = await work();
    const content = await readContent(t, product.id);
    const { version } = await t.tx.product.findUniqueOrThrow({ where: { id: product.id }, select: { version: true } });
    return { result, content, version };
  } finally {
    t.outbox.length = events;
    await t.tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT staged_version');
    await t.tx.$executeRawUnsafe('RELEASE SAVEPOINT staged_version');
  }
}

/** Writes the staged content over the current rows (inside inStagedVersion's savepoint only). */
async function overlay(t: TransactionContext, product: { id: string; storeId: string }, staged: StagedContent) {
  const current = await readContent(t, product.id);
  const target = contentToPublish(current, staged, 'all');
  await t.tx.product.update({ where: { id: product.id }, data: { ...productColumns(target), hasStagedChanges: true } });
  await writeContentParts(t, product, current, target);
}

/** The staged flag on a write's answer when it is a product row (a variant list has none). */
function withStagedFlag<T>(result: T, hasStagedChanges: boolean): T {
  if (result && typeof result === 'object' && 'hasStagedChanges' in result) (result as { hasStagedChanges: boolean }).hasStagedChanges = hasStagedChanges;
  return result;
}

/**
 * A write of one product that may be staged (the writes that accept staged=true, and a live replace of the variants):
 * - `staged`: `write` runs on the staged version, which keeps what it made; the current product keeps its content.
 *   Its If-Match applies there (a product has one version: a staged write moves it too).
 * - live, while the product has staged changes, changing anything staged: 409 staged_changes_pending, unless
 *   `applyTo` both, which runs the write on the current product and then on the staged version, in one transaction.
 * - otherwise: the live write as it is.
 * `write(ctx, checkVersion)` runs the service in `ctx`; checkVersion false on a second pass, whose version the first checked.
 */
export async function productWrite<T>(
  ctx: RequestContext,
  storeId: string,
  productId: string,
  target: WriteTarget,
  check: StagedWriteCheck,
  write: (ctx: RequestContext, checkVersion: boolean) => Promise<T>,
): Promise<T> {
  if (target.staged && target.applyTo === 'both') {
    throw new AppError('validation_failed', 'apply_to: both is for a live write (staged=false)', {
      errors: [{ field: 'applyTo', code: 'invalid_value', message: 'both applies a live write to the staged version too; a staged write changes the staged version only' }],
    });
  }
  if (target.staged && check.unstageable.length) throw notStageable(check.unstageable);
  if (!target.staged && target.applyTo !== 'both') {
    // The usual live write, in its own transaction: the rule is checked on the product it locks.
    const guarded: GuardedContext = {
      ...ctx,
      [BEFORE_PRODUCT_WRITE]: (product) => {
        if (product.id === productId && product.hasStagedChanges && check.touchesStaged) throw stagedChangesPending();
      },
    };
    return write(guarded, true);
  }
  return transaction(ctx, async (t) => {
    const product = await lockProduct(t, storeId, productId);
    if (!target.staged) {
      if (!product.hasStagedChanges || !check.touchesStaged) return write(t, true);
      const staged = await stagedRowOf(t, product);
      const result = await write(t, true);
      const moved = await t.tx.product.findUniqueOrThrow({ where: { id: productId }, select: { version: true } });
      // The same write on the staged version: its version check was the live write's.
      const pass = await inStagedVersion(t, product, staged, () => write(t, false));
      const remaining = await keepStaged(t, { ...product, version: moved.version }, staged, pass.content, moved.version === product.version && pass.version !== moved.version);
      return withStagedFlag(result, remaining);
    }
    const staged = await stagedRowOf(t, product);
    const pass = await inStagedVersion(t, product, staged, () => write(t, true));
    if (pass.version === product.version) return withStagedFlag(pass.result, product.hasStagedChanges);
    return withStagedFlag(pass.result, await keepStaged(t, product, staged, pass.content, true));
  });
}

/**
 * Keeps the staged content a write made: the staged version is dropped when it equals the current product again.
 * `newVersion`: the write has not moved the product's version yet (a staged write): it does here.
 * Records product.staged when the staged version changed. Returns whether the product has staged changes now.
 */
async function keepStaged(t: TransactionContext, product: LockedProduct, staged: StagedRow | null, content: StagedContent, newVersion: boolean): Promise<boolean> {
  const current = await readContent(t, product.id);
  const remaining = !sameContent(content, current);
  const unchanged = staged ? sameContent(content, staged.content as unknown as StagedContent) : !remaining;
  if (unchanged && remaining === product.hasStagedChanges && !newVersion) return remaining;
  const version = newVersion ? product.version + 1 : product.version;
  const previous = await stagedView(t, product, staged);
  if (remaining) {
    const row = { content: content as unknown as Prisma.InputJsonObject, version, updatedBy: actorOf(t.principal).name };
    await t.tx.productStaged.upsert({ where: { productId: product.id }, create: { productId: product.id, storeId: product.storeId, mode: t.mode, ...row }, update: row });
  } else if (staged) await t.tx.productStaged.delete({ where: { productId: product.id } });
  const data = { hasStagedChanges: remaining };
  if (newVersion) await writeProductVersion(t, product, data);
  // A live write (applyTo both) made this version: the flag goes with it.
  else if (remaining !== product.hasStagedChanges) await t.tx.product.update({ where: { id: product.id }, data });
  const next = await stagedView(t, product, remaining ? await t.tx.productStaged.findUnique({ where: { productId: product.id } }) : null);
  emit(t, {
    type: 'product.staged',
    storeId: product.storeId,
    resource: { type: 'product', id: product.id, version },
    data: { ...next, has_staged_changes: remaining },
    changes: stagedDifference(previous, next),
  });
  return remaining;
}

/** The staged product as REST shows it, with its variants (the current product's when it has no staged version). */
async function stagedView(t: TransactionContext, product: { id: string; storeId: string }, staged: StagedRow | null) {
  const read = () => fullView(t, product.id);
  return staged ? (await inStagedVersion(t, product, staged, read)).result : read();
}

const VARIANT_ORDER: Prisma.VariantOrderByWithRelationInput[] = [{ position: 'asc' }, { sku: 'asc' }];

async function fullView(t: TransactionContext, id: string) {
  const row = (await t.tx.product.findUniqueOrThrow({ where: { id }, include: PRODUCT_VIEW_INCLUDE })) as ProductViewRow;
  const variants = await t.tx.variant.findMany({ where: { productId: id }, orderBy: VARIANT_ORDER });
  return { ...productView(row, t.baseUrl), variants: variants.map(variantView) };
}

/** Bookkeeping and what is never staged: not a staged change. */
const NOT_CHANGES = ['version', 'updated_at', 'has_staged_changes', 'translations', 'variants'];

/**
 * The field-level difference from the current product to the staged one, in the change history's form: product
 * fields by name (prices per currency, as prices.EUR), variant fields as variants.<id>.<field>.
 */
export function stagedDifference(current: Awaited<ReturnType<typeof fullView>>, staged: Awaited<ReturnType<typeof fullView>>): FieldChange[] {
  const changes = withPriceChangesPerCurrency(fieldChanges(current, staged, NOT_CHANGES));
  const stagedVariants = new Map(staged.variants.map((v) => [v.id, v]));
  for (const v of current.variants) {
    const s = stagedVariants.get(v.id);
    if (!s) continue;
    for (const c of withPriceChangesPerCurrency(fieldChanges(v, s, ['updated_at', 'created_at']))) changes.push({ ...c, field: `variants.${v.id}.${c.field}` });
  }
  return changes;
}

/** The product's row in the catalog (no lock: a read), or 404. */
async function productOfCatalog(t: TransactionContext, storeId: string, id: string) {
  if (!isUuid(id)) throw notFound('Product');
  const product = await t.tx.product.findFirst({ where: { id, ...catalogOf(t, storeId) }, select: { id: true, storeId: true, hasStagedChanges: true } });
  if (!product) throw notFound('Product');
  return product;
}

/**
 * The staged product (the current one when it has no staged changes) read with `query`, its staged version's
 * bookkeeping, and the difference from the current product.
 */
export async function getStagedProduct(ctx: RequestContext, storeId: string, id: string, query: ProductQuery = {}) {
  return transaction(ctx, async (t) => {
    const product = await productOfCatalog(t, storeId, id);
    const staged = await stagedRowOf(t, product);
    const read = () => t.tx.product.findUniqueOrThrow({ ...query, where: { id } });
    const row = staged ? (await inStagedVersion(t, product, staged, read)).result : await read();
    return { product: row, staged };
  });
}

/** The field-level difference between the current product and its staged version ([] without staged changes). */
export async function getStagedDifference(ctx: RequestContext, storeId: string, id: string): Promise<FieldChange[]> {
  return transaction(ctx, async (t) => {
    const product = await productOfCatalog(t, storeId, id);
    const staged = await stagedRowOf(t, product);
    if (!staged) return [];
    return stagedDifference(await fullView(t, id), await stagedView(t, product, staged));
  });
}

const PUBLISH_PARTS = { categories: PRODUCT_VIEW_INCLUDE.categories, images: PRODUCT_VIEW_INCLUDE.images, seo: true, variants: { select: { sku: true } } } as const;

/**
 * Publishes the staged changes (all, or with scope prices only the price fields) as a live write of the product:
 * one version through writeProductVersion, with the events the live writes make (product.updated, and
 * product.variants_updated when variants change) and product.staged_published. What a scoped publish leaves stays
 * staged. Without staged changes, nothing is written.
 */
export async function publishStaged(
  ctx: RequestContext,
  storeId: string,
  id: string,
  opts: { scope?: PublishScope | null; expectedVersion?: number | null },
  query: ProductQuery = {},
) {
  if (!isUuid(id)) throw notFound('Product');
  const scope = opts.scope ?? 'all';
  try {
    return await transaction(ctx, async (t) => {
      const before = await productBeforeWrite(t, storeId, id, PUBLISH_PARTS);
      requireVersion(before, opts.expectedVersion);
      const staged = await stagedRowOf(t, before);
      if (!staged) return t.tx.product.findUniqueOrThrow({ ...query, where: { id } });
      const stagedContent = staged.content as unknown as StagedContent;
      const previousView = await fullView(t, id);
      const current = await readContent(t, id);
      const target = contentToPublish(current, stagedContent, scope);
      const remaining = !sameContent(contentToPublish(target, stagedContent, 'all'), target);
      const skus = before.variants.map((v) => v.sku);
      const after = await writeProductVersion(
        t,
        before,
        { ...productColumns(target), searchText: searchText(target.product, skus), hasStagedChanges: remaining },
        query,
        () => writeContentParts(t, before, current, target),
      );
      if (remaining) await t.tx.productStaged.update({ where: { productId: id }, data: { version: after.version, publishAt: null, publishScope: null } });
      else await t.tx.productStaged.delete({ where: { productId: id } });
      const full = (await t.tx.product.findUniqueOrThrow({ where: { id }, include: PRODUCT_VIEW_INCLUDE })) as ProductViewRow;
      const nextView = await fullView(t, id);
      // As a live write records it: product.updated when a product field changed (not for variant prices alone).
      const published = productView(full, t.baseUrl);
      if (fieldChanges({ ...published, ...productParts(before, t.baseUrl) }, published).length) emitProductEvent(t, 'product.updated', full, { before });
      if (JSON.stringify(previousView.variants) !== JSON.stringify(nextView.variants)) {
        emitProductEvent(t, 'product.variants_updated', full, { before, extra: { variants: nextView.variants }, previousExtra: { variants: previousView.variants } });
      }
      emit(t, {
        type: 'product.staged_published',
        storeId,
        resource: { type: 'product', id, version: full.version },
        data: { ...published, scope },
        changes: stagedDifference(previousView, nextView),
      });
      return after;
    });
  } catch (e) {
    const index = violatedUniqueIndex(e);
    if (index === 'product_seo_store_id_mode_slug_key') {
      throw new AppError('slug_taken', 'The staged SEO slug is used by another product of this store now; stage another slug first', {
        errors: [{ field: 'seo.slug', code: 'slug_taken', message: 'already used by another product of this store' }],
      });
    }
    if (index) throw new AppError('conflict', 'The product changed so that its staged changes no longer fit (a variant combination is taken); stage them again', { cause: e });
    throw e;
  }
}

/** Drops the staged changes: a product version, with product.staged_discarded listing what was dropped. Nothing staged: nothing written. */
export async function discardStaged(ctx: RequestContext, storeId: string, id: string, opts: { expectedVersion?: number | null }, query: ProductQuery = {}) {
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, id, {});
    requireVersion(before, opts.expectedVersion);
    const staged = await stagedRowOf(t, before);
    if (!staged) return t.tx.product.findUniqueOrThrow({ ...query, where: { id } });
    const dropped = stagedDifference(await fullView(t, id), await stagedView(t, before, staged));
    await t.tx.productStaged.delete({ where: { productId: id } });
    const after = await writeProductVersion(t, before, { hasStagedChanges: false }, query);
    const full = (await t.tx.product.findUniqueOrThrow({ where: { id }, include: PRODUCT_VIEW_INCLUDE })) as ProductViewRow;
    emit(t, {
      type: 'product.staged_discarded',
      storeId,
      resource: { type: 'product', id, version: full.version },
      data: productView(full, t.baseUrl),
      changes: dropped.map((c) => ({ field: c.field, previous: c.next, next: c.previous })),
    });
    return after;
  });
}

/**
 * Schedules the publish of the staged changes (scope as publishStaged's); null cancels it. A product version, with
 * product.staged listing the schedule. 409 no_staged_changes without staged changes.
 */
export async function scheduleStagedPublish(
  ctx: RequestContext,
  storeId: string,
  id: string,
  opts: { publishAt: Date | null; scope?: PublishScope | null; expectedVersion?: number | null },
  query: ProductQuery = {},
) {
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, id, {});
    requireVersion(before, opts.expectedVersion);
    const staged = await stagedRowOf(t, before);
    if (!staged) throw new AppError('no_staged_changes', 'The product has no staged changes to publish');
    const now = t.now();
    if (opts.publishAt && opts.publishAt.getTime() <= now.getTime()) {
      throw new AppError('validation_failed', 'publish_at: must be in the future', {
        errors: [{ field: 'publishAt', code: 'not_in_future', message: `must be in the future (it is now ${now.toISOString()})` }],
      });
    }
    const schedule = { publishAt: opts.publishAt, publishScope: opts.publishAt && opts.scope === 'prices' ? 'prices' : null };
    const after = await writeProductVersion(t, before, {}, query, () => t.tx.productStaged.update({ where: { productId: id }, data: { ...schedule, version: before.version + 1 } }));
    const describe = (s: { publishAt: Date | null; publishScope: string | null }) => ({ publish_at: s.publishAt, publish_scope: s.publishAt ? (s.publishScope ?? 'all') : null });
    emit(t, {
      type: 'product.staged',
      storeId,
      resource: { type: 'product', id, version: before.version + 1 },
      data: { id, ...describe(schedule) },
      before: { id, ...describe(staged) },
    });
    return after;
  });
}

/**
 * Scheduled publishing of staged changes, run by the worker with runDueSchedules: each due product in a transaction
 * of its own that claims the product's row (FOR UPDATE SKIP LOCKED, as product schedules do). Returns how many it
 * published; one that fails is logged and tried again on the next run.
 */
export async function runDueStagedPublishes(ctx: RequestContext, limit: number): Promise<number> {
  const failed: string[] = [];
  let published = 0;
  for (let i = 0; i < limit; i++) {
    let claimed: { id: string; storeId: string; mode: string; scope: string | null } | null = null;
    try {
      const found = await transaction(ctx, async (t) => {
        const now = t.now();
        [claimed] = await t.tx.$queryRaw<{ id: string; storeId: string; mode: string; scope: string | null }[]>`
          SELECT p.id::text AS id, p.store_id::text AS "storeId", p.mode::text AS mode, s.publish_scope AS scope
          FROM product_staged s JOIN products p ON p.id = s.product_id
          WHERE s.publish_at <= ${now} AND NOT (s.product_id = ANY(${failed}::uuid[]))
          ORDER BY s.publish_at, s.product_id LIMIT 1
          FOR UPDATE OF p SKIP LOCKED`;
        if (!claimed) return false;
        const c = claimed as { id: string; storeId: string; mode: string; scope: string | null };
        // The publish runs in the product's own catalog (test or live), and its events carry that mode.
        await publishStaged({ ...t, mode: c.mode as TransactionContext['mode'] } as TransactionContext, c.storeId, c.id, { scope: c.scope === 'prices' ? 'prices' : 'all' });
        t.log.info({ productId: c.id, storeId: c.storeId }, 'staged changes published on schedule');
        return true;
      });
      if (!found) break;
      published++;
    } catch (err) {
      if (!claimed) throw err;
      failed.push((claimed as { id: string }).id);
      ctx.log.error({ err, productId: (claimed as { id: string }).id }, 'scheduled publishing of staged changes failed; it stays due and is retried on the next run');
    }
  }
  return published;
}
