/**
 * The stored translations, read by resource and locale: the merchant API shows them, the public API picks the best
 * locale of each resource from them by its fallback chain. One table per resource kind (product_translations,
 * category_translations, attribute_translations); the resource's own columns hold the default locale's text.
 */

import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';

export type ProductTranslation = Prisma.ProductTranslationGetPayload<object>;
export type CategoryTranslation = Prisma.CategoryTranslationGetPayload<object>;
export type AttributeTranslation = Prisma.AttributeTranslationGetPayload<object>;

/** Option names and values of a product in one locale, keyed by the default locale's text. */
export type OptionTranslations = Record<string, { name?: string; values?: Record<string, string> }>;

/** Rows by resource id, then by locale; a resource without translations in the locales asked is absent. */
export type TranslationsByResource<R> = Map<string, Map<string, R>>;

function byResource<R extends { locale: string }>(rows: R[], idOf: (r: R) => string): TranslationsByResource<R> {
  const out: TranslationsByResource<R> = new Map();
  for (const r of rows) {
    let locales = out.get(idOf(r));
    if (!locales) out.set(idOf(r), (locales = new Map()));
    locales.set(r.locale, r);
  }
  return out;
}

/** `locales` undefined: every locale the resources are translated into. */
const localeFilter = (locales: readonly string[] | undefined) => (locales ? { locale: { in: [...locales] } } : {});

/** The products' translations in these locales (every locale when `locales` is left out), one query. */
export async function productTranslationsFor(
  ctx: Pick<RequestContext, 'db'>,
  productIds: readonly string[],
  locales?: readonly string[],
): Promise<TranslationsByResource<ProductTranslation>> {
  if (productIds.length === 0 || locales?.length === 0) return new Map();
  const rows = await ctx.db.productTranslation.findMany({ where: { productId: { in: [...productIds] }, ...localeFilter(locales) }, orderBy: { locale: 'asc' } });
  return byResource(rows, (r) => r.productId);
}

/** The categories' translations in these locales (every locale when left out). */
export async function categoryTranslationsFor(
  ctx: Pick<RequestContext, 'db'>,
  categoryIds: readonly string[],
  locales?: readonly string[],
): Promise<TranslationsByResource<CategoryTranslation>> {
  if (categoryIds.length === 0 || locales?.length === 0) return new Map();
  const rows = await ctx.db.categoryTranslation.findMany({ where: { categoryId: { in: [...categoryIds] }, ...localeFilter(locales) }, orderBy: { locale: 'asc' } });
  return byResource(rows, (r) => r.categoryId);
}

/** The attributes' translations in these locales (every locale when left out). */
export async function attributeTranslationsFor(
  ctx: Pick<RequestContext, 'db'>,
  attributeIds: readonly string[],
  locales?: readonly string[],
): Promise<TranslationsByResource<AttributeTranslation>> {
  if (attributeIds.length === 0 || locales?.length === 0) return new Map();
  const rows = await ctx.db.attributeTranslation.findMany({ where: { attributeId: { in: [...attributeIds] }, ...localeFilter(locales) }, orderBy: { locale: 'asc' } });
  return byResource(rows, (r) => r.attributeId);
}
