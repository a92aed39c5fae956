import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import type { Config } from '../../src/platform/config';
import type { Mode } from '../../src/kernel/access';
import { createWorker, type Worker } from '../../src/jobs/worker';
import { generateSecret } from '../../src/events/webhooks/signing';
import type { TestServer } from './harness';

/**
 * Webhook test helpers: a local receiver with programmable answers, signature
 * verification with the `standardwebhooks` package (never the service's own
 * code), a controllable clock, a worker on a test server's database, and
 * endpoint rows for engine tests.
 */

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Wall-clock time of arrival (ms). */
  receivedAt: number;
}

/**
 * How the receiver answers one request. `hang`: never answers (until the
 * receiver closes); `delayMs`: answers after a while; `destroy`: drops the
 * connection without an answer.
 */
export interface Answer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  hang?: boolean;
  destroy?: boolean;
}

export interface Receiver {
  /** http://127.0.0.1:<port>/hooks */
  url: string;
  port: number;
  /** Every request so far, in order of arrival. */
  requests: ReceivedRequest[];
  /** Queues answers for the next requests, in order; afterwards the default answers. */
  answerNext(...answers: Answer[]): void;
  /** The answer when none is queued (initially 200 `ok`); a function sees the request. */
  setDefault(answer: Answer | ((req: ReceivedRequest) => Answer)): void;
  /** Resolves with the requests once at least `count` have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets the requests and queued answers. */
  reset(): void;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1 recording every request and answering as programmed. */
export async function startReceiver(opts: { port?: number; defaultAnswer?: Answer } = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let queue: Answer[] = [];
  let fallback: Answer | ((req: ReceivedRequest) => Answer) = opts.defaultAnswer ?? { status: 200, body: 'ok' };
  let waiters: { count: number; resolve: () => void }[] = [];

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      const received: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() };
      requests.push(received);
      const answer = queue.length ? queue.shift()! : typeof fallback === 'function' ? fallback(received) : fallback;
      waiters = waiters.filter((w) => {
        if (requests.length < w.count) return true;
        w.resolve();
        return false;
      });
      if (answer.hang) return;
      if (answer.destroy) {
        req.socket.destroy();
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...(answer.headers ?? {}) });
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    answerNext: (...answers) => {
      queue.push(...answers);
    },
    setDefault: (answer) => {
      fallback = answer;
    },
    waitFor(count, timeoutMs = 15_000) {
      if (requests.length >= count) return Promise.resolve([...requests]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver: ${requests.length} of ${count} requests after ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve([...requests]);
          },
        });
      });
    },
    reset() {
      requests.length = 0;
      queue = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A local port nothing listens on (a connection to it is refused). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Verifies a delivery with the `standardwebhooks` package and returns the parsed
 * body; throws if no signature matches `secret`. `at` is the receiver's clock
 * (the package refuses timestamps more than 5 minutes off): pass the test's
 * controllable clock when the worker runs on one.
 */
export function verifyDelivery(secret: string, req: ReceivedRequest, at?: Date): any {
  const wh = new Webhook(secret);
  const realNow = Date.now;
  if (at) Date.now = () => at.getTime();
  try {
    return wh.verify(req.body, {
      'webhook-id': req.headers['webhook-id'],
      'webhook-timestamp': req.headers['webhook-timestamp'],
      'webhook-signature': req.headers['webhook-signature'],
    });
  } finally {
    Date.now = realNow;
  }
}

/** A clock tests move by hand: pass `clock.now` to startTestServer and testWorker. */
export function controllableClock(start = new Date()) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms: number) {
      current += ms;
      return new Date(current);
    },
    set(at: Date) {
      current = at.getTime();
    },
  };
}

/**
 * A worker on the test server's database and config (its clock and jitter
 * replaceable; `config` overrides parts of the server's). Drive it with
 * runOnce(), or start() it and stop() it at the end of the test.
 */
export function testWorker(
  t: Pick<TestServer, 'config' | 'database'>,
  opts: { now?: () => Date; random?: () => number; config?: Partial<Config> } = {},
): Worker {
  return createWorker({
    config: { ...t.config, ...(opts.config ?? {}) },
    log: pino({ level: 'silent' }),
    db: () => t.database.prisma,
    now: opts.now,
    random: opts.random,
  });
}

/**
 * An endpoint row straight in the table (for engine tests that do not go
 * through the endpoint API). Returns the row, including its secret.
 */
export async function insertEndpoint(
  t: Pick<TestServer, 'database'>,
  storeId: string,
  opts: { url: string; mode?: Mode; eventTypes?: string[]; description?: string; secret?: string; createdAt?: Date },
) {
  return t.database.prisma.webhookEndpoint.create({
    data: {
      storeId,
      mode: opts.mode ?? 'live',
      url: opts.url,
      description: opts.description ?? '',
      eventTypes: opts.eventTypes ?? ['*'],
      secret: opts.secret ?? generateSecret(),
      createdAt: opts.createdAt,
    },
  });
}

/** The messages of an endpoint with their attempts, oldest first. */
export function messagesOf(t: Pick<TestServer, 'database'>, endpointId: string) {
  return t.database.prisma.webhookMessage.findMany({
    where: { endpointId },
    orderBy: { id: 'asc' },
    include: { attempts: { orderBy: { number: 'asc' } } },
  });
}
