import { createStoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * Without DATABASE_REPLICA_URLS (the embedded default, a plain DATABASE_URL) nothing of the replicas exists: no
 * monitor, no routing, no write position read after a mutation (the statement-count tests of the reads and
 * writes hold as before), and /metrics has no replica series.
 */
describe('without replicas', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('reads and writes the one database, with no replica metrics', async () => {
    const s = await createStoreFixture();
    expect(t.database.replicas).toBeUndefined();
    const products = `/api/v1/merchant/stores/${s.storeId}/products`;
    const created = await t.request('POST', products, { token: s.ownerToken, body: { name: 'Single database lamp', price: 5, category_slugs: ['shoes'] } });
    expect(created.status).toBe(201);
    const read = await t.request('GET', `${products}/${created.body.data.id}`, { token: s.ownerToken });
    expect(read.body.data.name).toBe('Single database lamp');
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).not.toMatch(/^db_reads_total\{/m);
    expect(metrics).not.toMatch(/^db_replica_lag_seconds\{/m);
  });
});
