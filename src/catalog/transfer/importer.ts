/** Bulk import: creating and updating products from a file through the services, in batches. */

import { syncSmartMembership } from '../services/collectionMembership';
import type { RequestContext } from '../../platform/context';
import { STAGEABLE_PRODUCT_FIELDS } from '../services/stagedContent';
import { Prisma, type PrismaClient } from '../../platform/db/client';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { isUuid } from '../../kernel/ids';
import { ConcurrentWrite, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { signalWorkPending } from '../../platform/outbox/signal';
import { AppError, type FieldError, notFound, validationError } from '../../platform/errors';
import { storePriceErrors } from '../services/prices';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import {
  attributesAfterWrite,
  categoriesToLink,
  categoryRequired,
  emitProductEvent,
  newProductRow,
  ProductCreateInput,
  ProductUpdateInput,
  unknownCategories,
  updateChangesNothing,
  updateProduct,
  type ProductUpdate,
} from '../services/products';
import { PRODUCT_VIEW_INCLUDE } from '../services/views';
import { sameSeo, SeoInput, seoRecord, setSeo } from '../services/seo';
import { fieldErrorsOf, parseInput } from '../../platform/validation';
import { optionsOfVariantSet, parseVariants, productRuleErrors, replaceVariants, sameVariants, VariantInput, variantRow } from '../services/variants';
import { optionsOf, OptionsInput, parseOptions, type ProductOption, sameOptions, setProductOptions } from '../services/options';
import { type ExportRow, type ImportRow, type RowError, reportErrors, toImportRow, type TransferFormat } from './format';
import { ImportFileError, type ReadItem, readRecords } from './reader';
import { lockedStoreLocales } from '../services/translations';
import type { ProductTranslation } from '../services/translationRows';
import { checkProductTranslations, IN_PRODUCT_WRITE, writeProductTranslations } from '../services/productTranslationWrites';
import { changedTranslations, inFileNames } from './translations';

/**
 * Bulk import: creates or updates products from a CSV or JSON Lines stream,
 * row by row, in batches, with the services' own validation and events: a
 * created product records product.created, an updated one the events of the
 * writes it took (product.updated, product.variants_replaced,
 * product.seo_updated), an unchanged one none; every event goes through the
 * outbox in the transaction of its write, as for any other write.
 *
 * Which product a row is: `id` (a product of the store's catalog in the
 * request's mode, else the row is rejected), else `sku` (the product holding
 * a variant with that SKU; none: a new product), else a new product.
 *
 * Error policies (Saleor's errorPolicy):
 * - reject_failed_rows: each batch is its own transaction; a bad row is left
 *   out (its writes rolled back to a savepoint) and reported, the others are
 *   imported.
 * - reject_everything: the whole file is one transaction, committed only when
 *   no row failed; the report lists every bad row either way.
 * A dry run is one transaction rolled back at the end: it reports exactly what
 * the import would do (including what earlier rows change for later ones) and
 * leaves nothing behind, events included.
 */

export const ERROR_POLICIES = ['reject_everything', 'reject_failed_rows'] as const;
export type ErrorPolicy = (typeof ERROR_POLICIES)[number];

/** Rows per batch: per transaction under reject_failed_rows, per lookup and outbox flush otherwise. */
const IMPORT_BATCH_SIZE = 200;
/** Errors a summary (and a job) keeps; errorCount counts them all. */
export const MAX_REPORTED_ERRORS = 1000;
/** How long a whole-file transaction (reject_everything, dry runs) may stay open. */
export const WHOLE_FILE_TIMEOUT_MS = 30 * 60_000;

export interface ImportCounts {
  /** Data rows read (good and bad). */
  rows: number;
  created: number;
  updated: number;
  /** Rows that matched a product and changed nothing (no new version, no event). */
  unchanged: number;
  /** Rows with at least one error. */
  rejected: number;
  errorCount: number;
}

interface ImportSummary extends ImportCounts {
  dryRun: boolean;
  errorPolicy: ErrorPolicy;
  /** Whether the writes were kept: false for a dry run, and for reject_everything with any error (then nothing was imported). */
  committed: boolean;
  /** The first MAX_REPORTED_ERRORS row errors, in row order. */
  errors: RowError[];
  warnings: RowError[];
}

interface ImportOptions {
  format: TransferFormat;
  dryRun?: boolean;
  errorPolicy?: ErrorPolicy;
  maxRows: number;
  /** reject_failed_rows: rows an earlier run of the same import has committed; they are read and skipped. */
  resumeAfterRow?: number;
  /** Counts so far (an earlier run's), to go on from. */
  resumeCounts?: ImportCounts;
  onProgress?: (p: ImportCounts & { bytes: number }) => void;
  /** Every row error, as found (the CLI writes the full report to a file). */
  onError?: (e: RowError) => void;
  /**
   * Runs in the transaction that commits a batch (reject_failed_rows), or the
   * whole file's (reject_everything, dry runs, at the end): a job records its
   * progress atomically with the rows it counts.
   */
  onCommit?: (t: TransactionContext, p: { counts: ImportCounts; lastRow: number; newErrors: RowError[]; warnings: RowError[]; final: boolean }) => Promise<void>;
}

/** The file: its bytes, or a way to read them through a database client (a file stored in the database). */
type ImportSource = AsyncIterable<Uint8Array> | ((db: Prisma.TransactionClient | PrismaClient) => AsyncIterable<Uint8Array>);

/** Thrown to roll a whole-file transaction back (dry run, or errors under reject_everything). */
class RollBack extends Error {}

type Existing = Omit<ExportRow, 'variants'> & {
  storeId: string;
  mode: 'live' | 'test';
  variants: (ExportRow['variants'][number] & { optionsKey: string })[];
  translations: ProductTranslation[];
};

const EXISTING_INCLUDE = {
  categories: { select: { category: { select: { slug: true } } } },
  productType: { select: { name: true } },
  variants: { orderBy: [{ position: 'asc' }, { sku: 'asc' }] },
  seo: true,
  translations: true,
} as const satisfies Prisma.ProductInclude;

/** Imports the stream into the store's catalog of ctx.mode. File errors throw ImportFileError (after what reject_failed_rows had committed). */
export async function importProducts(ctx: RequestContext, storeId: string, source: ImportSource, opts: ImportOptions): Promise<ImportSummary> {
  if (!isUuid(storeId) || !(await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }))) throw notFound('Store');
  const policy = opts.errorPolicy ?? 'reject_everything';
  const dryRun = !!opts.dryRun;
  const counts: ImportCounts = { ...(opts.resumeCounts ?? { rows: 0, created: 0, updated: 0, unchanged: 0, rejected: 0, errorCount: 0 }) };
  const errors: RowError[] = [];
  const warnings: RowError[] = [];
  let bytes = 0;
  /** An error already counted: kept in the summary (up to the cap) and passed on. */
  const keep = (e: RowError) => {
    if (errors.length < MAX_REPORTED_ERRORS) errors.push(e);
    opts.onError?.(e);
  };
  const byRow = (list: RowError[]) => list.sort((a, b) => a.row - b.row);
  const seenKeys = new Set<string>();
  let records: AsyncGenerator<ReadItem> | undefined;
  /** The file's records, read through `db` when the source is stored in the database. */
  const open = (db: Prisma.TransactionClient | PrismaClient) =>
    (records = readRecords(typeof source === 'function' ? source(db) : source, {
      format: opts.format,
      maxRows: opts.maxRows,
      onBytes: (n) => void (bytes = n),
      onWarning: (w) => void warnings.push(w),
    }));
  const skipThrough = opts.resumeAfterRow ?? 0;

  /** The next batch of rows to write; rows that fail conversion are reported here. */
  async function nextBatch(): Promise<{ rows: ImportRow[]; lastRow: number; done: boolean; errors: RowError[] }> {
    const rows: ImportRow[] = [];
    const found: RowError[] = [];
    const report = (e: RowError) => {
      counts.errorCount++;
      found.push(e);
    };
    let lastRow = 0;
    let read = 0;
    for (;;) {
      const next = await records!.next();
      if (next.done) return { rows, lastRow, done: true, errors: found };
      const item = next.value;
      lastRow = item.row;
      if (item.row <= skipThrough) continue;
      counts.rows++;
      read++;
      if ('error' in item) {
        counts.rejected++;
        report(item.error);
      } else {
        const converted = toImportRow(item.row, item.record);
        if ('errors' in converted) {
          counts.rejected++;
          [...converted.errors, ...ruleErrors(converted.partial, converted.errors)].forEach(report);
        } else {
          const key = converted.ok.id ? `id:${converted.ok.id}` : converted.ok.sku ? `sku:${converted.ok.sku}` : null;
          if (key && seenKeys.has(key)) {
            counts.rejected++;
            report({ row: item.row, field: key.startsWith('id:') ? 'id' : 'sku', code: 'duplicate_in_file', message: `an earlier row of the file names the same product (${key.replace(':', ' ')})` });
          } else {
            if (key) seenKeys.add(key);
            rows.push(converted.ok);
          }
        }
      }
      if (read >= IMPORT_BATCH_SIZE) return { rows, lastRow, done: false, errors: found };
    }
  }

  const progress = () => opts.onProgress?.({ ...counts, bytes });
  const summary = (committed: boolean): ImportSummary => ({ ...counts, dryRun, errorPolicy: policy, committed, errors, warnings });

  if (dryRun || policy === 'reject_everything') {
    let flushed = false;
    let runs = 0;
    try {
      await transaction(
        ctx,
        async (t) => {
          // The file is read once: a unit that transaction() would run again (a deadlock outside every row) cannot be.
          if (++runs > 1) throw new AppError('conflict', 'The import met a concurrent write it could not retry; nothing was imported; run it again');
          // Inside the transaction: on PGlite's one session a read beside it would wait for it to end.
          open(t.tx);
          for (;;) {
            const batch = await nextBatch();
            const written: RowError[] = [];
            await writeBatch(t, storeId, batch.rows, counts, (e) => void written.push(e));
            counts.errorCount += written.length;
            byRow([...batch.errors, ...written]).forEach(keep);
            // The events of the batch go to the outbox table now (same transaction), so memory stays flat.
            if (t.outbox.length) {
              await t.tx.event.createMany({ data: t.outbox });
              t.outbox.length = 0;
              flushed = true;
            }
            progress();
            if (batch.done) break;
          }
          if (dryRun || counts.rejected > 0) throw new RollBack();
          await opts.onCommit?.(t, { counts, lastRow: counts.rows, newErrors: errors, warnings, final: true });
        },
        { timeoutMs: WHOLE_FILE_TIMEOUT_MS },
      );
    } catch (e) {
      if (e instanceof RollBack) return summary(false);
      throw e;
    }
    if (flushed) signalWorkPending();
    return summary(true);
  }

  open(ctx.db);
  for (;;) {
    const batch = await nextBatch();
    const before = { ...counts };
    let found: RowError[] = [];
    await transaction(
      ctx,
      async (t) => {
        // A re-run (after a concurrent write) starts again from the counts before the batch.
        Object.assign(counts, before);
        const written: RowError[] = [];
        await writeBatch(t, storeId, batch.rows, counts, (e) => void written.push(e));
        counts.errorCount += written.length;
        found = byRow([...batch.errors, ...written]);
        await opts.onCommit?.(t, { counts, lastRow: batch.lastRow, newErrors: found, warnings, final: batch.done });
      },
      { timeoutMs: 5 * 60_000 },
    );
    found.forEach(keep);
    progress();
    if (batch.done) break;
  }
  return summary(true);
}

