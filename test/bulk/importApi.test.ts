import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { testWorker } from '../helpers/webhooks';
import { filePart, form, type Part } from '../images/images';
import { createProduct, expectProblem } from '../products/helpers';
import { csv } from './helpers';

/**
 * Bulk import and export over the merchant REST API (issue 14, part 5): the
 * import as a background job the worker runs, its status and error report,
 * the error policies, dry runs, file errors, limits, permissions, test mode,
 * and the streamed export, on the real handler and database.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ IMPORT_MAX_BYTES: '200000', IMPORT_MAX_ROWS: '500' });
});
afterAll(() => t.close());

const base = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}/products`;
const upload = (s: StoreFixture, file: string | Buffer, fields: Record<string, string> = {}, opts: { token?: string; filename?: string; headers?: Record<string, string> } = {}) =>
  t.request('POST', `${base(s)}/imports`, {
    token: opts.token ?? s.ownerToken,
    headers: opts.headers,
    rawBody: form([filePart(Buffer.from(file), opts.filename ?? 'products.csv', 'text/csv', 'file'), ...Object.entries(fields).map(([name, value]): Part => ({ name, value }))]),
  });
const runWorker = () => testWorker(t).runOnce();
const job = async (s: StoreFixture, id: string, query = '') => {
  const res = await t.request('GET', `${base(s)}/imports/${id}${query}`, { token: s.ownerToken });
  expect(res.status).toBe(200);
  return res.body.data;
};
/** Uploads, runs the worker, and returns the finished job. */
async function imported(s: StoreFixture, file: string, fields: Record<string, string> = {}, headers?: Record<string, string>) {
  const res = await upload(s, file, fields, { headers });
  expect(res.status).toBe(202);
  expect(res.headers.get('location')).toBe(res.body.data.links.self);
  expect(res.body.data).toMatchObject({ status: 'queued', progress: { rows_processed: 0 } });
  await runWorker();
  return job(s, res.body.data.id);
}
const eventsOf = (s: StoreFixture, type?: string) => db().event.count({ where: { storeId: s.storeId, ...(type ? { type } : {}) } });
const exported = (s: StoreFixture, query = '', token = s.ownerToken, headers?: Record<string, string>) => t.request('GET', `${base(s)}/export${query}`, { token, headers });

const COLS = ['id', 'sku', 'name', 'price', 'inventory_quantity', 'category_slugs', 'tags'];

