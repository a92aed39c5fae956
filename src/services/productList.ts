import { z } from 'zod';
import type { RequestContext } from '../context';
import type { Mode } from '../domain/access';
import { Prisma } from '../db/client';
import { AppError } from '../errors';
import { isUuid } from '../domain/ids';
import { parseInput } from './validation';

export const PRODUCT_SORTS = ['created_at', '-created_at', 'name', '-name', 'price', '-price', 'inventory_quantity', '-inventory_quantity'] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const ProductFilterInput = z.object({
  search: z.string().trim().max(200).optional(),
  category: z.string().trim().min(1).max(128).optional(),
  tags: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
  isActive: z.boolean().optional(),
  lowStock: z.boolean().optional(),
  /** true: products with a pending publishAt or unpublishAt; false: neither. */
  scheduled: z.boolean().optional(),
  /** Public storefront lists pass 'active' only. */
  status: z.enum(['active', 'draft', 'archived']).optional(),
});
export type ProductFilter = z.input<typeof ProductFilterInput>;

const PageInput = z.object({
  page: z.number().int().min(1, 'must be >= 1').max(1_000_000).default(1),
  perPage: z.number().int().min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').default(20),
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

/** The WHERE clause of a product list: every filter maps to an indexed predicate. */
function whereSql(storeId: string, mode: Mode, f: z.output<typeof ProductFilterInput>): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`p.store_id = ${storeId}::uuid AND p.mode = ${mode}::"Mode"`];
  const terms = searchTerms(f.search);
  for (const term of terms) parts.push(Prisma.sql`p.search_text LIKE ${'%' + escapeLike(term) + '%'}`);
  if (f.category) {
    parts.push(Prisma.sql`p.id IN (SELECT pc.product_id FROM product_categories pc JOIN categories c ON c.id = pc.category_id
      WHERE c.store_id = ${storeId}::uuid AND c.slug = ${f.category} AND pc.mode = ${mode}::"Mode")`);
  }
  if (f.tags?.length) parts.push(Prisma.sql`p.tags && ${f.tags}::text[]`);
  if (f.isActive === true) parts.push(Prisma.sql`p.status = 'active'`);
  if (f.isActive === false) parts.push(Prisma.sql`p.status <> 'active'`);
  if (f.status) parts.push(Prisma.sql`p.status = ${f.status}::"ProductStatus"`);
  if (f.lowStock === true) parts.push(Prisma.sql`p.low_stock`);
  if (f.lowStock === false) parts.push(Prisma.sql`NOT p.low_stock`);
  if (f.scheduled === true) parts.push(Prisma.sql`(p.publish_at IS NOT NULL OR p.unpublish_at IS NOT NULL)`);
  if (f.scheduled === false) parts.push(Prisma.sql`p.publish_at IS NULL AND p.unpublish_at IS NULL`);
  return Prisma.join(parts, ' AND ');
}

function searchTerms(search: string | undefined): string[] {
  return (search ?? '').toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);
}

/**
 * ORDER BY: an explicit sort wins; a search without one ranks best matches
 * first (exact name, name prefix, then trigram word similarity); otherwise newest first.
 */
function orderSql(sort: ProductSort | undefined, search: string | undefined): Prisma.Sql {
  const q = searchTerms(search).join(' ');
  if (!sort && q) {
    return Prisma.sql`(lower(p.name) = ${q}) DESC, (lower(p.name) LIKE ${escapeLike(q) + '%'}) DESC,
      word_similarity(${q}, p.search_text) DESC, p.created_at DESC, p.id DESC`;
  }
  const { col, dir } = SORT_SQL[sort ?? '-created_at'];
  return Prisma.raw(`p.${col} ${dir}, p.id ${dir}`);
}

/**
 * The rule for totals. A list filtered by nothing but status (`status`,
 * `is_active`) reads its exact total from the store's product counters
 * (product_counts, kept by triggers in the same transaction as every write):
 * exact at any size, at the cost of a few counter rows. Any other filter counts
 * its matches exactly up to this many (Elasticsearch's track_total_hits
 * default); beyond it `total` is a lower bound and `totalExact` false. Counting
 * every match would make page 1 cost grow with the catalog.
 */
export const EXACT_TOTAL_LIMIT = 10_000;

/** Whether the filter only selects by status, so the store's counters know its exact total. */
function countedByCounters(f: z.output<typeof ProductFilterInput>): boolean {
  return !searchTerms(f.search).length && !f.category && !f.tags?.length && f.lowStock === undefined && f.scheduled === undefined;
}

