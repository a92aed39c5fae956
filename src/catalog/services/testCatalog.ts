/** Sandbox tools of a store: copying live products into the test catalog, and deleting the test catalog. */

import { syncSmartMembership } from './collectionMembership';
import { v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { Prisma } from '../../platform/db/client';
import type { EventType } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import { actorOf, emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { listProductIds, listProductIdsAfter, ProductFilterInput } from './productList';
import { parseInput } from '../../platform/validation';

/**
 * Copying and deleting are both jobs (table test_catalog_jobs): the request
 * only checks and records the job (202), the worker (src/jobs/worker.ts) or the
 * CLI with --wait runs it in batches, each batch one transaction that also
 * moves the job's progress counters, so a job that stops half-way (a crashed
 * worker) resumes where its last committed batch ended once its lease expires.
 *
 * At most one job of a store is queued or running at a time, whatever its
 * kind (409 conflict): a delete running beside a copy would race it.
 *
 * Deleting test data removes every test-mode product of the store with what
 * cascades from it (variants, image rows, SEO records, category links). Test
 * API keys, test OAuth grants, test webhook endpoints and their delivery log,
 * the categories (shared by both modes), the stored image files (content
 * addressed, possibly shared with live images) and the change history stay.
 *
 * Events: one per job state change a merchant cares about, never one per
 * product. A copy of 10,000 products would otherwise record (and send to every
 * test webhook endpoint) 10,000 product.created events, and a delete 10,000
 * product.deleted: the job's events say what happened and the job's counters how
 * much. They are test-mode events (the test catalog is what changes), resource
 * test_catalog_job, data the job as REST shows it:
 *   requested                 → test_catalog.copy_started / test_catalog.delete_started
 *   finished                  → test_catalog.copy_completed / test_catalog.deleted
 *   stopped by an error       → test_catalog.copy_failed / test_catalog.delete_failed
 * A worker taking a queued job up (queued → running) is bookkeeping, not a
 * change of the catalog: no event; the job's status and started_at show it.
 */

/** The most live products one copy may take; more matches are refused (422 too_many_products): narrow the filter. */
export const MAX_TEST_CATALOG_COPY = 10_000;
/** Live products copied per transaction. */
const COPY_BATCH_SIZE = 200;
/** Test products deleted per transaction. */
const DELETE_BATCH_SIZE = 500;
/** How long a runner holds a job between batches; once it passes, another runner takes the job over. */
export const JOB_LEASE_MS = 2 * 60_000;
/** Batches one call of the runner runs by default (the worker's pass stays short; the job goes on next pass). */
const DEFAULT_RUN_LIMIT = 3;
/** testCatalogJobs lists the store's latest jobs, newest first. */
export const JOBS_LISTED = 50;

export const TEST_CATALOG_JOB_KINDS = ['copy_live', 'delete_test_data'] as const;
export const TEST_CATALOG_JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;

/** The product list filter a copy takes: the merchant list's search, category, tags and status (or is_active). */
const TestCatalogCopyFilterInput = ProductFilterInput.pick({ search: true, category: true, tags: true, status: true, isActive: true }).strict();
type TestCatalogCopyFilter = z.input<typeof TestCatalogCopyFilterInput>;
type StoredFilter = z.output<typeof TestCatalogCopyFilterInput>;

export type TestCatalogJobRecord = Prisma.TestCatalogJobGetPayload<object>;

/** The filter as REST and events show it: every field, null when not used. Null for a job that takes no filter (delete). */
export function filterView(job: Pick<TestCatalogJobRecord, 'kind' | 'filter'>) {
  if (job.kind !== 'copy_live') return null;
  const f = (job.filter ?? {}) as StoredFilter;
  return { search: f.search ?? null, category: f.category ?? null, tags: f.tags ?? null, status: f.status ?? null, is_active: f.isActive ?? null };
}

/** A job as REST, the CLI and the job's events show it (the resume cursor and the lease are internal). */
export const testCatalogJobView = (j: TestCatalogJobRecord) => ({
  id: j.id,
  store_id: j.storeId,
  kind: j.kind,
  status: j.status,
  filter: filterView(j),
  total: j.total,
  done: j.done,
  skipped: j.skipped,
  error: j.error,
  requested_by: j.requestedBy,
  created_at: j.createdAt,
  started_at: j.startedAt,
  finished_at: j.finishedAt,
});

const EVENTS: Record<TestCatalogJobRecord['kind'], { started: EventType; completed: EventType; failed: EventType }> = {
  copy_live: { started: 'test_catalog.copy_started', completed: 'test_catalog.copy_completed', failed: 'test_catalog.copy_failed' },
  delete_test_data: { started: 'test_catalog.delete_started', completed: 'test_catalog.deleted', failed: 'test_catalog.delete_failed' },
};

function emitJobEvent(t: TransactionContext, which: 'started' | 'completed' | 'failed', job: TestCatalogJobRecord) {
  emit(t, { type: EVENTS[job.kind][which], storeId: job.storeId, mode: 'test', resource: { type: 'test_catalog_job', id: job.id }, data: testCatalogJobView(job) });
}

/** The live catalog of the store (the copy's source), whatever mode the request is in. */
const liveCatalog = (ctx: RequestContext): RequestContext => ({ ...ctx, mode: 'live' });

/**
 * Starts copying the store's live products matching `filter` (all when empty)
 * into its test catalog: checks the filter, counts the matches (more than
 * `maxProducts` is 422 too_many_products), and records the job (queued) with
 * its copy_started event. Nothing is copied in the request.
 * `maxProducts` is MAX_TEST_CATALOG_COPY; tests lower it instead of seeding 10,000 products.
 */
export async function startTestCatalogCopy(ctx: RequestContext, storeId: string, filterInput: TestCatalogCopyFilter = {}, opts: { maxProducts?: number } = {}) {
  const filter = normalizeFilter(parseInput(TestCatalogCopyFilterInput, filterInput));
  const max = opts.maxProducts ?? MAX_TEST_CATALOG_COPY;
  await assertStore(ctx, storeId);
  if (filter.category) await assertCategory(ctx, storeId, filter.category);
  // The list's own query, on the live catalog: page max+1 of one product makes it count exactly up to max+1 matches.
  const counted = await listProductIds(liveCatalog(ctx), storeId, filter, { page: max + 1, perPage: 1 }, 'created_at');
  if (counted.total > max) {
    throw new AppError(
      'too_many_products',
      `The filter matches ${counted.totalExact ? counted.total : `more than ${max}`} live products; one copy takes at most ${max}. Narrow it (search, category, tags, status) and copy in parts`,
      { details: { max_products: max } },
    );
  }
  return transaction(ctx, async (t) => {
    await lockStoreJobs(t, storeId);
    const job = await t.tx.testCatalogJob.create({
      data: { id: uuidv7(), storeId, kind: 'copy_live', filter: filter as Prisma.InputJsonObject, total: counted.total, createdAt: t.now(), requestedBy: actorOf(t.principal).name },
    });
    emitJobEvent(t, 'started', job);
    return job;
  });
}

/**
 * Starts deleting the store's test catalog: every test-mode product and what
 * hangs off it (see the module comment for what stays). A job like the copy,
 * since a large test catalog takes many statements; nothing is deleted in the request.
 */
export async function deleteTestData(ctx: RequestContext, storeId: string) {
  await assertStore(ctx, storeId);
  const total = await ctx.db.product.count({ where: { storeId, mode: 'test' } });
  return transaction(ctx, async (t) => {
    await lockStoreJobs(t, storeId);
    const job = await t.tx.testCatalogJob.create({
      data: { id: uuidv7(), storeId, kind: 'delete_test_data', total, createdAt: t.now(), requestedBy: actorOf(t.principal).name },
    });
    emitJobEvent(t, 'started', job);
    return job;
  });
}

export async function getTestCatalogJob(ctx: RequestContext, storeId: string, id: string) {
  if (!isUuid(id) || !isUuid(storeId)) throw notFound('Test catalog job');
  const job = await ctx.db.testCatalogJob.findFirst({ where: { id, storeId } });
  if (!job) throw notFound('Test catalog job');
  return job;
}

/** The store's latest JOBS_LISTED jobs, newest first. */
export async function listTestCatalogJobs(ctx: RequestContext, storeId: string) {
  if (!isUuid(storeId)) throw notFound('Store');
  return ctx.db.testCatalogJob.findMany({ where: { storeId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: JOBS_LISTED });
}

function normalizeFilter(f: StoredFilter): StoredFilter {
  const out: StoredFilter = {};
  if (f.search) out.search = f.search;
  if (f.category) out.category = f.category;
  if (f.tags?.length) out.tags = [...new Set(f.tags)];
  if (f.status) out.status = f.status;
  if (f.isActive !== undefined) out.isActive = f.isActive;
  return out;
}

async function assertStore(ctx: RequestContext, storeId: string) {
  if (!isUuid(storeId) || !(await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }))) throw notFound('Store');
}

/** A category filter naming no category of the store would copy nothing: 422, as a product naming it would be. */
async function assertCategory(ctx: RequestContext, storeId: string, slug: string) {
  if (await ctx.db.category.findFirst({ where: { storeId, slug }, select: { id: true } })) return;
  throw new AppError('unknown_category', `Unknown category slug: ${slug}`, {
    errors: [{ field: 'category', code: 'unknown_category', message: `no category with slug "${slug}" in this store` }],
    details: { unknown_slugs: [slug] },
  });
}

/**
 * Locks the store row, so that two requests for the same store queue here
 * instead of both seeing no job and both creating one, then refuses while a
 * job of the store is queued or running (409 conflict). FOR NO KEY UPDATE
 * leaves the foreign-key checks of the store's other writes (product inserts
 * take FOR KEY SHARE on it) free to go on meanwhile.
 */
async function lockStoreJobs(t: TransactionContext, storeId: string) {
  const rows = await t.tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM stores WHERE id = ${storeId}::uuid FOR NO KEY UPDATE`;
  if (!rows.length) throw notFound('Store');
  const active = await t.tx.testCatalogJob.findFirst({ where: { storeId, status: { in: ['queued', 'running'] } }, orderBy: { createdAt: 'asc' } });
  if (active) {
    throw new AppError('conflict', `A test catalog job of this store is ${active.status} (${active.kind} ${active.id}); wait until it has finished`, {
      details: { job_id: active.id },
    });
  }
}

// ---------------------------------------------------------------------------
// The runner (the worker's step, and the CLI's --wait)

/** A job this runner holds: its lease (the locked_until it wrote) is the token every batch checks. */
interface Lease {
  job: TestCatalogJobRecord;
  until: Date;
}

type BatchOutcome = 'more' | 'finished' | 'lost';

/**
 * Runs due test catalog jobs: claims a queued job, or a running one no runner
 * holds (its lease expired, or released at the end of a runner's turn), with
 * FOR UPDATE SKIP LOCKED, and runs up to `limit` batches, then releases the
 * job so the next poll (of any worker) goes on with it. `jobId` confines the
 * runner to one job (the CLI's --wait). Returns the batches run; 0 when
 * nothing was due. Safe on several instances at once.
 */
export async function runDueTestCatalogJobs(ctx: RequestContext, opts: { limit?: number; jobId?: string } = {}): Promise<number> {
  const limit = opts.limit ?? DEFAULT_RUN_LIMIT;
  if (opts.jobId !== undefined && !isUuid(opts.jobId)) return 0;
  // Usually nothing is due: one read, no transaction, on every poll of every worker.
  const [{ due }] = await ctx.db.$queryRaw<{ due: boolean }[]>`SELECT EXISTS (SELECT 1 FROM test_catalog_jobs WHERE ${claimable(ctx.now(), opts.jobId)}) AS due`;
  if (!due) return 0;
  let batches = 0;
  while (batches < limit) {
    const lease = await claimJob(ctx, opts.jobId);
    if (!lease) break;
    const log = ctx.log.child({ jobId: lease.job.id, storeId: lease.job.storeId, kind: lease.job.kind });
    for (;;) {
      let outcome: BatchOutcome;
      try {
        outcome = await runBatch(ctx, lease);
      } catch (err) {
        log.error({ err }, 'test catalog job failed');
        await failJob(ctx, lease, err);
        outcome = 'finished';
      }
      batches++;
      if (outcome === 'lost') log.warn('test catalog job taken over by another runner (its lease had expired); leaving it to that one');
      if (outcome !== 'more') break;
      if (batches >= limit) {
        await releaseJob(ctx, lease);
        break;
      }
    }
  }
  return batches;
}

const claimable = (now: Date, jobId?: string) =>
  Prisma.sql`(status = 'queued' OR (status = 'running' AND (locked_until IS NULL OR locked_until < ${now})))${jobId ? Prisma.sql` AND id = ${jobId}::uuid` : Prisma.empty}`;

async function claimJob(ctx: RequestContext, jobId?: string): Promise<Lease | null> {
  return transaction(ctx, async (t) => {
    const now = t.now();
    const rows = await t.tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM test_catalog_jobs WHERE ${claimable(now, jobId)}
      ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`;
    if (!rows.length) return null;
    const until = new Date(now.getTime() + JOB_LEASE_MS);
    const current = await t.tx.testCatalogJob.findUniqueOrThrow({ where: { id: rows[0].id } });
    const job = await t.tx.testCatalogJob.update({ where: { id: current.id }, data: { status: 'running', startedAt: current.startedAt ?? now, lockedUntil: until } });
    return { job, until };
  });
}

