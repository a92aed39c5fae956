import type { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { Client } from 'pg';
import type { Config } from '../config';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { pgliteAdapterFactory, postgresAdapterFactory } from './adapters';
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
  /** Number of SQL statements Prisma has sent; used by tests that guard against N+1. */
  queryCount(): number;
  /** Calls `listener` after another local process (the CLI, psql) wrote through this process's embedded database socket. */
  onWriteByOtherProcess(listener: () => void): void;
  close(): Promise<void>;
}

let current: Database | undefined;

/** The process-wide Prisma client. Services call this; it is never carried in a request context. */
export function db(): PrismaClient {
  if (!current) throw new Error('database not opened: call openDatabase() first');
  return current.prisma;
}

export function currentDatabase(): Database | undefined {
  return current;
}

export type DatabaseTarget = Config['database'] | { kind: 'pglite-instance'; pglite: PGlite };

export interface OpenOptions {
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
    const prisma = new PrismaClient({ adapter: adapterFactory, log: [{ emit: 'event', level: 'query' }] });
    let queries = 0;
    prisma.$on('query', () => {
      queries += 1;
    });
    await prisma.$connect();
    const database: Database = {
      kind,
      description,
      prisma,
      adapterFactory,
      appliedMigrations,
      queryCount: () => queries,
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
