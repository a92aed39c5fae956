/**
 * A collection's product list: the product list (productList.ts) with the collection as a filter, read as a
 * category's is (a semi-join on the membership's primary key from the sort's index), so it takes every filter, facet
 * and page the product list takes. The manual order walks (collection_id, position) instead.
 */

import type { RequestContext } from '../../platform/context';
import { Prisma, readRows } from '../../platform/db/client';
import { parseInput } from '../../platform/validation';
import {
  COUNTED_PAGES_AHEAD,
  type ListOptions,
  listProductIds,
  PageInput,
  pageFromRows,
  type PageResult,
  type ProductFilter,
  ProductFilterInput,
  type ProductSort,
  productWhereSql,
  resolvedAttributes,
  withFacets,
} from './productList';
import type { Facet } from './attributeFilters';
import type { CollectionSort } from './collections';

/** A collection's sort as the product list's. */
const LIST_SORT: Record<Exclude<CollectionSort, 'manual'>, ProductSort> = { newest: '-created_at', name: 'name', price_asc: 'price', price_desc: '-price' };

/**
 * One page of a collection's products, in the collection's sort (or `sort`, a product list sort, when given), with
 * the list's filters and facets. The caller has checked that the collection is the catalog's (and, for a public
 * list, published). One statement per page (plus the facets' when asked), as the product list.
 */
export async function listCollectionProductIds(
  ctx: RequestContext,
  storeId: string,
  collection: { id: string; sort: CollectionSort },
  filterInput: ProductFilter,
  paging: { page?: number; perPage?: number },
  opts: ListOptions & { sort?: ProductSort } = {},
): Promise<PageResult & { facets?: Facet[] }> {
  const filter = { ...filterInput, collection: collection.id };
  if (opts.sort || collection.sort !== 'manual') return listProductIds(ctx, storeId, filter, paging, opts.sort ?? LIST_SORT[collection.sort as keyof typeof LIST_SORT], opts);
  const attributeQuery = await resolvedAttributes(storeId, filter, opts);
  const q = manualPageQuery(ctx, storeId, filter, paging, attributeQuery?.filters ?? []);
  const page = readRows<{ id: string | null; ord: bigint | string | null; total: bigint | string }>(q.sql.text, q.sql.values).then((rows) => pageFromRows(rows, q));
  return withFacets(storeId, ctx.mode, filter, attributeQuery, page);
}

/** The page in the manual order: the positions' index walked, each row joined to its product for the other filters. */
function manualPageQuery(
  ctx: RequestContext,
  storeId: string,
  filterInput: ProductFilter & { collection: string },
  paging: { page?: number; perPage?: number },
  attributes: NonNullable<Awaited<ReturnType<typeof resolvedAttributes>>>['filters'],
) {
  const filter = parseInput(ProductFilterInput, filterInput);
  const { page, perPage } = parseInput(PageInput, paging);
  const offset = (page - 1) * perPage;
  const { collection: _collection, ...others } = filter;
  const where = productWhereSql(storeId, ctx.mode, others, attributes);
  const unfiltered = Object.values(others).every((v) => v === undefined || (Array.isArray(v) && !v.length)) && !attributes.length;
  // Unfiltered, the collection's counters know the total; filtered, it is counted as the product list counts.
  const countLimit = unfiltered ? Infinity : offset + COUNTED_PAGES_AHEAD * perPage;
  const members = Prisma.sql`collection_products cp JOIN products p ON p.id = cp.product_id WHERE cp.collection_id = ${filter.collection}::uuid AND ${where}`;
  const total = unfiltered
    ? Prisma.sql`SELECT coalesce(sum(n.count), 0) AS total FROM collection_product_counts n WHERE n.collection_id = ${filter.collection}::uuid`
    : Prisma.sql`SELECT count(*) AS total FROM (SELECT 1 FROM ${members} LIMIT ${countLimit + 1}) m`;
  const sql = Prisma.sql`
    SELECT c.total, s.id, s.ord FROM (${total}) c
    LEFT JOIN LATERAL (
      SELECT p.id::text AS id, row_number() OVER () AS ord FROM (
        SELECT p.id FROM ${members} ORDER BY cp.position, cp.product_id LIMIT ${perPage + 1} OFFSET ${offset}
      ) p
    ) s ON true`;
  return { page, perPage, countLimit, sql };
}
