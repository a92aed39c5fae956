/**
 * Webhook delivery: claims due messages, POSTs each to its endpoint with Standard Webhooks headers, records
 * the attempt and schedules the next one.
 */

import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../../platform/config';
import type { RequestContext } from '../../platform/context';
import { Prisma, type PrismaClient } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import { emit, transaction } from '../../platform/outbox/outbox';
import { webhookEndpointView } from '../services/views';
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, nextAttemptAt } from './retrySchedule';
import { type EventText, EVENT_TEXT_COLUMNS, eventTextBody } from './payload';
import { signatureHeader } from './signing';
import { webhookDeliveries } from '../../platform/metrics';
import { assertDeliverableHost, ForbiddenTargetError, guardedLookup } from './targets';

/**
 * At least once, and never two attempts of one message at a time: a claim sets
 * `locked_until` (the lease: the timeout plus a margin) and bumps
 * `attempt_count` in one statement whose inner SELECT skips rows another worker
 * holds (FOR UPDATE SKIP LOCKED), so several instances share the work. An
 * attempt's result is written only while its `attempt_count` is still the
 * message's (a fencing token); a worker that died mid-attempt leaves the lease
 * to expire and the message is tried again.
 *
 * Results are written in batches (one INSERT of attempts, one UPDATE of
 * messages per batch), because delivery runs beside the API on the same database.
 */

/** The first bytes of an answer the delivery log keeps; the rest is not read. */
const MAX_RESPONSE_BYTES = 2048;
/** How long past the timeout a claimed message stays leased to its worker. */
const LEASE_MARGIN_MS = 5000;
const USER_AGENT = 'store-catalog-webhooks/1.0 (+https://www.standardwebhooks.com)';

export interface DeliveryDeps {
  db: () => PrismaClient;
  config: Pick<Config, 'webhooks'>;
  log: Logger;
  /** The delivery clock: attempt times, the webhook-timestamp header, the retry schedule. */
  now: () => Date;
  /** A context in which the system records the endpoint events (webhook_endpoint.disabled). */
  systemContext: () => RequestContext;
  /** [0, 1) for the retry jitter; tests pass a fixed one. */
  random?: () => number;
}

/** A claimed message with what its attempt needs of the endpoint. */
interface Claimed {
  id: string;
  endpointId: string;
  storeId: string;
  mode: Mode;
  /** The body to send; null when the message's event has left the change history (the attempt fails). */
  payload: string | null;
  trigger: string;
  /** This attempt's number. */
  attemptCount: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  endpointStatus: string;
  failingSince: Date | null;
}

interface AttemptOutcome {
  messageId: string;
  endpointId: string;
  number: number;
  succeeded: boolean;
  statusCode: number | null;
  error: string | null;
  /** The message's status after this attempt. */
  status: 'pending' | 'succeeded' | 'failed';
  nextAttemptAt: Date | null;
}

interface HttpOutcome {
  statusCode: number | null;
  body: string | null;
  error: string | null;
}

interface Result {
  claimed: Claimed;
  attempt: Prisma.WebhookAttemptCreateManyInput;
  outcome: AttemptOutcome;
  /** The answer was 410 Gone. */
  gone: boolean;
  /** No request was made (the endpoint was disabled). */
  skipped: boolean;
  finishedAt: Date;
}

interface Deliverer {
  /** Attempts running now. */
  inFlight(): number;
  /**
   * Claims up to `limit` due messages (never more than free slots of
   * WEBHOOK_CONCURRENCY) and starts their attempts. Resolves once claimed;
   * `done` resolves when every one of them is recorded.
   */
  claimAndStart(opts: { now: Date; limit?: number }): Promise<{ claimed: number; done: Promise<AttemptOutcome[]> }>;
  /** Resolves when nothing is in flight and every result is written. */
  idle(): Promise<void>;
  /** Closes the keep-alive connections. */
  close(): void;
}

