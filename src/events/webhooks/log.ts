/** The webhook delivery log: messages and attempts, and resend, replay and ping. */

import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { EVENT_TYPES } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import { transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { signalWorkPending } from '../../platform/outbox/signal';
import { AppError, notFound, validationError } from '../../platform/errors';
import { messageBodies, messageBody } from './payload';
import { parseInput } from '../../platform/validation';

/**
 * The delivery log: every webhook message of a store (one event, or a ping,
 * for one endpoint) with its attempts, for the last
 * config.webhooks.logRetentionDays days; and the operations that queue a
 * message again (resend, replay) or a new one (ping). They only set the
 * message up for the worker (src/jobs), which makes the attempt.
 */

export const MESSAGES_PAGE = { default: 20, max: 100 } as const;
export const MESSAGE_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const MESSAGE_TRIGGERS = ['scheduled', 'resend', 'replay', 'ping'] as const;
/** The type of a test message sent on request to one endpoint. */
const PING_EVENT_TYPE = 'ping';
/** Types a message can have: the event catalogue, and ping. */
const MESSAGE_EVENT_TYPES = [...EVENT_TYPES, PING_EVENT_TYPE] as const;

/** The webhook-id header of every attempt of a message. */
export const webhookIdOf = (messageId: string) => `msg_${messageId}`;

type MessageRow = Prisma.WebhookMessageGetPayload<object>;
type AttemptRow = Prisma.WebhookAttemptGetPayload<object>;
export type WebhookAttemptRecord = AttemptRow;

/** A message as the log shows it. Lists leave out the payload (`payload` undefined) and the attempts. */
export type WebhookMessageRecord = Omit<MessageRow, 'payload' | 'lockedUntil'> & { payload?: string; attempts?: AttemptRow[] };

/** Everything but the payload (up to 256 KB) and the worker's lease. */
const LIST_SELECT = {
  id: true,
  endpointId: true,
  storeId: true,
  mode: true,
  eventId: true,
  eventType: true,
  status: true,
  trigger: true,
  attemptCount: true,
  nextAttemptAt: true,
  lastAttemptAt: true,
  createdAt: true,
} as const satisfies Prisma.WebhookMessageSelect;

const FULL_SELECT = { ...LIST_SELECT, payload: true, attempts: { orderBy: [{ number: 'asc' }, { startedAt: 'asc' }] } } as const satisfies Prisma.WebhookMessageSelect;

/**
 * The message with its body as sent: an event's message stores none, it is
 * built from the event (empty once the event has left the change history).
 */
async function withBody<M extends { payload: string | null; eventId: string | null }>(ctx: RequestContext, m: M): Promise<Omit<M, 'payload'> & { payload: string }> {
  const [body] = await messageBodies(ctx.db, [m]);
  return { ...m, payload: body ?? '' };
}

/** The oldest time the log still shows. */
const retentionStart = (ctx: RequestContext) => new Date(ctx.now().getTime() - ctx.config.webhooks.logRetentionDays * 86_400_000);

// Views for REST-shaped output (the CLI): snake_case, as the REST routes select them.

const attemptView = (a: AttemptRow) => ({
  id: a.id,
  number: a.number,
  trigger: a.trigger,
  started_at: a.startedAt,
  duration_ms: a.durationMs,
  succeeded: a.succeeded,
  status_code: a.statusCode,
  response_body: a.responseBody,
  error: a.error,
});

export const messageView = (m: WebhookMessageRecord) => ({
  id: m.id,
  webhook_id: webhookIdOf(m.id),
  endpoint_id: m.endpointId,
  mode: m.mode,
  event_id: m.eventId,
  event_type: m.eventType,
  status: m.status,
  trigger: m.trigger,
  attempt_count: m.attemptCount,
  next_attempt_at: m.nextAttemptAt,
  last_attempt_at: m.lastAttemptAt,
  created_at: m.createdAt,
  ...(m.payload !== undefined ? { payload: m.payload } : {}),
  ...(m.attempts ? { attempts: m.attempts.map(attemptView) } : {}),
});

const MessageFilter = z.object({
  endpointId: z.string().trim().min(1).max(200).optional(),
  status: z.enum(MESSAGE_STATUSES).optional(),
  eventType: z.enum(MESSAGE_EVENT_TYPES).optional(),
  first: z.number().int().min(1).max(MESSAGES_PAGE.max).default(MESSAGES_PAGE.default),
  after: z.string().max(200).optional(),
});

/** Plain strings from every surface; the filter validates them (422 naming the field). */
interface MessageQuery {
  endpointId?: string;
  status?: string;
  eventType?: string;
  first?: number;
  after?: string;
}

interface MessagePage {
  items: WebhookMessageRecord[];
  cursors: string[];
  hasMore: boolean;
}

/** Opaque cursors: creation time and id of the last message, base64url-encoded. */
const encodeCursor = (m: { createdAt: Date; id: string }) => Buffer.from(`m:${m.createdAt.toISOString()}|${m.id}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const m = /^m:([^|]+)\|(.+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const createdAt = m ? new Date(m[1]) : null;
  if (!m || !createdAt || Number.isNaN(createdAt.getTime()) || !isUuid(m[2])) {
    throw validationError([{ field: 'after', code: 'invalid_cursor', message: 'is not a cursor this API returned' }]);
  }
  return { createdAt, id: m[2] };
}

async function requireEndpoint(ctx: RequestContext, storeId: string, endpointId: string) {
  const endpoint = isUuid(endpointId) && isUuid(storeId) ? await ctx.db.webhookEndpoint.findFirst({ where: { id: endpointId, storeId } }) : null;
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

const endpointDisabled = (e: { id: string; disabledReason: string | null }) =>
  new AppError('endpoint_disabled', `The webhook endpoint is disabled${e.disabledReason ? ` (${e.disabledReason})` : ''}; enable it first`, {
    details: { endpoint_id: e.id },
  });

/**
 * A page of the store's messages of the retention period, newest first,
 * filtered by endpoint, status and event type. An endpoint that is not the
 * store's is a 404.
 */
export async function listWebhookMessages(ctx: RequestContext, storeId: string, query: MessageQuery = {}): Promise<MessagePage> {
  const q = parseInput(MessageFilter, query);
  if (!isUuid(storeId)) throw notFound('Store');
  if (q.endpointId) await requireEndpoint(ctx, storeId, q.endpointId);
  const cursor = q.after ? decodeCursor(q.after) : null;
  const where: Prisma.WebhookMessageWhereInput = {
    storeId,
    endpointId: q.endpointId,
    status: q.status,
    eventType: q.eventType,
    createdAt: { gte: retentionStart(ctx) },
    ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}),
  };
  const rows = await ctx.db.webhookMessage.findMany({ where, select: LIST_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: q.first + 1 });
  const page = rows.slice(0, q.first);
  return { items: page, cursors: page.map(encodeCursor), hasMore: rows.length > q.first };
}

/** One message of the retention period with its payload as sent and its attempts, oldest first. */
export async function getWebhookMessage(ctx: RequestContext, storeId: string, id: string): Promise<WebhookMessageRecord> {
  if (!isUuid(id) || !isUuid(storeId)) throw notFound('Webhook message');
  const m = await ctx.db.webhookMessage.findFirst({ where: { id, storeId, createdAt: { gte: retentionStart(ctx) } }, select: FULL_SELECT });
  if (!m) throw notFound('Webhook message');
  return withBody(ctx, m);
}

/** The payload of a message (for a list item, which leaves it out). */
export async function messagePayload(ctx: RequestContext, id: string): Promise<string> {
  const m = await ctx.db.webhookMessage.findUnique({ where: { id }, select: { payload: true, eventId: true } });
  return m ? ((await messageBodies(ctx.db, [m]))[0] ?? '') : '';
}

/** The attempts of a message, oldest first (for a list item, which leaves them out). */
export function messageAttempts(ctx: RequestContext, id: string): Promise<AttemptRow[]> {
  return ctx.db.webhookAttempt.findMany({ where: { messageId: id }, orderBy: [{ number: 'asc' }, { startedAt: 'asc' }] });
}

/** Runs a unit that queued work, then wakes this process's worker. */
async function queueing<T>(ctx: RequestContext, work: (t: TransactionContext) => Promise<T>): Promise<T> {
  const result = await transaction(ctx, work);
  signalWorkPending();
  return result;
}

/**
 * Sends a message again, now. A pending one (waiting for a retry) is due at
 * once and keeps its retry schedule; a succeeded or failed one gets one more
 * attempt (trigger `resend`), which is not retried if it fails. Its endpoint
 * must be enabled (409 endpoint_disabled).
 */
export async function resendWebhookMessage(ctx: RequestContext, storeId: string, id: string): Promise<WebhookMessageRecord> {
  if (!isUuid(id) || !isUuid(storeId)) throw notFound('Webhook message');
  const queued = await queueing(ctx, async (t) => {
    await t.tx.$queryRaw`SELECT 1 FROM webhook_messages WHERE id = ${id}::uuid AND store_id = ${storeId}::uuid FOR UPDATE`;
    const m = await t.tx.webhookMessage.findFirst({
      where: { id, storeId, createdAt: { gte: retentionStart(t) } },
      select: { status: true, lockedUntil: true, endpoint: { select: { id: true, status: true, disabledReason: true } } },
    });
    if (!m) throw notFound('Webhook message');
    if (m.endpoint.status !== 'enabled') throw endpointDisabled(m.endpoint);
    // The attempt in flight writes the message's state when it ends, which would swallow a resend queued now.
    if (m.lockedUntil && m.lockedUntil > t.now()) {
      throw new AppError('conflict', 'An attempt of this message is in flight; resend it once the attempt is in the log', { details: { locked_until: m.lockedUntil } });
    }
    const data: Prisma.WebhookMessageUpdateInput = m.status === 'pending' ? { nextAttemptAt: t.now() } : { status: 'pending', trigger: 'resend', nextAttemptAt: t.now() };
    // The state it is queued in: the worker may change it the moment this commits.
    return t.tx.webhookMessage.update({ where: { id }, data, select: FULL_SELECT });
  });
  return withBody(ctx, queued);
}

const ReplayInput = z.object({ since: z.date({ error: 'must be a date-time' }) });

/**
 * Queues every failed message of an endpoint created at or after `since`
 * (within the log's retention) for one more attempt each (trigger `replay`).
 * Returns how many. The endpoint must be enabled (409 endpoint_disabled).
 */
export async function replayWebhookMessages(ctx: RequestContext, storeId: string, endpointId: string, input: { since: Date }) {
  const { since } = parseInput(ReplayInput, input);
  const endpoint = await requireEndpoint(ctx, storeId, endpointId);
  const oldest = retentionStart(ctx);
  if (since < oldest) {
    const days = ctx.config.webhooks.logRetentionDays;
    throw validationError([{ field: 'since', code: 'out_of_range', message: `must be within the last ${days} days (the delivery log keeps ${days} days), i.e. at or after ${oldest.toISOString()}` }]);
  }
  if (since > ctx.now()) throw validationError([{ field: 'since', code: 'in_the_future', message: 'must not be in the future' }]);
  if (endpoint.status !== 'enabled') throw endpointDisabled(endpoint);
  const replayed = await queueing(ctx, async (t) => {
    // Under the endpoint's lock: a concurrent disable either comes first (and is seen) or waits.
    await t.tx.$queryRaw`SELECT 1 FROM webhook_endpoints WHERE id = ${endpointId}::uuid FOR UPDATE`;
    const current = await t.tx.webhookEndpoint.findUnique({ where: { id: endpointId }, select: { id: true, status: true, disabledReason: true } });
    if (!current) throw notFound('Webhook endpoint');
    if (current.status !== 'enabled') throw endpointDisabled(current);
    const { count } = await t.tx.webhookMessage.updateMany({
      where: { endpointId, status: 'failed', createdAt: { gte: since } },
      data: { status: 'pending', trigger: 'replay', nextAttemptAt: t.now() },
    });
    return count;
  });
  return { endpointId, since, replayed };
}

/**
 * Queues a `ping` message for one endpoint (no event; sent to that endpoint
 * only, whatever event types it wants): a test that the receiver is reachable
 * and verifies signatures. One attempt, not retried. The endpoint must be
 * enabled (409 endpoint_disabled).
 */
export async function pingWebhookEndpoint(ctx: RequestContext, storeId: string, endpointId: string): Promise<WebhookMessageRecord> {
  const endpoint = await requireEndpoint(ctx, storeId, endpointId);
  if (endpoint.status !== 'enabled') throw endpointDisabled(endpoint);
  const now = ctx.now();
  const id = uuidv7();
  const message = await queueing(ctx, (t) =>
    t.tx.webhookMessage.create({
      select: FULL_SELECT,
      data: {
        id,
        endpointId,
        storeId,
        mode: endpoint.mode,
        eventId: null,
        eventType: PING_EVENT_TYPE,
        payload: messageBody(PING_EVENT_TYPE, now, { endpoint_id: endpoint.id, store_id: storeId, mode: endpoint.mode, url: endpoint.url }),
        status: 'pending',
        trigger: 'ping',
        nextAttemptAt: now,
        createdAt: now,
      },
    }),
  );
  return withBody(ctx, message);
}
