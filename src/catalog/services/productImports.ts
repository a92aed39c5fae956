/** Bulk product imports as background jobs: queueing a file, running it, reporting on it; and export checks. */

import { v7 as uuidv7 } from 'uuid';
import type { RequestContext } from '../../platform/context';
import { Prisma, type PrismaClient } from '../../platform/db/client';
import type { EventSource } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import type { Principal } from '../../kernel/principal';
import { actorOf, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { signalWorkPending } from '../../platform/outbox/signal';
import { AppError, notFound } from '../../platform/errors';
import { checkListFilter, type ProductFilter } from './productList';
import { type RowError, TRANSFER_FORMATS, type TransferFormat } from '../transfer/format';
import { ERROR_POLICIES, type ErrorPolicy, type ImportCounts, importProducts, MAX_REPORTED_ERRORS, WHOLE_FILE_TIMEOUT_MS } from '../transfer/importer';
import { ImportFileError, readRecords } from '../transfer/reader';

/**
 * Product imports as background jobs (table product_imports). The request
 * checks the file (encoding, header, size and row limits: a file error is 422
 * validation_failed with the file error's code on `file`, before anything is queued)
 * and stores it in product_import_chunks in the same transaction as the job:
 * every instance reaches the database, so any worker can run the job, and a
 * restarted one resumes it; the chunks are deleted when the job ends. (Object
 * storage would serve too, but is optional; a file of at most
 * IMPORT_MAX_BYTES in 1 MiB rows costs the database little for the minutes it
 * is kept.)
 *
 * A worker claims a queued job (or one whose runner's lease expired) with FOR
 * UPDATE SKIP LOCKED and imports it with the requester's principal, mode and
 * entry point, so the products' events name who asked for the import.
 * reject_failed_rows commits each batch with the job's progress (a job taken
 * over goes on after the last committed batch); reject_everything and dry runs
 * are one transaction, so their counts appear when they end, and a job taken
 * over starts them again.
 */

export const PRODUCT_IMPORT_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
/** Bytes per stored chunk of an uploaded file. */
const CHUNK_BYTES = 1024 * 1024;
/** How long a runner holds a reject_failed_rows job between batches. */
const IMPORT_LEASE_MS = 2 * 60_000;
/** productImports lists the store's latest imports. */
export const IMPORTS_LISTED = 50;

export type ProductImportRecord = Prisma.ProductImportGetPayload<object>;

interface ImportRequest {
  format: TransferFormat;
  dryRun?: boolean;
  errorPolicy?: ErrorPolicy;
  fileName: string;
}

/** The failure of a job as the API shows it. */
export interface ImportFailure {
  code: string;
  message: string;
  row?: number | null;
}

/** The principal as stored with the job: what its events need to name it, never a secret. */
function storedPrincipal(p: Principal): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(p)) as Prisma.InputJsonObject;
}

function checkRequest(r: ImportRequest) {
  const errors = [];
  if (!(TRANSFER_FORMATS as readonly string[]).includes(r.format)) errors.push({ field: 'format', code: 'invalid_enum_value', message: `must be one of ${TRANSFER_FORMATS.join(', ')}` });
  if (r.errorPolicy !== undefined && !(ERROR_POLICIES as readonly string[]).includes(r.errorPolicy)) {
    errors.push({ field: 'errorPolicy', code: 'invalid_enum_value', message: `must be one of ${ERROR_POLICIES.join(', ')}` });
  }
  if (errors.length) throw new AppError('validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });
}

/** An import file that cannot be read, as the API answers it: 422 validation_failed, the file error's code on the field `file`. */
function fileProblem(e: ImportFileError): AppError {
  return new AppError('validation_failed', `file: ${e.message}`, { errors: [{ field: 'file', code: e.code, message: e.message }], details: e.row ? { row: e.row } : undefined });
}

/**
 * Checks and stores the file and queues its import (in ctx.mode's catalog).
 * Over `maxBytes`: 413 payload_too_large; unreadable (encoding, header, CSV
 * syntax, more than IMPORT_MAX_ROWS rows): 422 validation_failed with the file error's code on `file`.
 */
export async function startProductImport(ctx: RequestContext, storeId: string, file: AsyncIterable<Uint8Array>, request: ImportRequest): Promise<ProductImportRecord> {
  checkRequest(request);
  if (!isUuid(storeId) || !(await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }))) throw notFound('Store');
  const { maxBytes, maxRows } = ctx.config.imports;
  return transaction(
    ctx,
    async (t) => {
      const id = uuidv7();
      const job = await t.tx.productImport.create({
        data: {
          id,
          storeId,
          mode: t.mode,
          format: request.format,
          dryRun: !!request.dryRun,
          errorPolicy: request.errorPolicy ?? 'reject_everything',
          fileName: request.fileName.slice(0, 255),
          fileBytes: 0,
          rowsTotal: 0,
          principal: storedPrincipal(t.principal),
          source: t.source,
          requestedBy: actorOf(t.principal).name,
          createdAt: t.now(),
        },
      });
      let bytes = 0;
      let seq = 0;
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        if (!pendingBytes) return;
        await t.tx.productImportChunk.create({ data: { importId: id, seq: seq++, data: Buffer.concat(pending) as Uint8Array<ArrayBuffer> } });
        pending = [];
        pendingBytes = 0;
      };
      async function* stored(): AsyncGenerator<Uint8Array> {
        for await (const chunk of file) {
          bytes += chunk.length;
          if (bytes > maxBytes) throw new AppError('payload_too_large', `Import files are limited to ${maxBytes} bytes`, { details: { max_bytes: maxBytes } });
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes >= CHUNK_BYTES) await flush();
          yield chunk;
        }
        await flush();
      }
      let rows = 0;
      try {
        for await (const _ of readRecords(stored(), { format: request.format, maxRows })) rows++;
      } catch (e) {
        if (e instanceof ImportFileError) throw fileProblem(e);
        throw e;
      }
      return t.tx.productImport.update({ where: { id: job.id }, data: { fileBytes: bytes, rowsTotal: rows } });
    },
    { timeoutMs: 5 * 60_000 },
  ).then((job) => {
    // The worker of this process may start on it at once.
    signalWorkPending();
    return job;
  });
}

