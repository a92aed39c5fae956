/** The merchant REST product routes under /api/v1/merchant/stores/:storeId/products. */

import { requireCapability } from '../../access/auth/authorization';
import type { RequestContext } from '../../platform/context';
import { AppError, type FieldError } from '../../platform/errors';
import { pageMeta, productSortEnumName } from '../graphql/products';
import { listProductIds, PAGE_LIMITS, PRODUCT_SORTS, productsByIds, type ProductFilter, type ProductSort } from '../services/productList';
import { getProduct } from '../services/products';
import type { AttributeFilter } from '../services/attributeFilters';
import { isUuid } from '../../kernel/ids';
import { fromGraphQL, PRODUCT, PRODUCT_VIEW_INCLUDE, productView, type ProductViewRow, selectionOf } from '../services/views';
import { camelizeKeys, requireObject } from '../../api/rest/body';
import { boolParam, enumParam, intParam, listParam, PAGE_META_SELECTION, pageResponse } from '../../api/rest/params';
import { productOpenapi } from './productOpenapi';
import { STAGING_ARGUMENTS, STAGING_VARIABLES, stagingVariables } from './stagingParams';
import type { RestRequest, RestRoute } from '../../api/rest/routes';

const BASE = '/api/v1/merchant/stores/:storeId';

/** The REST product (PRODUCT), selected with REST's names as aliases so the result needs no renaming. */
export const PRODUCT_FRAGMENT = `fragment RestProduct on Product { ${selectionOf(PRODUCT)} }`;

/** REST's spelling of a product GraphQL answered (money as a JSON number), changed in place: it is this request's own result. */
export const restProduct = (p: Record<string, any>) => fromGraphQL(PRODUCT, p);

/** `sort=-price` as the GraphQL variable, which carries the ProductSort enum's name (PRICE_DESC). */
export function sortParam(q: URLSearchParams, allowed: readonly ProductSort[]): string | undefined {
  const sort = enumParam(q, 'sort', allowed);
  return sort ? productSortEnumName(sort) : undefined;
}

/** The product list's filter from its query parameters (the export takes the same ones). */
export function listFilterOf(query: URLSearchParams) {
  return {
    search: query.get('search') || undefined,
    category: query.get('category') || undefined,
    tags: listParam(query, 'tags'),
    isActive: boolParam(query, 'is_active'),
    lowStock: boolParam(query, 'low_stock'),
    scheduled: boolParam(query, 'scheduled'),
  };
}

const ATTRIBUTE_PARAM = /^attributes\[([^\][]+)\](?:\[(gte|lte)\])?$/;

/**
 * The list's attribute filters, product types and facets from its query parameters: `attributes[material]=cotton,linen`,
 * `attributes[capacity][gte]=1`, `product_type=<id>,<id>`, `facets=material,color`. Malformed parameters are reported
 * together; whether the attributes exist and take those values is the service's check.
 */
