import { z } from 'zod';
import type { RequestContext } from '../context';
import type { Prisma } from '../db/client';
import type { EventType } from '../domain/events';
import { isUuid } from '../domain/ids';
import { ConcurrentWrite, emit, transaction, type TransactionContext } from '../events/outbox';
import { AppError, notFound, validationError } from '../errors';
import { withIncludes } from './queryMerge';
import { PRODUCT_VIEW_INCLUDE, type ProductPartsRow, productParts, productView, type ProductViewRow } from './representations';
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

/**
 * Records a product event whose data is the product as REST shows it. With
 * `before` (the parts the write read before changing them), `changes` lists
 * the fields that differ; parts it did not read are the same after as before.
 */
export function emitProductEvent(
  t: TransactionContext,
  type: EventType,
  product: ProductViewRow,
  opts: { before?: ProductPartsRow; version?: number; extra?: Record<string, unknown>; previousExtra?: Record<string, unknown> } = {},
) {
  const data = { ...productView(product, t.baseUrl), ...opts.extra };
  const before = opts.before && { ...data, ...productParts(opts.before, t.baseUrl), ...opts.previousExtra };
  emit(t, { type, storeId: product.storeId, resource: { type: 'product', id: product.id, version: opts.version ?? product.version }, data, before });
}

export async function createProduct(ctx: RequestContext, storeId: string, input: ProductCreate, query: ProductQuery = {}) {
  const data = parseInput(ProductCreateInput, input);
  return transaction(ctx, async (t) => {
    const categoryIds = await resolveCategories(t.tx, storeId, data.categorySlugs);
    const product = await t.tx.product.create({
      ...withIncludes(query, PRODUCT_VIEW_INCLUDE),
      data: {
        storeId,
        name: data.name,
        description: data.description,
        price: data.price,
        inventoryQuantity: data.inventoryQuantity,
        lowStockThreshold: data.lowStockThreshold,
        lowStock: data.inventoryQuantity <= data.lowStockThreshold,
        status: data.status,
        publishedAt: data.status === 'active' ? t.now() : null,
        tags: data.tags,
        searchText: searchText(data),
        categories: { create: categoryIds.map((categoryId) => ({ categoryId })) },
      },
    });
    emitProductEvent(t, 'product.created', product);
    return product;
  });
}

export async function getProduct(ctx: RequestContext, storeId: string, id: string, query: ProductQuery = {}) {
  if (!isUuid(id)) throw notFound('Product');
  const product = await ctx.db.product.findFirst({ ...query, where: { id, storeId } });
  if (!product) throw notFound('Product');
  return product;
}

/**
 * The product with what its REST representation shows, read at the start of a
 * write; 404 when it is not the store's. The first attempt reads without a
 * lock (the write checks the version); a re-run after losing a race locks the
 * row first, so under contention writers queue instead of retrying forever.
 */
export async function productBeforeWrite<I extends BeforeParts>(t: TransactionContext, storeId: string, id: string, parts: I) {
  if (!isUuid(id)) throw notFound('Product');
  if (t.attempt > 1) await t.tx.$queryRaw`SELECT 1 FROM products WHERE id = ${id}::uuid AND store_id = ${storeId}::uuid FOR UPDATE`;
  const product = await t.tx.product.findFirst({ where: { id, storeId }, include: parts });
  if (!product) throw notFound('Product');
  return product;
}

/** The relations a write may change, to read before it: each is one of the product view's. */
type BeforeParts = { [K in keyof typeof PRODUCT_VIEW_INCLUDE]?: (typeof PRODUCT_VIEW_INCLUDE)[K] } & { variants?: { select: { sku: true } } };
/** Every part, for a write that ends the product (its event carries the whole last state). */
export const WHOLE_PRODUCT = PRODUCT_VIEW_INCLUDE;

/**
 * Moves the product from the version read to the next one, with `data`, runs
 * `alsoWrite` (its parts), and reads it back with the planned query and its
 * representation. A version that moved meanwhile is a concurrent write: the
 * caller's transaction starts over.
 */
export async function writeProductVersion(
  t: TransactionContext,
  before: { id: string; version: number },
  data: Prisma.ProductUpdateManyMutationInput,
  query: ProductQuery = {},
  alsoWrite?: () => Promise<unknown>,
) {
  const { count } = await t.tx.product.updateMany({ where: { id: before.id, version: before.version }, data: { ...data, version: { increment: 1 } } });
  if (count === 0) throw new ConcurrentWrite();
  // The product row is locked from here to the commit: writes to its parts (categories, variants, images, SEO) queue behind it.
  await alsoWrite?.();
  return t.tx.product.findUniqueOrThrow({ ...withIncludes(query, PRODUCT_VIEW_INCLUDE), where: { id: before.id } });
}