test('reject_failed_rows: creates by SKU, updates by SKU and by id, leaves bad rows out with a row-level report, and records one event per written product', async () => {
  const s = await createStoreFixture();
  const byId = await createProduct(t, s, { name: 'By id', price: 10 });
  const bySku = await createProduct(t, s, { name: 'By SKU', price: 11 });
  await t.request('PUT', `${base(s)}/${bySku.id}/variants`, { token: s.ownerToken, body: { variants: [{ sku: 'OLD-1' }] } });
  const before = await eventsOf(s);
  const file = csv(COLS, [
    ['', 'NEW-1', 'New one', '5.50', '3', 'shoes|hats', 'a|b'],
    [byId.id, '', 'Renamed by id', '12', '', '', ''],
    ['', 'OLD-1', 'Renamed by SKU', '', '7', '', 'x'],
    ['', 'NEW-2', 'Bad price', '-3', '', 'shoes', ''],
    ['', 'NEW-3', 'Bad category', '4', '', 'sandals', ''],
    ['00000000-0000-4000-8000-000000000000', '', 'Missing', '1', '', 'shoes', ''],
    ['', 'NEW-1', 'Same SKU again', '1', '', 'shoes', ''],
    ['', 'NEW-4', 'Bad quantity', '1', 'many', 'shoes', ''],
  ]);
  const j = await imported(s, file, { error_policy: 'reject_failed_rows' });
  expect(j).toMatchObject({
    status: 'succeeded',
    committed: true,
    error_policy: 'reject_failed_rows',
    progress: { rows_processed: 8, rows_total: 8 },
    counts: { created: 1, updated: 2, unchanged: 0, rejected: 5, errors: 5 },
    failure: null,
  });
  expect(j.errors).toEqual([
    { row: 5, field: 'price', code: expect.any(String), message: expect.stringContaining('must be a number') },
    { row: 6, field: 'category_slugs', code: 'unknown_category', message: 'no category with slug "sandals" in this store' },
    { row: 7, field: 'id', code: 'not_found', message: expect.any(String) },
    { row: 8, field: 'sku', code: 'duplicate_in_file', message: expect.any(String) },
    { row: 9, field: 'inventory_quantity', code: 'invalid_type', message: 'must be a whole number' },
  ]);
  expect(j.error_report).toEqual({ offset: 0, limit: 100, returned: 5, total: 5, kept: 5 });
  expect((await job(s, j.id, '?error_offset=3&error_limit=1')).errors).toEqual([j.errors[3]]);
  const created = await db().variant.findFirst({ where: { storeId: s.storeId, sku: 'NEW-1' }, include: { product: true } });
  expect(created?.product).toMatchObject({ name: 'New one', inventoryQuantity: 3, tags: ['a', 'b'] });
  expect((await db().product.findUnique({ where: { id: byId.id } }))?.name).toBe('Renamed by id');
  expect(await db().product.findUnique({ where: { id: bySku.id } })).toMatchObject({ name: 'Renamed by SKU', inventoryQuantity: 7, tags: ['x'] });
  // One product.created and two product.updated, as the same writes made one by one would record; nothing for the bad rows.
  expect(await eventsOf(s)).toBe(before + 3);
  expect(await eventsOf(s, 'product.created')).toBe(3);
  const createdEvent = await db().event.findFirst({ where: { storeId: s.storeId, type: 'product.created', resourceId: created!.productId } });
  expect(createdEvent).toMatchObject({ actorKind: 'user', actorId: s.ownerId, source: 'merchant_rest' });
  expect(await db().productImportChunk.count({ where: { importId: j.id } })).toBe(0);
});

test('reject_everything: one bad row and nothing is written, no event recorded; the report names the row', async () => {
  const s = await createStoreFixture();
  const before = await eventsOf(s);
  const j = await imported(s, csv(['sku', 'name', 'price', 'category_slugs'], [['A-1', 'Fine', '1', 'shoes'], ['A-2', '', '1', 'shoes']]));
  expect(j).toMatchObject({ status: 'failed', committed: false, error_policy: 'reject_everything', counts: { created: 1, rejected: 1 }, failure: { code: 'rows_rejected' } });
  expect(j.errors).toEqual([{ row: 3, field: 'name', code: expect.any(String), message: expect.any(String) }]);
  expect(await db().product.count({ where: { storeId: s.storeId } })).toBe(0);
  expect(await eventsOf(s)).toBe(before);
  // Without the bad row, the same policy imports everything.
  const ok = await imported(s, csv(['sku', 'name', 'price', 'category_slugs'], [['A-1', 'Fine', '1', 'shoes'], ['A-2', 'Also fine', '2', 'shirts']]));
  expect(ok).toMatchObject({ status: 'succeeded', committed: true, counts: { created: 2, rejected: 0 } });
  expect(await eventsOf(s, 'product.created')).toBe(2);
});

test('a dry run counts what the import would do and writes nothing, no event', async () => {
  const s = await createStoreFixture();
  const p = await createProduct(t, s, { name: 'Existing', price: 10 });
  const before = await eventsOf(s);
  const j = await imported(s, csv(['id', 'sku', 'name', 'price', 'category_slugs'], [['', 'D-1', 'New', '1', 'shoes'], [p.id, '', 'Renamed', '', ''], ['', 'D-2', 'Bad', 'x', 'shoes']]), {
    dry_run: 'true',
    error_policy: 'reject_failed_rows',
  });
  expect(j).toMatchObject({ status: 'succeeded', dry_run: true, committed: false, counts: { created: 1, updated: 1, rejected: 1 } });
  expect(j.errors).toHaveLength(1);
  expect(await db().product.count({ where: { storeId: s.storeId } })).toBe(1);
  expect((await db().product.findUnique({ where: { id: p.id } }))?.name).toBe('Existing');
  expect(await eventsOf(s)).toBe(before);
});

