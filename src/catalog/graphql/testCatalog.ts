/** GraphQL types and operations for the test catalog's jobs. */

import * as testCatalog from '../services/testCatalog';
import { JOBS_LISTED, MAX_TEST_CATALOG_COPY, TEST_CATALOG_JOB_KINDS, TEST_CATALOG_JOB_STATUSES, type TestCatalogJobRecord } from '../services/testCatalog';
import { generateTestProducts, MAX_GENERATED_PRODUCTS, MAX_GENERATED_VARIANTS } from '../services/testCatalogGenerator';
import { builder, capability } from '../../api/graphql/builder';
import { ProductStatus } from './products';

/**
 * Sandbox tools: copy live products into the test catalog, delete the test
 * catalog, and follow the jobs that do it. Every field needs manage_products
 * in the store (owners always pass). The fields work on both catalogs whatever
 * the request's mode: the source is always live, the target always test.
 */

const TestCatalogJobKind = builder.enumType('TestCatalogJobKind', {
  values: TEST_CATALOG_JOB_KINDS,
  description: 'copy_live: live products copied into the test catalog; delete_test_data: the test catalog deleted',
});
const TestCatalogJobStatus = builder.enumType('TestCatalogJobStatus', {
  values: TEST_CATALOG_JOB_STATUSES,
  description: 'queued: waiting for the worker; running: in progress (see done); succeeded; failed (see error)',
});

type FilterShape = NonNullable<ReturnType<typeof testCatalog.filterView>>;

const TestCatalogJobFilter = builder.objectRef<FilterShape>('TestCatalogJobFilter').implement({
  description: 'The product list filter of a copy; a field is null when the copy did not filter on it.',
  fields: (t) => ({
    search: t.exposeString('search', { nullable: true }),
    category: t.exposeString('category', { nullable: true, description: 'Category slug' }),
    tags: t.exposeStringList('tags', { nullable: true, description: 'A product matches if it carries any of these tags' }),
    status: t.field({ type: ProductStatus, nullable: true, resolve: (f) => f.status }),
    isActive: t.exposeBoolean('is_active', { nullable: true }),
  }),
});

const TestCatalogJob = builder.objectRef<TestCatalogJobRecord>('TestCatalogJob').implement({
  description: 'A job copying live products into the test catalog, or deleting the test catalog. The worker runs it in batches; poll it for progress.',
  fields: (t) => ({
    id: t.exposeID('id'),
    storeId: t.exposeID('storeId'),
    kind: t.field({ type: TestCatalogJobKind, resolve: (j) => j.kind }),
    status: t.field({ type: TestCatalogJobStatus, resolve: (j) => j.status }),
    filter: t.field({ type: TestCatalogJobFilter, nullable: true, description: 'copy_live: the filter it copies; null for delete_test_data', resolve: (j) => testCatalog.filterView(j) }),
    total: t.exposeInt('total', { description: 'Products it expects to handle (counted when requested); once finished, done + skipped' }),
    done: t.exposeInt('done', { description: 'Products copied (copy_live) or deleted (delete_test_data) so far' }),
    skipped: t.exposeInt('skipped', {
      description: 'copy_live: live products not copied because the test catalog already holds one of their SKUs or their SEO slug',
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed (code: message); null otherwise' }),
    requestedBy: t.exposeString('requestedBy', { description: 'Who asked for it, as the change history names actors' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const TestCatalogCopyFilter = builder.inputType('TestCatalogCopyFilter', {
  description: 'Which live products to copy, as the product list filters them; none: all.',
  fields: (t) => ({
    search: t.string({ description: 'Case-insensitive text over name, description, tags and variant SKUs (every word must match)' }),
    category: t.string({ description: 'Category slug (422 unknown_category if the store has none such)' }),
    tags: t.stringList({ description: 'Products carrying any of these tags' }),
    status: t.field({ type: ProductStatus }),
    isActive: t.boolean(),
  }),
});

const undef = <T>(v: T | null | undefined) => v ?? undefined;

builder.queryFields((t) => ({
  testCatalogJob: t.field({
    type: TestCatalogJob,
    description: 'One test catalog job with its progress. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => testCatalog.getTestCatalogJob(ctx, args.storeId, args.id),
  }),
  testCatalogJobs: t.field({
    type: [TestCatalogJob],
    description: `The store's latest ${JOBS_LISTED} test catalog jobs, newest first. Needs manage_products.`,
    args: { storeId: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => testCatalog.listTestCatalogJobs(ctx, args.storeId),
  }),
}));

builder.mutationFields((t) => ({
  copyLiveProductsToTest: t.field({
    type: TestCatalogJob,
    description:
      `Starts copying the store's live products matching the filter (all without one, at most ${MAX_TEST_CATALOG_COPY}: more is 422 too_many_products) into its test catalog, ` +
      'with their variants, SEO records, images and categories (not their schedules). Returns the queued job; the worker copies in the background. ' +
      'A product whose SKU or SEO slug the test catalog already holds is skipped (counted in skipped). 409 conflict while a test catalog job of the store is queued or running. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), filter: t.arg({ type: TestCatalogCopyFilter }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, { storeId, filter: f }, ctx) =>
      testCatalog.startTestCatalogCopy(ctx, storeId, {
        search: undef(f?.search),
        category: undef(f?.category),
        tags: undef(f?.tags),
        status: undef(f?.status),
        isActive: undef(f?.isActive),
      }),
  }),
  generateTestProducts: t.prismaField({
    type: ['Product'],
    description:
      `Makes up to ${MAX_GENERATED_PRODUCTS} fake products in the store's test catalog (whatever the request's mode) and returns them: 2 or 3 options with a variant per combination ` +
      `(at most ${MAX_GENERATED_VARIANTS}) carrying a GTIN-13 barcode, cost, weight and on some a compare-at price, one of the store's categories, and when the store has product types ` +
      'one of them with valid values for its attributes (none is created). Each is recorded as product.created in test mode. Give a seed to get the same products again (with new SKUs). ' +
      'A store without categories: 422 category_required. Needs manage_products.',
    args: {
      storeId: t.arg.id({ required: true }),
      count: t.arg.int({ required: true, description: `How many products (1 to ${MAX_GENERATED_PRODUCTS})` }),
      seed: t.arg.int({ description: 'Seed of the fake values (0 to 2147483647); none: random' }),
    },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => generateTestProducts(ctx, args.storeId, { count: args.count, seed: undef(args.seed) }, query),
  }),
  deleteTestData: t.field({
    type: TestCatalogJob,
    description:
      "Starts deleting the store's test catalog: every test-mode product with its variants, SEO record, images and category links. " +
      'Test API keys, OAuth grants, webhook endpoints, categories and the change history stay. Returns the queued job. ' +
      '409 conflict while a test catalog job of the store is queued or running. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => testCatalog.deleteTestData(ctx, args.storeId),
  }),
}));
