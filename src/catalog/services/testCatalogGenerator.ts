/**
 * The test catalog's generator: fake products made straight into the test
 * catalog, shaped like a real merchant's (options with a variant per
 * combination, barcodes, compare-at prices, costs, weights, and attribute
 * values for the store's own product types), so an integration can be built
 * against a full catalog before the live one has any.
 *
 * Attributes and product types are the store's, shared by both catalogs: the
 * generator reads them and never creates any. A store without product types
 * gets products without attribute values.
 *
 * A store with further currencies gets a price in each of them on every
 * product, with the currency's minor-unit digits: an amount of its own drawn
 * for that currency, never the default price converted (no exchange rate
 * exists here).
 *
 * Each generated product is recorded as product.created in test mode, as a
 * product made by hand would be (a call makes at most MAX_GENERATED_PRODUCTS).
 *
 * A store with further locales gets products translated into them
 * (testCatalogTranslations.ts), drawn from a second stream of the same seed:
 * the products themselves are the same with or without locales.
 */

import { syncSmartMembership } from './collectionMembership';
import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { gtin13 } from '../../kernel/gtin';
import { transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound } from '../../platform/errors';
import { isUuid } from '../../kernel/ids';
import { withIncludes } from '../../platform/db/queryMerge';
import { parseInput } from '../../platform/validation';
import { emitProductEvent, searchText } from './products';
import { optionsKey } from './options';
import { generatedVariantTitle } from './optionRules';
import { PRODUCT_VIEW_INCLUDE } from './views';
import { minorUnits } from '../../kernel/money';
import type { StoredPrices } from './prices';
import { lockedStoreLocales } from './translations';
import { generatedTranslations } from './testCatalogTranslations';

/** Products one call makes. */
export const MAX_GENERATED_PRODUCTS = 100;
/** Variants of one generated product: its options' value counts are cut down until their combinations fit. */
export const MAX_GENERATED_VARIANTS = 24;

export const GenerateTestProductsInput = z
  .object({
    count: z.number().int().min(1).max(MAX_GENERATED_PRODUCTS, `at most ${MAX_GENERATED_PRODUCTS} products per call`),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  })
  .strict();
export type GenerateTestProducts = z.input<typeof GenerateTestProductsInput>;

/** mulberry32: a small seeded generator, so a seed gives the same products (not the same SKUs) again. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  /** `n` distinct items in their list order. */
  const some = <T>(items: readonly T[], n: number): T[] => {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(n, items.length)) chosen.add(Math.floor(next() * items.length));
    return [...chosen].sort((x, y) => x - y).map((i) => items[i]);
  };
  return { next, int, pick, some, chance: (p: number) => next() < p };
}
type Random = ReturnType<typeof seededRandom>;

const ADJECTIVES = ['Classic', 'Modern', 'Vintage', 'Rustic', 'Sleek', 'Cozy', 'Bold', 'Soft', 'Urban', 'Coastal', 'Alpine', 'Minimal'];
const MATERIALS = ['Cotton', 'Wool', 'Linen', 'Leather', 'Silk', 'Denim', 'Bamboo', 'Canvas', 'Ceramic', 'Oak'];
const NOUNS = ['Shirt', 'Jacket', 'Scarf', 'Hat', 'Bag', 'Mug', 'Lamp', 'Chair', 'Blanket', 'Sweater', 'Backpack', 'Tote'];
const TAGS = ['sale', 'new', 'summer', 'winter', 'gift', 'eco', 'premium', 'basic'];
/** Option names with the values a product draws from (2 to 4 of them). */
const OPTIONS: { name: string; values: string[] }[] = [
  { name: 'Size', values: ['XS', 'S', 'M', 'L', 'XL'] },
  { name: 'Color', values: ['Black', 'White', 'Navy', 'Red', 'Green', 'Sand'] },
  { name: 'Material', values: ['Cotton', 'Linen', 'Wool', 'Recycled'] },
  { name: 'Style', values: ['Regular', 'Slim', 'Relaxed'] },
];
const WEIGHT_UNITS = ['g', 'kg', 'oz', 'lb'] as const;

const money = (n: number) => n.toFixed(2);

/** 2 or 3 options with 2-4 values each, the largest cut down until the combinations fit MAX_GENERATED_VARIANTS. */
export function generateOptions(rng: Random): { name: string; values: string[] }[] {
  const chosen = rng.some(OPTIONS, rng.int(2, 3));
  const counts = chosen.map((o) => rng.int(2, Math.min(4, o.values.length)));
  while (counts.reduce((a, b) => a * b, 1) > MAX_GENERATED_VARIANTS) counts[counts.indexOf(Math.max(...counts))]--;
  return chosen.map((o, i) => ({ name: o.name, values: rng.some(o.values, counts[i]) }));
}

/** Every combination of the options' values, the first option varying slowest. */
export function combinations(options: { name: string; values: string[] }[]): Record<string, string>[] {
  return options.reduce<Record<string, string>[]>((combos, o) => combos.flatMap((c) => o.values.map((v) => ({ ...c, [o.name]: v }))), [{}]);
}

