/** REST routes for webhook endpoints and the delivery log. */

import type { FieldError } from '../../platform/errors';
import { DEFAULT_SECRET_OVERLAP_HOURS, MAX_DESCRIPTION_LENGTH, MAX_ENDPOINTS_PER_MODE, MAX_SECRET_OVERLAP_HOURS } from '../webhooks/endpoints';
import { MESSAGE_STATUSES, MESSAGES_PAGE } from '../webhooks/log';
import { bodyWith, camelizeKeys, requireObject, RestInputError } from '../../api/rest/body';
import { schemaRef } from '../../api/rest/openapi';
import { enumParam, intParam, keysetMetaSchema, keysetPage } from '../../api/rest/params';
import type { RestRequest, RestResponse, RestRoute } from '../../api/rest/routes';

/** REST for webhook endpoints and the delivery log, under /api/v1/merchant/stores/:storeId. Every route needs manage_webhooks. */

const BASE = '/api/v1/merchant/stores/:storeId';
const ENDPOINTS = `${BASE}/webhook-endpoints`;
const MESSAGES = `${BASE}/webhook-messages`;

/** The endpoint as REST (and the endpoint's events) show it. */
const ENDPOINT_FIELDS = `
  id store_id: storeId mode url description event_types: eventTypes status
  disabled_reason: disabledReason disabled_at: disabledAt secret_hint: secretHint
  previous_secret_expires_at: previousSecretExpiresAt created_at: createdAt updated_at: updatedAt`;

const MESSAGE_FIELDS = `
  id webhook_id: webhookId endpoint_id: endpointId mode event_id: eventId event_type: eventType status trigger
  attempt_count: attemptCount next_attempt_at: nextAttemptAt last_attempt_at: lastAttemptAt created_at: createdAt`;

const FULL_MESSAGE_FIELDS = `${MESSAGE_FIELDS}
  payload
  attempts { id number trigger started_at: startedAt duration_ms: durationMs succeeded status_code: statusCode response_body: responseBody error }`;

/** Fields of a GET a client may send back in a PATCH: not writable, ignored. */
const READ_ONLY = new Set(['id', 'store_id', 'disabled_reason', 'disabled_at', 'secret_hint', 'previous_secret_expires_at', 'created_at', 'updated_at']);

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** A required RFC 3339 date-time with its offset (2026-11-23T10:00:00Z). */
function requiredTime(obj: Record<string, unknown>, name: string): string {
  const v = obj[name];
  if (v === undefined || v === null || v === '') throw new RestInputError([{ field: name, code: 'required', message: 'is required: an RFC 3339 date-time such as 2026-11-23T10:00:00Z' }]);
  if (typeof v !== 'string' || !RFC3339.test(v) || Number.isNaN(Date.parse(v))) {
    throw new RestInputError([{ field: name, code: 'invalid_value', message: 'must be an RFC 3339 date-time such as 2026-11-23T10:00:00Z' }]);
  }
  return new Date(v).toISOString();
}

/** The page size, named as the client sent it (the operation calls it `first`). */
const limitParam = (q: URLSearchParams) => intParam(q, 'limit', { min: 1, max: MESSAGES_PAGE.max });

const withSecret = (payload: { endpoint: Record<string, unknown>; secret: string }) => ({ ...payload.endpoint, secret: payload.secret });

const messagePage = (data: Record<string, any>, r: RestRequest): RestResponse => keysetPage(data.webhookMessages, r, MESSAGES_PAGE.default);

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });
const dateTime = { type: 'string', format: 'date-time' };
const param = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });

const EndpointSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', readOnly: true },
    store_id: { type: 'string', readOnly: true },
    mode: { type: 'string', enum: ['test', 'live'], description: 'Fixed at creation (default live)' },
    url: { type: 'string', format: 'uri', description: 'https; no loopback, private, link-local or metadata address' },
    description: { type: 'string', maxLength: MAX_DESCRIPTION_LENGTH },
    event_types: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Event types of the catalogue, or ["*"] for all' },
    status: { type: 'string', enum: ['enabled', 'disabled'] },
    disabled_reason: nullable('string', { readOnly: true, description: 'manual, gone (answered 410) or failing (3 days of failures)' }),
    disabled_at: nullable('string', { format: 'date-time', readOnly: true }),
    secret_hint: { type: 'string', readOnly: true, description: 'whsec_… and the last 4 characters' },
    previous_secret_expires_at: nullable('string', { format: 'date-time', readOnly: true }),
    created_at: { ...dateTime, readOnly: true },
    updated_at: { ...dateTime, readOnly: true },
  },
};
const EndpointWithSecretSchema = {
  ...EndpointSchema,
  properties: { ...EndpointSchema.properties, secret: { type: 'string', description: 'The signing secret (whsec_…); shown once' } },
};

const AttemptSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    number: { type: 'integer' },
    trigger: { type: 'string', enum: ['scheduled', 'resend', 'replay', 'ping'] },
    started_at: dateTime,
    duration_ms: { type: 'integer' },
    succeeded: { type: 'boolean' },
    status_code: nullable('integer'),
    response_body: nullable('string', { description: 'The first 2 KB of the answer' }),
    error: nullable('string'),
  },
};
const MessageSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    webhook_id: { type: 'string', description: 'The webhook-id header of every attempt: msg_<id>' },
    endpoint_id: { type: 'string' },
    mode: { type: 'string', enum: ['test', 'live'] },
    event_id: nullable('string', { description: 'null for a ping' }),
    event_type: { type: 'string' },
    status: { type: 'string', enum: [...MESSAGE_STATUSES] },
    trigger: { type: 'string', enum: ['scheduled', 'resend', 'replay', 'ping'] },
    attempt_count: { type: 'integer' },
    next_attempt_at: nullable('string', { format: 'date-time' }),
    last_attempt_at: nullable('string', { format: 'date-time' }),
    created_at: dateTime,
  },
};
const FullMessageSchema = {
  ...MessageSchema,
  properties: { ...MessageSchema.properties, payload: { type: 'string', description: 'The body exactly as sent' }, attempts: { type: 'array', items: AttemptSchema } },
};
/** The schemas every route shares, as components (each route declares them; identical duplicates merge). */
const components = {
  schemas: { WebhookEndpoint: EndpointSchema, WebhookEndpointWithSecret: EndpointWithSecretSchema, WebhookMessage: MessageSchema, WebhookMessageWithAttempts: FullMessageSchema },
};
const ref = (name: keyof typeof components.schemas) => schemaRef(name);
const data = (schema: Record<string, unknown>) => json({ type: 'object', properties: { data: schema } });
/** A POST whose body, if any, must be empty (`{}`). */
const noBody = (body: unknown) => void bodyWith(body, []);

