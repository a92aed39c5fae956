/**
 * Prisma driver adapters for PGlite and PostgreSQL, as the project needs them: extensions loaded, migration
 * scripts run whole and awaited, named prepared statements, direct reads on the pool, no parallel query.
 */

import { createHash } from 'node:crypto';
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type * as PGliteAdapter from 'pglite-prisma-adapter';
import { cacheBound, registerCache } from '../caches';

type Extension = NonNullable<PGliteOptions['extensions']>[string];

/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * PGlite, its extensions and its Prisma adapter, loaded on first use: a service on PostgreSQL never needs them
 * (test/perf/lazyModules.test.ts). The extensions are the ones the migrations use: pg_trgm (trigram search index)
 * and btree_gin (the store and mode columns inside the GIN indexes); the package types their subpaths as ESM only,
 * and their CJS builds exist.
 */
function pglite() {
  const { PGlite } = require('@electric-sql/pglite') as typeof import('@electric-sql/pglite');
  const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };
  const { btree_gin } = require('@electric-sql/pglite/contrib/btree_gin') as { btree_gin: Extension };
  const { PrismaPGlite } = require('pglite-prisma-adapter') as typeof PGliteAdapter;
  return { PGlite, PrismaPGlite, extensions: { pg_trgm, btree_gin } };
}
/* eslint-enable @typescript-eslint/no-require-imports */

export async function openPGlite(opts: Omit<PGliteOptions, 'extensions'> & { dataDir?: string } = {}): Promise<PGlite> {
  const { PGlite, extensions } = pglite();
  const pg = new PGlite({ ...opts, extensions });
  await pg.waitReady;
  return pg;
}

/**
 * PGlite adapter whose shadow database (used when diffing migrations) also has
 * the extensions loaded; the stock adapter opens a bare in-memory PGlite.
 */
export function pgliteAdapterFactory(pg: PGlite): SqlMigrationAwareDriverAdapterFactory {
  // `pg` may be a PGliteSession's guarded face: everything below goes through it.
  const { PrismaPGlite } = pglite();
  const base = new PrismaPGlite(pg);
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: async () => withAwaitedScripts(await base.connect(), pg),
    connectToShadowDb: async (): Promise<SqlDriverAdapter> => {
      const shadow = await openPGlite();
      const adapter = withAwaitedScripts(await new PrismaPGlite(shadow).connect(), shadow);
      return Object.assign(adapter, { dispose: () => shadow.close() });
    },
  };
}

/**
 * pglite-prisma-adapter 0.7 fires `exec(script)` without awaiting it, so a
 * failing migration script was recorded as applied. Await it, so the schema
 * engine sees the error (the script runs as one implicit transaction, as with
 * a PostgreSQL simple query, so nothing of a failed migration remains).
 */
function withAwaitedScripts(adapter: SqlDriverAdapter, pg: PGlite): SqlDriverAdapter {
  adapter.executeScript = async (script: string) => {
    await pg.exec(script);
  };
  return adapter;
}

/**
 * @prisma/adapter-pg 7.10 runs a migration script by splitting it on ';' and
 * sending the pieces one by one, so a failing migration stays half-applied
 * (and a ';' inside a string or function body breaks it). Send the whole
 * script as one simple query instead: PostgreSQL runs it as one implicit
 * transaction, exactly like the native engine and psql -1.
 */
function withWholeScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const pool = (adapter as { underlyingDriver?: () => unknown }).underlyingDriver?.() as { query(sql: string): Promise<unknown> } | undefined;
  if (!pool) return adapter;
  adapter.executeScript = async (script: string) => {
    await pool.query(script);
  };
  return adapter;
}

/**
 * The name of a statement's server-side prepared form: one per SQL text, so
 * each connection parses and plans a query shape once and then only binds and
 * executes it (PostgreSQL keeps a generic plan once it is as good as the
 * custom ones). Every text the service sends is parameterized; how many are
 * prepared is capped (MAX_PREPARED_STATEMENTS).
 */
export const preparedStatementName = (query: { sql: string }) => 'q' + createHash('sha1').update(query.sql).digest('hex').slice(0, 24);

/**
 * How many distinct statement texts a process prepares (the default of `prepared_statements` in CACHE_MAX_ENTRIES). A connection keeps
 * every statement it prepared until it closes, so a client that walks through
 * every combination of list filters and sorts must not make each connection
 * hold thousands: past this many texts, new ones are sent unnamed (parsed and
 * planned per execution, as without prepared statements). The service's own
 * shapes in everyday use number well under a hundred.
 */
