/** REST routes for the test catalog's jobs. */

import { PRODUCT_STATUSES } from '../services/products';
import { JOBS_LISTED, MAX_TEST_CATALOG_COPY, TEST_CATALOG_JOB_KINDS, TEST_CATALOG_JOB_STATUSES } from '../services/testCatalog';
import { MAX_GENERATED_PRODUCTS, MAX_GENERATED_VARIANTS } from '../services/testCatalogGenerator';
import { bodyWith, camelizeKeys, requireObject } from '../../api/rest/body';
import { PRODUCT_FRAGMENT, restProduct } from './products';
import { schemaRef } from '../../api/rest/openapi';
import type { RestRequest, RestRoute } from '../../api/rest/routes';

/**
 * REST for the sandbox tools, under /api/v1/merchant/stores/:storeId/test-catalog:
 * copy live products into the test catalog, delete the test catalog, follow the
 * jobs. Both writes answer 202 with the queued job and its Location. Every
 * route needs manage_products.
 */

const BASE = '/api/v1/merchant/stores/:storeId/test-catalog';

/** The job as REST (and the job's events, and the CLI) show it. */
const JOB_FIELDS = `
  id store_id: storeId kind status
  filter { search category tags status is_active: isActive }
  total done skipped error requested_by: requestedBy
  created_at: createdAt started_at: startedAt finished_at: finishedAt`;

const jobLocation = (r: RestRequest, id: string) => `${r.ctx.baseUrl}/api/v1/merchant/stores/${encodeURIComponent(r.params.storeId)}/test-catalog/jobs/${id}`;
const accepted = (job: { id: string }, r: RestRequest) => ({ status: 202, body: { data: job }, headers: { Location: jobLocation(r, job.id) } });

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });
const dateTime = { type: 'string', format: 'date-time' };

const filterProperties = {
  search: { type: 'string', maxLength: 200, description: 'Case-insensitive text over name, description, tags and variant SKUs (every word must match)' },
  category: { type: 'string', maxLength: 128, description: 'Category slug (422 unknown_category if the store has none such)' },
  tags: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 64 }, description: 'Products carrying any of these tags' },
  status: { type: 'string', enum: [...PRODUCT_STATUSES] },
  is_active: { type: 'boolean' },
};

const JobSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    store_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: [...TEST_CATALOG_JOB_KINDS] },
    status: { type: 'string', enum: [...TEST_CATALOG_JOB_STATUSES], description: 'queued, running (see done), succeeded or failed (see error)' },
    filter: {
      type: ['object', 'null'],
      description: 'copy_live: the filter it copies (null fields: not filtered on); null for delete_test_data',
      properties: {
        search: nullable('string'),
        category: nullable('string'),
        tags: nullable('array', { items: { type: 'string' } }),
        status: nullable('string', { enum: [...PRODUCT_STATUSES, null] }),
        is_active: nullable('boolean'),
      },
    },
    total: { type: 'integer', description: 'Products it expects to handle (counted when requested); once finished, done + skipped' },
    done: { type: 'integer', description: 'Products copied (copy_live) or deleted (delete_test_data) so far' },
    skipped: { type: 'integer', description: 'copy_live: live products not copied because the test catalog already holds one of their SKUs or their SEO slug' },
    error: nullable('string', { description: 'Why it failed (code: message)' }),
    requested_by: { type: 'string', description: 'Who asked for it, as the change history names actors' },
    created_at: dateTime,
    started_at: nullable('string', { format: 'date-time' }),
    finished_at: nullable('string', { format: 'date-time' }),
  },
};
const components = { schemas: { TestCatalogJob: JobSchema } };
const data = (schema: Record<string, unknown>) => json({ type: 'object', properties: { data: schema } });
const location = { Location: { description: 'GET this URL for the job and its progress', schema: { type: 'string', format: 'uri' } } };

