/**
 * What the B1 / B1-lean (node:http + pg) and B3 (graphql-yoga + pg) baselines share:
 * a pg pool whose statements are counted and always named (prepared once
 * per connection), the dashboard-token check, and one statement that loads
 * products with everything the service's product payload shows.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type FieldNode, Kind, parse, type SelectionSetNode } from 'graphql';
import { Pool } from 'pg';
import { hasStorePermission, type UserPrincipal as Viewer } from '../../src/kernel/principal';
import { DASHBOARD_TOKEN_PREFIX } from '../../src/access/auth/dashboardTokens';
import { hasValidChecksum, sha256Hex } from '../../src/access/auth/secrets';
import { PRODUCT_FRAGMENT } from '../../src/catalog/rest/products';
import { imageUrl } from '../../src/catalog/services/imageTypes';
import { boolParam, enumParam, intParam, listParam } from '../../src/api/rest/params';
import { PRODUCT_SORTS, productPageQuery } from '../../src/catalog/services/productList';

export function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
}

let statements = 0;
(globalThis as { __benchQueryCount?: () => number }).__benchQueryCount = () => statements;

/** Connections as the service opens them: without parallel query (see src/platform/db/adapters.ts). */
export const pool = new Pool({ connectionString: env('DATABASE_URL'), max: Number(process.env.DATABASE_POOL_SIZE ?? 10), options: '-c max_parallel_workers_per_gather=0' });

const statementName = (text: string) => 's' + createHash('sha1').update(text).digest('hex').slice(0, 20);

/** A named (server-side prepared) statement: parsed and planned once per connection. */
/** One statement, prepared under a name unless `prepare` is false (as the service sends a search page: planned per values). */
export async function query<R extends Record<string, unknown>>(text: string, values: unknown[], prepare = true): Promise<R[]> {
  statements += 1;
  return (await pool.query<R>({ name: prepare ? statementName(text) : undefined, text, values })).rows;
}

/** The service's page statement for a REST list's query string (the filters the list scenarios use). */
export function listPageQuery(storeId: string, q: URLSearchParams) {
  const filter = {
    search: q.get('search') || undefined,
    category: q.get('category') || undefined,
    tags: listParam(q, 'tags'),
    isActive: boolParam(q, 'is_active'),
    lowStock: boolParam(q, 'low_stock'),
  };
  return productPageQuery(storeId, 'live', filter, { page: intParam(q, 'page'), perPage: intParam(q, 'per_page') }, enumParam(q, 'sort', PRODUCT_SORTS));
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(code);
  }
}

const AUTH_SQL = `
  SELECT t.id::text AS token_id, t.revoked_at, t.expires_at, u.id::text AS user_id, u.email,
    coalesce(json_agg(json_build_object('storeId', m.store_id, 'role', m.role, 'permissions', m.permissions)) FILTER (WHERE m.store_id IS NOT NULL), '[]') AS memberships
  FROM dashboard_tokens t JOIN users u ON u.id = t.user_id LEFT JOIN memberships m ON m.user_id = u.id
  WHERE t.token_hash = $1 GROUP BY t.id, u.id`;

/** The same check as the service: bearer token -> viewer -> manage_products on the store. */
/** Same trust window as the service's verified-token cache (AUTH_CACHE_TTL_MS, 5 s), so both run the same SQL per request. */
const verified = new Map<string, { viewer: Viewer; until: number }>();

