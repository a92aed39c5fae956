/** Product lists: filters, sorts, search ranking, totals and pages, in one SQL statement per page. */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Mode } from '../../kernel/access';
import { Prisma, readRows } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { isUuid } from '../../kernel/ids';
import { parseInput } from '../../platform/validation';
import { coveredByFullRow, fullProductRowsByIds } from './productRows';
import {
  type AttributeAudience,
  attributeFilterSql,
  type Facet,
  facetsFromRows,
  attributeSelectionsSql,
  type FacetScope,
  facetsSql,
  resolveAttributeQuery,
  type ResolvedAttributeFilter,
  selectionOf,
} from './attributeFilters';

export const PRODUCT_SORTS = ['created_at', '-created_at', 'name', '-name', 'price', '-price', 'inventory_quantity', '-inventory_quantity'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

/** A price filter's bound: a decimal number, not negative, with at most 3 decimals (KWD's). */
const PriceBound = z.string().trim().regex(/^\d{1,12}(\.\d{1,3})?$/, { message: 'must be a decimal number such as 12.50, not negative, with at most 3 decimals' });

export const ProductFilterInput = z.object({
  search: z.string().trim().max(200).optional(),
  category: z.string().trim().min(1).max(128).optional(),
  /** Products of this collection (its id; the caller checks it is the catalog's): collectionList.ts. */
  collection: z.string().uuid().optional(),
  tags: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
  isActive: z.boolean().optional(),
  lowStock: z.boolean().optional(),
  /** true: products with a pending publishAt or unpublishAt; false: neither. */
  scheduled: z.boolean().optional(),
  /** Public storefront lists pass 'active' only. */
  status: z.enum(['active', 'draft', 'archived']).optional(),
  /** Every filter must match (on the product or on one of its variants); checked against the store's attributes. */
  attributes: z
    .array(z.object({ code: z.string(), values: z.array(z.string()).optional(), gte: z.string().optional(), lte: z.string().optional() }))
    .optional(),
  /** Products of any of these product types. */
  productTypes: z.array(z.string().uuid('must be product type ids')).max(50).optional(),
  /** Further locales of the store whose translated text a search matches too, best first (the storefront's chain, localizedReads.ts). */
  searchLocales: z.array(z.string()).max(21).optional(),
  /**
   * The currency `price` sorts and priceMin/priceMax filter in: one of the store's further currencies (checked by the
   * caller), whose prices are the products' `prices`; left out, the store's default (the `price` column). A product
   * without a price in it sorts last either way and matches no price filter: no exchange rate is applied.
   */
  currency: z.string().regex(/^[A-Z]{3}$/).optional(),
  priceMin: PriceBound.optional(),
  priceMax: PriceBound.optional(),
});
export type ProductFilter = z.input<typeof ProductFilterInput>;

/** The pages a product list serves: `page` from 1, `perPage` products each (REST: `page`, `per_page`). */
export const PAGE_LIMITS = { page: { min: 1, max: 1_000_000 }, perPage: { min: 1, max: 100 } } as const;

export const PageInput = z.object({
  page: z.number().int().min(PAGE_LIMITS.page.min, 'must be >= 1').max(PAGE_LIMITS.page.max).default(1),
  perPage: z
    .number()
    .int()
    .min(PAGE_LIMITS.perPage.min, `must be between ${PAGE_LIMITS.perPage.min} and ${PAGE_LIMITS.perPage.max}`)
    .max(PAGE_LIMITS.perPage.max, `must be between ${PAGE_LIMITS.perPage.min} and ${PAGE_LIMITS.perPage.max}`)
    .default(20),
});

const SORT_SQL: Record<ProductSort, { col: string; dir: 'ASC' | 'DESC' }> = {
  created_at: { col: 'created_at', dir: 'ASC' },
  '-created_at': { col: 'created_at', dir: 'DESC' },
  name: { col: 'name', dir: 'ASC' },
  '-name': { col: 'name', dir: 'DESC' },
  price: { col: 'price', dir: 'ASC' },
  '-price': { col: 'price', dir: 'DESC' },
  inventory_quantity: { col: 'inventory_quantity', dir: 'ASC' },
  '-inventory_quantity': { col: 'inventory_quantity', dir: 'DESC' },
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/** Every search word in a search text column (`p.search_text`, `t.search_text`). */
function textMatchSql(column: string, terms: string[]): Prisma.Sql {
  return Prisma.join(
    terms.map((term) => Prisma.sql`${Prisma.raw(column)} LIKE ${'%' + escapeLike(term) + '%'}`),
    ' AND ',
  );
}

/** The translations in these locales whose text has every word (the trigram index on product_translations). */
function translationMatchSql(storeId: string, mode: Mode, locales: string[], terms: string[], alias = 't'): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(alias)}.store_id = ${storeId}::uuid AND ${Prisma.raw(alias)}.mode = ${mode}::"Mode"
    AND ${Prisma.raw(alias)}.locale = ANY(${locales}::text[]) AND ${textMatchSql(`${alias}.search_text`, terms)}`;
}

/**
 * The WHERE clause of a product list: every filter maps to an indexed predicate. `search: false` leaves the search
 * words out (the sides of a search in a locale add them each their way, see searchSidesSql). `currencyPricesJoined`:
 * the statement reads the products from the price rows of their currency (currencyPriceOrderSql), which bound the
 * prices there.
 */
export function productWhereSql(
  storeId: string,
  mode: Mode,
  f: z.output<typeof ProductFilterInput>,
  attributes: ResolvedAttributeFilter[] = [],
  { search = true, currencyPricesJoined = false } = {},
): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`p.store_id = ${storeId}::uuid AND p.mode = ${mode}::"Mode"`];
  const terms = search ? searchTerms(f.search) : [];
  if (terms.length && f.searchLocales?.length) {
    parts.push(Prisma.sql`(${textMatchSql('p.search_text', terms)} OR p.id IN (SELECT t.product_id FROM product_translations t WHERE ${translationMatchSql(storeId, mode, f.searchLocales, terms)}))`);
  } else if (terms.length) parts.push(textMatchSql('p.search_text', terms));
  if (f.category) {
    // The category's id first (one row): with it fixed, (product_id, category_id) is unique, so the planner joins
    // product ids without collecting and de-duplicating every product of the category (32,000 at a million products).
    parts.push(Prisma.sql`p.id IN (SELECT pc.product_id FROM product_categories pc
      WHERE pc.category_id = (SELECT c.id FROM categories c WHERE c.store_id = ${storeId}::uuid AND c.slug = ${f.category}) AND pc.mode = ${mode}::"Mode")`);
  }
  // A collection's members as a category's: a semi-join on its membership rows (primary key (collection_id, product_id)).
  if (f.collection) parts.push(Prisma.sql`p.id IN (SELECT cp.product_id FROM collection_products cp WHERE cp.collection_id = ${f.collection}::uuid)`);
  if (f.tags?.length) parts.push(Prisma.sql`p.tags && ${f.tags}::text[]`);
  if (f.isActive === true) parts.push(Prisma.sql`p.status = 'active'`);
  if (f.isActive === false) parts.push(Prisma.sql`p.status <> 'active'`);
  if (f.status) parts.push(Prisma.sql`p.status = ${f.status}::"ProductStatus"`);
  if (f.lowStock === true) parts.push(Prisma.sql`p.low_stock`);
  if (f.lowStock === false) parts.push(Prisma.sql`NOT p.low_stock`);
  if (f.scheduled === true) parts.push(Prisma.sql`(p.publish_at IS NOT NULL OR p.unpublish_at IS NOT NULL)`);
  if (f.scheduled === false) parts.push(Prisma.sql`p.publish_at IS NULL AND p.unpublish_at IS NULL`);
  if (f.productTypes?.length) parts.push(Prisma.sql`p.product_type_id = ANY(${f.productTypes}::uuid[])`);
  if (f.currency && (f.priceMin !== undefined || f.priceMax !== undefined) && !currencyPricesJoined) {
    parts.push(Prisma.sql`p.id IN (SELECT cp.product_id FROM product_currency_prices cp WHERE ${currencyPricesSql(storeId, mode, f)})`);
  }
  if (!f.currency && f.priceMin !== undefined) parts.push(Prisma.sql`p.price >= ${f.priceMin}::numeric`);
  if (!f.currency && f.priceMax !== undefined) parts.push(Prisma.sql`p.price <= ${f.priceMax}::numeric`);
  for (const a of attributes) parts.push(attributeFilterSql(storeId, mode, a));
  return Prisma.join(parts, ' AND ');
}

function searchTerms(search: string | undefined): string[] {
  return (search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
}

/** A product's price in the currency: the `price` column (the default currency), else its amount in `prices` (NULL where it has none). */
const priceSql = (currency: string | undefined) => (currency ? Prisma.sql`(p.prices -> ${currency}::text ->> 'amount')::numeric` : Prisma.raw('p.price'));

/**
 * The price rows (product_currency_prices, kept by triggers from `prices`) of the catalog in a further currency, within
 * the filter's bounds: a range of the (store_id, mode, currency, amount, product_id, status) index.
 */
function currencyPricesSql(storeId: string, mode: Mode, f: z.output<typeof ProductFilterInput>): Prisma.Sql {
  const parts = [Prisma.sql`cp.store_id = ${storeId}::uuid AND cp.mode = ${mode}::"Mode" AND cp.currency = ${f.currency!}`];
  if (f.priceMin !== undefined) parts.push(Prisma.sql`cp.amount >= ${f.priceMin}::numeric`);
  if (f.priceMax !== undefined) parts.push(Prisma.sql`cp.amount <= ${f.priceMax}::numeric`);
  return Prisma.join(parts, ' AND ');
}

/**
 * A page sorted by price in a further currency, as `ORDER BY price, id` on the default currency: the products with a
 * price in it walked in the order of the price rows' index (joined to their product for the other filters) and cut at
 * the page's end, then, unless a price bound excludes them, those without one (ordered by id). Append runs the two in
 * this order and stops once the page is full (see rankedSearchIdsSql), so the second runs only on the last pages.
 */
function currencyPriceOrderSql(
  storeId: string,
  mode: Mode,
  f: z.output<typeof ProductFilterInput>,
  attributes: ResolvedAttributeFilter[],
  dir: 'ASC' | 'DESC',
  paging: { perPage: number; offset: number },
): Prisma.Sql {
  const { perPage, offset } = paging;
  const order = Prisma.raw(dir);
  const reach = offset + perPage + 1;
  // Selected by nothing but status (the storefront's active products): the price rows carry it, so the page is read
  // from their index alone; any other filter joins each row to its product.
  const priced = countedByCounters(f) && !attributes.length
    ? Prisma.sql`(SELECT cp.product_id AS id FROM product_currency_prices cp WHERE ${Prisma.join([currencyPricesSql(storeId, mode, f), ...statusSql('cp', f)], ' AND ')}
      ORDER BY cp.amount ${order}, cp.product_id ${order} LIMIT ${reach})`
    : Prisma.sql`(SELECT p.id FROM product_currency_prices cp JOIN products p ON p.id = cp.product_id
      WHERE ${currencyPricesSql(storeId, mode, f)} AND ${productWhereSql(storeId, mode, f, attributes, { currencyPricesJoined: true })}
      ORDER BY cp.amount ${order}, cp.product_id ${order} LIMIT ${reach})`;
  const bounded = f.priceMin !== undefined || f.priceMax !== undefined;
  const unpriced = Prisma.sql`UNION ALL (SELECT p.id FROM products p WHERE ${productWhereSql(storeId, mode, f, attributes)} AND (p.prices -> ${f.currency!}::text ->> 'amount') IS NULL
      ORDER BY p.id ${order} LIMIT ${reach})`;
  return Prisma.sql`SELECT p.id FROM (${priced} ${bounded ? Prisma.empty : unpriced}) p LIMIT ${perPage + 1} OFFSET ${offset}`;
}

/**
 * ORDER BY of an explicit sort, or of the default (newest first); ties broken by id, so pages never overlap. By
 * price in a further currency, products without a price in it come last in either direction.
 */
function orderSql(sort: ProductSort | undefined, currency?: string): Prisma.Sql {
  const { col, dir } = SORT_SQL[sort ?? '-created_at'];
  if (col === 'price' && currency) return Prisma.sql`${priceSql(currency)} ${Prisma.raw(dir)} NULLS LAST, p.id ${Prisma.raw(dir)}`;
  return Prisma.raw(`p.${col} ${dir}, p.id ${dir}`);
}

/**
 * Search ranking, when a search has no explicit sort: products whose name
 * equals the search text first, then those whose name starts with it, then
 * those with a later word of the name starting with it, then every other match
 * (in the description, tags or SKUs, or inside a word); newest first within
 * each group. Each group is its own index-ordered scan cut at the page's end
 * (offset + per_page + 1 rows), so page 1 reads about a page of rows whatever
 * the number of matches: names come from the name-prefix index (or the
 * created_at order when a prefix is common), the other groups from the
 * created_at order filtered by the search (or the trigram index when the words
 * are rare). Scoring every match by trigram similarity instead would read and
 * rank every match of a common word before the first page could be cut.
 */
function rankedSearchIdsSql(sides: SearchSides, search: string, perPage: number, offset: number): Prisma.Sql {
  const q = searchTerms(search).join(' ');
  const prefix = escapeLike(q) + '%';
  const reach = offset + perPage + 1;
  const sideGroup = (side: SearchSide, rank: number, condition: (name: Prisma.Sql) => Prisma.Sql) =>
    Prisma.sql`(SELECT p.id, ${Prisma.raw(String(rank))} AS rank, p.created_at FROM ${side.from} WHERE ${side.where} AND ${condition(side.name)}
      ORDER BY p.created_at DESC, p.id DESC LIMIT ${reach})`;
  // In a locale, each group is its sides merged in created_at order (each side its own index-ordered scan).
  const group = (rank: number, condition: (name: Prisma.Sql) => Prisma.Sql) =>
    sides.length === 1
      ? sideGroup(sides[0], rank, condition)
      : Prisma.sql`(SELECT g.id, g.rank, g.created_at FROM (${Prisma.join(sides.map((side) => sideGroup(side, rank, condition)), ' UNION ALL ')}) g
          ORDER BY g.created_at DESC, g.id DESC LIMIT ${reach})`;
  const wordPrefix = '% ' + escapeLike(q) + '%';
  // A later word starting with q: `strpos(…) > 0` is `LIKE wordPrefix` (q is taken literally, no escaping), but the
  // planner's estimate for it is a third of the matches rather than LIKE's few rows, so for a common word it reads
  // the group in created_at order and stops at the page's end, where LIKE's estimate made it sort every match.
  const laterWord = ' ' + q;
  // No ORDER BY over the groups: Append runs them in this order and stops once the page is full, so a group
  // after a full page never runs. (Sorting the union would run every group to its end; for a word most matches
  // carry at the start of their name, the last group, nearly empty, could then walk the whole catalog.) The
  // service's connections run without parallel query (src/platform/db/adapters.ts), so no Parallel Append interleaves them.
  // test/perf/explain.test.ts checks the order and that a group after a full page never runs.
  return Prisma.sql`SELECT p.id FROM (
      ${group(0, (name) => Prisma.sql`lower(${name}) = ${q}`)}
      UNION ALL ${group(1, (name) => Prisma.sql`lower(${name}) LIKE ${prefix} AND lower(${name}) <> ${q}`)}
      UNION ALL ${group(2, (name) => Prisma.sql`lower(${name}) NOT LIKE ${prefix} AND strpos(lower(${name}), ${laterWord}) > 0`)}
      UNION ALL ${group(3, (name) => Prisma.sql`lower(${name}) NOT LIKE ${prefix} AND lower(${name}) NOT LIKE ${wordPrefix}`)}
    ) p LIMIT ${perPage + 1} OFFSET ${offset}`;
}

/** One source of a search's matches: the rows it reads (as `p`, the product) and the name its ranking reads. */
interface SearchSide {
  from: Prisma.Sql;
  where: Prisma.Sql;
  name: Prisma.Sql;
}
type SearchSides = [SearchSide, ...SearchSide[]];

/**
 * Where a list's matches come from. Without search locales, one side: the products. With them, a side per locale:
 * the products whose translation in that locale has every word, and neither their own text nor their translation
 * in an earlier locale of the chain does, ranked by their name in that locale (by '' without one). The sides never share a product, so
 * their matches are added, not de-duplicated, and each keeps its own index-ordered plan (the product trigram index
 * and created_at order; the translation trigram index, or the created_at order probing each product's translation
 * by its key).
 */
function searchSidesSql(storeId: string, mode: Mode, f: z.output<typeof ProductFilterInput>, attributes: ResolvedAttributeFilter[]): SearchSides {
  const products: SearchSide = { from: Prisma.sql`products p`, where: productWhereSql(storeId, mode, f, attributes), name: Prisma.sql`p.name` };
  const terms = searchTerms(f.search);
  if (!f.searchLocales?.length || !terms.length) return [products];
  const unsearched = productWhereSql(storeId, mode, f, attributes, { search: false });
  const ownText = textMatchSql('p.search_text', terms);
  const locales = f.searchLocales;
  return [
    { ...products, where: Prisma.sql`${unsearched} AND ${ownText}` },
    ...locales.map((locale, i) => ({
      from: Prisma.sql`product_translations t JOIN products p ON p.id = t.product_id`,
      where: Prisma.sql`${translationMatchSql(storeId, mode, [locale], terms)} AND ${unsearched} AND NOT (${ownText})${
        i === 0
          ? Prisma.empty
          : Prisma.sql` AND NOT EXISTS (SELECT 1 FROM product_translations e WHERE e.product_id = p.id AND ${translationMatchSql(storeId, mode, locales.slice(0, i), terms, 'e')})`
      }`,
      // Its translated name ('' without one: then its own name cannot hold the words, or its own text would have
      // matched): the expression of product_translations_name_prefix_idx, which the name groups read.
      name: Prisma.sql`coalesce(t.name, '')`,
    })),
  ];
}

/**
 * The rule for totals. A list filtered by nothing but status (`status`,
 * `is_active`) reads its exact total from the store's product counters
 * (product_counts, kept by triggers in the same transaction as every write):
 * exact at any size, at the cost of a few counter rows. Any other filter counts
 * its matches exactly up to this many pages past the page asked for; beyond
 * that `total` is that bound, `totalExact` false (more than `total`: "1–20 of
 * 200+"), and `hasMore` is exact either way. The bound follows the page, not the catalog:
 * a fixed bound makes a common word count that many matches (the trigram index
 * yields every match before the first is counted), and ten pages are what a
 * pager shows ahead.
 */
export const COUNTED_PAGES_AHEAD = 10;

/** Whether the filter only selects by status, so the store's counters know its exact total. */
function countedByCounters(f: z.output<typeof ProductFilterInput>): boolean {
  return (
    !searchTerms(f.search).length &&
    !f.category &&
    !f.collection &&
    !f.tags?.length &&
    f.lowStock === undefined &&
    f.scheduled === undefined &&
    f.priceMin === undefined &&
    f.priceMax === undefined &&
    !f.attributes?.length &&
    !f.productTypes?.length
  );
}

/** Whether nothing but attributes and status narrows the list: the attribute value bitmaps answer it (with status). */
function narrowedByAttributesOnly(f: z.output<typeof ProductFilterInput>): boolean {
  return countedByCounters({ ...f, attributes: undefined });
}

/** The status a list selects, as the counters and bitmaps name it. */
function statusOf(f: z.output<typeof ProductFilterInput>): 'active' | 'not_active' | 'draft' | 'archived' | null {
  return f.status ?? (f.isActive === true ? 'active' : f.isActive === false ? 'not_active' : null);
}

/** The status filters of a list on a table whose rows carry their product's status (counters, price rows). */
function statusSql(alias: 'pc' | 'cp', f: z.output<typeof ProductFilterInput>): Prisma.Sql[] {
  const status = Prisma.raw(`${alias}.status`);
  const parts: Prisma.Sql[] = [];
  if (f.isActive === true) parts.push(Prisma.sql`${status} = 'active'`);
  if (f.isActive === false) parts.push(Prisma.sql`${status} <> 'active'`);
  if (f.status) parts.push(Prisma.sql`${status} = ${f.status}::"ProductStatus"`);
  return parts;
}

/** The total of a status-only list: the sum of the store's counter slots of the statuses it selects. */
function counterTotalSql(storeId: string, mode: Mode, f: z.output<typeof ProductFilterInput>): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`pc.store_id = ${storeId}::uuid AND pc.mode = ${mode}::"Mode"`, ...statusSql('pc', f)];
  return Prisma.sql`SELECT coalesce(sum(pc.count), 0) AS total FROM product_counts pc WHERE ${Prisma.join(parts, ' AND ')}`;
}

export interface PageResult {
  /** The store's currencies, read with a page in a currency (ProductFilter.currency). */
  storeCurrencies?: { currency: string; currencies: string[] };
  ids: string[];
  page: number;
  perPage: number;
  /** Number of matches, exact when totalExact; otherwise a lower bound. */
  total: number;
  totalExact: boolean;
  hasMore: boolean;
}

/**
 * The validated arguments and the single SQL statement of a page-based list:
 * the page's ids (one more than asked, to know has_more) and the total of
 * matches (from the counters, or counted up to countLimit; see
 * COUNTED_PAGES_AHEAD); an empty page still returns one row with the total.
 * Exported so the benchmark baselines and the EXPLAIN tests run exactly the service's SQL.
 */
export function productPageQuery(
  storeId: string,
  mode: Mode,
  filterInput: ProductFilter,
  paging: { page?: number; perPage?: number },
  sort?: ProductSort,
  attributes: ResolvedAttributeFilter[] = [],
) {
  const filter = parseInput(ProductFilterInput, filterInput);
  const { page, perPage } = parseInput(PageInput, paging);
  const offset = (page - 1) * perPage;
  // How many rows a search word, a tag or an attribute selects decides the plan (the trigram index, the created_at
  // order, or the ids the attribute matches): such a page is planned for its values every time, never from a cached
  // generic plan.
  const plannedPerValues = searchTerms(filter.search).length > 0 || !!filter.tags?.length || attributes.length > 0;
  if (attributes.length && narrowedByAttributesOnly(filter)) {
    const sql = attributePageSql(storeId, mode, filter, attributes, offset, perPage, sort);
    return { page, perPage, countLimit: Infinity, sql: withStoreCurrencies(sql, storeId, filter.currency), plannedPerValues };
  }
  const totalFromCounters = countedByCounters(filter);
  const countLimit = totalFromCounters ? Infinity : offset + COUNTED_PAGES_AHEAD * perPage;
  const sides = searchSidesSql(storeId, mode, filter, attributes);
  const union = (select: (side: SearchSide) => Prisma.Sql) => Prisma.join(sides.map((side) => Prisma.sql`(${select(side)})`), ' UNION ALL ');
  // Each side counts up to the bound; their sum past it is a bound reached all the same (totalOf).
  const total = totalFromCounters
    ? counterTotalSql(storeId, mode, filter)
    : Prisma.sql`SELECT count(*) AS total FROM (${union((side) => Prisma.sql`SELECT 1 FROM ${side.from} WHERE ${side.where} LIMIT ${countLimit + 1}`)}) m`;
  const { col } = SORT_SQL[sort ?? '-created_at'];
  const pageIds =
    !sort && searchTerms(filter.search).length
      ? rankedSearchIdsSql(sides, filter.search!, perPage, offset)
      : sort && filter.currency && SORT_SQL[sort].col === 'price'
        ? currencyPriceOrderSql(storeId, mode, filter, attributes, SORT_SQL[sort].dir, { perPage, offset })
        : sides.length === 1
          ? Prisma.sql`SELECT p.id FROM products p WHERE ${sides[0].where} ORDER BY ${orderSql(sort, filter.currency)} LIMIT ${perPage + 1} OFFSET ${offset}`
          : Prisma.sql`SELECT p.id FROM (${union(
              (side) => Prisma.sql`SELECT p.id, ${Prisma.raw(`p.${col}`)} FROM ${side.from} WHERE ${side.where} ORDER BY ${orderSql(sort)} LIMIT ${offset + perPage + 1}`,
            )}) p ORDER BY ${orderSql(sort)} LIMIT ${perPage + 1} OFFSET ${offset}`;
  const sql = Prisma.sql`
    SELECT c.total, s.id, s.ord FROM (${total}) c
    LEFT JOIN LATERAL (
      SELECT p.id::text AS id, row_number() OVER () AS ord FROM (${pageIds}) p
    ) s ON true`;
  return { page, perPage, countLimit, sql: withStoreCurrencies(sql, storeId, filter.currency), plannedPerValues };
}

/**
 * A page statement of a list in a currency, with the store's currencies on each row: the caller checks the currency
 * against them (a storefront's 422) without a statement of its own.
 */
function withStoreCurrencies(sql: Prisma.Sql, storeId: string, currency: string | undefined): Prisma.Sql {
  if (!currency) return sql;
  return Prisma.sql`SELECT q.*, st.currency AS store_currency, st.currencies AS store_currencies FROM (${sql}) q, stores st WHERE st.id = ${storeId}::uuid`;
}

const WALK_ROWS_PER_MATCH = 100;

/**
 * The page of a list narrowed by attributes and at most a status. The AND of the filters' bitmaps gives the exact
 * total. The page then comes one of two ways, decided inside the statement (each branch runs only if its one-time
 * condition holds): walking the sort's index and keeping the products whose bit is set, about (offset + page) x
 * catalog / matches rows; or the products the filters' value rows name, about `matches` rows per filter, when matches
 * are so rare that the walk would read over WALK_ROWS_PER_MATCH rows per match (most of the catalog to fill a page).
 * In the default order a walked row is an index entry and a bit test (the index carries the ordinal), a named one an
 * index descent per filter, hence the factor.
 */
function attributePageSql(
  storeId: string,
  mode: Mode,
  filter: z.output<typeof ProductFilterInput>,
  attributes: ResolvedAttributeFilter[],
  offset: number,
  perPage: number,
  sort: ProductSort | undefined,
): Prisma.Sql {
  const status = statusOf(filter);
  const order = Prisma.sql`ORDER BY ${orderSql(sort, filter.currency)} LIMIT ${perPage + 1} OFFSET ${offset}`;
  return Prisma.sql`
    WITH ${attributeSelectionsSql(storeId, mode, attributes, status)},
    matches AS MATERIALIZED (SELECT s.chunk, ${selectionOf(attributes.map((_, i) => i), status)} AS bits FROM attribute_selections s),
    c AS MATERIALIZED (SELECT coalesce(sum(bit_count(m.bits)), 0) AS total FROM matches m),
    plan AS MATERIALIZED (
      SELECT c.total > 0 AND ${offset + perPage + 1}::bigint * (${counterTotalSql(storeId, mode, filter)}) <= ${WALK_ROWS_PER_MATCH} * c.total * c.total AS walk,
        c.total > 0 AS found FROM c),
    bitmap AS MATERIALIZED (
      SELECT string_agg(coalesce(m.bits::text, repeat('0', 4096)), '' ORDER BY g.chunk)::varbit AS bits
      FROM generate_series(0, (SELECT max(m.chunk) FROM matches m)) g(chunk) LEFT JOIN matches m ON m.chunk = g.chunk)
    SELECT c.total, s.id, s.ord FROM c
    LEFT JOIN LATERAL (
      SELECT p.id::text AS id, row_number() OVER () AS ord FROM (
        (SELECT p.id FROM products p WHERE ${productWhereSql(storeId, mode, filter)} AND (SELECT plan.walk FROM plan)
          AND CASE WHEN p.ordinal < (SELECT length(b.bits) FROM bitmap b) THEN get_bit((SELECT b.bits FROM bitmap b), p.ordinal) = 1 ELSE false END
          ${order})
        UNION ALL
        (SELECT p.id FROM products p WHERE ${productWhereSql(storeId, mode, filter, attributes)} AND (SELECT plan.found AND NOT plan.walk FROM plan) ${order})
      ) p
    ) s ON true`;
}

/** The total a list reports from what its statement counted: one more than the bound means more than the bound match. */
export function totalOf(counted: number, countLimit: number): { total: number; totalExact: boolean } {
  return counted <= countLimit ? { total: counted, totalExact: true } : { total: countLimit, totalExact: false };
}

/** Turns the rows of productPageQuery into a page. */
export function pageFromRows(
  rows: { id: string | null; ord: bigint | number | string | null; total: bigint | number | string }[],
  q: { page: number; perPage: number; countLimit: number },
): PageResult {
  // Ordered here rather than by an outer ORDER BY, which would add a sort node to every plan.
  const ids = rows
    .filter((r) => r.id)
    .sort((a, b) => Number(a.ord) - Number(b.ord))
    .map((r) => r.id!);
  return { ids: ids.slice(0, q.perPage), page: q.page, perPage: q.perPage, ...totalOf(rows.length ? Number(rows[0].total) : 0, q.countLimit), hasMore: ids.length > q.perPage };
}

/** What else a list reads besides its page: facets, and whose attributes it may name (the public API: public ones). */
export interface ListOptions {
  facets?: string[];
  audience?: AttributeAudience;
}

/**
 * One SQL statement: the ids of the page in order, whether more follow, and the (capped) count of matches. Attribute
 * filters or facets add one statement reading the attributes they name, and facets one more (run beside the page).
 */
export async function listProductIds(
  ctx: RequestContext,
  storeId: string,
  filterInput: ProductFilter,
  paging: { page?: number; perPage?: number },
  sort?: ProductSort,
  opts: ListOptions = {},
): Promise<PageResult & { facets?: Facet[] }> {
  const attributeQuery = await resolvedAttributes(storeId, filterInput, opts);
  const q = productPageQuery(storeId, ctx.mode, filterInput, paging, sort, attributeQuery?.filters);
  type Row = { id: string | null; ord: bigint | string | null; total: bigint | string; store_currency?: string; store_currencies?: string[] };
  const page = readRows<Row>(q.sql.text, q.sql.values, { prepare: !q.plannedPerValues }).then((rows) => {
    const [first] = rows;
    const currencies = first?.store_currency ? { storeCurrencies: { currency: first.store_currency, currencies: first.store_currencies ?? [] } } : {};
    return { ...pageFromRows(rows, q), ...currencies };
  });
  return withFacets(storeId, ctx.mode, filterInput, attributeQuery, page);
}

/** A list's page, read beside its facets when the list asks for any (one statement more, run at the same time). */
export async function withFacets<P extends object>(
  storeId: string,
  mode: Mode,
  filterInput: ProductFilter,
  attributeQuery: Awaited<ReturnType<typeof resolvedAttributes>>,
  page: Promise<P>,
): Promise<P & { facets?: Facet[] }> {
  const [result, facets] = await Promise.all([page, attributeQuery?.facets.length ? readFacets(storeId, mode, filterInput, attributeQuery) : undefined]);
  return { ...result, ...(facets ? { facets } : {}) };
}

/** Checks a list's filter, its attribute filters against the store's attributes too (422 validation_failed). */
export async function checkListFilter(storeId: string, filterInput: ProductFilter): Promise<void> {
  parseInput(ProductFilterInput, filterInput);
  await resolvedAttributes(storeId, filterInput, {});
}

/** A list's attribute filters and facets checked against the store's attributes; undefined (no statement) when it names none. */
export async function resolvedAttributes(storeId: string, filterInput: ProductFilter, opts: ListOptions) {
  if (!filterInput.attributes?.length && !opts.facets?.length) return undefined;
  parseInput(ProductFilterInput, filterInput);
  return resolveAttributeQuery(storeId, filterInput.attributes ?? [], opts.facets ?? [], opts.audience ?? 'merchant');
}

async function readFacets(storeId: string, mode: Mode, filterInput: ProductFilter, q: Awaited<ReturnType<typeof resolveAttributeQuery>>): Promise<Facet[]> {
  const sql = productFacetsQuery(storeId, mode, filterInput, q);
  const rows = await readRows<{ f: number; value: string | null; n: bigint | string | null; lo: string | null; hi: string | null }>(sql.text, sql.values, { prepare: false });
  return facetsFromRows(q.facets, rows);
}

/** The one statement of a list's facets. Exported so the benchmark's EXPLAIN runs exactly the service's SQL. */
export function productFacetsQuery(storeId: string, mode: Mode, filterInput: ProductFilter, q: Awaited<ReturnType<typeof resolveAttributeQuery>>): Prisma.Sql {
  const filter = parseInput(ProductFilterInput, filterInput);
  const status = statusOf(filter);
  // Only status besides attributes: the counters and bitmaps carry the product's status, so no product row is read.
  const attributesOnly = narrowedByAttributesOnly(filter);
  const scope = (code: string): FacetScope => {
    const others = q.filters.flatMap((f, i) => (f.code === code ? [] : [i]));
    if (attributesOnly && !others.length) return { status };
    if (attributesOnly) return { bitmap: selectionOf(others, status) };
    const kept = others.map((i) => q.filters[i]);
    return { key: kept.map((f) => f.code).join(','), products: Prisma.sql`SELECT p.id FROM products p WHERE ${productWhereSql(storeId, mode, filter, kept)}` };
  };
  const bitmaps = attributesOnly && q.filters.length > 0 ? attributeSelectionsSql(storeId, mode, q.filters, status) : undefined;
  return facetsSql(storeId, mode, q.facets, scope, bitmaps);
}

/** Keyset (cursor) pagination: stable and flat in depth. The cursor encodes the sort value and id of the last row. */
export async function listProductIdsAfter(
  ctx: RequestContext,
  storeId: string,
  filterInput: ProductFilter,
  args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null },
  sort?: ProductSort,
  opts: ListOptions = {},
): Promise<{ ids: string[]; cursors: string[]; hasNextPage: boolean; facets?: Facet[] }> {
  const filter = parseInput(ProductFilterInput, filterInput);
  const attributeQuery = await resolvedAttributes(storeId, filterInput, opts);
  if (args.last != null || args.before != null) {
    const field = args.last != null ? 'last' : 'before';
    throw new AppError('validation_failed', `${field}: backward paging is not supported; page forward with first/after`, {
      errors: [{ field, code: 'unsupported', message: 'backward paging is not supported; use first/after' }],
    });
  }
  const first = args.first ?? 20;
  if (!Number.isInteger(first) || first < 1 || first > 100) {
    throw new AppError('validation_failed', 'first must be between 1 and 100', { errors: [{ field: 'first', code: 'too_big', message: 'must be between 1 and 100' }] });
  }
  // Relevance has no stable keyset; a search without an explicit sort pages by created_at like the default.
  const sortKey = sort ?? '-created_at';
  const { col, dir } = SORT_SQL[sortKey];
  const conds: Prisma.Sql[] = [productWhereSql(storeId, ctx.mode, filter, attributeQuery?.filters)];
  if (args.after) {
    const [value, id] = decodeCursor(args.after, sortKey);
    const op = dir === 'DESC' ? '<' : '>';
    const cast = col === 'created_at' ? '::timestamptz' : col === 'price' ? '::numeric' : col === 'inventory_quantity' ? '::int' : '::text';
    conds.push(Prisma.sql`(${Prisma.raw(`p.${col}`)}, p.id) ${Prisma.raw(op)} (${value}${Prisma.raw(cast)}, ${id}::uuid)`);
  }
  const rows = ctx.readDb.$queryRaw<{ id: string; v: string }[]>`
    SELECT p.id::text AS id, ${Prisma.raw(col === 'created_at' ? `to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` : `p.${col}::text`)} AS v
    FROM products p WHERE ${Prisma.join(conds, ' AND ')}
    ORDER BY ${Prisma.raw(`p.${col} ${dir}, p.id ${dir}`)} LIMIT ${first + 1}`;
  const page = rows.then((all) => {
    const kept = all.slice(0, first);
    return { ids: kept.map((r) => r.id), cursors: kept.map((r) => encodeCursor(sortKey, r.v, r.id)), hasNextPage: all.length > first };
  });
  return withFacets(storeId, ctx.mode, filterInput, attributeQuery, page);
}

/** The cursor names its sort: a cursor of another sort would compare a value of the wrong column (or type). */
const encodeCursor = (sort: ProductSort, value: string, id: string) => Buffer.from(JSON.stringify([sort, value, id])).toString('base64url');

/** Checks (and normalizes) a cursor value for its sort column, so a forged cursor cannot reach SQL as a failing cast. */
const CURSOR_VALUE: Record<string, (v: string) => string | null> = {
  created_at: (v) => (/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(v) && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : null),
  price: (v) => (/^\d{1,10}(\.\d{1,2})?$/.test(v) ? v : null),
  inventory_quantity: (v) => (/^\d{1,10}$/.test(v) && Number(v) <= 2_147_483_647 ? v : null),
  name: (v) => (v.includes('\0') ? null : v),
};

function decodeCursor(cursor: string, sort: ProductSort): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 3 && v[0] === sort && typeof v[1] === 'string' && typeof v[2] === 'string' && isUuid(v[2])) {
      const value = CURSOR_VALUE[SORT_SQL[sort].col](v[1]);
      if (value !== null) return [value, v[2]];
    }
  } catch {
    /* fall through */
  }
  throw new AppError('validation_failed', 'after is not a cursor returned by this list with this sort', {
    errors: [{ field: 'after', code: 'invalid_cursor', message: 'not a valid cursor' }],
  });
}

/**
 * Loads the rows of ids (one statement) and returns them in the order of ids:
 * the full rows when they answer the query (the product screens and REST), or
 * what Prisma loads for it.
 */
export async function productsByIds<Q extends { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect }>(ctx: RequestContext, ids: string[], query: Q) {
  if (!ids.length) return [];
  const rows = coveredByFullRow(query)
    ? ((await fullProductRowsByIds(ids)) as unknown as Prisma.ProductGetPayload<Q>[])
    : await ctx.readDb.product.findMany({ ...query, where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [(r as { id: string }).id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is NonNullable<typeof r> => !!r);
}