export function attributeListParams(query: URLSearchParams): { attributes?: AttributeFilter[]; productTypes?: string[]; facets?: string[] } {
  const errors: FieldError[] = [];
  const byCode = new Map<string, AttributeFilter>();
  for (const key of new Set(query.keys())) {
    if (key !== 'attributes' && !key.startsWith('attributes[')) continue;
    const m = ATTRIBUTE_PARAM.exec(key);
    if (!m) {
      errors.push({ field: key, code: 'invalid_parameter', message: 'must be attributes[code], attributes[code][gte] or attributes[code][lte]' });
      continue;
    }
    const [, code, bound] = m;
    const filter = byCode.get(code) ?? { code };
    byCode.set(code, filter);
    if (bound) {
      const sent = query.getAll(key).map((v) => v.trim());
      if (sent.length !== 1 || !sent[0]) errors.push({ field: key, code: 'invalid_parameter', message: 'must be given once, with a value' });
      else filter[bound as 'gte' | 'lte'] = sent[0];
    } else {
      const values = listParam(query, key);
      if (!values) errors.push({ field: key, code: 'invalid_parameter', message: 'must name at least one value' });
      else filter.values = values;
    }
  }
  const productTypes = listParam(query, 'product_type');
  if (productTypes?.some((id) => !isUuid(id))) errors.push({ field: 'product_type', code: 'invalid_parameter', message: 'must be product type ids' });
  if (errors.length) throw new AppError('validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });
  return { attributes: byCode.size ? [...byCode.values()] : undefined, productTypes, facets: listParam(query, 'facets') };
}

/** REST's `meta.facets`: a numeric facet's bounds as JSON numbers (GraphQL carries them as strings, like every bound). */
export function restFacets(facets: Record<string, any>[]) {
  return facets.map((f) => ({
    code: f.code,
    name: f.name,
    type: f.type,
    unit: f.unit,
    ...(f.values ? { values: f.values.map((v: Record<string, any>) => ({ value: v.value, name: v.name, ...(v.hex ? { hex: v.hex } : {}), count: v.count, selected: v.selected })) } : {}),
    ...(f.values ? {} : { min: f.type === 'numeric' && f.min !== null ? Number(f.min) : f.min, max: f.type === 'numeric' && f.max !== null ? Number(f.max) : f.max }),
  }));
}

/** The facets selection of a list operation, in the names restFacets reads. */
export const FACETS_SELECTION = 'facets { code name type unit values { value name hex count selected } min max }';

/** The list's filter and facets variables; attribute filters and product types only where the list takes them. */
function listVariables(query: URLSearchParams) {
  const { facets, ...attributeFilters } = attributeListParams(query);
  return { filter: { ...listFilterOf(query), ...attributeFilters }, facets };
}

/** `meta.facets` when the list asked for facets. */
export const withFacets = <M extends object>(meta: M, facets: Record<string, any>[] | null | undefined) => (facets ? { ...meta, facets: restFacets(facets) } : meta);

const etag = (p: Record<string, any>) => `"v${p.version}"`;

export function productResponse(p: Record<string, any>, status = 200, extra: Record<string, string> = {}) {
  return { status, body: { data: restProduct(p) }, headers: { ETag: etag(p), ...extra } };
}

/** Fields a client may send back from a GET that are not writable; ignored on update. */
const READ_ONLY = ['id', 'currency', 'is_active', 'published_at', 'created_at', 'updated_at', 'variants_count', 'options', 'seo', 'images', 'version', 'has_staged_changes'];

/** Expected version from If-Match (`"v3"`) or the body's `version`; both present and different: 412. */
export function expectedVersion(r: RestRequest, body: Record<string, unknown>): number | undefined {
  const header = r.req.headers['if-match'];
  let fromHeader: number | undefined;
  if (header && header.trim() !== '*') {
    const m = /^\s*(?:W\/)?"v(\d+)"\s*$/.exec(header);
    if (!m) throw new AppError('precondition_failed', 'If-Match does not match the current ETag of the product');
    fromHeader = Number(m[1]);
  }
  const fromBody = body.version;
  if (fromBody !== undefined && (typeof fromBody !== 'number' || !Number.isInteger(fromBody))) {
    throw new AppError('validation_failed', 'version: must be an integer', { errors: [{ field: 'version', code: 'invalid_type', message: 'must be an integer' }] });
  }
  if (fromHeader !== undefined && fromBody !== undefined && fromHeader !== fromBody) {
    throw new AppError('precondition_failed', 'If-Match and body version disagree');
  }
  return fromHeader ?? (fromBody as number | undefined);
}

/** Attribute values are keyed by attribute code, renamed option values by the value, translations by locale: the client's own names, never renamed. */
const OPAQUE = new Set(['attributes', 'renamed_values', 'translations']);

const withFragment = (op: string) => op + PRODUCT_FRAGMENT;

/** A variant's options and attributes are keyed by the merchant's names, kept as sent. */
const VARIANT_OPAQUE = new Set(['options', 'attributes']);

/** A create body as GraphQL takes it: the product's fields camelized, its variants each as PUT …/variants camelizes them. */
function createInput(body: Record<string, unknown>) {
  const { variants, ...product } = body;
  const input = camelizeKeys(product, OPAQUE) as Record<string, unknown>;
  if (variants === undefined) return input;
  input.variants = Array.isArray(variants) ? variants.map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? camelizeKeys(v, VARIANT_OPAQUE) : v)) : variants;
  return input;
}

/** A translation read back (GET's bookkeeping fields) may be sent as it is: those are ignored. */
const TRANSLATION_READ_ONLY = ['outdated', 'outdated_fields', 'updated_at'];
/** Options and attributes of a translation are keyed by the product's own names. */
const TRANSLATION_OPAQUE = new Set(['options', 'attributes']);

/** Typed loosely by the services' query parameter, the rows this loads are ProductViewRow. */
const FULL_ROW = { include: PRODUCT_VIEW_INCLUDE };

