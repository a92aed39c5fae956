/** Opening the configured database (PGlite or PostgreSQL) as the process-wide Prisma client, and its direct reads. */

import type { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory, SqlQueryable } from '@prisma/driver-adapter-utils';
import { setFlagsFromString } from 'node:v8';
import { Client } from 'pg';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';
import { Prisma, PrismaClient } from '../../generated/prisma/client';
import { pgliteAdapterFactory, type PostgresAdapterFactory, postgresAdapterFactory } from './adapters';
import { type EmbeddedConnection, type EmbeddedRole, openEmbedded } from './embedded/open';
import { PGliteSession } from './embedded/pgliteSession';
import { DatabaseUnavailableError, describeConnectionFailure, redactedUrl } from './errors';
import { applyMigrations } from './migrate';
import { cacheBound, registerCache } from '../caches';
import { type ReadTarget, type ReplicaOptions, ReplicaSet, replicaName, scopedReadTarget } from './replicas';

export { Prisma, PrismaClient };

export interface Database {
  kind: 'pglite' | 'postgres';
  /** One line for logs: which database, and how this process reaches it. */
  description: string;
  prisma: PrismaClient;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Migrations this open applied (empty when none were pending or migration was skipped). */
  appliedMigrations: string[];
  /** Rows of one read-only statement, outside any transaction (see readRows). */
  readRows<T>(sql: string, values: unknown[], opts?: ReadOptions): Promise<T[]>;
  /** The PostgreSQL pool's connections now (undefined on the embedded database). */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
  /** Number of SQL statements this process has sent (Prisma's and the direct reads'); used by tests that guard against N+1. */
  queryCount(): number;
  /** Calls `listener` after another local process (the CLI, psql) wrote through this process's embedded database socket. */
  onWriteByOtherProcess(listener: () => void): void;
  /** The streaming replicas of DATABASE_REPLICA_URLS, monitored; undefined without them (the embedded database, a plain DATABASE_URL). */
  replicas?: ReplicaSet;
  close(): Promise<void>;
}

let current: Database | undefined;

/**
 * For a process on PostgreSQL, called before the database opens: WebAssembly is compiled by V8's baseline
 * compiler (Liftoff) only. Optimizing Prisma's query compiler (TurboFan tier-up) holds tens of MB of memory
 * and makes its queries no faster (the hot reads do not use it). Not on the embedded database, which is
 * PostgreSQL compiled to wasm and needs the optimizer's speed.
 */
export function compileWasmWithBaselineOnly(target: DatabaseTarget): void {
  if (target.kind === 'postgres') setFlagsFromString('--liftoff-only');
}

/** The process-wide Prisma client. Services call this; it is never carried in a request context. */
export function db(): PrismaClient {
  if (!current) throw new Error('database not opened: call openDatabase() first');
  return current.prisma;
}

export function currentDatabase(): Database | undefined {
  return current;
}

type PostgresTarget = Omit<Extract<Config['database'], { kind: 'postgres' }>, 'replicas'> & { replicas?: ReplicaOptions };
type DatabaseTarget = Exclude<Config['database'], { kind: 'postgres' }> | PostgresTarget | { kind: 'pglite-instance'; pglite: PGlite };

interface OpenOptions {
  migrate?: boolean;
  /** For the embedded database: the service owns and shares it; a tool (the default) goes through a running service. */
  role?: EmbeddedRole;
  onSocketError?: (err: unknown) => void;
  /** Open the target's streaming replicas and monitor them (the service; tools and the worker read only the primary). */
  useReplicas?: boolean;
  /** Where the replica monitor reports a replica it skips (silent when not given). */
  log?: Logger;
}

