/** REST routes for collections under /api/v1/merchant/stores/:storeId/collections: each runs one GraphQL operation. */

import { CATALOG_LIMITS } from '../limits';
import { PAGE_LIMITS } from '../services/productList';
import { COLLECTION_KINDS, COLLECTION_MATCHES, COLLECTION_SORTS, collectionForList } from '../services/collections';
import { listCollectionProductIds } from '../services/collectionList';
import { PREVIEW_PRODUCTS } from '../services/collectionPreview';
import { requireCapability } from '../../access/auth/authorization';
import type { RequestContext } from '../../platform/context';
import { ALL_OPERATORS, RULE_FIELDS } from '../services/collectionRules';
import { bodyWith, camelizeKeys, requireObject } from '../../api/rest/body';
import { jsonContent, type OpenApiFragment, problemResponse, schemaRef } from '../../api/rest/openapi';
import { intParam, PAGE_META_SELECTION, pageResponse } from '../../api/rest/params';
import type { RestRequest, RestResponse, RestRoute } from '../../api/rest/routes';
import { expectedVersion, PRODUCT_FRAGMENT, productPageData, restProduct } from './products';

const BASE = '/api/v1/merchant/stores/:storeId/collections';
const ONE = `${BASE}/:collectionId`;

/** The collection as REST shows it (collectionView), in GraphQL's words. */
export const COLLECTION_FIELDS = `id title slug description kind rules { field operator value attribute } match sort published
  published_at: publishedAt products_count: productsCount membership { state done total } version
  created_at: createdAt updated_at: updatedAt translations`;

/** Fields of a GET a client may send back in a PATCH: not writable, ignored. */
const READ_ONLY = ['id', 'published_at', 'products_count', 'membership', 'version', 'created_at', 'updated_at', 'translations'];
const TRANSLATION_READ_ONLY = ['outdated', 'outdated_fields', 'updated_at'];

/** A rule as REST shows it: `attribute` only on attribute rules. */
const restRule = (r: Record<string, unknown>) => (r.attribute == null ? { field: r.field, operator: r.operator, value: r.value } : r);
const restCollection = (c: Record<string, any>) => ({ ...c, rules: c.rules.map(restRule) });
const etag = (c: { version: number }) => `"v${c.version}"`;
const one = (c: Record<string, any>, status = 200, headers: Record<string, string> = {}): RestResponse => ({ status, body: { data: restCollection(c) }, headers: { ETag: etag(c as { version: number }), ...headers } });

/** If-Match (`"v3"`) or the body's version, as products take them. */
const versionOf = (r: RestRequest) => expectedVersion(r, r.body && typeof r.body === 'object' && !Array.isArray(r.body) ? (r.body as Record<string, unknown>) : {});

const writable = (body: unknown) => camelizeKeys(Object.fromEntries(Object.entries(requireObject(body)).filter(([k]) => !READ_ONLY.includes(k))));

const ro = <T extends object>(s: T) => ({ ...s, readOnly: true });
const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

