/**
 * Smart collection membership, kept exact by every product write in its own transaction.
 *
 * A product write ends with one statement (syncSmartMembership) that evaluates every smart collection of the catalog
 * against the written products and inserts and deletes their membership rows. The catalog's rules are compiled once
 * per instance into that statement and cached by the catalog's rule version (collection_rule_versions), which the
 * statement reads FOR SHARE: a rule change holds the row (FOR UPDATE) from its version bump to its commit, so a product
 * write and a rule change never interleave, and a cache made from older rules sees the version it no longer matches,
 * recompiles and runs again. A rule change then recomputes the collection over the catalog: in its own transaction up
 * to COLLECTION_RECOMPUTE.inTransaction products, else through a job in batches (runDueCollectionRecomputes), the
 * collection showing `membership_state: recomputing` and its progress meanwhile.
 */

import { cacheBound, registerCache } from '../../platform/caches';
import type { RequestContext } from '../../platform/context';
import { Prisma } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { type CollectionRule, collectionPredicateSql, membershipRowsSql } from './collectionRules';

/** Catalogs larger than this recompute a rule change through a job; mutable so tests can reach the job path. */
export const COLLECTION_RECOMPUTE = { inTransaction: 10_000, batch: 1_000, leaseMs: 60_000 };

interface SmartCollection {
  id: string;
  rules: CollectionRule[];
  match: 'all' | 'any';
}

interface CompiledRules {
  version: number;
  collections: SmartCollection[];
  /** The sync statement's parts built once per version: the per-collection predicates, as VALUES rows. */
  predicates: Prisma.Sql | null;
  allRules: CollectionRule[];
}

const cache = new Map<string, CompiledRules>();
registerCache('collection_rules', () => cache.size);

async function compiledRules(t: TransactionContext, storeId: string, mode: Mode): Promise<CompiledRules> {
  const rows = await t.tx.$queryRaw<{ version: number; id: string | null; rules: CollectionRule[] | null; match: 'all' | 'any' | null }[]>`
    SELECT v.version, c.id::text AS id, c.rules, c.match::text AS match FROM collection_rule_versions v
    LEFT JOIN collections c ON c.store_id = v.store_id AND c.mode = v.mode AND c.kind = 'smart'
    WHERE v.store_id = ${storeId}::uuid AND v.mode = ${mode}::"Mode" ORDER BY c.id`;
  const collections = rows.filter((r) => r.id).map((r) => ({ id: r.id!, rules: r.rules ?? [], match: r.match ?? 'all' }));
  const compiled: CompiledRules = {
    version: rows[0]?.version ?? 0,
    collections,
    allRules: collections.flatMap((c) => c.rules),
    predicates: collections.length
      ? Prisma.join(collections.map((c) => Prisma.sql`(${c.id}::uuid, ${collectionPredicateSql(c.rules, c.match)})`), ', ')
      : null,
  };
  if (cache.size >= cacheBound('collection_rules')) cache.clear();
  cache.set(`${storeId}:${mode}`, compiled);
  return compiled;
}

type SyncRow = { op: 'version' | 'added' | 'removed'; collection_id: string | null; product_id: string | null; version: number | null };

function syncStatement(storeId: string, mode: Mode, productIds: string[], c: CompiledRules): Prisma.Sql {
  const version = Prisma.sql`SELECT v.version FROM collection_rule_versions v WHERE v.store_id = ${storeId}::uuid AND v.mode = ${mode}::"Mode" FOR SHARE`;
  if (!c.predicates) return Prisma.sql`SELECT 'version' AS op, NULL AS collection_id, NULL AS product_id, (${version}) AS version`;
  const ids = c.collections.map((x) => x.id);
  return Prisma.sql`
    WITH v AS MATERIALIZED (${version}),
    p AS MATERIALIZED (${membershipRowsSql(storeId, mode, c.allRules, Prisma.sql`p.id = ANY(${productIds}::uuid[]) AND (SELECT v.version FROM v) = ${c.version}`)}),
    want AS MATERIALIZED (SELECT p.id AS product_id, x.collection_id FROM p CROSS JOIN LATERAL (VALUES ${c.predicates}) x(collection_id, matches) WHERE x.matches),
    gone AS (DELETE FROM collection_products cp WHERE cp.product_id IN (SELECT p.id FROM p) AND cp.collection_id = ANY(${ids}::uuid[])
      AND NOT EXISTS (SELECT 1 FROM want w WHERE w.product_id = cp.product_id AND w.collection_id = cp.collection_id)
      RETURNING cp.collection_id, cp.product_id),
    added AS (INSERT INTO collection_products (collection_id, product_id, store_id, mode)
      SELECT w.collection_id, w.product_id, ${storeId}::uuid, ${mode}::"Mode" FROM want w ORDER BY 1, 2
      ON CONFLICT DO NOTHING RETURNING collection_id, product_id)
    SELECT 'version' AS op, NULL AS collection_id, NULL AS product_id, (SELECT v.version FROM v) AS version
    UNION ALL SELECT 'added', a.collection_id::text, a.product_id::text, NULL FROM added a
    UNION ALL SELECT 'removed', g.collection_id::text, g.product_id::text, NULL FROM gone g`;
}

