import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPGlite, pgliteAdapterFactory, postgresAdapterFactory } from '../../src/platform/db/adapters';
import { applyMigrations } from '../../src/platform/db/migrate';
import { adminQuery, newTempDir, testDatabaseUrl, withDatabase } from './templates';

/**
 * Migrates once into a template that every test file copies: a PGlite data-dir
 * dump, or a PostgreSQL template database when DATABASE_URL is set. Either way
 * also a migrated embedded database on disk, for the tests whose processes use
 * a data directory of their own (migratedDataDir copies it).
 */
export default async function globalSetup() {
  const runDir = newTempDir('catalog-test-');
  const TEMPLATE_STATE = path.join(runDir, 'template.json');
  process.env.CATALOG_TEST_TEMPLATE = TEMPLATE_STATE;
  // Every test's temporary directory goes in here; globalTeardown removes it whole.
  process.env.CATALOG_TEST_TMP = runDir;
  const dataDir = path.join(runDir, 'template-data');
  mkdirSync(dataDir);
  const url = testDatabaseUrl();
  if (url) {
    const name = `catalog_tpl_${process.pid}_${Date.now()}`;
    const postgres = (async () => {
      await adminQuery(url, `CREATE DATABASE ${name}`);
      await applyMigrations(postgresAdapterFactory(withDatabase(url, name), 2));
    })();
    // Meanwhile the embedded one (the two migrations wait on different things).
    const embedded = openPGlite({ dataDir: path.join(dataDir, 'pglite') }).then(async (pg) => {
      await applyMigrations(pgliteAdapterFactory(pg));
      await pg.close();
    });
    await Promise.all([postgres, embedded]);
    writeFileSync(TEMPLATE_STATE, JSON.stringify({ kind: 'postgres', template: name, dataDir }));
  } else {
    const pg = await openPGlite({ dataDir: path.join(dataDir, 'pglite') });
    await applyMigrations(pgliteAdapterFactory(pg));
    const dump = await pg.dumpDataDir('none');
    await pg.close();
    const file = `${TEMPLATE_STATE}.tar`;
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    writeFileSync(TEMPLATE_STATE, JSON.stringify({ kind: 'pglite', dump: file, dataDir }));
  }
}
