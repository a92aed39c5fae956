/** The category service: create, update, delete and list a store's categories. */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { isUuid } from '../../kernel/ids';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { ProductName } from './products';
import { BY_LOCALE, categoryView } from './views';
import { slug } from './slugs';
import { markCategoryTranslations } from './translationMarks';
import { parseInput } from '../../platform/validation';

/** Product inputs accept category slugs of up to 128 characters, so a longer one could never be used. */
const CATEGORY_SLUG_MAX = 128;

const CreateCategory = z.object({
  storeId: z.string(),
  slug: slug(CATEGORY_SLUG_MAX),
  name: ProductName,
});

/**
 * Both indexes mean the slug is taken: the exact one from the schema and the
 * case-insensitive one (migration 20261123170000_category_slug_case_insensitive),
 * which guards rows written before slugs had to be lowercase.
 */
const SLUG_INDEXES = new Set(['categories_store_id_slug_key', 'categories_store_id_lower_slug_key']);

async function requireStore(ctx: RequestContext, storeId: string) {
  const store = isUuid(storeId) ? await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }) : null;
  if (!store) throw notFound('Store');
}

const slugTaken = (slug: string) =>
  new AppError('slug_taken', `The slug "${slug}" is already used by another category of this store`, {
    errors: [{ field: 'slug', code: 'slug_taken', message: 'already used by another category of this store' }],
    details: { slug },
  });

type CategoryRow = Parameters<typeof categoryView>[0];

const emitCategoryEvent = (t: TransactionContext, type: 'category.created' | 'category.updated' | 'category.deleted', category: CategoryRow, before?: CategoryRow) =>
  // Categories are store configuration, shared by the test and live catalogs: their events are live events.
  emit(t, { type, storeId: category.storeId, mode: 'live', resource: { type: 'category', id: category.id }, data: categoryView(category), before: before && categoryView(before) });

/** Creates a category of a store; its slug is unique in the store whatever its case (409 slug_taken). */
export async function createCategory(ctx: RequestContext, input: z.input<typeof CreateCategory>) {
  const data = parseInput(CreateCategory, input);
  await requireStore(ctx, data.storeId);
  try {
    return await transaction(ctx, async (t) => {
      const category = await t.tx.category.create({ data });
      emitCategoryEvent(t, 'category.created', { ...category, translations: [] });
      return category;
    });
  } catch (e) {
    if (!SLUG_INDEXES.has(violatedUniqueIndex(e) ?? '')) throw e;
    throw slugTaken(data.slug);
  }
}

export const UpdateCategory = z.object({ slug: slug(CATEGORY_SLUG_MAX).optional(), name: ProductName.optional() });

/** A category named by id or slug that the store does not have (or no longer has: a delete won a race). */
export const categoryNotFound = (slugOrId: string) => new AppError('not_found', `No category "${slugOrId}" in this store`);

async function findCategory(ctx: RequestContext, storeId: string, slugOrId: string) {
  await requireStore(ctx, storeId);
  const category = await ctx.db.category.findFirst({
    where: { storeId, ...(isUuid(slugOrId) ? { id: slugOrId } : { slug: { equals: slugOrId, mode: 'insensitive' as const } }) },
  });
  if (!category) throw categoryNotFound(slugOrId);
  return category;
}

/**
 * Renames a category or changes its slug. Products name their categories by
 * slug, so their category_slugs show the new slug at once; the change is
 * recorded once, as the category's.
 */
export async function updateCategory(ctx: RequestContext, storeId: string, slugOrId: string, input: z.input<typeof UpdateCategory>) {
  const data = parseInput(UpdateCategory, input);
  const found = await findCategory(ctx, storeId, slugOrId);
  if ((data.slug ?? found.slug) === found.slug && (data.name ?? found.name) === found.name) return found;
  try {
    return await transaction(ctx, async (t) => {
      // Locked and read again first, as deleteCategory does: a delete that won the race answers 404, and a
      // concurrent update is the change's `before`, not the row read before the transaction.
      const [before] = await t.tx.$queryRaw<{ id: string }[]>`SELECT id FROM categories WHERE id = ${found.id}::uuid FOR UPDATE`;
      if (!before) throw categoryNotFound(slugOrId);
      const current = await t.tx.category.findUniqueOrThrow({ where: { id: found.id }, include: BY_LOCALE });
      const updated = await t.tx.category.update({ where: { id: found.id }, data });
      await markCategoryTranslations(t, updated.id, current, updated);
      // Read with the marks just set: the event shows the translations as GraphQL does.
      const category = await t.tx.category.findUniqueOrThrow({ where: { id: found.id }, include: BY_LOCALE });
      emitCategoryEvent(t, 'category.updated', category, current);
      return category;
    });
  } catch (e) {
    if (!SLUG_INDEXES.has(violatedUniqueIndex(e) ?? '')) throw e;
    throw slugTaken(data.slug!);
  }
}

/** Deletes a category no product uses; one in use answers 409 category_in_use naming how many products use it. */
export async function deleteCategory(ctx: RequestContext, storeId: string, slugOrId: string) {
  const category = await findCategory(ctx, storeId, slugOrId);
  return transaction(ctx, async (t) => {
    // Held to the commit: a product write linking the category holds it too (categoriesToLink), so the count
    // below sees that write's links, or the write waits and finds the category gone.
    const held = await t.tx.$queryRaw<unknown[]>`SELECT 1 FROM categories WHERE id = ${category.id}::uuid FOR UPDATE`;
    if (held.length === 0) throw categoryNotFound(slugOrId);
    const used = await t.tx.productCategory.count({ where: { categoryId: category.id } });
    if (used > 0) {
      throw new AppError('category_in_use', `The category "${category.slug}" is used by ${used} product(s); move them to another category first`, {
        details: { products: used },
      });
    }
    const translations = await t.tx.categoryTranslation.findMany({ where: { categoryId: category.id }, ...BY_LOCALE.translations });
    await t.tx.category.delete({ where: { id: category.id } });
    emitCategoryEvent(t, 'category.deleted', { ...category, translations });
    return category;
  });
}

/** The store's categories by slug. */
export async function listCategories(ctx: RequestContext, storeId: string) {
  await requireStore(ctx, storeId);
  return ctx.db.category.findMany({ where: { storeId }, orderBy: { slug: 'asc' } });
}
