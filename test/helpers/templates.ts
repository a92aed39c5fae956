import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { openPGlite, pgliteAdapterFactory, postgresAdapterFactory } from '../../src/platform/db/adapters';

/** Where globalSetup leaves the migrated template, for every test file to copy. */
export function templateStatePath(): string {
  const p = process.env.CATALOG_TEST_TEMPLATE;
  if (!p) throw new Error('CATALOG_TEST_TEMPLATE is not set: run the tests through jest (globalSetup creates the template)');
  return p;
}

export const testDatabaseUrl = () => process.env.DATABASE_URL;

/** Runs one statement on the server's maintenance database (CREATE/DROP DATABASE). */
export async function adminQuery(url: string, sql: string) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export function withDatabase(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A fresh directory for a test (data directories, uploads). Under a test run it
 * is made inside the run's own directory (CATALOG_TEST_TMP, from globalSetup),
 * which globalTeardown removes: a run leaves nothing behind in the system's
 * temporary directory.
 */
export const newTempDir = (prefix: string) => mkdtempSync(path.join(process.env.CATALOG_TEST_TMP ?? tmpdir(), prefix));

/**
 * A fresh data directory whose embedded database is migrated already: a copy of the one globalSetup migrated. For
 * tests of what processes do on a database, not of how a new one is made (first opens are tested on new directories).
 */
export function migratedDataDir(prefix: string): string {
  return withMigratedDatabase(newTempDir(prefix));
}

/** Puts a copy of the migrated embedded database in the data directory `dataDir` (made if missing); returns `dataDir`. */
export function withMigratedDatabase(dataDir: string): string {
  const { dataDir: template } = JSON.parse(readFileSync(templateStatePath(), 'utf8')) as { dataDir: string };
  cpSync(path.join(template, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  return dataDir;
}

/** A fresh, empty database of the kind under test, with a raw query function. */
export async function openEmptyDatabase() {
  const url = testDatabaseUrl();
  if (url) {
    const name = `catalog_empty_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const dbUrl = withDatabase(url, name);
    const client = new Client({ connectionString: dbUrl });
    await client.connect();
    return {
      factory: () => postgresAdapterFactory(dbUrl, 2),
      query: async (sql: string) => (await client.query(sql)).rows,
      close: async () => {
        await client.end();
        await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const pg = await openPGlite();
  return {
    factory: () => pgliteAdapterFactory(pg),
    query: async (sql: string) => (await pg.query(sql)).rows as Record<string, unknown>[],
    close: () => pg.close(),
  };
}