type Outcome = 'created' | 'updated' | 'unchanged';

/** Writes the rows of one batch inside t, each behind a savepoint: a failing row is rolled back alone, counted and reported. */
async function writeBatch(outer: TransactionContext, storeId: string, rows: ImportRow[], counts: ImportCounts, report: (e: RowError) => void) {
  if (!rows.length) return;
  // What the services read through ctx.db goes through the transaction too (PGlite has one session: a read
  // outside the open transaction would wait for it forever). The outbox is the same array.
  const t: TransactionContext = { ...outer, db: outer.tx as unknown as PrismaClient };
  // The store's locales held first, as every translation write holds them before its product's lock (a locale
  // removal waits for the batch, or the batch finds the locale gone).
  if (rows.some((r) => r.translations)) await lockedStoreLocales(t, storeId);
  const { byId, bySku } = await existingProducts(t, storeId, rows);
  const categories = await categoryIds(t, storeId, rows);
  const types = await productTypeIds(t, storeId, rows);
  const failures: RowError[] = [];
  const fail = (row: ImportRow, e: unknown) => {
    const found = rowErrors(row.row, e);
    if (!found) throw e;
    counts.rejected++;
    failures.push(...found);
  };
  const creates: PreparedCreate[] = [];
  for (const row of rows) {
    const existing = row.id ? (byId.get(row.id) ?? null) : row.sku ? bySku.get(row.sku) : undefined;
    if (existing === undefined) {
      try {
        creates.push(await prepareCreate(t, storeId, row, categories, types));
      } catch (e) {
        fail(row, e);
      }
      continue;
    }
    const outcome = await withSavepoint(t, () => (existing === null ? Promise.reject(new AppError('not_found', 'Product not found')) : updateRow(t, storeId, row, existing, categories, types)));
    if ('error' in outcome) fail(row, outcome.error);
    else counts[outcome.value]++;
  }
  // Most rows: one statement per table for the whole batch. Should one fail (a write that raced the checks in
  // freeOfClashes), the batch's creates go again one by one, so only the row at fault is rejected.
  const clean = await freeOfClashes(t, storeId, creates, fail);
  const together = await withSavepoint(t, () => insertCreates(t, storeId, clean));
  if ('error' in together) {
    for (const c of clean) {
      const one = await withSavepoint(t, () => insertCreates(t, storeId, [c]));
      if ('error' in one) fail(c.row, one.error);
      else counts.created++;
    }
  } else counts.created += clean.length;
  failures.sort((a, b) => a.row - b.row).forEach(report);
}