const Rule = {
  type: 'object',
  required: ['field', 'operator', 'value'],
  properties: {
    field: { type: 'string', enum: [...RULE_FIELDS] },
    operator: { type: 'string', enum: ALL_OPERATORS, description: 'tag, category, product_type, status: equals, not_equals; price, inventory: those and greater_than, less_than, at_least, at_most; attribute: equals, not_equals (and the ordering ones for numeric attributes); created_at: after, before' },
    value: { type: ['string', 'number'], description: 'A tag, category slug, product type id, status, attribute value, price, quantity or RFC 3339 time' },
    attribute: { type: 'string', description: 'attribute rules only: the attribute code' },
  },
  examples: [{ field: 'price', operator: 'less_than', value: '50' }],
};
const writableProperties = {
  title: { type: 'string', minLength: 1, maxLength: 255 },
  slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 200, description: 'Unique in the catalog; from the title when left out on create' },
  description: { type: 'string', maxLength: 20000 },
  kind: { type: 'string', enum: [...COLLECTION_KINDS], description: 'Set on create; immutable (422 immutable)' },
  rules: { type: 'array', maxItems: CATALOG_LIMITS.rulesPerCollection, items: Rule, description: 'smart only (at least one); the list replaces the stored one and membership is recomputed' },
  match: { type: 'string', enum: [...COLLECTION_MATCHES], description: 'all (default) or any of the rules' },
  sort: { type: 'string', enum: [...COLLECTION_SORTS], description: 'The order of its products; manual (the default of manual collections) is not for smart ones (default newest)' },
  published: { type: 'boolean', description: 'Whether the storefront lists it (default false)' },
};
const Collection = {
  type: 'object',
  required: ['id', 'title', 'slug', 'description', 'kind', 'rules', 'match', 'sort', 'published', 'published_at', 'products_count', 'membership', 'version', 'created_at', 'updated_at', 'translations'],
  properties: {
    id: ro({ type: 'string', format: 'uuid' }),
    ...writableProperties,
    published_at: ro(nullable('string', { format: 'date-time' })),
    products_count: ro({ type: 'integer', minimum: 0, description: 'Its products, of every status' }),
    membership: ro({
      type: 'object',
      properties: { state: { type: 'string', enum: ['current', 'recomputing'] }, done: { type: 'integer' }, total: { type: 'integer' } },
      description: 'smart: current, or recomputing after a rule change in a large catalog (done of total products examined)',
    }),
    version: ro({ type: 'integer', minimum: 1, description: 'Moves on every change, and every manual add, remove or move' }),
    created_at: ro({ type: 'string', format: 'date-time' }),
    updated_at: ro({ type: 'string', format: 'date-time' }),
    translations: ro({ type: 'object', description: 'Title and description by locale; written with PUT …/collections/{collectionID}/translations/{locale}' }),
  },
};
const components: OpenApiFragment['components'] = {
  schemas: {
    Collection,
    CollectionRule: Rule,
    CollectionCreate: { type: 'object', required: ['title', 'kind'], additionalProperties: false, properties: writableProperties, examples: [{ title: 'Under $50', kind: 'smart', rules: [{ field: 'price', operator: 'less_than', value: 50 }] }] },
    CollectionUpdate: { type: 'object', description: 'Any writable field; read-only fields of a GET are ignored', properties: { ...writableProperties, ...Object.fromEntries(READ_ONLY.map((k) => [k, {}])) } },
  },
};

const data = (schema: Record<string, unknown>, description: string) => ({ description, content: jsonContent({ type: 'object', required: ['data'], properties: { data: schema } }) });
const theCollection = (description: string) => data(schemaRef('Collection'), description);
const pageParameters = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.page.min, maximum: PAGE_LIMITS.page.max, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.perPage.min, maximum: PAGE_LIMITS.perPage.max, default: 20 } },
];
const idParam = { name: 'collectionId', in: 'path', required: true, schema: { type: 'string' }, description: 'The collection id or slug; unknown, or another catalog\'s: 404' };
const ifMatch = { name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'The collection ETag you read ("v<version>"); 412 when it changed since' };
const errors = {
  '401': problemResponse('No or invalid bearer token (unauthenticated, invalid_token)'),
  '403': problemResponse('The credential may not change the catalog (forbidden, insufficient_scope)'),
  '404': problemResponse('No such collection in this catalog (not_found)'),
};
const writeErrors = {
  ...errors,
  '400': problemResponse('Body is not a JSON object (bad_request, malformed_json)'),
  '412': problemResponse('If-Match is not the current version (precondition_failed, with current_version); nothing was written'),
};
const page = (r: RestRequest) => ({ storeId: r.params.storeId, page: intParam(r.query, 'page', PAGE_LIMITS.page), perPage: intParam(r.query, 'per_page', PAGE_LIMITS.perPage) });
const ref = (r: RestRequest) => ({ storeId: r.params.storeId, collection: r.params.collectionId });
const opsBody = (schema: Record<string, unknown>) => ({ required: true, content: jsonContent(schema) });
const productIds = { type: 'array', items: { type: 'string', format: 'uuid' }, minItems: 1, maxItems: CATALOG_LIMITS.productsPerManualCollection };

/**
 * CollectionProducts' data from the services without GraphQL execution, as the product list's (a hot read: the
 * merchant's collection page costs what a category's does). The field's capability check comes first, as there.
 */
async function collectionProductsData(v: Record<string, any>, ctx: RequestContext) {
  requireCapability(ctx, 'readCatalog', v.storeId);
  const collection = await collectionForList(ctx, v.storeId, v.collection);
  const page = await listCollectionProductIds(ctx, v.storeId, collection, {}, { page: v.page, perPage: v.perPage });
  return { collectionProducts: await productPageData(ctx, page) };
}