/** The total of a status-only list: the sum of the store's counter slots of the statuses it selects. */
function counterTotalSql(storeId: string, mode: Mode, f: z.output<typeof ProductFilterInput>): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`pc.store_id = ${storeId}::uuid AND pc.mode = ${mode}::"Mode"`];
  if (f.isActive === true) parts.push(Prisma.sql`pc.status = 'active'`);
  if (f.isActive === false) parts.push(Prisma.sql`pc.status <> 'active'`);
  if (f.status) parts.push(Prisma.sql`pc.status = ${f.status}::"ProductStatus"`);
  return Prisma.sql`SELECT coalesce(sum(pc.count), 0) AS total FROM product_counts pc WHERE ${Prisma.join(parts, ' AND ')}`;
}

export interface PageResult {
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
 * EXACT_TOTAL_LIMIT); an empty page still returns one row with the total.
 * Exported so the benchmark baselines and the EXPLAIN tests run exactly the service's SQL.
 */
export function productPageQuery(storeId: string, mode: Mode, filterInput: ProductFilter, paging: { page?: number; perPage?: number }, sort?: ProductSort) {
  const filter = parseInput(ProductFilterInput, filterInput);
  const { page, perPage } = parseInput(PageInput, paging);
  const offset = (page - 1) * perPage;
  const totalFromCounters = countedByCounters(filter);
  const countLimit = totalFromCounters ? Infinity : Math.max(EXACT_TOTAL_LIMIT, offset + perPage + 1);
  const where = whereSql(storeId, mode, filter);
  const total = totalFromCounters
    ? counterTotalSql(storeId, mode, filter)
    : Prisma.sql`SELECT count(*) AS total FROM (SELECT 1 FROM products p WHERE ${where} LIMIT ${countLimit}) m`;
  const sql = Prisma.sql`
    SELECT c.total, s.id, s.ord FROM (${total}) c
    LEFT JOIN LATERAL (
      SELECT p.id::text AS id, row_number() OVER () AS ord FROM (
        SELECT p.id FROM products p WHERE ${where}
        ORDER BY ${orderSql(sort, filter.search)} LIMIT ${perPage + 1} OFFSET ${offset}) p
    ) s ON true`;
  return { page, perPage, countLimit, sql };
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
  const total = rows.length ? Number(rows[0].total) : 0;
  return { ids: ids.slice(0, q.perPage), page: q.page, perPage: q.perPage, total, totalExact: total < q.countLimit, hasMore: ids.length > q.perPage };
}

/** One SQL statement: the ids of the page in order, whether more follow, and the (capped) count of matches. */
export async function listProductIds(ctx: RequestContext, storeId: string, filterInput: ProductFilter, paging: { page?: number; perPage?: number }, sort?: ProductSort): Promise<PageResult> {
  const q = productPageQuery(storeId, ctx.mode, filterInput, paging, sort);
  return pageFromRows(await ctx.db.$queryRaw<{ id: string | null; ord: bigint | null; total: bigint }[]>(q.sql), q);
}

/** Keyset (cursor) pagination: stable and flat in depth. The cursor encodes the sort value and id of the last row. */
export async function listProductIdsAfter(
  ctx: RequestContext,
  storeId: string,
  filterInput: ProductFilter,
  args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null },
  sort?: ProductSort,
): Promise<{ ids: string[]; cursors: string[]; hasNextPage: boolean }> {
  const filter = parseInput(ProductFilterInput, filterInput);
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
  const conds: Prisma.Sql[] = [whereSql(storeId, ctx.mode, filter)];
  if (args.after) {
    const [value, id] = decodeCursor(args.after, sortKey);
    const op = dir === 'DESC' ? '<' : '>';
    const cast = col === 'created_at' ? '::timestamptz' : col === 'price' ? '::numeric' : col === 'inventory_quantity' ? '::int' : '::text';
    conds.push(Prisma.sql`(${Prisma.raw(`p.${col}`)}, p.id) ${Prisma.raw(op)} (${value}${Prisma.raw(cast)}, ${id}::uuid)`);
  }
  const rows = await ctx.db.$queryRaw<{ id: string; v: string }[]>`
    SELECT p.id::text AS id, ${Prisma.raw(col === 'created_at' ? `to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` : `p.${col}::text`)} AS v
    FROM products p WHERE ${Prisma.join(conds, ' AND ')}
    ORDER BY ${Prisma.raw(`p.${col} ${dir}, p.id ${dir}`)} LIMIT ${first + 1}`;
  const page = rows.slice(0, first);
  return { ids: page.map((r) => r.id), cursors: page.map((r) => encodeCursor(sortKey, r.v, r.id)), hasNextPage: rows.length > first };
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

/** Loads full rows for ids (one statement) and returns them in the order of ids. */
export async function productsByIds<Q extends { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect }>(ctx: RequestContext, ids: string[], query: Q) {
  if (!ids.length) return [];
  const rows = await ctx.db.product.findMany({ ...query, where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [(r as { id: string }).id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is NonNullable<typeof r> => !!r);
}