/**
 * The job row, locked for this batch's transaction, if this runner still holds
 * it; null when another runner has taken it over (this one's lease expired).
 */
async function heldJob(t: TransactionContext, lease: Lease): Promise<TestCatalogJobRecord | null> {
  await t.tx.$queryRaw`SELECT 1 FROM test_catalog_jobs WHERE id = ${lease.job.id}::uuid FOR UPDATE`;
  const job = await t.tx.testCatalogJob.findUnique({ where: { id: lease.job.id } });
  if (!job || job.status !== 'running' || job.lockedUntil?.getTime() !== lease.until.getTime()) return null;
  return job;
}

type Progress = { done: number; skipped: number; cursor?: string | null };

/**
 * Records a batch's progress in the batch's transaction: the job goes on (its
 * lease renewed) or, after the last batch, ends (succeeded; its total becomes
 * what it handled).
 */
async function recordProgress(t: TransactionContext, lease: Lease, progress: Progress, last: boolean): Promise<{ outcome: BatchOutcome; job: TestCatalogJobRecord; until: Date }> {
  if (last) {
    const job = await t.tx.testCatalogJob.update({
      where: { id: lease.job.id },
      data: { ...progress, total: progress.done + progress.skipped, status: 'succeeded', finishedAt: t.now(), lockedUntil: null },
    });
    emitJobEvent(t, 'completed', job);
    return { outcome: 'finished', job, until: lease.until };
  }
  const until = new Date(t.now().getTime() + JOB_LEASE_MS);
  const job = await t.tx.testCatalogJob.update({ where: { id: lease.job.id }, data: { ...progress, lockedUntil: until } });
  return { outcome: 'more', job, until };
}

