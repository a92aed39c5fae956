import { db } from '../../src/platform/db/client';
import { createStoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { testWorker } from '../helpers/webhooks';
import { filePart, form } from '../images/images';
import { csv } from './helpers';

/**
 * A row with several bad cells reports every one of them, each by its column with a documented field-error
 * code: a cell that cannot be converted (a fraction for a whole number, "maybe" for a boolean) no longer hides
 * the rule errors of the row's other cells, nor a bad product field its SEO or variant cells.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** The codes of /docs/errors/validation_failed's list; none of zod's own. */
const ZOD_ONLY = ['custom', 'invalid_format', 'invalid_union', 'invalid_integer', 'invalid_boolean', 'invalid_json'];

async function importErrors(file: string) {
  const s = await createStoreFixture();
  const res = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/products/imports`, {
    token: s.ownerToken,
    rawBody: form([filePart(Buffer.from(file), 'products.csv', 'text/csv', 'file'), { name: 'error_policy', value: 'reject_failed_rows' }]),
  });
  expect(res.status).toBe(202);
  await testWorker(t).runOnce();
  const job = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/products/imports/${res.body.data.id}`, { token: s.ownerToken });
  expect(await db().product.count({ where: { storeId: s.storeId } })).toBe(0);
  for (const e of job.body.data.errors) expect(ZOD_ONLY).not.toContain(e.code);
  return job.body.data.errors as { row: number; field: string; code: string; message: string }[];
}

const byField = (errors: { field: string; code: string }[]) => Object.fromEntries(errors.map((e) => [e.field, e.code]));

test('cells that do not convert and cells that break a rule are reported together, for the row', async () => {
  const errors = await importErrors(
    csv(
      ['sku', 'name', 'price', 'inventory_quantity', 'low_stock_threshold', 'category_slugs', 'seo_title', 'seo_noindex'],
      [['BAD-1', 'x'.repeat(256), '-3', '1.5', '-2', 'shoes', 'y'.repeat(71), 'maybe']],
    ),
  );
  expect(errors.every((e) => e.row === 2)).toBe(true);
  expect(byField(errors)).toEqual({
    inventory_quantity: 'invalid_type',
    seo_noindex: 'invalid_type',
    name: 'too_big',
    price: 'invalid_value',
    low_stock_threshold: 'too_small',
    seo_title: 'too_big',
  });
});

test("a row that converts reports every product, variant and SEO cell's rule at once", async () => {
  const variants = JSON.stringify([{ sku: 'V-1', inventory_quantity: -1 }, { sku: '', options: { size: 'L' } }]);
  const errors = await importErrors(
    csv(['sku', 'name', 'price', 'category_slugs', 'variants', 'seo_title', 'seo_canonical_url'], [['V-1', '', '1.234', 'shoes', variants, 'y'.repeat(71), 'not a url']]),
  );
  expect(errors.every((e) => e.row === 2)).toBe(true);
  expect(byField(errors)).toEqual({
    name: 'required',
    price: 'invalid_value',
    'variants.0.inventory_quantity': 'too_small',
    'variants.1.sku': 'too_small',
    seo_title: 'too_big',
    seo_canonical_url: 'invalid_value',
  });
});
