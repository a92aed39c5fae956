import { z } from 'zod';
import { db } from '../db/client';
import { AppError, notFound } from '../errors';
import { violatedUniqueIndex } from './dbErrors';
import { isUuid, ProductName } from './products';
import { slug } from './slugs';
import { parseInput } from './validation';

/** Product inputs accept category slugs of up to 128 characters, so a longer one could never be used. */
export const CATEGORY_SLUG_MAX = 128;

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

async function requireStore(storeId: string) {
  const store = isUuid(storeId) ? await db().store.findUnique({ where: { id: storeId }, select: { id: true } }) : null;
  if (!store) throw notFound('Store');
}

/** Creates a category of a store; its slug is unique in the store whatever its case (409 slug_taken). */
export async function createCategory(input: z.input<typeof CreateCategory>) {
  const data = parseInput(CreateCategory, input);
  await requireStore(data.storeId);
  try {
    return await db().category.create({ data });
  } catch (e) {
    if (!SLUG_INDEXES.has(violatedUniqueIndex(e) ?? '')) throw e;
    throw new AppError('slug_taken', `The slug "${data.slug}" is already used by another category of this store`, {
      errors: [{ field: 'slug', code: 'slug_taken', message: 'already used by another category of this store' }],
      details: { slug: data.slug },
    });
  }
}

/** The store's categories by slug. */
export async function listCategories(storeId: string) {
  await requireStore(storeId);
  return db().category.findMany({ where: { storeId }, orderBy: { slug: 'asc' } });
}