type TypedAttribute = { code: string; type: string; values: Prisma.JsonValue; referenceType: string | null };
type ProductTypeWithAttributes = { id: string; attributes: { level: 'product' | 'variant'; required: boolean; attribute: TypedAttribute }[] };

const pad = (n: number) => String(n).padStart(2, '0');
const valueKeys = (a: TypedAttribute) => (Array.isArray(a.values) ? a.values.map((v) => (v as { value?: unknown })?.value).filter((v): v is string => typeof v === 'string') : []);

/**
 * A valid value of the attribute as product and variant `attributes` store it, or undefined when it has none to
 * offer (a dropdown without values, a reference with nothing to point at).
 */
export function attributeValue(rng: Random, a: TypedAttribute, refs: { categoryIds: string[]; productIds: string[] }): Prisma.InputJsonValue | undefined {
  switch (a.type) {
    case 'plain_text':
      return `${rng.pick(ADJECTIVES)} and ${rng.pick(ADJECTIVES).toLowerCase()}, made of ${rng.pick(MATERIALS).toLowerCase()}.`;
    case 'rich_text':
      return `<p>${rng.pick(ADJECTIVES)} <strong>${rng.pick(MATERIALS).toLowerCase()}</strong> ${rng.pick(NOUNS).toLowerCase()}.</p>`;
    case 'numeric':
      return rng.int(1, 1000) / 10;
    case 'boolean':
      return rng.chance(0.5);
    case 'date':
      return `${rng.int(2020, 2026)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
    case 'date_time':
      return `${rng.int(2020, 2026)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}T${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:00.000Z`;
    case 'dropdown':
    case 'swatch': {
      const keys = valueKeys(a);
      return keys.length ? rng.pick(keys) : undefined;
    }
    case 'multiselect': {
      const keys = valueKeys(a);
      return keys.length ? rng.some(keys, rng.int(1, Math.min(3, keys.length))) : undefined;
    }
    case 'reference': {
      const ids = a.referenceType === 'category' ? refs.categoryIds : refs.productIds;
      return ids.length ? rng.pick(ids) : undefined;
    }
    default:
      return undefined;
  }
}

/** Values for a level of the type's attributes: every required one, about two in three of the others. */
function attributeValues(rng: Random, type: ProductTypeWithAttributes | undefined, level: 'product' | 'variant', refs: { categoryIds: string[]; productIds: string[] }) {
  const out: Record<string, Prisma.InputJsonValue> = {};
  for (const { attribute, required, level: assigned } of type?.attributes ?? []) {
    if (assigned !== level) continue;
    if (!required && !rng.chance(0.67)) continue;
    const value = attributeValue(rng, attribute, refs);
    if (value !== undefined) out[attribute.code] = value;
  }
  return out;
}

/**
 * Makes `count` products in the store's test catalog (whatever the request's
 * mode) in one transaction and answers them, newest last. Each is in one of
 * the store's categories (a store without categories: 422 category_required)
 * and, when the store has product types, of one picked at random.
 */
export async function generateTestProducts(ctx: RequestContext, storeId: string, input: GenerateTestProducts, query: { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect } = {}) {
  const { count, seed } = parseInput(GenerateTestProductsInput, input);
  if (!isUuid(storeId) || !(await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }))) throw notFound('Store');
  const seedValue = seed ?? randomBytes(4).readUInt32BE(0);
  const rng = seededRandom(seedValue);
  const translationRng = seededRandom((seedValue ^ 0x5bd1e995) >>> 0);
  return transaction({ ...ctx, mode: 'test' }, async (t) => {
    // Held until the commit, so a category or type deleted meanwhile waits instead of failing a foreign key here.
    const categories = await t.tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM categories WHERE store_id = ${storeId}::uuid ORDER BY slug FOR KEY SHARE`;
    if (!categories.length) {
      throw new AppError('category_required', 'The store has no categories to put generated products in; create one first', {
        errors: [{ field: 'count', code: 'category_required', message: 'the store has no categories' }],
      });
    }
    const typeIds = await t.tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM product_types WHERE store_id = ${storeId}::uuid ORDER BY name FOR KEY SHARE`;
    const types: ProductTypeWithAttributes[] = typeIds.length
      ? await t.tx.productType.findMany({
          where: { id: { in: typeIds.map((x) => x.id) } },
          orderBy: { name: 'asc' },
          select: { id: true, attributes: { orderBy: { position: 'asc' }, select: { level: true, required: true, attribute: { select: { code: true, type: true, values: true, referenceType: true } } } } },
        })
      : [];
    const { currencies } = await t.tx.store.findUniqueOrThrow({ where: { id: storeId }, select: { currencies: true } });
    // Held as every translation write holds them: a locale removal waits for the generated translations.
    const { locales } = await lockedStoreLocales(t, storeId);
    const skuPrefix = await freeSkuPrefix(t, storeId);
    const categoryIds = categories.map((c) => c.id);
    const productIds: string[] = [];
    const products: Prisma.ProductCreateManyInput[] = [];
    const links: Prisma.ProductCategoryCreateManyInput[] = [];
    const variants: Prisma.VariantCreateManyInput[] = [];
    const translations: Prisma.ProductTranslationCreateManyInput[] = [];
    const now = t.now();
    for (let n = 1; n <= count; n++) {
      const id = uuidv7();
      const material = rng.pick(MATERIALS);
      const noun = rng.pick(NOUNS);
      const adjective = rng.pick(ADJECTIVES);
      const name = `${adjective} ${material} ${noun}`;
      const description = `A ${noun.toLowerCase()} made of ${material.toLowerCase()}, generated for the test catalog.`;
      const tags = rng.some(TAGS, rng.int(0, 2));
      const price = rng.int(500, 20000) / 100;
      const inventoryQuantity = rng.int(0, 100);
      const status = rng.chance(0.7) ? 'active' : 'draft';
      const type = types.length ? rng.pick(types) : undefined;
      const refs = { categoryIds, productIds: [...productIds] };
      const options = generateOptions(rng);
      const combos = combinations(options);
      const skus = combos.map((_, i) => `${skuPrefix}-${n}-${i + 1}`);
      products.push({
        id,
        storeId,
        mode: 'test',
        name,
        description,
        price: money(price),
        inventoryQuantity,
        lowStockThreshold: 5,
        lowStock: inventoryQuantity <= 5,
        status,
        publishedAt: status === 'active' ? now : null,
        tags,
        searchText: searchText({ name, description, tags }, skus),
        options,
        productTypeId: type?.id ?? null,
        attributes: attributeValues(rng, type, 'product', refs),
      });
      links.push({ productId: id, categoryId: rng.pick(categoryIds), mode: 'test' });
      const compareAt = rng.chance(0.3);
      const unit = rng.pick(WEIGHT_UNITS);
      combos.forEach((combo, i) => {
        const variantPrice = price + rng.int(0, 3) * 2;
        variants.push({
          storeId,
          productId: id,
          mode: 'test',
          sku: skus[i],
          title: generatedVariantTitle(Object.values(combo)),
          options: combo,
          optionsKey: optionsKey(combo),
          price: money(variantPrice),
          inventoryQuantity: rng.int(0, 30),
          position: i,
          // GS1 prefix 2: restricted circulation, never a real trade item.
          barcode: gtin13(`2${String(rng.int(0, 99_999_999_999)).padStart(11, '0')}`),
          compareAtPrice: compareAt ? money(Math.ceil(variantPrice * 1.25) - 0.01) : null,
          cost: money(Math.round(variantPrice * rng.int(35, 60)) / 100),
          weightValue: unit === 'g' || unit === 'oz' ? String(rng.int(50, 900)) : (rng.int(1, 50) / 10).toFixed(1),
          weightUnit: unit,
          attributes: attributeValues(rng, type, 'variant', refs),
        });
      });
      // Drawn last, so a store without further currencies gets the same products for a seed as before they existed.
      if (currencies.length) products.at(-1)!.prices = generatedPrices(rng, currencies);
      translations.push(...generatedTranslations(translationRng.chance, { id, storeId }, { adjective, material, noun, options }, locales));
      productIds.push(id);
    }
    await t.tx.product.createMany({ data: products });
    await t.tx.productCategory.createMany({ data: links });
    await t.tx.variant.createMany({ data: variants });
    if (translations.length) await t.tx.productTranslation.createMany({ data: translations });
    await syncSmartMembership(t, storeId, productIds);
    const rows = await t.tx.product.findMany({ ...withIncludes(query, PRODUCT_VIEW_INCLUDE), where: { id: { in: productIds } }, orderBy: { id: 'asc' } });
    for (const row of rows) emitProductEvent(t, 'product.created', row);
    return rows;
  });
}

/** A price in each currency: an amount drawn for it with its minor-unit digits (5-200 units), a compare-at amount now and then. */
function generatedPrices(rng: ReturnType<typeof seededRandom>, currencies: string[]): StoredPrices {
  return Object.fromEntries(
    [...currencies].sort().map((currency) => {
      const digits = minorUnits(currency);
      const units = rng.int(500, 20000);
      // Whole-unit currencies (JPY, KRW) count in larger numbers: 500-20,000 rather than 5-200.
      const amount = digits === 0 ? String(units) : (units / 100).toFixed(digits);
      const compareAt = rng.chance(0.3) ? (Number(amount) * 1.25).toFixed(digits) : null;
      return [currency, { amount, compare_at_amount: compareAt !== null && Number(compareAt) > Number(amount) ? compareAt : null }];
    }),
  );
}

/** A SKU prefix no test variant of the store starts with, so the generated SKUs never meet existing ones. */
async function freeSkuPrefix(t: TransactionContext, storeId: string): Promise<string> {
  for (;;) {
    const prefix = `GEN-${randomBytes(4).toString('hex').toUpperCase()}`;
    if (!(await t.tx.variant.findFirst({ where: { storeId, mode: 'test', sku: { startsWith: `${prefix}-` } }, select: { id: true } }))) return prefix;
  }
}