/** Runs fn behind a savepoint: on failure the transaction is as before it (its events too), and the error is returned. */
async function withSavepoint<T>(t: TransactionContext, fn: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
  const mark = t.outbox.length;
  await t.tx.$executeRawUnsafe('SAVEPOINT import_row');
  try {
    const value = await fn();
    await t.tx.$executeRawUnsafe('RELEASE SAVEPOINT import_row');
    return { value };
  } catch (error) {
    await t.tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT import_row');
    t.outbox.length = mark;
    return { error };
  }
}

/** The products rows name, by id and by SKU, read once per batch. */
async function existingProducts(t: TransactionContext, storeId: string, rows: ImportRow[]) {
  const ids = rows.flatMap((r) => (r.id && isUuid(r.id) ? [r.id] : []));
  const skus = rows.flatMap((r) => (!r.id && r.sku ? [r.sku] : []));
  const skuRows = skus.length ? await t.tx.variant.findMany({ where: { storeId, mode: t.mode, sku: { in: skus } }, select: { sku: true, productId: true } }) : [];
  const wanted = [...new Set([...ids, ...skuRows.map((v) => v.productId)])];
  const products = wanted.length
    ? ((await t.tx.product.findMany({ where: { id: { in: wanted }, storeId, mode: t.mode }, include: EXISTING_INCLUDE })) as unknown as Existing[])
    : [];
  const byId = new Map(products.map((p) => [p.id, p]));
  const bySku = new Map(skuRows.flatMap((v) => (byId.has(v.productId) ? [[v.sku, byId.get(v.productId)!] as const] : [])));
  return { byId, bySku };
}

