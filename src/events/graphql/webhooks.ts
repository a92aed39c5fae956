/** GraphQL types and operations for webhook endpoints and the delivery log. */

import { AppError } from '../../platform/errors';
import * as endpoints from '../webhooks/endpoints';
import {
  DEFAULT_SECRET_OVERLAP_HOURS,
  ENDPOINT_STATUSES,
  MAX_DESCRIPTION_LENGTH,
  MAX_ENDPOINTS_PER_MODE,
  MAX_SECRET_OVERLAP_HOURS,
  type WebhookEndpointRecord,
} from '../webhooks/endpoints';
import * as log from '../webhooks/log';
import { MESSAGE_STATUSES, MESSAGE_TRIGGERS, MESSAGES_PAGE, type WebhookAttemptRecord, type WebhookMessageRecord, webhookIdOf } from '../webhooks/log';
import { ServiceMode } from '../../api/graphql/modes';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';

/** Webhook endpoints and the delivery log. Every operation needs manage_webhooks in the store. */


const WebhookEndpointStatus = builder.enumType('WebhookEndpointStatus', { values: ENDPOINT_STATUSES });
const WebhookMessageStatus = builder.enumType('WebhookMessageStatus', {
  values: MESSAGE_STATUSES,
  description: 'pending: an attempt is due (or in flight); succeeded: the endpoint answered 2xx; failed: no attempt is left',
});
const WebhookTrigger = builder.enumType('WebhookTrigger', {
  values: MESSAGE_TRIGGERS,
  description: 'scheduled: the first try and its retries; resend, replay, ping: one attempt on request, not retried',
});

const WebhookEndpoint = builder.objectRef<WebhookEndpointRecord>('WebhookEndpoint').implement({
  description: "Where a store's events are delivered, signed with the endpoint's secret (Standard Webhooks).",
  fields: (t) => ({
    id: t.exposeID('id'),
    storeId: t.exposeID('storeId'),
    mode: t.field({ type: ServiceMode, description: 'A test endpoint receives test-mode events only, a live one live-mode events only. Fixed at creation.', resolve: (e) => e.mode }),
    url: t.exposeString('url'),
    description: t.exposeString('description'),
    eventTypes: t.exposeStringList('eventTypes', { description: 'The event types it receives; ["*"] for all' }),
    status: t.field({ type: WebhookEndpointStatus, resolve: (e) => e.status }),
    disabledReason: t.exposeString('disabledReason', {
      nullable: true,
      description: 'manual (disabled by a user), gone (answered 410) or failing (every attempt failed for 3 days)',
    }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    secretHint: t.exposeString('secretHint', { description: 'whsec_… and the last 4 characters; the secret is shown only when created or rolled' }),
    previousSecretExpiresAt: t.expose('previousSecretExpiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'After a roll: until then messages carry the old secret\'s signature too',
    }),
    failingSince: t.expose('failingSince', { type: 'DateTime', nullable: true, description: 'Start of the current run of failed attempts; null after a success' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WebhookEndpointWithSecret = builder.simpleObject('WebhookEndpointWithSecret', {
  fields: (t) => ({
    endpoint: t.field({ type: WebhookEndpoint }),
    secret: t.string({ description: 'The signing secret (whsec_…). Shown once: store it now.' }),
  }),
});

const WebhookAttempt = builder.objectRef<WebhookAttemptRecord>('WebhookAttempt').implement({
  description: 'One HTTP request of a message to its endpoint.',
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number', { description: '1 for the first attempt of the message; resends and replays count on' }),
    trigger: t.field({ type: WebhookTrigger, resolve: (a) => a.trigger as (typeof MESSAGE_TRIGGERS)[number] }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    durationMs: t.exposeInt('durationMs'),
    succeeded: t.exposeBoolean('succeeded'),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: 'The HTTP status of the answer; null when none came (timeout, refused, forbidden address)' }),
    responseBody: t.exposeString('responseBody', { nullable: true, description: 'The first 2 KB of the answer' }),
    error: t.exposeString('error', { nullable: true, description: 'Why the attempt failed' }),
  }),
});

const WebhookMessage = builder.objectRef<WebhookMessageRecord>('WebhookMessage').implement({
  description: 'One event (or ping) for one endpoint, with every attempt to deliver it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Time-ordered (UUIDv7)' }),
    webhookId: t.string({ description: 'The webhook-id header the receiver sees on every attempt: msg_<id>', resolve: (m) => webhookIdOf(m.id) }),
    endpointId: t.exposeID('endpointId'),
    mode: t.field({ type: ServiceMode, resolve: (m) => m.mode }),
    eventId: t.exposeID('eventId', { nullable: true, description: 'The recorded change (see changes); null for a ping' }),
    eventType: t.exposeString('eventType'),
    status: t.field({ type: WebhookMessageStatus, resolve: (m) => m.status }),
    trigger: t.field({ type: WebhookTrigger, description: 'What starts (or started) its next attempt', resolve: (m) => m.trigger as (typeof MESSAGE_TRIGGERS)[number] }),
    attemptCount: t.exposeInt('attemptCount'),
    nextAttemptAt: t.expose('nextAttemptAt', { type: 'DateTime', nullable: true, description: 'When the next attempt is due; null once it succeeded or failed for good' }),
    lastAttemptAt: t.expose('lastAttemptAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.string({
      description: 'The request body exactly as sent ({"type", "timestamp", "data"}), the bytes the signature covers',
      resolve: (m, _args, ctx) => m.payload ?? log.messagePayload(ctx, m.id),
    }),
    attempts: t.field({
      type: [WebhookAttempt],
      description: 'Oldest first',
      resolve: (m, _args, ctx) => m.attempts ?? log.messageAttempts(ctx, m.id),
    }),
  }),
});

