import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { type Receiver, startReceiver, testWorker } from '../helpers/webhooks';
import { filePart, form, type Part } from '../images/images';
import { createProduct, productPath, productsPath } from '../products/helpers';
import { csv } from './helpers';

/**
 * An export imported back as it stands is a no-op, over the merchant REST API
 * and its worker, with a webhook endpoint listening: every row `unchanged`, no
 * new product version, no event (so no change-history entry and no delivery),
 * whatever the products were made of (no SEO record, variants, prices written
 * as "89.9", categories in any order). A row that changes one field leaves
 * that change's events alone. Unknown categories are row errors naming the
 * column and the slug, beside every other error of the row.
 */

let t: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const runWorker = () => testWorker(t).runOnce();
const base = (s: StoreFixture) => productsPath(s.storeId);

/** Uploads the file as an import job, runs the worker (which also delivers webhooks), and returns the finished job. */
async function imported(s: StoreFixture, file: string, fields: Record<string, string> = {}) {
  const res = await t.request('POST', `${base(s)}/imports`, {
    token: s.ownerToken,
    rawBody: form([filePart(Buffer.from(file), 'products.txt', 'text/plain', 'file'), ...Object.entries(fields).map(([name, value]): Part => ({ name, value }))]),
  });
  expect(res.status).toBe(202);
  await runWorker();
  const job = await t.request('GET', `${base(s)}/imports/${res.body.data.id}`, { token: s.ownerToken });
  expect(job.status).toBe(200);
  return job.body.data;
}

/** What a user can see changing: each product's version (REST), the store's change history, the webhook deliveries. */
async function observed(s: StoreFixture, endpointId: string) {
  const list = await t.request('GET', `${base(s)}?per_page=100`, { token: s.ownerToken });
  expect(list.status).toBe(200);
  const versions = Object.fromEntries(list.body.data.map((p: { id: string; version: number }) => [p.id, p.version]));
  const changes = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/changes?limit=100`, { token: s.ownerToken });
  expect(changes.status).toBe(200);
  const messages = await t.database.prisma.webhookMessage.count({ where: { endpointId } });
  return { versions, changes: changes.body.data.map((c: { id: string; type: string }) => `${c.type} ${c.id}`), messages };
}

/** A catalog made the ways a merchant makes one: bare products (no SEO record, no variants), variants, an SEO record, loose price formats. */
async function catalog(s: StoreFixture) {
  const plain = await createProduct(t, s, { name: 'Plain', price: 10 });
  await createProduct(t, s, {
    name: 'Café "Crème", large',
    description: 'Line one\nline two, with ünïcode — and a "quote"',
    price: '89.9',
    inventory_quantity: 3,
    low_stock_threshold: 7,
    category_slugs: ['shoes', 'hats'],
    tags: ['summer', 'sale'],
    status: 'active',
  });
  const withParts = await createProduct(t, s, { name: 'With variants and SEO', price: 20, category_slugs: ['shirts'], status: 'archived' });
  const variants = await t.request('PUT', `${productPath(s.storeId, withParts.id)}/variants`, {
    token: s.ownerToken,
    body: { variants: [{ sku: 'V-1', options: { size: 'S', colour: 'red' } }, { sku: 'V-2', title: 'Large', options: { size: 'L', colour: 'red' }, price: 21.5, inventory_quantity: 4 }] },
  });
  expect(variants.status).toBe(200);
  const seo = await t.request('PUT', `${productPath(s.storeId, withParts.id)}/seo`, {
    token: s.ownerToken,
    body: { title: 'A shirt', slug: 'a-shirt', canonical_url: 'https://shop.example.com/a-shirt', noindex: true },
  });
  expect(seo.status).toBe(200);
  // A product whose SEO record was set and then cleared: a record of nulls.
  const cleared = await createProduct(t, s, { name: 'Cleared SEO', price: 0.5 });
  expect((await t.request('PUT', `${productPath(s.storeId, cleared.id)}/seo`, { token: s.ownerToken, body: { title: 'Soon gone' } })).status).toBe(200);
  expect((await t.request('PUT', `${productPath(s.storeId, cleared.id)}/seo`, { token: s.ownerToken, body: {} })).status).toBe(200);
  return { plain };
}

/** A store with a catalog and a webhook endpoint for every event type; what was recorded so far is delivered. */
async function storeWithEndpoint() {
  const s = await createStoreFixture();
  const made = await catalog(s);
  const endpoint = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/webhook-endpoints`, { token: s.ownerToken, body: { url: receiver.url, event_types: ['*'] } });
  expect(endpoint.status).toBe(201);
  await runWorker();
  receiver.reset();
  return { s, endpointId: endpoint.body.data.id as string, ...made };
}