/** The store's category ids of every slug the batch names, held until its links are written (categoriesToLink). */
async function categoryIds(t: TransactionContext, storeId: string, rows: ImportRow[]) {
  const slugs = [...new Set(rows.flatMap((r) => r.product.categorySlugs ?? []))];
  const found = slugs.length ? await categoriesToLink(t.tx, storeId, slugs) : [];
  return new Map(found.map((c) => [c.slug, c.id]));
}

/** The store's product type ids of every type name the batch names. */
async function productTypeIds(t: TransactionContext, storeId: string, rows: ImportRow[]) {
  const names = [...new Set(rows.flatMap((r) => (r.productType ? [r.productType] : [])))];
  const found = names.length ? await t.tx.productType.findMany({ where: { storeId, name: { in: names } }, select: { id: true, name: true } }) : [];
  return new Map(found.map((pt) => [pt.name, pt.id]));
}

/**
 * The product type id a row sets (null: none; undefined: the row leaves it as it is), or a report entry for a
 * name the store has no type of.
 */
function productTypeOf(row: ImportRow, types: Map<string, string>, checks: ReturnType<typeof rowChecks>): string | null | undefined {
  if (!row.productType) return row.productType;
  const id = types.get(row.productType);
  if (!id) checks.report({ field: 'product_type', code: 'unknown_product_type', message: `no product type named "${row.productType}" in this store` });
  return id;
}

/**
 * The rules' errors of the cells that did convert, for a row that is rejected for the cells that did not: the
 * row's every problem is reported at once. Each field's own rules (ProductUpdateInput's): whether the row
 * creates or updates a product is not known yet.
 */
function ruleErrors(row: ImportRow, converted: RowError[]): RowError[] {
  const errors = [
    ...reportErrors(row.row, 'product', fieldErrorsOf(ProductUpdateInput, row.product)),
    ...(row.variants ?? []).flatMap((v, i) => reportErrors(row.row, 'variants', fieldErrorsOf(VariantInput, v).map((e) => ({ ...e, field: `variants.${i}.${e.field}` })))),
    ...(row.seo ? reportErrors(row.row, 'seo', fieldErrorsOf(SeoInput, row.seo)) : []),
    ...(row.options ? reportErrors(row.row, 'product', fieldErrorsOf(z.object({ options: OptionsInput }), { options: row.options })) : []),
  ];
  const failed = new Set(converted.map((e) => e.field));
  return errors.filter((e) => !failed.has(e.field));
}

