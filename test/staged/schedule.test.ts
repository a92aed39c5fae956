import { runDueSchedules } from '../../src/catalog/services/productSchedules';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { createProduct, expectProblem } from '../products/helpers';
import { productCalls } from './helpers';

let t: TestServer;
let a: StoreFixture;
let api: ReturnType<typeof productCalls>;
let publishableKey: string;
/** The service's clock; tests move it. */
let clock = new Date();

beforeAll(async () => {
  t = await startTestServer({}, { now: () => clock });
  a = await createStoreFixture();
  api = productCalls(t, a);
  publishableKey = (await createKey(t, a, { type: 'publishable', mode: 'live' })).secret;
});
afterAll(() => t.close());

const HOUR = 3_600_000;
const later = (ms: number) => new Date(clock.getTime() + ms).toISOString();
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};
/** One scheduler run, as the worker makes it: the system acts, on the service's clock. */
const runScheduler = () => runDueSchedules(t.app.systemContext());
const publicPrice = async (id: string) => (await publicGet(t, `/products/${id}`, { key: publishableKey })).body.data.price;

describe('a scheduled publish of staged changes', () => {
  it('publishes them when the time comes, as the system, with the usual events', async () => {
    const p = await createProduct(t, a, { price: 50, status: 'active' });
    await api.put(p.id, { price: 45, description: 'Sale text' }, '?staged=true');
    const at = later(2 * HOUR);
    const scheduled = await api.post(p.id, '/staged/publish', { publish_at: at });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data).toMatchObject({ price: 50, has_staged_changes: true });
    expect((await api.get(p.id, '/staged')).body.meta).toMatchObject({ publish_at: at, publish_scope: 'all' });

    expect(await runScheduler()).toBe(0);
    expect(await publicPrice(p.id)).toBe(50);
    advance(2 * HOUR + 1000);
    expect(await runScheduler()).toBe(1);
    expect(await publicPrice(p.id)).toBe(45);
    expect((await api.get(p.id)).body.data).toMatchObject({ price: 45, description: 'Sale text', has_staged_changes: false });
    const last = (await api.history(p.id)).slice(-2);
    expect(last.map((e) => [e.type, e.actor.kind])).toEqual([
      ['product.updated', 'system'],
      ['product.staged_published', 'system'],
    ]);
    expect(await runScheduler()).toBe(0);
  });

  it('with scope prices publishes only the prices then, and the rest stays staged', async () => {
    const p = await createProduct(t, a, { price: 30, status: 'active' });
    await api.put(p.id, { price: 25, name: 'Renamed later' }, '?staged=true');
    expect((await api.post(p.id, '/staged/publish?scope=prices', { publish_at: later(HOUR) })).status).toBe(200);
    expect((await api.get(p.id, '/staged')).body.meta.publish_scope).toBe('prices');
    advance(HOUR + 1000);
    expect(await runScheduler()).toBe(1);
    expect((await api.get(p.id)).body.data).toMatchObject({ price: 25, name: 'Trail Shoe', has_staged_changes: true });
    expect((await api.get(p.id, '/staged')).body.meta).toMatchObject({ has_staged_changes: true, publish_at: null });
  });

  it('is cancelled with publish_at null, and dropped with the staged changes', async () => {
    const p = await createProduct(t, a, { price: 30 });
    await api.put(p.id, { price: 29 }, '?staged=true');
    await api.post(p.id, '/staged/publish', { publish_at: later(HOUR) });
    expect((await api.post(p.id, '/staged/publish', { publish_at: null })).status).toBe(200);
    expect((await api.get(p.id, '/staged')).body.meta.publish_at).toBeNull();
    await api.post(p.id, '/staged/publish', { publish_at: later(HOUR) });
    await api.post(p.id, '/staged/discard');
    advance(HOUR + 1000);
    expect(await runScheduler()).toBe(0);
    expect((await api.get(p.id)).body.data.price).toBe(30);
  });

  it('needs staged changes and a time in the future', async () => {
    const p = await createProduct(t, a);
    expectProblem(await api.post(p.id, '/staged/publish', { publish_at: later(HOUR) }), 409, 'no_staged_changes');
    await api.put(p.id, { price: 1 }, '?staged=true');
    expectProblem(await api.post(p.id, '/staged/publish', { publish_at: later(-HOUR) }), 422, 'validation_failed');
    expectProblem(await api.post(p.id, '/staged/publish', { publish_at: 'tomorrow' }), 422, 'validation_failed');
  });
});
