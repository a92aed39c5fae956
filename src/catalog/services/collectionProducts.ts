/**
 * A manual collection's product list, changed without resending it: add (at a position, else at the end), remove,
 * and move (to a position, or before or after another member). Positions are dense (0 to count - 1), so a list of
 * 5,000 moves with one UPDATE of the rows between the two places. Each operation locks the collection, moves its
 * version (the list is the collection's content, so If-Match applies) and records its event.
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { AppError, type FieldError, validationError } from '../../platform/errors';
import { transaction, type TransactionContext, emit } from '../../platform/outbox/outbox';
import { parseInput } from '../../platform/validation';
import { CATALOG_LIMITS, limitExceeded } from '../limits';
import { collectionRows, lockedCollection, type CollectionRow } from './collections';
import { emitMembershipEvents } from './collectionMembership';

const ProductIds = z.array(z.string().uuid('must be product ids')).min(1, 'name at least one product').max(CATALOG_LIMITS.productsPerManualCollection);
const Position = z.number().int().min(0);

export const AddProductsInput = z.object({ productIds: ProductIds, position: Position.optional() });
export const RemoveProductsInput = z.object({ productIds: ProductIds });
const Move = z
  .object({ productId: z.string().uuid('must be a product id'), position: Position.optional(), before: z.string().uuid().optional(), after: z.string().uuid().optional() })
  .refine((m) => [m.position, m.before, m.after].filter((v) => v !== undefined).length === 1, { message: 'give exactly one of position, before and after', path: ['position'] });
export const MoveProductsInput = z.object({ moves: z.array(Move).min(1).max(250) });

type Opts = { expectedVersion?: number | null };

const smartCollection = () =>
  new AppError('collection_is_smart', 'The collection is smart: its products follow its rules, they are not added, removed or moved by hand');

async function manualCollection(t: TransactionContext, storeId: string, ref: string, opts: Opts): Promise<CollectionRow> {
  const c = await lockedCollection(t, storeId, ref);
  if (opts.expectedVersion != null && opts.expectedVersion !== c.version) {
    throw new AppError('precondition_failed', `The collection was modified (version ${c.version}, expected ${opts.expectedVersion}); reload and retry`, { details: { current_version: c.version } });
  }
  if (c.kind === 'smart') throw smartCollection();
  return c;
}

/** The collection after an operation: a new version, read back. */
async function nextVersion(t: TransactionContext, id: string) {
  await t.tx.collection.update({ where: { id }, data: { version: { increment: 1 } } });
  const [after] = await collectionRows(t.tx, [id]);
  return after;
}

/** Adds products of the catalog (in the order given) at `position` (default: the end); members already in stay where they are. */
export async function addCollectionProducts(ctx: RequestContext, storeId: string, ref: string, input: z.input<typeof AddProductsInput>, opts: Opts = {}) {
  const data = parseInput(AddProductsInput, input);
  return transaction(ctx, async (t) => {
    const c = await manualCollection(t, storeId, ref, opts);
    const ids = [...new Set(data.productIds)];
    const found = await t.tx.$queryRaw<{ id: string; member: boolean }[]>`
      SELECT p.id::text AS id, EXISTS (SELECT 1 FROM collection_products cp WHERE cp.collection_id = ${c.id}::uuid AND cp.product_id = p.id) AS member
      FROM products p WHERE p.id = ANY(${ids}::uuid[]) AND p.store_id = ${storeId}::uuid AND p.mode = ${t.mode}::"Mode"`;
    const known = new Map(found.map((r) => [r.id, r.member]));
    const unknown: FieldError[] = data.productIds.flatMap((id, i) => (known.has(id) ? [] : [{ field: `productIds.${i}`, code: 'unknown_product', message: `no product ${id} in this catalog` }]));
    if (unknown.length) throw validationError(unknown);
    const added = ids.filter((id) => !known.get(id));
    if (!added.length) return c;
    if (c.productsCount + added.length > CATALOG_LIMITS.productsPerManualCollection) {
      throw limitExceeded(
        'productsPerManualCollection',
        `A manual collection holds at most ${CATALOG_LIMITS.productsPerManualCollection} products (it has ${c.productsCount}; this adds ${added.length})`,
      );
    }
    const at = Math.min(data.position ?? c.productsCount, c.productsCount);
    if (at < c.productsCount) {
      await t.tx.$executeRaw`UPDATE collection_products SET position = position + ${added.length} WHERE collection_id = ${c.id}::uuid AND position >= ${at}`;
    }
    await t.tx.$executeRaw`
      INSERT INTO collection_products (collection_id, product_id, store_id, mode, position)
      SELECT ${c.id}::uuid, x.id, ${storeId}::uuid, ${t.mode}::"Mode", ${at}::int + x.n::int - 1 FROM unnest(${added}::uuid[]) WITH ORDINALITY x(id, n)`;
    const after = await nextVersion(t, c.id);
    emitMembershipEvents(t, storeId, t.mode, c.id, added, [], { position: at, version: after.version });
    return after;
  });
}