/** Which part of the row a service call was writing, so its field errors name the file's columns. */
class PartError extends Error {
  constructor(
    readonly part: 'product' | 'variants' | 'seo' | 'translations',
    readonly error: unknown,
  ) {
    super('row part failed');
  }
}

async function inPart<T>(part: 'product' | 'variants' | 'seo' | 'translations', fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw new PartError(part, e);
  }
}

/** Every error of a row, found before anything of it is written. */
class RowRejected extends Error {
  constructor(readonly errors: RowError[]) {
    super('row rejected');
  }
}

/**
 * The checks of one row: each failing check adds its report entries and the next one runs all the same, so a
 * row reports all its errors at once (a bad price and an unknown category together); done() throws them.
 */
function rowChecks(row: number) {
  const errors: RowError[] = [];
  return {
    async check<T>(part: 'product' | 'variants' | 'seo' | 'translations', fn: () => Promise<T> | T): Promise<T | undefined> {
      try {
        return await fn();
      } catch (e) {
        const found = rowErrors(row, new PartError(part, e));
        if (!found) throw e;
        errors.push(...found);
        return undefined;
      }
    },
    report: (e: Omit<RowError, 'row'>) => void errors.push({ row, ...e }),
    done() {
      if (errors.length) throw new RowRejected(errors);
    },
  };
}

/** The ids of the row's category slugs, from the batch's categories by slug; none, or a slug the store has no category for, throws as the product services do. */
function linkedCategories(slugs: string[], categories: Map<string, string>): string[] {
  const wanted = [...new Set(slugs)];
  if (!wanted.length) throw categoryRequired();
  const unknown = wanted.filter((s) => !categories.has(s));
  if (unknown.length) throw unknownCategories(unknown);
  return wanted.map((s) => categories.get(s)!);
}

/** A row's failure as report entries; null for an error that is not the row's (a lost connection): the import stops. */
function rowErrors(row: number, e: unknown): RowError[] | null {
  if (e instanceof RowRejected) return e.errors;
  const part = e instanceof PartError ? e.part : 'product';
  const err = e instanceof PartError ? e.error : e;
  if (err instanceof AppError) {
    if (err.code === 'not_found') return [{ row, field: 'id', code: 'not_found', message: 'no product with this id in the catalog' }];
    if (err.errors?.length) return reportErrors(row, part, err.errors);
    const field = err.code === 'sku_taken' ? 'variants' : err.code === 'slug_taken' ? 'seo_slug' : part === 'product' ? '(row)' : part === 'seo' ? 'seo_slug' : part;
    return [{ row, field, code: err.code, message: err.message }];
  }
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2034') {
    return [{ row, field: '(row)', code: 'conflict', message: 'the row met a concurrent write (deadlock); import it again' }];
  }
  if (err instanceof ConcurrentWrite) return [{ row, field: '(row)', code: 'conflict', message: 'the product changed while it was imported; import the row again' }];
  const index = violatedUniqueIndex(err);
  if (index === 'variants_store_id_mode_sku_key') return [{ row, field: 'variants', code: 'sku_taken', message: 'a SKU of this row is already used by another product of this store' }];
  if (index === 'variants_product_id_options_key_key') return [{ row, field: 'variants', code: 'duplicate_options', message: 'two variants have the same options' }];
  if (index === 'product_seo_store_id_mode_slug_key') return [{ row, field: 'seo_slug', code: 'slug_taken', message: 'already used by another product of this store' }];
  return null;
}

interface PreparedCreate {
  row: ImportRow;
  id: string;
  data: ReturnType<typeof ProductCreateInput.parse>;
  variants: ReturnType<typeof parseVariants>;
  options: ProductOption[];
  /** The product type and attribute values, as createProduct sets them. */
  attributes?: { productTypeId: string | null; attributes: Record<string, unknown> };
  seo?: ReturnType<typeof SeoInput.parse>;
  categoryIds: string[];
}

/**
 * A new product's row checked as createProduct, replaceVariants and setSeo check theirs, every part of it: its
 * attributes against its type, its variants against its options (grown by what they use, as a replace grows
 * them) and the rules they keep to the product. Nothing is written.
 */
