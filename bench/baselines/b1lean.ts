/**
 * B1-lean: node:http + pg with named prepared statements, answering the same
 * REST list and read endpoints as B1 with the same JSON and headers, but with
 * the cheapest SQL for that response: one statement per request after the
 * token check, and PostgreSQL builds the products' JSON itself.
 *
 * - list: the service's page statement (productPageQuery(): its indexed
 *   predicates and its total, from the per-store counters for unfiltered and
 *   status-only lists) wrapped so the same statement also returns has_more and
 *   the page's products as one JSON text (json_agg ordered by the page order);
 *   Node never parses or re-serializes rows, it writes
 *   `{"data":` + text + `,"meta":` + meta + `}`.
 * - read: one statement by id, store and mode returning the version (ETag)
 *   and the product's JSON text.
 * - statements are planned once per connection (plan_cache_mode =
 *   force_generic_plan, see below); B1 and the service leave it to PostgreSQL.
 *
 * B1 runs the service's SQL (page of ids, then the rows) and shapes rows in
 * JS; B1-lean is the floor for "node + PostgreSQL" on these responses.
 */
import type { ServerResponse } from 'node:http';
import { Prisma } from '../../src/platform/db/client';
import { paginationLinks } from '../../src/api/rest/params';
import { IMAGE_TYPES } from '../../src/catalog/services/imageTypes';
import { totalOf } from '../../src/catalog/services/productList';
import { authorize, listPageQuery, baseUrlOf, HttpError, LIST_PATH, pool, PRODUCT_TRANSLATIONS_SQL, query, READ_PATH, serveBaseline } from './common';

/**
 * Generic plans: the list statement's custom plan costs more to plan (~0.8 ms on the 10k catalog: the page statement
 * and four subqueries per product) than to run, and PostgreSQL's automatic choice keeps re-planning it because the
 * generic plan's estimate assumes LIMIT $n reads 10 % of the rows. The plans of the listed filters are the same shape
 * either way (same indexes), so every execution after the first skips planning. Set once per pooled connection.
 */
