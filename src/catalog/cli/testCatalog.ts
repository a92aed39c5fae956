/** CLI commands for the test catalog: copy live products into it, delete it, follow the jobs. */

import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { PRODUCT_STATUSES } from '../services/products';
import { findStore } from '../../access/services/stores';
import {
  deleteTestData,
  getTestCatalogJob,
  JOBS_LISTED,
  listTestCatalogJobs,
  MAX_TEST_CATALOG_COPY,
  runDueTestCatalogJobs,
  startTestCatalogCopy,
  testCatalogJobView,
  type TestCatalogJobRecord,
} from '../services/testCatalog';
import { generateTestProducts, MAX_GENERATED_PRODUCTS } from '../services/testCatalogGenerator';
import { PRODUCT_VIEW_INCLUDE, productView } from '../services/views';
import { type CliCommand, choiceFlag, defineCommand, listFlag, optionalFlag, required, requiredFlag, wholeNumberFlag } from '../../api/cli/command';
import { STORE_REF } from '../../access/cli/stores';

/** Between two looks at a job another process is running (the service's worker holds it). */
const WAIT_POLL_MS = 250;
/** Batches per turn of the runner while waiting: between turns the job is looked at again. */
const WAIT_BATCHES = 20;

const storeFlag = () => requiredFlag('--store <store>', STORE_REF);
const waitFlag = () =>
  optionalFlag(
    '--wait',
    'run the job here and print it once finished (exit 1 if it failed); works with no service running. Without it the job is queued for the worker and printed at once',
  );

/**
 * Runs the job in this process with the worker's own runner, confined to this
 * job, until it has finished. Should a running service's worker hold it (it
 * took the job first), this waits for that worker instead; once that worker's
 * lease expires (it stopped), the runner here takes the job over.
 */
async function runToEnd(ctx: RequestContext, job: TestCatalogJobRecord): Promise<TestCatalogJobRecord> {
  for (;;) {
    await runDueTestCatalogJobs(ctx, { jobId: job.id, limit: WAIT_BATCHES });
    const current = await getTestCatalogJob(ctx, job.storeId, job.id);
    if (current.status === 'succeeded') return current;
    if (current.status === 'failed') throw new AppError('internal_error', `test catalog job ${current.id} failed: ${current.error ?? 'no reason recorded'}`);
    await sleep(WAIT_POLL_MS);
  }
}

export const testCatalogCommands: CliCommand[] = [
  defineCommand<{ store: string; search?: string; category?: string; tags?: string[]; status?: string; wait?: boolean }>({
    name: 'test-catalog copy',
    description:
      `Copy a store's live products (all, or those matching the filter flags; at most ${MAX_TEST_CATALOG_COPY}) into its test catalog, with their variants, SEO records, images and categories, as a background job. ` +
      'Products whose SKU or SEO slug the test catalog already holds are skipped (counted in skipped). Prints the job.',
    options: [
      storeFlag(),
      optionalFlag('--search <text>', 'only products matching this text (name, description, tags, SKUs; every word must match)'),
      optionalFlag('--category <slug>', 'only products of this category'),
      listFlag('--tags <list>', 'only products carrying any of these comma-separated tags'),
      choiceFlag('--status <status>', 'only products in this status', PRODUCT_STATUSES),
      waitFlag(),
    ],
    examples: [`npm run cli -- test-catalog copy --store "Ana's" --category shoes --wait`],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const job = await startTestCatalogCopy(ctx, store.id, { search: f.search, category: f.category, tags: f.tags, status: f.status as (typeof PRODUCT_STATUSES)[number] | undefined });
      return testCatalogJobView(f.wait ? await runToEnd(ctx, job) : job);
    },
  }),
  defineCommand<{ store: string; wait?: boolean }>({
    name: 'test-catalog delete',
    description:
      "Delete a store's test catalog: every test-mode product with its variants, SEO records, images and category links, as a background job. " +
      'Test API keys, webhook endpoints, categories and the change history stay. Prints the job.',
    options: [storeFlag(), waitFlag()],
    examples: [`npm run cli -- test-catalog delete --store "Ana's" --wait`],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const job = await deleteTestData(ctx, store.id);
      return testCatalogJobView(f.wait ? await runToEnd(ctx, job) : job);
    },
  }),
  defineCommand<{ store: string; count: number; seed?: number }>({
    name: 'test-catalog generate',
    description:
      `Make fake products (at most ${MAX_GENERATED_PRODUCTS}) in a store's test catalog: options with a variant per combination (barcode, cost, weight, some compare-at prices), ` +
      "one of the store's categories and, when it has product types, attribute values for one of them. Prints the products.",
    options: [
      storeFlag(),
      required(wholeNumberFlag('--count <n>', 'how many products', 1, MAX_GENERATED_PRODUCTS)),
      wholeNumberFlag('--seed <n>', 'seed of the fake values, to get the same products again (with new SKUs)', 0, 2147483647),
    ],
    examples: [`npm run cli -- test-catalog generate --store "Ana's" --count 20`],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const products = await generateTestProducts(ctx, store.id, { count: f.count, seed: f.seed }, { include: PRODUCT_VIEW_INCLUDE });
      return products.map((p) => productView(p, ctx.baseUrl));
    },
  }),
  defineCommand<{ store: string }>({
    name: 'test-catalog jobs',
    description: `A store's latest ${JOBS_LISTED} test catalog jobs (copies and deletions), newest first, with their progress.`,
    options: [storeFlag()],
    examples: [`npm run cli -- test-catalog jobs --store "Ana's"`],
    run: async (f, ctx) => (await listTestCatalogJobs(ctx, (await findStore(ctx, f.store)).id)).map(testCatalogJobView),
  }),
];
