/** Stored image files and the images that use them: keeping a file for an upload, sweeping unused ones. */

import type { Prisma, PrismaClient } from '../../platform/db/client';
import type { FileStorage } from '../../platform/storage';

/**
 * A file is content-addressed (`<sha256>.<ext>`) and shared by every image with
 * the same bytes, in any store or mode; it is used while some `product_images`
 * row has its sha256. Removing an image leaves its file, and the sweep below
 * removes files no image uses any more.
 *
 * The race it must not lose: an upload finds its bytes already stored (an old
 * file whose last image was removed), skips the write, and records its image
 * just as the sweep decides the file is unused. Both sides therefore take the
 * same transaction-scoped advisory lock on the file's hash: the upload, while it
 * makes sure the file is there and inserts its row; the sweep, while it checks
 * for rows and deletes. Whichever comes second sees the other's result: the
 * sweep finds the row, or the upload finds the file gone and stores it again.
 */

/** The first key of the two-key advisory lock (pg_advisory_xact_lock(int, int)): this namespace, then hashtext(sha256). */
const FILE_LOCK_NAMESPACE = 0x66696c65; // 'file'

/**
 * Inside the transaction that records an image of `stored`'s bytes: holds the file's lock
 * until commit and stores the file again if a sweep removed it since `putFile`.
 */
export async function keepStoredFile(tx: Prisma.TransactionClient, storage: FileStorage, stored: { key: string; sha256: string }, localPath: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 AS held FROM pg_advisory_xact_lock(${FILE_LOCK_NAMESPACE}::int4, hashtext(${stored.sha256}))`;
  if (!(await storage.exists(stored.key))) await storage.putFile(localPath, stored.key.slice(stored.key.indexOf('.') + 1));
}

interface SweepResult {
  /** Files old enough to be considered. */
  examined: number;
  /** Files removed because no image uses them. */
  removed: number;
}

const SWEEP_BATCH = 500;

/**
 * Removes stored files that no image uses and that were written more than `minAgeMs` ago
 * (an upload in progress has written its file but not yet its row). Several workers may
 * sweep at once: a file locked by another sweep or an upload is left for the next run.
 */
export async function sweepUnusedFiles(db: PrismaClient, storage: FileStorage, opts: { minAgeMs: number; now: Date; dryRun?: boolean; stopped?: () => boolean }): Promise<SweepResult & { unused: string[] }> {
  const cutoff = opts.now.getTime() - opts.minAgeMs;
  const result = { examined: 0, removed: 0, unused: [] as string[] };
  let batch: string[] = [];
  const sweepBatch = async () => {
    const hashes = batch.map((key) => key.slice(0, 64));
    const used = await db.$queryRaw<{ sha256: string }[]>`SELECT DISTINCT sha256 FROM product_images WHERE sha256 = ANY(${hashes}::text[])`;
    const usedHashes = new Set(used.map((r) => r.sha256));
    for (const key of batch) {
      if (usedHashes.has(key.slice(0, 64))) continue;
      result.unused.push(key);
      if (!opts.dryRun && (await removeIfUnused(db, storage, key))) result.removed += 1;
    }
    batch = [];
  };
  for await (const file of storage.list()) {
    // A worker that is shutting down stops between files; the next run starts over.
    if (opts.stopped?.()) return result;
    if (file.modifiedAt.getTime() > cutoff) continue;
    result.examined += 1;
    batch.push(file.key);
    if (batch.length >= SWEEP_BATCH) await sweepBatch();
  }
  if (batch.length) await sweepBatch();
  return result;
}

/** Deletes the file under its lock if still no image uses it; false when it is in use or locked. */
async function removeIfUnused(db: PrismaClient, storage: FileStorage, key: string): Promise<boolean> {
  const sha256 = key.slice(0, 64);
  return db.$transaction(async (tx) => {
    const [{ locked }] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${FILE_LOCK_NAMESPACE}::int4, hashtext(${sha256})) AS locked`;
    if (!locked) return false;
    const inUse = await tx.productImage.findFirst({ where: { sha256 }, select: { id: true } });
    if (inUse) return false;
    await storage.delete(key);
    return true;
  });
}
