/** The public API's catalog routes under /api/public/v1. */

import { allows } from '../../access/auth/authorization';
import type { RequestContext } from '../../platform/context';
import { fromGraphQL, PUBLIC_VARIANT, selectionOf } from '../services/views';
import { PAGE_LIMITS, PRODUCT_SORTS } from '../services/productList';
import { PUBLIC_PRODUCT_SORTS } from '../services/publicCatalog';
import { WEIGHT_UNITS } from '../services/variants';
import { catalogExtrasRoutes } from './catalogExtras';
import { imageRoutes } from './images';
import { attributeListParams, FACETS_SELECTION, merchantProductRoutes, restProduct, sortParam, withFacets } from './products';
import type { OpenApiFragment } from '../../api/rest/openapi';
import { intParam, listParam, PAGE_META_SELECTION, pageResponse } from '../../api/rest/params';
import type { RestRequest, RestResponse, RestRoute } from '../../api/rest/routes';

const BASE = '/api/public/v1';

export const livemode = (r: RestRequest) => r.ctx.mode === 'live';

const MERCHANT_BASE = '/api/v1/merchant/stores/:storeId';

/** Whether the credential may see every product of its catalog (drafts and archived ones too), in the merchant representation. */
const readsWholeCatalog = (ctx: RequestContext) => allows(ctx.principal, 'readCatalog', ctx.storeId ?? undefined);

/**
 * A merchant catalog route as the store's own API credential reaches it: the
 * same GraphQL operation, validation, errors, ETags and events, on the
 * credential's store and mode, with `livemode` in the body. The operation's
 * access rule (products:read or products:write for the store, see
 * src/catalog/graphql/products.ts) decides who may call it.
 */
function forCredentials(route: RestRoute, operationId: string, summary: string): RestRoute {
  const asMerchant = (r: RestRequest): RestRequest => ({ ...r, params: { ...r.params, storeId: r.ctx.storeId! } });
  const fragment = (route.openapi ?? {}) as OpenApiFragment;
  return {
    ...route,
    path: route.path.replace(MERCHANT_BASE, BASE),
    operationId,
    summary,
    auth: 'public',
    variables: (r) => route.variables(asMerchant(r)),
    respond: (data, r): RestResponse => {
      const out = route.respond(data, asMerchant(r));
      const body = out.body && typeof out.body === 'object' && !Array.isArray(out.body) ? { ...out.body, livemode: livemode(r) } : out.body;
      return { ...out, body };
    },
    openapi: {
      ...fragment,
      parameters: [...(fragment.parameters ?? []).filter((p) => p.name !== 'storeId'), ...modeParameters],
      ...(fragment.responses ? { responses: withLivemode(fragment.responses) } : {}),
    },
  };
}

/** The merchant route's responses with the `livemode` that `respond` above adds to every JSON object body. */
function withLivemode(responses: Record<string, Record<string, any>>): Record<string, Record<string, any>> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const schema = response.content?.['application/json']?.schema;
      if (!status.startsWith('2') || !schema?.properties) return [status, response];
      const media = { ...response.content['application/json'], schema: { ...schema, properties: { ...schema.properties, ...livemodeProperty } } };
      return [status, { ...response, content: { ...response.content, 'application/json': media } }];
    }),
  );
}