export const collectionRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: BASE,
    operationId: 'listCollections',
    summary: "List the catalog's collections (newest first, paged)",
    auth: 'dashboard',
    operation: `query ListCollections($storeId: ID!, $page: Int, $perPage: Int) { collections(storeId: $storeId, page: $page, perPage: $perPage) { items { ${COLLECTION_FIELDS} } ${PAGE_META_SELECTION} } }`,
    variables: page,
    respond: (d, r) => pageResponse(r, d.collections.items.map(restCollection), d.collections.meta),
    openapi: {
      description: "The catalog's collections (the request's mode), newest first, each with its products_count and membership state. Needs manage_products or products:read.",
      components,
      parameters: pageParameters,
      responses: { '200': { description: 'One page', content: jsonContent({ type: 'object', properties: { data: { type: 'array', items: schemaRef('Collection') }, meta: schemaRef('PageMeta') } }) }, ...errors },
    },
  },
  {
    method: 'POST',
    path: BASE,
    operationId: 'createCollection',
    summary: 'Create a collection (manual or smart)',
    auth: 'dashboard',
    operation: `mutation CreateCollection($storeId: ID!, $input: CollectionCreateInput!) { createCollection(storeId: $storeId, input: $input) { ${COLLECTION_FIELDS} } }`,
    variables: (r) => ({ storeId: r.params.storeId, input: camelizeKeys(requireObject(r.body)) }),
    respond: (d, r) => one(d.createCollection, 201, { Location: `${r.ctx.baseUrl}${r.req.url!.split('?')[0].replace(/\/+$/, '')}/${d.createCollection.id}` }),
    openapi: {
      description: `A smart collection's members are computed in the same request (or, in a catalog of more products than the recompute threshold, by a job: membership.state recomputing). Rule errors are reported all at once (rules.2.value). A catalog has at most ${CATALOG_LIMITS.collectionsPerCatalog} collections.`,
      components,
      requestBody: { required: true, content: jsonContent(schemaRef('CollectionCreate')) },
      responses: {
        '201': theCollection('The created collection'),
        ...writeErrors,
        '409': problemResponse('Another collection of the catalog has the slug (slug_taken)'),
        '422': problemResponse('Invalid field (validation_failed: rules.N.field, unknown_reference, not_allowed…) or too many collections (limit_exceeded)'),
      },
    },
  },
  {
    method: 'POST',
    path: `${BASE}/preview`,
    operationId: 'previewCollectionRules',
    summary: 'Count the products smart collection rules match, before saving them',
    auth: 'dashboard',
    operation:
      `query PreviewCollectionRules($storeId: ID!, $rules: [CollectionRuleInput!]!, $match: CollectionMatch, $sort: CollectionSort, $first: Int) {
        collectionRulesPreview(storeId: $storeId, rules: $rules, match: $match, sort: $sort) { count products(first: $first) { ...RestProduct } } }` + PRODUCT_FRAGMENT,
    variables: (r) => {
      const b = bodyWith(r.body, ['rules', 'match', 'sort', 'first']);
      return { storeId: r.params.storeId, rules: b.rules, match: b.match, sort: b.sort, first: b.first };
    },
    respond: (d) => ({ body: { data: { products_count: d.collectionRulesPreview.count, products: d.collectionRulesPreview.products.map(restProduct) } } }),
    openapi: {
      description: `What a smart collection with these rules would hold if saved now, and nothing is written: products_count is exactly what creating the collection (or changing its rules to these) would give, because the rules are checked as a create checks them (every error at once, at rules.N.field) and evaluated by the same statement as membership. products: the first of them (first, default ${PREVIEW_PRODUCTS.default}, at most ${PREVIEW_PRODUCTS.max}) in sort (newest, name, price_asc, price_desc), in the merchant representation. Needs manage_products or products:read.`,
      requestBody: opsBody({
        type: 'object',
        required: ['rules'],
        additionalProperties: false,
        properties: {
          rules: { type: 'array', minItems: 1, maxItems: CATALOG_LIMITS.rulesPerCollection, items: schemaRef('CollectionRule') },
          match: writableProperties.match,
          sort: { type: 'string', enum: COLLECTION_SORTS.filter((s) => s !== 'manual'), default: 'newest', description: 'The order of products' },
          first: { type: 'integer', minimum: 0, maximum: PREVIEW_PRODUCTS.max, default: PREVIEW_PRODUCTS.default, description: 'How many matching products to list' },
        },
        examples: [{ rules: [{ field: 'price', operator: 'at_least', value: '20' }, { field: 'price', operator: 'at_most', value: '50' }], match: 'all' }],
      }),
      responses: {
        '200': data(
          { type: 'object', required: ['products_count', 'products'], properties: { products_count: { type: 'integer', minimum: 0, description: 'How many products (of every status) the rules match' }, products: { type: 'array', items: schemaRef('Product') } } },
          'The count and the first matching products',
        ),
        ...errors,
        '404': problemResponse('No such store (not_found)'),
        '400': writeErrors['400'],
        '422': problemResponse('Invalid rules, all reported at once (validation_failed: rules.N.field, rules.N.operator, rules.N.value with invalid_choice, unknown_reference, required…)'),
      },
    },
  },
  {
    method: 'GET',
    path: ONE,
    operationId: 'getCollection',
    summary: 'Read one collection (by id or slug)',
    auth: 'dashboard',
    operation: `query GetCollection($storeId: ID!, $collection: String!) { collection(storeId: $storeId, collection: $collection) { ${COLLECTION_FIELDS} } }`,
    variables: ref,
    respond: (d) => one(d.collection),
    openapi: {
      description: 'One collection of the catalog, named by its id or its slug, with its rules, sort, products_count, membership state and translations; the ETag is its version.', components, parameters: [idParam], responses: { '200': theCollection('The collection (ETag: its version)'), ...errors } },
  },
  {
    method: 'PATCH',
    path: ONE,
    operationId: 'updateCollection',
    summary: 'Update a collection (partial; a rule change recomputes membership)',
    auth: 'dashboard',
    operation: `mutation UpdateCollection($storeId: ID!, $collection: String!, $input: CollectionUpdateInput!, $expectedVersion: Int) {
      updateCollection(storeId: $storeId, collection: $collection, input: $input, expectedVersion: $expectedVersion) { ${COLLECTION_FIELDS} } }`,
    variables: (r) => ({ ...ref(r), input: writable(r.body ?? {}), expectedVersion: versionOf(r) }),
    respond: (d) => one(d.updateCollection),
    openapi: {
      description: 'Changes any of title, slug, description, rules, match, sort and published; kind is immutable. A rule change recomputes membership in the request (or by a job in a large catalog). If-Match as products take it.',
      components,
      parameters: [idParam, ifMatch],
      requestBody: { required: false, content: jsonContent(schemaRef('CollectionUpdate')) },
      responses: { '200': theCollection('The updated collection'), ...writeErrors, '409': problemResponse('slug_taken'), '422': problemResponse('Invalid field (validation_failed; kind: immutable)') },
    },
  },
  {
    method: 'DELETE',
    path: ONE,
    operationId: 'deleteCollection',
    summary: 'Delete a collection (its products stay)',
    auth: 'dashboard',
    operation: `mutation DeleteCollection($storeId: ID!, $collection: String!, $expectedVersion: Int) { deleteCollection(storeId: $storeId, collection: $collection, expectedVersion: $expectedVersion) { id } }`,
    variables: (r) => ({ ...ref(r), expectedVersion: versionOf(r) }),
    respond: () => ({ status: 204 }),
    openapi: {
      description: 'Deletes the collection and its membership (the products stay). Records collection.deleted with the collection as it was; If-Match as products take it.', parameters: [idParam, ifMatch], responses: { '204': { description: 'Deleted' }, ...errors, '412': writeErrors['412'] } },
  },
  {
    method: 'GET',
    path: `${ONE}/products`,
    operationId: 'listCollectionProducts',
    summary: "A collection's products (every status), paged, in the collection's sort",
    auth: 'dashboard',
    operation:
      `query CollectionProducts($storeId: ID!, $collection: String!, $page: Int, $perPage: Int) {
        collectionProducts(storeId: $storeId, collection: $collection, page: $page, perPage: $perPage) { items { ...RestProduct } ${PAGE_META_SELECTION} } }` + PRODUCT_FRAGMENT,
    variables: (r) => ({ ...page(r), collection: r.params.collectionId }),
    compiled: collectionProductsData,
    respond: (d, r) => pageResponse(r, d.collectionProducts.items.map(restProduct), d.collectionProducts.meta),
    openapi: {
      description: "The collection's products in its sort (manual, newest, name, price_asc, price_desc), every status, in the merchant representation, paged like the product list.",
      parameters: [idParam, ...pageParameters],
      responses: { '200': { description: 'One page of products', content: jsonContent({ type: 'object', properties: { data: { type: 'array', items: schemaRef('Product') }, meta: schemaRef('PageMeta') } }) }, ...errors },
    },
  },
  {
    method: 'POST',
    path: `${ONE}/products`,
    operationId: 'addCollectionProducts',
    summary: 'Add products to a manual collection (at a position, else at the end)',
    auth: 'dashboard',
    operation: `mutation AddCollectionProducts($storeId: ID!, $collection: String!, $productIds: [ID!]!, $position: Int, $expectedVersion: Int) {
      addCollectionProducts(storeId: $storeId, collection: $collection, productIds: $productIds, position: $position, expectedVersion: $expectedVersion) { ${COLLECTION_FIELDS} } }`,
    variables: (r) => {
      const b = bodyWith(r.body, ['product_ids', 'position', 'version']);
      return { ...ref(r), productIds: b.product_ids, position: b.position, expectedVersion: versionOf(r) };
    },
    respond: (d) => one(d.addCollectionProducts),
    openapi: {
      description: `Adds products of the catalog in the order given, at position (0-based; default and past the end: the end); members already in stay where they are. A manual collection holds at most ${CATALOG_LIMITS.productsPerManualCollection} products (422 limit_exceeded, nothing added). Records collection.products_added.`,
      parameters: [idParam, ifMatch],
      requestBody: opsBody({ type: 'object', required: ['product_ids'], additionalProperties: false, properties: { product_ids: productIds, position: { type: 'integer', minimum: 0 }, version: { type: 'integer' } } }),
      responses: {
        '200': theCollection('The collection'),
        ...writeErrors,
        '409': problemResponse('The collection is smart (collection_is_smart)'),
        '422': problemResponse('Unknown products (unknown_product, product_ids.N) or the limit (limit_exceeded)'),
      },
    },
  },
  {
    method: 'POST',
    path: `${ONE}/products/remove`,
    operationId: 'removeCollectionProducts',
    summary: 'Remove products from a manual collection',
    auth: 'dashboard',
    operation: `mutation RemoveCollectionProducts($storeId: ID!, $collection: String!, $productIds: [ID!]!, $expectedVersion: Int) {
      removeCollectionProducts(storeId: $storeId, collection: $collection, productIds: $productIds, expectedVersion: $expectedVersion) { ${COLLECTION_FIELDS} } }`,
    variables: (r) => {
      const b = bodyWith(r.body, ['product_ids', 'version']);
      return { ...ref(r), productIds: b.product_ids, expectedVersion: versionOf(r) };
    },
    respond: (d) => one(d.removeCollectionProducts),
    openapi: {
      description: 'Removes the products named (those not in it are ignored); the rest close up. Records collection.products_removed.',
      parameters: [idParam, ifMatch],
      requestBody: opsBody({ type: 'object', required: ['product_ids'], additionalProperties: false, properties: { product_ids: productIds, version: { type: 'integer' } } }),
      responses: { '200': theCollection('The collection'), ...writeErrors, '409': problemResponse('collection_is_smart') },
    },
  },
  {
    method: 'DELETE',
    path: `${ONE}/products/:productId`,
    operationId: 'removeCollectionProduct',
    summary: 'Remove one product from a manual collection',
    auth: 'dashboard',
    operation: `mutation RemoveCollectionProduct($storeId: ID!, $collection: String!, $productIds: [ID!]!, $expectedVersion: Int) {
      removeCollectionProducts(storeId: $storeId, collection: $collection, productIds: $productIds, expectedVersion: $expectedVersion) { id } }`,
    variables: (r) => ({ ...ref(r), productIds: [r.params.productId], expectedVersion: versionOf(r) }),
    respond: () => ({ status: 204 }),
    openapi: {
      description: 'Removes one product from a manual collection (a product not in it is ignored); the rest close up. Records collection.products_removed.',
      parameters: [idParam, { name: 'productId', in: 'path', required: true, schema: { type: 'string' } }, ifMatch],
      responses: { '204': { description: 'Removed (or not in it)' }, ...errors, '409': problemResponse('collection_is_smart') },
    },
  },
  {
    method: 'POST',
    path: `${ONE}/products/move`,
    operationId: 'moveCollectionProducts',
    summary: 'Move products within a manual collection',
    auth: 'dashboard',
    operation: `mutation MoveCollectionProducts($storeId: ID!, $collection: String!, $moves: [CollectionMoveInput!]!, $expectedVersion: Int) {
      moveCollectionProducts(storeId: $storeId, collection: $collection, moves: $moves, expectedVersion: $expectedVersion) { ${COLLECTION_FIELDS} } }`,
    variables: (r) => {
      const b = bodyWith(r.body, ['moves', 'product_id', 'position', 'before', 'after', 'version']);
      const { moves, version: _version, ...single } = b;
      return { ...ref(r), moves: camelizeKeys(moves ?? [single]), expectedVersion: versionOf(r) };
    },
    respond: (d) => one(d.moveCollectionProducts),
    openapi: {
      description:
        'One move ({product_id, position | before | after}) or several ({moves: [...]}, applied in order, at most 250): to a 0-based position (past the end: last), or just before or after another member. Records collection.products_moved with each move\'s from and to.',
      parameters: [idParam, ifMatch],
      requestBody: opsBody({
        type: 'object',
        properties: {
          moves: { type: 'array', maxItems: 250, items: { type: 'object', required: ['product_id'], properties: { product_id: { type: 'string' }, position: { type: 'integer', minimum: 0 }, before: { type: 'string' }, after: { type: 'string' } } } },
          product_id: { type: 'string' },
          position: { type: 'integer', minimum: 0 },
          before: { type: 'string' },
          after: { type: 'string' },
          version: { type: 'integer' },
        },
      }),
      responses: { '200': theCollection('The collection'), ...writeErrors, '409': problemResponse('collection_is_smart'), '422': problemResponse('A product that is not a member (not_a_member, moves.N.product_id)') },
    },
  },
  {
    method: 'PUT',
    path: `${ONE}/translations/:locale`,
    operationId: 'setCollectionTranslation',
    summary: "Set a collection's title and description in one locale (replace)",
    auth: 'dashboard',
    operation: `mutation SetCollectionTranslation($storeId: ID!, $collection: String!, $locale: String!, $input: CollectionTranslationInput!) {
      setCollectionTranslation(storeId: $storeId, collection: $collection, locale: $locale, translation: $input) { ${COLLECTION_FIELDS} } }`,
    variables: (r) => ({ ...ref(r), locale: r.params.locale, input: Object.fromEntries(Object.entries(requireObject(r.body)).filter(([k]) => !TRANSLATION_READ_ONLY.includes(k))) }),
    respond: (d) => one(d.setCollectionTranslation),
    openapi: {
      description: "Sets the title and description in one of the store's further locales whole; clears their outdated marks; moves the version and records translation.updated.",
      parameters: [idParam, { name: 'locale', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: opsBody({ type: 'object', additionalProperties: false, properties: { title: nullable('string', { maxLength: 255 }), description: nullable('string') } }),
      responses: { '200': theCollection('The collection with its translations'), ...writeErrors, '422': problemResponse('default_locale, locale_not_enabled, or an invalid field') },
    },
  },
  {
    method: 'DELETE',
    path: `${ONE}/translations/:locale`,
    operationId: 'removeCollectionTranslation',
    summary: "Remove a collection's translation in one locale",
    auth: 'dashboard',
    operation: `mutation RemoveCollectionTranslation($storeId: ID!, $collection: String!, $locale: String!) {
      removeCollectionTranslation(storeId: $storeId, collection: $collection, locale: $locale) { id } }`,
    variables: (r) => ({ ...ref(r), locale: r.params.locale }),
    respond: () => ({ status: 204 }),
    openapi: {
      description: "Removes the collection's title and description in one of the store's further locales; moves the version and records translation.deleted.", parameters: [idParam, { name: 'locale', in: 'path', required: true, schema: { type: 'string' } }], responses: { '204': { description: 'Removed' }, ...errors } },
  },
];
