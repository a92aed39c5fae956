/** `npm run worker`: the background worker in a process of its own. */

import './instrument'; // first: tracing hooks http and pg before they load
import { loadConfig } from './platform/config';
import { closeDatabase, compileWasmWithBaselineOnly, db, openDatabase } from './platform/db/client';
import { isRunning, readHolder } from './platform/db/embedded/dataDirLock';
import { DatabaseUnavailableError } from './platform/db/errors';
import { exitOnFatalError } from './platform/fatal';
import { checkSharedServices } from './platform/preconditions';
import { createWorker } from './jobs/worker';
import { createLogger } from './platform/logger';
import { stopTracing } from './platform/tracing';

/**
 * `npm run worker`: the background worker alone (webhook delivery, scheduled
 * publishing, retention), for deployments whose API instances run with
 * WORKER=false. On PostgreSQL start as many as you like: they share the work.
 * On the embedded database it works beside a running service, through the
 * service's socket (as the CLI does); it never holds the data directory itself,
 * which would keep the service from starting.
 */
async function main() {
  const config = loadConfig();
  const log = createLogger(config);
  if (config.database.kind === 'pglite') {
    const holder = readHolder(config.database.lockFile);
    if (typeof holder !== 'object' || !isRunning(holder) || holder.role !== 'service' || !holder.socket) {
      throw new DatabaseUnavailableError(
        `the embedded database under ${config.dataDir} is reached through a running service: start it (\`npm start\`, with WORKER=false to leave the work to this process) and run \`npm run worker\` again, or use PostgreSQL (DATABASE_URL)`,
      );
    }
  }
  // The worker sweeps stored files no image uses any more; it uses no Redis.
  await checkSharedServices({ storage: config.storage });
  compileWasmWithBaselineOnly(config.database);
  const database = await openDatabase(config.database, { role: 'tool' });
  if (database.appliedMigrations.length) log.info({ migrations: database.appliedMigrations }, 'migrations applied');
  log.info({ database: database.description }, 'worker process started');
  const worker = createWorker({ config, log, db });
  worker.start();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing attempts in flight');
    const force = setTimeout(() => {
      log.warn('shutdown timeout: exiting with attempts in flight (they are tried again after their lease)');
      process.exit(1);
    }, config.webhooks.timeoutMs + config.shutdownTimeoutMs);
    force.unref();
    await worker.stop();
    await closeDatabase();
    await stopTracing();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch(exitOnFatalError);