const merchantRoute = (operationId: string): RestRoute => {
  const route = [...merchantProductRoutes, ...imageRoutes, ...catalogExtrasRoutes].find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no merchant route ${operationId}`);
  return route;
};

export const PUBLIC_PRODUCT_FRAGMENT = /* GraphQL */ `
  fragment RestPublicProduct on PublicProduct {
    id name description price compare_at_price: compareAtPrice currency currencies in_stock: inStock tags category_slugs: categorySlugs attributes
    options { name values }
    variants { ${selectionOf(PUBLIC_VARIANT)} }
    images { url alt width height }
    published_at: publishedAt updated_at: updatedAt
  }`;

const publicAuth = { auth: 'public' as const };

/** `?locale=`: absent or empty, Accept-Language decides. */
export const localeParam = (query: URLSearchParams) => query.get('locale') || undefined;

/** The language parameters of the storefront reads (docs/locales-and-currencies.md, "Reading in a language"). */
export const localeParameters = [
  {
    name: 'locale',
    in: 'query',
    required: false,
    schema: { type: 'string', example: 'de-AT' },
    description:
      "A BCP 47 tag: fields come in the best of the store's locales by the fallback chain (the tag, its language alone, the store's default). Wins over Accept-Language. A tag the store lacks falls back (Content-Language says which locale answered); one that is not BCP 47 is 422 validation_failed",
  },
  {
    name: 'Accept-Language',
    in: 'header',
    required: false,
    schema: { type: 'string', example: 'de-AT, de;q=0.9, en;q=0.5' },
    description: 'Preferred languages with q-values (RFC 9110), when no locale parameter is sent; q=0 excludes a language, * matches any. Never an error',
  },
];
export const localeHeaders = {
  'Content-Language': {
    description: "The locale the fields came in: the first of the chain any field came in, else the store's default",
    schema: { type: 'string', example: 'de' },
  },
  Vary: { description: 'Accept-Language (with Accept-Encoding when compressed): the answer depends on it', schema: { type: 'string', example: 'Accept-Language' } },
};
/** The body's `locale`: the same locale as Content-Language, beside `livemode`. */
export const localeProperty = { locale: { type: 'string', example: 'de', description: 'The locale the fields came in (as Content-Language)' } };

const modeSchema = {
  required: false, schema: { type: 'string', enum: ['test', 'live'] },
  description: "Request mode (header or query; both must agree). Defaults to the credential's mode; a different mode answers 403 mode_mismatch.",
};
export const modeParameters = [{ name: 'X-Service-Mode', in: 'header', ...modeSchema }, { name: 'mode', in: 'query', ...modeSchema }];

/**
 * Filters and sorts that only a credential reading the whole catalog has; public:read lists active products in the
 * storefront's orders. product_type is not among them: a storefront filters by product type as Shopify's does by
 * productType (docs/filters-and-facets.md).
 */
const WHOLE_CATALOG_PARAMETERS = ['is_active', 'low_stock', 'scheduled'];
const WHOLE_CATALOG_SORTS = PRODUCT_SORTS.filter((s) => !(PUBLIC_PRODUCT_SORTS as readonly string[]).includes(s));

/**
 * The list's parameters: the merchant list's (one definition), those of the whole catalog marked as such. public:read
 * ignores the whole-catalog filters and refuses the whole-catalog sorts (422 validation_failed).
 */
function publicListParameters() {
  const merchant = (merchantRoute('listProducts').openapi as OpenApiFragment).parameters ?? [];
  return merchant
    .filter((p) => p.in === 'query')
    .map((p) =>
      WHOLE_CATALOG_PARAMETERS.includes(p.name as string)
        ? { ...p, description: `${p.description}. Only for a credential that reads the whole catalog (products:read or products:write); public:read ignores it` }
        : p.name === 'sort'
          ? { ...p, description: `${p.description}. ${WHOLE_CATALOG_SORTS.join(', ')}: only for a credential that reads the whole catalog (products:read or products:write); public:read gets 422 validation_failed` }
          : p,
    );
}

/** The list's parameters as every credential has them in the storefront view: no whole-catalog filters or sorts. */
function storefrontListParameters() {
  const merchant = (merchantRoute('listProducts').openapi as OpenApiFragment).parameters ?? [];
  return merchant
    .filter((p) => p.in === 'query' && !WHOLE_CATALOG_PARAMETERS.includes(p.name as string))
    .map((p) => (p.name === 'sort' ? { ...p, schema: { type: 'string', enum: [...PUBLIC_PRODUCT_SORTS] }, description: "A leading - sorts descending; left out, the collection's own sort (its `sort`: manual, newest, name, price_asc or price_desc)" } : p));
}

/**
 * The storefront view. Its required fields make it and Product mutually exclusive: a storefront product has
 * in_stock and no inventory_quantity, a merchant product the reverse, so `oneOf` picks exactly one.
 */
const PublicProduct = {
  type: 'object',
  description: 'The storefront view (public:read): active products, no inventory counts',
  required: ['id', 'name', 'description', 'price', 'compare_at_price', 'currency', 'currencies', 'in_stock', 'tags', 'category_slugs', 'attributes', 'options', 'variants', 'images', 'published_at', 'updated_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string' },
    description: { type: 'string' },
    price: { type: ['number', 'null'], description: 'In `currency`; null when the product has no price in the currency asked for (?currency=)' },
    compare_at_price: { type: ['number', 'null'], description: 'The "was" price in `currency`, above price; only prices in further currencies have one' },
    currency: { type: 'string', description: "The currency of the prices: the one asked for (?currency=), else the store's" },
    currencies: { type: 'array', items: { type: 'string' }, example: ['EUR', 'JPY'], description: "The currencies the product has a price in: the store's default, then those the merchant priced it in" },
    in_stock: { type: 'boolean', example: true },
    tags: { type: 'array', items: { type: 'string' } },
    category_slugs: { type: 'array', items: { type: 'string' } },
    attributes: {
      type: 'object',
      additionalProperties: true,
      example: { material: 'cotton' },
      description: 'Values of the public attributes of the product (by code); values of attributes that are not public are left out',
    },
    options: {
      type: 'array',
      description: 'The options that define the variants, in order: each variant names one value of each',
      items: {
        type: 'object',
        required: ['name', 'values'],
        properties: { name: { type: 'string', example: 'Size' }, values: { type: 'array', items: { type: 'string' }, example: ['S', 'M', 'L'] } },
      },
      example: [{ name: 'Size', values: ['S', 'M', 'L'] }, { name: 'Color', values: ['Red', 'Blue'] }],
    },
    variants: { type: 'array', description: 'Ordered by position', items: { $ref: '#/components/schemas/PublicVariant' } },
    images: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url', 'alt', 'width', 'height'],
        properties: { url: { type: 'string', format: 'uri' }, alt: { type: ['string', 'null'] }, width: { type: 'integer', example: 1200 }, height: { type: 'integer', example: 900 } },
      },
    },
    published_at: { type: ['string', 'null'], format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};
/** A variant in the storefront view (views.ts PUBLIC_VARIANT): in_stock instead of an inventory count, never cost. */
const PublicVariant = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'sku', 'title', 'options', 'price', 'compare_at_price', 'in_stock', 'position', 'barcode', 'weight', 'image_id', 'attributes'],
  example: {
    id: '7c1e4b2a-9d3f-4a6b-8c5d-2e1f0a9b8c7d',
    sku: 'TEE-M-RED',
    title: 'M / Red',
    options: { Size: 'M', Color: 'Red' },
    price: null,
    compare_at_price: 39.9,
    in_stock: true,
    position: 0,
    barcode: '4006381333931',
    weight: { value: 0.25, unit: 'kg' },
    image_id: null,
    attributes: { shade: 'red' },
  },
  properties: {
    id: { type: 'string', format: 'uuid' },
    sku: { type: 'string' },
    title: { type: 'string' },
    options: { type: 'object', additionalProperties: { type: 'string' }, example: { Size: 'M', Color: 'Red' }, description: 'Option name to value' },
    price: { type: ['number', 'null'], description: "Overrides the product's price; null: the product's price applies" },
    compare_at_price: { type: ['number', 'null'], description: 'The "was" price, above the price the variant sells at' },
    in_stock: { type: 'boolean' },
    position: { type: 'integer' },
    barcode: { type: ['string', 'null'], description: 'GTIN-8, -12, -13 or -14' },
    weight: {
      type: ['object', 'null'],
      required: ['value', 'unit'],
      properties: { value: { type: 'number' }, unit: { type: 'string', enum: [...WEIGHT_UNITS] } },
    },
    image_id: { type: ['string', 'null'], format: 'uuid', description: "One of the product's images" },
    attributes: {
      type: 'object',
      additionalProperties: true,
      description: 'Values of the public variant attributes (by code); values of attributes that are not public are left out',
    },
  },
};
/** REST's spelling of the storefront product GraphQL answered: money as numbers, the variants' too. */
export const restPublicProduct = (p: Record<string, any>) => {
  for (const v of p.variants) fromGraphQL(PUBLIC_VARIANT, v);
  if (p.compare_at_price !== null) p.compare_at_price = Number(p.compare_at_price);
  return restProduct(p);
};

/** `?currency=`: the storefront view's prices in one of the store's currencies (none: its default). */
export const currencyParam = (query: URLSearchParams) => query.get('currency') ?? undefined;

export const currencyParameter = {
  name: 'currency',
  in: 'query',
  schema: { type: 'string', example: 'JPY' },
  description:
    "One of the store's currencies (ISO 4217; default: the store's currency). The storefront view's prices (price, compare_at_price, the variants') come from the prices the merchant set in it, never from an exchange rate; a product without a price in it answers price null and lists its `currencies`. Sorting by price and price_min/price_max use it. One the store does not sell in: 422 naming currency (currency_not_sold; not ISO 4217: invalid_currency). A credential that reads the whole catalog gets the merchant representation, with every price in `prices`",
};
const priceBoundParameter = (name: 'price_min' | 'price_max', description: string) => ({
  name,
  in: 'query',
  schema: { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,3})?$', example: '10.00' },
  description: `${description}, in the list's currency (inclusive); products without a price in it never match`,
});
/** The storefront view, or the merchant representation for a credential with products:read or products:write. */
const catalogProduct = {
  description: 'PublicProduct for public:read, Product for a credential that reads the whole catalog (products:read or products:write)',
  oneOf: [{ $ref: '#/components/schemas/PublicProduct' }, { $ref: '#/components/schemas/Product' }],
};
const livemodeProperty = { livemode: { type: 'boolean', description: 'true in live mode' } };
export const publicJson = (properties: Record<string, unknown>) => ({ 'application/json': { schema: { type: 'object', properties: { ...properties, ...livemodeProperty } } } });