export function createDeliverer(deps: DeliveryDeps, hooks: { onSettled?: () => void } = {}): Deliverer {
  const { timeoutMs, concurrency, allowPrivateTargets } = deps.config.webhooks;
  const agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: concurrency, timeout: timeoutMs }),
    https: new https.Agent({ keepAlive: true, maxSockets: concurrency, timeout: timeoutMs }),
  };
  const lookup = guardedLookup({ allowPrivate: allowPrivateTargets });
  let running = 0;
  const pending = new Set<Promise<unknown>>();
  const writer = createResultWriter(deps);

  async function attempt(c: Claimed): Promise<AttemptOutcome> {
    const startedAt = deps.now();
    const t0 = performance.now();
    let answer: HttpOutcome;
    let skipped = false;
    if (c.endpointStatus !== 'enabled') {
      answer = { statusCode: null, body: null, error: 'endpoint disabled' };
      skipped = true;
    } else if (c.payload === null) {
      answer = { statusCode: null, body: null, error: 'its event is no longer in the change history (CHANGES_RETENTION_DAYS)' };
      skipped = true;
    } else {
      const payload = c.payload;
      const timestamp = Math.floor(startedAt.getTime() / 1000);
      const webhookId = `msg_${c.id}`;
      const secrets = [c.secret];
      if (c.previousSecret && c.previousSecretExpiresAt && c.previousSecretExpiresAt > startedAt) secrets.push(c.previousSecret);
      answer = await post(c.url, {
        body: payload,
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': webhookId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, webhookId, timestamp, payload),
        },
        timeoutMs,
        allowPrivate: allowPrivateTargets,
        agents,
        lookup,
      });
    }
    const durationMs = skipped ? 0 : Math.max(0, Math.round(performance.now() - t0));
    const finishedAt = deps.now();
    const succeeded = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
    let status: AttemptOutcome['status'] = 'succeeded';
    let next: Date | null = null;
    if (!succeeded) {
      next = c.trigger === 'scheduled' && !skipped && answer.statusCode !== 410 && c.attemptCount < MAX_ATTEMPTS[c.mode]
        ? nextAttemptAt(c.mode, c.attemptCount, finishedAt, deps.random)
        : null;
      status = next ? 'pending' : 'failed';
    }
    const error = succeeded ? null : (answer.error ?? describeStatus(answer.statusCode!));
    webhookDeliveries.inc({ outcome: succeeded ? 'delivered' : 'failed' });
    const outcome: AttemptOutcome = {
      messageId: c.id,
      endpointId: c.endpointId,
      number: c.attemptCount,
      succeeded,
      statusCode: answer.statusCode,
      error,
      status,
      nextAttemptAt: next,
    };
    const result: Result = {
      claimed: c,
      outcome,
      gone: answer.statusCode === 410,
      skipped,
      finishedAt,
      attempt: {
        id: uuidv7(),
        messageId: c.id,
        endpointId: c.endpointId,
        number: c.attemptCount,
        trigger: c.trigger,
        startedAt,
        durationMs,
        succeeded,
        statusCode: answer.statusCode,
        responseBody: answer.body,
        error,
      },
    };
    await writer.write(result);
    return outcome;
  }

  function track<T>(p: Promise<T>): Promise<T> {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => {});
    return p;
  }

  return {
    inFlight: () => running,
    async claimAndStart({ now, limit }) {
      const free = concurrency - running;
      const n = Math.min(limit ?? concurrency, free);
      if (n <= 0) return { claimed: 0, done: Promise.resolve([]) };
      const leaseEnd = new Date(now.getTime() + timeoutMs + LEASE_MARGIN_MS);
      const claimed = await claim(deps.db(), now, leaseEnd, n);
      running += claimed.length;
      const runs = claimed.map((c) =>
        track(
          attempt(c)
            .catch((err) => {
              // The result could not be written: the lease expires and the message is tried again.
              deps.log.error({ err, message_id: c.id }, 'webhook attempt could not be recorded; it will be retried after its lease');
              return null;
            })
            .finally(() => {
              running -= 1;
              hooks.onSettled?.();
            }),
        ),
      );
      const done = Promise.all(runs).then((rs) => rs.filter((r): r is AttemptOutcome => r !== null));
      return { claimed: claimed.length, done };
    },
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

async function claim(db: PrismaClient, now: Date, leaseEnd: Date, limit: number): Promise<Claimed[]> {
  const rows = await db.$queryRaw<(Omit<Claimed, 'payload'> & { payload: string | null; eventId: string | null; event: EventText | null })[]>`
    WITH claimed AS (
      UPDATE webhook_messages AS m
      SET locked_until = ${leaseEnd}, attempt_count = m.attempt_count + 1
      FROM webhook_endpoints AS e
      WHERE e.id = m.endpoint_id AND m.id IN (
        SELECT id FROM webhook_messages
        WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
        ORDER BY next_attempt_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING m.id, m.endpoint_id AS "endpointId", m.store_id AS "storeId", m.mode::text AS mode, m.payload, m.event_id AS "eventId", m.trigger,
        m.attempt_count AS "attemptCount", e.url, e.secret, e.previous_secret AS "previousSecret",
        e.previous_secret_expires_at AS "previousSecretExpiresAt", e.status::text AS "endpointStatus", e.failing_since AS "failingSince"
    )
    SELECT c.*, CASE WHEN ev.id IS NULL THEN NULL ELSE to_jsonb(x) END AS event
    FROM claimed c
    LEFT JOIN events ev ON ev.id = c."eventId" AND c.payload IS NULL
    LEFT JOIN LATERAL (SELECT ${EVENT_TEXT_COLUMNS}) x ON true`;
  // An event's message is sent with the body built from its event; a ping with its own.
  return rows.map(({ event, eventId: _eventId, ...c }) => ({
    ...c,
    payload: c.payload ?? (event ? eventTextBody({ ...event, occurredAt: new Date(event.occurredAt) }) : null),
  }));
}

function describeStatus(status: number): string {
  if (status === 410) return 'answered 410 Gone: the endpoint is disabled';
  if (status >= 300 && status < 400) return `answered ${status} (a redirect, which is not followed)`;
  return `answered ${status}, not 2xx`;
}

class AttemptTimeout extends Error {}

/** One POST: never follows redirects, one timeout from connecting to the end of the answer, at most 2 KB of the answer read. */
function post(
  rawUrl: string,
  o: {
    body: string;
    headers: Record<string, string>;
    timeoutMs: number;
    allowPrivate: boolean;
    agents: { http: http.Agent; https: https.Agent };
    lookup: ReturnType<typeof guardedLookup>;
  },
): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(rawUrl);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`unsupported scheme ${url.protocol}`);
      assertDeliverableHost(url.hostname, { allowPrivate: o.allowPrivate });
    } catch (err) {
      resolve({ statusCode: null, body: null, error: describeError(err, rawUrl, o.timeoutMs) });
      return;
    }
    let settled = false;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const body = chunks.length ? Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8') : statusCode === null ? null : '';
      resolve({ statusCode: error && statusCode === null ? null : statusCode, body, error });
    };
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method: 'POST',
      agent: url.protocol === 'https:' ? o.agents.https : o.agents.http,
      headers: { ...o.headers, 'content-length': String(Buffer.byteLength(o.body)) },
      lookup: o.lookup,
    });
    const timer = setTimeout(() => {
      finish(`timed out after ${o.timeoutMs} ms${statusCode === null ? ' without an answer' : ' reading the answer'}`);
      req.destroy(new AttemptTimeout());
    }, o.timeoutMs);
    req.on('response', (res) => {
      statusCode = res.statusCode ?? null;
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) {
          // Enough for the log: the rest of the answer is dropped with its connection.
          finish(null);
          res.destroy();
        }
      });
      res.on('end', () => finish(null));
      res.on('error', (err) => finish(describeError(err, rawUrl, o.timeoutMs)));
      res.on('aborted', () => finish('the connection closed before the answer was complete'));
    });
    req.on('error', (err) => finish(describeError(err, rawUrl, o.timeoutMs)));
    req.end(o.body);
  });
}

