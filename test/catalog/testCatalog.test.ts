import { db } from '../../src/platform/db/client';
import { STATUS_BY_CODE } from '../../src/platform/errors';
import { JOB_LEASE_MS, MAX_TEST_CATALOG_COPY, runDueTestCatalogJobs, startTestCatalogCopy } from '../../src/catalog/services/testCatalog';
import { cliOn, serveDataDir } from '../helpers/cli';
import { testContext } from '../helpers/context';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';
import { controllableClock, testWorker } from '../helpers/webhooks';
import { filePart, makeImage, restUpload } from '../images/images';
import { createProduct, expectGqlError, expectProblem, gqlData } from '../products/helpers';
import { createKey } from '../public/helpers';

/**
 * Sandbox tools (issue 11, item 3): copying live products into the test
 * catalog and deleting the test catalog, as jobs the worker runs, through the
 * merchant REST API, the dashboard GraphQL and the CLI, on the real database.
 */

let t: TestServer;
const clock = controllableClock();
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await startTestServer({}, { now: clock.now });
});
afterAll(() => t.close());

type Mode = 'test' | 'live';
const base = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}`;
const copy = (s: StoreFixture, body?: unknown, token = s.ownerToken) => t.request('POST', `${base(s)}/test-catalog/copy`, { token, body });
const deleteTest = (s: StoreFixture, token = s.ownerToken) => t.request('DELETE', `${base(s)}/test-catalog`, { token });
const getJob = async (s: StoreFixture, id: string) => {
  const res = await t.request('GET', `${base(s)}/test-catalog/jobs/${id}`, { token: s.ownerToken });
  expect(res.status).toBe(200);
  return res.body.data;
};
const list = (s: StoreFixture, mode: Mode, query = 'per_page=100') => t.request('GET', `${base(s)}/products?${query}`, { token: s.ownerToken, headers: { 'x-service-mode': mode } });
const names = (res: TestResponse) => (res.body.data as { name: string }[]).map((p) => p.name);
/** The worker as the service runs it, on the service's clock: every due job to its end. */
const runWorker = () => testWorker(t, { now: clock.now }).runOnce();

/** A product copy compares equal to its original once what belongs to the record itself (id, version, times, image ids) is left out. */
function comparable(p: Record<string, any>) {
  const { id: _id, version: _v, created_at: _c, updated_at: _u, publish_at: _p, unpublish_at: _up, images, seo, ...rest } = p;
  return { ...rest, images: images.map(({ id: _i, ...image }: Record<string, unknown>) => image), seo: seo && { ...seo, updated_at: undefined } };
}

/**
 * A store with four live products: an active shoe with two variants, an SEO
 * slug, an image and a pending unpublish_at; a draft shirt; an active and an
 * archived hat.
 */
async function seededStore() {
  const s = await createStoreFixture();
  // Product types are the store's, shared by both catalogs: a copy keeps the type and the values.
  const material = await t.request('POST', `${base(s)}/attributes`, { token: s.ownerToken, body: { code: 'material', name: 'Material', type: 'dropdown', values: [{ value: 'mesh', name: 'Mesh' }] } });
  const footwear = await t.request('POST', `${base(s)}/product-types`, { token: s.ownerToken, body: { name: 'Footwear', product_attributes: [{ code: 'material' }] } });
  expect([material.status, footwear.status]).toEqual([201, 201]);
  const shoe = await createProduct(t, s, {
    name: 'Trail Shoe',
    price: 89.9,
    category_slugs: ['shoes'],
    tags: ['outdoor'],
    product_type_id: footwear.body.data.id,
    attributes: { material: 'mesh' },
    status: 'active',
    unpublish_at: new Date(clock.now().getTime() + 24 * HOUR).toISOString(),
  });
  const variants = await t.request('PUT', `${base(s)}/products/${shoe.id}/variants`, {
    token: s.ownerToken,
    body: { variants: [{ sku: `TS-42-${s.storeId.slice(0, 8)}`, options: { size: '42' }, inventory_quantity: 3 }, { sku: `TS-43-${s.storeId.slice(0, 8)}`, options: { size: '43' }, price: 95 }] },
  });
  expect(variants.status).toBe(200);
  expect((await t.request('PUT', `${base(s)}/products/${shoe.id}/seo`, { token: s.ownerToken, body: { slug: 'trail-shoe', title: 'Trail Shoe' } })).status).toBe(200);
  const image = await restUpload(t, s.storeId, s.ownerToken, [filePart(await makeImage('png'), 'shoe.png', 'image/png'), { name: 'product_id', value: shoe.id }, { name: 'alt', value: 'Side view' }]);
  expect(image.status).toBe(201);
  await createProduct(t, s, { name: 'Linen Shirt', price: 45, category_slugs: ['shirts'], tags: ['summer'] });
  await createProduct(t, s, { name: 'Sun Hat', price: 25, category_slugs: ['hats'], tags: ['summer', 'outdoor'], status: 'active', inventory_quantity: 2 });
  await createProduct(t, s, { name: 'Wool Hat', price: 30, category_slugs: ['hats', 'shoes'], tags: ['winter'], status: 'archived' });
  return { s, shoe };
}

describe('copying live products into the test catalog', () => {
  it('copies every live product in the background: 202 with the queued job, then the worker copies; the live catalog stays byte for byte', async () => {
    const { s, shoe } = await seededStore();
    const liveBefore = await list(s, 'live');
    expect(liveBefore.body.meta.total).toBe(4);
    expect((await list(s, 'test')).body.data).toEqual([]);

    const res = await copy(s);
    expect(res.status).toBe(202);
    const job = res.body.data;
    expect(job).toEqual({
      id: expect.any(String),
      store_id: s.storeId,
      kind: 'copy_live',
      status: 'queued',
      filter: { search: null, category: null, tags: null, status: null, is_active: null },
      total: 4,
      done: 0,
      skipped: 0,
      error: null,
      requested_by: 'Owner',
      created_at: clock.now().toISOString(),
      started_at: null,
      finished_at: null,
    });
    expect(res.headers.get('location')).toBe(`${t.url}${base(s)}/test-catalog/jobs/${job.id}`);
    expect(await getJob(s, job.id)).toEqual(job);
    // Nothing was copied by the request.
    expect((await list(s, 'test')).body.data).toEqual([]);

    await runWorker();
    const finished = await getJob(s, job.id);
    expect(finished).toEqual({ ...job, status: 'succeeded', done: 4, started_at: expect.any(String), finished_at: expect.any(String) });

    const liveAfter = await list(s, 'live');
    expect(liveAfter.text).toBe(liveBefore.text);

    // The copies, in test mode only: the same products in the same order, but new records without the schedule.
    const test = await list(s, 'test');
    expect(test.headers.get('x-service-mode')).toBe('test');
    expect(test.body.meta.total).toBe(4);
    expect(test.body.data.map(comparable)).toEqual(liveBefore.body.data.map(comparable));
    const testIds: string[] = test.body.data.map((p: { id: string }) => p.id);
    const liveIds: string[] = liveBefore.body.data.map((p: { id: string }) => p.id);
    expect(testIds.filter((id) => liveIds.includes(id))).toEqual([]);
    for (const p of test.body.data) expect(p).toMatchObject({ version: 1, publish_at: null, unpublish_at: null });
    const shoeCopy = test.body.data.find((p: { name: string }) => p.name === 'Trail Shoe');
    expect(shoeCopy).toMatchObject({ status: 'active', published_at: shoe.published_at, category_slugs: ['shoes'], tags: ['outdoor'], variants_count: 2 });
    expect(shoeCopy).toMatchObject({ product_type_id: shoe.product_type_id, attributes: { material: 'mesh' } });
    expect(shoeCopy.seo).toMatchObject({ slug: 'trail-shoe', title: 'Trail Shoe' });
    expect(shoeCopy.images).toEqual([expect.objectContaining({ alt: 'Side view', sha256: expect.any(String) })]);
    expect(shoeCopy.images[0].url).toBe(liveBefore.body.data.find((p: { id: string }) => p.id === shoe.id).images[0].url);

    // Variants copied with their SKUs, in test mode.
    const variantsOf = async (id: string, mode: Mode) =>
      (await t.request('GET', `${base(s)}/products/${id}/variants`, { token: s.ownerToken, headers: { 'x-service-mode': mode } })).body.data.map(
        ({ id: _id, created_at: _c, updated_at: _u, ...v }: Record<string, unknown>) => v,
      );
    expect(await variantsOf(shoeCopy.id, 'test')).toEqual(await variantsOf(shoe.id, 'live'));
    expect(await db().variant.count({ where: { productId: shoeCopy.id, mode: 'test' } })).toBe(2);

    // A copy is a test product: 404 in live mode, and the live product is 404 in test mode.
    expect((await t.request('GET', `${base(s)}/products/${shoeCopy.id}`, { token: s.ownerToken })).status).toBe(404);
    expect((await t.request('GET', `${base(s)}/products/${shoeCopy.id}`, { token: s.ownerToken, headers: { 'x-service-mode': 'test' } })).status).toBe(200);
    expect((await t.request('GET', `${base(s)}/products/${shoe.id}`, { token: s.ownerToken, headers: { 'x-service-mode': 'test' } })).status).toBe(404);
    // Search in test mode finds the copy by a variant SKU (search text copied).
    expect(names(await list(s, 'test', `search=${encodeURIComponent(`ts-42-${s.storeId.slice(0, 8)}`)}`))).toEqual(['Trail Shoe']);

    expect(await t.request('GET', `${base(s)}/test-catalog/jobs`, { token: s.ownerToken })).toMatchObject({ status: 200, body: { data: [finished] } });
  });

  it('copies only the products matching a filter (search, category, tags, status), and records the filter in the job', async () => {
    const { s } = await seededStore();
    const res = await copy(s, { search: 'hat', tags: ['summer', 'winter'], status: 'active' });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ filter: { search: 'hat', category: null, tags: ['summer', 'winter'], status: 'active', is_active: null }, total: 1 });
    await runWorker();
    expect(await getJob(s, res.body.data.id)).toMatchObject({ status: 'succeeded', total: 1, done: 1, skipped: 0 });
    expect(names(await list(s, 'test'))).toEqual(['Sun Hat']);

    const byCategory = await copy(s, { category: 'hats' });
    expect(byCategory.body.data).toMatchObject({ total: 2, filter: { category: 'hats' } });
    await runWorker();
    expect(names(await list(s, 'test', 'per_page=100&sort=name'))).toEqual(['Sun Hat', 'Sun Hat', 'Wool Hat']);

    const inactive = await copy(s, { is_active: false, category: 'shoes' });
    expect(inactive.body.data).toMatchObject({ total: 1, filter: { is_active: false, category: 'shoes' } });
    await runWorker();
    expect(names(await list(s, 'test', 'per_page=100&sort=name'))).toEqual(['Sun Hat', 'Sun Hat', 'Wool Hat', 'Wool Hat']);

    // A filter that names no category of the store is a mistake, not an empty copy; unknown fields are named.
    expectProblem(await copy(s, { category: 'boots' }), 422, 'unknown_category');
    const unknown = expectProblem(await copy(s, { colour: 'red' }), 422, 'validation_failed');
    expect(unknown.errors).toEqual([expect.objectContaining({ field: 'colour', code: 'unknown_field' })]);
    expectProblem(await copy(s, { status: 'sold' }), 422, 'validation_failed');
  });

  it('shows its progress batch by batch, and a job whose runner stopped is taken over once its lease has expired', async () => {
    const s = await createStoreFixture();
    const start = clock.now().getTime() - HOUR;
    await db().product.createMany({
      data: Array.from({ length: 450 }, (_, i) => {
        const name = `Item ${String(i).padStart(3, '0')}`;
        return { storeId: s.storeId, mode: 'live' as const, name, price: '1.00', searchText: name.toLowerCase(), createdAt: new Date(start + i * 1000) };
      }),
    });
    const res = await copy(s);
    expect(res.body.data).toMatchObject({ status: 'queued', total: 450, done: 0 });
    const id = res.body.data.id;
    const runner = () => runDueTestCatalogJobs(t.app.systemContext(), { limit: 1 });

    expect(await runner()).toBe(1);
    expect(await getJob(s, id)).toMatchObject({ status: 'running', total: 450, done: 200, skipped: 0, started_at: clock.now().toISOString(), finished_at: null });
    expect(await db().product.count({ where: { storeId: s.storeId, mode: 'test' } })).toBe(200);

    // Another runner holds the job (it took it and stopped without a word): nobody else touches it until the lease expires.
    await db().testCatalogJob.update({ where: { id }, data: { lockedUntil: new Date(clock.now().getTime() + JOB_LEASE_MS) } });
    expect(await runner()).toBe(0);
    expect(await getJob(s, id)).toMatchObject({ status: 'running', done: 200 });
    clock.advance(JOB_LEASE_MS + 1000);
    expect(await runner()).toBe(1);
    expect(await getJob(s, id)).toMatchObject({ status: 'running', done: 400 });

    await runWorker();
    expect(await getJob(s, id)).toMatchObject({ status: 'succeeded', total: 450, done: 450, skipped: 0 });
    // Each live product once, in the live catalog's order.
    const copies = await db().product.findMany({ where: { storeId: s.storeId, mode: 'test' }, select: { name: true } });
    expect(new Set(copies.map((p) => p.name)).size).toBe(450);
    expect(names(await list(s, 'test'))).toEqual(names(await list(s, 'live')));
    expect(names(await list(s, 'test', 'per_page=100&page=5'))).toEqual(names(await list(s, 'live', 'per_page=100&page=5')));
  });

  it(`refuses more than ${MAX_TEST_CATALOG_COPY} matching products (422 too_many_products) before recording anything`, async () => {
    expect(MAX_TEST_CATALOG_COPY).toBe(10_000);
    expect(STATUS_BY_CODE.too_many_products).toBe(422);
    const { s } = await seededStore();
    // The cap is lowered for the test instead of seeding 10,001 products.
    await expect(startTestCatalogCopy(testContext(), s.storeId, {}, { maxProducts: 3 })).rejects.toMatchObject({
      code: 'too_many_products',
      status: 422,
      message: expect.stringContaining('matches 4 live products; one copy takes at most 3'),
      details: { max_products: 3 },
    });
    expect(await db().testCatalogJob.count({ where: { storeId: s.storeId } })).toBe(0);
    // A narrower filter, or exactly the cap, is accepted.
    await expect(startTestCatalogCopy(testContext(), s.storeId, { category: 'hats' }, { maxProducts: 3 })).resolves.toMatchObject({ total: 2, status: 'queued' });
    await runWorker();
    await expect(startTestCatalogCopy(testContext(), s.storeId, {}, { maxProducts: 4 })).resolves.toMatchObject({ total: 4 });
  });

  it('refuses a second job while one of the store is queued or running (409), even when both arrive at once', async () => {
    const { s } = await seededStore();
    const [first, second] = await Promise.all([copy(s), copy(s, { category: 'hats' })]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const refused = expectProblem(first.status === 409 ? first : second, 409, 'conflict');
    const queued = (first.status === 202 ? first : second).body.data;
    expect(refused.detail).toContain(queued.id);
    expect(refused.job_id).toBe(queued.id);
    expectProblem(await copy(s), 409, 'conflict');
    expectProblem(await deleteTest(s), 409, 'conflict');
    // Another store is not held up.
    expect((await copy((await seededStore()).s)).status).toBe(202);

    await runWorker();
    expect(await getJob(s, queued.id)).toMatchObject({ status: 'succeeded' });
    expect((await copy(s)).status).toBe(202);
  });

  it('skips a product whose SKU or SEO slug the test catalog already holds (counted in skipped); others are copied again', async () => {
    const { s } = await seededStore();
    const first = (await copy(s)).body.data;
    await runWorker();
    expect(await getJob(s, first.id)).toMatchObject({ status: 'succeeded', done: 4, skipped: 0 });
    const second = (await copy(s)).body.data;
    await runWorker();
    expect(await getJob(s, second.id)).toMatchObject({ status: 'succeeded', total: 4, done: 3, skipped: 1 });
    expect(names(await list(s, 'test', 'per_page=100&sort=name'))).toEqual(['Linen Shirt', 'Linen Shirt', 'Sun Hat', 'Sun Hat', 'Trail Shoe', 'Wool Hat', 'Wool Hat']);

    // A test product made by hand with the slug: the shoe is skipped for it too.
    const { s: other } = await seededStore();
    const mine = await t.request('POST', `${base(other)}/products`, { token: other.ownerToken, headers: { 'x-service-mode': 'test' }, body: { name: 'Mine', price: 1, category_slugs: ['shoes'] } });
    expect((await t.request('PUT', `${base(other)}/products/${mine.body.data.id}/seo`, { token: other.ownerToken, headers: { 'x-service-mode': 'test' }, body: { slug: 'trail-shoe' } })).status).toBe(200);
    const third = (await copy(other)).body.data;
    await runWorker();
    expect(await getJob(other, third.id)).toMatchObject({ status: 'succeeded', done: 3, skipped: 1 });
  });

  it('copies options, product type, attribute values and every variant field; a variant image is the copy\'s own image row', async () => {
    const { s, shoe } = await seededStore();
    // The shoe has a product type and values (seededStore); options and variant fields are written to the rows directly:
    // this test is about what the copy carries over, whatever wrote the values.
    const liveImage = await db().productImage.findFirstOrThrow({ where: { productId: shoe.id } });
    await db().product.update({
      where: { id: shoe.id },
      data: { options: [{ name: 'size', values: ['42', '43'] }] },
    });
    const liveVariants = await db().variant.findMany({ where: { productId: shoe.id }, orderBy: { position: 'asc' } });
    await db().variant.update({
      where: { id: liveVariants[0].id },
      data: { barcode: '4006381333931', compareAtPrice: '99.90', cost: '41.25', weightValue: '0.350', weightUnit: 'kg', imageId: liveImage.id, attributes: { width: 'wide' } },
    });

    await copy(s);
    await runWorker();
    const shoeCopy = await db().product.findFirstOrThrow({ where: { storeId: s.storeId, mode: 'test', name: 'Trail Shoe' }, include: { variants: { orderBy: { position: 'asc' } }, images: true } });
    expect(shoeCopy).toMatchObject({ options: [{ name: 'size', values: ['42', '43'] }], productTypeId: shoe.product_type_id, attributes: { material: 'mesh' } });
    const [first, second] = shoeCopy.variants;
    expect({ ...first, compareAtPrice: String(first.compareAtPrice), cost: String(first.cost), weightValue: String(first.weightValue) }).toMatchObject({
      barcode: '4006381333931',
      compareAtPrice: '99.9',
      cost: '41.25',
      weightValue: '0.35',
      weightUnit: 'kg',
      attributes: { width: 'wide' },
      imageId: shoeCopy.images[0].id,
    });
    expect(shoeCopy.images[0].id).not.toBe(liveImage.id);
    expect(second).toMatchObject({ barcode: null, compareAtPrice: null, cost: null, weightValue: null, weightUnit: null, imageId: null, attributes: {} });
    // The live variant still points at the live image.
    expect((await db().variant.findUniqueOrThrow({ where: { id: liveVariants[0].id } })).imageId).toBe(liveImage.id);
  });

  it('copies translations with their outdated marks; a product whose translated slug the test catalog holds in that locale is skipped', async () => {
    const s = await createStoreFixture();
    expect((await t.request('POST', `${base(s)}/locales`, { token: s.ownerToken, body: { locale: 'de' } })).status).toBe(201);
    const made = async (mode: Mode, body: Record<string, unknown>) => {
      const res = await t.request('POST', `${base(s)}/products`, { token: s.ownerToken, headers: { 'x-service-mode': mode }, body: { price: 10, category_slugs: ['shirts'], ...body } });
      expect(res.status).toBe(201);
      return res.body.data;
    };
    const shirt = await made('live', {
      name: 'Linen Shirt',
      options: [{ name: 'Size', values: ['S'] }],
      translations: { de: { name: 'Leinenhemd', seo: { slug: 'leinenhemd' }, options: { Size: { name: 'Größe', values: { S: 'Klein' } } } } },
    });
    // The source changes after the translation: the copy keeps the mark.
    expect((await t.request('PUT', `${base(s)}/products/${shirt.id}`, { token: s.ownerToken, body: { name: 'Linen Shirt 2' } })).status).toBe(200);
    await made('live', { name: 'Sun Hat', translations: { de: { name: 'Sonnenhut', seo: { slug: 'sonnenhut' } } } });
    // A test product holding the hat's translated slug in de (the same slug in the default locale would not clash).
    await made('test', { name: 'Mine', translations: { de: { name: 'Meins', seo: { slug: 'sonnenhut' } } } });

    const job = (await copy(s)).body.data;
    await runWorker();
    expect(await getJob(s, job.id)).toMatchObject({ status: 'succeeded', done: 1, skipped: 1 });
    const live = (await t.request('GET', `${base(s)}/products/${shirt.id}`, { token: s.ownerToken })).body.data.translations;
    const copied = (await list(s, 'test', 'per_page=100&search=Linen')).body.data[0];
    const inTest = (await t.request('GET', `${base(s)}/products/${copied.id}`, { token: s.ownerToken, headers: { 'x-service-mode': 'test' } })).body.data.translations;
    const withoutTime = (x: Record<string, Record<string, unknown>>) => Object.fromEntries(Object.entries(x).map(([l, { updated_at: _u, ...rest }]) => [l, rest]));
    expect(withoutTime(inTest)).toEqual(withoutTime(live));
    expect(inTest.de).toMatchObject({ name: 'Leinenhemd', outdated: true, outdated_fields: ['name'], seo: { slug: 'leinenhemd' } });
  });

  it('records one test-mode event per job state change, none per copied product', async () => {
    const { s } = await seededStore();
    const job = (await copy(s, { tags: ['summer'] })).body.data;
    await runWorker();
    const finished = await getJob(s, job.id);
    const history = await t.request('GET', `${base(s)}/changes?resource_type=test_catalog_job`, { token: s.ownerToken });
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([
      expect.objectContaining({
        type: 'test_catalog.copy_completed',
        mode: 'test',
        actor: { kind: 'system', id: null, name: 'system' },
        source: 'system',
        resource: { type: 'test_catalog_job', id: job.id, version: null },
        data: finished,
      }),
      expect.objectContaining({
        type: 'test_catalog.copy_started',
        mode: 'test',
        actor: expect.objectContaining({ kind: 'user', name: 'Owner' }),
        source: 'merchant_rest',
        resource: { type: 'test_catalog_job', id: job.id, version: null },
        data: job,
      }),
    ]);
    expect(await db().event.count({ where: { storeId: s.storeId, mode: 'test' } })).toBe(2);

    const deletion = (await deleteTest(s)).body.data;
    await runWorker();
    const types = await db().event.findMany({ where: { storeId: s.storeId, mode: 'test' }, orderBy: { id: 'asc' }, select: { type: true, resourceId: true } });
    expect(types).toEqual([
      { type: 'test_catalog.copy_started', resourceId: job.id },
      { type: 'test_catalog.copy_completed', resourceId: job.id },
      { type: 'test_catalog.delete_started', resourceId: deletion.id },
      { type: 'test_catalog.deleted', resourceId: deletion.id },
    ]);
  });
});

describe('deleting test data', () => {
  it('deletes every test product of the store with what hangs off it; live products, test keys and test endpoints stay', async () => {
    const { s } = await seededStore();
    await copy(s);
    await runWorker();
    const handMade = await t.request('POST', `${base(s)}/products`, { token: s.ownerToken, headers: { 'x-service-mode': 'test' }, body: { name: 'Hand made', price: 3, category_slugs: ['hats'] } });
    expect(handMade.status).toBe(201);
    const key = await createKey(t, s, { type: 'secret', mode: 'test', scopes: ['products:read'] });
    const endpoint = await t.request('POST', `${base(s)}/webhook-endpoints`, {
      token: s.ownerToken,
      body: { url: 'https://hooks.partner.example/test', event_types: ['*'], mode: 'test', status: 'disabled' },
    });
    expect(endpoint.status).toBe(201);
    const testIds = (await db().product.findMany({ where: { storeId: s.storeId, mode: 'test' }, select: { id: true } })).map((p) => p.id);
    expect(testIds).toHaveLength(5);
    // Another store's test catalog is not this store's.
    const { s: other } = await seededStore();
    await copy(other);
    await runWorker();
    const liveBefore = await list(s, 'live');

    const res = await deleteTest(s);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ kind: 'delete_test_data', status: 'queued', total: 5, done: 0, filter: null, requested_by: 'Owner' });
    expect(res.headers.get('location')).toBe(`${t.url}${base(s)}/test-catalog/jobs/${res.body.data.id}`);
    expect(await db().product.count({ where: { storeId: s.storeId, mode: 'test' } })).toBe(5);
    await runWorker();
    expect(await getJob(s, res.body.data.id)).toMatchObject({ status: 'succeeded', total: 5, done: 5, finished_at: expect.any(String) });

    expect((await list(s, 'test')).body.meta.total).toBe(0);
    expect((await list(s, 'live')).text).toBe(liveBefore.text);
    expect(await db().variant.count({ where: { productId: { in: testIds } } })).toBe(0);
    expect(await db().seo.count({ where: { productId: { in: testIds } } })).toBe(0);
    expect(await db().productImage.count({ where: { productId: { in: testIds } } })).toBe(0);
    expect(await db().productCategory.count({ where: { productId: { in: testIds } } })).toBe(0);
    expect(await db().apiKey.count({ where: { id: key.apiKey.id } })).toBe(1);
    expect((await t.request('GET', `${base(s)}/webhook-endpoints?mode=test`, { token: s.ownerToken })).body.data).toEqual([expect.objectContaining({ id: endpoint.body.data.id })]);
    expect(await db().category.count({ where: { storeId: s.storeId } })).toBe(3);
    expect((await list(other, 'test')).body.meta.total).toBe(4);

    // Nothing to delete is a job that succeeds at once.
    const empty = await deleteTest(s);
    expect(empty.body.data).toMatchObject({ total: 0 });
    await runWorker();
    expect(await getJob(s, empty.body.data.id)).toMatchObject({ status: 'succeeded', done: 0 });
  });
});

describe('who may', () => {
  it('members without manage_products get 403 on every route and field; members with it and owners pass', async () => {
    const { s } = await seededStore();
    const job = (await copy(s, {}, s.staffToken)).body.data;
    expect(job).toMatchObject({ status: 'queued', requested_by: 'Staff' });
    for (const res of [
      await copy(s, {}, s.viewerToken),
      await deleteTest(s, s.viewerToken),
      await t.request('GET', `${base(s)}/test-catalog/jobs`, { token: s.viewerToken }),
      await t.request('GET', `${base(s)}/test-catalog/jobs/${job.id}`, { token: s.viewerToken }),
    ]) {
      expectProblem(res, 403, 'forbidden');
    }
    // Permissions of another kind do not count either; another store's owner neither.
    const keysOnly = await memberToken(s.storeId, ['manage_api_keys', 'view_changes']);
    expectProblem(await copy(s, {}, keysOnly), 403, 'forbidden');
    const stranger = await createStoreFixture();
    expectProblem(await copy(s, {}, stranger.ownerToken), 403, 'forbidden');
    expectProblem(await t.request('GET', `/api/v1/merchant/stores/${stranger.storeId}/test-catalog/jobs/${job.id}`, { token: stranger.ownerToken }), 404, 'not_found');
    expectProblem(await t.request('POST', `${base(s)}/test-catalog/copy`, { body: {} }), 401, 'unauthenticated');

    expectGqlError(await t.graphql('mutation($s: ID!) { deleteTestData(storeId: $s) { id } }', { s: s.storeId }, { token: s.viewerToken }), 'forbidden');
    expectGqlError(await t.graphql('query($s: ID!) { testCatalogJobs(storeId: $s) { id } }', { s: s.storeId }, { token: s.viewerToken }), 'forbidden');
    expect(await db().testCatalogJob.count({ where: { storeId: s.storeId } })).toBe(1);
  });
});

describe('GraphQL', () => {
  const JOB = 'id kind status total done skipped error requestedBy createdAt startedAt finishedAt filter { search category tags status isActive }';

  it('copies with a filter, shows the job and the list, and deletes the test catalog', async () => {
    const { s } = await seededStore();
    const started = gqlData(
      await t.graphql(`mutation($s: ID!, $f: TestCatalogCopyFilter) { copyLiveProductsToTest(storeId: $s, filter: $f) { ${JOB} } }`, { s: s.storeId, f: { category: 'hats', isActive: true } }, { token: s.ownerToken }),
    ).copyLiveProductsToTest;
    expect(started).toMatchObject({ kind: 'copy_live', status: 'queued', total: 1, done: 0, filter: { search: null, category: 'hats', tags: null, status: null, isActive: true } });
    expectGqlError(await t.graphql(`mutation($s: ID!) { copyLiveProductsToTest(storeId: $s) { id } }`, { s: s.storeId }, { token: s.ownerToken }), 'conflict');
    await runWorker();
    const one = gqlData(await t.graphql(`query($s: ID!, $id: ID!) { testCatalogJob(storeId: $s, id: $id) { ${JOB} } }`, { s: s.storeId, id: started.id }, { token: s.ownerToken })).testCatalogJob;
    expect(one).toMatchObject({ id: started.id, status: 'succeeded', done: 1, total: 1, finishedAt: expect.any(String) });
    expect(names(await list(s, 'test'))).toEqual(['Sun Hat']);
    // A job id of another store (or none) is not found.
    expectGqlError(await t.graphql(`query($s: ID!, $id: ID!) { testCatalogJob(storeId: $s, id: $id) { id } }`, { s: s.storeId, id: '00000000-0000-4000-8000-000000000000' }, { token: s.ownerToken }), 'not_found');

    const deletion = gqlData(await t.graphql(`mutation($s: ID!) { deleteTestData(storeId: $s) { ${JOB} } }`, { s: s.storeId }, { token: s.ownerToken })).deleteTestData;
    expect(deletion).toMatchObject({ kind: 'delete_test_data', status: 'queued', total: 1, filter: null });
    await runWorker();
    const jobs = gqlData(await t.graphql(`query($s: ID!) { testCatalogJobs(storeId: $s) { ${JOB} } }`, { s: s.storeId }, { token: s.ownerToken })).testCatalogJobs;
    expect(jobs.map((j: { id: string; status: string }) => [j.id, j.status])).toEqual([
      [deletion.id, 'succeeded'],
      [started.id, 'succeeded'],
    ]);
    expect((await list(s, 'test')).body.data).toEqual([]);
    expect((await list(s, 'live')).body.meta.total).toBe(4);
  });
});

// Last in the file: serveDataDir makes the CLI's data directory the process-wide database (the test server above keeps its own handle).
describeEmbeddedProcesses('npm run cli -- test-catalog …', () => {
  jest.setTimeout(300_000);

  it('copies with --wait with no service running, lists the jobs, refuses a second job, and deletes the test catalog', async () => {
    const dataDir = migratedDataDir('catalog-cli-test-catalog-');
    const { json: cli, outcome } = cliOn(dataDir);
    // The store is set up and given live products beside the service (the commands go through its socket); the service then stops.
    let server = await serveDataDir(dataDir);
    await cli('user', 'create', '--email', 'sandbox@example.test', '--name', 'Sandy', '--password', 'a long password');
    const store = await cli('store', 'create', '--name', 'Sandbox shop', '--currency', 'EUR', '--owner', 'sandbox@example.test');
    await cli('category', 'create', '--store', 'Sandbox shop', '--slug', 'shoes', '--name', 'Shoes');
    await cli('category', 'create', '--store', 'Sandbox shop', '--slug', 'hats', '--name', 'Hats');
    const { token } = await cli('token', 'issue', '--user', 'sandbox@example.test');

    const api = (method: string, path: string, body?: unknown, mode: Mode = 'live') =>
      fetch(`${server.url}/api/v1/merchant/stores/${store.id}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-service-mode': mode },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    try {
      for (const [name, category] of [['Trail Shoe', 'shoes'], ['Road Shoe', 'shoes'], ['Sun Hat', 'hats']]) {
        expect((await api('POST', '/products', { name, price: 10, category_slugs: [category] })).status).toBe(201);
      }
    } finally {
      await server.close();
    }

    const copied = await cli('test-catalog', 'copy', '--store', 'Sandbox shop', '--category', 'shoes', '--wait');
    expect(copied).toEqual({
      id: expect.any(String),
      store_id: store.id,
      kind: 'copy_live',
      status: 'succeeded',
      filter: { search: null, category: 'shoes', tags: null, status: null, is_active: null },
      total: 2,
      done: 2,
      skipped: 0,
      error: null,
      requested_by: expect.stringMatching(/\(CLI\)$/),
      created_at: expect.any(String),
      started_at: expect.any(String),
      finished_at: expect.any(String),
    });
    expect(await outcome('test-catalog', 'copy', '--store', 'Sandbox shop', '--status', 'sold')).toMatchObject({ code: 2, stderr: expect.stringContaining('Allowed choices are active, draft, archived') });

    server = await serveDataDir(dataDir);
    try {
      expect((await api('GET', '/products?sort=name', undefined, 'test')).body.data.map((p: { name: string }) => p.name)).toEqual(['Road Shoe', 'Trail Shoe']);
      expect((await api('GET', '/products')).body.meta.total).toBe(3);
      expect((await api('GET', `/test-catalog/jobs/${copied.id}`)).body.data).toEqual(copied);
    } finally {
      await server.close();
    }

    const deleted = await cli('test-catalog', 'delete', '--store', 'Sandbox shop', '--wait');
    expect(deleted).toMatchObject({ kind: 'delete_test_data', status: 'succeeded', total: 2, done: 2, filter: null });

    // Without --wait the job is queued for the worker; a second job is refused meanwhile.
    const queued = await cli('test-catalog', 'copy', '--store', 'Sandbox shop', '--search', 'sun', '--tags', 'summer,beach');
    expect(queued).toMatchObject({ status: 'queued', total: 0, done: 0, filter: { search: 'sun', tags: ['summer', 'beach'] } });
    expect(await outcome('test-catalog', 'delete', '--store', 'Sandbox shop', '--wait')).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^error: conflict: A test catalog job of this store is queued \(copy_live /),
    });
    const jobs = await cli('test-catalog', 'jobs', '--store', store.id);
    expect(jobs.map((j: { id: string; kind: string; status: string }) => [j.id, j.kind, j.status])).toEqual([
      [queued.id, 'copy_live', 'queued'],
      [deleted.id, 'delete_test_data', 'succeeded'],
      [copied.id, 'copy_live', 'succeeded'],
    ]);
  });
});
