import { z } from 'zod';
import { db, Prisma } from '../db/client';
import { AppError, notFound, validationError } from '../errors';
import { parseInput } from './validation';

export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
type Tx = Prisma.TransactionClient;
type ProductQuery = { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect };

const MAX_INT = 2_147_483_647;

export const Price = z
  .union([z.number(), z.string()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => /^\d{1,10}(\.\d{1,2})?$/.test(v), 'must be a number >= 0 with at most 2 decimals and below 10,000,000,000');

const Tag = z.string().trim().min(1).max(64);

/** A product's name; categories follow the same rules. */
export const ProductName = z.string().trim().min(1, 'must not be empty').max(255);

const ProductFields = {
  name: ProductName,
  description: z.string().max(20_000),
  price: Price,
  inventoryQuantity: z.number().int().min(0).max(MAX_INT),
  lowStockThreshold: z.number().int().min(0).max(MAX_INT),
  status: z.enum(PRODUCT_STATUSES),
  tags: z.array(Tag).max(100).transform((t) => [...new Set(t)]),
  categorySlugs: z.array(z.string().trim().min(1).max(128)),
};

export const ProductCreateInput = z.object({
  ...ProductFields,
  description: ProductFields.description.default(''),
  inventoryQuantity: ProductFields.inventoryQuantity.default(0),
  lowStockThreshold: ProductFields.lowStockThreshold.default(5),
  status: ProductFields.status.default('draft'),
  tags: ProductFields.tags.default([]),
  categorySlugs: ProductFields.categorySlugs.optional(),
});
export const ProductUpdateInput = z.object(ProductFields).partial();
export type ProductCreate = z.input<typeof ProductCreateInput>;
export type ProductUpdate = z.input<typeof ProductUpdateInput>;
/** What callers may pass to an update: a null is rejected (no product field is nullable), not taken as "keep". */
type ProductUpdateArgs = { [K in keyof ProductUpdate]?: ProductUpdate[K] | null };

export function searchText(p: { name: string; description: string; tags: string[] }, skus: string[] = []): string {
  return [p.name, p.description, ...p.tags, ...skus].join(' ').toLowerCase();
}

/** Category ids for the slugs, or a 422 naming the slugs that are missing or unknown. */
async function resolveCategories(tx: Tx, storeId: string, slugs: string[] | undefined): Promise<string[]> {
  const wanted = [...new Set(slugs ?? [])];
  if (wanted.length === 0) {
    throw validationError(
      [{ field: 'categorySlugs', code: 'category_required', message: 'at least one category slug is required' }],
      'category_required',
      'A product needs at least one category slug',
    );
  }
  const found = await tx.category.findMany({ where: { storeId, slug: { in: wanted } }, select: { id: true, slug: true } });
  const unknown = wanted.filter((s) => !found.some((c) => c.slug === s));
  if (unknown.length) {
    throw new AppError('unknown_category', `Unknown category slug(s): ${unknown.join(', ')}`, {
      errors: unknown.map((s) => ({ field: 'categorySlugs', code: 'unknown_category', message: `no category with slug "${s}" in this store` })),
      details: { unknown_slugs: unknown },
    });
  }
  return found.map((c) => c.id);
}

export async function createProduct(storeId: string, input: ProductCreate, query: ProductQuery = {}) {
  const data = parseInput(ProductCreateInput, input);
  return db().$transaction(async (tx) => {
    const categoryIds = await resolveCategories(tx, storeId, data.categorySlugs);
    return tx.product.create({
      ...query,
      data: {
        storeId,
        name: data.name,
        description: data.description,
        price: data.price,
        inventoryQuantity: data.inventoryQuantity,
        lowStockThreshold: data.lowStockThreshold,
        lowStock: data.inventoryQuantity <= data.lowStockThreshold,
        status: data.status,
        publishedAt: data.status === 'active' ? new Date() : null,
        tags: data.tags,
        searchText: searchText(data),
        categories: { create: categoryIds.map((categoryId) => ({ categoryId })) },
      },
    });
  });
}

export async function getProduct(storeId: string, id: string, query: ProductQuery = {}) {
  if (!isUuid(id)) throw notFound('Product');
  const product = await db().product.findFirst({ ...query, where: { id, storeId } });
  if (!product) throw notFound('Product');
  return product;
}

/**
 * Partial update guarded by optimistic concurrency: when `expectedVersion` is
 * given and the stored version differs, nothing is written and 412 is returned.
 */
export async function updateProduct(
  storeId: string,
  id: string,
  input: ProductUpdateArgs,
  opts: { expectedVersion?: number | null } = {},
  query: ProductQuery = {},
) {
  const data = parseInput(ProductUpdateInput, input);
  if (!isUuid(id)) throw notFound('Product');
  return db().$transaction(async (tx) => {
    const current = await tx.product.findFirst({
      where: { id, storeId },
      select: { version: true, name: true, description: true, tags: true, inventoryQuantity: true, lowStockThreshold: true, status: true, variants: { select: { sku: true } } },
    });
    if (!current) throw notFound('Product');
    if (opts.expectedVersion != null && opts.expectedVersion !== current.version) {
      throw new AppError('precondition_failed', `The product was modified (version ${current.version}, expected ${opts.expectedVersion}); reload and retry`, {
        details: { current_version: current.version },
      });
    }
    // Nothing to change: no new version, so the caller's ETag stays valid.
    if (Object.keys(stripUndefined(data)).length === 0) return tx.product.findUniqueOrThrow({ ...query, where: { id } });
    const categoryIds = data.categorySlugs !== undefined ? await resolveCategories(tx, storeId, data.categorySlugs) : undefined;
    const merged = { ...current, ...stripUndefined(data) };
    const { count } = await tx.product.updateMany({
      where: { id, storeId, version: current.version },
      data: {
        name: data.name,
        description: data.description,
        price: data.price,
        inventoryQuantity: data.inventoryQuantity,
        lowStockThreshold: data.lowStockThreshold,
        lowStock: merged.inventoryQuantity <= merged.lowStockThreshold,
        status: data.status,
        // Like publishProduct: becoming active (again) stamps published_at.
        publishedAt: data.status === 'active' && current.status !== 'active' ? new Date() : undefined,
        tags: data.tags,
        searchText: searchText(merged, current.variants.map((v) => v.sku)),
        version: { increment: 1 },
      },
    });
    if (count === 0) throw new AppError('precondition_failed', 'The product was modified concurrently; reload and retry');
    if (categoryIds) {
      await tx.productCategory.deleteMany({ where: { productId: id } });
      await tx.productCategory.createMany({ data: categoryIds.map((categoryId) => ({ productId: id, categoryId })) });
    }
    return tx.product.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Deletes the product; variants, SEO and image links go with it (cascades) in the same statement. */
export async function deleteProduct(storeId: string, id: string) {
  if (!isUuid(id)) throw notFound('Product');
  const { count } = await db().product.deleteMany({ where: { id, storeId } });
  if (count === 0) throw notFound('Product');
  return { id };
}

/** Sets status active and published_at (when it was not active). Idempotent; an archived product cannot be published. */
export async function publishProduct(storeId: string, id: string, query: ProductQuery = {}) {
  return setStatus(storeId, id, 'active', query);
}

/** Sets status draft. Idempotent. */
export async function unpublishProduct(storeId: string, id: string, query: ProductQuery = {}) {
  return setStatus(storeId, id, 'draft', query);
}

async function setStatus(storeId: string, id: string, status: 'active' | 'draft', query: ProductQuery) {
  if (!isUuid(id)) throw notFound('Product');
  return db().$transaction(async (tx) => {
    const current = await tx.product.findFirst({ where: { id, storeId }, select: { status: true, publishedAt: true } });
    if (!current) throw notFound('Product');
    if (status === 'active' && current.status === 'archived') {
      throw new AppError('product_archived', 'An archived product cannot be published; set its status to draft first');
    }
    if (current.status === status) return tx.product.findUniqueOrThrow({ ...query, where: { id } });
    return tx.product.update({
      ...query,
      where: { id },
      data: { status, version: { increment: 1 }, ...(status === 'active' ? { publishedAt: new Date() } : {}) },
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