/**
 * The product list's operation data (ListProducts with RestProduct) from the services, without GraphQL
 * execution: the products field's scope check, its page of ids, the full rows and the REST representation,
 * which is the fragment's selection in its order. Executing the document would run every field of every
 * product through graphql-js and the field wrappers, a large share of a list request's CPU.
 */
async function listProductsData(v: Record<string, any>, ctx: RequestContext) {
  requireCapability(ctx, 'readCatalog', v.storeId);
  const sort = v.sort === undefined ? undefined : PRODUCT_SORTS.find((s) => productSortEnumName(s) === v.sort);
  const page = await listProductIds(ctx, v.storeId, (v.filter ?? {}) as ProductFilter, { page: v.page, perPage: v.perPage }, sort, { facets: v.facets ?? undefined });
  return { products: { ...(await productPageData(ctx, page)), facets: page.facets ?? null } };
}

/** A page of product ids as a compiled list's data: `items` in the REST representation, `meta` as PAGE_META_SELECTION. */
export async function productPageData(ctx: RequestContext, page: Parameters<typeof pageMeta>[0] & { ids: string[] }) {
  const rows = (await productsByIds(ctx, page.ids, FULL_ROW)) as ProductViewRow[];
  const m = pageMeta(page);
  return {
    items: rows.map((p) => productView(p, ctx.baseUrl)),
    meta: { page: m.page, per_page: m.perPage, total: m.total, total_exact: m.totalExact, total_pages: m.totalPages, has_more: m.hasMore },
  };
}

/** GetProduct's operation data from the services, without GraphQL execution (as listProductsData). */
async function getProductData(v: Record<string, any>, ctx: RequestContext) {
  requireCapability(ctx, 'readCatalog', v.storeId);
  return { product: productView((await getProduct(ctx, v.storeId, v.id, FULL_ROW)) as ProductViewRow, ctx.baseUrl) };
}

