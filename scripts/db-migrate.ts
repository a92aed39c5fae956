/** `npm run db:migrate`: applies pending migrations to the configured database (DATABASE_URL or the embedded PGlite). */
import { loadConfig } from '../src/config';
import { closeDatabase, openDatabase } from '../src/db/client';

async function main() {
  const config = loadConfig();
  const t = Date.now();
  await openDatabase(config.database);
  await closeDatabase();
  console.log(`migrations applied to ${config.database.kind} in ${Date.now() - t} ms`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
