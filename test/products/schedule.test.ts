import { db } from '../../src/platform/db/client';
import { runDueSchedules } from '../../src/catalog/services/productSchedules';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { testWorker } from '../helpers/webhooks';
import { createProduct, expectGqlError, expectProblem, gqlData, productPath, productsPath, storedProduct } from './helpers';

let t: TestServer;
let a: StoreFixture;
/** The service's clock; tests move it. */
let clock = new Date();

beforeAll(async () => {
  t = await startTestServer({}, { now: () => clock });
  a = await createStoreFixture();
});
afterAll(() => t.close());
// Every test starts with nothing due: a schedule another test left behind would be run by the next scheduler run.
afterEach(() => db().product.updateMany({ where: { OR: [{ publishAt: { not: null } }, { unpublishAt: { not: null } }] }, data: { publishAt: null, unpublishAt: null } }));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const later = (ms: number) => new Date(clock.getTime() + ms);
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
const pad = (n: number) => String(n).padStart(2, '0');
/** The instant as RFC 3339 in another offset, e.g. +02:00 (what a merchant in that zone would send). */
const inOffset = (d: Date, minutes: number) => {
  const local = new Date(d.getTime() + minutes * MINUTE).toISOString().slice(0, -1);
  return `${local}${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;
};

/** One scheduler run, as the worker makes it: the system acts, on the service's clock. */
const runScheduler = (limit?: number) => runDueSchedules(t.app.systemContext(), { limit });

const put = (id: string, body: Record<string, unknown>) => t.request('PUT', productPath(a.storeId, id), { token: a.ownerToken, body });
const get = async (id: string) => {
  const res = await t.request('GET', productPath(a.storeId, id), { token: a.ownerToken });
  expect(res.status).toBe(200);
  return res.body.data;
};
/** The product's change history, oldest first. */
const history = async (id: string) => {
  const res = await t.request('GET', `${productPath(a.storeId, id)}/changes`, { token: a.ownerToken });
  expect(res.status).toBe(200);
  return (res.body.data as any[]).reverse();
};
const eventCount = (id: string) => db().event.count({ where: { resourceId: id } });

const UPDATE = `mutation($storeId: ID!, $id: ID!, $input: ProductUpdateInput!) {
  updateProduct(storeId: $storeId, id: $id, input: $input) { id status publishAt unpublishAt version } }`;
const CREATE = `mutation($storeId: ID!, $input: ProductCreateInput!) {
  createProduct(storeId: $storeId, input: $input) { id status publishAt unpublishAt version } }`;
const LIST = `query($storeId: ID!, $filter: ProductFilter) { products(storeId: $storeId, filter: $filter, perPage: 100) { items { id publishAt unpublishAt } meta { total } } }`;

describe('setting a schedule over REST', () => {
  it('accepts publish_at and unpublish_at on create, in any offset, and shows them in UTC in the product and its event', async () => {
    const publishAt = later(HOUR);
    const unpublishAt = later(3 * HOUR);
    const p = await createProduct(t, a, { publish_at: inOffset(publishAt, 120), unpublish_at: inOffset(unpublishAt, -330) });
    expect(p).toMatchObject({ status: 'draft', published_at: null, publish_at: publishAt.toISOString(), unpublish_at: unpublishAt.toISOString() });
    expect(await get(p.id)).toEqual(p);
    const [created] = await history(p.id);
    expect(created.type).toBe('product.created');
    expect(created.data).toEqual(p);
  });

  it('sets, moves and clears a schedule with PUT; each is a product.updated listing the change', async () => {
    const p = await createProduct(t, a);
    expect(p).toMatchObject({ publish_at: null, unpublish_at: null });
    const first = later(2 * HOUR).toISOString();
    const set = await put(p.id, { publish_at: first });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ status: 'draft', publish_at: first, unpublish_at: null, version: 2 });
    expect(set.headers.get('etag')).toBe('"v2"');

    const moved = later(5 * HOUR).toISOString();
    expect((await put(p.id, { publish_at: moved, unpublish_at: later(6 * HOUR).toISOString() })).body.data).toMatchObject({ publish_at: moved, version: 3 });
    // Sending the same schedule again changes nothing: no version, no event.
    expect((await put(p.id, { publish_at: moved })).body.data.version).toBe(3);
    const cleared = await put(p.id, { publish_at: null, unpublish_at: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ publish_at: null, unpublish_at: null, version: 4 });

    const events = await history(p.id);
    expect(events.map((e) => e.type)).toEqual(['product.created', 'product.updated', 'product.updated', 'product.updated']);
    expect(events[1].changes).toEqual([{ field: 'publish_at', previous: null, next: first }]);
    expect(events[2].changes).toEqual([
      { field: 'publish_at', previous: first, next: moved },
      { field: 'unpublish_at', previous: null, next: later(6 * HOUR).toISOString() },
    ]);
    expect(events[3].changes.map((c: any) => c.field)).toEqual(['publish_at', 'unpublish_at']);
    expect(events[3].data).toEqual(cleared.body.data);
  });

  it('takes the GET body back unchanged, a due schedule included', async () => {
    const p = await createProduct(t, a, { publish_at: later(MINUTE).toISOString() });
    const read = await get(p.id);
    advance(2 * MINUTE); // due, the scheduler has not run yet
    const res = await put(p.id, { ...read, name: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', publish_at: read.publish_at });
  });

  it.each([
    ['a date without a time', '2031-05-01'],
    ['a time without an offset', '2031-05-01T09:00:00'],
    ['a day that does not exist', '2031-02-30T09:00:00Z'],
    ['an hour that does not exist', '2031-05-01T24:00:00Z'],
    ['an offset that does not exist', '2031-05-01T09:00:00+24:00'],
    ['words', 'tomorrow morning'],
  ])('refuses %s (422 naming the field, nothing written)', async (_what, value) => {
    const p = await createProduct(t, a);
    for (const field of ['publish_at', 'unpublish_at']) {
      const res = await put(p.id, { [field]: value });
      const problem = expectProblem(res, 422, 'validation_failed');
      expect(problem.errors).toEqual([{ field, code: 'invalid_value', message: expect.stringContaining('RFC 3339') }]);
    }
    const created = await createProductRes({ publish_at: value });
    expect(expectProblem(created, 422, 'validation_failed').errors![0].field).toBe('publish_at');
    expect(await get(p.id)).toEqual(p);
    expect(await eventCount(p.id)).toBe(1);
  });

  it('refuses a number (not a string)', async () => {
    const p = await createProduct(t, a);
    const problem = expectProblem(await put(p.id, { publish_at: 1_900_000_000 }), 422, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'publish_at', code: 'invalid_type', message: 'must be a string' }]);
  });

  it('refuses times that are not in the future by the service clock', async () => {
    const p = await createProduct(t, a);
    for (const value of [clock.toISOString(), later(-1000).toISOString()]) {
      const problem = expectProblem(await put(p.id, { publish_at: value, unpublish_at: value }), 422, 'validation_failed');
      expect(problem.errors!.map((e) => [e.field, e.code])).toEqual([
        ['publish_at', 'not_in_future'],
        ['unpublish_at', 'not_in_future'],
      ]);
    }
    expect(expectProblem(await createProductRes({ unpublish_at: later(-HOUR).toISOString() }), 422, 'validation_failed').errors![0].field).toBe('unpublish_at');
    expect(await eventCount(p.id)).toBe(1);
  });

  it('refuses an unpublish_at that is not after publish_at, whichever of the two the write sets', async () => {
    const p = await createProduct(t, a);
    const at = later(HOUR).toISOString();
    let problem = expectProblem(await put(p.id, { publish_at: at, unpublish_at: at }), 422, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'unpublish_at', code: 'unpublish_not_after_publish', message: expect.any(String) }]);
    expect((await put(p.id, { publish_at: at, unpublish_at: later(2 * HOUR).toISOString() })).status).toBe(200);
    problem = expectProblem(await put(p.id, { publish_at: later(3 * HOUR).toISOString() }), 422, 'validation_failed');
    expect(problem.errors![0]).toMatchObject({ field: 'publish_at', code: 'unpublish_not_after_publish' });
    problem = expectProblem(await put(p.id, { unpublish_at: later(30 * MINUTE).toISOString() }), 422, 'validation_failed');
    expect(problem.errors![0]).toMatchObject({ field: 'unpublish_at', code: 'unpublish_not_after_publish' });
    expect(await get(p.id)).toMatchObject({ publish_at: at, unpublish_at: later(2 * HOUR).toISOString() });
  });

  it('refuses publish_at on an active product (422 product_active) but takes unpublish_at', async () => {
    const p = await createProduct(t, a, { status: 'active' });
    const problem = expectProblem(await put(p.id, { publish_at: later(HOUR).toISOString() }), 422, 'validation_failed');
    expect(problem.errors).toEqual([{ field: 'publish_at', code: 'product_active', message: expect.stringContaining('unpublish') }]);
    // Nor on a product the same write makes active, nor on create.
    const draft = await createProduct(t, a);
    expect(expectProblem(await put(draft.id, { status: 'active', publish_at: later(HOUR).toISOString() }), 422, 'validation_failed').errors![0].code).toBe('product_active');
    expect(expectProblem(await createProductRes({ status: 'active', publish_at: later(HOUR).toISOString() }), 422, 'validation_failed').errors![0].code).toBe(
      'product_active',
    );
    const res = await put(p.id, { unpublish_at: later(HOUR).toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'active', unpublish_at: later(HOUR).toISOString() });
    expect(await get(draft.id)).toEqual(draft);
  });

  it('refuses a schedule on an archived product (409 product_archived); archiving cancels a pending one', async () => {
    const archived = await createProduct(t, a, { status: 'archived' });
    for (const field of ['publish_at', 'unpublish_at']) {
      const problem = expectProblem(await put(archived.id, { [field]: later(HOUR).toISOString() }), 409, 'product_archived');
      expect(problem.errors).toEqual([{ field, code: 'product_archived', message: expect.any(String) }]);
    }
    expectProblem(await createProductRes({ status: 'archived', publish_at: later(HOUR).toISOString() }), 409, 'product_archived');
    expect(await eventCount(archived.id)).toBe(1);

    const p = await createProduct(t, a, { publish_at: later(HOUR).toISOString(), unpublish_at: later(2 * HOUR).toISOString() });
    const res = await put(p.id, { status: 'archived' });
    expect(res.body.data).toMatchObject({ status: 'archived', publish_at: null, unpublish_at: null });
    const [, archivedEvent] = await history(p.id);
    expect(archivedEvent.changes.map((c: any) => c.field)).toEqual(['status', 'publish_at', 'unpublish_at']);
  });
});

describe('publishing and unpublishing by hand', () => {
  it('publishing clears a pending publish_at and keeps unpublish_at; unpublishing clears unpublish_at', async () => {
    const p = await createProduct(t, a, { publish_at: later(HOUR).toISOString(), unpublish_at: later(2 * HOUR).toISOString() });
    const pub = await t.request('POST', `${productPath(a.storeId, p.id)}/publish`, { token: a.ownerToken });
    expect(pub.body.data).toMatchObject({ status: 'active', published_at: clock.toISOString(), publish_at: null, unpublish_at: later(2 * HOUR).toISOString() });
    const un = await t.request('POST', `${productPath(a.storeId, p.id)}/unpublish`, { token: a.ownerToken });
    expect(un.body.data).toMatchObject({ status: 'draft', publish_at: null, unpublish_at: null });
    const [, published, unpublished] = await history(p.id);
    expect(published.type).toBe('product.published');
    expect(published.changes.map((c: any) => c.field)).toEqual(['status', 'is_active', 'published_at', 'publish_at']);
    expect(unpublished.changes.map((c: any) => c.field)).toEqual(['status', 'is_active', 'unpublish_at']);
  });

  it('a status change by update does the same; a write may set the schedule again with it', async () => {
    const p = await createProduct(t, a, { publish_at: later(HOUR).toISOString() });
    expect((await put(p.id, { status: 'active' })).body.data).toMatchObject({ status: 'active', publish_at: null });
    expect((await put(p.id, { unpublish_at: later(HOUR).toISOString() })).body.data.unpublish_at).toBe(later(HOUR).toISOString());
    expect((await put(p.id, { status: 'draft' })).body.data).toMatchObject({ status: 'draft', unpublish_at: null });
    const res = await put(p.id, { status: 'active', unpublish_at: later(3 * HOUR).toISOString() });
    expect(res.body.data).toMatchObject({ status: 'active', unpublish_at: later(3 * HOUR).toISOString() });
    const back = await put(p.id, { status: 'draft', publish_at: later(HOUR).toISOString() });
    expect(back.body.data).toMatchObject({ status: 'draft', publish_at: later(HOUR).toISOString(), unpublish_at: null });
  });
});

describe('GraphQL', () => {
  it('sets, reads and clears publishAt and unpublishAt', async () => {
    const res = await t.graphql(CREATE, { storeId: a.storeId, input: { name: 'GQL', price: '5', categorySlugs: ['shoes'], publishAt: inOffset(later(HOUR), 60) } }, { token: a.ownerToken });
    const p = gqlData(res).createProduct;
    expect(p).toMatchObject({ status: 'draft', publishAt: later(HOUR).toISOString(), unpublishAt: null });
    const set = gqlData(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { unpublishAt: later(2 * HOUR).toISOString() } }, { token: a.ownerToken }));
    expect(set.updateProduct).toMatchObject({ publishAt: later(HOUR).toISOString(), unpublishAt: later(2 * HOUR).toISOString(), version: 2 });
    const cleared = gqlData(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { publishAt: null, unpublishAt: null } }, { token: a.ownerToken }));
    expect(cleared.updateProduct).toMatchObject({ publishAt: null, unpublishAt: null, version: 3 });
    // The REST view shows the same.
    expect(await get(p.id)).toMatchObject({ publish_at: null, unpublish_at: null, version: 3 });
  });

  it('names the field in validation errors', async () => {
    const p = await createProduct(t, a);
    let err = expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { publishAt: '2031-05-01 09:00' } }, { token: a.ownerToken }), 'validation_failed');
    expect(err.extensions.errors).toEqual([{ field: 'publishAt', code: 'invalid_value', message: expect.stringContaining('RFC 3339') }]);
    err = expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { unpublishAt: later(-MINUTE).toISOString() } }, { token: a.ownerToken }), 'validation_failed');
    expect(err.extensions.errors).toEqual([{ field: 'unpublishAt', code: 'not_in_future', message: expect.any(String) }]);
    const archived = await createProduct(t, a, { status: 'archived' });
    expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: archived.id, input: { publishAt: later(HOUR).toISOString() } }, { token: a.ownerToken }), 'product_archived');
  });

  it('needs manage_products like every product write', async () => {
    const p = await createProduct(t, a);
    expectGqlError(await t.graphql(UPDATE, { storeId: a.storeId, id: p.id, input: { publishAt: later(HOUR).toISOString() } }, { token: a.viewerToken }), 'forbidden');
    expect((await storedProduct(p.id))!.publishAt).toBeNull();
  });
});

describe('the scheduler (runDueSchedules)', () => {
  it('publishes nothing before the time, then publishes as the system with the usual event', async () => {
    const publishAt = later(10 * MINUTE);
    const p = await createProduct(t, a, { name: 'Launch boot', publish_at: publishAt.toISOString() });
    advance(10 * MINUTE - 1);
    expect(await runScheduler()).toBe(0);
    expect(await get(p.id)).toEqual(p);

    advance(1);
    expect(await runScheduler()).toBe(1);
    const after = await get(p.id);
    expect(after).toMatchObject({ status: 'active', is_active: true, published_at: publishAt.toISOString(), publish_at: null, unpublish_at: null, version: 2 });
    // Nothing left to do.
    expect(await runScheduler()).toBe(0);

    const events = await history(p.id);
    expect(events.map((e) => e.type)).toEqual(['product.created', 'product.published']);
    const published = events[1];
    expect(published).toMatchObject({ actor: { kind: 'system', id: null, name: 'system' }, source: 'system', resource: { type: 'product', id: p.id, version: 2 } });
    expect(published.data).toEqual(after);
    expect(published.changes).toEqual([
      { field: 'status', previous: 'draft', next: 'active' },
      { field: 'is_active', previous: false, next: true },
      { field: 'published_at', previous: null, next: publishAt.toISOString() },
      { field: 'publish_at', previous: publishAt.toISOString(), next: null },
    ]);
    // The storefront sees it now.
    const store = await t.request('GET', `${productsPath(a.storeId)}?is_active=true&search=launch+boot`, { token: a.ownerToken });
    expect(store.body.data.map((x: any) => x.id)).toContain(p.id);
  });

  it('unpublishes an active product at unpublish_at (product.unpublished by the system)', async () => {
    const p = await createProduct(t, a, { status: 'active', unpublish_at: later(HOUR).toISOString() });
    advance(HOUR - MINUTE);
    expect(await runScheduler()).toBe(0);
    expect((await get(p.id)).status).toBe('active');
    advance(2 * MINUTE);
    expect(await runScheduler()).toBe(1);
    expect(await get(p.id)).toMatchObject({ status: 'draft', is_active: false, unpublish_at: null, published_at: p.published_at, version: 2 });
    const [, unpublished] = await history(p.id);
    expect(unpublished).toMatchObject({ type: 'product.unpublished', actor: { kind: 'system' } });
    expect(unpublished.changes.map((c: any) => c.field)).toEqual(['status', 'is_active', 'unpublish_at']);
  });

  it('runs a publish window: published at publish_at, unpublished at unpublish_at', async () => {
    const p = await createProduct(t, a, { publish_at: later(HOUR).toISOString(), unpublish_at: later(2 * HOUR).toISOString() });
    advance(HOUR);
    expect(await runScheduler()).toBe(1);
    expect(await get(p.id)).toMatchObject({ status: 'active', publish_at: null, unpublish_at: later(HOUR).toISOString() });
    advance(HOUR);
    expect(await runScheduler()).toBe(1);
    expect(await get(p.id)).toMatchObject({ status: 'draft', publish_at: null, unpublish_at: null, version: 3 });
    expect((await history(p.id)).map((e) => e.type)).toEqual(['product.created', 'product.published', 'product.unpublished']);
  });

  it('lets a window that passed entirely while it was not running lapse: not published, schedule cleared (product.updated)', async () => {
    const p = await createProduct(t, a, { publish_at: later(HOUR).toISOString(), unpublish_at: later(2 * HOUR).toISOString() });
    advance(3 * HOUR);
    expect(await runScheduler()).toBe(1);
    expect(await get(p.id)).toMatchObject({ status: 'draft', published_at: null, publish_at: null, unpublish_at: null, version: 2 });
    const [, lapsed] = await history(p.id);
    expect(lapsed).toMatchObject({ type: 'product.updated', actor: { kind: 'system' } });
    expect(lapsed.changes.map((c: any) => c.field)).toEqual(['publish_at', 'unpublish_at']);
  });

  it('clears an unpublish_at that comes due on a product that is not active (it was never published)', async () => {
    const p = await createProduct(t, a, { unpublish_at: later(HOUR).toISOString() });
    advance(HOUR);
    expect(await runScheduler()).toBe(1);
    expect(await get(p.id)).toMatchObject({ status: 'draft', unpublish_at: null, version: 2 });
    expect((await history(p.id)).map((e) => e.type)).toEqual(['product.created', 'product.updated']);
  });

  it('skips a product archived meanwhile and clears its schedule; a deleted one is simply gone', async () => {
    const archived = await createProduct(t, a, { publish_at: later(HOUR).toISOString() });
    // A row written around the service's rules (older data, a manual fix in the database).
    await db().product.update({ where: { id: archived.id }, data: { status: 'archived' } });
    const deleted = await createProduct(t, a, { publish_at: later(HOUR).toISOString() });
    expect((await t.request('DELETE', productPath(a.storeId, deleted.id), { token: a.ownerToken })).status).toBe(204);
    advance(HOUR);
    expect(await runScheduler()).toBe(1);
    expect(await get(archived.id)).toMatchObject({ status: 'archived', publish_at: null, published_at: null });
    expect((await history(archived.id)).map((e) => e.type)).toEqual(['product.created', 'product.updated']);
    expect(await db().event.count({ where: { resourceId: deleted.id, type: 'product.published' } })).toBe(0);
  });

  it('works through at most `limit` products a run, due first', async () => {
    const ids: string[] = [];
    for (const minutes of [3, 1, 2]) ids.push((await createProduct(t, a, { publish_at: later(minutes * MINUTE).toISOString() })).id);
    advance(5 * MINUTE);
    expect(await runScheduler(2)).toBe(2);
    expect((await Promise.all(ids.map(get))).map((p) => p.status)).toEqual(['draft', 'active', 'active']);
    expect(await runScheduler(2)).toBe(1);
    expect((await get(ids[0])).status).toBe('active');
  });

  it("goes on after one product's failure, which stays due and is published on a later run", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createProduct(t, a, { publish_at: later(MINUTE).toISOString() })).id);
    const broken = ids[1];
    // The database refuses any change to one product (a real failure inside its transaction).
    await db().$executeRawUnsafe(`CREATE FUNCTION refuse_product() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF OLD.id = '${broken}'::uuid THEN RAISE EXCEPTION 'refused for the test'; END IF; RETURN NEW; END $$`);
    await db().$executeRawUnsafe(`CREATE TRIGGER refuse_product BEFORE UPDATE ON products FOR EACH ROW EXECUTE FUNCTION refuse_product()`);
    try {
      advance(2 * MINUTE);
      expect(await runScheduler()).toBe(2);
      expect((await Promise.all(ids.map(get))).map((p) => p.status)).toEqual(['active', 'draft', 'active']);
      expect((await get(broken)).publish_at).not.toBeNull();
      expect(await eventCount(broken)).toBe(1);
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER refuse_product ON products`);
      await db().$executeRawUnsafe(`DROP FUNCTION refuse_product()`);
    }
    expect(await runScheduler()).toBe(1);
    expect(await get(broken)).toMatchObject({ status: 'active', publish_at: null });
  });

  it('publishes each product once when two runs go at the same time (one product.published each)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await createProduct(t, a, { publish_at: later(MINUTE + i).toISOString() })).id);
    advance(2 * MINUTE);
    const counts = await Promise.all([runScheduler(), runScheduler(), runScheduler()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(12);
    for (const id of ids) {
      expect(await db().event.count({ where: { resourceId: id, type: 'product.published' } })).toBe(1);
      expect(await storedProduct(id)).toMatchObject({ status: 'active', version: 2, publishAt: null });
    }
  });
});

