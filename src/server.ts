import { createServer } from 'node:http';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { closeDatabase, openDatabase } from './db/client';
import { seedDemo } from './db/seed';

/** The only module that listens. Starts on the configured database and shuts down gracefully on SIGTERM/SIGINT. */
async function main() {
  const config = loadConfig();
  const app = createApp(config);
  const started = Date.now();
  await openDatabase(config.database);
  if (config.seedDemo) {
    const demo = await seedDemo();
    if (demo) printDemo(demo, config.port);
  }
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => void app.handler(req, res));
  server.listen(config.port, config.host, () => {
    app.log.info({ port: config.port, database: config.database.kind, ms: Date.now() - started }, `listening on http://localhost:${config.port} (GraphiQL at /graphql)`);
  });

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
    server.close(async () => {
      await app.close();
      await closeDatabase();
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
    `  owner:     ${demo.email} / ${demo.password}`,
    `  store id:  ${demo.storeId}`,
    `  token:     ${demo.token}`,
    '',
    '  Try:',
    `  curl -H "Authorization: Bearer ${demo.token}" http://localhost:${port}/api/v1/merchant/stores/${demo.storeId}/products`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