/** Runs one batch's transaction; once it has committed, the lease follows the job's new state. */
async function batchTransaction(ctx: RequestContext, lease: Lease, work: (t: TransactionContext, job: TestCatalogJobRecord) => Promise<{ outcome: BatchOutcome; job: TestCatalogJobRecord; until: Date }>) {
  const result = await transaction(ctx, async (t) => {
    const job = await heldJob(t, lease);
    return job ? work(t, job) : null;
  });
  if (!result) return 'lost';
  lease.job = result.job;
  lease.until = result.until;
  return result.outcome;
}

/** Records the error that stopped the job (failed), unless another runner holds it now. */
async function failJob(ctx: RequestContext, lease: Lease, err: unknown) {
  const error =
    err instanceof AppError ? `${err.code}: ${err.message}` : 'internal_error: the job stopped on an unexpected error (the service log has the details); what it had done stays done';
  await transaction(ctx, async (t) => {
    const held = await heldJob(t, lease);
    if (!held) return;
    const job = await t.tx.testCatalogJob.update({ where: { id: held.id }, data: { status: 'failed', error, finishedAt: t.now(), lockedUntil: null } });
    emitJobEvent(t, 'failed', job);
  });
}

/** The end of this runner's turn: the job stays running, free for the next poll of any runner. */
async function releaseJob(ctx: RequestContext, lease: Lease) {
  await ctx.db.testCatalogJob.updateMany({ where: { id: lease.job.id, status: 'running', lockedUntil: lease.until }, data: { lockedUntil: null } });
}