async function prepareCreate(t: TransactionContext, storeId: string, row: ImportRow, categories: Map<string, string>, types: Map<string, string>): Promise<PreparedCreate> {
  const id = uuidv7();
  const checks = rowChecks(row.row);
  const productTypeId = productTypeOf(row, types, checks);
  const data = await checks.check('product', () => parseInput(ProductCreateInput, { ...row.product, productTypeId: productTypeId ?? undefined }));
  // Prices in currencies the store does not sell in (an update's are updateProduct's and replaceVariants' check).
  await checks.check('product', async () => refuseAny(await storePriceErrors(t, storeId, [{ input: row.product.prices, field: 'prices' }])));
  await checks.check('variants', async () => refuseAny(await storePriceErrors(t, storeId, (row.variants ?? []).map((v, i) => ({ input: v.prices, field: `variants.${i}.prices` })))));
  const categoryIds = await checks.check('product', () => linkedCategories(row.product.categorySlugs ?? [], categories));
  // An unknown type is reported above; checking values without it would only add noise.
  const attributes = data && (productTypeId !== undefined || !row.productType) ? await checks.check('product', () => attributesAfterWrite(t, storeId, NO_ATTRIBUTES, data)) : undefined;
  const declared = row.options === undefined ? [] : await checks.check('product', () => parseOptions(row.options));
  const variants = await checks.check('variants', () => parseVariants(row.variants ?? (row.sku ? [{ sku: row.sku }] : [])));
  if (variants && row.sku && !variants.some((v) => v.sku === row.sku)) {
    checks.report({ field: 'sku', code: 'sku_not_in_variants', message: `"${row.sku}" is not the SKU of any of the row's variants` });
  }
  let options: ProductOption[] = [];
  if (variants && declared) {
    const fields = variants.map((v, i) => ({ ...v, field: `variants.${i}` }));
    const set = optionsOfVariantSet(declared, fields);
    options = set.options;
    const rules = data ? await productRuleErrors(t, { id, storeId, price: data.price, productTypeId: attributes?.productTypeId ?? null }, fields) : undefined;
    const errors = [...set.errors, ...(rules?.errors ?? [])];
    if (errors.length) await checks.check('variants', () => Promise.reject(validationError(errors)));
    // Stored as the API stores them: normalised (rich text sanitized, multiselects in the attribute's order).
    rules?.attributes.forEach((values, i) => {
      if (values !== undefined) variants[i].attributes = values as (typeof variants)[number]['attributes'];
    });
  }
  const seo = row.seo ? await checks.check('seo', () => parseInput(SeoInput, row.seo)) : undefined;
  // Checked with the rest of the row once its options are known (unknown options would only add noise before).
  const translations = row.translations && variants && declared ? changedTranslations(row.translations, []) : undefined;
  if (translations) {
    const product = { id, storeId, mode: t.mode, options, productTypeId: attributes?.productTypeId ?? null };
    const store = await lockedStoreLocales(t, storeId);
    await checks.check('translations', () => inFileNames(row.translations, () => checkProductTranslations(t, store, product, translations, IN_PRODUCT_WRITE)));
  }
  checks.done();
  return { row, id, data: data!, variants: variants!, options, attributes, seo, categoryIds: categoryIds! };
}

const refuseAny = (errors: FieldError[]) => {
  if (errors.length) throw validationError(errors);
};

/** What a new product starts from before its type and attribute values are set. */
const NO_ATTRIBUTES = { productTypeId: null, attributes: {} };

/**
 * The creates whose SKUs and SEO slug no product of the catalog holds, nor an earlier row of the batch; the
 * others are rejected (sku_taken, slug_taken) as the unique indexes would reject them.
 */
async function freeOfClashes(t: TransactionContext, storeId: string, creates: PreparedCreate[], fail: (row: ImportRow, e: unknown) => void) {
  const skus = creates.flatMap((c) => c.variants.map((v) => v.sku));
  const slugs = creates.flatMap((c) => (c.seo?.slug ? [c.seo.slug] : []));
  const takenSkus = new Set(skus.length ? (await t.tx.variant.findMany({ where: { storeId, mode: t.mode, sku: { in: skus } }, select: { sku: true } })).map((v) => v.sku) : []);
  const takenSlugs = new Set(slugs.length ? (await t.tx.seo.findMany({ where: { storeId, mode: t.mode, slug: { in: slugs } }, select: { slug: true } })).map((v) => v.slug!) : []);
  const clean: PreparedCreate[] = [];
  for (const c of creates) {
    const clash = c.variants.findIndex((v) => takenSkus.has(v.sku));
    if (clash >= 0) {
      fail(c.row, new PartError('variants', new AppError('sku_taken', 'SKU already used', {
        errors: [{ field: `variants.${clash}.sku`, code: 'sku_taken', message: `SKU "${c.variants[clash].sku}" is already used by another product (or an earlier row)` }],
      })));
    } else if (c.seo?.slug && takenSlugs.has(c.seo.slug)) {
      fail(c.row, new AppError('slug_taken', `The slug "${c.seo.slug}" is already used by another product (or an earlier row)`));
    } else {
      clean.push(c);
      for (const v of c.variants) takenSkus.add(v.sku);
      if (c.seo?.slug) takenSlugs.add(c.seo.slug);
    }
  }
  return clean;
}

