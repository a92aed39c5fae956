/** What the public API's storefront reads: active products only, and the supported countries. */

import { z } from 'zod';
import { SUPPORTED_COUNTRIES } from '../../platform/reference/supportedCountries';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { notFound } from '../../platform/errors';
import { listProductIds, type ProductSort } from './productList';
import type { AttributeFilter } from './attributeFilters';
import { catalogOf } from './catalogScope';
import { translatedLocales } from './localizedReads';

/** Sorts a storefront may use: inventory is not public, so neither is sorting by it. */
export const PUBLIC_PRODUCT_SORTS = ['created_at', '-created_at', 'name', '-name', 'price', '-price'] as const satisfies readonly ProductSort[];
type PublicProductSort = (typeof PUBLIC_PRODUCT_SORTS)[number];

interface PublicProductFilter {
  search?: string;
  category?: string;
  tags?: string[];
  attributes?: AttributeFilter[];
  /** Product type ids, as the merchant list takes them (Shopify's storefront filters by productType likewise). */
  productTypes?: string[];
  /** The request's locale chain (localizedReads.ts): a search matches the text of its translated locales too. */
  chain?: string[];
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
) {
  const { search, category, tags, attributes, productTypes, chain } = filter;
  const searchLocales = search && chain ? translatedLocales(chain) : undefined;
  return listProductIds(ctx, storeId, { search, category, tags, attributes, productTypes, status: 'active', searchLocales }, paging, sort, { facets, audience: 'public' });
}

/** One active product of the store; anything else is 404, so drafts cannot be probed. */
export async function getPublicProduct<Q extends { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect }>(ctx: RequestContext, storeId: string, id: string, query: Q) {
  if (!z.string().uuid().safeParse(id).success) throw notFound('Product');
  const product = await ctx.db.product.findFirst({ ...query, where: { id, ...catalogOf(ctx, storeId), status: 'active' } });
  if (!product) throw notFound('Product');
  return product;
}