test('the export streams the filtered catalog in the import format; importing it back changes nothing (CSV and JSON Lines)', async () => {
  const s = await createStoreFixture();
  const first = await imported(
    s,
    csv(
      ['sku', 'name', 'description', 'price', 'status', 'category_slugs', 'tags', 'variants', 'seo_title', 'seo_slug', 'seo_noindex'],
      [
        ['RT-1', 'Round "trip", one', 'Line one\nline two', '19.90', 'active', 'shoes|hats', 'summer|sale', JSON.stringify([{ sku: 'RT-1', options: { size: 'S', colour: 'red' } }, { sku: 'RT-1-L', options: { size: 'L', colour: 'red' }, price: 21 }]), 'Shoe', 'rt-one', 'true'],
        ['RT-2', 'Round trip two', '', '5', 'draft', 'shirts', '', '', '', '', ''],
      ],
    ),
  );
  expect(first.counts).toMatchObject({ created: 2, rejected: 0 });
  const res = await exported(s);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="products-live.csv"');
  expect(res.text.split('\n')[0]).toBe('id,sku,name,description,price,inventory_quantity,low_stock_threshold,status,category_slugs,tags,product_type,attributes,options,variants,seo_title,seo_description,seo_slug,seo_canonical_url,seo_og_image_url,seo_noindex');
  const events = await eventsOf(s);
  const back = await imported(s, res.text);
  expect(back).toMatchObject({ status: 'succeeded', counts: { created: 0, updated: 0, unchanged: 2, rejected: 0 } });
  const jsonl = await exported(s, '?format=jsonl&is_active=true');
  expect(jsonl.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
  const lines = jsonl.text.trim().split('\n').map((l) => JSON.parse(l));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ sku: 'RT-1', name: 'Round "trip", one', category_slugs: ['hats', 'shoes'], seo_noindex: true, variants: [{ sku: 'RT-1' }, { sku: 'RT-1-L', price: 21 }] });
  const backJsonl = await imported(s, jsonl.text, { format: 'jsonl' });
  expect(backJsonl.counts).toMatchObject({ unchanged: 1, updated: 0 });
  expect(await eventsOf(s)).toBe(events);
  expectProblem(await exported(s, '?format=xml'), 422, 'validation_failed');
});

test('files that cannot be read are refused at upload with a stable code, never a 500; over the size limit: 413', async () => {
  const s = await createStoreFixture();
  const cases: [string | Buffer, string][] = [
    [Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xff, 0xfe, 0x41, 0x0a]), 'invalid_encoding'],
    ['name,colour\nA,red\n', 'unknown_column'],
    ['name,name\nA,B\n', 'duplicate_column'],
    ['', 'empty_file'],
    ['name,price\n"unclosed,1\n', 'malformed_csv'],
    [`name,price,category_slugs\n${'A,1,shoes\n'.repeat(501)}`, 'too_many_rows'],
  ];
  for (const [file, code] of cases) {
    const res = await upload(s, file);
    const p = expectProblem(res, 422, 'validation_failed');
    expect(p.errors).toEqual([{ field: 'file', code, message: expect.any(String) }]);
  }
  // A JSON Lines line that is not an object is a row error, not a file error.
  const j = await imported(s, '{"name":"A","price":1,"category_slugs":["shoes"]}\nnot json\n{"colour":"red"}\n', { format: 'jsonl', error_policy: 'reject_failed_rows' });
  expect(j.counts).toMatchObject({ created: 1, rejected: 2 });
  expect(j.errors.map((e: { code: string }) => e.code)).toEqual(['invalid_json', 'unknown_field']);
  const big = await upload(s, 'x'.repeat(200_001));
  expect(expectProblem(big, 413, 'payload_too_large').max_bytes).toBe(200000);
  expectProblem(await t.request('POST', `${base(s)}/imports`, { token: s.ownerToken, body: { file: 'x' } }), 415, 'unsupported_media_type');
  expectProblem(await t.request('POST', `${base(s)}/imports`, { token: s.ownerToken, rawBody: form([{ name: 'format', value: 'csv' }]) }), 422, 'validation_failed');
  expectProblem(await upload(s, 'name\nA\n', { error_policy: 'sometimes' }), 422, 'validation_failed');
  expectProblem(await upload(s, 'name\nA\n', { dry_run: 'maybe' }), 422, 'validation_failed');
  expect(await db().productImport.count({ where: { storeId: s.storeId } })).toBe(1);
});

