/**
 * `npm run webhooks:listen`: a webhook receiver on this machine for trying the
 * service out (as Stripe's `stripe listen`). It registers an endpoint of the
 * store pointing at itself through the merchant REST API, verifies every
 * delivery with the `standardwebhooks` package exactly as docs/webhooks.md
 * shows, prints one line per verified delivery, and deletes the endpoint when it
 * stops. It reads BASE, STORE and TOKEN from the environment, as the README's
 * tour sets them.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';

const USAGE = `Usage: npm run --silent webhooks:listen -- [--port 4242] [--mode live|test] [--events '*'] [--ping] [--count <n>]

Receives the store's webhooks on http://127.0.0.1:<port>/webhooks and prints each verified delivery.
Needs BASE, STORE and TOKEN in the environment (eval "$(npm run --silent cli -- token env --user <email>)"),
and a service started with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (this machine is a private address).

  --port    where to listen (default 4242)
  --mode    the events of which mode to receive: live (default) or test
  --events  comma-separated event types, or '*' for all (default)
  --ping    ask the service to ping the endpoint as soon as it is registered
  --count   stop after this many verified deliveries (default: run until Ctrl-C)`;

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** One line about a verified delivery: its webhook-id, its type, and what it is about. */
function describe(webhookId: string, payload: { type: string; data: any }): string {
  const about = payload.type === 'ping' ? `endpoint ${payload.data.endpoint_id}` : `${payload.data.resource?.type} ${payload.data.resource?.id}${payload.data.resource?.version ? ` v${payload.data.resource.version}` : ''}`;
  return `verified ${webhookId} ${payload.type} ${about}`;
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4242' },
      mode: { type: 'string', default: 'live' },
      events: { type: 'string', default: '*' },
      ping: { type: 'boolean', default: false },
      count: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { BASE, STORE, TOKEN } = process.env;
  if (!BASE || !STORE || !TOKEN) fail(`BASE, STORE and TOKEN must be set\n\n${USAGE}`);
  if (values.mode !== 'live' && values.mode !== 'test') fail('--mode is live or test');
  const count = values.count === undefined ? Infinity : Number(values.count);
  if (!(count >= 1)) fail('--count is a whole number from 1');

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${BASE}/api/v1/merchant/stores/${STORE}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!res.ok) fail(`${method} ${path}: ${res.status} ${json?.code ?? ''}: ${json?.detail ?? text}`);
    return json;
  };

  let verify: Webhook | undefined;
  let received = 0;
  let stopping: Promise<void> | undefined;
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    try {
      if (!verify) throw new Error('no endpoint registered yet');
      const payload = verify.verify(body, req.headers as Record<string, string>) as { type: string; data: any };
      res.writeHead(204).end();
      process.stdout.write(`${describe(String(req.headers['webhook-id']), payload)}\n`);
      if (++received >= count) void stop();
    } catch (e) {
      res.writeHead(400).end();
      process.stderr.write(`rejected a delivery: ${(e as Error).message}\n`);
    }
  });
  // Listening first, so nothing the service sends once the endpoint exists can find the port closed.
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(Number(values.port), '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

  const endpoint = (await api('POST', '/webhook-endpoints', { url, event_types: values.events.split(',').map((t) => t.trim()), mode: values.mode, description: 'npm run webhooks:listen' })).data;
  verify = new Webhook(endpoint.secret);

  const stop = () =>
    (stopping ??= (async () => {
      await api('DELETE', `/webhook-endpoints/${endpoint.id}`);
      server.close();
      process.stderr.write(`stopped; endpoint ${endpoint.id} deleted\n`);
    })());
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  process.stderr.write(`listening on ${url} for ${values.mode} events of store ${STORE} (endpoint ${endpoint.id}); Ctrl-C stops and deletes it\n`);
  if (values.ping) await api('POST', `/webhook-endpoints/${endpoint.id}/ping`);
}

main().catch((e) => fail((e as Error).message));