/** Opens the configured database, applies pending migrations and makes it the process-wide client. */
export async function openDatabase(target: DatabaseTarget, opts: OpenOptions = {}): Promise<Database> {
  const { kind, description, adapterFactory, release, session } = await connect(target, opts);
  try {
    const appliedMigrations = opts.migrate !== false ? await applyMigrations(adapterFactory) : [];
    const statements = { count: 0 };
    // Counted at the driver rather than with Prisma's query log: a 'query' event formats every statement's
    // parameters, a CPU cost on every statement.
    const prisma = newPrismaClient(countingStatements(adapterFactory, statements));
    // On PostgreSQL the hot reads skip Prisma and go to the pool (pg parses the rows); on PGlite they are Prisma raw queries.
    const direct = 'readRows' in adapterFactory ? (adapterFactory as PostgresAdapterFactory).readRows.bind(adapterFactory) : undefined;
    await prisma.$connect();
    const replicas =
      opts.useReplicas && target.kind === 'postgres' && target.replicas && direct
        ? await openReplicas(target, statements, { name: 'primary', prisma, readRows: countedReads(adapterFactory as PostgresAdapterFactory, statements) }, opts.log ?? pino({ level: 'silent' }))
        : undefined;
    const database: Database = {
      kind,
      description,
      prisma,
      adapterFactory,
      appliedMigrations,
      readRows: direct
        ? <T>(sql: string, values: unknown[], readOpts?: ReadOptions) => {
            statements.count += 1;
            return direct<T>(sql, values, readOpts);
          }
        : <T>(sql: string, values: unknown[]) => prisma.$queryRawUnsafe<T[]>(sql, ...values),
      queryCount: () => statements.count,
      poolStats: () => (direct ? (adapterFactory as PostgresAdapterFactory).poolStats() : undefined),
      onWriteByOtherProcess: (listener) => session?.onWriteByOtherProcess(listener),
      replicas,
      async close() {
        if (current === database) current = undefined;
        await replicas?.close();
        await prisma.$disconnect();
        await release();
      },
    };
    current = database;
    return database;
  } catch (e) {
    await release().catch(() => {});
    throw e;
  }
}

/**
 * Query plans Prisma keeps (its compiled statements by query shape, least recently used dropped first): half the
 * `prisma_query_plans` bound for single queries, half for batches, as the client is made (Prisma's own default is
 * 1,000 each). Prisma does not tell how many it holds: /metrics shows the bound only.
 */
function newPrismaClient(adapter: SqlMigrationAwareDriverAdapterFactory): PrismaClient {
  registerCache('prisma_query_plans', () => null);
  return new PrismaClient({ adapter, queryPlanCacheMaxSize: Math.max(1, Math.floor(cacheBound('prisma_query_plans') / 2)) });
}

/**
 * The replicas of a PostgreSQL target: a Prisma client and direct reads on each (a pool of DATABASE_POOL_SIZE
 * connections, opened lazily), counted with the primary's statements, and their monitor started. A replica that
 * does not answer does not stop the start: it serves no read until it does.
 */
async function openReplicas(target: PostgresTarget, statements: { count: number }, primary: ReadTarget, log: Logger): Promise<ReplicaSet> {
  const options = target.replicas!;
  const targetOf = (url: string, name: string): ReadTarget & { url: string } => {
    const factory = postgresAdapterFactory(url, target.poolSize, { preparedStatements: target.preparedStatements, statementsCacheName: `prepared_statements:${name}` });
    return { name, url, prisma: newPrismaClient(countingStatements(factory, statements)), readRows: countedReads(factory, statements) };
  };
  const names = options.urls.map(replicaName);
  const replicas = options.urls.map((url, i) => targetOf(url, names.indexOf(names[i]) === i ? names[i] : `${names[i]}#${i + 1}`));
  // The pools open lazily; a replica that is down now connects when it is back.
  await Promise.all(replicas.map((r) => r.prisma.$connect().catch(() => {})));
  const set = new ReplicaSet(primary, replicas, { ...options, primaryUrl: target.url, log });
  await set.start();
  return set;
}

function countedReads(factory: PostgresAdapterFactory, statements: { count: number }): ReadTarget['readRows'] {
  return (sql, values, opts) => {
    statements.count += 1;
    return factory.readRows(sql, values, opts);
  };
}

/**
 * The adapter factory whose connections add one to `counter` for every statement
 * Prisma sends: queries and commands, in a transaction or not. Prisma sends a
 * transaction's COMMIT or ROLLBACK as a command (counted) and its BEGIN through
 * the adapter's startTransaction (not counted), as its query log did.
 */