describe('the worker', () => {
  it('publishes a product on time (within 5 s of publish_at) while it runs, on the wall clock', async () => {
    clock = new Date(); // the service and the worker share the real time here
    const publishAt = new Date(Date.now() + 1000);
    const p = await createProduct(t, a, { publish_at: publishAt.toISOString() });
    const worker = testWorker(t, { config: { worker: { ...t.config.worker, pollMs: 100 } } });
    worker.start();
    try {
      const deadline = publishAt.getTime() + 5000;
      let row = await storedProduct(p.id);
      while (row!.status !== 'active' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        row = await storedProduct(p.id);
      }
      expect(row).toMatchObject({ status: 'active', publishAt: null });
      // Not before its time, and within 5 s of it.
      expect(row!.publishedAt!.getTime()).toBeGreaterThanOrEqual(publishAt.getTime());
      expect(row!.publishedAt!.getTime()).toBeLessThan(publishAt.getTime() + 5000);
    } finally {
      await worker.stop();
    }
    const [, published] = await history(p.id);
    expect(published).toMatchObject({ type: 'product.published', actor: { kind: 'system' }, source: 'system' });
  });
});

describe('the dashboard sees pending schedules', () => {
  it('lists products with a pending publish_at or unpublish_at with ?scheduled=true (GraphQL filter scheduled: true)', async () => {
    const s = await createStoreFixture();
    const plain = await createProduct(t, s);
    const toPublish = await createProduct(t, s, { publish_at: later(HOUR).toISOString() });
    const toUnpublish = await createProduct(t, s, { status: 'active', unpublish_at: later(HOUR).toISOString() });
    const list = async (q: string) => {
      const res = await t.request('GET', `${productsPath(s.storeId)}?${q}`, { token: s.ownerToken });
      expect(res.status).toBe(200);
      return (res.body.data as any[]).map((p) => p.id).sort();
    };
    expect(await list('scheduled=true')).toEqual([toPublish.id, toUnpublish.id].sort());
    expect(await list('scheduled=false')).toEqual([plain.id]);
    expect(await list('scheduled=true&is_active=true')).toEqual([toUnpublish.id]);
    expectProblem(await t.request('GET', `${productsPath(s.storeId)}?scheduled=soon`, { token: s.ownerToken }), 422, 'validation_failed');

    const gql = gqlData(await t.graphql(LIST, { storeId: s.storeId, filter: { scheduled: true } }, { token: s.ownerToken }));
    expect(gql.products.meta.total).toBe(2);
    expect(gql.products.items.map((p: any) => p.id).sort()).toEqual([toPublish.id, toUnpublish.id].sort());

    // Once the scheduler has run them, they leave the list.
    advance(HOUR);
    await runScheduler();
    expect(await list('scheduled=true')).toEqual([]);
  });
});

async function createProductRes(fields: Record<string, unknown>) {
  return t.request('POST', productsPath(a.storeId), { token: a.ownerToken, body: { name: 'Scheduled', price: 10, category_slugs: ['shoes'], ...fields } });
}