export const testCatalogRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: `${BASE}/copy`,
    operationId: 'copyLiveProductsToTest',
    summary: `Start copying live products (all, or those matching a filter; at most ${MAX_TEST_CATALOG_COPY}) into the test catalog (needs manage_products)`,
    auth: 'dashboard',
    operation: `
      mutation CopyLiveProductsToTest($storeId: ID!, $input: TestCatalogCopyFilter) {
        copyLiveProductsToTest(storeId: $storeId, filter: $input) { ${JOB_FIELDS} }
      }`,
    // The body is the filter: its fields are top-level body fields (the variable is called input for that).
    variables: ({ params, body }) => ({ storeId: params.storeId, input: camelizeKeys(requireObject(body)) }),
    respond: (d, r) => accepted(d.copyLiveProductsToTest, r),
    openapi: {
      components,
      description:
        'Copies each matching live product with its variants, SEO record, images and categories (not its schedule) as a new test-mode product, in the background. ' +
        'A product whose SKU or SEO slug the test catalog already holds is skipped and counted in `skipped`. ' +
        `More than ${MAX_TEST_CATALOG_COPY} matches: 422 too_many_products. A test catalog job of the store queued or running: 409 conflict.`,
      requestBody: { required: false, content: json({ type: 'object', properties: filterProperties, additionalProperties: false }) },
      responses: { '202': { description: 'The queued job', headers: location, content: data(schemaRef('TestCatalogJob')) } },
    },
  },
  {
    method: 'POST',
    path: `${BASE}/generate`,
    operationId: 'generateTestProducts',
    summary: `Make up to ${MAX_GENERATED_PRODUCTS} fake products in the test catalog, with options, variants and attribute values (needs manage_products)`,
    auth: 'dashboard',
    operation: `
      mutation GenerateTestProducts($storeId: ID!, $count: Int!, $seed: Int) {
        generateTestProducts(storeId: $storeId, count: $count, seed: $seed) { ...RestProduct }
      }${PRODUCT_FRAGMENT}`,
    variables: ({ params, body }) => {
      const { count, seed } = bodyWith(body, ['count', 'seed']);
      return { storeId: params.storeId, count, seed };
    },
    respond: (d) => ({ status: 201, body: { data: d.generateTestProducts.map(restProduct) } }),
    openapi: {
      description:
        "Makes the products in the request, in the test catalog whatever the request's mode, each recorded as product.created in test mode. " +
        `Each has 2 or 3 options with a variant per combination (at most ${MAX_GENERATED_VARIANTS}), the variants a GTIN-13 barcode (GS1 prefix 2, restricted circulation), ` +
        'a cost, a weight and on about a third of the products a compare-at price; one of the store\'s categories; and, when the store has product types, one of them at random ' +
        'with a valid value for each required attribute and about two in three of the others (the generator creates no attribute or type). ' +
        'A `seed` gives the same products again, with new SKUs. A store without categories: 422 category_required.',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['count'],
          additionalProperties: false,
          properties: {
            count: { type: 'integer', minimum: 1, maximum: MAX_GENERATED_PRODUCTS, description: 'How many products' },
            seed: { type: 'integer', minimum: 0, maximum: 2147483647, description: 'Seed of the fake values; none: random' },
          },
        }),
      },
      responses: { '201': { description: 'The products made, oldest first', content: data({ type: 'array', items: schemaRef('Product') }) } },
    },
  },
  {
    method: 'DELETE',
    path: BASE,
    operationId: 'deleteTestData',
    summary: "Start deleting the store's test catalog: every test-mode product with its variants, SEO record, images and category links (needs manage_products)",
    auth: 'dashboard',
    operation: `mutation DeleteTestData($storeId: ID!) { deleteTestData(storeId: $storeId) { ${JOB_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId }),
    respond: (d, r) => accepted(d.deleteTestData, r),
    openapi: {
      components,
      description: 'Test API keys, OAuth grants, webhook endpoints, the categories and the change history stay. A test catalog job of the store queued or running: 409 conflict.',
      responses: { '202': { description: 'The queued job', headers: location, content: data(schemaRef('TestCatalogJob')) } },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/jobs`,
    operationId: 'listTestCatalogJobs',
    summary: `The store's latest ${JOBS_LISTED} test catalog jobs, newest first (needs manage_products)`,
    auth: 'dashboard',
    operation: `query TestCatalogJobs($storeId: ID!) { testCatalogJobs(storeId: $storeId) { ${JOB_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId }),
    respond: (d) => ({ body: { data: d.testCatalogJobs } }),
    openapi: { components, responses: { '200': { description: 'Jobs, newest first', content: data({ type: 'array', items: schemaRef('TestCatalogJob') }) } } },
  },
  {
    method: 'GET',
    path: `${BASE}/jobs/:jobId`,
    operationId: 'getTestCatalogJob',
    summary: 'One test catalog job with its progress (needs manage_products)',
    auth: 'dashboard',
    operation: `query TestCatalogJob($storeId: ID!, $id: ID!) { testCatalogJob(storeId: $storeId, id: $id) { ${JOB_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId, id: params.jobId }),
    respond: (d) => ({ body: { data: d.testCatalogJob } }),
    openapi: { components, responses: { '200': { description: 'The job', content: data(schemaRef('TestCatalogJob')) } } },
  },
];
