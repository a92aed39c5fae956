/**
 * The benchmark scenarios: one table entry each. A scenario names the
 * endpoints it needs (it is skipped, and reported as such, while the service
 * lacks them), the baselines that serve the same response, and the requests
 * to send (cycled; {{seq}} and {{pick:<list>}} are expanded per request).
 */
import { PRODUCT_FRAGMENT } from '../src/catalog/rest/products';
import type { RequestSpec } from './load';
import type { TargetName } from './processes';
import { type BenchFixture, type CatalogKind, FILTER_VALUES } from './seed';

export interface ScenarioContext {
  f: BenchFixture;
  /** Multipart bodies by name ('100k', '1m', '5m'): file path and content type. */
  uploads: Record<string, { file: string; contentType: string }>;
  /** Unique per run, so values that must be unique (SKUs) never meet an earlier run's. */
  runId: string;
}

export type Need = `${'GET' | 'POST' | 'PUT' | 'DELETE'} ${string}` | `graphql:${string}`;

export interface Scenario {
  id: string;
  title: string;
  needs: Need[];
  /** Targets besides the service; B0 answers with the service's own response bytes. */
  baselines: TargetName[];
  /** The baseline whose saturation sets the fixed rate and the ratio reported. */
  reference?: 'B1' | 'B3';
  requests: (c: ScenarioContext) => RequestSpec[];
  lists?: (c: ScenarioContext) => Record<string, string[]>;
  /** Writes: measured after every read scenario, undone by the fixture's restore(). */
  mutates?: boolean;
  /** Record peak RSS growth per concurrent request (uploads). */
  peakRss?: boolean;
  connections?: number;
  /** Slow requests (uploads): measure at least this long, so enough of them complete. */
  minSeconds?: number;
  /** Part of the --quick smoke run. */
  quick?: boolean;
  /** The catalog it runs on, of the scenario table's size: today's (default) or the rich one (seeded beside it when selected). */
  catalog?: CatalogKind;
}

const STORE = '/api/v1/merchant/stores/{storeId}';
const store = (c: ScenarioContext) => `/api/v1/merchant/stores/${c.f.storeId}`;
const auth = (c: ScenarioContext) => ({ authorization: `Bearer ${c.f.token}` });
const jsonHeaders = (c: ScenarioContext) => ({ ...auth(c), 'content-type': 'application/json' });

/** The dashboard's GraphQL selection with the same payload as REST: the REST fragment without its snake_case aliases. */
export const GRAPHQL_PRODUCT_FRAGMENT = PRODUCT_FRAGMENT.replace('fragment RestProduct on Product', 'fragment P on Product').replace(/\b\w+\s*:\s*(\w+)/g, '$1');

export const GRAPHQL_LIST = `query List($storeId: ID!, $page: Int, $perPage: Int, $filter: ProductFilter) {
  products(storeId: $storeId, page: $page, perPage: $perPage, filter: $filter) { items { ...P } meta { page perPage total totalPages hasMore } }
}${GRAPHQL_PRODUCT_FRAGMENT}`;

export const GRAPHQL_READ = `query Read($storeId: ID!, $id: ID!) { product(storeId: $storeId, id: $id) { ...P } }${GRAPHQL_PRODUCT_FRAGMENT}`;

export const GRAPHQL_CURSOR = `query Cursor($storeId: ID!, $first: Int, $after: String) {
  productsConnection(storeId: $storeId, first: $first, after: $after) { edges { node { ...P } } pageInfo { hasNextPage endCursor } }
}${GRAPHQL_PRODUCT_FRAGMENT}`;

export const graphqlRequest = (c: ScenarioContext, query: string, variables: Record<string, unknown>): RequestSpec => ({
  method: 'POST',
  path: '/graphql',
  headers: jsonHeaders(c),
  body: JSON.stringify({ query, variables }),
});

/** The list filters, as REST query strings; each is a scenario and a line of the size chart. */
export const LIST_FILTERS: { id: string; title: string; query: string }[] = [
  { id: 'none', title: 'no filter', query: '' },
  { id: 'search-common', title: `search "${FILTER_VALUES.commonTerm}" (5 %)`, query: `search=${FILTER_VALUES.commonTerm}` },
  { id: 'search-rare', title: `search "${FILTER_VALUES.rareTerm}" (0.1 %)`, query: `search=${FILTER_VALUES.rareTerm}` },
  { id: 'category', title: `category ${FILTER_VALUES.category} (3 %)`, query: `category=${FILTER_VALUES.category}` },
  { id: 'tags', title: `tags ${FILTER_VALUES.tag} (10 %)`, query: `tags=${FILTER_VALUES.tag}` },
  { id: 'is-active', title: 'is_active=true (70 %)', query: 'is_active=true' },
  { id: 'low-stock', title: 'low_stock=true (3.6 %)', query: 'low_stock=true' },
  { id: 'combined', title: `search + is_active + tags (0.35 %)`, query: `search=${FILTER_VALUES.commonTerm}&is_active=true&tags=${FILTER_VALUES.tag}` },
];