pool.on('connect', (client) => {
  client.query('SET plan_cache_mode = force_generic_plan').catch(() => {});
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** imageUrl()'s extension, from the same map as the service (an unknown type gives "undefined", as the template string does). */
const EXT_CASE = `CASE i.mime_type ${Object.values(IMAGE_TYPES)
  .map((t) => `WHEN '${t.mimeType}' THEN '${t.ext}'`)
  .join(' ')} ELSE 'undefined' END`;

/** Date.prototype.toISOString() of a timestamptz(3), or null. */
const iso = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The REST product (PRODUCT_FRAGMENT of src/catalog/rest/products.ts, snake_case
 * aliases, price as a JSON number) as a json value of row `p` (joined with
 * its store `s`); `baseUrl` is the SQL of the request's origin (image URLs).
 */
const productJson = (baseUrl: string) => `json_build_object(
    'id', p.id, 'name', p.name, 'description', p.description, 'price', p.price::float8, 'currency', s.currency,
    'prices', (SELECT coalesce(json_agg(json_build_object('currency', e.key, 'amount', e.value->>'amount', 'compare_at_amount', e.value->>'compare_at_amount') ORDER BY e.key), '[]')
      FROM jsonb_each(p.prices) e),
    'inventory_quantity', p.inventory_quantity, 'low_stock_threshold', p.low_stock_threshold,
    'status', p.status, 'is_active', p.status = 'active',
    'published_at', ${iso('p.published_at')}, 'publish_at', ${iso('p.publish_at')}, 'unpublish_at', ${iso('p.unpublish_at')},
    'category_slugs', ARRAY(SELECT c.slug FROM product_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.product_id = p.id ORDER BY c.slug COLLATE "C"),
    'tags', p.tags, 'options', p.options, 'product_type_id', p.product_type_id, 'attributes', p.attributes,
    'variants_count', (SELECT count(*) FROM variants v WHERE v.product_id = p.id)::int,
    'version', p.version, 'has_staged_changes', p.has_staged_changes, 'created_at', ${iso('p.created_at')}, 'updated_at', ${iso('p.updated_at')},
    'images', (SELECT coalesce(json_agg(json_build_object(
        'id', i.id, 'url', ${baseUrl} || '/uploads/' || i.sha256 || '.' || ${EXT_CASE}, 'width', i.width, 'height', i.height,
        'mime_type', i.mime_type, 'size_bytes', i.size_bytes, 'sha256', i.sha256, 'alt', i.alt, 'position', i.position
      ) ORDER BY i.position, i.created_at), '[]') FROM product_images i WHERE i.product_id = p.id),
    'seo', (SELECT json_build_object('title', x.title, 'description', x.description, 'slug', x.slug, 'canonical_url', x.canonical_url,
        'og_image_url', x.og_image_url, 'noindex', x.noindex, 'updated_at', ${iso('x.updated_at')}) FROM product_seo x WHERE x.product_id = p.id),
    'translations', ${PRODUCT_TRANSLATIONS_SQL}
  )`;

/** Placeholder for the origin parameter inside productJson(), replaced by a Prisma parameter below. */
const ORIGIN = '\u0000origin\u0000';
const [jsonBefore, jsonAfter] = productJson(ORIGIN).split(ORIGIN);
const productJsonSql = (baseUrl: string) => Prisma.sql`${Prisma.raw(jsonBefore)}${baseUrl}::text${Prisma.raw(jsonAfter)}`;

const READ_SQL = `
  SELECT p.version, ${productJson('$3::text')}::text AS data
  FROM products p JOIN stores s ON s.id = p.store_id
  WHERE p.id = $1::uuid AND p.store_id = $2::uuid AND p.mode = 'live'`;

function send(res: ServerResponse, body: string, headers: Record<string, string>) {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(body);
}

async function list(res: ServerResponse, storeId: string, q: URLSearchParams, authorization: string | undefined, baseUrl: string, path: string) {
  await authorize(authorization, storeId);
  const page = listPageQuery(storeId, q);
  // The page statement yields (total, id, ord) for perPage + 1 ids (one row with null id when empty); the products of the
  // first perPage are built in the same statement, the extra one only counts toward has_more.
  const sql = Prisma.sql`
    SELECT max(pg.total)::text AS total, count(pg.id)::int AS n,
      coalesce(json_agg(x.j ORDER BY pg.ord) FILTER (WHERE pg.ord <= ${page.perPage}), '[]')::text AS data
    FROM (${page.sql}) pg
    LEFT JOIN LATERAL (
      SELECT ${productJsonSql(baseUrl)} AS j FROM products p JOIN stores s ON s.id = p.store_id
      WHERE p.id = pg.id::uuid AND pg.ord <= ${page.perPage}
    ) x ON true`;
  const [row] = await query<{ total: string | null; n: number; data: string }>(sql.text, sql.values);
  const { total, totalExact } = totalOf(Number(row?.total ?? 0), page.countLimit);
  const meta = { page: page.page, per_page: page.perPage, total, total_exact: totalExact, total_pages: Math.ceil(total / page.perPage), has_more: (row?.n ?? 0) > page.perPage };
  send(res, `{"data":${row?.data ?? '[]'},"meta":${JSON.stringify(meta)}}`, { Link: paginationLinks(baseUrl, path, q, meta) });
}

async function read(res: ServerResponse, storeId: string, id: string, authorization: string | undefined, baseUrl: string) {
  await authorize(authorization, storeId);
  if (!UUID.test(id) || !UUID.test(storeId)) throw new HttpError(404, 'not_found');
  const [row] = await query<{ version: number; data: string }>(READ_SQL, [id, storeId, baseUrl]);
  if (!row) throw new HttpError(404, 'not_found');
  send(res, `{"data":${row.data}}`, { ETag: `"v${row.version}"` });
}

serveBaseline(async (req, res, url) => {
  const auth = req.headers.authorization;
  let m: RegExpExecArray | null;
  if (req.method === 'GET' && (m = LIST_PATH.exec(url.pathname))) await list(res, m[1], url.searchParams, auth, baseUrlOf(req), url.pathname);
  else if (req.method === 'GET' && (m = READ_PATH.exec(url.pathname))) await read(res, m[1], m[2], auth, baseUrlOf(req));
  else return false;
  return true;
});