test('permissions: importing needs products write permission, exporting products read permission; status of another store is 404', async () => {
  const s = await createStoreFixture();
  const other = await createStoreFixture();
  expectProblem(await upload(s, 'name\nA\n', {}, { token: s.viewerToken }), 403, 'forbidden');
  expectProblem(await upload(s, 'name\nA\n', {}, { token: other.ownerToken }), 403, 'forbidden');
  expectProblem(await t.request('POST', `${base(s)}/imports`, { rawBody: form([filePart(Buffer.from('name\n'), 'a.csv', 'text/csv', 'file')]) }), 401, 'unauthenticated');
  expectProblem(await exported(s, '', s.viewerToken), 403, 'forbidden');
  expect((await exported(s, '', s.staffToken)).status).toBe(200);
  const res = await upload(s, 'name,price,category_slugs\nA,1,shoes\n', {}, { token: s.staffToken });
  expect(res.status).toBe(202);
  expectProblem(await t.request('GET', `${base(other)}/imports/${res.body.data.id}`, { token: other.ownerToken }), 404, 'not_found');
  expectProblem(await t.request('GET', `${base(s)}/imports/${res.body.data.id}`, { token: s.viewerToken }), 403, 'forbidden');
  expectProblem(await t.request('GET', `${base(s)}/imports/not-a-uuid`, { token: s.ownerToken }), 404, 'not_found');
  await runWorker();
});

test('test mode: an import in test mode writes the test catalog, and the test export reads it', async () => {
  const s = await createStoreFixture();
  const j = await imported(s, csv(['sku', 'name', 'price', 'category_slugs'], [['T-1', 'Sandbox', '1', 'shoes']]), {}, { 'x-service-mode': 'test' });
  expect(j).toMatchObject({ status: 'succeeded', mode: 'test', counts: { created: 1 } });
  expect(await db().product.count({ where: { storeId: s.storeId, mode: 'test' } })).toBe(1);
  expect(await db().product.count({ where: { storeId: s.storeId, mode: 'live' } })).toBe(0);
  expect((await db().event.findFirst({ where: { storeId: s.storeId, type: 'product.created' } }))?.mode).toBe('test');
  const live = await exported(s);
  expect(live.text.trim().split('\n')).toHaveLength(1);
  const test = await exported(s, '', s.ownerToken, { 'x-service-mode': 'test' });
  expect(test.headers.get('content-disposition')).toBe('attachment; filename="products-test.csv"');
  expect(test.text).toContain('Sandbox');
});

test('a job whose runner died is taken over once its lease expires and runs to its end', async () => {
  const s = await createStoreFixture();
  const res = await upload(s, csv(['sku', 'name', 'price', 'category_slugs'], [['L-1', 'Leased', '1', 'shoes']]), { error_policy: 'reject_failed_rows' });
  // A runner that claimed it and stopped: running, lease in the past.
  await db().productImport.update({ where: { id: res.body.data.id }, data: { status: 'running', lockedUntil: new Date(Date.now() - 1000) } });
  await runWorker();
  expect(await job(s, res.body.data.id)).toMatchObject({ status: 'succeeded', counts: { created: 1 } });
});

export type { TestResponse };