/**
 * Brings the catalog's smart collections up to date with the written products, in the write's transaction: one
 * statement (two when the cached rules are stale). Records collection.products_added / collection.products_removed
 * for each collection whose membership changed.
 */
export async function syncSmartMembership(t: TransactionContext, storeId: string, productIds: string[], mode: Mode = t.mode): Promise<void> {
  if (!productIds.length) return;
  let compiled = cache.get(`${storeId}:${mode}`) ?? (await compiledRules(t, storeId, mode));
  for (let attempt = 0; ; attempt++) {
    const sql = syncStatement(storeId, mode, productIds, compiled);
    const rows = await t.tx.$queryRaw<SyncRow[]>(sql);
    const current = rows.find((r) => r.op === 'version')?.version ?? 0;
    if (current === compiled.version) return emitMembershipChanges(t, storeId, mode, rows);
    // Rules changed since the cache was made (here or on another instance): recompile and run again.
    if (attempt > 2) throw new Error('collection rules keep changing');
    compiled = await compiledRules(t, storeId, mode);
  }
}

function emitMembershipChanges(t: TransactionContext, storeId: string, mode: Mode, rows: SyncRow[]) {
  const by = new Map<string, { added: string[]; removed: string[] }>();
  for (const r of rows) {
    if (r.op === 'version') continue;
    const entry = by.get(r.collection_id!) ?? { added: [], removed: [] };
    entry[r.op].push(r.product_id!);
    by.set(r.collection_id!, entry);
  }
  for (const [collectionId, { added, removed }] of by) emitMembershipEvents(t, storeId, mode, collectionId, added, removed);
}

/**
 * The membership events of one collection: the products added and removed, by id (in the order added for a manual
 * add, with its position). `version`: the collection's after a manual operation; a smart collection's membership
 * changes with product writes and moves no version.
 */
export function emitMembershipEvents(
  t: TransactionContext,
  storeId: string,
  mode: Mode,
  collectionId: string,
  added: string[],
  removed: string[],
  extra: { position?: number; version?: number } = {},
) {
  const resource = { type: 'collection' as const, id: collectionId, version: extra.version ?? null };
  const at = extra.position !== undefined ? { position: extra.position } : {};
  if (added.length) emit(t, { type: 'collection.products_added', storeId, mode, resource, data: { id: collectionId, product_ids: added, ...at } });
  if (removed.length) emit(t, { type: 'collection.products_removed', storeId, mode, resource, data: { id: collectionId, product_ids: removed } });
}

/**
 * The start of a rule change (or a smart collection's creation or deletion), in its transaction: moves the catalog's
 * rule version and holds its row to the commit, so product writes wait for the change and then follow the new rules.
 */
export async function bumpRuleVersion(t: TransactionContext, storeId: string, mode: Mode): Promise<void> {
  await t.tx.$executeRaw`UPDATE collection_rule_versions SET version = version + 1 WHERE store_id = ${storeId}::uuid AND mode = ${mode}::"Mode"`;
}

/** How many products the catalog has (its counters): decides whether a recompute runs in the request. */
async function catalogSize(t: TransactionContext, storeId: string, mode: Mode): Promise<number> {
  const [row] = await t.tx.$queryRaw<{ n: bigint | number }[]>`
    SELECT coalesce(sum(count), 0) AS n FROM product_counts WHERE store_id = ${storeId}::uuid AND mode = ${mode}::"Mode"`;
  return Number(row.n);
}

/**
 * Membership of a collection over a range of the catalog (products with id > after, up to `limit` of them; all when
 * no limit) made to follow its rules: inserts and deletes, one statement. Returns the last product id examined and
 * how many were examined.
 */