function describeError(err: unknown, rawUrl: string, timeoutMs: number): string {
  if (err instanceof ForbiddenTargetError || (err as { code?: string })?.code === 'EFORBIDDENTARGET') {
    return `forbidden target: ${(err as Error).message}`;
  }
  if (err instanceof AttemptTimeout) return `timed out after ${timeoutMs} ms`;
  const e = err as NodeJS.ErrnoException & { hostname?: string; address?: string; port?: number };
  let where = rawUrl;
  try {
    where = new URL(rawUrl).host;
  } catch {
    /* the raw text */
  }
  switch (e?.code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `could not resolve ${e.hostname ?? where}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection to ${where} was reset`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} is unreachable`;
    case 'ETIMEDOUT':
      return `timed out connecting to ${where}`;
    default:
      if (e?.code && /^(?:ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(e.code)) return `TLS error with ${where}: ${e.message}`;
      return `request failed: ${e?.message ?? String(err)}`;
  }
}

/**
 * Writes results in batches: whatever finished while the previous batch was
 * being written goes in the next one (under load, many attempts per statement).
 */
function createResultWriter(deps: DeliveryDeps) {
  let queue: { result: Result; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let flushing: Promise<void> | null = null;

  const flushLoop = async () => {
    while (queue.length) {
      const batch = queue;
      queue = [];
      try {
        await writeBatch(deps, batch.map((b) => b.result));
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    flushing = null;
  };

  return {
    write(result: Result): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ result, resolve, reject });
        if (!flushing) flushing = Promise.resolve().then(flushLoop);
      });
    },
  };
}

async function writeBatch(deps: DeliveryDeps, results: Result[]): Promise<void> {
  const attempts = results.map(({ attempt: a }) =>
    Prisma.sql`(${a.id}::uuid, ${a.messageId}::uuid, ${a.endpointId}::uuid, ${a.number}::int, ${a.trigger}, ${a.startedAt}::timestamptz,
      ${a.durationMs}::int, ${a.succeeded}::boolean, ${a.statusCode ?? null}::int, ${a.responseBody ?? null}::text, ${a.error ?? null}::text)`,
  );
  const messages = results.map(
    (r) =>
      Prisma.sql`(${r.outcome.messageId}::uuid, ${r.outcome.number}::int, ${r.outcome.status}, ${r.outcome.nextAttemptAt}::timestamptz, ${r.attempt.startedAt}::timestamptz)`,
  );
  // One statement (so one round trip, and atomic): the attempts, and the messages they move on.
  // A message is updated only while the attempt is still its latest: a worker whose lease ran out does not overwrite a newer attempt.
  await deps.db().$executeRaw`
    WITH recorded AS (
      INSERT INTO webhook_attempts (id, message_id, endpoint_id, number, trigger, started_at, duration_ms, succeeded, status_code, response_body, error)
      VALUES ${Prisma.join(attempts)}
    )
    UPDATE webhook_messages AS m
    SET status = v.status::"WebhookMessageStatus", next_attempt_at = v.next_at, locked_until = NULL, last_attempt_at = v.last_at
    FROM (VALUES ${Prisma.join(messages)}) AS v(id, number, status, next_at, last_at)
    WHERE m.id = v.id AND m.attempt_count = v.number`;
  await recordEndpointHealth(deps, results);
}

/**
 * A success clears the endpoint's failing_since; a failure starts it. 410
 * disables the endpoint at once; a failure of a live endpoint that has failed
 * for three days disables it.
 */
async function recordEndpointHealth(deps: DeliveryDeps, results: Result[]): Promise<void> {
  const db = deps.db();
  // Per endpoint, the last outcome of the batch decides; a failure run starts at its first failure after the last success.
  const last = new Map<string, { succeeded: boolean; firstFailureAt: Date | null }>();
  for (const r of results) {
    if (r.skipped) continue;
    const prev = last.get(r.claimed.endpointId);
    if (r.outcome.succeeded) last.set(r.claimed.endpointId, { succeeded: true, firstFailureAt: null });
    else last.set(r.claimed.endpointId, { succeeded: false, firstFailureAt: prev && !prev.succeeded ? prev.firstFailureAt : (r.attempt.startedAt as Date) });
  }
  // Only an endpoint that was failing when its message was claimed has something to clear (usually none: no write).
  const wasFailing = new Set(results.filter((r) => r.claimed.failingSince).map((r) => r.claimed.endpointId));
  const healthy = [...last].filter(([id, v]) => v.succeeded && wasFailing.has(id)).map(([id]) => id);
  const failing = [...last].filter(([, v]) => !v.succeeded);
  if (healthy.length) await db.webhookEndpoint.updateMany({ where: { id: { in: healthy }, failingSince: { not: null } }, data: { failingSince: null } });
  if (failing.length) {
    const rows = failing.map(([id, v]) => Prisma.sql`(${id}::uuid, ${v.firstFailureAt}::timestamptz)`);
    await db.$executeRaw`
      UPDATE webhook_endpoints AS e SET failing_since = v.since
      FROM (VALUES ${Prisma.join(rows)}) AS v(id, since)
      WHERE e.id = v.id AND e.failing_since IS NULL`;
  }
  const toDisable = new Map<string, 'gone' | 'failing'>();
  for (const r of results) {
    if (r.skipped || r.outcome.succeeded) continue;
    if (r.gone) toDisable.set(r.claimed.endpointId, 'gone');
    else if (
      r.claimed.mode === 'live' &&
      r.claimed.failingSince &&
      (r.attempt.startedAt as Date).getTime() - r.claimed.failingSince.getTime() >= DISABLE_AFTER_FAILING_MS &&
      !toDisable.has(r.claimed.endpointId)
    ) {
      toDisable.set(r.claimed.endpointId, 'failing');
    }
  }
  for (const [id, reason] of toDisable) {
    await disableEndpoint(deps, id, reason).catch((err) => deps.log.error({ err, endpoint_id: id }, 'could not disable a webhook endpoint'));
  }
}

/** Disables an enabled endpoint and records webhook_endpoint.disabled; a no-op when another worker got there first. */
async function disableEndpoint(deps: Pick<DeliveryDeps, 'systemContext' | 'log'>, endpointId: string, reason: 'gone' | 'failing'): Promise<boolean> {
  const ctx = deps.systemContext();
  const disabled = await transaction(ctx, async (t) => {
    const before = await t.tx.webhookEndpoint.findUnique({ where: { id: endpointId } });
    if (!before || before.status !== 'enabled') return false;
    const { count } = await t.tx.webhookEndpoint.updateMany({
      where: { id: endpointId, status: 'enabled', version: before.version },
      data: { status: 'disabled', disabledReason: reason, disabledAt: t.now(), version: { increment: 1 } },
    });
    if (count === 0) return false;
    const after = await t.tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    emit(t, {
      type: 'webhook_endpoint.disabled',
      storeId: after.storeId,
      mode: after.mode,
      resource: { type: 'webhook_endpoint', id: after.id, version: after.version },
      data: webhookEndpointView(after),
      before: webhookEndpointView(before),
    });
    return true;
  });
  if (disabled) deps.log.warn({ endpoint_id: endpointId, reason }, reason === 'gone' ? 'webhook endpoint answered 410 Gone: disabled' : 'webhook endpoint failed every attempt for 3 days: disabled');
  return disabled;
}
