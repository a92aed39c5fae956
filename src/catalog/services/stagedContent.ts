/**
 * A product's stageable content: the fields a staged write may change, read from the rows and written back to them.
 * The staged version keeps this (ProductStaged.content); overlaying it on the current rows gives the staged product,
 * and writing it for real publishes it (src/catalog/services/stagedChanges.ts).
 */

import { isDeepStrictEqual } from 'node:util';
import type { Prisma } from '../../platform/db/client';
import type { TransactionContext } from '../../platform/outbox/outbox';
import { deleteVariants, insertVariants } from './variantRows';
import { optionsKey } from './options';

type Money = { toString(): string } | null;
const text = (v: Money) => (v == null ? null : v.toString());

interface ProductFields {
  name: string;
  description: string;
  price: string;
  prices: unknown;
  tags: string[];
  productTypeId: string | null;
  attributes: unknown;
  options: unknown;
}
interface SeoFields {
  title: string | null;
  description: string | null;
  slug: string | null;
  canonicalUrl: string | null;
  ogImageUrl: string | null;
  noindex: boolean;
}
interface ImageFields {
  id: string;
  alt: string | null;
  position: number;
}
interface VariantFields {
  id: string;
  title: string;
  options: unknown;
  price: string | null;
  compareAtPrice: string | null;
  prices: unknown;
  barcode: string | null;
  weightValue: string | null;
  weightUnit: string | null;
  imageId: string | null;
  attributes: unknown;
  position: number;
}

/** What a staged write may change: everything else of the product (stock, status, schedule, SKUs, cost, translations) is never staged. */
export interface StagedContent {
  product: ProductFields;
  categoryIds: string[];
  seo: SeoFields | null;
  images: ImageFields[];
  variants: VariantFields[];
}

/** What `scope=prices` publishes: the product's price and prices, the variants' price, compare-at price and prices. */
export const PUBLISH_SCOPES = ['all', 'prices'] as const;
export type PublishScope = (typeof PUBLISH_SCOPES)[number];

/**
 * Fields of the writes that accept staged=true which a staged write may send: the others (stock, status, schedule,
 * translations, SKUs, cost) belong to the current product only, and a staged write sending one is a 422 not_stageable.
 */
export const STAGEABLE_PRODUCT_FIELDS = ['name', 'description', 'price', 'prices', 'tags', 'categorySlugs', 'productTypeId', 'attributes'] as const;
export const STAGEABLE_VARIANT_FIELDS = ['id', 'title', 'options', 'price', 'compareAtPrice', 'prices', 'barcode', 'weight', 'imageId', 'attributes', 'position'] as const;

const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** The product's content as its rows hold it now (in the transaction: an overlay or a write shows). */
export async function readContent(t: TransactionContext, productId: string): Promise<StagedContent> {
  // One after the other: they share the transaction's connection.
  const p = await t.tx.product.findUniqueOrThrow({
    where: { id: productId },
    select: { name: true, description: true, price: true, prices: true, tags: true, productTypeId: true, attributes: true, options: true },
  });
  const categories = await t.tx.productCategory.findMany({ where: { productId }, select: { categoryId: true } });
  const seo = await t.tx.seo.findUnique({ where: { productId }, select: { title: true, description: true, slug: true, canonicalUrl: true, ogImageUrl: true, noindex: true } });
  const images = await t.tx.productImage.findMany({ where: { productId }, select: { id: true, alt: true, position: true } });
  const variants = await t.tx.variant.findMany({ where: { productId } });
  return {
    product: { ...p, price: p.price.toString() },
    categoryIds: categories.map((c) => c.categoryId).sort(),
    seo,
    images: byId(images),
    variants: byId(variants).map((v) => ({
      id: v.id,
      title: v.title,
      options: v.options,
      price: text(v.price),
      compareAtPrice: text(v.compareAtPrice),
      prices: v.prices,
      barcode: v.barcode,
      weightValue: text(v.weightValue),
      weightUnit: v.weightUnit,
      imageId: v.imageId,
      attributes: v.attributes,
      position: v.position,
    })),
  };
}

/** Whether two contents are the same (both read by readContent, so alike in form). */
export const sameContent = (a: StagedContent, b: StagedContent) => isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));