async function runBatch(ctx: RequestContext, lease: Lease): Promise<BatchOutcome> {
  if (lease.job.kind === 'delete_test_data') return deleteBatch(ctx, lease);
  // A write in the test catalog between the check for SKU and slug clashes and the insert (a unique
  // violation) rolls the batch back; run again, the check sees it and skips that product.
  for (let attempt = 1; ; attempt++) {
    try {
      return await copyBatch(ctx, lease);
    } catch (e) {
      const index = violatedUniqueIndex(e);
      if (attempt >= 3 || !(index === 'variants_store_id_mode_sku_key' || index === 'product_seo_store_id_mode_slug_key' || index === 'product_translations_store_id_mode_locale_slug_key')) throw e;
    }
  }
}

/**
 * Copies the next live products of the job's filter (up to COPY_BATCH_SIZE, in
 * created_at order from the job's cursor, never more than MAX_TEST_CATALOG_COPY
 * in all) in one transaction that also moves the job's counters and cursor.
 * The products are those matching when the job runs.
 */
async function copyBatch(ctx: RequestContext, lease: Lease): Promise<BatchOutcome> {
  const { storeId } = lease.job;
  const filter = lease.job.filter as StoredFilter;
  const room = Math.max(0, MAX_TEST_CATALOG_COPY - lease.job.done - lease.job.skipped);
  // The next ids, read with the list's own query (outside the transaction: the live catalog is only read).
  const ids: string[] = [];
  let cursor = lease.job.cursor ?? undefined;
  let more = room > 0;
  while (more && ids.length < Math.min(COPY_BATCH_SIZE, room)) {
    const page = await listProductIdsAfter(liveCatalog(ctx), storeId, filter, { first: Math.min(100, COPY_BATCH_SIZE - ids.length, room - ids.length), after: cursor }, 'created_at');
    ids.push(...page.ids);
    cursor = page.cursors.at(-1) ?? cursor;
    more = page.hasNextPage;
  }
  const last = !more || ids.length >= room;

  return batchTransaction(ctx, lease, async (t, job) => {
    const { copied, skipped } = await copyProducts(t, storeId, ids);
    return recordProgress(t, lease, { done: job.done + copied, skipped: job.skipped + skipped, cursor: cursor ?? null }, last);
  });
}

