import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPGlite, pgliteAdapterFactory, postgresAdapterFactory } from '../../src/platform/db/adapters';
import { applyMigrations } from '../../src/platform/db/migrate';
import { adminQuery, newTempDir, testDatabaseUrl, withDatabase } from './templates';

/**
 * Migrates once into a template that every test file copies: a PGlite data-dir
 * dump, or a PostgreSQL template database when DATABASE_URL is set.
 */
export default async function globalSetup() {
  const runDir = newTempDir('catalog-test-');
  const TEMPLATE_STATE = path.join(runDir, 'template.json');
  process.env.CATALOG_TEST_TEMPLATE = TEMPLATE_STATE;
  // Every test's temporary directory goes in here; globalTeardown removes it whole.
  process.env.CATALOG_TEST_TMP = runDir;
  const url = testDatabaseUrl();
  if (url) {
    const name = `catalog_tpl_${process.pid}_${Date.now()}`;
    await adminQuery(url, `CREATE DATABASE ${name}`);
    const factory = postgresAdapterFactory(withDatabase(url, name), 2);
    await applyMigrations(factory);
    writeFileSync(TEMPLATE_STATE, JSON.stringify({ kind: 'postgres', template: name }));
  } else {
    const pg = await openPGlite();
    await applyMigrations(pgliteAdapterFactory(pg));
    const dump = await pg.dumpDataDir('none');
    await pg.close();
    const file = `${TEMPLATE_STATE}.tar`;
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    writeFileSync(TEMPLATE_STATE, JSON.stringify({ kind: 'pglite', dump: file }));
  }
}