export const restListPath = (c: ScenarioContext, query: string) => `${store(c)}/products${query ? `?${query}` : ''}`;

const listScenarios: Scenario[] = LIST_FILTERS.map((filter) => ({
  id: `rest-list-${filter.id}`,
  title: `REST list page 1, ${filter.title}`,
  needs: [`GET ${STORE}/products`],
  baselines: ['B0', 'B1', 'B1-lean'],
  reference: 'B1',
  requests: (c) => [{ method: 'GET', path: restListPath(c, filter.query), headers: auth(c) }],
  quick: filter.id === 'none',
}));

const multipart = (c: ScenarioContext, name: string): RequestSpec[] => [
  { method: 'POST', path: `${store(c)}/products/images`, headers: { ...auth(c), 'content-type': c.uploads[name].contentType }, bodyFile: c.uploads[name].file },
];

const uploadScenario = (name: string, label: string): Scenario => ({
  id: `upload-${name}`,
  title: `Image upload ${label} (REST multipart)`,
  needs: [`POST ${STORE}/products/images`],
  baselines: ['B0'],
  requests: (c) => multipart(c, name),
  mutates: true,
  peakRss: true,
  connections: 4,
  minSeconds: 8,
});

/**
 * Two decimals that differ from one run id to the next (ids are base-36
 * numbers that grow): a write of {{seq}}.<cents> never repeats the value an
 * earlier run left on a product, so every update is a real one (an update
 * that changes nothing writes nothing and records no event).
 */
export const runCents = (runId: string) => String((Number.parseInt(runId, 36) || 0) % 100).padStart(2, '0');

/**
 * The write requests, shared by the scenario table and the before/after
 * write-cost comparison (writeCost.ts). Each changes something on every
 * request: ids come from lists ({{pick:…}}) and values carry {{seq}} and the
 * run id.
 */
export const WRITE_REQUESTS = {
  create: (c: ScenarioContext): RequestSpec => ({
    method: 'POST',
    path: `${store(c)}/products`,
    headers: jsonHeaders(c),
    body: JSON.stringify({ name: 'Bench new {{seq}}', price: 19.99, inventory_quantity: 12, status: 'active', tags: ['sale'], category_slugs: [FILTER_VALUES.category] }),
  }),
  /** Picks from `update`. */
  update: (c: ScenarioContext): RequestSpec => ({ method: 'PUT', path: `${store(c)}/products/{{pick:update}}`, headers: jsonHeaders(c), body: `{"price": {{seq}}.${runCents(c.runId)}}` }),
  /** Picks from `draft`. */
  publish: (c: ScenarioContext): RequestSpec => ({ method: 'POST', path: `${store(c)}/products/{{pick:draft}}/publish`, headers: auth(c) }),
  /** Picks from `active`. */
  unpublish: (c: ScenarioContext): RequestSpec => ({ method: 'POST', path: `${store(c)}/products/{{pick:active}}/unpublish`, headers: auth(c) }),
  /** Picks from `update`. */
  variants: (c: ScenarioContext): RequestSpec => ({
    method: 'PUT',
    path: `${store(c)}/products/{{pick:update}}/variants`,
    headers: jsonHeaders(c),
    body: JSON.stringify({
      variants: ['S', 'M', 'L'].map((size) => ({ sku: `BV-${c.runId}-{{seq}}-${size}`, title: size, options: { size }, inventory_quantity: 5 })),
    }),
  }),
  /** Picks from `seo`; no slug, so no request can meet another's. */
  seo: (c: ScenarioContext): RequestSpec => ({
    method: 'PUT',
    path: `${store(c)}/products/{{pick:seo}}/seo`,
    headers: jsonHeaders(c),
    body: JSON.stringify({ title: `Bench SEO ${c.runId} {{seq}}`, description: 'A product page for the benchmark.', noindex: false }),
  }),
  /** Picks from `delete`. */
  delete: (c: ScenarioContext): RequestSpec => ({ method: 'DELETE', path: `${store(c)}/products/{{pick:delete}}`, headers: auth(c) }),
};

