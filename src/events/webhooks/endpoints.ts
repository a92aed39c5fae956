/**
 * Webhook endpoints of a store: where its events are delivered. Each endpoint has one mode for life (a test
 * endpoint receives test-mode events only) and a signing secret shown once, when it is created or rolled;
 * nothing above this module ever sees a stored secret.
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { type Mode, MODES } from '../../kernel/access';
import { EVENT_TYPES } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import { fieldChanges } from '../../platform/outbox/fieldChanges';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound, validationError } from '../../platform/errors';
import { generateSecret, secretHint } from './signing';
import { checkWebhookUrl, MAX_URL_LENGTH } from './targets';
import { webhookEndpointView } from '../services/views';
import { parseInput } from '../../platform/validation';

/** Endpoints a store may have per mode (enabled and disabled together). */
export const MAX_ENDPOINTS_PER_MODE = 16;
export const MAX_DESCRIPTION_LENGTH = 500;
/** How long the old secret keeps signing after a roll: default 24 h, 0 (stop now) to 7 days. */
export const DEFAULT_SECRET_OVERLAP_HOURS = 24;
export const MAX_SECRET_OVERLAP_HOURS = 7 * 24;
/** Every event type; an endpoint subscribed to it receives all of them, including types added later. */
const ALL_EVENT_TYPES = '*';

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;

type EndpointRow = Prisma.WebhookEndpointGetPayload<object>;