export async function authorize(authorization: string | undefined, storeId: string): Promise<Viewer> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token || !hasValidChecksum(token, DASHBOARD_TOKEN_PREFIX)) throw new HttpError(401, 'invalid_token');
  const hash = sha256Hex(token);
  const hit = verified.get(hash);
  if (hit && hit.until > Date.now()) {
    if (!hasStorePermission(hit.viewer, storeId, 'manage_products')) throw new HttpError(403, 'forbidden');
    return hit.viewer;
  }
  const [row] = await query<{ token_id: string; revoked_at: Date | null; expires_at: Date | null; user_id: string; email: string; memberships: Viewer['memberships'] }>(
    AUTH_SQL,
    [hash],
  );
  if (!row || row.revoked_at || (row.expires_at && row.expires_at <= new Date())) throw new HttpError(401, 'invalid_token');
  const viewer: Viewer = { kind: 'user', userId: row.user_id, email: row.email, name: row.email, tokenId: row.token_id, memberships: row.memberships };
  verified.set(hash, { viewer, until: Math.min(Date.now() + 5000, row.expires_at?.getTime() ?? Infinity) });
  if (!hasStorePermission(viewer, storeId, 'manage_products')) throw new HttpError(403, 'forbidden');
  return viewer;
}

/** The product selection of the REST responses, parsed once: it decides the columns loaded and the JSON shape. */
const fragment = parse(PRODUCT_FRAGMENT).definitions[0] as { selectionSet: SelectionSetNode };
const selected = new Set(fragment.selectionSet.selections.map((s) => (s as FieldNode).name.value));

const iso = (v: string | Date | null) => (v == null ? null : new Date(v).toISOString());

/** A product's translations as its `translations` field shows them ({"de": {…}}), built by PostgreSQL from row `p`. */
export const PRODUCT_TRANSLATIONS_SQL = `(SELECT coalesce(json_object_agg(t.locale, json_build_object(
    'name', t.name, 'description', t.description, 'seo', json_build_object('title', t.seo_title, 'description', t.seo_description, 'slug', t.slug),
    'options', t.options, 'attributes', t.attributes, 'outdated', cardinality(t.outdated_fields) > 0, 'outdated_fields', t.outdated_fields,
    'updated_at', to_char(t.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY t.locale), '{}')
  FROM product_translations t WHERE t.product_id = p.id)`;

const PRODUCTS_SQL = `
  SELECT p.id::text AS id, p.name, p.description, p.price::text AS price, s.currency, p.inventory_quantity, p.low_stock_threshold,
    p.status::text AS status, p.published_at, p.publish_at, p.unpublish_at, p.tags, p.options, p.product_type_id::text AS product_type_id,
    p.attributes, p.version, p.has_staged_changes, p.created_at, p.updated_at,
    ARRAY(SELECT c.slug FROM product_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.product_id = p.id ORDER BY c.slug COLLATE "C") AS category_slugs,
    (SELECT count(*) FROM variants v WHERE v.product_id = p.id)::int AS variants_count,
    (SELECT coalesce(json_agg(json_build_object('currency', e.key, 'amount', e.value->>'amount', 'compareAtAmount', e.value->>'compare_at_amount') ORDER BY e.key), '[]')
      FROM jsonb_each(p.prices) e) AS prices,
    ${PRODUCT_TRANSLATIONS_SQL} AS translations
    ${selected.has('images') ? `, (SELECT coalesce(json_agg(json_build_object('id', i.id, 'productId', i.product_id, 'sha256', i.sha256, 'mimeType', i.mime_type, 'width', i.width, 'height', i.height, 'sizeBytes', i.size_bytes, 'alt', i.alt, 'position', i.position, 'createdAt', i.created_at) ORDER BY i.position, i.created_at), '[]') FROM product_images i WHERE i.product_id = p.id) AS images` : ''}
    ${selected.has('seo') ? `, (SELECT json_build_object('title', x.title, 'description', x.description, 'slug', x.slug, 'canonicalUrl', x.canonical_url, 'ogImageUrl', x.og_image_url, 'noindex', x.noindex, 'updatedAt', x.updated_at) FROM product_seo x WHERE x.product_id = p.id) AS seo` : ''}
    ${selected.has('variants') ? `, (SELECT coalesce(json_agg(json_build_object('id', v.id, 'sku', v.sku, 'title', v.title, 'options', v.options, 'price', v.price::text, 'inventoryQuantity', v.inventory_quantity, 'position', v.position, 'createdAt', v.created_at, 'updatedAt', v.updated_at) ORDER BY v.position, v.sku), '[]') FROM variants v WHERE v.product_id = p.id) AS variants` : ''}
  FROM products p JOIN stores s ON s.id = p.store_id
  WHERE p.id = ANY($1::uuid[]) AND p.store_id = $2::uuid`;