/** The storefront product list's variables from the query string (publicProducts, publicCollectionProducts). */
export function publicListVariables(query: URLSearchParams) {
  const { attributes, productTypes, facets } = attributeListParams(query);
  return {
    page: intParam(query, 'page', PAGE_LIMITS.page),
    perPage: intParam(query, 'per_page', PAGE_LIMITS.perPage),
    sort: sortParam(query, PUBLIC_PRODUCT_SORTS),
    filter: {
      search: query.get('search') || undefined,
      category: query.get('category') || undefined,
      tags: listParam(query, 'tags'),
      attributes,
      productTypes,
      priceMin: query.get('price_min') ?? undefined,
      priceMax: query.get('price_max') ?? undefined,
    },
    facets,
    locale: localeParam(query),
    currency: currencyParam(query),
  };
}

/** A storefront product page (PublicProductPage) as REST answers it. */
export const publicPageResponse = (r: RestRequest, page: { items: Record<string, any>[]; meta: any; facets?: any; locale: string }) =>
  pageResponse(r, page.items.map(restPublicProduct), withFacets(page.meta, page.facets), { livemode: livemode(r), locale: page.locale });

/**
 * The storefront product list's query parameters (filters, sort, facets, page, locale, currency), without the mode's.
 * `storefrontOnly`: a list every credential reads in the storefront view (a collection's), without the whole catalog's.
 */
