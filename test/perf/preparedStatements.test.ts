/**
 * On PostgreSQL every statement the service sends is a named (server-side
 * prepared) statement: each connection parses and plans a query shape once.
 * DATABASE_PREPARED_STATEMENTS=false turns that off for poolers that cannot
 * keep them. (PGlite in process has no protocol to prepare over: skipped.)
 */
import { loadConfig } from '../../src/platform/config';
import { MAX_PREPARED_STATEMENTS, postgresAdapterFactory, preparedStatementName, preparedStatementNamer } from '../../src/platform/db/adapters';
import { db, readRows } from '../../src/platform/db/client';
import { productPageQuery } from '../../src/catalog/services/productList';
import { createStoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { testDatabaseUrl } from '../helpers/templates';
import { createProduct, productPath, productsPath } from '../products/helpers';

const url = testDatabaseUrl();

describe('prepared statements: the setting', () => {
  it('is on by default and off with DATABASE_PREPARED_STATEMENTS=false', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/catalog' }).database).toMatchObject({ preparedStatements: true });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db/catalog', DATABASE_PREPARED_STATEMENTS: 'false' }).database).toMatchObject({ preparedStatements: false });
  });
});

describe('prepared statements: how many a connection keeps', () => {
  it('names the first distinct texts, keeps their names, and sends any text past the cap unnamed', () => {
    const name = preparedStatementNamer(MAX_PREPARED_STATEMENTS);
    const texts = Array.from({ length: MAX_PREPARED_STATEMENTS + 10 }, (_, i) => `SELECT ${i}`);
    const names = texts.map((sql) => name({ sql }));
    expect(names.slice(0, MAX_PREPARED_STATEMENTS).every((n, i) => n === preparedStatementName({ sql: texts[i] }))).toBe(true);
    expect(names.slice(MAX_PREPARED_STATEMENTS)).toEqual(Array(10).fill(undefined));
    // A text named before the cap keeps its name.
    expect(name({ sql: texts[3] })).toBe(names[3]);
  });
});