export const webhookRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: ENDPOINTS,
    operationId: 'listWebhookEndpoints',
    summary: "The store's webhook endpoints, oldest first (needs manage_webhooks)",
    auth: 'dashboard',
    operation: `query WebhookEndpoints($storeId: ID!, $mode: ServiceMode) { webhookEndpoints(storeId: $storeId, mode: $mode) { ${ENDPOINT_FIELDS} } }`,
    variables: ({ params, query }) => ({ storeId: params.storeId, mode: enumParam(query, 'mode', ['test', 'live'] as const) }),
    respond: (d) => ({ body: { data: d.webhookEndpoints } }),
    openapi: {
      components,
      parameters: [param('mode', 'Only endpoints of this mode', { type: 'string', enum: ['test', 'live'] })],
      responses: { '200': { description: 'Endpoints', content: data({ type: 'array', items: ref('WebhookEndpoint') }) } },
    },
  },
  {
    method: 'POST',
    path: ENDPOINTS,
    operationId: 'createWebhookEndpoint',
    summary: `Create a webhook endpoint; the signing secret is in this response only (at most ${MAX_ENDPOINTS_PER_MODE} per mode; needs manage_webhooks)`,
    auth: 'dashboard',
    operation: `
      mutation CreateWebhookEndpoint($storeId: ID!, $input: WebhookEndpointCreateInput!) {
        createWebhookEndpoint(storeId: $storeId, input: $input) { secret endpoint { ${ENDPOINT_FIELDS} } }
      }`,
    variables: ({ params, body }) => ({ storeId: params.storeId, input: camelizeKeys(requireObject(body)) }),
    respond: (d, r) => ({
      status: 201,
      body: { data: withSecret(d.createWebhookEndpoint) },
      headers: { Location: `${r.ctx.baseUrl}${r.req.url!.split('?')[0].replace(/\/+$/, '')}/${d.createWebhookEndpoint.endpoint.id}` },
    }),
    openapi: {
      components,
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['url', 'event_types'],
          properties: {
            url: EndpointSchema.properties.url,
            event_types: EndpointSchema.properties.event_types,
            description: EndpointSchema.properties.description,
            status: { type: 'string', enum: ['enabled', 'disabled'], default: 'enabled' },
            mode: { type: 'string', enum: ['test', 'live'], default: 'live' },
          },
        }),
      },
      responses: {
        '201': { description: 'The endpoint with its secret (shown once); 422 webhook_url_forbidden for a private target', content: data(ref('WebhookEndpointWithSecret')) },
      },
    },
  },
  {
    method: 'GET',
    path: `${ENDPOINTS}/:endpointId`,
    operationId: 'getWebhookEndpoint',
    summary: 'Read one webhook endpoint (needs manage_webhooks)',
    auth: 'dashboard',
    operation: `query WebhookEndpoint($storeId: ID!, $id: ID!) { webhookEndpoint(storeId: $storeId, id: $id) { ${ENDPOINT_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId, id: params.endpointId }),
    respond: (d) => ({ body: { data: d.webhookEndpoint } }),
    openapi: { components, responses: { '200': { description: 'The endpoint', content: data(ref('WebhookEndpoint')) } } },
  },
  {
    method: 'PATCH',
    path: `${ENDPOINTS}/:endpointId`,
    operationId: 'updateWebhookEndpoint',
    summary: 'Change the URL, event types, description or status of an endpoint (fields left out stay; needs manage_webhooks)',
    auth: 'dashboard',
    operation: `
      mutation UpdateWebhookEndpoint($storeId: ID!, $id: ID!, $input: WebhookEndpointUpdateInput!) {
        updateWebhookEndpoint(storeId: $storeId, id: $id, input: $input) { ${ENDPOINT_FIELDS} }
      }`,
    variables: ({ params, body }) => ({
      storeId: params.storeId,
      id: params.endpointId,
      input: camelizeKeys(Object.fromEntries(Object.entries(requireObject(body)).filter(([k]) => !READ_ONLY.has(k)))),
    }),
    respond: (d) => ({ body: { data: d.updateWebhookEndpoint } }),
    openapi: {
      components,
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          properties: {
            url: EndpointSchema.properties.url,
            event_types: EndpointSchema.properties.event_types,
            description: EndpointSchema.properties.description,
            status: { type: 'string', enum: ['enabled', 'disabled'], description: 'enabled clears disabled_reason and disabled_at' },
            mode: { type: 'string', enum: ['test', 'live'], description: "Accepted only if it is the endpoint's mode" },
          },
        }),
      },
      responses: { '200': { description: 'The endpoint', content: data(ref('WebhookEndpoint')) } },
    },
  },
  {
    method: 'DELETE',
    path: `${ENDPOINTS}/:endpointId`,
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete an endpoint and its delivery log (needs manage_webhooks)',
    auth: 'dashboard',
    operation: `mutation DeleteWebhookEndpoint($storeId: ID!, $id: ID!) { deleteWebhookEndpoint(storeId: $storeId, id: $id) { id } }`,
    variables: ({ params }) => ({ storeId: params.storeId, id: params.endpointId }),
    respond: () => ({ status: 204 }),
    openapi: { components, responses: { '204': { description: 'Deleted' } } },
  },
  {
    method: 'POST',
    path: `${ENDPOINTS}/:endpointId/roll-secret`,
    operationId: 'rollWebhookEndpointSecret',
    summary: 'Replace the signing secret; the new one is in this response only, the old one keeps signing during the overlap (needs manage_webhooks)',
    auth: 'dashboard',
    operation: `
      mutation RollWebhookEndpointSecret($storeId: ID!, $id: ID!, $overlapHours: Int) {
        rollWebhookEndpointSecret(storeId: $storeId, id: $id, overlapHours: $overlapHours) { secret endpoint { ${ENDPOINT_FIELDS} } }
      }`,
    variables: ({ params, body }) => ({ storeId: params.storeId, id: params.endpointId, overlapHours: bodyWith(body, ['overlap_hours']).overlap_hours }),
    respond: (d) => ({ body: { data: withSecret(d.rollWebhookEndpointSecret) } }),
    openapi: {
      components,
      requestBody: {
        required: false,
        content: json({
          type: 'object',
          properties: {
            overlap_hours: {
              type: 'integer',
              minimum: 0,
              maximum: MAX_SECRET_OVERLAP_HOURS,
              default: DEFAULT_SECRET_OVERLAP_HOURS,
              description: 'How long messages carry the old secret\'s signature too (0: stop now)',
            },
          },
        }),
      },
      responses: { '200': { description: 'The endpoint with its new secret (shown once)', content: data(ref('WebhookEndpointWithSecret')) } },
    },
  },
  {
    method: 'POST',
    path: `${ENDPOINTS}/:endpointId/ping`,
    operationId: 'pingWebhookEndpoint',
    summary: 'Send a ping message to this endpoint (one attempt; 409 endpoint_disabled if disabled; needs manage_webhooks)',
    auth: 'dashboard',
    operation: `mutation PingWebhookEndpoint($storeId: ID!, $id: ID!) { pingWebhookEndpoint(storeId: $storeId, id: $id) { ${FULL_MESSAGE_FIELDS} } }`,
    variables: ({ params, body }) => {
      noBody(body);
      return { storeId: params.storeId, id: params.endpointId };
    },
    respond: (d) => ({ status: 202, body: { data: d.pingWebhookEndpoint } }),
    openapi: { components, responses: { '202': { description: 'The queued ping message', content: data(ref('WebhookMessageWithAttempts')) } } },
  },
  {
    method: 'POST',
    path: `${ENDPOINTS}/:endpointId/replay`,
    operationId: 'replayWebhookMessages',
    summary: 'Send every failed message of the endpoint since a time once more (needs manage_webhooks)',
    auth: 'dashboard',
    operation: `
      mutation ReplayWebhookMessages($storeId: ID!, $endpointId: ID!, $since: DateTime!) {
        replayWebhookMessages(storeId: $storeId, endpointId: $endpointId, since: $since) { endpoint_id: endpointId since replayed }
      }`,
    variables: ({ params, body }) => ({ storeId: params.storeId, endpointId: params.endpointId, since: requiredTime(bodyWith(body, ['since']), 'since') }),
    respond: (d) => ({ status: 202, body: { data: d.replayWebhookMessages } }),
    openapi: {
      components,
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['since'],
          properties: { since: { ...dateTime, description: 'Failed messages created at or after this RFC 3339 time, within the log retention (30 days)' } },
        }),
      },
      responses: {
        '202': {
          description: 'How many messages were queued again',
          content: data({ type: 'object', properties: { endpoint_id: { type: 'string' }, since: dateTime, replayed: { type: 'integer' } } }),
        },
      },
    },
  },
  {
    method: 'GET',
    path: MESSAGES,
    operationId: 'listWebhookMessages',
    summary: "The store's delivery log, newest first, for the last 30 days (needs manage_webhooks)",
    auth: 'dashboard',
    operation: `
      query WebhookMessages($storeId: ID!, $filter: WebhookMessageFilter, $first: Int, $after: String) {
        webhookMessages(storeId: $storeId, filter: $filter, first: $first, after: $after) {
          edges { cursor node { ${MESSAGE_FIELDS} } }
          pageInfo { hasNextPage endCursor }
        }
      }`,
    variables: ({ params, query }) => ({
      storeId: params.storeId,
      first: limitParam(query),
      after: query.get('after') || undefined,
      filter: {
        endpointId: query.get('endpoint_id') || undefined,
        status: enumParam(query, 'status', MESSAGE_STATUSES),
        eventType: query.get('event_type') || undefined,
      },
    }),
    respond: messagePage,
    openapi: {
      components,
      parameters: [
        param('endpoint_id', 'Only messages of this endpoint'),
        param('status', 'pending, succeeded or failed', { type: 'string', enum: [...MESSAGE_STATUSES] }),
        param('event_type', 'Only messages of this event type (or ping)'),
        param('limit', `Page size, 1-${MESSAGES_PAGE.max} (default ${MESSAGES_PAGE.default})`, { type: 'integer', minimum: 1, maximum: MESSAGES_PAGE.max }),
        param('after', 'meta.next_cursor of the previous page'),
      ],
      responses: { '200': { description: 'Messages, newest first: {data: [message], meta: {limit, has_more, next_cursor}}', content: json({ type: 'object', properties: { data: { type: 'array', items: ref('WebhookMessage') }, meta: keysetMetaSchema } }) } },
    },
  },
  {
    method: 'GET',
    path: `${MESSAGES}/:messageId`,
    operationId: 'getWebhookMessage',
    summary: 'One message of the delivery log with its payload and attempts (needs manage_webhooks)',
    auth: 'dashboard',
    operation: `query WebhookMessage($storeId: ID!, $id: ID!) { webhookMessage(storeId: $storeId, id: $id) { ${FULL_MESSAGE_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId, id: params.messageId }),
    respond: (d) => ({ body: { data: d.webhookMessage } }),
    openapi: { components, responses: { '200': { description: 'The message', content: data(ref('WebhookMessageWithAttempts')) } } },
  },
  {
    method: 'POST',
    path: `${MESSAGES}/:messageId/resend`,
    operationId: 'resendWebhookMessage',
    summary: 'Send a message again now (409 endpoint_disabled if its endpoint is disabled; needs manage_webhooks)',
    auth: 'dashboard',
    operation: `mutation ResendWebhookMessage($storeId: ID!, $id: ID!) { resendWebhookMessage(storeId: $storeId, id: $id) { ${FULL_MESSAGE_FIELDS} } }`,
    variables: ({ params, body }) => {
      noBody(body);
      return { storeId: params.storeId, id: params.messageId };
    },
    respond: (d) => ({ status: 202, body: { data: d.resendWebhookMessage } }),
    openapi: { components, responses: { '202': { description: 'The message, queued', content: data(ref('WebhookMessageWithAttempts')) } } },
  },
];
