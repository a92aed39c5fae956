/** `npm start`: the service process, listening on HTTP. */

import './instrument'; // first: tracing hooks http and pg before they load
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createApp } from './app';
import { loadConfig } from './platform/config';
import { closeDatabase, compileWasmWithBaselineOnly, openDatabase } from './platform/db/client';
import { exitOnFatalError } from './platform/fatal';
import { checkSharedServices, StartupError } from './platform/preconditions';
import { answerClientErrors } from './api/clientErrors';
import { httpServerOptions } from './platform/http/serverOptions';
import { collectProcessMetrics } from './platform/metrics';
import { seedDemo } from './catalog/services/demoSeed';
import { stopTracing } from './platform/tracing';

/**
 * The only module that listens. Starts on the configured database and shuts down gracefully on SIGTERM/SIGINT.
 * Every precondition is checked before the database is migrated or seeded (the port first, by binding it;
 * then storage, Redis, the data directory's lock and the database's reachability), so a start that fails
 * changes nothing: the demo store's one-time token is printed only by a start that then serves.
 */
async function main() {
  const config = loadConfig();
  compileWasmWithBaselineOnly(config.database);
  collectProcessMetrics();
  const app = createApp(config);
  const started = Date.now();
  // Requests that arrive while the database is prepared wait for it rather than meet a database not yet open.
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let handle = (req: IncomingMessage, res: ServerResponse) => void ready.then(() => app.handler(req, res));
  const server = createServer(httpServerOptions(config), (req, res) => handle(req, res));
  answerClientErrors(server, config.publicBaseUrl);
  await listen(server, config.host, config.port);
  await checkSharedServices(config);
  const database = await openDatabase(config.database, {
    role: 'service',
    useReplicas: true,
    log: app.log,
    onSocketError: (err) => app.log.error({ err }, 'embedded database socket failed'),
  });
  database.onWriteByOtherProcess(() => app.forgetCachedState());
  if (database.appliedMigrations.length) app.log.info({ migrations: database.appliedMigrations }, 'migrations applied');
  if (config.seedDemo) {
    const demo = await seedDemo(app.systemContext());
    if (demo) printDemo(demo, config.port);
  }
  // WORKER=false: this instance only serves requests; another runs the worker (`npm run worker`).
  const stopJobs = config.worker.enabled ? app.startJobs() : async () => {};
  handle = (req, res) => void app.handler(req, res);
  markReady();
  app.log.info(
    { port: config.port, database: database.description, ms: Date.now() - started },
    `listening on http://localhost:${config.port} (dashboard at /dashboard, GraphiQL at /graphql, API reference at /docs)`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    const jobsStopped = stopJobs().catch((err) => app.log.error({ err }, 'worker did not stop cleanly'));
    server.close(async () => {
      // Attempts still in flight after their timeout are leased: another worker (or this one, restarted) tries them again.
      await Promise.race([jobsStopped, new Promise((resolve) => setTimeout(resolve, config.webhooks.timeoutMs).unref())]);
      await app.close();
      await closeDatabase();
      await stopTracing();
      app.log.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function printDemo(demo: { token: string; storeId: string; email: string; password: string }, port: number) {
  const lines = [
    '',
    'Demo store seeded (shown once):',
    `  dashboard: http://localhost:${port}/dashboard (sign in as the owner)`,
    `  owner:     ${demo.email} / ${demo.password}`,
    `  store id:  ${demo.storeId}`,
    `  token:     ${demo.token}`,
    '',
    '  Try:',
    `  curl -H "Authorization: Bearer ${demo.token}" http://localhost:${port}/api/v1/merchant/stores/${demo.storeId}/products`,
    '',
    "  The README's tour and the guides' examples use these three (paste the line into their shell):",
    `  export BASE=http://localhost:${port} STORE=${demo.storeId} TOKEN=${demo.token}`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/** Binds the port, or fails with one line saying why and what to do. */
function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const reason =
        err.code === 'EADDRINUSE' ? 'is already in use (set PORT to another one)'
        : err.code === 'EACCES' ? 'needs privileges this process lacks (set PORT above 1023)'
        : err.code === 'EADDRNOTAVAIL' ? 'is not an address of this machine (set HOST to one of its addresses, or 0.0.0.0)'
        : `cannot be listened on: ${err.message}`;
      reject(new StartupError(`${host}:${port} ${reason}`));
    });
    server.listen(port, host, () => resolve());
  });
}

main().catch(exitOnFatalError);
