/**
 * B1: node:http + pg with named prepared statements, answering the REST
 * list and read endpoints with the same JSON as the service and the same
 * SQL (the service's own list statement from productPageQuery(), the token
 * check, one statement for the rows, shaped into the REST JSON in JS): what
 * the service's own statements cost without its framework stack. B1-lean
 * (b1lean.ts) answers the same with the cheapest SQL instead: one statement
 * whose products come back as JSON text built by PostgreSQL.
 */
import type { IncomingMessage } from 'node:http';
import { type FieldNode, type OperationDefinitionNode, parse } from 'graphql';
import { hasValidChecksum, safeEqual, sha256Hex } from '../../src/access/auth/secrets';
import { publicRoutes } from '../../src/catalog/rest/public';
import { listSupportedCountries } from '../../src/catalog/services/publicCatalog';
import { pageFromRows } from '../../src/catalog/services/productList';
import { paginationLinks } from '../../src/api/rest/params';
import { authorize, listPageQuery, baseUrlOf, HttpError, LIST_PATH, READ_PATH, serveBaseline, productsByIds, projection, query, restProduct, sendJson } from './common';


async function list(storeId: string, q: URLSearchParams, authorization: string | undefined, baseUrl: string, path: string) {
  await authorize(authorization, storeId);
  const page = listPageQuery(storeId, q);
  const r = pageFromRows(await query<{ id: string | null; ord: string | null; total: string }>(page.sql.text, page.sql.values, !page.plannedPerValues), page);
  const items = await productsByIds(r.ids, storeId, baseUrl);
  const meta = { page: page.page, per_page: page.perPage, total: r.total, total_exact: r.totalExact, total_pages: Math.ceil(r.total / page.perPage), has_more: r.hasMore };
  return { body: { data: items.map(restProduct), meta }, headers: { Link: paginationLinks(baseUrl, path, q, meta) } };
}

async function read(storeId: string, id: string, authorization: string | undefined, baseUrl: string) {
  await authorize(authorization, storeId);
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new HttpError(404, 'not_found');
  const [product] = await productsByIds([id], storeId, baseUrl);
  if (!product) throw new HttpError(404, 'not_found');
  return { body: { data: restProduct(product) }, headers: { ETag: `"v${product.version}"` } };
}

const COUNTRIES = '/api/public/v1/payments/supported-countries';
const countriesOperation = parse(publicRoutes.find((r) => r.path === COUNTRIES)?.operation ?? '{ x }').definitions[0] as OperationDefinitionNode;
const countriesShape = projection((countriesOperation.selectionSet.selections[0] as FieldNode).selectionSet ?? countriesOperation.selectionSet);
const KEY_PREFIX = /^svc_(test|live)_(ck|sk|pk)_/;

/** The public endpoint's own work: key lookup by digest, revocation, expiry, scope and mode checks, then a constant list. */
async function supportedCountries(req: IncomingMessage, q: URLSearchParams) {
  const key = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? (req.headers['x-api-key'] as string | undefined);
  const prefix = key ? KEY_PREFIX.exec(key)?.[0] : undefined;
  if (!key || !prefix || !hasValidChecksum(key, prefix)) throw new HttpError(401, 'invalid_api_key');
  const digest = sha256Hex(key);
  const [row] = await query<{ mode: string; type: string; scopes: string[]; token_hash: string; expires_at: Date | null; revoked_at: Date | null }>(
    'SELECT id, store_id, mode::text AS mode, type::text AS type, scopes, token_hash, expires_at, revoked_at FROM api_keys WHERE token_hash = $1',
    [digest],
  );
  if (!row || !safeEqual(row.token_hash, digest) || row.revoked_at || (row.expires_at && row.expires_at <= new Date())) throw new HttpError(401, 'invalid_api_key');
  const mode = (req.headers['x-service-mode'] as string | undefined) ?? q.get('mode') ?? row.mode;
  if (mode !== row.mode) throw new HttpError(403, 'mode_mismatch');
  if (!row.scopes.some((s) => s === 'public:read' || s === 'payments:read')) throw new HttpError(403, 'insufficient_scope');
  const list = listSupportedCountries();
  return { body: { data: countriesShape(list), meta: { total: list.length }, livemode: mode === 'live' }, headers: { 'X-Service-Mode': mode } };
}

serveBaseline(async (req, res, url) => {
  const auth = req.headers.authorization;
  let m: RegExpExecArray | null;
  let out: { body: unknown; headers: Record<string, string> } | undefined;
  if (req.method === 'GET' && (m = LIST_PATH.exec(url.pathname))) out = await list(m[1], url.searchParams, auth, baseUrlOf(req), url.pathname);
  else if (req.method === 'GET' && (m = READ_PATH.exec(url.pathname))) out = await read(m[1], m[2], auth, baseUrlOf(req));
  else if (req.method === 'GET' && url.pathname === COUNTRIES) out = await supportedCountries(req, url.searchParams);
  if (!out) return false;
  sendJson(res, 200, out.body, out.headers);
  return true;
});