test.each([
  ['csv', ''],
  ['jsonl', '?format=jsonl'],
])('an untouched %s export imports back as unchanged rows: no version, no event, no change-history entry, no webhook', async (format, query) => {
  const { s, endpointId } = await storeWithEndpoint();
  const before = await observed(s, endpointId);
  const file = (await t.request('GET', `${base(s)}/export${query}`, { token: s.ownerToken })).text;
  for (const policy of ['reject_everything', 'reject_failed_rows']) {
    const job = await imported(s, file, { format, error_policy: policy });
    expect(job).toMatchObject({ status: 'succeeded', committed: true, counts: { created: 0, updated: 0, unchanged: 4, rejected: 0, errors: 0 } });
    expect(await observed(s, endpointId)).toEqual(before);
  }
  expect(receiver.requests).toEqual([]);
  // The same file through the export again: nothing moved.
  expect((await t.request('GET', `${base(s)}/export${query}`, { token: s.ownerToken })).text).toBe(file);
});

test('a row that changes one field is updated and leaves exactly the events of that change; the other rows stay unchanged', async () => {
  const { s, endpointId, plain } = await storeWithEndpoint();
  const before = await observed(s, endpointId);
  const rows: Record<string, string>[] = parse((await t.request('GET', `${base(s)}/export`, { token: s.ownerToken })).text, { columns: true });
  // The other rows as a spreadsheet may write them back: prices with two decimals, categories in another order.
  const reformatted = (r: Record<string, string>) => ({ ...r, price: Number(r.price).toFixed(2), category_slugs: r.category_slugs.split('|').reverse().join('|') });
  expect(rows.map((r) => r.price)).toContain('89.9');
  const edited = rows.map((r) => (r.id === plain.id ? { ...r, price: '12.50' } : reformatted(r)));
  const job = await imported(s, stringify(edited, { header: true }));
  expect(job.counts).toMatchObject({ created: 0, updated: 1, unchanged: 3, rejected: 0 });
  const after = await observed(s, endpointId);
  expect(after.versions).toEqual({ ...before.versions, [plain.id]: before.versions[plain.id] + 1 });
  const changes = await t.request('GET', `${productPath(s.storeId, plain.id)}/changes`, { token: s.ownerToken });
  expect(changes.body.data[0]).toMatchObject({ type: 'product.updated', changes: [expect.objectContaining({ field: 'price' })] });
  expect(changes.body.data[0].changes).toHaveLength(1);
  expect(after.changes).toEqual([`product.updated ${changes.body.data[0].id}`, ...before.changes]);
  const delivered = await receiver.waitFor(1);
  expect(delivered.map((r) => JSON.parse(r.body).type)).toEqual(['product.updated']);
  expect(after.messages).toBe(before.messages + 1);
});

test('an unknown category slug is a row error naming the column and the slug, reported beside the row\'s other errors, on create and on update', async () => {
  const s = await createStoreFixture();
  const existing = await createProduct(t, s, { name: 'Existing', price: 10 });
  const job = await imported(
    s,
    csv(
      ['id', 'sku', 'name', 'price', 'category_slugs'],
      [
        ['', 'NEW-1', 'New', '5', 'shoes|sandals'],
        [existing.id, '', '', '', 'hats|boots'],
        ['', 'NEW-2', 'New too', '-1', 'clogs'],
        ['', 'NEW-3', 'Fine', '1', 'shoes'],
      ],
    ),
    { error_policy: 'reject_failed_rows' },
  );
  expect(job.counts).toMatchObject({ created: 1, updated: 0, rejected: 3 });
  const unknown = (row: number, slug: string) => ({ row, field: 'category_slugs', code: 'unknown_category', message: `no category with slug "${slug}" in this store` });
  expect(job.errors).toEqual([unknown(2, 'sandals'), unknown(3, 'boots'), { row: 4, field: 'price', code: expect.any(String), message: expect.any(String) }, unknown(4, 'clogs')]);
  // The documented code: the one a product create answers for the same slug.
  const create = await t.request('POST', base(s), { token: s.ownerToken, body: { name: 'X', price: 1, category_slugs: ['sandals'] } });
  expect(create.body.code).toBe('unknown_category');
  expect(create.body.errors.map((e: { code: string }) => e.code)).toEqual(['unknown_category']);
});