/**
 * New products with their categories, variants and SEO records, one statement per table, each recorded as
 * product.created with the product as createProduct records it.
 */
async function insertCreates(t: TransactionContext, storeId: string, creates: PreparedCreate[]) {
  if (!creates.length) return;
  const now = t.now();
  const mode = t.mode;
  await t.tx.product.createMany({
    data: creates.map(({ id, data, variants, options, attributes }) => ({
      id,
      ...newProductRow(storeId, mode, data, now, variants.map((v) => v.sku)),
      options: options as unknown as Prisma.InputJsonValue,
      productTypeId: attributes?.productTypeId ?? null,
      attributes: (attributes?.attributes ?? {}) as Prisma.InputJsonObject,
    })),
  });
  await t.tx.productCategory.createMany({ data: creates.flatMap((c) => c.categoryIds.map((categoryId) => ({ productId: c.id, categoryId, mode }))) });
  const variants = creates.flatMap((c) => c.variants.map((v) => variantRow(storeId, c.id, mode, v)));
  if (variants.length) await t.tx.variant.createMany({ data: variants });
  const seo = creates.flatMap(({ id, seo: x }) => (x ? [{ storeId, productId: id, mode, ...seoRecord(x) }] : []));
  if (seo.length) await t.tx.seo.createMany({ data: seo });
  await writeCreatedTranslations(t, storeId, creates);
  await syncSmartMembership(t, storeId, creates.map((c) => c.id));
  const rows = await t.tx.product.findMany({ where: { id: { in: creates.map((c) => c.id) } }, include: PRODUCT_VIEW_INCLUDE });
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const c of creates) emitProductEvent(t, 'product.created', byId.get(c.id)!);
}

/** Whether an update of the row changes a field a staged version holds (stock, status and the like are never staged). */
function stagedFieldsChange(existing: Existing, input: ProductUpdate): boolean {
  const { attributes, ...rest } = input;
  const sent = rest as Record<string, unknown>;
  const fields = Object.fromEntries(STAGEABLE_PRODUCT_FIELDS.filter((k) => k !== 'attributes' && sent[k] !== undefined).map((k) => [k, sent[k]]));
  const stored = existing.attributes as Record<string, unknown>;
  const attributesChange = attributes !== undefined && Object.entries(attributes).some(([code, v]) => JSON.stringify(v ?? null) !== JSON.stringify(stored[code] ?? null));
  try {
    return attributesChange || !updateChangesNothing(existing, fields);
  } catch {
    return true;
  }
}

/**
 * An existing product through the services that change it, each only when the row changes its part, compared
 * as the services compare (prices by value, categories as a set, no SEO record as one of nulls): an untouched
 * row writes nothing. Every part is checked before the first write, so a bad row reports all its errors.
 * The attributes cell is the product's whole set: a code it leaves out is cleared.
 */