export type GqlProduct = Record<string, unknown> & { id: string };

/** Products by id, in the order of ids, in the GraphQL field names and scalar formats of the service. */
export async function productsByIds(ids: string[], storeId: string, baseUrl: string): Promise<GqlProduct[]> {
  if (!ids.length) return [];
  const rows = await query<Record<string, any>>(PRODUCTS_SQL, [ids, storeId]);
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        name: r.name,
        description: r.description,
        price: r.price,
        currency: r.currency,
        prices: r.prices,
        inventoryQuantity: r.inventory_quantity,
        lowStockThreshold: r.low_stock_threshold,
        status: r.status,
        isActive: r.status === 'active',
        publishedAt: iso(r.published_at),
        publishAt: iso(r.publish_at),
        unpublishAt: iso(r.unpublish_at),
        tags: r.tags,
        categorySlugs: r.category_slugs,
        options: r.options,
        productTypeId: r.product_type_id,
        attributes: r.attributes,
        variantsCount: r.variants_count,
        version: r.version,
        hasStagedChanges: r.has_staged_changes,
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
        images: r.images?.map((i: Record<string, any>) => ({ ...i, url: imageUrl(baseUrl, i as { sha256: string; mimeType: string }), createdAt: iso(i.createdAt) })),
        seo: r.seo ? { ...r.seo, updatedAt: iso(r.seo.updatedAt) } : r.seo,
        translations: r.translations,
        variants: r.variants?.map((v: Record<string, any>) => ({ ...v, createdAt: iso(v.createdAt), updatedAt: iso(v.updatedAt) })),
      },
    ];
  });
}

type Projection = (value: any) => any;

/** A function copying a value's fields into a selection's shape (aliases applied), compiled once. */
export function projection(set: SelectionSetNode): Projection {
  const fields = set.selections
    .filter((s): s is FieldNode => s.kind === Kind.FIELD)
    .map((f) => ({ out: f.alias?.value ?? f.name.value, key: f.name.value, sub: f.selectionSet ? projection(f.selectionSet) : undefined }));
  const one = (v: any) => {
    const o: Record<string, unknown> = {};
    for (const f of fields) {
      const x = v[f.key];
      o[f.out] = f.sub && x != null ? f.sub(x) : x;
    }
    return o;
  };
  return (v) => (Array.isArray(v) ? v.map(one) : one(v));
}

const toRestShape = projection(fragment.selectionSet);

/** The REST product: the fragment's snake_case aliases, money as a JSON number (restProduct() of the service). */
export function restProduct(p: GqlProduct): Record<string, unknown> {
  const out = toRestShape(p);
  return { ...out, price: Number(out.price) };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export const baseUrlOf = (req: IncomingMessage) => `http://${req.headers.host ?? 'localhost'}`;

/** The REST list and read paths the node:http baselines answer. */
export const LIST_PATH = /^\/api\/v1\/merchant\/stores\/([^/]+)\/products$/;
export const READ_PATH = /^\/api\/v1\/merchant\/stores\/([^/]+)\/products\/([^/]+)$/;

/**
 * A node:http baseline on PORT: /healthz, then `route`, which answers and
 * returns true or returns false for a path it does not serve (404); an
 * HttpError becomes its status and code, anything else a 500.
 */
export function serveBaseline(route: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>): void {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://internal');
      if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
      if (!(await route(req, res, url))) throw new HttpError(404, 'route_not_found');
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      if (status === 500) console.error(err);
      sendJson(res, status, { code: err instanceof HttpError ? err.code : 'internal_error' });
    }
  });
  server.listen(Number(env('PORT')), '127.0.0.1');
}