function countingStatements(factory: SqlMigrationAwareDriverAdapterFactory, counter: { count: number }): SqlMigrationAwareDriverAdapterFactory {
  const counted = <T extends SqlQueryable>(q: T): T => {
    const queryRaw = q.queryRaw.bind(q);
    const executeRaw = q.executeRaw.bind(q);
    q.queryRaw = (query) => {
      counter.count += 1;
      return queryRaw(query);
    };
    q.executeRaw = (query) => {
      counter.count += 1;
      return executeRaw(query);
    };
    return q;
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connectToShadowDb: () => factory.connectToShadowDb(),
    connect: async () => {
      const adapter = counted(await factory.connect());
      const startTransaction = adapter.startTransaction.bind(adapter);
      adapter.startTransaction = async (isolationLevel) => counted(await startTransaction(isolationLevel));
      return adapter;
    },
  };
}

/**
 * Rows of one read-only statement (`$1`… placeholders), for the hot read paths:
 * on PostgreSQL sent straight to the pool as a named prepared statement and
 * parsed by pg (numeric and bigint arrive as text, timestamps as Date, JSON
 * parsed), on the embedded database a Prisma raw query. Never inside a
 * transaction: a read that must see a transaction's writes uses its client.
 */
export function readRows<T>(sql: string, values: unknown[], opts?: ReadOptions): Promise<T[]> {
  if (!current) throw new Error('database not opened: call openDatabase() first');
  // Within a query operation that reads a replica (src/api/graphql/replicaReads.ts); only looked up when there are replicas.
  const target = current.replicas && scopedReadTarget();
  return (target || current).readRows<T>(sql, values, opts);
}

interface ReadOptions {
  /**
   * false: the statement is planned for its values on every run (sent unnamed). For statements whose best plan
   * depends on the values, such as a search: once a named statement has run five times PostgreSQL may keep one
   * generic plan for it, and a search's generic plan can be hundreds of times slower than the plan for its values.
   */
  prepare?: boolean;
}

export async function closeDatabase() {
  await current?.close();
}

interface Connection {
  kind: Database['kind'];
  description: string;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** The shared PGlite session, when this process opened the embedded database itself. */
  session?: PGliteSession;
  release(): Promise<void>;
}

async function connect(target: DatabaseTarget, opts: OpenOptions): Promise<Connection> {
  if (target.kind === 'postgres') {
    const shown = redactedUrl(target.url);
    await checkReachable(target.url, shown);
    return { kind: 'postgres', description: `PostgreSQL ${shown}`, adapterFactory: postgresAdapterFactory(target.url, target.poolSize, { preparedStatements: target.preparedStatements, statementsCacheName: 'prepared_statements' }), release: async () => {} };
  }
  if (target.kind === 'pglite-instance') {
    const session = new PGliteSession(target.pglite);
    return {
      kind: 'pglite',
      description: 'PGlite (in memory)',
      adapterFactory: pgliteAdapterFactory(session.inProcessClient()),
      session,
      release: async () => {
        if (!target.pglite.closed) await target.pglite.close();
      },
    };
  }
  const embedded: EmbeddedConnection = await openEmbedded(target, opts.role ?? 'tool', { onSocketError: opts.onSocketError });
  if (embedded.via === 'service') {
    const where = `PGlite ${target.dataDir} through the running service (pid ${embedded.holder.pid})`;
    await checkReachable(embedded.url, where);
    return { kind: 'pglite', description: where, adapterFactory: postgresAdapterFactory(embedded.url, 1), release: async () => {} };
  }
  const shared = embedded.socket ? `, shared on ${embedded.socket.path}` : '';
  return {
    kind: 'pglite',
    description: `PGlite ${target.dataDir}${shared}`,
    adapterFactory: pgliteAdapterFactory(embedded.session.inProcessClient()),
    session: embedded.session,
    release: () => embedded.close(),
  };
}

/**
 * One connection before anything else, so that a wrong URL, a server that is
 * down or refused credentials become one clear line instead of a driver
 * stack trace from the middle of the first query.
 */
async function checkReachable(url: string, shown: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {}); // an error after connect (server going away) must not crash the process
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (e) {
    throw new DatabaseUnavailableError(describeConnectionFailure(e, shown), { cause: e });
  } finally {
    await client.end().catch(() => {});
  }
}
