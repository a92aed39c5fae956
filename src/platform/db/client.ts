/** Opening the configured database (PGlite or PostgreSQL) as the process-wide Prisma client, and its direct reads. */

import type { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory, SqlQueryable } from '@prisma/driver-adapter-utils';
import { setFlagsFromString } from 'node:v8';
import { Client } from 'pg';
import type { Config } from '../config';
import { Prisma, PrismaClient } from '../../generated/prisma/client';
import { pgliteAdapterFactory, type PostgresAdapterFactory, postgresAdapterFactory } from './adapters';
import { type EmbeddedConnection, type EmbeddedRole, openEmbedded } from './embedded/open';
import { PGliteSession } from './embedded/pgliteSession';
import { DatabaseUnavailableError, describeConnectionFailure, redactedUrl } from './errors';
import { applyMigrations } from './migrate';

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

type DatabaseTarget = Config['database'] | { kind: 'pglite-instance'; pglite: PGlite };

interface OpenOptions {
  migrate?: boolean;
  /** For the embedded database: the service owns and shares it; a tool (the default) goes through a running service. */
  role?: EmbeddedRole;
  onSocketError?: (err: unknown) => void;
}

/** Opens the configured database, applies pending migrations and makes it the process-wide client. */
export async function openDatabase(target: DatabaseTarget, opts: OpenOptions = {}): Promise<Database> {
  const { kind, description, adapterFactory, release, session } = await connect(target, opts);
  try {
    const appliedMigrations = opts.migrate !== false ? await applyMigrations(adapterFactory) : [];
    const statements = { count: 0 };
    // Counted at the driver rather than with Prisma's query log: a 'query' event formats every statement's
    // parameters, a CPU cost on every statement.
    const prisma = new PrismaClient({ adapter: countingStatements(adapterFactory, statements) });
    // On PostgreSQL the hot reads skip Prisma and go to the pool (pg parses the rows); on PGlite they are Prisma raw queries.
    const direct = 'readRows' in adapterFactory ? (adapterFactory as PostgresAdapterFactory).readRows.bind(adapterFactory) : undefined;
    await prisma.$connect();
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
      async close() {
        if (current === database) current = undefined;
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
  return current.readRows<T>(sql, values, opts);
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
    return { kind: 'postgres', description: `PostgreSQL ${shown}`, adapterFactory: postgresAdapterFactory(target.url, target.poolSize, { preparedStatements: target.preparedStatements }), release: async () => {} };
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
