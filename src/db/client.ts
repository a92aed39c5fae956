import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { Config } from '../config';
import { Prisma, PrismaClient } from '../generated/prisma/client';
import { openPGlite, pgliteAdapterFactory, postgresAdapterFactory } from './adapters';
import { applyMigrations } from './migrate';

export { Prisma, PrismaClient };

export interface Database {
  kind: 'pglite' | 'postgres';
  prisma: PrismaClient;
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** Number of SQL statements Prisma has sent; used by tests that guard against N+1. */
  queryCount(): number;
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

type DatabaseTarget = Config['database'] | { kind: 'pglite-instance'; pglite: PGlite };

/** Opens the configured database, applies pending migrations and makes it the process-wide client. */
export async function openDatabase(target: DatabaseTarget, opts: { migrate?: boolean } = {}): Promise<Database> {
  let pglite: PGlite | undefined;
  let adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  let kind: Database['kind'];
  if (target.kind === 'postgres') {
    adapterFactory = postgresAdapterFactory(target.url, target.poolSize);
    kind = 'postgres';
  } else {
    if (target.kind === 'pglite-instance') pglite = target.pglite;
    else {
      await mkdir(target.dataDir, { recursive: true });
      pglite = await openPGlite({ dataDir: target.dataDir });
    }
    adapterFactory = pgliteAdapterFactory(pglite);
    kind = 'pglite';
  }
  if (opts.migrate !== false) await applyMigrations(adapterFactory);
  const prisma = new PrismaClient({ adapter: adapterFactory, log: [{ emit: 'event', level: 'query' }] });
  let queries = 0;
  prisma.$on('query', () => {
    queries += 1;
  });
  await prisma.$connect();
  const database: Database = {
    kind,
    prisma,
    adapterFactory,
    queryCount: () => queries,
    async close() {
      await prisma.$disconnect();
      if (pglite && !pglite.closed) await pglite.close();
      if (current === database) current = undefined;
    },
  };
  current = database;
  return database;
}

export async function closeDatabase() {
  await current?.close();
}
