/** The variant service: a product's variants, replaced as a whole, updated by id, or generated from its options. */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import { isValidGtin } from '../../kernel/gtin';
import { transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { deleteVariants, insertVariants, VARIANT_WRITE_TIMEOUT_MS } from './variantRows';
import { AppError, type FieldError, notFound, validationError } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { CATALOG_LIMITS, limitExceeded } from '../limits';
import { catalogOf } from './catalogScope';
import { PRODUCT_VIEW_INCLUDE } from './views';
import { emitProductEvent, isUuid, Price, productBeforeWrite, requireVersion, searchText, writeProductVersion } from './products';
import { withIncludes } from '../../platform/db/queryMerge';
import { variantView } from './views';
import { parseInput, withOpaqueKeysInMessages } from '../../platform/validation';
import { PricesInput, samePrices, storePriceErrors } from './prices';
import { productTypeForWrite, unknownReferenceErrors } from './attributeDefinitions';
import { type AttributeReference, variantAttributeErrors } from './attributeValues';
import { generatedVariantTitle } from './optionRules';
import { extendOptions, OptionName, optionsKey, optionsOf, OptionValue, type ProductOption, sameOptions, TOO_MANY_OPTIONS, variantOptionErrors } from './options';

const { variantsPerProduct } = CATALOG_LIMITS;
export const MAX_VARIANTS_PER_PRODUCT = variantsPerProduct;
const TOO_MANY_VARIANTS = `at most ${variantsPerProduct} variants per product (limit variants_per_product)`;
const MAX_INT = 2_147_483_647;
export const WEIGHT_UNITS = ['g', 'kg', 'oz', 'lb'] as const;

type VariantQuery = { include?: Prisma.VariantInclude; select?: Prisma.VariantSelect };

const Barcode = z
  .string()
  .trim()
  .refine(isValidGtin, { message: 'must be a GTIN-8, -12, -13 or -14 (digits only) with a valid check digit', params: { code: 'invalid_barcode' } });

const Weight = z.object({
  value: z
    .number()
    .positive('must be greater than 0')
    .max(999_999_999.999)
    .refine((v) => /^\d+(\.\d{1,3})?$/.test(String(v)), 'must have at most 3 decimals'),
  unit: z.enum(WEIGHT_UNITS),
});

/** Every writable field of a variant, as a patch may send it: nullable ones clear with null. */
const VariantFields = {
  sku: z.string().trim().min(1, 'must not be empty').max(100),
  title: z.string().trim().max(255),
  options: z.record(OptionName, OptionValue).refine((o) => Object.keys(o).length <= CATALOG_LIMITS.optionsPerProduct, TOO_MANY_OPTIONS),
  /** Overrides the product price when set; null means "the product's price". */
  price: Price.nullable(),
  /** Prices in the store's further currencies; a list sent replaces the variant's. None in a currency: the product's there. */
  prices: PricesInput,
  inventoryQuantity: z.number().int().min(0).max(MAX_INT),
  position: z.number().int().min(0).max(MAX_INT),
  barcode: Barcode.nullable(),
  /** The "was" price shown struck through: above the variant's price (its own, else the product's). */
  compareAtPrice: Price.nullable(),
  /** What the merchant pays; only readCost sees it. */
  cost: Price.nullable(),
  weight: Weight.nullable(),
  imageId: z.string().nullable(),
  /** Variant-level attribute values by attribute code, checked against the product type's variant attributes. */
  attributes: z.record(z.string(), z.json()),
};

export const VariantInput = z.object({
  ...VariantFields,
  title: VariantFields.title.default(''),
  options: VariantFields.options.default({}),
  price: VariantFields.price.optional(),
  prices: VariantFields.prices.optional(),
  inventoryQuantity: VariantFields.inventoryQuantity.default(0),
  position: VariantFields.position.optional(),
  barcode: VariantFields.barcode.optional(),
  compareAtPrice: VariantFields.compareAtPrice.optional(),
  cost: VariantFields.cost.optional(),
  weight: VariantFields.weight.optional(),
  imageId: VariantFields.imageId.optional(),
  attributes: VariantFields.attributes.default({}),
});

/** One item of a bulk update: the variant's id and the fields to change; fields left out are kept. */
export const VariantPatchInput = z.object({ id: z.string(), ...VariantFields }).partial().required({ id: true });

const ReplaceInput = z.object({ variants: z.array(VariantInput).max(variantsPerProduct, TOO_MANY_VARIANTS) });
const PatchInput = z.object({ variants: z.array(VariantPatchInput).min(1, 'must name at least one variant').max(variantsPerProduct, TOO_MANY_VARIANTS) });

const OPAQUE_KEYS = /^(variants\.\d+\.(?:options|attributes))\.(.*)$/s;

/** Where each variant's prices are in a write's list, for the store's check. */
const variantPrices = (input: unknown) => (Array.isArray(input) ? input.map((v, i) => ({ input: (v as { prices?: unknown } | null)?.prices, field: `variants.${i}.prices` })) : []);

/**
 * 422 with every error of a variant write at once: the schema's, and the prices in currencies the store does not
 * sell in (which need the store's row, read only when some variant sends prices).
 */
async function checkVariantWrite(ctx: RequestContext, storeId: string, schema: z.ZodType, input: unknown) {
  const errors = [...storeErrorsOf(schema, input), ...(await storePriceErrors(ctx, storeId, variantPrices(input)))];
  if (errors.length) throw validationError(errors);
}
const storeErrorsOf = (schema: z.ZodType, input: unknown) => {
  try {
    withOpaqueKeysInMessages(() => parseInput(schema, { variants: input }), OPAQUE_KEYS);
    return [];
  } catch (e) {
    if (e instanceof AppError && e.errors) return e.errors;
    throw e;
  }
};

export function parseVariants(input: unknown) {
  const { variants } = withOpaqueKeysInMessages(() => parseInput(ReplaceInput, { variants: input }), OPAQUE_KEYS);
  const rows = variants.map((v, i) => ({ ...v, optionsKey: optionsKey(v.options), position: v.position ?? i }));
  const errors = [...duplicateErrors(rows.map((v, i) => ({ ...v, field: `variants.${i}` })))];
  if (errors.length) throw validationError(errors);
  return rows;
}

type CheckedVariant = ReturnType<typeof parseVariants>[number];

/**
 * A new product's variant list (createProduct), checked as replaceVariants checks one before its transaction:
 * every error at once (the schema's, prices in currencies the store lacks, a SKU or combination twice), named
 * variants.N.…; else the checked rows.
 */
export async function newVariantList(ctx: RequestContext, storeId: string, input: unknown): Promise<{ errors: FieldError[]; rows: CheckedVariant[] }> {
  const errors = [...storeErrorsOf(ReplaceInput, input), ...(await storePriceErrors(ctx, storeId, variantPrices(input)))];
  if (errors.length) return { errors: [...errors, ...rawSkuDuplicates(input)], rows: [] };
  try {
    return { errors: [], rows: parseVariants(input) };
  } catch (e) {
    if (e instanceof AppError && e.errors) return { errors: e.errors, rows: [] };
    throw e;
  }
}

/** The same SKU twice in a list that failed its schema (parseVariants names them in a clean one). */
function rawSkuDuplicates(input: unknown): FieldError[] {
  if (!Array.isArray(input)) return [];
  const skus = input.map((v) => (v && typeof v === 'object' && typeof (v as { sku?: unknown }).sku === 'string' ? (v as { sku: string }).sku.trim() : undefined));
  return duplicateErrors(skus.flatMap((sku, i) => (sku ? [{ sku, optionsKey: `#${i}`, field: `variants.${i}` }] : [])));
}

/**
 * The checks of a new product's variants that need the product and the store, in the create's transaction: the
 * options they leave it with, its rules (productRuleErrors), SKUs another product of the store holds
 * (sku_taken). Answers the errors, or the options and rows to write once the product row exists.
 */
export async function newProductVariantPlan(
  t: TransactionContext,
  product: { id: string; storeId: string; price: Money; productTypeId: string | null; options: ProductOption[] },
  rows: CheckedVariant[],
) {
  const fields = rows.map((v, i) => ({ ...v, field: `variants.${i}` }));
  const extended = optionsOfVariantSet(product.options, fields);
  const rules = await productRuleErrors(t, product, fields);
  const skus = rows.map((v) => v.sku);
  const held = new Set((await t.tx.variant.findMany({ where: { storeId: product.storeId, mode: t.mode, sku: { in: skus } }, select: { sku: true } })).map((v) => v.sku));
  const taken = skus.flatMap((sku, i) => (held.has(sku) ? [{ field: `variants.${i}.sku`, code: 'sku_taken', message: `SKU "${sku}" is already used by another variant` }] : []));
  const errors = [...extended.errors, ...rules.errors, ...taken];
  const checked = rows.map((v, i) => variantRow(product.storeId, product.id, t.mode, { ...v, attributes: (rules.attributes[i] ?? {}) as CheckedVariant['attributes'] }));
  return { errors, options: extended.options, rows: checked };
}

/** A new product's variants, written after its row (newProductVariantPlan checked them). */
export const insertNewProductVariants = (t: TransactionContext, storeId: string, productId: string, rows: ReturnType<typeof variantRow>[]) =>
  insertVariants(t, storeId, productId, rows.map((r) => ({ ...r, productId })));

/** A write that lost a race for a SKU (another product took it between the check and the insert): 409 sku_taken. */
export const newProductSkuConflict = (ctx: RequestContext, storeId: string, skus: string[]) => skuConflict(ctx, storeId, '00000000-0000-0000-0000-000000000000', skus);

/** The same SKU or the same option combination twice in one set, each named at its later place. */
function duplicateErrors(variants: { sku: string; optionsKey: string; field: string }[]): FieldError[] {
  const errors: FieldError[] = [];
  const firstSku = new Map<string, string>();
  const firstCombo = new Map<string, string>();
  for (const v of variants) {
    const sameSku = firstSku.get(v.sku);
    if (sameSku !== undefined) errors.push({ field: `${v.field}.sku`, code: 'duplicate_sku', message: `SKU "${v.sku}" is also used by ${sameSku}` });
    else firstSku.set(v.sku, v.field);
    const sameCombo = firstCombo.get(v.optionsKey);
    if (sameCombo !== undefined) errors.push({ field: `${v.field}.options`, code: 'duplicate_options', message: `the option combination ${v.optionsKey} is also used by ${sameCombo}` });
    else firstCombo.set(v.optionsKey, v.field);
  }
  return errors;
}

type Money = { toString(): string } | string | null | undefined;
const moneyValue = (v: Money) => (v == null ? null : Number(v.toString()));

type ComparedVariant = {
  sku: string;
  title: string;
  optionsKey: string;
  price?: Money;
  inventoryQuantity: number;
  position: number;
  barcode?: string | null;
  compareAtPrice?: Money;
  cost?: Money;
  weight?: { value: number; unit: string } | null;
  weightValue?: Money;
  weightUnit?: string | null;
  imageId?: string | null;
  attributes?: unknown;
  prices?: unknown;
};
/** A variant as a replace would write it: prices by value (21.5 and "21.50" are one price), options by their canonical key. */
const variantKey = (v: ComparedVariant) =>
  JSON.stringify([
    v.sku,
    v.title,
    v.optionsKey,
    moneyValue(v.price),
    v.inventoryQuantity,
    v.position,
    v.barcode ?? null,
    moneyValue(v.compareAtPrice),
    moneyValue(v.cost),
    v.weight !== undefined ? (v.weight && [v.weight.value, v.weight.unit]) : v.weightValue == null ? null : [moneyValue(v.weightValue), v.weightUnit],
    v.imageId ?? null,
    optionsKey((v.attributes ?? {}) as Record<string, string>),
    optionsKey((v.prices ?? {}) as Record<string, string>),
  ]);

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

/** The columns of a variant row from its checked input (replaceVariants, the bulk import). */
export function variantRow(storeId: string, productId: string, mode: Mode, v: CheckedVariant) {
  return {
    storeId,
    productId,
    mode,
    sku: v.sku,
    title: v.title,
    options: v.options,
    optionsKey: v.optionsKey,
    price: v.price ?? null,
    prices: v.prices ?? {},
    inventoryQuantity: v.inventoryQuantity,
    position: v.position,
    barcode: v.barcode ?? null,
    compareAtPrice: v.compareAtPrice ?? null,
    cost: v.cost ?? null,
    weightValue: v.weight?.value ?? null,
    weightUnit: v.weight?.unit ?? null,
    imageId: v.imageId ?? null,
    attributes: v.attributes as Prisma.InputJsonValue,
  };
}

/**
 * The options a whole variant set leaves the product with (its declared ones grown by what the variants use,
 * extendOptions) and the errors: a name or value the options could not take, an option a variant names no
 * value of. replaceVariants and the bulk import's new products.
 */
export function optionsOfVariantSet(declared: ProductOption[], variants: { options: Record<string, string>; field: string }[]) {
  const extended = extendOptions(declared, variants.map((v) => ({ options: v.options, field: `${v.field}.options` })));
  // A name or value the options could not take is reported by extendOptions; what is left is a missing option.
  const missing = variants.flatMap((v) => variantOptionErrors(extended.options, v.options, `${v.field}.options`).filter((e) => e.code === 'missing_option'));
  return { options: extended.options, errors: [...extended.errors, ...missing] };
}

/** A variant as the rules that need its product see it (its merged state, for a patch). */
interface VariantToCheck {
  field: string;
  price?: Money;
  compareAtPrice?: Money;
  imageId?: string | null;
  /** The attribute values the write sends (a new set); undefined when it leaves them as they are. */
  attributes?: Record<string, unknown>;
}

/**
 * The rules a variant keeps to its product, all errors at once: a compare-at price above the price it sells
 * at (its own, else the product's), an image of the product's own, attributes of its type (the type held to
 * the commit by productTypeForWrite). Answers the attribute values as stored (normalised), by the variant's
 * place in `variants`; undefined where it sent none.
 */
export async function productRuleErrors(t: TransactionContext, product: { id: string; storeId: string; price: Money; productTypeId: string | null }, variants: VariantToCheck[]) {
  const errors: FieldError[] = [];
  const wantedImages = [...new Set(variants.flatMap((v) => (v.imageId ? [v.imageId] : [])))];
  const images = wantedImages.length
    ? new Set((await t.tx.productImage.findMany({ where: { productId: product.id, id: { in: wantedImages.filter(isUuid) } }, select: { id: true } })).map((i) => i.id))
    : new Set<string>();
  const type = await variantTypeForWrite(t, product, variants);
  const references: AttributeReference[] = [];
  const attributes = variants.map((v) => {
    const compareAt = moneyValue(v.compareAtPrice);
    const price = moneyValue(v.price) ?? moneyValue(product.price)!;
    if (compareAt !== null && compareAt <= price) {
      errors.push({ field: `${v.field}.compareAtPrice`, code: 'compare_at_price_not_above_price', message: `must be greater than the price the variant sells at (${price})` });
    }
    if (v.imageId && !images.has(v.imageId)) errors.push({ field: `${v.field}.imageId`, code: 'unknown_image', message: 'is not an image of this product' });
    if (v.attributes === undefined) return undefined;
    const check = variantAttributeErrors(type, v.attributes, `${v.field}.attributes`);
    errors.push(...check.errors);
    references.push(...check.references);
    return check.values;
  });
  errors.push(...(await unknownReferenceErrors(t.tx, product.storeId, references)));
  return { errors, attributes };
}

/** The product's type when some variant sends attribute values (null: the product has none). */
async function variantTypeForWrite(t: TransactionContext, product: { storeId: string; productTypeId: string | null }, variants: VariantToCheck[]) {
  if (!product.productTypeId || variants.every((v) => v.attributes === undefined)) return null;
  return productTypeForWrite(t.tx, product.storeId, product.productTypeId);
}

/** The parts a variant write reads of its product before writing: its count (the event's variants_count). */
const BEFORE_PARTS = { _count: PRODUCT_VIEW_INCLUDE._count };

/**
 * Replaces the product's whole variant set in one transaction. A variant whose
 * SKU was already on the product keeps its id and created_at, so references to
 * it survive a replace. Option names and values the product does not declare
 * yet are added to its options (extendOptions); every variant must then name
 * one value of each. The product's search text gains the SKUs and its
 * version is bumped (an If-Match taken before the replace is stale after it).
 */
export async function replaceVariants(ctx: RequestContext, storeId: string, productId: string, input: unknown, query: VariantQuery = {}, opts: { expectedVersion?: number | null } = {}) {
  await checkVariantWrite(ctx, storeId, ReplaceInput, input);
  const rows = parseVariants(input);
  if (!isUuid(productId)) throw notFound('Product');
  const skus = rows.map((v) => v.sku);
  try {
    return await transaction(ctx, async (t) => {
      const before = await productBeforeWrite(t, storeId, productId, BEFORE_PARTS);
      requireVersion(before, opts.expectedVersion);
      const declared = optionsOf(before.options);
      const fields = rows.map((v, i) => ({ ...v, field: `variants.${i}` }));
      const extended = optionsOfVariantSet(declared, fields);
      const errors = [...extended.errors];
      const rules = await productRuleErrors(t, before, fields);
      errors.push(...rules.errors);
      if (errors.length) throw validationError(errors);
      const checked = rows.map((v, i) => ({ ...v, attributes: (rules.attributes[i] ?? {}) as CheckedVariant['attributes'] }));
      let previous: Awaited<ReturnType<typeof t.tx.variant.findMany>> = [];
      const options = sameOptions(declared, extended.options) ? undefined : (extended.options as unknown as Prisma.InputJsonValue);
      const after = await writeProductVersion(t, before, { searchText: searchText(before, skus), options }, {}, async () => {
        // The product row is locked now, so concurrent replaces of one product run one after the other.
        previous = await t.tx.variant.findMany({ where: { productId }, orderBy: ORDER });
        const bySku = new Map(previous.map((v) => [v.sku, v]));
        await t.tx.variant.deleteMany({ where: { productId } });
        await insertVariants(
          t,
          storeId,
          productId,
          checked.map((v) => ({ ...variantRow(storeId, productId, t.mode, v), id: bySku.get(v.sku)?.id, createdAt: bySku.get(v.sku)?.createdAt })),
        );
      });
      const variants = await t.tx.variant.findMany({ ...withIncludes(query, {}), where: { productId }, orderBy: ORDER });
      emitProductEvent(t, 'product.variants_replaced', after, {
        before,
        extra: { variants: variants.map(variantView) },
        previousExtra: { variants: previous.map(variantView) },
      });
      return variants;
    }, { timeoutMs: VARIANT_WRITE_TIMEOUT_MS });
  } catch (e) {
    if (violatedUniqueIndex(e) === 'variants_store_id_mode_sku_key') throw await skuConflict(ctx, storeId, productId, skus);
    throw e;
  }
}

type VariantRecord = Prisma.VariantGetPayload<object>;

/** A stored variant with a patch applied, as the row to write. */
function patched(row: VariantRecord, patch: z.output<typeof VariantPatchInput>) {
  const { updatedAt: _updatedAt, ...kept } = row;
  const options = patch.options ?? (row.options as Record<string, string>);
  return {
    ...kept,
    sku: patch.sku ?? row.sku,
    title: patch.title ?? row.title,
    options,
    optionsKey: optionsKey(options),
    price: patch.price !== undefined ? patch.price : row.price,
    prices: patch.prices ?? row.prices,
    inventoryQuantity: patch.inventoryQuantity ?? row.inventoryQuantity,
    position: patch.position ?? row.position,
    barcode: patch.barcode !== undefined ? patch.barcode : row.barcode,
    compareAtPrice: patch.compareAtPrice !== undefined ? patch.compareAtPrice : row.compareAtPrice,
    cost: patch.cost !== undefined ? patch.cost : row.cost,
    weightValue: patch.weight !== undefined ? (patch.weight?.value ?? null) : row.weightValue,
    weightUnit: patch.weight !== undefined ? (patch.weight?.unit ?? null) : row.weightUnit,
    imageId: patch.imageId !== undefined ? patch.imageId : row.imageId,
    attributes: (patch.attributes ?? row.attributes) as Prisma.InputJsonValue,
  };
}

/**
 * Updates many variants of one product by id in one write: each item names a variant and the fields to change
 * (fields left out are kept, null clears a nullable one). Every error of every item comes at once, named
 * `variants.N.field`; options must be the product's (unknown_option, unknown_option_value, missing_option).
 * One version and one product.variants_updated event; items that change nothing write nothing, and a request
 * that changes nothing makes no version. Answers the named variants in the order named.
 */
export async function updateVariants(ctx: RequestContext, storeId: string, productId: string, input: unknown, query: VariantQuery = {}, opts: { expectedVersion?: number | null } = {}) {
  await checkVariantWrite(ctx, storeId, PatchInput, input);
  const { variants: patches } = withOpaqueKeysInMessages(() => parseInput(PatchInput, { variants: input }), OPAQUE_KEYS);
  if (!isUuid(productId)) throw notFound('Product');
  const skus = patches.map((p) => p.sku ?? '');
  try {
    return await transaction(ctx, async (t) => {
      const before = await productBeforeWrite(t, storeId, productId, BEFORE_PARTS);
      requireVersion(before, opts.expectedVersion);
      const options = optionsOf(before.options);
      const previous = await t.tx.variant.findMany({ where: { productId }, orderBy: ORDER });
      const byId = new Map(previous.map((v) => [v.id, v]));
      const errors: FieldError[] = [];
      const named = new Map<string, number>();
      const merged = new Map<string, ReturnType<typeof patched> & { field: string }>();
      patches.forEach((p, i) => {
        const field = `variants.${i}`;
        const row = byId.get(p.id);
        if (!row) return errors.push({ field: `${field}.id`, code: 'unknown_variant', message: 'is not a variant of this product' });
        const first = named.get(p.id);
        if (first !== undefined) return errors.push({ field: `${field}.id`, code: 'duplicate_variant', message: `is also named by variants.${first}` });
        named.set(p.id, i);
        if (p.options) errors.push(...variantOptionErrors(options, p.options, `${field}.options`));
        merged.set(p.id, { ...patched(row, p), field });
      });
      // The whole set after the patch (a SKU or combination may move from one variant to another in one
      // request), the patched ones last, so that a clash is named at the item that made it.
      const after = [...previous.filter((v) => !merged.has(v.id)).map((v) => ({ ...v, field: `variant ${v.sku}` })), ...merged.values()];
      errors.push(...duplicateErrors(after));
      // Only what the item sends is checked against the product: a compare-at price that a later change of
      // the product's price overtook does not block an inventory update.
      const sent = patches.flatMap((p) => {
        const v = merged.get(p.id);
        if (!v || named.get(p.id) !== patches.indexOf(p)) return [];
        const pricing = p.price !== undefined || p.compareAtPrice !== undefined;
        return [{ id: p.id, field: v.field, price: v.price, compareAtPrice: pricing ? v.compareAtPrice : null, imageId: p.imageId, attributes: p.attributes }];
      });
      const rules = await productRuleErrors(t, before, sent);
      errors.push(...rules.errors);
      if (errors.length) throw validationError(errors);
      sent.forEach((v, i) => {
        const values = rules.attributes[i];
        if (values) merged.get(v.id)!.attributes = values as Prisma.InputJsonValue;
      });

      const changed = [...merged.values()].filter((v) => variantKey(v) !== variantKey(byId.get(v.id)!));
      const ids = patches.map((p) => p.id);
      if (changed.length) {
        const product = await writeProductVersion(t, before, { searchText: searchText(before, after.map((v) => v.sku)) }, {}, async () => {
          // Written anew (same id and created_at): row-by-row updates could meet the SKU or combination uniqueness
          // halfway through a swap.
          await deleteVariants(t, changed.map((v) => v.id));
          await insertVariants(t, storeId, productId, changed);
        });
        const variants = await t.tx.variant.findMany({ where: { productId }, orderBy: ORDER });
        emitProductEvent(t, 'product.variants_updated', product, {
          before,
          extra: { variants: variants.map(variantView) },
          previousExtra: { variants: previous.map(variantView) },
        });
      }
      const result = await t.tx.variant.findMany({ ...withIncludes(query, {}), where: { id: { in: ids } } });
      const order = new Map(ids.map((id, i) => [id, i]));
      return result.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    }, { timeoutMs: VARIANT_WRITE_TIMEOUT_MS });
  } catch (e) {
    if (violatedUniqueIndex(e) === 'variants_store_id_mode_sku_key') throw await skuConflict(ctx, storeId, productId, skus);
    throw e;
  }
}

const GenerateInput = z.object({
  price: Price.nullish(),
  inventoryQuantity: VariantFields.inventoryQuantity.optional(),
  skuPattern: z.string().trim().min(1, 'must not be empty').max(200).optional(),
  /** Attribute values every generated variant gets; needed when the product type requires some of variants. */
  attributes: VariantFields.attributes.optional(),
});
export type GenerateVariantsInput = z.input<typeof GenerateInput>;

/** `{product}`: the product's id up to its first hyphen, in capitals; SKUs must be unique in the store. */
const productCode = (id: string) => id.split('-')[0].toUpperCase();

/** The default SKU pattern: the product's code and each option's value, joined by hyphens ("3F8E2A4C-M-Red"). */
export const defaultSkuPattern = (options: ProductOption[]) => ['{product}', ...options.map((o) => `{${o.name}}`)].join('-');

/**
 * A variant's SKU from the pattern: `{product}` is the product's code, `{position}` the variant's position,
 * and `{<option name>}` (without case) its value of that option; any other `{…}` is an error.
 */
function skuRenderer(pattern: string, options: ProductOption[], productId: string) {
  const unknown: string[] = [];
  const parts = pattern.split(/(\{[^{}]*\})/).map((part) => {
    if (!/^\{[^{}]*\}$/.test(part)) {
      // A brace outside a placeholder is a mistyped one, never part of a SKU.
      if (/[{}]/.test(part)) unknown.push(part);
      return () => part;
    }
    const name = part.slice(1, -1);
    if (name === 'product') return () => productCode(productId);
    if (name === 'position') return (_combo: Record<string, string>, position: number) => String(position);
    const option = options.find((o) => o.name.toLowerCase() === name.toLowerCase());
    if (!option) unknown.push(part);
    return (combo: Record<string, string>) => combo[option?.name ?? ''] ?? '';
  });
  return { unknown, render: (combo: Record<string, string>, position: number) => parts.map((p) => p(combo, position)).join('') };
}

/** Every combination of the options' values, the first option varying slowest (S/Red, S/Blue, M/Red, …). */
function combinations(options: ProductOption[]): Record<string, string>[] {
  return options.reduce<Record<string, string>[]>((combos, o) => combos.flatMap((c) => o.values.map((v) => ({ ...c, [o.name]: v }))), [{}]);
}

/**
 * Creates every combination of the product's options that no variant has yet, in one write, after the
 * existing variants (by position), with the defaults given (price null: the product's; inventory 0; SKUs from
 * the pattern, defaultSkuPattern when none). A product without options has one combination, the empty one
 * (its default variant). More than variantsPerProduct in all is 422 limit_exceeded; a generated SKU another
 * variant of the store holds is 409 sku_taken naming them; nothing is written then.
 */
export async function generateVariants(ctx: RequestContext, storeId: string, productId: string, input: GenerateVariantsInput, query: VariantQuery = {}, opts: { expectedVersion?: number | null } = {}) {
  const data = parseInput(GenerateInput, input);
  if (!isUuid(productId)) throw notFound('Product');
  let generated: string[] = [];
  try {
    return await transaction(ctx, async (t) => {
      const before = await productBeforeWrite(t, storeId, productId, BEFORE_PARTS);
      requireVersion(before, opts.expectedVersion);
      const options = optionsOf(before.options);
      const sku = skuRenderer(data.skuPattern ?? defaultSkuPattern(options), options, productId);
      if (sku.unknown.length) {
        throw validationError([
          { field: 'skuPattern', code: 'unknown_placeholder', message: `${sku.unknown.join(', ')}: placeholders are {product}, {position} and the option names (${options.map((o) => `{${o.name}}`).join(', ') || 'none'})` },
        ]);
      }
      const existing = await t.tx.variant.findMany({ where: { productId }, orderBy: ORDER });
      const total = options.reduce((n, o) => n * o.values.length, 1);
      const have = new Set(existing.map((v) => v.optionsKey));
      // Counted before any combination is made: 5 options of 100 values are 10^10 combinations.
      const missing = total > variantsPerProduct ? undefined : combinations(options).filter((c) => !have.has(optionsKey(c)));
      if (!missing || existing.length + missing.length > variantsPerProduct) {
        throw limitExceeded('variantsPerProduct', `A product has at most ${variantsPerProduct} variants: its options make ${total} combinations and it has ${existing.length} variants`);
      }
      if (!missing.length) return [];
      const start = existing.reduce((max, v) => Math.max(max, v.position + 1), 0);
      const rows = missing.map((options, i) => ({ options, position: start + i, sku: sku.render(options, start + i), title: generatedVariantTitle(Object.values(options)) }));
      generated = rows.map((r) => r.sku);
      const errors: FieldError[] = [];
      const long = rows.filter((r) => r.sku.length > 100);
      if (long.length) errors.push({ field: 'skuPattern', code: 'too_big', message: `makes SKUs over 100 characters: ${long.slice(0, 5).map((r) => r.sku).join(', ')}` });
      const dup = duplicateErrors(rows.map((r, i) => ({ sku: r.sku, optionsKey: String(i), field: '' })));
      if (dup.length) errors.push({ field: 'skuPattern', code: 'duplicate_sku', message: `makes the same SKU for several variants (${[...new Set(dup.map((e) => e.message.split('"')[1]))].slice(0, 5).join(', ')}): name every option with more than one value` });
      const rules = await productRuleErrors(t, before, [{ field: '', attributes: data.attributes ?? {} }]);
      // The values are every variant's: named as the request sends them (`attributes.<code>`).
      errors.push(...rules.errors.map((e) => ({ ...e, field: e.field.replace(/^\./, '') })));
      if (errors.length) throw validationError(errors);
      const taken = (
        await t.tx.$queryRaw<{ sku: string }[]>`SELECT sku FROM variants WHERE store_id = ${storeId}::uuid AND mode = ${t.mode}::"Mode" AND sku = ANY(${generated}::text[])`
      ).map((v) => v.sku);
      if (taken.length) throw skusTaken(taken.sort(), () => 'skuPattern');

      const product = await writeProductVersion(t, before, { searchText: searchText(before, [...existing.map((v) => v.sku), ...generated]) }, {}, () =>
        insertVariants(
          t,
          storeId,
          productId,
          rows.map((r) => ({
            sku: r.sku,
            title: r.title,
            options: r.options,
            optionsKey: optionsKey(r.options),
            price: data.price ?? null,
            prices: {},
            inventoryQuantity: data.inventoryQuantity ?? 0,
            position: r.position,
            barcode: null,
            compareAtPrice: null,
            cost: null,
            weightValue: null,
            weightUnit: null,
            imageId: null,
            attributes: rules.attributes[0] as Prisma.InputJsonValue,
          })),
        ),
      );
      const variants = await t.tx.variant.findMany({ ...withIncludes(query, {}), where: { productId }, orderBy: ORDER });
      emitProductEvent(t, 'product.variants_updated', product, {
        before,
        extra: { variants: variants.map(variantView) },
        previousExtra: { variants: existing.map(variantView) },
      });
      return variants.filter((v) => v.position >= start);
    }, { timeoutMs: VARIANT_WRITE_TIMEOUT_MS });
  } catch (e) {
    if (violatedUniqueIndex(e) === 'variants_store_id_mode_sku_key') throw await skuConflict(ctx, storeId, productId, generated, () => 'skuPattern');
    throw e;
  }
}

/** 409 sku_taken for these SKUs, each named at its field. */
const skusTaken = (takenSkus: string[], fieldOf: (sku: string) => string) =>
  new AppError('sku_taken', `SKU already used by another variant of this store: ${takenSkus.join(', ')}`, {
    errors: takenSkus.map((sku) => ({ field: fieldOf(sku), code: 'sku_taken', message: `SKU "${sku}" is already used by another variant` })),
    details: { skus: takenSkus },
  });

/** After a rolled-back write: which requested SKUs another product of the store holds. */
async function skuConflict(ctx: RequestContext, storeId: string, productId: string, skus: string[], fieldOf = (sku: string) => `variants.${skus.indexOf(sku)}.sku`) {
  const taken = await ctx.db.variant.findMany({
    where: { ...catalogOf(ctx, storeId), sku: { in: skus }, productId: { not: productId } },
    select: { sku: true },
  });
  const takenSkus = skus.filter((s) => taken.some((t) => t.sku === s));
  if (takenSkus.length === 0) return new AppError('conflict', 'The SKUs changed concurrently; retry the request');
  return skusTaken(takenSkus, fieldOf);
}