/** An endpoint as it leaves this module: the secrets replaced by a hint of the current one. */
export interface WebhookEndpointRecord {
  id: string;
  storeId: string;
  mode: Mode;
  url: string;
  description: string;
  eventTypes: string[];
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  disabledAt: Date | null;
  /** `whsec_…` and the last four characters of the current secret. */
  secretHint: string;
  previousSecretExpiresAt: Date | null;
  failingSince: Date | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

const toRecord = (e: EndpointRow): WebhookEndpointRecord => ({
  id: e.id,
  storeId: e.storeId,
  mode: e.mode,
  url: e.url,
  description: e.description,
  eventTypes: e.eventTypes,
  status: e.status,
  disabledReason: e.disabledReason,
  disabledAt: e.disabledAt,
  secretHint: secretHint(e.secret),
  previousSecretExpiresAt: e.previousSecretExpiresAt,
  failingSince: e.failingSince,
  version: e.version,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

/** The REST/CLI representation of a record: what events carry (webhookEndpointView), never a secret. */
export const endpointView = (e: WebhookEndpointRecord) => ({ ...webhookEndpointView({ ...e, secret: '' }), secret_hint: e.secretHint });

const eventView = (e: EndpointRow) => webhookEndpointView(e);

type EndpointEventType =
  | 'webhook_endpoint.created'
  | 'webhook_endpoint.updated'
  | 'webhook_endpoint.deleted'
  | 'webhook_endpoint.secret_rolled'
  | 'webhook_endpoint.disabled'
  | 'webhook_endpoint.enabled';

/** An endpoint event, in the endpoint's own mode; `changes` given explicitly when only some fields belong to the event. */
function emitEndpointEvent(t: TransactionContext, type: EndpointEventType, e: EndpointRow, before?: EndpointRow, changes?: ReturnType<typeof fieldChanges>) {
  emit(t, {
    type,
    storeId: e.storeId,
    mode: e.mode,
    resource: { type: 'webhook_endpoint', id: e.id, version: e.version },
    data: eventView(e),
    before: before && eventView(before),
    changes,
  });
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/** A non-empty list of known event types or `*`; duplicates dropped (first occurrence kept); `*` with others is just `*`. */
const EventTypes = z
  .array(z.string().trim().min(1, 'must not be empty').max(100))
  .min(1, `must name at least one event type, or "${ALL_EVENT_TYPES}" for all`)
  .max(EVENT_TYPES.length + 1)
  .superRefine((types, c) => {
    const unknown = types.filter((x) => x !== ALL_EVENT_TYPES && !KNOWN_TYPES.has(x));
    if (unknown.length) {
      c.addIssue({
        code: 'custom',
        message: `unknown event type${unknown.length > 1 ? 's' : ''} ${[...new Set(unknown)].map((x) => JSON.stringify(x)).join(', ')}; use "${ALL_EVENT_TYPES}" or types of the event catalogue such as product.created`,
        params: { code: 'unknown_event_type' },
      });
    }
  })
  .transform((types) => (types.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : [...new Set(types)]));

const Url = z.string().trim().min(1, 'must not be empty').max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`);
const Description = z.string().trim().max(MAX_DESCRIPTION_LENGTH, `must be at most ${MAX_DESCRIPTION_LENGTH} characters`);

export const CreateEndpoint = z.object({
  url: Url,
  eventTypes: EventTypes,
  description: Description.default(''),
  status: z.enum(ENDPOINT_STATUSES).default('enabled'),
  mode: z.enum(MODES).default('live'),
});

export const UpdateEndpoint = z.object({
  url: Url.optional(),
  eventTypes: EventTypes.optional(),
  description: Description.optional(),
  status: z.enum(ENDPOINT_STATUSES).optional(),
  /** Accepted only when it is the endpoint's mode (a client may send back what it read): the mode never changes. */
  mode: z.enum(MODES).optional(),
});

/** Plain strings from every surface; the schemas above reject unknown statuses, modes and event types (422 naming the field). */
interface WebhookEndpointCreate {
  url: string;
  eventTypes: string[];
  description?: string;
  status?: string;
  mode?: string;
}
type WebhookEndpointUpdate = Partial<WebhookEndpointCreate>;

const checkUrl = (ctx: RequestContext, url: string) =>
  checkWebhookUrl(url, { allowPrivate: ctx.config.webhooks.allowPrivateTargets, nameTheSetting: ctx.config.env !== 'production' });

/** Locks the store row: creations of one store queue, so the per-mode limit holds under concurrency. */
async function lockStore(t: TransactionContext, storeId: string) {
  const rows = await t.tx.$queryRaw<{ id: string }[]>`SELECT id FROM stores WHERE id = ${storeId}::uuid FOR UPDATE`;
  if (rows.length === 0) throw notFound('Store');
}

/** Reads an endpoint of the store with its row locked for the rest of the transaction. */
async function lockEndpoint(t: TransactionContext, storeId: string, id: string): Promise<EndpointRow> {
  if (!isUuid(id) || !isUuid(storeId)) throw notFound('Webhook endpoint');
  await t.tx.$queryRaw`SELECT 1 FROM webhook_endpoints WHERE id = ${id}::uuid AND store_id = ${storeId}::uuid FOR UPDATE`;
  const row = await t.tx.webhookEndpoint.findFirst({ where: { id, storeId } });
  if (!row) throw notFound('Webhook endpoint');
  return row;
}

/**
 * Creates an endpoint. Its signing secret is returned here (`secret`) and
 * never again. A store has at most MAX_ENDPOINTS_PER_MODE endpoints per mode.
 */
export async function createWebhookEndpoint(ctx: RequestContext, storeId: string, input: WebhookEndpointCreate) {
  const data = parseInput(CreateEndpoint, input);
  if (!isUuid(storeId)) throw notFound('Store');
  const url = await checkUrl(ctx, data.url);
  const secret = generateSecret();
  return transaction(ctx, async (t) => {
    await lockStore(t, storeId);
    const count = await t.tx.webhookEndpoint.count({ where: { storeId, mode: data.mode } });
    if (count >= MAX_ENDPOINTS_PER_MODE) {
      throw new AppError('conflict', `A store has at most ${MAX_ENDPOINTS_PER_MODE} ${data.mode} webhook endpoints; delete one first`, {
        details: { limit: MAX_ENDPOINTS_PER_MODE },
      });
    }
    const now = t.now();
    const row = await t.tx.webhookEndpoint.create({
      data: {
        storeId,
        mode: data.mode,
        url,
        description: data.description,
        eventTypes: data.eventTypes,
        status: data.status,
        disabledReason: data.status === 'disabled' ? 'manual' : null,
        disabledAt: data.status === 'disabled' ? now : null,
        secret,
        createdAt: now,
        updatedAt: now,
      },
    });
    emitEndpointEvent(t, 'webhook_endpoint.created', row);
    return { endpoint: toRecord(row), secret };
  });
}

/** The store's endpoints, oldest first (at most 2 × MAX_ENDPOINTS_PER_MODE, so no paging). */
export async function listWebhookEndpoints(ctx: RequestContext, storeId: string, opts: { mode?: string } = {}) {
  const { mode } = parseInput(z.object({ mode: z.enum(MODES).optional() }), opts);
  if (!isUuid(storeId)) return [];
  const rows = await ctx.db.webhookEndpoint.findMany({ where: { storeId, mode }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return rows.map(toRecord);
}

export async function getWebhookEndpoint(ctx: RequestContext, storeId: string, id: string) {
  if (!isUuid(id) || !isUuid(storeId)) throw notFound('Webhook endpoint');
  const row = await ctx.db.webhookEndpoint.findFirst({ where: { id, storeId } });
  if (!row) throw notFound('Webhook endpoint');
  return toRecord(row);
}

/** Fields whose change is the status event's, not the update's. */
const STATUS_FIELDS = ['status', 'disabled_reason', 'disabled_at'];

/**
 * Changes an endpoint's URL, event types, description or status. A status
 * change records webhook_endpoint.disabled or .enabled; any other change
 * webhook_endpoint.updated (both when both changed); the same values again
 * change and record nothing. Enabling clears why and since when it was
 * disabled, and its run of failures.
 */
export async function updateWebhookEndpoint(ctx: RequestContext, storeId: string, id: string, input: WebhookEndpointUpdate) {
  const data = parseInput(UpdateEndpoint, input);
  // Checked (and resolved) before the transaction: no lock is held across a DNS lookup.
  const url = data.url === undefined ? undefined : await checkUrl(ctx, data.url);
  return transaction(ctx, async (t) => {
    const before = await lockEndpoint(t, storeId, id);
    if (data.mode !== undefined && data.mode !== before.mode) {
      throw validationError([{ field: 'mode', code: 'immutable', message: `cannot change: the endpoint is a ${before.mode} endpoint for life; create a ${data.mode} endpoint instead` }]);
    }
    const next: Prisma.WebhookEndpointUpdateInput = {};
    if (url !== undefined && url !== before.url) next.url = url;
    if (data.eventTypes && JSON.stringify(data.eventTypes) !== JSON.stringify(before.eventTypes)) next.eventTypes = data.eventTypes;
    if (data.description !== undefined && data.description !== before.description) next.description = data.description;
    const statusChanged = data.status !== undefined && data.status !== before.status;
    const otherChanged = Object.keys(next).length > 0;
    if (statusChanged) {
      next.status = data.status;
      if (data.status === 'disabled') Object.assign(next, { disabledReason: 'manual', disabledAt: t.now() });
      else Object.assign(next, { disabledReason: null, disabledAt: null, failingSince: null });
    }
    if (!statusChanged && !otherChanged) return toRecord(before);
    const after = await t.tx.webhookEndpoint.update({ where: { id }, data: { ...next, version: { increment: 1 }, updatedAt: t.now() } });
    const changes = fieldChanges(eventView(before), eventView(after));
    if (otherChanged) {
      emitEndpointEvent(t, 'webhook_endpoint.updated', after, before, statusChanged ? changes.filter((c) => !STATUS_FIELDS.includes(c.field)) : changes);
    }
    if (statusChanged) {
      emitEndpointEvent(
        t,
        after.status === 'disabled' ? 'webhook_endpoint.disabled' : 'webhook_endpoint.enabled',
        after,
        before,
        otherChanged ? changes.filter((c) => STATUS_FIELDS.includes(c.field)) : changes,
      );
    }
    return toRecord(after);
  });
}

/** Deletes an endpoint with its delivery log; returns it as it was. */
export async function deleteWebhookEndpoint(ctx: RequestContext, storeId: string, id: string) {
  return transaction(ctx, async (t) => {
    const row = await lockEndpoint(t, storeId, id);
    await t.tx.webhookEndpoint.delete({ where: { id } });
    emitEndpointEvent(t, 'webhook_endpoint.deleted', row);
    return toRecord(row);
  });
}

const RollInput = z.object({
  overlapHours: z
    .number()
    .int('must be a whole number of hours')
    .min(0)
    .max(MAX_SECRET_OVERLAP_HOURS, `must be at most ${MAX_SECRET_OVERLAP_HOURS} (7 days)`)
    .default(DEFAULT_SECRET_OVERLAP_HOURS),
});

/**
 * Replaces the signing secret. The new one is returned here and never again;
 * the old one keeps signing too (every message carries both signatures) for
 * `overlapHours` (default 24, 0 = stops now, at most 168), so the receiver can
 * switch over. A secret older than the one replaced is dropped at once.
 */
export async function rollWebhookEndpointSecret(ctx: RequestContext, storeId: string, id: string, input: { overlapHours?: number } = {}) {
  const { overlapHours } = parseInput(RollInput, input);
  const secret = generateSecret();
  return transaction(ctx, async (t) => {
    const before = await lockEndpoint(t, storeId, id);
    const now = t.now();
    const after = await t.tx.webhookEndpoint.update({
      where: { id },
      data: {
        secret,
        previousSecret: overlapHours > 0 ? before.secret : null,
        previousSecretExpiresAt: overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3600_000) : null,
        version: { increment: 1 },
        updatedAt: now,
      },
    });
    emitEndpointEvent(t, 'webhook_endpoint.secret_rolled', after, before);
    return { endpoint: toRecord(after), secret };
  });
}
