/** REST query parameters and paging: parsing, page metadata, Link headers. */

import { AppError } from '../../platform/errors';
import type { RestRequest, RestResponse } from './routes';

const fieldError = (field: string, message: string, code = 'invalid_parameter') =>
  new AppError('validation_failed', `${field}: ${message}`, { errors: [{ field, code, message }] });

interface IntRange {
  min: number;
  max: number;
}

/** GraphQL's Int, the widest range an integer parameter can reach its operation with. */
const GRAPHQL_INT: IntRange = { min: -2_147_483_648, max: 2_147_483_647 };

/** A decimal number as a client may write one (`20`, `+3`, `1.5`, `1e30`); only integers pass intParam. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * Optional integer query parameter within `range`: a 422 naming the parameter as the client sent it, "must be
 * an integer" for what is not one (`abc`, `1.5`) and "out of range" with the allowed range for an integer
 * outside it, however large (`100000`, `1e30`, `99999999999999999999`).
 */
export function intParam(q: URLSearchParams, name: string, range: IntRange = GRAPHQL_INT): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = DECIMAL.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) && Math.abs(n) !== Infinity) throw fieldError(name, 'must be an integer');
  if (n < range.min || n > range.max) throw fieldError(name, `is out of range: must be between ${range.min} and ${range.max}`, 'out_of_range');
  return n;
}

/** Optional boolean query parameter: exactly `true` or `false`. */
export function boolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (v !== 'true' && v !== 'false') throw fieldError(name, 'must be true or false');
  return v === 'true';
}

export function enumParam<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw fieldError(name, `must be one of ${allowed.join(', ')}`);
  return v as T;
}

/** Comma-separated list (`tags=a,b`); repeated parameters are merged too. */
export function listParam(q: URLSearchParams, name: string): string[] | undefined {
  const values = q.getAll(name).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  return values.length ? values : undefined;
}

/** RFC 8288 Link header for a page-based list. */
export function paginationLinks(
  baseUrl: string,
  path: string,
  query: URLSearchParams,
  meta: { page: number; total_pages: number; has_more: boolean; total_exact: boolean },
): string {
  const link = (p: number, rel: string) => {
    const q = new URLSearchParams(query);
    q.set('page', String(p));
    return `<${baseUrl}${path}?${q.toString()}>; rel="${rel}"`;
  };
  const { page } = meta;
  const last = Math.max(meta.total_pages, 1);
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(meta.total_exact ? Math.min(page - 1, last) : page - 1, 'prev'));
  if (meta.has_more) links.push(link(page + 1, 'next'));
  // A total that stopped counting does not know the last page (GitHub leaves rel="last" out too).
  if (meta.total_exact) links.push(link(last, 'last'));
  return links.join(', ');
}

/** The list envelope's meta, selected in REST spelling. */
export const PAGE_META_SELECTION = 'meta { page per_page: perPage total total_exact: totalExact total_pages: totalPages has_more: hasMore }';

/** A page-based list response: `{data, meta, ...extra}` with its RFC 8288 Link header. */
export function pageResponse(
  r: RestRequest,
  data: unknown[],
  meta: { page: number; total_pages: number; has_more: boolean; total_exact: boolean },
  extra: Record<string, unknown> = {},
): RestResponse {
  const path = r.req.url!.split('?')[0];
  return { body: { data, meta, ...extra }, headers: { Link: paginationLinks(r.ctx.baseUrl, path, r.query, meta) } };
}

/** A keyset connection as the GraphQL operations return it. */
interface Connection {
  edges: { node: unknown }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** The OpenAPI schema of a keyset page's `meta` (keysetPage below). */
export const keysetMetaSchema = {
  type: 'object',
  required: ['limit', 'has_more', 'next_cursor'],
  properties: {
    limit: { type: 'integer', example: 20 },
    has_more: { type: 'boolean' },
    next_cursor: { type: ['string', 'null'], description: 'Send it as `after` for the next page; null on the last page' },
  },
};

/**
 * A keyset page as REST answers it: `{data, meta: {limit, has_more,
 * next_cursor}}`, with an RFC 8288 next link (this request's URL with `after`
 * set) while there is more.
 */
export function keysetPage(page: Connection, r: RestRequest, defaultLimit: number): RestResponse {
  const nextCursor = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
  const headers: Record<string, string> = {};
  if (nextCursor) {
    const q = new URLSearchParams(r.query);
    q.set('after', nextCursor);
    headers.Link = `<${r.ctx.baseUrl}${r.req.url!.split('?')[0]}?${q.toString()}>; rel="next"`;
  }
  const limit = intParam(r.query, 'limit') ?? defaultLimit;
  return { body: { data: page.edges.map((e) => e.node), meta: { limit, has_more: page.pageInfo.hasNextPage, next_cursor: nextCursor } }, headers };
}