const WebhookReplayResult = builder.simpleObject('WebhookReplayResult', {
  fields: (t) => ({
    endpointId: t.id(),
    since: t.field({ type: 'DateTime' }),
    replayed: t.int({ description: 'How many failed messages were queued again' }),
  }),
});

const EVENT_TYPES_HELP = 'Event types of the catalogue (e.g. product.created, product.updated), or ["*"] for all; duplicates are dropped';

/** The service's input from a GraphQL one: null means "not sent", as the resolvers take it. */
const withoutNulls = (v: Record<string, unknown>) => Object.fromEntries(Object.entries(v).filter(([, x]) => x != null));

const WebhookEndpointCreateInput = builder.inputType('WebhookEndpointCreateInput', {
  extensions: inputRules((v) => fieldErrorsOf(endpoints.CreateEndpoint, withoutNulls(v))),
  fields: (t) => ({
    url: t.string({ required: true, description: 'https URL (http only for loopback hosts when WEBHOOK_ALLOW_PRIVATE_TARGETS=true); no private, loopback or metadata addresses' }),
    eventTypes: t.stringList({ required: true, description: EVENT_TYPES_HELP }),
    description: t.string({ description: `At most ${MAX_DESCRIPTION_LENGTH} characters` }),
    status: t.field({ type: WebhookEndpointStatus, description: 'Default enabled' }),
    mode: t.field({ type: ServiceMode, description: 'Default live; cannot change later' }),
  }),
});

const WebhookEndpointUpdateInput = builder.inputType('WebhookEndpointUpdateInput', {
  extensions: inputRules((v) => fieldErrorsOf(endpoints.UpdateEndpoint, withoutNulls(v))),
  fields: (t) => ({
    url: t.string(),
    eventTypes: t.stringList({ description: EVENT_TYPES_HELP }),
    description: t.string({ description: `At most ${MAX_DESCRIPTION_LENGTH} characters` }),
    status: t.field({ type: WebhookEndpointStatus, description: 'enabled clears disabledReason, disabledAt and failingSince' }),
    mode: t.field({ type: ServiceMode, description: "Accepted only if it is the endpoint's mode: the mode never changes" }),
  }),
});

const WebhookMessageFilter = builder.inputType('WebhookMessageFilter', {
  fields: (t) => ({
    endpointId: t.id(),
    status: t.field({ type: WebhookMessageStatus }),
    eventType: t.string({ description: 'An event type of the catalogue, or ping' }),
  }),
});

const undef = <T>(v: T | null | undefined) => v ?? undefined;

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: [WebhookEndpoint],
    description: `The store's webhook endpoints, oldest first (at most ${MAX_ENDPOINTS_PER_MODE} per mode). Needs manage_webhooks.`,
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => endpoints.listWebhookEndpoints(ctx, args.storeId, { mode: undef(args.mode) }),
  }),
  webhookEndpoint: t.field({
    type: WebhookEndpoint,
    description: 'One webhook endpoint. Needs manage_webhooks.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => endpoints.getWebhookEndpoint(ctx, args.storeId, args.id),
  }),
  webhookMessage: t.field({
    type: WebhookMessage,
    description: `One message of the delivery log with its payload and attempts (the log keeps the last WEBHOOK_LOG_RETENTION_DAYS days, default 30). Needs manage_webhooks.`,
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => log.getWebhookMessage(ctx, args.storeId, args.id),
  }),
}));