(url ? describe : describe.skip)('prepared statements on PostgreSQL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  /** The statements prepared on one connection of the service's pool, after `work` ran on that same connection. */
  const preparedAfter = (work: (tx: Parameters<Parameters<ReturnType<typeof db>['$transaction']>[0]>[0]) => Promise<unknown>) =>
    db().$transaction(async (tx) => {
      await work(tx);
      return tx.$queryRaw<{ name: string; statement: string }[]>`SELECT name, statement FROM pg_prepared_statements`;
    });

  it('a product read is prepared once per connection under its shape name, and answers the same when run again', async () => {
    const s = await createStoreFixture();
    const p = await createProduct(t, s, { name: 'Prepared Shoe' });
    const first = await t.request('GET', productPath(s.storeId, p.id), { token: s.ownerToken });
    const again = await t.request('GET', productPath(s.storeId, p.id), { token: s.ownerToken });
    expect(again.body).toEqual(first.body);

    const prepared = await preparedAfter((tx) => tx.product.findFirst({ where: { id: p.id, storeId: s.storeId } }));
    const read = prepared.filter((r) => r.statement.includes('FROM "public"."products"') && r.statement.includes('LIMIT'));
    expect(read.length).toBeGreaterThan(0);
    for (const r of read) expect(r.name).toBe(preparedStatementName({ sql: r.statement }));
  });

  it('a list page with a filter keeps answering per its parameters: one prepared shape, different stores and words', async () => {
    const a = await createStoreFixture();
    const b = await createStoreFixture();
    await createProduct(t, a, { name: 'Cotton Shirt' });
    await createProduct(t, a, { name: 'Wool Hat' });
    await createProduct(t, b, { name: 'Cotton Scarf' });
    // More runs than PostgreSQL's five custom plans before it may switch to a generic one.
    for (let i = 0; i < 8; i++) {
      const ra = await t.request('GET', `${productsPath(a.storeId)}?search=${i % 2 ? 'cotton' : 'wool'}`, { token: a.ownerToken });
      expect(ra.body.data.map((x: { name: string }) => x.name)).toEqual([i % 2 ? 'Cotton Shirt' : 'Wool Hat']);
      const rb = await t.request('GET', `${productsPath(b.storeId)}?search=cotton`, { token: b.ownerToken });
      expect(rb.body.data.map((x: { name: string }) => x.name)).toEqual(['Cotton Scarf']);
      expect(rb.body.meta.total).toBe(1);
    }
  });

  it('every connection of the pool, the hot reads\' and Prisma\'s, runs without parallel query', async () => {
    const s = await createStoreFixture();
    const p = await createProduct(t, s, { name: 'Pooled Shoe' });
    expect((await t.request('GET', productPath(s.storeId, p.id), { token: s.ownerToken })).status).toBe(200);
    const [setting] = await readRows<{ max_parallel_workers_per_gather: string }>('SHOW max_parallel_workers_per_gather', []);
    expect(setting.max_parallel_workers_per_gather).toBe('0');
    // Every connection of the pool was opened the same way: the Prisma statements' connections too.
    const viaPrisma = await db().$queryRaw<{ max_parallel_workers_per_gather: string }[]>`SHOW max_parallel_workers_per_gather`;
    expect(viaPrisma[0].max_parallel_workers_per_gather).toBe('0');
  });

  it('keeps the options a DATABASE_URL names beside its own', async () => {
    const withOptions = new URL(url!);
    withOptions.searchParams.set('options', '-c statement_timeout=12345');
    const factory = postgresAdapterFactory(withOptions.toString(), 1);
    const adapter = await factory.connect();
    try {
      const [row] = await factory.readRows<{ timeout: string; parallel: string }>(
        "SELECT current_setting('statement_timeout') AS timeout, current_setting('max_parallel_workers_per_gather') AS parallel",
        [],
      );
      expect(row).toEqual({ timeout: '12345ms', parallel: '0' });
    } finally {
      await adapter.dispose();
    }
  });

  it('sends a read planned per values unnamed, and the search page is such a read', async () => {
    const factory = postgresAdapterFactory(url!, 1, { preparedStatements: true });
    const adapter = await factory.connect();
    try {
      const sql = 'SELECT $1::text AS word';
      await factory.readRows(sql, ['named']);
      await factory.readRows(`${sql} -- per values`, ['unnamed'], { prepare: false });
      const prepared = await factory.readRows<{ statement: string }>('SELECT statement FROM pg_prepared_statements', [], { prepare: false });
      expect(prepared.map((r) => r.statement)).toEqual([sql]);
    } finally {
      await adapter.dispose();
    }
    const store = '00000000-0000-4000-8000-000000000000';
    expect(productPageQuery(store, 'live', { search: 'cotton' }, {}).plannedPerValues).toBe(true);
    expect(productPageQuery(store, 'live', { tags: ['sale'] }, {}).plannedPerValues).toBe(true);
    expect(productPageQuery(store, 'live', { isActive: true, category: 'shoes' }, {}).plannedPerValues).toBe(false);
  });

  it('sends unnamed statements when turned off', async () => {
    const adapter = await postgresAdapterFactory(url!, 1, { preparedStatements: false }).connect();
    try {
      await adapter.queryRaw({ sql: 'SELECT 1 AS one WHERE $1::int = 1', args: [1], argTypes: [{ scalarType: 'int', arity: 'scalar' }] });
      const r = await adapter.queryRaw({ sql: 'SELECT count(*)::int AS n FROM pg_prepared_statements', args: [], argTypes: [] });
      expect(r.rows).toEqual([[0]]);
    } finally {
      await adapter.dispose();
    }
  });

  it('prepares on a connection of its own when turned on', async () => {
    const adapter = await postgresAdapterFactory(url!, 1, { preparedStatements: true }).connect();
    try {
      const sql = 'SELECT 1 AS one WHERE $1::int = 1';
      await adapter.queryRaw({ sql, args: [1], argTypes: [{ scalarType: 'int', arity: 'scalar' }] });
      const r = await adapter.queryRaw({ sql: 'SELECT name FROM pg_prepared_statements', args: [], argTypes: [] });
      expect(r.rows.map((row) => row[0])).toContain(preparedStatementName({ sql }));
    } finally {
      await adapter.dispose();
    }
  });
});