export const SCENARIOS: Scenario[] = [
  ...listScenarios,
  {
    id: 'rest-read',
    title: 'REST read one (images, SEO, variant count)',
    needs: [`GET ${STORE}/products/{productId}`],
    baselines: ['B0', 'B1', 'B1-lean'],
    reference: 'B1',
    requests: (c) => [{ method: 'GET', path: `${store(c)}/products/${c.f.productId}`, headers: auth(c) }],
  },
  // Issue 27: the same list and read on the rich catalog (options, about 12 variants with every field, six
  // attributes per product), each against its today's-catalog scenario above in the same run, and (issue 31)
  // against the baselines serving the rich catalog.
  {
    id: 'rest-list-rich',
    title: 'REST list page 1, rich catalog (3 options, 6 attributes, ~12 variants per product)',
    needs: [`GET ${STORE}/products`],
    baselines: ['B0', 'B1', 'B1-lean'],
    reference: 'B1',
    catalog: 'rich',
    requests: (c) => [{ method: 'GET', path: restListPath(c, ''), headers: auth(c) }],
  },
  {
    id: 'rest-read-rich',
    title: 'REST read one, rich catalog (3 options, 6 attributes, images, SEO, variant count)',
    needs: [`GET ${STORE}/products/{productId}`],
    baselines: ['B0', 'B1', 'B1-lean'],
    reference: 'B1',
    catalog: 'rich',
    requests: (c) => [{ method: 'GET', path: `${store(c)}/products/${c.f.productId}`, headers: auth(c) }],
  },
  {
    id: 'graphql-list',
    title: 'GraphQL list page 1 (same payload)',
    needs: ['graphql:products'],
    baselines: ['B0', 'B3'],
    reference: 'B3',
    requests: (c) => [graphqlRequest(c, GRAPHQL_LIST, { storeId: c.f.storeId, page: 1, perPage: 20 })],
    quick: true,
  },
  {
    id: 'graphql-read',
    title: 'GraphQL read one (same payload)',
    needs: ['graphql:product'],
    baselines: ['B0', 'B3'],
    reference: 'B3',
    requests: (c) => [graphqlRequest(c, GRAPHQL_READ, { storeId: c.f.storeId, id: c.f.productId })],
  },
  {
    id: 'public-countries',
    title: 'Public supported-countries (API key)',
    needs: ['GET /api/public/v1/payments/supported-countries'],
    baselines: ['B0', 'B1'],
    reference: 'B1',
    requests: (c) => [{ method: 'GET', path: '/api/public/v1/payments/supported-countries', headers: { authorization: `Bearer ${c.f.apiKey}` } }],
  },
  {
    id: 'create',
    title: 'Create product',
    needs: [`POST ${STORE}/products`],
    baselines: [],
    mutates: true,
    requests: (c) => [WRITE_REQUESTS.create(c)],
  },
  {
    id: 'update',
    title: 'Update product (price)',
    needs: [`PUT ${STORE}/products/{productId}`],
    baselines: [],
    mutates: true,
    requests: (c) => [WRITE_REQUESTS.update(c)],
    lists: (c) => ({ update: c.f.updateIds }),
  },
  {
    id: 'publish',
    title: 'Publish a draft',
    needs: [`POST ${STORE}/products/{productId}/publish`],
    baselines: [],
    mutates: true,
    requests: (c) => [WRITE_REQUESTS.publish(c)],
    lists: (c) => ({ draft: c.f.draftIds }),
  },
  {
    id: 'unpublish',
    title: 'Unpublish an active product',
    needs: [`POST ${STORE}/products/{productId}/unpublish`],
    baselines: [],
    mutates: true,
    requests: (c) => [WRITE_REQUESTS.unpublish(c)],
    lists: (c) => ({ active: c.f.activeIds }),
  },
  {
    id: 'variants-replace',
    title: 'Replace variants (3 variants)',
    needs: [`PUT ${STORE}/products/{productId}/variants`],
    baselines: [],
    mutates: true,
    requests: (c) => [WRITE_REQUESTS.variants(c)],
    lists: (c) => ({ update: c.f.updateIds }),
  },
  {
    id: 'seo',
    title: 'Set SEO record',
    needs: [`PUT ${STORE}/products/{productId}/seo`],
    baselines: [],
    mutates: true,
    requests: (c) => [WRITE_REQUESTS.seo(c)],
    lists: (c) => ({ seo: c.f.seoIds }),
  },
  {
    id: 'mix-90-10',
    title: '90/10 read/write mix (list, read; update)',
    needs: [`GET ${STORE}/products`, `GET ${STORE}/products/{productId}`, `PUT ${STORE}/products/{productId}`],
    baselines: [],
    mutates: true,
    requests: (c) => {
      const list = { method: 'GET', path: restListPath(c, ''), headers: auth(c) };
      const read = { method: 'GET', path: `${store(c)}/products/{{pick:read}}`, headers: auth(c) };
      const update = WRITE_REQUESTS.update(c);
      return [list, read, list, read, list, read, list, read, read, update];
    },
    lists: (c) => ({ read: c.f.updateIds, update: c.f.updateIds }),
  },
  uploadScenario('100k', '100 KB'),
  uploadScenario('1m', '1 MB'),
  uploadScenario('5m', '5 MB'),
];
