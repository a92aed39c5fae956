import { z } from 'zod';
import { db, Prisma } from '../db/client';
import { AppError, type FieldError, notFound, validationError } from '../errors';
import { violatedUniqueIndex } from './dbErrors';
import { isUuid, Price, searchText } from './products';
import { parseInput, withOpaqueKeysInMessages } from './validation';

export const MAX_VARIANTS_PER_PRODUCT = 100;
const MAX_OPTIONS = 10;
const MAX_INT = 2_147_483_647;

type VariantQuery = { include?: Prisma.VariantInclude; select?: Prisma.VariantSelect };

const OptionName = z
  .string()
  .max(64)
  .regex(/^\S(.*\S)?$/s, 'option names must not be empty or start/end with whitespace');

const VariantInput = z.object({
  sku: z.string().trim().min(1, 'must not be empty').max(100),
  title: z.string().trim().max(255).default(''),
  options: z
    .record(OptionName, z.string().trim().min(1, 'option values must not be empty').max(255))
    .refine((o) => Object.keys(o).length <= MAX_OPTIONS, `at most ${MAX_OPTIONS} options`)
    .default({}),
  /** Overrides the product price when set; null means "the product's price". */
  price: Price.nullish(),
  inventoryQuantity: z.number().int().min(0).max(MAX_INT).default(0),
  position: z.number().int().min(0).max(MAX_INT).optional(),
});

const ReplaceInput = z.object({
  variants: z.array(VariantInput).max(MAX_VARIANTS_PER_PRODUCT, `at most ${MAX_VARIANTS_PER_PRODUCT} variants per product`),
});

export type VariantWrite = z.input<typeof VariantInput>;

/** Canonical JSON of an option map (keys sorted by code point), the value of the (product, options) uniqueness. */
export function optionsKey(options: Record<string, string>): string {
  const keys = Object.keys(options).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, options[k]])));
}

function parseVariants(input: unknown) {
  const { variants } = withOpaqueKeysInMessages(() => parseInput(ReplaceInput, { variants: input }), /^(variants\.\d+\.options)\.(.*)$/s);
  const rows = variants.map((v, i) => ({ ...v, optionsKey: optionsKey(v.options), position: v.position ?? i }));
  const errors: FieldError[] = [];
  const firstSku = new Map<string, number>();
  const firstCombo = new Map<string, number>();
  rows.forEach((v, i) => {
    const sameSku = firstSku.get(v.sku);
    if (sameSku !== undefined) errors.push({ field: `variants.${i}.sku`, code: 'duplicate_sku', message: `SKU "${v.sku}" is also used by variant ${sameSku}` });
    else firstSku.set(v.sku, i);
    const sameCombo = firstCombo.get(v.optionsKey);
    if (sameCombo !== undefined) {
      errors.push({ field: `variants.${i}.options`, code: 'duplicate_options', message: `the option combination ${v.optionsKey} is also used by variant ${sameCombo}` });
    } else firstCombo.set(v.optionsKey, i);
  });
  if (errors.length) throw validationError(errors);
  return rows;
}

async function requireProduct(tx: Prisma.TransactionClient, storeId: string, productId: string) {
  if (!isUuid(productId)) throw notFound('Product');
  const product = await tx.product.findFirst({ where: { id: productId, storeId }, select: { id: true } });
  if (!product) throw notFound('Product');
}

const ORDER: Prisma.VariantOrderByWithRelationInput[] = [{ position: 'asc' }, { sku: 'asc' }];

/** The product's variants by position (ties by SKU); 404 when the product is not this store's. */
export async function listVariants(storeId: string, productId: string, query: VariantQuery = {}) {
  await requireProduct(db(), storeId, productId);
  return db().variant.findMany({ ...query, where: { productId }, orderBy: ORDER });
}

/**
 * Replaces the product's whole variant set in one transaction. A variant whose
 * SKU was already on the product keeps its id and created_at, so references to
 * it survive a replace. The product's search text gains the SKUs and its
 * version is bumped (an If-Match taken before the replace is stale after it).
 */
export async function replaceVariants(storeId: string, productId: string, input: unknown, query: VariantQuery = {}) {
  const rows = parseVariants(input);
  if (!isUuid(productId)) throw notFound('Product');
  const skus = rows.map((v) => v.sku);
  try {
    return await db().$transaction(async (tx) => {
      // Updating the product row first locks it, so concurrent replaces of one product run one after the other.
      const product = await tx.product
        .update({ where: { id: productId, storeId }, data: { version: { increment: 1 } }, select: { name: true, description: true, tags: true } })
        .catch((e: unknown) => {
          throw e instanceof Prisma.PrismaClientKnownRequestError && e.code === 'P2025' ? notFound('Product') : e;
        });
      const previous = new Map(
        (await tx.variant.findMany({ where: { productId }, select: { id: true, sku: true, createdAt: true } })).map((v) => [v.sku, v]),
      );
      await tx.variant.deleteMany({ where: { productId } });
      await tx.variant.createMany({
        data: rows.map((v) => ({
          id: previous.get(v.sku)?.id,
          createdAt: previous.get(v.sku)?.createdAt,
          storeId,
          productId,
          sku: v.sku,
          title: v.title,
          options: v.options,
          optionsKey: v.optionsKey,
          price: v.price ?? null,
          inventoryQuantity: v.inventoryQuantity,
          position: v.position,
        })),
      });
      await tx.product.update({ where: { id: productId }, data: { searchText: searchText(product, skus) } });
      return tx.variant.findMany({ ...query, where: { productId }, orderBy: ORDER });
    });
  } catch (e) {
    if (violatedUniqueIndex(e) === 'variants_store_id_sku_key') throw await skuConflict(storeId, productId, skus);
    throw e;
  }
}

/** After a rolled-back replace: which requested SKUs another product of the store holds. */
async function skuConflict(storeId: string, productId: string, skus: string[]) {
  const taken = await db().variant.findMany({
    where: { storeId, sku: { in: skus }, productId: { not: productId } },
    select: { sku: true },
  });
  const takenSkus = skus.filter((s) => taken.some((t) => t.sku === s));
  if (takenSkus.length === 0) return new AppError('conflict', 'The SKUs changed concurrently; retry the request');
  return new AppError('sku_taken', `SKU already used by another product of this store: ${takenSkus.join(', ')}`, {
    errors: takenSkus.map((sku) => ({ field: `variants.${skus.indexOf(sku)}.sku`, code: 'sku_taken', message: `SKU "${sku}" is already used by another product` })),
    details: { skus: takenSkus },
  });
}