builder.queryField('webhookMessages', (t) =>
  t.connection({
    type: WebhookMessage,
    description: `The store's delivery log, newest first, for the retention period (default 30 days); keyset cursors, first defaults to ${MESSAGES_PAGE.default}, at most ${MESSAGES_PAGE.max}. Needs manage_webhooks.`,
    args: { storeId: t.arg.id({ required: true }), filter: t.arg({ type: WebhookMessageFilter }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: async (_root, args, ctx) => {
      if (args.last != null || args.before != null) {
        throw new AppError('validation_failed', 'last/before: the delivery log pages forward only (first/after)', {
          errors: [{ field: args.last != null ? 'last' : 'before', code: 'unsupported', message: 'the delivery log pages forward only' }],
        });
      }
      const f = args.filter;
      const page = await log.listWebhookMessages(ctx, args.storeId, {
        endpointId: undef(f?.endpointId),
        status: undef(f?.status),
        eventType: undef(f?.eventType),
        first: undef(args.first),
        after: undef(args.after),
      });
      return {
        edges: page.items.map((node, i) => ({ node, cursor: page.cursors[i] })),
        pageInfo: { hasNextPage: page.hasMore, hasPreviousPage: !!args.after, startCursor: page.cursors[0] ?? null, endCursor: page.cursors.at(-1) ?? null },
      };
    },
  }),
);

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookEndpointWithSecret,
    description: `Creates a webhook endpoint and returns its signing secret once. At most ${MAX_ENDPOINTS_PER_MODE} endpoints per mode and store. Needs manage_webhooks.`,
    args: { storeId: t.arg.id({ required: true }), input: t.arg({ type: WebhookEndpointCreateInput, required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, { storeId, input }, ctx) =>
      endpoints.createWebhookEndpoint(ctx, storeId, {
        url: input.url,
        eventTypes: input.eventTypes,
        description: undef(input.description),
        status: undef(input.status),
        mode: undef(input.mode),
      }),
  }),
  updateWebhookEndpoint: t.field({
    type: WebhookEndpoint,
    description: 'Changes the URL, event types, description or status (fields left out stay). Needs manage_webhooks.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), input: t.arg({ type: WebhookEndpointUpdateInput, required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, { storeId, id, input }, ctx) =>
      endpoints.updateWebhookEndpoint(ctx, storeId, id, {
        url: undef(input.url),
        eventTypes: undef(input.eventTypes),
        description: undef(input.description),
        status: undef(input.status),
        mode: undef(input.mode),
      }),
  }),
  deleteWebhookEndpoint: t.field({
    type: WebhookEndpoint,
    description: 'Deletes an endpoint and its delivery log; returns it as it was. Needs manage_webhooks.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => endpoints.deleteWebhookEndpoint(ctx, args.storeId, args.id),
  }),
  rollWebhookEndpointSecret: t.field({
    type: WebhookEndpointWithSecret,
    description: `Replaces the signing secret and returns the new one once; the old one keeps signing too for overlapHours (0 to ${MAX_SECRET_OVERLAP_HOURS}, default ${DEFAULT_SECRET_OVERLAP_HOURS}). Needs manage_webhooks.`,
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), overlapHours: t.arg.int() },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => endpoints.rollWebhookEndpointSecret(ctx, args.storeId, args.id, { overlapHours: undef(args.overlapHours) }),
  }),
  pingWebhookEndpoint: t.field({
    type: WebhookMessage,
    description: 'Sends a ping message to this endpoint only (one attempt, not retried). 409 endpoint_disabled if disabled. Needs manage_webhooks.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => log.pingWebhookEndpoint(ctx, args.storeId, args.id),
  }),
  replayWebhookMessages: t.field({
    type: WebhookReplayResult,
    description:
      'Sends every failed message of the endpoint created at or after since (within the retention period) once more. 409 endpoint_disabled if disabled. Needs manage_webhooks.',
    args: { storeId: t.arg.id({ required: true }), endpointId: t.arg.id({ required: true }), since: t.arg({ type: 'DateTime', required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => log.replayWebhookMessages(ctx, args.storeId, args.endpointId, { since: args.since }),
  }),
  resendWebhookMessage: t.field({
    type: WebhookMessage,
    description:
      'Sends a message again now: a pending one keeps its retry schedule, a succeeded or failed one gets one more attempt. 409 endpoint_disabled if its endpoint is disabled. Needs manage_webhooks.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageWebhooks', args.storeId),
    resolve: (_root, args, ctx) => log.resendWebhookMessage(ctx, args.storeId, args.id),
  }),
}));