async function recomputeRange(t: TransactionContext, c: SmartCollection & { storeId: string; mode: Mode }, after: string | null, limit: number | null) {
  const range = Prisma.sql`${after ? Prisma.sql`p.id > ${after}::uuid` : Prisma.sql`true`}`;
  const ids = Prisma.sql`SELECT p.id FROM products p WHERE p.store_id = ${c.storeId}::uuid AND p.mode = ${c.mode}::"Mode" AND ${range} ORDER BY p.id ${limit ? Prisma.sql`LIMIT ${limit}` : Prisma.empty}`;
  const [row] = await t.tx.$queryRaw<{ last: string | null; examined: bigint | number; added: bigint | number; removed: bigint | number }[]>`
    WITH r AS MATERIALIZED (${ids}),
    p AS MATERIALIZED (${membershipRowsSql(c.storeId, c.mode, c.rules, Prisma.sql`p.id IN (SELECT r.id FROM r)`)}),
    want AS MATERIALIZED (SELECT p.id FROM p WHERE ${collectionPredicateSql(c.rules, c.match)}),
    gone AS (DELETE FROM collection_products cp WHERE cp.collection_id = ${c.id}::uuid AND cp.product_id IN (SELECT r.id FROM r)
      AND cp.product_id NOT IN (SELECT w.id FROM want w) RETURNING 1),
    added AS (INSERT INTO collection_products (collection_id, product_id, store_id, mode)
      SELECT ${c.id}::uuid, w.id, ${c.storeId}::uuid, ${c.mode}::"Mode" FROM want w ORDER BY 2 ON CONFLICT DO NOTHING RETURNING 1)
    SELECT (SELECT max(r.id::text) FROM r) AS last, (SELECT count(*) FROM r) AS examined,
      (SELECT count(*) FROM added) AS added, (SELECT count(*) FROM gone) AS removed`;
  return { last: row.last, examined: Number(row.examined) };
}

/**
 * After a smart collection's rules changed (or it was made): the version moved (bumpRuleVersion), and membership
 * follows the rules at once for a catalog up to COLLECTION_RECOMPUTE.inTransaction products; a larger one is left to
 * the job (the collection shows `recomputing`). Returns the state it leaves.
 */
export async function recomputeAfterRuleChange(t: TransactionContext, c: SmartCollection & { storeId: string; mode: Mode }): Promise<'current' | 'recomputing'> {
  const size = await catalogSize(t, c.storeId, c.mode);
  if (size <= COLLECTION_RECOMPUTE.inTransaction) {
    await recomputeRange(t, c, null, null);
    await t.tx.collection.update({ where: { id: c.id }, data: { membershipState: 'current', recomputeDone: size, recomputeTotal: size, recomputeCursor: null, recomputeLockedUntil: null } });
    return 'current';
  }
  await t.tx.collection.update({ where: { id: c.id }, data: { membershipState: 'recomputing', recomputeDone: 0, recomputeTotal: size, recomputeCursor: null, recomputeLockedUntil: null } });
  return 'recomputing';
}

/**
 * Runs recompute jobs: takes one collection that is recomputing (FOR UPDATE SKIP LOCKED, its lease expired or none),
 * and brings a batch of the catalog to its rules per transaction, until done. Products written meanwhile already
 * follow the rules (their own writes' statement); a rule change meanwhile starts the walk over. Returns the number of
 * batches run.
 */
export async function runDueCollectionRecomputes(ctx: RequestContext, opts: { maxBatches?: number } = {}): Promise<number> {
  let batches = 0;
  const max = opts.maxBatches ?? Infinity;
  while (batches < max) {
    const more = await transaction(ctx, async (t) => {
      const now = t.now();
      const [job] = await t.tx.$queryRaw<{ id: string; store_id: string; mode: Mode; rules: CollectionRule[]; match: 'all' | 'any'; cursor: string | null; done: number; total: number }[]>`
        SELECT id::text AS id, store_id::text AS store_id, mode::text AS mode, rules, match::text AS match, recompute_cursor::text AS cursor,
          recompute_done AS done, recompute_total AS total
        FROM collections WHERE membership_state = 'recomputing' AND (recompute_locked_until IS NULL OR recompute_locked_until < ${now})
        ORDER BY updated_at LIMIT 1 FOR UPDATE SKIP LOCKED`;
      if (!job) return false;
      // A batch is a product write of the catalog as far as the rules go: it waits for a rule change to commit.
      await t.tx.$queryRaw`SELECT 1 FROM collection_rule_versions WHERE store_id = ${job.store_id}::uuid AND mode = ${job.mode}::"Mode" FOR SHARE`;
      const c = { id: job.id, storeId: job.store_id, mode: job.mode, rules: job.rules, match: job.match };
      const { last, examined } = await recomputeRange(t, c, job.cursor, COLLECTION_RECOMPUTE.batch);
      const finished = examined < COLLECTION_RECOMPUTE.batch;
      const done = job.done + examined;
      // No version move: the job's progress is no edit of the collection.
      await t.tx.$executeRaw`UPDATE collections SET recompute_cursor = ${last}::uuid, recompute_done = ${finished ? Math.max(done, job.total) : done},
        recompute_total = ${finished ? Math.max(done, job.total) : Math.max(done, job.total)},
        membership_state = ${finished ? 'current' : 'recomputing'}::"CollectionMembershipState", recompute_locked_until = NULL
        WHERE id = ${job.id}::uuid`;
      return true;
    });
    if (!more) break;
    batches++;
  }
  return batches;
}
