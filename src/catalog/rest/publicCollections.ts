/**
 * The public API's collection routes under /api/public/v1/collections: each runs one GraphQL operation
 * (src/catalog/graphql/publicCollections.ts). Every credential that reads the storefront (public:read or
 * products:read) gets the storefront view: published collections only (an unpublished one is 404) and their
 * active products.
 */

import { COLLECTION_SORTS } from '../services/collections';
import { PAGE_LIMITS } from '../services/productList';
import { intParam, PAGE_META_SELECTION, pageResponse } from '../../api/rest/params';
import type { RestRoute } from '../../api/rest/routes';
import { FACETS_SELECTION } from './products';
import {
  livemode,
  localeHeaders,
  localeParam,
  localeParameters,
  localeProperty,
  modeParameters,
  PUBLIC_PRODUCT_FRAGMENT,
  publicJson,
  publicListVariables,
  publicPageResponse,
  publicProductListParameters,
} from './public';

const BASE = '/api/public/v1/collections';

const PUBLIC_COLLECTION_FIELDS = 'id title slug description sort locale published_at: publishedAt updated_at: updatedAt';

const PublicCollection = {
  type: 'object',
  description: 'The storefront view of a published collection: title and description in the answer\'s locale',
  additionalProperties: false,
  required: ['id', 'title', 'slug', 'description', 'sort', 'locale', 'published_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    title: { type: 'string', example: 'Summer sale' },
    slug: { type: 'string', example: 'summer-sale' },
    description: { type: 'string' },
    sort: { type: 'string', enum: [...COLLECTION_SORTS], description: 'The order its products list in when no sort is asked for' },
    locale: { type: 'string', example: 'de', description: "The locale of title and description (the first of the chain that gave either, else the store's default)" },
    published_at: { type: ['string', 'null'], format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};
const components = { schemas: { PublicCollection } };
const collectionRef = { $ref: '#/components/schemas/PublicCollection' };

const idParam = {
  name: 'collectionId',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: "The collection's id or slug; unknown, another catalog's or unpublished: 404",
};
const notFound = { $ref: '#/components/responses/Problem', description: 'No published collection of the catalog by that id or slug (not_found)' };
const pageParameters = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.page.min, maximum: PAGE_LIMITS.page.max, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.perPage.min, maximum: PAGE_LIMITS.perPage.max, default: 20 } },
];

export const publicCollectionRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: BASE,
    operationId: 'listPublicCollections',
    summary: "The credential's catalog's published collections, newest first, paged (public:read or products:read)",
    auth: 'public',
    operation: `query PublicCollections($page: Int, $perPage: Int, $locale: String) {
      publicCollections(page: $page, perPage: $perPage, locale: $locale) { items { ${PUBLIC_COLLECTION_FIELDS} } locale ${PAGE_META_SELECTION} }
    }`,
    variables: ({ query }) => ({ page: intParam(query, 'page', PAGE_LIMITS.page), perPage: intParam(query, 'per_page', PAGE_LIMITS.perPage), locale: localeParam(query) }),
    respond: (data, r) => pageResponse(r, data.publicCollections.items, data.publicCollections.meta, { livemode: livemode(r), locale: data.publicCollections.locale }),
    openapi: {
      components,
      parameters: [...pageParameters, ...localeParameters, ...modeParameters],
      responses: {
        '200': {
          description: 'One page of published collections',
          headers: { Link: { $ref: '#/components/headers/Link' }, ...localeHeaders },
          content: publicJson({ data: { type: 'array', items: collectionRef }, meta: { $ref: '#/components/schemas/PageMeta' }, ...localeProperty }),
        },
      },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/:collectionId`,
    operationId: 'getPublicCollection',
    summary: 'One published collection, by id or slug (public:read or products:read)',
    auth: 'public',
    operation: `query PublicCollection($collection: String!, $locale: String) { publicCollection(collection: $collection, locale: $locale) { ${PUBLIC_COLLECTION_FIELDS} } }`,
    variables: ({ params, query }) => ({ collection: params.collectionId, locale: localeParam(query) }),
    respond: (data, r) => ({ body: { data: data.publicCollection, livemode: livemode(r), locale: data.publicCollection.locale } }),
    openapi: {
      components,
      parameters: [idParam, ...localeParameters, ...modeParameters],
      responses: {
        '200': { description: 'The collection', headers: localeHeaders, content: publicJson({ data: collectionRef, ...localeProperty }) },
        '404': notFound,
      },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/:collectionId/products`,
    operationId: 'listPublicCollectionProducts',
    summary: "A published collection's active products in the storefront view: the product list's filters, sorts and facets; the collection's sort by default",
    auth: 'public',
    operation: `query PublicCollectionProducts($collection: String!, $page: Int, $perPage: Int, $filter: PublicProductFilter, $sort: PublicProductSort, $facets: [String!], $locale: String, $currency: String) {
      publicCollectionProducts(collection: $collection, page: $page, perPage: $perPage, filter: $filter, sort: $sort, facets: $facets, locale: $locale, currency: $currency) {
        items { ...RestPublicProduct }
        locale
        ${PAGE_META_SELECTION}
        ${FACETS_SELECTION}
      }
    }${PUBLIC_PRODUCT_FRAGMENT}`,
    variables: ({ params, query }) => ({ collection: params.collectionId, ...publicListVariables(query) }),
    respond: (data, r) => publicPageResponse(r, data.publicCollectionProducts),
    openapi: {
      parameters: [idParam, ...publicProductListParameters({ storefrontOnly: true }), ...modeParameters],
      responses: {
        '200': {
          description: 'One page of products',
          headers: { Link: { $ref: '#/components/headers/Link' }, ...localeHeaders },
          content: publicJson({ data: { type: 'array', items: { $ref: '#/components/schemas/PublicProduct' } }, meta: { $ref: '#/components/schemas/PageMeta' }, ...localeProperty }),
        },
        '404': notFound,
      },
    },
  },
];