async function updateRow(
  t: TransactionContext,
  storeId: string,
  row: ImportRow,
  existing: Existing,
  categories: Map<string, string>,
  types: Map<string, string>,
): Promise<Outcome> {
  const checks = rowChecks(row.row);
  const productTypeId = productTypeOf(row, types, checks);
  const input = { ...row.product } as ProductUpdate;
  if (productTypeId !== undefined || row.productType === null) input.productTypeId = productTypeId ?? null;
  if (row.product.attributes !== undefined) {
    const cleared = Object.keys(existing.attributes as Record<string, unknown>).filter((code) => !(code in row.product.attributes!));
    input.attributes = { ...Object.fromEntries(cleared.map((code) => [code, null])), ...row.product.attributes };
  }
  const sameProduct = await checks.check('product', () => updateChangesNothing(existing, input));
  if (sameProduct === false && (input.productTypeId !== undefined || input.attributes !== undefined) && !(row.productType && productTypeId === undefined)) {
    await checks.check('product', () => attributesAfterWrite(t, storeId, existing, input as Parameters<typeof attributesAfterWrite>[3]));
  }
  if (input.categorySlugs !== undefined) await checks.check('product', () => linkedCategories(input.categorySlugs!, categories));
  const options = row.options === undefined ? undefined : await checks.check('product', () => parseOptions(row.options));
  // A variant without `cost` (an export by a credential that may not read it) keeps the cost its SKU has.
  const costs = new Map(existing.variants.map((v) => [v.sku, v.cost?.toString() ?? null]));
  const variantsIn = row.variants?.map((v) => ('cost' in v || typeof v.sku !== 'string' ? v : { ...v, cost: costs.get(v.sku.trim()) ?? null }));
  const wanted = variantsIn === undefined ? undefined : await checks.check('variants', () => parseVariants(variantsIn));
  const variantsChange = wanted !== undefined && !sameVariants(existing.variants, wanted);
  if (variantsChange) {
    // Checked first: after a unique violation the transaction answers nothing until it is rolled back to the row's savepoint.
    const taken = await t.tx.variant.findMany({ where: { storeId, mode: t.mode, sku: { in: wanted.map((v) => v.sku) }, productId: { not: existing.id } }, select: { sku: true } });
    for (const v of taken) {
      checks.report({ field: `variants.${wanted.findIndex((w) => w.sku === v.sku)}.sku`, code: 'sku_taken', message: `SKU "${v.sku}" is already used by another product` });
    }
  }
  // The row's SEO columns over the record as it is: a column left out keeps its value.
  const seo = row.seo ? await checks.check('seo', () => seoRecord(parseInput(SeoInput, { ...seoRecord(existing.seo), ...row.seo }))) : undefined;
  // Only what differs from the stored translations; checked here when the row leaves the options as they are,
  // else by their write (after the options'), as they are then.
  const translations = row.translations && changedTranslations(row.translations, existing.translations);
  if (translations && row.options === undefined && !variantsChange) {
    const product = { ...existing, productTypeId: input.productTypeId !== undefined ? input.productTypeId : existing.productTypeId };
    const store = await lockedStoreLocales(t, storeId);
    await checks.check('translations', () => inFileNames(row.translations, () => checkProductTranslations(t, store, product, translations, IN_PRODUCT_WRITE)));
  }
  // An import writes the current product: one with staged changes takes it only where nothing staged changes (docs/staged-changes.md).
  const touchesStaged =
    (sameProduct === false && stagedFieldsChange(existing, input)) || variantsChange || (options && !sameOptions(optionsOf(existing.options), options)) || (seo && !sameSeo(existing.seo, seo));
  if (existing.hasStagedChanges && touchesStaged) {
    checks.report({ field: 'id', code: 'staged_changes_pending', message: 'the product has staged changes: publish or discard them first, or write it with apply_to=both' });
  }
  checks.done();

  const mark = t.outbox.length;
  if (sameProduct === false) await inPart('product', () => updateProduct(t, storeId, existing.id, input));
  // The variants first: a replace grows the options by the values it uses; the options then take the row's
  // order, and lose what no variant uses any more.
  if (variantsChange) await inPart('variants', () => replaceVariants(t, storeId, existing.id, variantsIn));
  if (options && (variantsChange || !sameOptions(optionsOf(existing.options), options))) await inPart('product', () => setProductOptions(t, storeId, existing.id, options));
  if (seo && !sameSeo(existing.seo, seo)) await inPart('seo', () => setSeo(t, storeId, existing.id, seo));
  // Last, against the options and type as the row leaves them.
  if (translations) await inPart('translations', () => inFileNames(row.translations, () => updateProduct(t, storeId, existing.id, { translations })));
  return t.outbox.length > mark ? 'updated' : 'unchanged';
}

/**
 * The translations of new products, through the product write's own (checked in prepareCreate; a translated slug
 * taken meanwhile fails the batch's insert, whose creates then go one by one, so its row alone is rejected).
 */
async function writeCreatedTranslations(t: TransactionContext, storeId: string, creates: PreparedCreate[]) {
  const translated = creates.flatMap((c) => {
    const input = c.row.translations && changedTranslations(c.row.translations, []);
    return input ? [{ c, input }] : [];
  });
  if (!translated.length) return;
  const store = await lockedStoreLocales(t, storeId);
  for (const { c, input } of translated) {
    const product = { id: c.id, storeId, mode: t.mode, options: c.options, productTypeId: c.attributes?.productTypeId ?? null };
    await inPart('translations', () => inFileNames(c.row.translations, () => writeProductTranslations(t, store, product, input, { replace: false, names: IN_PRODUCT_WRITE })));
  }
}

export { ImportFileError };
