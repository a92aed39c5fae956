import { closeDatabase, db } from '../../src/platform/db/client';
import { exportProducts } from '../../src/catalog/transfer/exporter';
import { importProducts } from '../../src/catalog/transfer/importer';
import { testContext } from '../helpers/context';
import { createStoreFixture } from '../helpers/fixtures';
import { openTestDatabase } from '../helpers/harness';
import { chunksOf, csv, generatedCsv } from './helpers';

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await closeDatabase();
  await database.dropDatabase();
});

const operator = () => testContext({ kind: 'operator', username: 'tester' }, { source: 'cli' });
const text = async (gen: AsyncIterable<string>) => {
  let s = '';
  for await (const c of gen) s += c;
  return s;
};

test('creates, then a re-import of the export changes nothing', async () => {
  const s = await createStoreFixture();
  // Chunks of 1,000 bytes: rows and multi-byte characters are split across reads.
  const first = await importProducts(operator(), s.storeId, chunksOf(generatedCsv(500), 1000), { format: 'csv', maxRows: 5000, errorPolicy: 'reject_failed_rows' });
  expect(first).toMatchObject({ rows: 500, created: 500, updated: 0, rejected: 0, committed: true, errors: [] });
  // One product.created per product, by the operator through the CLI, each with the product's variants counted.
  const created = await db().event.findMany({ where: { storeId: s.storeId, type: 'product.created' }, select: { actorKind: true, source: true, data: true } });
  expect(created).toHaveLength(500);
  expect(created[0]).toMatchObject({ actorKind: 'operator', source: 'cli', data: expect.objectContaining({ variants_count: 2 }) });
  const exported = await text(exportProducts(operator(), s.storeId, {}, 'csv'));
  const events = await db().event.count({ where: { storeId: s.storeId } });
  const again = await importProducts(operator(), s.storeId, chunksOf(exported), { format: 'csv', maxRows: 5000 });
  expect(again).toMatchObject({ rows: 500, created: 0, updated: 0, unchanged: 500, rejected: 0 });
  expect(await db().event.count({ where: { storeId: s.storeId } })).toBe(events);
  const jsonl = await text(exportProducts(operator(), s.storeId, {}, 'jsonl'));
  const third = await importProducts(operator(), s.storeId, chunksOf(jsonl), { format: 'jsonl', maxRows: 5000 });
  expect(third).toMatchObject({ rows: 500, unchanged: 500 });
  // Updates by SKU go through the services: a bad value is the row's error, the rest of the row is not written.
  const bad = await importProducts(operator(), s.storeId, chunksOf(csv(['sku', 'name', 'price', 'category_slugs'], [['GEN-1', 'Renamed', '-1', 'shoes'], ['GEN-2', 'Renamed too', '3', 'shoes'], ['NEW-1', 'New', '5', 'nope']])), {
    format: 'csv',
    maxRows: 10,
    errorPolicy: 'reject_failed_rows',
  });
  expect(bad).toMatchObject({ rows: 3, updated: 1, created: 0, rejected: 2 });
  expect(bad.errors.map((e) => [e.row, e.field, e.code])).toEqual([
    [2, 'price', 'invalid_value'],
    [4, 'category_slugs', 'unknown_category'],
  ]);
  expect(await db().event.count({ where: { storeId: s.storeId, type: 'product.updated' } })).toBe(1);
  // A variant SKU another product holds: sku_taken on the row, nothing of it written.
  const clash = await importProducts(operator(), s.storeId, chunksOf(csv(['sku', 'variants'], [['GEN-3', JSON.stringify([{ sku: 'GEN-3', options: { size: 'S' } }, { sku: 'GEN-4', options: { size: 'XL' } }])]])), { format: 'csv', maxRows: 10 });
  expect(clash).toMatchObject({ rejected: 1, committed: false });
  expect(clash.errors[0]).toMatchObject({ row: 2, field: 'variants.1.sku', code: 'sku_taken' });
});
