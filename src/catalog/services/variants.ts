/** The variant service: a product's variants, validated and replaced as a whole. */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import { transaction } from '../../platform/outbox/outbox';
import { AppError, type FieldError, notFound, validationError } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { catalogOf } from './catalogScope';
import { PRODUCT_VIEW_INCLUDE } from './views';
import { emitProductEvent, isUuid, Price, productBeforeWrite, requireVersion, searchText, writeProductVersion } from './products';
import { withIncludes } from '../../platform/db/queryMerge';
import { variantView } from './views';
import { parseInput, withOpaqueKeysInMessages } from '../../platform/validation';

export const MAX_VARIANTS_PER_PRODUCT = 100;
const MAX_OPTIONS = 10;
const MAX_INT = 2_147_483_647;

type VariantQuery = { include?: Prisma.VariantInclude; select?: Prisma.VariantSelect };

const OptionName = z
  .string()
  .max(64)
  .regex(/^\S(.*\S)?$/s, 'option names must not be empty or start/end with whitespace');

export const VariantInput = z.object({
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

/** Canonical JSON of an option map (keys sorted by code point), the value of the (product, options) uniqueness. */
export function optionsKey(options: Record<string, string>): string {
  const keys = Object.keys(options).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, options[k]])));
}

export function parseVariants(input: unknown) {
  const { variants } = withOpaqueKeysInMessages(() => parseInput(ReplaceInput, { variants: input }), /^(variants\.\d+\.options)\.(.*)$/s);
  const rows = variants.map((v, i) => ({ ...v, optionsKey: optionsKey(v.options), position: v.position ?? i }));
  const errors: FieldError[] = [];
  const firstSku = new Map<string, number>();
  const firstCombo = new Map<string, number>();
  rows.forEach((v, i) => {
    const sameSku = firstSku.get(v.sku);
    if (sameSku !== undefined) errors.push({ field: `variants.${i}.sku`, code: 'duplicate_sku', message: `SKU "${v.sku}" is also used by variants.${sameSku}` });
    else firstSku.set(v.sku, i);
    const sameCombo = firstCombo.get(v.optionsKey);
    if (sameCombo !== undefined) {
      errors.push({ field: `variants.${i}.options`, code: 'duplicate_options', message: `the option combination ${v.optionsKey} is also used by variants.${sameCombo}` });
    } else firstCombo.set(v.optionsKey, i);
  });
  if (errors.length) throw validationError(errors);
  return rows;
}

type ComparedVariant = { sku: string; title: string; optionsKey: string; price?: { toString(): string } | string | null; inventoryQuantity: number; position: number };
/** A variant as a replace would write it: prices by value (21.5 and "21.50" are one price), options by their canonical key. */
const variantKey = (v: ComparedVariant) => JSON.stringify([v.sku, v.title, v.optionsKey, v.price == null ? null : Number(v.price.toString()), v.inventoryQuantity, v.position]);

/** Whether the product's variants already are those parseVariants checked, whatever the order either lists them in (a variant carries its position). */
export function sameVariants(current: ComparedVariant[], wanted: ComparedVariant[]): boolean {
  const keys = (list: ComparedVariant[]) => list.map(variantKey).sort();
  const [a, b] = [keys(current), keys(wanted)];
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

const ORDER: Prisma.VariantOrderByWithRelationInput[] = [{ position: 'asc' }, { sku: 'asc' }];

/** The product's variants by position (ties by SKU); 404 when the product is not this store's. */
export async function listVariants(ctx: RequestContext, storeId: string, productId: string, query: VariantQuery = {}) {
  if (!isUuid(productId)) throw notFound('Product');
  const product = await ctx.db.product.findFirst({ where: { id: productId, ...catalogOf(ctx, storeId) }, select: { id: true } });
  if (!product) throw notFound('Product');
  return ctx.db.variant.findMany({ ...query, where: { productId }, orderBy: ORDER });
}

/**
 * Replaces the product's whole variant set in one transaction. A variant whose
 * SKU was already on the product keeps its id and created_at, so references to
 * it survive a replace. The product's search text gains the SKUs and its
 * version is bumped (an If-Match taken before the replace is stale after it).
 */
/** The columns of a variant row from its checked input (replaceVariants, the bulk import). */
export function variantRow(storeId: string, productId: string, mode: Mode, v: ReturnType<typeof parseVariants>[number]) {
  return {
    storeId,
    productId,
    mode,
    sku: v.sku,
    title: v.title,
    options: v.options,
    optionsKey: v.optionsKey,
    price: v.price ?? null,
    inventoryQuantity: v.inventoryQuantity,
    position: v.position,
  };
}

export async function replaceVariants(ctx: RequestContext, storeId: string, productId: string, input: unknown, query: VariantQuery = {}, opts: { expectedVersion?: number | null } = {}) {
  const rows = parseVariants(input);
  if (!isUuid(productId)) throw notFound('Product');
  const skus = rows.map((v) => v.sku);
  try {
    return await transaction(ctx, async (t) => {
      const before = await productBeforeWrite(t, storeId, productId, { _count: PRODUCT_VIEW_INCLUDE._count });
      requireVersion(before, opts.expectedVersion);
      let previous: Awaited<ReturnType<typeof t.tx.variant.findMany>> = [];
      const after = await writeProductVersion(t, before, { searchText: searchText(before, skus) }, {}, async () => {
        // The product row is locked now, so concurrent replaces of one product run one after the other.
        previous = await t.tx.variant.findMany({ where: { productId }, orderBy: ORDER });
        const bySku = new Map(previous.map((v) => [v.sku, v]));
        await t.tx.variant.deleteMany({ where: { productId } });
        await t.tx.variant.createMany({
          data: rows.map((v) => ({ id: bySku.get(v.sku)?.id, createdAt: bySku.get(v.sku)?.createdAt, ...variantRow(storeId, productId, t.mode, v) })),
        });
      });
      const variants = await t.tx.variant.findMany({ ...withIncludes(query, {}), where: { productId }, orderBy: ORDER });
      emitProductEvent(t, 'product.variants_replaced', after, {
        before,
        extra: { variants: variants.map(variantView) },
        previousExtra: { variants: previous.map(variantView) },
      });
      return variants;
    });
  } catch (e) {
    if (violatedUniqueIndex(e) === 'variants_store_id_mode_sku_key') throw await skuConflict(ctx, storeId, productId, skus);
    throw e;
  }
}

/** After a rolled-back replace: which requested SKUs another product of the store holds. */
async function skuConflict(ctx: RequestContext, storeId: string, productId: string, skus: string[]) {
  const taken = await ctx.db.variant.findMany({
    where: { ...catalogOf(ctx, storeId), sku: { in: skus }, productId: { not: productId } },
    select: { sku: true },
  });
  const takenSkus = skus.filter((s) => taken.some((t) => t.sku === s));
  if (takenSkus.length === 0) return new AppError('conflict', 'The SKUs changed concurrently; retry the request');
  return new AppError('sku_taken', `SKU already used by another product of this store: ${takenSkus.join(', ')}`, {
    errors: takenSkus.map((sku) => ({ field: `variants.${skus.indexOf(sku)}.sku`, code: 'sku_taken', message: `SKU "${sku}" is already used by another product` })),
    details: { skus: takenSkus },
  });
}
