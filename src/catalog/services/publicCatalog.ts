/** What the public API's storefront reads: active products only, and the supported countries. */

import { z } from 'zod';
import { SUPPORTED_COUNTRIES } from '../../platform/reference/supportedCountries';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { notFound, validationError } from '../../platform/errors';
import { normaliseCurrency } from '../../kernel/money';
import { listProductIds, type ProductSort } from './productList';
import type { AttributeFilter } from './attributeFilters';
import { catalogOf } from './catalogScope';
import { translatedLocales } from './localizedReads';

/** Sorts a storefront may use: inventory is not public, so neither is sorting by it. */
export const PUBLIC_PRODUCT_SORTS = ['created_at', '-created_at', 'name', '-name', 'price', '-price'] as const satisfies readonly ProductSort[];
export type PublicProductSort = (typeof PUBLIC_PRODUCT_SORTS)[number];

export interface PublicProductFilter {
  search?: string;
  category?: string;
  tags?: string[];
  attributes?: AttributeFilter[];
  /** Product type ids, as the merchant list takes them (Shopify's storefront filters by productType likewise). */
  productTypes?: string[];
  /** The request's locale chain (localizedReads.ts): a search matches the text of its translated locales too. */
  chain?: string[];
  /** Bounds of the price, inclusive, in the list's currency. */
  priceMin?: string;
  priceMax?: string;
}

/** The currency a storefront read names, upper-cased (null: none); not ISO 4217 is 422 invalid_currency naming `currency`. */
export function namedCurrency(currency: string | null | undefined): string | null {
  if (currency == null) return null;
  const code = normaliseCurrency(currency, 'currency');
  if ('error' in code) throw validationError([code.error]);
  return code.currency;
}

/**
 * The named currency checked against the store's: null for the store's default (prices are then `price`), else the
 * further currency. One the store does not sell in is 422 currency_not_sold naming `currency`: no exchange rate is
 * ever applied.
 */
export function soldCurrency(store: { currency: string; currencies: string[] }, code: string | null): string | null {
  if (code === null || code === store.currency) return null;
  if (!store.currencies.includes(code)) {
    throw validationError([{ field: 'currency', code: 'currency_not_sold', message: `the store does not sell in ${code}; it sells in ${[store.currency, ...store.currencies].join(', ')}` }]);
  }
  return code;
}

/** A product query that also reads its store's currencies (for soldCurrency), in the same statement as the product. */
export function withStoreCurrencies<Q extends { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect }>(query: Q): Q {
  const store = { select: { currency: true, currencies: true } } as const;
  return (query.select ? { ...query, select: { ...query.select, store } } : { ...query, include: { ...query.include, store } }) as Q;
}

export const listSupportedCountries = () => SUPPORTED_COUNTRIES;

/** A page of the store's active products (drafts and archived products do not exist for storefronts), filtered and faceted by public attributes only, and filtered by product type. */
export function listPublicProducts(
  ctx: RequestContext,
  storeId: string,
  filter: PublicProductFilter,
  paging: { page?: number; perPage?: number },
  sort?: PublicProductSort,
  facets?: string[],
  currency?: string | null,
) {
  return listProductIds(ctx, storeId, publicListFilter(filter, currency), paging, sort, { facets, audience: 'public' });
}

/** A storefront list's filter as the product list takes it: active products only; a search matches the chain's translations too. */
export function publicListFilter(filter: PublicProductFilter, currency: string | null | undefined) {
  const { search, category, tags, attributes, productTypes, priceMin, priceMax, chain } = filter;
  const searchLocales = search && chain ? translatedLocales(chain) : undefined;
  return { search, category, tags, attributes, productTypes, priceMin, priceMax, currency: currency ?? undefined, status: 'active' as const, searchLocales };
}

/** One active product of the store; anything else is 404, so drafts cannot be probed. */
export async function getPublicProduct<Q extends { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect }>(ctx: RequestContext, storeId: string, id: string, query: Q) {
  if (!z.string().uuid().safeParse(id).success) throw notFound('Product');
  const product = await ctx.readDb.product.findFirst({ ...query, where: { id, ...catalogOf(ctx, storeId), status: 'active' } });
  if (!product) throw notFound('Product');
  return product;
}
