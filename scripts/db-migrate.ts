/** `npm run db:migrate`: applies pending migrations to the configured database (DATABASE_URL, or the embedded PGlite, through the running service when there is one). */
import { loadConfig } from '../src/platform/config';
import { closeDatabase, openDatabase } from '../src/platform/db/client';
import { exitOnFatalError } from '../src/platform/fatal';

async function main() {
  const config = loadConfig();
  const started = Date.now();
  const database = await openDatabase(config.database);
  await closeDatabase();
  const applied = database.appliedMigrations;
  console.log(
    applied.length
      ? `applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${database.description} in ${Date.now() - started} ms: ${applied.join(', ')}`
      : `no pending migrations: ${database.description} is up to date`,
  );
}

main().catch(exitOnFatalError);
