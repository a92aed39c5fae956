import { PUBLIC_PRODUCT_SORTS } from '../services/publicCatalog';
import { intParam, listParam, PAGE_META_SELECTION, pageResponse, sortParam } from './params';
import type { RestRequest, RestRoute } from './routes';

const BASE = '/api/public/v1';

const livemode = (r: RestRequest) => r.ctx.mode === 'live';

const PUBLIC_PRODUCT_FRAGMENT = /* GraphQL */ `
  fragment RestPublicProduct on PublicProduct {
    id name description price currency in_stock: inStock tags category_slugs: categorySlugs
    images { url alt width height }
    published_at: publishedAt updated_at: updatedAt
  }`;

/** Money is a JSON number in REST, as in the merchant API. */
const restPublicProduct = (p: Record<string, any>) => ({ ...p, price: Number(p.price) });

const publicAuth = { auth: 'public' as const };

const modeSchema = {
  required: false, schema: { type: 'string', enum: ['test', 'live'] },
  description: "Request mode (header or query; both must agree). Defaults to the credential's mode; a different mode answers 403 mode_mismatch.",
};
const modeParameters = [{ name: 'X-Service-Mode', in: 'header', ...modeSchema }, { name: 'mode', in: 'query', ...modeSchema }];

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
    openapi: { parameters: modeParameters },
  },
  {
    method: 'GET',
    path: `${BASE}/products`,
    operationId: 'listPublicProducts',
    summary: "The credential's store's active products, paged and filterable (needs public:read or products:read)",
    ...publicAuth,
    operation: `query PublicProducts($page: Int, $perPage: Int, $filter: PublicProductFilter, $sort: PublicProductSort) {
      publicProducts(page: $page, perPage: $perPage, filter: $filter, sort: $sort) {
        items { ...RestPublicProduct }
        ${PAGE_META_SELECTION}
      }
    }${PUBLIC_PRODUCT_FRAGMENT}`,
    variables: ({ query }) => ({
      page: intParam(query, 'page'),
      perPage: intParam(query, 'per_page'),
      sort: sortParam(query, PUBLIC_PRODUCT_SORTS),
      filter: { search: query.get('search') || undefined, category: query.get('category') || undefined, tags: listParam(query, 'tags') },
    }),
    respond: (data, r) => pageResponse(r, data.publicProducts.items.map(restPublicProduct), data.publicProducts.meta, { livemode: livemode(r) }),
    openapi: {
      parameters: [
        ...['page', 'per_page'].map((name) => ({ name, in: 'query', schema: { type: 'integer' } })),
        ...['search', 'category', 'tags'].map((name) => ({ name, in: 'query', schema: { type: 'string' } })),
        { name: 'sort', in: 'query', schema: { type: 'string', enum: PUBLIC_PRODUCT_SORTS } },
        ...modeParameters,
      ],
    },
  },
  {
    method: 'GET',
    path: `${BASE}/products/:productId`,
    operationId: 'getPublicProduct',
    summary: "One active product of the credential's store (needs public:read or products:read)",
    ...publicAuth,
    operation: `query PublicProduct($id: ID!) { publicProduct(id: $id) { ...RestPublicProduct } }${PUBLIC_PRODUCT_FRAGMENT}`,
    variables: ({ params }) => ({ id: params.productId }),
    respond: (data, r) => ({ body: { data: restPublicProduct(data.publicProduct), livemode: livemode(r) } }),
    openapi: { parameters: modeParameters },
  },
];