/** Removes products from the list (those not in it are ignored); the rest close up. */
export async function removeCollectionProducts(ctx: RequestContext, storeId: string, ref: string, input: z.input<typeof RemoveProductsInput>, opts: Opts = {}) {
  const data = parseInput(RemoveProductsInput, input);
  return transaction(ctx, async (t) => {
    const c = await manualCollection(t, storeId, ref, opts);
    const removed = await t.tx.$queryRaw<{ id: string }[]>`
      DELETE FROM collection_products WHERE collection_id = ${c.id}::uuid AND product_id = ANY(${[...new Set(data.productIds)]}::uuid[]) RETURNING product_id::text AS id`;
    if (!removed.length) return c;
    // Dense again: each remaining row moves up by the removed rows before it (only rows after the first gap change).
    await t.tx.$executeRaw`
      UPDATE collection_products cp SET position = r.n - 1
      FROM (SELECT product_id, row_number() OVER (ORDER BY position, product_id) AS n FROM collection_products WHERE collection_id = ${c.id}::uuid) r
      WHERE cp.collection_id = ${c.id}::uuid AND cp.product_id = r.product_id AND cp.position <> r.n - 1`;
    const after = await nextVersion(t, c.id);
    emitMembershipEvents(t, storeId, t.mode, c.id, [], removed.map((r) => r.id), { version: after.version });
    return after;
  });
}

/**
 * Moves members, one after the other as listed: to a position (0 = first; past the end = last), or just before or
 * after another member. Every product named must be a member (422 not_a_member naming `moves.N.product_id`).
 */
export async function moveCollectionProducts(ctx: RequestContext, storeId: string, ref: string, input: z.input<typeof MoveProductsInput>, opts: Opts = {}) {
  const data = parseInput(MoveProductsInput, input);
  return transaction(ctx, async (t) => {
    const c = await manualCollection(t, storeId, ref, opts);
    const named = [...new Set(data.moves.flatMap((m) => [m.productId, m.before, m.after].filter((v): v is string => !!v)))];
    const members = new Set(
      (await t.tx.$queryRaw<{ id: string }[]>`SELECT product_id::text AS id FROM collection_products WHERE collection_id = ${c.id}::uuid AND product_id = ANY(${named}::uuid[])`).map((r) => r.id),
    );
    const errors: FieldError[] = data.moves.flatMap((m, i) =>
      (['productId', 'before', 'after'] as const).flatMap((k) =>
        m[k] && !members.has(m[k]!) ? [{ field: `moves.${i}.${k}`, code: 'not_a_member', message: `product ${m[k]} is not in the collection` }] : [],
      ),
    );
    if (errors.length) throw validationError(errors);
    const moved: { product_id: string; from: number; to: number }[] = [];
    for (const m of data.moves) {
      const [row] = await t.tx.$queryRaw<{ from: number; ref: number | null }[]>`
        SELECT cp.position AS from, (SELECT r.position FROM collection_products r WHERE r.collection_id = cp.collection_id AND r.product_id = ${m.before ?? m.after ?? null}::uuid) AS ref
        FROM collection_products cp WHERE cp.collection_id = ${c.id}::uuid AND cp.product_id = ${m.productId}::uuid`;
      const last = c.productsCount - 1;
      let to = m.position !== undefined ? Math.min(m.position, last) : row.ref!;
      if (m.before) to = row.from < row.ref! ? row.ref! - 1 : row.ref!;
      if (m.after) to = row.from < row.ref! ? row.ref! : row.ref! + 1;
      if (to === row.from) continue;
      // The rows between the two places shift by one toward the gap; the product takes its place.
      await t.tx.$executeRaw`
        UPDATE collection_products SET position = CASE WHEN product_id = ${m.productId}::uuid THEN ${to}::int
          WHEN ${to}::int < ${row.from}::int THEN position + 1 ELSE position - 1 END
        WHERE collection_id = ${c.id}::uuid AND position BETWEEN ${Math.min(to, row.from)}::int AND ${Math.max(to, row.from)}::int`;
      moved.push({ product_id: m.productId, from: row.from, to });
    }
    if (!moved.length) return c;
    const after = await nextVersion(t, c.id);
    emit(t, { type: 'collection.products_moved', storeId, mode: t.mode, resource: { type: 'collection', id: c.id, version: after.version }, data: { id: c.id, moves: moved } });
    return after;
  });
}
