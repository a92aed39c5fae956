import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPGlite, pgliteAdapterFactory } from '../../src/platform/db/adapters';
import { applyMigrations, diffSchemaAgainstMigrations, MIGRATIONS_DIR, MigrationError } from '../../src/platform/db/migrate';
import { describeIndependentOfDatabase } from '../helpers/serverProcess';
import { newTempDir, openEmptyDatabase } from '../helpers/templates';

describe('migration runner (wasm schema engine)', () => {
  it('applies the history, records it, and is a no-op when run again', async () => {
    const d = await openEmptyDatabase();
    try {
      const first = await applyMigrations(d.factory());
      expect(first.length).toBeGreaterThan(0);
      const recorded = await d.query('SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name');
      expect(recorded.map((r) => r.migration_name)).toEqual(first);
      expect(recorded.every((r) => r.finished_at)).toBe(true);
      const tables = await d.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
      expect(tables.map((r) => r.table_name)).toEqual(expect.arrayContaining(['products', 'api_keys', 'oauth_tokens', 'variants']));

      expect(await applyMigrations(d.factory())).toEqual([]);
      expect(await d.query('SELECT count(*)::int AS n FROM _prisma_migrations')).toEqual([{ n: first.length }]);
    } finally {
      await d.close();
    }
  }, 120_000); // applies the whole history

  it('reports a failing migration clearly and leaves nothing of it applied', async () => {
    const d = await openEmptyDatabase();
    const dir = newTempDir('catalog-migrations-');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    const bad = path.join(dir, '29990101000000_broken');
    mkdirSync(bad);
    // The first statement would succeed on its own; the second fails, so the whole migration must roll back.
    writeFileSync(path.join(bad, 'migration.sql'), 'CREATE TABLE half_applied (id int);\nALTER TABLE no_such_table ADD COLUMN x int;\n');
    try {
      const first = applyMigrations(d.factory(), { migrationsDir: dir });
      await expect(first).rejects.toThrow(MigrationError);
      await expect(first).rejects.toThrow(/^Migration 29990101000000_broken failed and was rolled back: relation "no_such_table" does not exist$/);
      // Re-running refuses to continue past the recorded failure, and says which migration it is.
      await expect(applyMigrations(d.factory(), { migrationsDir: dir })).rejects.toThrow(/`29990101000000_broken` migration .* failed/);
      const leftovers = await d.query(`SELECT table_name FROM information_schema.tables WHERE table_name = 'half_applied'`);
      expect(leftovers).toEqual([]);
      // Earlier, good migrations stay applied.
      expect((await d.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'products'`))[0].n).toBe(1);
    } finally {
      await d.close();
    }
  }, 120_000); // applies the whole history twice
});

// On an embedded database of its own whatever DATABASE_URL says.
describeIndependentOfDatabase('migration history (wasm schema engine)', () => {
  it('schema.prisma and the committed migrations agree (no pending schema change)', async () => {
    const pg = await openPGlite();
    try {
      expect((await diffSchemaAgainstMigrations(pgliteAdapterFactory(pg))).trim()).toBe('');
    } finally {
      await pg.close();
    }
  }, 120_000); // replays the whole history on a shadow database
});