export async function getProductImport(ctx: RequestContext, storeId: string, id: string) {
  if (!isUuid(id) || !isUuid(storeId)) throw notFound('Product import');
  const job = await ctx.db.productImport.findFirst({ where: { id, storeId } });
  if (!job) throw notFound('Product import');
  return job;
}

/** The store's latest IMPORTS_LISTED imports, newest first. */
export async function listProductImports(ctx: RequestContext, storeId: string) {
  if (!isUuid(storeId)) throw notFound('Store');
  return ctx.db.productImport.findMany({ where: { storeId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: IMPORTS_LISTED });
}

/** Whether the import's writes were kept: it succeeded and was no dry run. */
export const importCommitted = (j: Pick<ProductImportRecord, 'status' | 'dryRun'>) => j.status === 'succeeded' && !j.dryRun;

// ---------------------------------------------------------------------------
// The runner (the worker's step)

const claimable = (now: Date, jobId?: string) =>
  Prisma.sql`(status = 'queued' OR (status = 'running' AND (locked_until IS NULL OR locked_until < ${now})))${jobId ? Prisma.sql` AND id = ${jobId}::uuid` : Prisma.empty}`;

/** The stored file, one chunk per read, through `db` (the transaction that reads it, if any). */
async function* storedFile(db: Prisma.TransactionClient | PrismaClient, importId: string): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const chunk = await db.productImportChunk.findUnique({ where: { importId_seq: { importId, seq } } });
    if (!chunk) return;
    yield chunk.data;
  }
}

/**
 * Runs one due import to its end, if there is one: claims it (FOR UPDATE SKIP
 * LOCKED), imports it, records the outcome. Returns 1 when it ran one, else 0.
 * Safe on several instances at once.
 */
export async function runDueProductImports(ctx: RequestContext, opts: { jobId?: string } = {}): Promise<number> {
  if (opts.jobId !== undefined && !isUuid(opts.jobId)) return 0;
  const [{ due }] = await ctx.db.$queryRaw<{ due: boolean }[]>`SELECT EXISTS (SELECT 1 FROM product_imports WHERE ${claimable(ctx.now(), opts.jobId)}) AS due`;
  if (!due) return 0;
  const lease = await claim(ctx, opts.jobId);
  if (!lease) return 0;
  await runJob(ctx, lease);
  return 1;
}

interface Lease {
  job: ProductImportRecord;
  until: Date;
}

const wholeFile = (j: ProductImportRecord) => j.dryRun || j.errorPolicy === 'reject_everything';