/**
 * What publishing `staged` with `scope` makes of the current content: all of it, or only its price fields. Only
 * variants and images the product still has take staged values: one deleted since is gone, one added since keeps
 * its own.
 */
export function contentToPublish(current: StagedContent, staged: StagedContent, scope: PublishScope): StagedContent {
  const stagedVariants = new Map(staged.variants.map((v) => [v.id, v]));
  if (scope === 'prices') {
    return {
      ...current,
      product: { ...current.product, price: staged.product.price, prices: staged.product.prices },
      variants: current.variants.map((v) => {
        const s = stagedVariants.get(v.id);
        return s ? { ...v, price: s.price, compareAtPrice: s.compareAtPrice, prices: s.prices } : v;
      }),
    };
  }
  const stagedImages = new Map(staged.images.map((i) => [i.id, i]));
  const imageIds = new Set(current.images.map((i) => i.id));
  return {
    product: staged.product,
    categoryIds: staged.categoryIds,
    seo: staged.seo,
    images: current.images.map((i) => stagedImages.get(i.id) ?? i),
    variants: current.variants.map((v) => {
      const s = stagedVariants.get(v.id);
      // An image deleted since the staged write cannot be the variant's.
      return s ? { ...s, imageId: s.imageId && !imageIds.has(s.imageId) ? v.imageId : s.imageId } : v;
    }),
  };
}

/** The product's own columns of a content, as a product write takes them. */
export const productColumns = (c: StagedContent) => ({
  name: c.product.name,
  description: c.product.description,
  price: c.product.price,
  prices: c.product.prices as Prisma.InputJsonValue,
  tags: c.product.tags,
  productTypeId: c.product.productTypeId,
  attributes: c.product.attributes as Prisma.InputJsonValue,
  options: c.product.options as Prisma.InputJsonValue,
});

/**
 * Writes the parts of `target` (categories, SEO, images, variants) that differ from `current` to the product's rows;
 * its own columns are the caller's (productColumns), so that a publish writes them as a product version.
 * `target` is contentToPublish's: it names only variants and images the product has.
 */
export async function writeContentParts(t: TransactionContext, product: { id: string; storeId: string }, current: StagedContent, target: StagedContent) {
  const productId = product.id;
  if (!isDeepStrictEqual(current.categoryIds, target.categoryIds)) {
    // Categories deleted since the staged write are left out (a product keeps at least the ones it has then).
    const existing = await t.tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM categories WHERE store_id = ${product.storeId}::uuid AND id = ANY(${target.categoryIds}::uuid[]) FOR KEY SHARE`;
    if (existing.length) {
      await t.tx.productCategory.deleteMany({ where: { productId } });
      await t.tx.productCategory.createMany({ data: existing.map((c) => ({ productId, categoryId: c.id, mode: t.mode })) });
    }
  }
  if (!isDeepStrictEqual(current.seo, target.seo)) {
    if (target.seo) {
      await t.tx.seo.upsert({ where: { productId }, create: { storeId: product.storeId, productId, mode: t.mode, ...target.seo }, update: target.seo });
    } else await t.tx.seo.deleteMany({ where: { productId } });
  }
  const images = new Map(current.images.map((i) => [i.id, i]));
  for (const image of target.images) {
    if (!isDeepStrictEqual(images.get(image.id), image)) await t.tx.productImage.update({ where: { id: image.id }, data: { alt: image.alt, position: image.position } });
  }
  const variants = new Map(current.variants.map((v) => [v.id, v]));
  const changed = target.variants.filter((v) => !isDeepStrictEqual(variants.get(v.id), v));
  if (changed.length) {
    // Written anew (same id, created_at, SKU, stock and cost), as the variant service writes them: row by row, a
    // swap of two option combinations would meet the uniqueness halfway.
    const rows = await t.tx.variant.findMany({ where: { id: { in: changed.map((v) => v.id) } } });
    const staged = new Map(changed.map((v) => [v.id, v]));
    await deleteVariants(t, rows.map((r) => r.id));
    await insertVariants(
      t,
      product.storeId,
      productId,
      rows.map((r) => {
        const s = staged.get(r.id)!;
        const options = s.options as Record<string, string>;
        return { ...r, ...s, options, optionsKey: optionsKey(options), weightUnit: s.weightUnit };
      }),
    );
  }
}