/**
 * Copies live products into the test catalog: new ids, mode test, the same
 * fields (not the schedules: a copy is not published or unpublished by itself),
 * options, product type and attribute values (types and attributes are the
 * store's, shared by both modes), category links, variants with every field,
 * SEO record, image rows (pointing at the same stored files; a variant's
 * image is the copy's image row) and translations with their outdated marks. A product whose SKUs or SEO slug
 * (or a translated slug in its locale) the test catalog already holds (an earlier copy, or a test product made by hand) is skipped whole and
 * counted: a test product is a faithful copy of its live one or absent, never a
 * copy missing some variants. No product events (see the module comment).
 */
async function copyProducts(t: TransactionContext, storeId: string, ids: string[]) {
  if (!ids.length) return { copied: 0, skipped: 0 };
  const found = await t.tx.product.findMany({
    where: { id: { in: ids }, storeId, mode: 'live' },
    include: { categories: { select: { categoryId: true } }, variants: true, seo: true, images: true, translations: true },
  });
  // In the list's order (created_at), so the copies' ids (UUIDv7, increasing) keep the live catalog's order.
  const order = new Map(ids.map((id, i) => [id, i]));
  found.sort((a, b) => order.get(a.id)! - order.get(b.id)!);

  const skus = found.flatMap((p) => p.variants.map((v) => v.sku));
  const slugs = found.flatMap((p) => (p.seo?.slug ? [p.seo.slug] : []));
  const takenSkus = new Set(
    skus.length ? (await t.tx.variant.findMany({ where: { storeId, mode: 'test', sku: { in: skus } }, select: { sku: true } })).map((v) => v.sku) : [],
  );
  const takenSlugs = new Set(
    slugs.length ? (await t.tx.seo.findMany({ where: { storeId, mode: 'test', slug: { in: slugs } }, select: { slug: true } })).map((s) => s.slug) : [],
  );
  const translatedSlugs = found.flatMap((p) => p.translations.flatMap((x) => (x.slug ? [x.slug] : [])));
  const takenTranslatedSlugs = new Set(
    translatedSlugs.length
      ? (await t.tx.productTranslation.findMany({ where: { storeId, mode: 'test', slug: { in: translatedSlugs } }, select: { locale: true, slug: true } })).map((x) => `${x.locale} ${x.slug}`)
      : [],
  );
  const copies = found.filter(
    (p) =>
      !p.variants.some((v) => takenSkus.has(v.sku)) &&
      !(p.seo?.slug && takenSlugs.has(p.seo.slug)) &&
      !p.translations.some((x) => x.slug && takenTranslatedSlugs.has(`${x.locale} ${x.slug}`)),
  );

  const products: Prisma.ProductCreateManyInput[] = [];
  const categories: Prisma.ProductCategoryCreateManyInput[] = [];
  const variants: Prisma.VariantCreateManyInput[] = [];
  const seo: Prisma.SeoCreateManyInput[] = [];
  const images: Prisma.ProductImageCreateManyInput[] = [];
  const translations: Prisma.ProductTranslationCreateManyInput[] = [];
  for (const p of copies) {
    const id = uuidv7();
    products.push({
      id,
      storeId,
      mode: 'test',
      name: p.name,
      description: p.description,
      price: p.price,
      inventoryQuantity: p.inventoryQuantity,
      lowStockThreshold: p.lowStockThreshold,
      status: p.status,
      publishedAt: p.publishedAt,
      tags: p.tags,
      searchText: p.searchText,
      lowStock: p.lowStock,
      options: p.options as Prisma.InputJsonValue,
      // Product types are the store's, shared by both catalogs: the copy keeps its type and values.
      productTypeId: p.productTypeId,
      attributes: p.attributes as Prisma.InputJsonValue,
    });
    for (const c of p.categories) categories.push({ productId: id, categoryId: c.categoryId, mode: 'test' });
    // Image rows first: a variant's image_id names the copy's own row.
    const imageIds = new Map<string, string>();
    for (const i of p.images) {
      const imageId = uuidv7();
      imageIds.set(i.id, imageId);
      images.push({ id: imageId, storeId, productId: id, sha256: i.sha256, mimeType: i.mimeType, width: i.width, height: i.height, sizeBytes: i.sizeBytes, alt: i.alt, position: i.position });
    }
    for (const v of p.variants) {
      variants.push({
        storeId,
        productId: id,
        mode: 'test',
        sku: v.sku,
        title: v.title,
        options: v.options as Prisma.InputJsonValue,
        optionsKey: v.optionsKey,
        price: v.price,
        inventoryQuantity: v.inventoryQuantity,
        position: v.position,
        barcode: v.barcode,
        compareAtPrice: v.compareAtPrice,
        cost: v.cost,
        weightValue: v.weightValue,
        weightUnit: v.weightUnit,
        imageId: v.imageId && (imageIds.get(v.imageId) ?? null),
        attributes: v.attributes as Prisma.InputJsonValue,
      });
    }
    if (p.seo) {
      const { title, description, slug, canonicalUrl, ogImageUrl, noindex } = p.seo;
      seo.push({ storeId, productId: id, mode: 'test', title, description, slug, canonicalUrl, ogImageUrl, noindex });
    }
    for (const { productId: _from, mode: _mode, createdAt: _c, updatedAt: _u, options, attributes, ...x } of p.translations) {
      translations.push({ ...x, productId: id, mode: 'test', options: options as Prisma.InputJsonValue, attributes: attributes as Prisma.InputJsonValue });
    }
  }
  if (products.length) await t.tx.product.createMany({ data: products });
  if (categories.length) await t.tx.productCategory.createMany({ data: categories });
  if (images.length) await t.tx.productImage.createMany({ data: images });
  if (variants.length) await t.tx.variant.createMany({ data: variants });
  if (seo.length) await t.tx.seo.createMany({ data: seo });
  if (translations.length) await t.tx.productTranslation.createMany({ data: translations });
  await syncSmartMembership(t, storeId, products.map((p) => p.id!), 'test');
  // A product deleted since it was listed is neither copied nor skipped.
  return { copied: copies.length, skipped: found.length - copies.length };
}

/** Deletes the next DELETE_BATCH_SIZE test products of the store (cascades take the rest) with the job's progress. */
async function deleteBatch(ctx: RequestContext, lease: Lease): Promise<BatchOutcome> {
  const { storeId } = lease.job;
  return batchTransaction(ctx, lease, async (t, job) => {
    const batch = await t.tx.product.findMany({ where: { storeId, mode: 'test' }, select: { id: true }, take: DELETE_BATCH_SIZE });
    const { count } = batch.length ? await t.tx.product.deleteMany({ where: { id: { in: batch.map((p) => p.id) }, storeId, mode: 'test' } }) : { count: 0 };
    return recordProgress(t, lease, { done: job.done + count, skipped: job.skipped }, batch.length < DELETE_BATCH_SIZE);
  });
}