export const merchantProductRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${BASE}/products`,
    operationId: 'listProducts',
    summary: 'List products (paged, filterable)',
    auth: 'dashboard',
    openapi: productOpenapi.listProducts,
    operation: withFragment(`
      query ListProducts($storeId: ID!, $page: Int, $perPage: Int, $filter: ProductFilter, $sort: ProductSort, $facets: [String!]) {
        products(storeId: $storeId, page: $page, perPage: $perPage, filter: $filter, sort: $sort, facets: $facets) {
          items { ...RestProduct }
          ${PAGE_META_SELECTION}
          ${FACETS_SELECTION}
        }
      }`),
    variables: ({ params, query }) => ({
      storeId: params.storeId,
      page: intParam(query, 'page', PAGE_LIMITS.page),
      perPage: intParam(query, 'per_page', PAGE_LIMITS.perPage),
      sort: sortParam(query, PRODUCT_SORTS),
      ...listVariables(query),
    }),
    compiled: listProductsData,
    respond: (data, r) => pageResponse(r, data.products.items.map(restProduct), withFacets(data.products.meta, data.products.facets)),
  },
  {
    method: 'GET',
    path: `${BASE}/products/:productId`,
    operationId: 'getProduct',
    summary: 'Read one product',
    auth: 'dashboard',
    openapi: productOpenapi.getProduct,
    operation: withFragment(`
      query GetProduct($storeId: ID!, $id: ID!) { product(storeId: $storeId, id: $id) { ...RestProduct } }`),
    variables: ({ params }) => ({ storeId: params.storeId, id: params.productId }),
    compiled: getProductData,
    respond: (data) => productResponse(data.product),
  },
  {
    method: 'POST',
    path: `${BASE}/products`,
    operationId: 'createProduct',
    summary: 'Create a product',
    auth: 'dashboard',
    openapi: productOpenapi.createProduct,
    operation: withFragment(`
      mutation CreateProduct($storeId: ID!, $input: ProductCreateInput!) {
        createProduct(storeId: $storeId, input: $input) { ...RestProduct }
      }`),
    variables: ({ params, body }) => ({ storeId: params.storeId, input: createInput(requireObject(body)) }),
    respond: (data, r) =>
      productResponse(data.createProduct, 201, {
        Location: `${r.ctx.baseUrl}${r.req.url!.split('?')[0].replace(/\/+$/, '')}/${data.createProduct.id}`,
      }),
  },
  {
    method: 'PUT',
    path: `${BASE}/products/:productId`,
    operationId: 'updateProduct',
    summary: 'Update a product (partial; If-Match or version guards against lost updates)',
    auth: 'dashboard',
    openapi: productOpenapi.updateProduct,
    operation: withFragment(`
      mutation UpdateProduct($storeId: ID!, $id: ID!, $input: ProductUpdateInput!, $expectedVersion: Int, ${STAGING_VARIABLES}) {
        updateProduct(storeId: $storeId, id: $id, input: $input, expectedVersion: $expectedVersion, ${STAGING_ARGUMENTS}) { ...RestProduct }
      }`),
    stageable: true,
    variables: (r) => {
      const body = requireObject(r.body);
      const expected = expectedVersion(r, body);
      const writable = Object.fromEntries(Object.entries(body).filter(([k]) => !READ_ONLY.includes(k)));
      return { storeId: r.params.storeId, id: r.params.productId, input: camelizeKeys(writable, OPAQUE), expectedVersion: expected, ...stagingVariables(r.query) };
    },
    respond: (data) => productResponse(data.updateProduct),
  },
  {
    method: 'DELETE',
    path: `${BASE}/products/:productId`,
    operationId: 'deleteProduct',
    summary: 'Delete a product with its variants, SEO record and images',
    auth: 'dashboard',
    openapi: productOpenapi.deleteProduct,
    operation: `mutation DeleteProduct($storeId: ID!, $id: ID!) { deleteProduct(storeId: $storeId, id: $id) { id } }`,
    variables: ({ params }) => ({ storeId: params.storeId, id: params.productId }),
    respond: () => ({ status: 204 }),
  },
  {
    method: 'POST',
    path: `${BASE}/products/:productId/publish`,
    operationId: 'publishProduct',
    summary: 'Publish a product (status active)',
    auth: 'dashboard',
    openapi: productOpenapi.publishProduct,
    operation: withFragment(`
      mutation PublishProduct($storeId: ID!, $id: ID!) { publishProduct(storeId: $storeId, id: $id) { ...RestProduct } }`),
    variables: ({ params }) => ({ storeId: params.storeId, id: params.productId }),
    respond: (data) => productResponse(data.publishProduct),
  },
  {
    method: 'POST',
    path: `${BASE}/products/:productId/unpublish`,
    operationId: 'unpublishProduct',
    summary: 'Unpublish a product (status draft)',
    auth: 'dashboard',
    openapi: productOpenapi.unpublishProduct,
    operation: withFragment(`
      mutation UnpublishProduct($storeId: ID!, $id: ID!) { unpublishProduct(storeId: $storeId, id: $id) { ...RestProduct } }`),
    variables: ({ params }) => ({ storeId: params.storeId, id: params.productId }),
    respond: (data) => productResponse(data.unpublishProduct),
  },
  {
    method: 'PUT',
    path: `${BASE}/products/:productId/translations/:locale`,
    operationId: 'setProductTranslation',
    summary: "Set a product's translation in one locale (replace)",
    auth: 'dashboard',
    openapi: productOpenapi.setProductTranslation,
    operation: withFragment(`
      mutation SetProductTranslation($storeId: ID!, $productId: ID!, $locale: String!, $input: ProductTranslationInput!) {
        setProductTranslation(storeId: $storeId, productId: $productId, locale: $locale, translation: $input) { ...RestProduct }
      }`),
    variables: ({ params, body }) => {
      const writable = Object.fromEntries(Object.entries(requireObject(body)).filter(([k]) => !TRANSLATION_READ_ONLY.includes(k)));
      return { storeId: params.storeId, productId: params.productId, locale: params.locale, input: camelizeKeys(writable, TRANSLATION_OPAQUE) };
    },
    respond: (data) => productResponse(data.setProductTranslation),
  },
  {
    method: 'DELETE',
    path: `${BASE}/products/:productId/translations/:locale`,
    operationId: 'removeProductTranslation',
    summary: "Remove a product's translation in one locale",
    auth: 'dashboard',
    openapi: productOpenapi.removeProductTranslation,
    operation: withFragment(`
      mutation RemoveProductTranslation($storeId: ID!, $productId: ID!, $locale: String!) {
        removeProductTranslation(storeId: $storeId, productId: $productId, locale: $locale) { ...RestProduct }
      }`),
    variables: ({ params }) => ({ storeId: params.storeId, productId: params.productId, locale: params.locale }),
    respond: (data) => productResponse(data.removeProductTranslation),
  },
];
