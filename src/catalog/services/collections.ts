/**
 * The collection service: a catalog's collections (manual or smart), created, read, listed, updated under the
 * product's version rules (If-Match), published and deleted, with their events; and their translations.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import type { EventType } from '../../kernel/events';
import type { Mode } from '../../kernel/access';
import { isUuid } from '../../kernel/ids';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, type FieldError, notFound, validationError } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { fieldErrorsOf, parseInput } from '../../platform/validation';
import { CATALOG_LIMITS, limitExceeded } from '../limits';
import { slug } from './slugs';
import { type CollectionRule, checkRules, RulesInput } from './collectionRules';
import { bumpRuleVersion, recomputeAfterRuleChange } from './collectionMembership';
import { BY_LOCALE } from './views';
import { lockedStoreLocales, translationChanges, translationLocale } from './translations';

export const COLLECTION_KINDS = ['manual', 'smart'] as const;
export const COLLECTION_MATCHES = ['all', 'any'] as const;
export const COLLECTION_SORTS = ['manual', 'newest', 'name', 'price_asc', 'price_desc'] as const;
export type CollectionSort = (typeof COLLECTION_SORTS)[number];

const Title = z.string().trim().min(1, 'must not be empty').max(255);
const Fields = {
  title: Title,
  slug: slug(200),
  description: z.string().max(20_000),
  rules: RulesInput,
  match: z.enum(COLLECTION_MATCHES),
  sort: z.enum(COLLECTION_SORTS),
  published: z.boolean(),
};
export const CollectionCreateInput = z.object({ ...Fields, kind: z.enum(COLLECTION_KINDS), slug: Fields.slug.optional(), description: Fields.description.default('') }).partial({
  rules: true,
  match: true,
  sort: true,
  published: true,
});
export const CollectionUpdateInput = z.object({ ...Fields, kind: z.enum(COLLECTION_KINDS) }).partial();
export type CollectionCreate = z.input<typeof CollectionCreateInput>;
export type CollectionUpdate = z.input<typeof CollectionUpdateInput>;

/** A collection row as the representation needs it: with its product count (the counters) and translations. */
export type CollectionRow = Prisma.CollectionGetPayload<{ include: typeof BY_LOCALE }> & { productsCount: number };

/** The slug a title gives when none is sent: "Summer sale!" → "summer-sale". */
const slugOf = (title: string) =>
  title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200)
    .replace(/-+$/, '') || 'collection';

/** A collection as REST shows it (and its events carry). */
export function collectionView(c: CollectionRow) {
  return {
    id: c.id,
    title: c.title,
    slug: c.slug,
    description: c.description,
    kind: c.kind,
    rules: c.rules as unknown as CollectionRule[],
    match: c.match,
    sort: c.sort,
    published: c.published,
    published_at: c.publishedAt,
    products_count: c.productsCount,
    membership: { state: c.membershipState, done: c.recomputeDone, total: c.recomputeTotal },
    version: c.version,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    translations: Object.fromEntries(
      c.translations.map((r) => [r.locale, { title: r.title, description: r.description, outdated: r.outdatedFields.length > 0, outdated_fields: r.outdatedFields, updated_at: r.updatedAt }]),
    ),
  };
}

type Db = Pick<Prisma.TransactionClient, 'collection' | '$queryRaw'>;

