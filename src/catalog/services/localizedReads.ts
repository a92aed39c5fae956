/**
 * Reading the catalog in a language: the request's fallback chain for its store (src/kernel/locales.ts) and a
 * product's shopper-facing text picked field by field along it. The product's own columns hold the default
 * locale's text; product_translations (translationRows.ts) the further locales', a field left out falling back.
 */

import type { RequestContext } from '../../platform/context';
import { canonicalLocale, localeChain, type LocaleRequest } from '../../kernel/locales';
import { validationError } from '../../platform/errors';
import type { ProductOption } from './options';
import { generatedVariantTitle } from './optionRules';
import { type OptionTranslations, type ProductTranslation, productTranslationsFor } from './translationRows';

/**
 * The chain for the store. An explicit `locale` must be a BCP 47 tag (else 422 naming `locale`); one the store
 * does not sell in is no error and falls back like an Accept-Language range would (the answer's
 * Content-Language says which locale it got). Accept-Language never fails: what cannot be read is ignored.
 */
export async function requestLocaleChain(ctx: RequestContext, storeId: string, request: LocaleRequest): Promise<string[]> {
  const locale = explicitLocale(request);
  const store = await ctx.readDb.store.findUniqueOrThrow({ where: { id: storeId }, select: { defaultLocale: true, locales: true } });
  return localeChain(store, { locale, acceptLanguage: request.acceptLanguage });
}

/** The request's `locale` in canonical form; one that is not BCP 47 is 422 naming `locale`. */
function explicitLocale(request: LocaleRequest): string | undefined {
  if (request.locale == null) return undefined;
  const r = canonicalLocale(request.locale, 'locale');
  if ('error' in r) throw validationError([r.error]);
  return r.locale;
}

/**
 * One product's chain and its translations in one statement: the store's locales with every translation of the
 * product (at most one per locale), so a read adds one statement, run beside the product's.
 */
export async function productLocaleChain(ctx: RequestContext, storeId: string, productId: string | null, request: LocaleRequest) {
  const locale = explicitLocale(request);
  const [row] = await ctx.readDb.$queryRaw<{ default_locale: string; locales: string[]; translations: TranslatedText[] }[]>`
    SELECT s.default_locale, s.locales,
      coalesce(json_agg(json_build_object('locale', t.locale, 'name', t.name, 'description', t.description, 'options', t.options, 'attributes', t.attributes))
        FILTER (WHERE t.locale IS NOT NULL), '[]') AS translations
    FROM stores s LEFT JOIN product_translations t ON t.product_id = ${productId}::uuid
    WHERE s.id = ${storeId}::uuid GROUP BY s.id`;
  const chain = localeChain({ defaultLocale: row.default_locale, locales: row.locales }, { locale, acceptLanguage: request.acceptLanguage });
  return { chain, byLocale: new Map(row.translations.map((t) => [t.locale, t])) };
}

/** The locales of the chain whose translations are read: all but the default, which is the product's own text. */
export const translatedLocales = (chain: readonly string[]) => chain.slice(0, -1);

/** The translations of a page of products in the chain's locales: one query, none when the chain is the default alone. */
export const pageTranslations = (ctx: RequestContext, productIds: readonly string[], chain: readonly string[]) =>
  productTranslationsFor(ctx, productIds, translatedLocales(chain));

/** What a storefront read takes of a translation. */
export type TranslatedText = Pick<ProductTranslation, 'locale' | 'name' | 'description' | 'options' | 'attributes'>;

interface ProductText {
  name: string;
  description: string;
  options: unknown;
  attributes: unknown;
}

/** A product's text in the best locale per field, and the locale the answer names (Content-Language). */
export interface LocalizedProduct {
  name: string;
  description: string;
  options: ProductOption[];
  /** The product's attribute values, text ones in the best locale. */
  attributes: Record<string, unknown>;
  /** A variant's option names and values in the best locale, its title rebuilt from them when it was built from them. */
  variant: (v: { title: string; options: unknown }) => { title: string; options: Record<string, string> };
  /** The first locale of the chain that gave any field; the default when none did. */
  locale: string;
}

/**
 * Picks each field from the first locale of the chain that has it. `translations` holds the product's rows by
 * locale (those of the chain's translated locales; any other is ignored).
 */
export function localizeProduct(p: ProductText, chain: readonly string[], translations: Map<string, TranslatedText> | undefined): LocalizedProduct {
  const rows = translatedLocales(chain).flatMap((l) => (translations?.get(l) ? [translations.get(l)!] : []));
  const used = new Set<string>();
  /** The first translated value `read` finds along the chain, else `fallback` (the default locale's). */
  const pick = <T>(read: (t: TranslatedText) => T | null | undefined, fallback: T): T => {
    for (const t of rows) {
      const v = read(t);
      if (v != null) {
        used.add(t.locale);
        return v;
      }
    }
    return fallback;
  };
  const optionsOf = (t: TranslatedText) => (t.options ?? {}) as OptionTranslations;
  const sourceOptions = Array.isArray(p.options) ? (p.options as ProductOption[]) : [];
  const options = sourceOptions.map((o) => ({
    name: pick((t) => optionsOf(t)[o.name]?.name, o.name),
    values: o.values.map((v) => pick((t) => optionsOf(t)[o.name]?.values?.[v], v)),
  }));
  const optionName = new Map(sourceOptions.map((o, i) => [o.name, options[i].name]));
  const optionValue = new Map(sourceOptions.map((o, i) => [o.name, new Map(o.values.map((v, j) => [v, options[i].values[j]]))]));
  const attributes = Object.fromEntries(
    Object.entries((p.attributes ?? {}) as Record<string, unknown>).map(([code, value]) => [code, pick((t) => (t.attributes as Record<string, unknown> | null)?.[code], value)]),
  );
  const name = pick((t) => t.name, p.name);
  const description = pick((t) => t.description, p.description);
  const variant = (v: { title: string; options: unknown }) => {
    const source = (v.options ?? {}) as Record<string, string>;
    const entries = Object.entries(source).map(([n, value]) => [optionName.get(n) ?? n, optionValue.get(n)?.get(value) ?? value] as const);
    // A title generated from the options ("M / Red") follows their translations; one the merchant wrote stays.
    const generated = v.title === generatedVariantTitle(Object.values(source));
    return { title: generated ? generatedVariantTitle(entries.map(([, value]) => value)) : v.title, options: Object.fromEntries(entries) };
  };
  return { name, description, options, attributes, variant, locale: chain.find((l) => used.has(l)) ?? chain.at(-1)! };
}

/** The locale a page answers in: the first of the chain that any of its products used (the default when none did). */
export const pageLocale = (chain: readonly string[], products: { locale: string }[]) =>
  chain.find((l) => products.some((p) => p.locale === l)) ?? chain.at(-1)!;
