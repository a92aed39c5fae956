import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { type Receiver, startReceiver, testWorker } from '../helpers/webhooks';
import { filePart, form, makeImage, type Part, restUpload } from '../images/images';
import { createProduct, productPath, productsPath } from '../products/helpers';
import { gtin13 } from '../../src/kernel/gtin';
import { csv } from './helpers';

/**
 * An export imported back as it stands is a no-op, over the merchant REST API
 * and its worker, with a webhook endpoint listening: every row `unchanged`, no
 * new product version, no event (so no change-history entry and no delivery),
 * whatever the products were made of (no SEO record, variants, prices written
 * as "89.9", categories in any order, options, every variant field, a product
 * type and attribute values of several types). A row that changes one field leaves
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
  const rich = await richProduct(s);
  return { plain, rich };
}

const EAN = gtin13('400638133393');

/** The store's attributes of several types and a product type "Shirts" using them (care at the variant level). */
async function shirtsType(s: StoreFixture) {
  const post = async (path: string, body: unknown) => {
    const res = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/${path}`, { token: s.ownerToken, body });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  await post('attributes', { code: 'material', name: 'Material', type: 'multiselect', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }] });
  await post('attributes', { code: 'capacity', name: 'Capacity', type: 'numeric', unit: 'l' });
  await post('attributes', { code: 'released', name: 'Released', type: 'date' });
  await post('attributes', { code: 'care', name: 'Care', type: 'rich_text' });
  await post('attributes', { code: 'wash', name: 'Wash', type: 'dropdown', values: [{ value: 'cold', name: 'Cold' }, { value: 'warm', name: 'Warm' }] });
  return post('product-types', {
    name: 'Shirts',
    product_attributes: [{ code: 'material', required: true }, { code: 'capacity' }, { code: 'released' }, { code: 'care' }],
    variant_attributes: [{ code: 'wash' }],
  });
}

/** A product with options, a type, attribute values, and variants carrying every field (an image of its own among them). */
async function richProduct(s: StoreFixture) {
  await shirtsType(s);
  const types = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/product-types`, { token: s.ownerToken });
  const type = types.body.data.find((x: { name: string }) => x.name === 'Shirts');
  const p = await createProduct(t, s, {
    name: 'Rich shirt',
    price: 30,
    category_slugs: ['shirts'],
    product_type_id: type.id,
    attributes: { material: ['linen', 'cotton'], capacity: 1.5, released: '2026-03-01', care: '<p>Wash <em>cold</em></p>' },
  });
  const image = (await restUpload(t, s.storeId, s.ownerToken, [{ name: 'product_id', value: p.id }, filePart(await makeImage('png'), 'a.png', 'image/png')])).body.data;
  const options = await t.request('PUT', `${productPath(s.storeId, p.id)}/options`, { token: s.ownerToken, body: { options: [{ name: 'Size', values: ['S', 'M'] }, { name: 'Colour', values: ['Blue'] }] } });
  expect(options.status).toBe(200);
  const variants = await t.request('PUT', `${productPath(s.storeId, p.id)}/variants`, {
    token: s.ownerToken,
    body: {
      variants: [
        { sku: 'RICH-S', options: { Size: 'S', Colour: 'Blue' }, barcode: EAN, compare_at_price: 39.9, cost: '12.35', weight: { value: 0.25, unit: 'kg' }, image_id: image.id, attributes: { wash: 'cold' } },
        { sku: 'RICH-M', options: { Size: 'M', Colour: 'Blue' }, price: 32, weight: { value: 9, unit: 'oz' }, attributes: {} },
      ],
    },
  });
  expect(variants.status).toBe(200);
  return { ...p, imageId: image.id as string, productTypeId: type.id as string };
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
  // The rich product is in the file with its options, type, attribute values and every variant field.
  for (const part of ['Shirts', 'Colour', 'capacity', 'released', 'compare_at_price', 'cost', 'weight', 'image_id', 'wash']) expect(file).toContain(part);
  for (const policy of ['reject_everything', 'reject_failed_rows']) {
    const job = await imported(s, file, { format, error_policy: policy });
    expect(job).toMatchObject({ status: 'succeeded', committed: true, counts: { created: 0, updated: 0, unchanged: 5, rejected: 0, errors: 0 } });
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
  expect(job.counts).toMatchObject({ created: 0, updated: 1, unchanged: 4, rejected: 0 });
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

test('an import sets options, every variant field, the product type and attribute values, on create and on update, and reports every error of a row at once', async () => {
  const s = await createStoreFixture();
  await shirtsType(s);
  const existing = await createProduct(t, s, { name: 'To enrich', price: 10, category_slugs: ['shirts'] });
  const EAN8 = '96385074';
  const rows = [
    {
      sku: 'NEW-S',
      name: 'New shirt',
      price: 20,
      category_slugs: ['shirts'],
      product_type: 'Shirts',
      attributes: { material: ['cotton'], capacity: 2, released: '2026-01-02', care: '<p>Hi<script>x()</script></p>' },
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { sku: 'NEW-S', options: { Size: 'S' }, barcode: EAN, compare_at_price: 25, cost: 8, weight: { value: 100, unit: 'g' }, attributes: { wash: 'warm' } },
        { sku: 'NEW-M', options: { Size: 'M' }, price: 21, inventory_quantity: 4 },
      ],
    },
    {
      id: existing.id,
      product_type: 'Shirts',
      attributes: { material: ['linen'] },
      options: [{ name: 'Colour', values: ['Red', 'Green'] }],
      variants: [
        { sku: 'UPD-R', options: { Colour: 'Red' }, cost: 3 },
        { sku: 'UPD-G', options: { Colour: 'Green' }, barcode: EAN8 },
      ],
    },
    { sku: 'BAD-1', name: 'Bad', price: 20, category_slugs: ['shirts'], product_type: 'Trousers', variants: [{ sku: 'BAD-1', barcode: '12345' }] },
    {
      sku: 'BAD-2',
      name: 'Bad too',
      price: 20,
      category_slugs: ['shirts'],
      product_type: 'Shirts',
      attributes: { material: ['silk'] },
      options: [{ name: 'Size', values: ['S'] }],
      variants: [{ sku: 'BAD-2', options: { Size: 'S' }, compare_at_price: 15 }, { sku: 'BAD-3', options: {} }],
    },
  ];
  const job = await imported(s, rows.map((r) => JSON.stringify(r)).join('\n') + '\n', { format: 'jsonl', error_policy: 'reject_failed_rows' });
  expect(job.counts).toMatchObject({ created: 1, updated: 1, rejected: 2 });
  expect(job.errors).toEqual([
    { row: 3, field: 'product_type', code: 'unknown_product_type', message: 'no product type named "Trousers" in this store' },
    { row: 3, field: 'variants.0.barcode', code: 'invalid_barcode', message: expect.any(String) },
    { row: 4, field: 'attributes.material', code: 'invalid_value', message: expect.any(String) },
    { row: 4, field: 'variants.1.options', code: 'missing_option', message: expect.any(String) },
    { row: 4, field: 'variants.0.compare_at_price', code: 'compare_at_price_not_above_price', message: expect.any(String) },
  ]);

  const types = await t.request('GET', `/api/v1/merchant/stores/${s.storeId}/product-types`, { token: s.ownerToken });
  const typeId = types.body.data[0].id;
  const list = await t.request('GET', `${base(s)}?per_page=100`, { token: s.ownerToken });
  const created = list.body.data.find((p: { name: string }) => p.name === 'New shirt');
  expect(created).toMatchObject({
    product_type_id: typeId,
    attributes: { material: ['cotton'], capacity: 2, released: '2026-01-02', care: '<p>Hi</p>' },
    options: [{ name: 'Size', values: ['S', 'M'] }],
  });
  const createdVariants = await t.request('GET', `${productPath(s.storeId, created.id)}/variants`, { token: s.ownerToken });
  expect(createdVariants.body.data).toEqual([
    expect.objectContaining({ sku: 'NEW-S', options: { Size: 'S' }, barcode: EAN, compare_at_price: 25, cost: 8, weight: { value: 100, unit: 'g' }, attributes: { wash: 'warm' } }),
    expect.objectContaining({ sku: 'NEW-M', options: { Size: 'M' }, price: 21, inventory_quantity: 4, barcode: null, cost: null, weight: null }),
  ]);
  const updated = await t.request('GET', productPath(s.storeId, existing.id), { token: s.ownerToken });
  expect(updated.body.data).toMatchObject({ product_type_id: typeId, attributes: { material: ['linen'] }, options: [{ name: 'Colour', values: ['Red', 'Green'] }] });
  const updatedVariants = await t.request('GET', `${productPath(s.storeId, existing.id)}/variants`, { token: s.ownerToken });
  expect(updatedVariants.body.data).toEqual([
    expect.objectContaining({ sku: 'UPD-R', options: { Colour: 'Red' }, cost: 3 }),
    expect.objectContaining({ sku: 'UPD-G', options: { Colour: 'Green' }, barcode: EAN8 }),
  ]);
  // The created product's event carries what the import set.
  const changes = await t.request('GET', `${productPath(s.storeId, created.id)}/changes`, { token: s.ownerToken });
  expect(changes.body.data.map((c: { type: string }) => c.type)).toEqual(['product.created']);

  // The attributes cell is the whole set: a code left out is cleared; an empty product_type removes the type.
  const again = await imported(s, csv(['id', 'attributes'], [[created.id, JSON.stringify({ material: ['linen'] })]]));
  expect(again.counts).toMatchObject({ updated: 1, rejected: 0 });
  expect((await t.request('GET', productPath(s.storeId, created.id), { token: s.ownerToken })).body.data.attributes).toEqual({ material: ['linen'] });
  const untyped = await imported(s, csv(['id', 'product_type'], [[existing.id, '']]));
  expect(untyped.counts).toMatchObject({ updated: 1, rejected: 0 });
  expect((await t.request('GET', productPath(s.storeId, existing.id), { token: s.ownerToken })).body.data).toMatchObject({ product_type_id: null, attributes: {} });
});