export const publicProductListParameters = ({ storefrontOnly = false } = {}) => [
  ...(storefrontOnly ? storefrontListParameters() : publicListParameters()),
  ...localeParameters,
  currencyParameter,
  priceBoundParameter('price_min', 'Products priced at least this'),
  priceBoundParameter('price_max', 'Products priced at most this'),
];

export const publicRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${BASE}/payments/supported-countries`,
    operationId: 'listSupportedCountries',
    summary: 'Countries where payments are supported (needs public:read or payments:read)',
    ...publicAuth,
    operation: `query SupportedCountries {
      publicSupportedCountries { code name default_currency: defaultCurrency supported_currencies: supportedCurrencies }
    }`,
    variables: () => ({}),
    respond: (data, r) => {
      const list = data.publicSupportedCountries;
      return { body: { data: list, meta: { total: list.length }, livemode: livemode(r) } };
    },
    openapi: {
      parameters: modeParameters,
      responses: {
        '200': {
          description: 'The countries, with their currencies',
          content: publicJson({
            data: {
              type: 'array',
              items: { type: 'object', properties: { code: { type: 'string', example: 'DE' }, name: { type: 'string', example: 'Germany' }, default_currency: { type: 'string' }, supported_currencies: { type: 'array', items: { type: 'string' } } } },
            },
            meta: { type: 'object', properties: { total: { type: 'integer' } } },
          }),
        },
      },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/products`,
    operationId: 'listPublicProducts',
    summary: "The credential's catalog, paged and filterable. public:read: active products in the storefront view; products:read or products:write: every product in the merchant representation",
    ...publicAuth,
    operation: `query PublicProducts($page: Int, $perPage: Int, $filter: PublicProductFilter, $sort: PublicProductSort, $facets: [String!], $locale: String, $currency: String) {
      publicProducts(page: $page, perPage: $perPage, filter: $filter, sort: $sort, facets: $facets, locale: $locale, currency: $currency) {
        items { ...RestPublicProduct }
        locale
        ${PAGE_META_SELECTION}
        ${FACETS_SELECTION}
      }
    }${PUBLIC_PRODUCT_FRAGMENT}`,
    variables: ({ query }) => publicListVariables(query),
    respond: (data, r) => publicPageResponse(r, data.publicProducts),
    alternative: { when: readsWholeCatalog, route: forCredentials(merchantRoute('listProducts'), 'listPublicProducts', 'Every product of the catalog') },
    openapi: {
      parameters: [...publicProductListParameters(), ...modeParameters],
      components: { schemas: { PublicProduct, PublicVariant } },
      responses: {
        '200': {
          description: 'One page of products',
          headers: { Link: { $ref: '#/components/headers/Link' }, ...localeHeaders },
          content: publicJson({ data: { type: 'array', items: catalogProduct }, meta: { $ref: '#/components/schemas/PageMeta' }, ...localeProperty }),
        },
      },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/products/:productId`,
    operationId: 'getPublicProduct',
    summary: "One product of the credential's catalog. public:read: active products only, storefront view; products:read or products:write: any status, merchant representation",
    ...publicAuth,
    operation: `query PublicProduct($id: ID!, $locale: String, $currency: String) { publicProduct(id: $id, locale: $locale, currency: $currency) { ...RestPublicProduct locale } }${PUBLIC_PRODUCT_FRAGMENT}`,
    variables: ({ params, query }) => ({ id: params.productId, locale: localeParam(query), currency: currencyParam(query) }),
    respond: (data, r) => {
      const { locale, ...product } = data.publicProduct;
      return { body: { data: restPublicProduct(product), livemode: livemode(r), locale } };
    },
    alternative: { when: readsWholeCatalog, route: forCredentials(merchantRoute('getProduct'), 'getPublicProduct', 'One product of the catalog') },
    openapi: {
      parameters: [...localeParameters, currencyParameter, ...modeParameters],
      components: { schemas: { PublicProduct, PublicVariant } },
      responses: {
        '200': { description: 'The product', headers: localeHeaders, content: publicJson({ data: catalogProduct, ...localeProperty }) },
        '404': { $ref: '#/components/responses/Problem', description: 'No such product, or (public:read) one that is not active (not_found)' },
      },
    },
  },
  ...(
    [
      ['createProduct', 'createPublicProduct', 'Create a product in the credential\'s catalog (needs products:write)'],
      ['updateProduct', 'updatePublicProduct', 'Update a product (partial; If-Match or version guards against lost updates; needs products:write)'],
      ['deleteProduct', 'deletePublicProduct', 'Delete a product with its variants, SEO record and images (needs products:write)'],
      ['publishProduct', 'publishPublicProduct', 'Publish a product (status active; needs products:write)'],
      ['unpublishProduct', 'unpublishPublicProduct', 'Unpublish a product (status draft; needs products:write)'],
      ['replaceProductVariants', 'replacePublicProductVariants', 'Replace the whole variant set of a product (needs products:write)'],
      ['listProductVariants', 'listPublicProductVariants', "A product's variants, ordered by position (needs products:read or products:write)"],
      ['updateProductVariants', 'updatePublicProductVariants', 'Update many variants of a product by id (needs products:write)'],
      ['generateProductVariants', 'generatePublicProductVariants', "Create every missing combination of the product's options as variants (needs products:write)"],
      ['setProductOptions', 'setPublicProductOptions', "Set a product's options (needs products:write)"],
      ['setProductSeo', 'setPublicProductSeo', "Set a product's SEO record (needs products:write)"],
      ['uploadProductImage', 'uploadPublicProductImage', 'Upload a product image (multipart/form-data; JPEG, PNG or WebP; needs products:write)'],
      ['removeProductImage', 'removePublicProductImage', 'Take an image off its product (needs products:write)'],
    ] as const
  ).map(([merchant, operationId, summary]) => forCredentials(merchantRoute(merchant), operationId, summary)),
];
