// Run as a process of its own by test/foundation/logging.test.ts: builds the app the way `npm start`
// does (its logger from the environment), logs a line, serves one request and exits.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';

async function main() {
  const app = createApp(loadConfig());
  app.log.info({ answer: 42 }, 'hello from the logger');
  const server = createServer((req, res) => void app.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`, { headers: { 'x-request-id': 'req-abcdef123456' } });
  await res.text();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  // The request line is written when the response finishes; let it reach stdout.
  setTimeout(() => process.exit(0), 50);
}

void main();