/** Whether an update would leave every field as it is (then nothing is written and no version is made). */
function changesNothing(current: ProductPartsRow, data: z.output<typeof ProductUpdateInput>): boolean {
  const same: { [K in keyof typeof data]-?: (v: NonNullable<(typeof data)[K]>) => boolean } = {
    name: (v) => v === current.name,
    description: (v) => v === current.description,
    price: (v) => Number(v) === Number(current.price),
    inventoryQuantity: (v) => v === current.inventoryQuantity,
    lowStockThreshold: (v) => v === current.lowStockThreshold,
    status: (v) => v === current.status,
    tags: (v) => v.length === current.tags.length && v.every((tag, i) => tag === current.tags[i]),
    categorySlugs: (v) => sameSet(v, (current.categories ?? []).map((c) => c.category.slug)),
  };
  return (Object.keys(same) as (keyof typeof data)[]).every((k) => data[k] === undefined || (same[k] as (v: unknown) => boolean)(data[k]));
}

const sameSet = (a: string[], b: string[]) => {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((v) => x.has(v));
};

/**
 * Partial update guarded by optimistic concurrency: when `expectedVersion` is
 * given and the stored version differs, nothing is written and 412 is returned.
 * An update that changes nothing writes nothing: no new version, no event.
 */
export async function updateProduct(
  ctx: RequestContext,
  storeId: string,
  id: string,
  input: ProductUpdateArgs,
  opts: { expectedVersion?: number | null } = {},
  query: ProductQuery = {},
) {
  const data = parseInput(ProductUpdateInput, input);
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    // Categories are read only when the update sets them (undefined leaves them out of the read).
    const parts = { variants: { select: { sku: true } }, categories: data.categorySlugs !== undefined ? PRODUCT_VIEW_INCLUDE.categories : undefined };
    const before = await productBeforeWrite(t, storeId, id, parts as { variants: { select: { sku: true } }; categories: typeof PRODUCT_VIEW_INCLUDE.categories });
    if (opts.expectedVersion != null && opts.expectedVersion !== before.version) {
      throw new AppError('precondition_failed', `The product was modified (version ${before.version}, expected ${opts.expectedVersion}); reload and retry`, {
        details: { current_version: before.version },
      });
    }
    // Nothing to change: no new version, so the caller's ETag stays valid.
    if (changesNothing(before, data)) return t.tx.product.findUniqueOrThrow({ ...query, where: { id } });
    const categoryIds = data.categorySlugs !== undefined ? await resolveCategories(t.tx, storeId, data.categorySlugs) : undefined;
    const merged = { ...before, ...stripUndefined(data) };
    const after = await writeProductVersion(
      t,
      before,
      {
        name: data.name,
        description: data.description,
        price: data.price,
        inventoryQuantity: data.inventoryQuantity,
        lowStockThreshold: data.lowStockThreshold,
        lowStock: merged.inventoryQuantity <= merged.lowStockThreshold,
        status: data.status,
        // Like publishProduct: becoming active (again) stamps published_at.
        publishedAt: data.status === 'active' && before.status !== 'active' ? t.now() : undefined,
        tags: data.tags,
        searchText: searchText(merged, before.variants.map((v) => v.sku)),
      },
      query,
      categoryIds
        ? async () => {
            await t.tx.productCategory.deleteMany({ where: { productId: id } });
            await t.tx.productCategory.createMany({ data: categoryIds.map((categoryId) => ({ productId: id, categoryId })) });
          }
        : undefined,
    );
    emitProductEvent(t, 'product.updated', after, { before });
    return after;
  });
}

/** Deletes the product; variants, SEO and image links go with it (cascades). Its event carries the product as it was. */
export async function deleteProduct(ctx: RequestContext, storeId: string, id: string) {
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, id, WHOLE_PRODUCT);
    const { count } = await t.tx.product.deleteMany({ where: { id, version: before.version } });
    if (count === 0) throw new ConcurrentWrite();
    // The deletion is the product's last version.
    emitProductEvent(t, 'product.deleted', before, { version: before.version + 1 });
    return { id };
  });
}

/** Sets status active and published_at (when it was not active). Idempotent; an archived product cannot be published. */
export async function publishProduct(ctx: RequestContext, storeId: string, id: string, query: ProductQuery = {}) {
  return setStatus(ctx, storeId, id, 'active', query);
}

/** Sets status draft. Idempotent. */
export async function unpublishProduct(ctx: RequestContext, storeId: string, id: string, query: ProductQuery = {}) {
  return setStatus(ctx, storeId, id, 'draft', query);
}

async function setStatus(ctx: RequestContext, storeId: string, id: string, status: 'active' | 'draft', query: ProductQuery) {
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, id, {});
    if (status === 'active' && before.status === 'archived') {
      throw new AppError('product_archived', 'An archived product cannot be published; set its status to draft first');
    }
    if (before.status === status) return t.tx.product.findUniqueOrThrow({ ...query, where: { id } });
    const after = await writeProductVersion(t, before, { status, ...(status === 'active' ? { publishedAt: t.now() } : {}) }, query);
    emitProductEvent(t, status === 'active' ? 'product.published' : 'product.unpublished', after, { before });
    return after;
  });
}

export { isUuid };

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