async function claim(ctx: RequestContext, jobId?: string): Promise<Lease | null> {
  return transaction(ctx, async (t) => {
    const now = t.now();
    const rows = await t.tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM product_imports WHERE ${claimable(now, jobId)} ORDER BY created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`;
    if (!rows.length) return null;
    const current = await t.tx.productImport.findUniqueOrThrow({ where: { id: rows[0].id } });
    // A whole-file import is one transaction: its lease outlasts that transaction's own time limit.
    const until = new Date(now.getTime() + (wholeFile(current) ? WHOLE_FILE_TIMEOUT_MS + 60_000 : IMPORT_LEASE_MS));
    const restart = wholeFile(current) ? { rowsProcessed: 0, created: 0, updated: 0, unchanged: 0, rejected: 0, errorCount: 0, errors: [], warnings: [], committedRows: 0 } : {};
    const job = await t.tx.productImport.update({ where: { id: current.id }, data: { status: 'running', startedAt: current.startedAt ?? now, lockedUntil: until, ...restart } });
    return { job, until };
  });
}

/** The job row locked for this transaction, if this runner still holds it. */
async function held(t: TransactionContext, lease: Lease) {
  await t.tx.$queryRaw`SELECT 1 FROM product_imports WHERE id = ${lease.job.id}::uuid FOR UPDATE`;
  const job = await t.tx.productImport.findUnique({ where: { id: lease.job.id } });
  if (!job || job.status !== 'running' || job.lockedUntil?.getTime() !== lease.until.getTime()) return null;
  return job;
}

const countsOf = (j: ProductImportRecord): ImportCounts => ({
  rows: j.rowsProcessed,
  created: j.created,
  updated: j.updated,
  unchanged: j.unchanged,
  rejected: j.rejected,
  errorCount: j.errorCount,
});

const countColumns = (c: ImportCounts) => ({ rowsProcessed: c.rows, created: c.created, updated: c.updated, unchanged: c.unchanged, rejected: c.rejected, errorCount: c.errorCount });

async function runJob(ctx: RequestContext, lease: Lease) {
  const job = lease.job;
  const log = ctx.log.child({ importId: job.id, storeId: job.storeId });
  // The import acts as whoever asked for it, in the catalog and through the entry point they used.
  const jobCtx: RequestContext = { ...ctx, principal: job.principal as unknown as Principal, mode: job.mode, source: job.source as EventSource, requestId: job.id };
  const whole = wholeFile(job);
  let lost = false;
  try {
    const summary = await importProducts(jobCtx, job.storeId, (db) => storedFile(db, job.id), {
      format: job.format as TransferFormat,
      dryRun: job.dryRun,
      errorPolicy: job.errorPolicy as ErrorPolicy,
      maxRows: Number.MAX_SAFE_INTEGER,
      resumeAfterRow: whole ? 0 : job.committedRows,
      resumeCounts: whole ? undefined : countsOf(job),
      onCommit: async (t, p) => {
        const current = await held(t, lease);
        if (!current) {
          lost = true;
          throw new AppError('conflict', 'The import was taken over by another runner');
        }
        const errors = [...(current.errors as unknown as RowError[]), ...p.newErrors].slice(0, MAX_REPORTED_ERRORS);
        const until = p.final ? null : new Date(t.now().getTime() + IMPORT_LEASE_MS);
        await t.tx.productImport.update({
          where: { id: job.id },
          data: {
            ...countColumns(p.counts),
            errors: errors as unknown as Prisma.InputJsonArray,
            warnings: p.warnings as unknown as Prisma.InputJsonArray,
            committedRows: p.lastRow,
            lockedUntil: until,
            ...(p.final ? { status: 'succeeded', finishedAt: t.now() } : {}),
          },
        });
        if (until) lease.until = until;
        if (p.final) await t.tx.productImportChunk.deleteMany({ where: { importId: job.id } });
      },
    });
    if (!summary.committed) {
      // A dry run, or reject_everything with rejected rows: nothing was written; the job records what was found.
      const failure: ImportFailure | null = summary.dryRun
        ? null
        : { code: 'rows_rejected', message: `${summary.rejected} row(s) were rejected, so nothing was imported (error policy reject_everything)` };
      await finish(ctx, lease, { ...countColumns(summary), errors: summary.errors, warnings: summary.warnings, failure });
    }
  } catch (e) {
    if (lost) return log.warn('product import taken over by another runner (its lease had expired); leaving it to that one');
    const failure: ImportFailure =
      e instanceof ImportFileError
        ? { code: e.code, message: e.message, row: e.row ?? null }
        : e instanceof AppError
          ? { code: e.code, message: e.message }
          : { code: 'internal_error', message: 'the import stopped on an unexpected error (the service log has the details); what reject_failed_rows had committed stays' };
    if (!(e instanceof ImportFileError || e instanceof AppError)) log.error({ err: e }, 'product import failed');
    await finish(ctx, lease, { failure });
  }
}

/** Ends the job (succeeded without a failure, else failed) and deletes its file, unless another runner holds it now. */
async function finish(ctx: RequestContext, lease: Lease, data: Partial<ReturnType<typeof countColumns>> & { errors?: RowError[]; warnings?: RowError[]; failure: ImportFailure | null }) {
  await transaction(ctx, async (t) => {
    if (!(await held(t, lease))) return;
    const { failure, errors, warnings, ...counts } = data;
    await t.tx.productImport.update({
      where: { id: lease.job.id },
      data: {
        ...counts,
        ...(errors ? { errors: errors as unknown as Prisma.InputJsonArray } : {}),
        ...(warnings ? { warnings: warnings as unknown as Prisma.InputJsonArray } : {}),
        failure: failure ? (failure as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
        status: failure ? 'failed' : 'succeeded',
        finishedAt: t.now(),
        lockedUntil: null,
      },
    });
    await t.tx.productImportChunk.deleteMany({ where: { importId: lease.job.id } });
  });
}

/** Checks an export's filter (422 on a bad one) and that the store exists, before a byte is streamed. */
export async function checkExport(ctx: RequestContext, storeId: string, filter: ProductFilter) {
  if (!isUuid(storeId) || !(await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }))) throw notFound('Store');
  await checkListFilter(storeId, filter);
}