/** Collections by id with their counts (two statements whatever their number), in the order of ids. */
export async function collectionRows(db: Db, ids: string[]): Promise<CollectionRow[]> {
  if (!ids.length) return [];
  const [rows, counts] = await Promise.all([
    db.collection.findMany({ where: { id: { in: ids } }, include: BY_LOCALE }),
    db.$queryRaw<{ id: string; n: bigint | number }[]>`
      SELECT collection_id::text AS id, sum(count) AS n FROM collection_product_counts WHERE collection_id = ANY(${ids}::uuid[]) GROUP BY 1`,
  ]);
  const count = new Map(counts.map((c) => [c.id, Number(c.n)]));
  const byId = new Map(rows.map((r) => [r.id, { ...r, productsCount: count.get(r.id) ?? 0 }]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

export const collectionNotFound = () => notFound('Collection');

/** The collection of the request's catalog, by id or slug (404 otherwise). */
export async function findCollection(ctx: RequestContext, storeId: string, ref: string): Promise<CollectionRow> {
  if (!isUuid(storeId)) throw collectionNotFound();
  const found = await ctx.readDb.collection.findFirst({ where: { storeId, mode: ctx.mode, ...(isUuid(ref) ? { id: ref } : { slug: ref.toLowerCase() }) }, select: { id: true } });
  const [row] = found ? await collectionRows(ctx.readDb, [found.id]) : [];
  if (!row) throw collectionNotFound();
  return row;
}

/** What a collection's product list needs of it (its id and sort), in one statement; 404 when it is not the catalog's. */
export async function collectionForList(ctx: RequestContext, storeId: string, ref: string): Promise<{ id: string; sort: CollectionSort; published: boolean }> {
  const found = isUuid(storeId)
    ? await ctx.readDb.collection.findFirst({ where: { storeId, mode: ctx.mode, ...(isUuid(ref) ? { id: ref } : { slug: ref.toLowerCase() }) }, select: { id: true, sort: true, published: true } })
    : null;
  if (!found) throw collectionNotFound();
  return found;
}

/** The collection locked for a write (to its commit), read with its parts; 404 when it is not the catalog's. */
export async function lockedCollection(t: TransactionContext, storeId: string, ref: string): Promise<CollectionRow> {
  const rows = !isUuid(storeId)
    ? []
    : isUuid(ref)
      ? await t.tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM collections WHERE id = ${ref}::uuid AND store_id = ${storeId}::uuid AND mode = ${t.mode}::"Mode" FOR UPDATE`
      : await t.tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM collections WHERE slug = ${ref.toLowerCase()} AND store_id = ${storeId}::uuid AND mode = ${t.mode}::"Mode" FOR UPDATE`;
  if (!rows.length) throw collectionNotFound();
  const [row] = await collectionRows(t.tx, [rows[0].id]);
  return row;
}

/** A page of the catalog's collections, newest first. */
export async function listCollections(ctx: RequestContext, storeId: string, paging: { page?: number; perPage?: number }) {
  const page = Math.max(1, paging.page ?? 1);
  const perPage = Math.min(100, Math.max(1, paging.perPage ?? 20));
  if (!isUuid(storeId)) throw notFound('Store');
  const where = { storeId, mode: ctx.mode };
  const [ids, total] = await Promise.all([
    ctx.readDb.collection.findMany({ where, select: { id: true }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (page - 1) * perPage, take: perPage }),
    ctx.readDb.collection.count({ where }),
  ]);
  return { rows: await collectionRows(ctx.readDb, ids.map((r) => r.id)), page, perPage, total };
}

/** Optimistic concurrency as products have it: an expected version that differs is 412 and nothing is written. */
function requireVersion(c: { version: number }, expected: number | null | undefined) {
  if (expected == null || expected === c.version) return;
  throw new AppError('precondition_failed', `The collection was modified (version ${c.version}, expected ${expected}); reload and retry`, { details: { current_version: c.version } });
}

const slugTaken = (value: string) =>
  new AppError('slug_taken', `The slug "${value}" is already used by another collection of this catalog`, {
    errors: [{ field: 'slug', code: 'slug_taken', message: 'already used by another collection of this catalog' }],
    details: { slug: value },
  });

async function withSlugCheck<T>(value: () => string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (violatedUniqueIndex(e) !== 'collections_store_id_mode_slug_key') throw e;
    throw slugTaken(value());
  }
}

/** Checks what kind, rules, match and sort leave together (all errors at once with the input's errors). */
async function checkShape(t: TransactionContext, storeId: string, kind: 'manual' | 'smart', input: { rules?: unknown[]; sort?: string }, sent: { rules: boolean }) {
  const errors: FieldError[] = [];
  let rules: CollectionRule[] = [];
  if (kind === 'manual' && sent.rules && input.rules?.length) errors.push({ field: 'rules', code: 'not_allowed', message: 'a manual collection has no rules' });
  if (kind === 'smart') {
    if (sent.rules && !input.rules?.length) errors.push({ field: 'rules', code: 'required', message: 'a smart collection needs at least one rule' });
    if (input.sort === 'manual') errors.push({ field: 'sort', code: 'invalid_choice', message: 'a smart collection sorts by newest, name, price_asc or price_desc' });
    if (sent.rules && input.rules?.length) {
      const checked = await checkRules(t.tx, storeId, input.rules);
      errors.push(...checked.errors);
      rules = checked.rules;
    }
  }
  return { errors, rules };
}

function emitCollectionEvent(t: TransactionContext, type: EventType, after: CollectionRow, before?: CollectionRow) {
  const data = collectionView(after);
  emit(t, { type, storeId: after.storeId, mode: after.mode as Mode, resource: { type: 'collection', id: after.id, version: after.version }, data, before: before && collectionView(before) });
}

/** Creates a collection of the request's catalog. A smart one's membership is computed (or queued) with it. */
export async function createCollection(ctx: RequestContext, storeId: string, input: CollectionCreate) {
  const data = parseInput(CollectionCreateInput, input);
  const slugValue = data.slug ?? slugOf(data.title);
  return withSlugCheck(
    () => slugValue,
    () =>
      transaction(ctx, async (t) => {
        const shape = await checkShape(t, storeId, data.kind, data, { rules: data.kind === 'smart' || data.rules !== undefined });
        if (shape.errors.length) throw validationError(shape.errors);
        if (isUuid(storeId) && (await t.tx.collection.count({ where: { storeId, mode: t.mode } })) >= CATALOG_LIMITS.collectionsPerCatalog) {
          throw limitExceeded('collectionsPerCatalog', `A catalog has at most ${CATALOG_LIMITS.collectionsPerCatalog} collections`);
        }
        if (data.kind === 'smart') await bumpRuleVersion(t, storeId, t.mode);
        const created = await t.tx.collection.create({
          data: {
            storeId,
            mode: t.mode,
            title: data.title,
            slug: slugValue,
            description: data.description,
            kind: data.kind,
            rules: shape.rules as unknown as Prisma.InputJsonArray,
            match: data.match ?? 'all',
            sort: data.sort ?? (data.kind === 'manual' ? 'manual' : 'newest'),
            published: data.published ?? false,
            publishedAt: data.published ? t.now() : null,
          },
        });
        if (data.kind === 'smart') await recomputeAfterRuleChange(t, { id: created.id, storeId, mode: t.mode, rules: shape.rules, match: created.match });
        const [after] = await collectionRows(t.tx, [created.id]);
        emitCollectionEvent(t, 'collection.created', after);
        if (after.published) emitCollectionEvent(t, 'collection.published', after);
        return after;
      }),
  );
}

/**
 * Changes any of title, slug, description, rules, match, sort and published (kind never changes: 422 immutable).
 * A rule change recomputes membership (collectionMembership.ts); publishing records collection.published too.
 */
export async function updateCollection(ctx: RequestContext, storeId: string, ref: string, input: CollectionUpdate, opts: { expectedVersion?: number | null } = {}) {
  const data = parseInput(CollectionUpdateInput, input);
  return withSlugCheck(
    () => data.slug!,
    () =>
      transaction(ctx, async (t) => {
        const before = await lockedCollection(t, storeId, ref);
        requireVersion(before, opts.expectedVersion);
        const errors: FieldError[] = [];
        if (data.kind !== undefined && data.kind !== before.kind) errors.push({ field: 'kind', code: 'immutable', message: 'a collection stays manual or smart; create another' });
        const shape = await checkShape(t, storeId, before.kind, { rules: data.rules, sort: data.sort }, { rules: data.rules !== undefined });
        errors.push(...shape.errors);
        if (errors.length) throw validationError(errors);
        // Compared as content: the stored rules come back from jsonb with their keys in jsonb's order, not the client's.
        const rulesChanged = before.kind === 'smart' && data.rules !== undefined && !isDeepStrictEqual(JSON.parse(JSON.stringify(shape.rules)), before.rules);
        const matchChanged = data.match !== undefined && data.match !== before.match;
        const changes: Prisma.CollectionUpdateInput = {};
        if (data.title !== undefined && data.title !== before.title) changes.title = data.title;
        if (data.slug !== undefined && data.slug !== before.slug) changes.slug = data.slug;
        if (data.description !== undefined && data.description !== before.description) changes.description = data.description;
        if (rulesChanged) changes.rules = shape.rules as unknown as Prisma.InputJsonArray;
        if (matchChanged) changes.match = data.match;
        if (data.sort !== undefined && data.sort !== before.sort) changes.sort = data.sort;
        if (data.published !== undefined && data.published !== before.published) {
          changes.published = data.published;
          changes.publishedAt = data.published ? t.now() : before.publishedAt;
        }
        if (!Object.keys(changes).length) return before;
        const recompute = before.kind === 'smart' && (rulesChanged || matchChanged);
        if (recompute) await bumpRuleVersion(t, storeId, t.mode);
        await t.tx.collection.update({ where: { id: before.id }, data: { ...changes, version: { increment: 1 } } });
        if (recompute) await recomputeAfterRuleChange(t, { id: before.id, storeId, mode: t.mode, rules: rulesChanged ? shape.rules : (before.rules as unknown as CollectionRule[]), match: data.match ?? before.match });
        await markOutdated(t, before.id, (['title', 'description'] as const).filter((f) => changes[f] !== undefined));
        const [after] = await collectionRows(t.tx, [before.id]);
        emitCollectionEvent(t, 'collection.updated', after, before);
        if (changes.published !== undefined) emitCollectionEvent(t, after.published ? 'collection.published' : 'collection.unpublished', after);
        return after;
      }),
  );
}

/** Translations of fields whose default-locale text changed are outdated (Shopify's rule, translationMarks.ts). */
async function markOutdated(t: TransactionContext, collectionId: string, fields: ('title' | 'description')[]) {
  for (const field of fields) {
    // The column name is one of the two literals above, never input.
    await t.tx.$executeRawUnsafe(
      `UPDATE collection_translations SET outdated_fields = ARRAY(SELECT DISTINCT f FROM unnest(outdated_fields || ARRAY[$2::text]) f ORDER BY 1)
       WHERE collection_id = $1::uuid AND ${field} IS NOT NULL AND NOT ($2 = ANY(outdated_fields))`,
      collectionId,
      field,
    );
  }
}

/** Deletes a collection with its membership; its event carries it as it was. */
export async function deleteCollection(ctx: RequestContext, storeId: string, ref: string, opts: { expectedVersion?: number | null } = {}) {
  return transaction(ctx, async (t) => {
    const before = await lockedCollection(t, storeId, ref);
    requireVersion(before, opts.expectedVersion);
    if (before.kind === 'smart') await bumpRuleVersion(t, storeId, t.mode);
    await t.tx.collection.delete({ where: { id: before.id } });
    await t.tx.$executeRaw`DELETE FROM collection_product_counts WHERE collection_id = ${before.id}::uuid`;
    emit(t, { type: 'collection.deleted', storeId, mode: t.mode, resource: { type: 'collection', id: before.id, version: before.version + 1 }, data: collectionView(before) });
    return { id: before.id };
  });
}

export const CollectionTranslationInput = z
  .object({
    title: Title.nullable().optional(),
    description: z.string().max(20_000).nullable().optional(),
    outdated: z.unknown().optional(),
    outdated_fields: z.unknown().optional(),
    updated_at: z.unknown().optional(),
  })
  .strict();

/** Sets (whole) or removes a collection's title and description in one of the store's further locales. */
export async function setCollectionTranslation(ctx: RequestContext, storeId: string, ref: string, locale: string, input: z.input<typeof CollectionTranslationInput> | null) {
  return transaction(ctx, async (t) => {
    const store = await lockedStoreLocales(t, storeId);
    const r = translationLocale(store, locale, 'locale');
    const errors = [...('error' in r ? [r.error] : []), ...(input ? fieldErrorsOf(CollectionTranslationInput, input) : [])];
    if (errors.length || 'error' in r) throw validationError(errors);
    const before = await lockedCollection(t, storeId, ref);
    const parsed = input ? CollectionTranslationInput.parse(input) : null;
    const title = parsed?.title ?? null;
    const description = parsed?.description ?? null;
    const key = { collectionId_locale: { collectionId: before.id, locale: r.locale } };
    if (!parsed) {
      if (!before.translations.some((x) => x.locale === r.locale)) throw notFound(`Translation in ${r.locale}`);
      await t.tx.collectionTranslation.delete({ where: key });
    } else if (title == null && description == null) {
      await t.tx.collectionTranslation.deleteMany({ where: { collectionId: before.id, locale: r.locale } });
    } else {
      await t.tx.collectionTranslation.upsert({
        where: key,
        create: { collectionId: before.id, storeId, locale: r.locale, title, description },
        update: { title, description, outdatedFields: [] },
      });
    }
    const [current] = await collectionRows(t.tx, [before.id]);
    const was = collectionView(before).translations;
    const now = collectionView(current).translations;
    if (JSON.stringify(was) === JSON.stringify(now)) return current;
    await t.tx.collection.update({ where: { id: before.id }, data: { version: { increment: 1 } } });
    const [after] = await collectionRows(t.tx, [before.id]);
    const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
    emit(t, {
      type: parsed ? 'translation.updated' : 'translation.deleted',
      storeId,
      mode: t.mode,
      resource: { type: 'collection', id: after.id, version: after.version },
      data: collectionView(after),
      changes: translationChanges(json(was), json(now)),
    });
    return after;
  });
}
