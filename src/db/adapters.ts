import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/** Extensions the migrations use (trigram search index). The package types this subpath as ESM only; its CJS build exists. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: NonNullable<PGliteOptions['extensions']>[string] };
const extensions = { pg_trgm };

export async function openPGlite(opts: Omit<PGliteOptions, 'extensions'> & { dataDir?: string } = {}): Promise<PGlite> {
  const pg = new PGlite({ ...opts, extensions });
  await pg.waitReady;
  return pg;
}

/**
 * PGlite adapter whose shadow database (used when diffing migrations) also has
 * the extensions loaded; the stock adapter opens a bare in-memory PGlite.
 */
export function pgliteAdapterFactory(pg: PGlite): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaPGlite(pg);
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    connect: () => base.connect(),
    connectToShadowDb: async (): Promise<SqlDriverAdapter> => new PrismaPGlite(await openPGlite()).connect(),
  };
}

export function postgresAdapterFactory(url: string, poolSize = 10) {
  return new PrismaPg({ connectionString: url, max: poolSize });
}