export const MAX_PREPARED_STATEMENTS = 256;

/**
 * The adapter's statement namer: a name for each of the first `max` distinct texts, then none. With `cacheName`,
 * the bound is that cache's (CACHE_MAX_ENTRIES) and its count is in /metrics.
 */
export function preparedStatementNamer(max = MAX_PREPARED_STATEMENTS, cacheName?: string): (query: { sql: string }) => string | undefined {
  const named = new Map<string, string>();
  if (cacheName) registerCache(cacheName, () => named.size);
  return (query) => {
    const known = named.get(query.sql);
    if (known !== undefined || named.size >= (cacheName ? cacheBound(cacheName) : max)) return known;
    const name = preparedStatementName(query);
    named.set(query.sql, name);
    return name;
  };
}

/**
 * A PostgreSQL adapter factory that can also run a read straight on the pool of
 * its connection, without Prisma: the hot read paths (a list page, a product)
 * use it, where Prisma's raw-query mapping costs more CPU than the statement.
 */
export interface PostgresAdapterFactory extends SqlMigrationAwareDriverAdapterFactory {
  /**
   * Rows of one statement as pg parses them (numeric and bigint as text, times as Date, JSON parsed); fails before
   * the first connect. `prepare: false` sends it unnamed, so it is planned for its values every time.
   */
  readRows<T>(sql: string, values: unknown[], opts?: { prepare?: boolean }): Promise<T[]>;
  /** The pool's connections now: open, idle, and requests waiting for one (undefined before the first connect). */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
}

/**
 * The connection string and `options` of a pool: the options the URL names (`?options=-c …`), then no parallel
 * query. pg lets the URL's `options` override the config's, so they move from the URL into the config.
 */
function withoutParallelQuery(url: string): { connectionString: string; options: string } {
  const own = '-c max_parallel_workers_per_gather=0';
  try {
    const parsed = new URL(url);
    const named = parsed.searchParams.get('options');
    if (named === null) return { connectionString: url, options: own };
    parsed.searchParams.delete('options');
    return { connectionString: parsed.toString(), options: `${named} ${own}` };
  } catch {
    // A URL pg reads but WHATWG does not: it is passed on as it is.
    return { connectionString: url, options: own };
  }
}

export function postgresAdapterFactory(
  url: string,
  poolSize = 10,
  opts: { onConnectionError?: (err: Error) => void; preparedStatements?: boolean; statementsCacheName?: string } = {},
): PostgresAdapterFactory {
  // Without parallel query: every statement the service sends reads about a page of rows, and a parallel plan's
  // worker processes (forked per statement, with cold caches) cost more than they save: starting them takes
  // longer than the page's work.
  const config = { max: poolSize, ...withoutParallelQuery(url) };
  const namer = opts.preparedStatements ? preparedStatementNamer(MAX_PREPARED_STATEMENTS, opts.statementsCacheName) : undefined;
  // Typed as always naming; the adapter hands the result to pg as the query's `name`, where undefined means unnamed.
  const statementNameGenerator = namer as ((query: { sql: string }) => string) | undefined;
  const base = new PrismaPg(config);
  const onError = (err: Error) => opts.onConnectionError?.(err);
  let current: pg.Pool | undefined;
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    // A pool per connection of Prisma (ended with it) whose every client has an error listener for as
    // long as it lives: a connection the server drops while it is checked out between statements
    // (pg_terminate_backend, a failover) emits 'error', which must never reach the process unhandled.
    connect: async () => {
      const pool = new pg.Pool(config);
      pool.on('connect', (client) => client.on('error', onError));
      pool.on('error', onError);
      current = pool;
      return withWholeScripts(await new PrismaPg(pool, { disposeExternalPool: true, statementNameGenerator }).connect());
    },
    connectToShadowDb: async () => withWholeScripts(await base.connectToShadowDb()),
    async readRows<T>(sql: string, values: unknown[], opts: { prepare?: boolean } = {}) {
      if (!current) throw new Error('readRows before the adapter connected');
      const result = await current.query({ name: opts.prepare === false ? undefined : namer?.({ sql }), text: sql, values });
      return result.rows as T[];
    },
    poolStats: () => current && { total: current.totalCount, idle: current.idleCount, waiting: current.waitingCount },
  };
}
