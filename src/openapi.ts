/** The OpenAPI document at /api/openapi.json, assembled from the REST routes' fragments. */

import { describePermissions } from './access/auth/authorization';
import { describeScopes } from './access/auth/credentials';
import { OAUTH_BASE_PATH } from './access/rest/oauth';
import { oauthComponents, oauthPaths } from './access/rest/oauthOpenapi';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from './api/idempotency';
import { type Json, type OpenApiFragment, problemResponse } from './api/rest/openapi';
import { completeExamples } from './api/rest/openapiExamples';
import { OPERATION_DOCS } from './api/rest/operationDocs';
import type { RestRoute } from './api/rest/routes';

const problem = problemResponse('Error (RFC 9457 problem document; `code` is the stable error code)');
const writeProblem = problemResponse(
  'Error (RFC 9457 problem document; `code` is the stable error code). With an Idempotency-Key also: 400 invalid_idempotency_key, ' +
    '409 idempotency_key_in_progress (the first request with the key is still running; retry after Retry-After), ' +
    '422 idempotency_key_reused (the key was used for a different request)',
);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A write's success response also says whether it is a replay. */
function withReplayHeader(responses: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) =>
      status.startsWith('2') && !('$ref' in response)
        ? [status, { ...response, headers: { ...((response.headers as Json) ?? {}), 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } }]
        : [status, response],
    ),
  );
}

const BASE_COMPONENTS = {
  securitySchemes: {
    dashboardToken: {
      type: 'http',
      scheme: 'bearer',
      description: `Dashboard token (svc_dash_…) of a store's owner, who may do everything, or of a member, who may do what its permissions allow. Permissions: ${describePermissions()}.`,
    },
    apiKey: { type: 'http', scheme: 'bearer', description: `API key (svc_test_…/svc_live_…) or OAuth access token (svc_oat_…). Scopes: ${describeScopes()}.` },
    apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
  },
  schemas: {
    Problem: {
      type: 'object',
      required: ['type', 'title', 'status', 'code', 'request_id'],
      properties: {
        type: { type: 'string', format: 'uri' },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code: { type: 'string', description: 'Stable error code, e.g. validation_failed, not_found, precondition_failed' },
        request_id: { type: 'string' },
        errors: {
          type: 'array',
          items: { type: 'object', required: ['field', 'code', 'message'], properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } } },
        },
        required_permission: { type: 'string', description: 'forbidden: the store permission the operation needs (the first, when any of several would do)' },
        required_permissions: { type: 'array', items: { type: 'string' }, description: 'forbidden: every store permission that would pass' },
        required_role: { type: 'string', enum: ['owner'], description: "forbidden: the operation is the store owner's alone" },
      },
    },
  },
  responses: {
    Problem: { description: 'Error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
  },
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        `Makes the write safe to retry (Stripe's rules). For 24 hours, the same key with the same request (method, path, query and body) ` +
        `answers with the first response, byte for byte, with Idempotent-Replayed: true, and runs nothing. Keys are scoped to the credential ` +
        `(API key, OAuth grant or dashboard user), the store and the mode. Requests refused (4xx) or failed (5xx) are not kept: the key can be used again.`,
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[\\x20-\\x7E]+$' },
    },
  },
  headers: {
    IdempotentReplayed: { description: '`true` when the response is the stored answer of an earlier request with the same Idempotency-Key', schema: { type: 'string', enum: ['true'] } },
  },
} as const;

/** Stands for the service's base URL in the document until a request names it (see openApiJson). */
const BASE_URL_PLACEHOLDER = 'http://service-base-url.invalid';

/**
 * OpenAPI 3.1 description of the REST surface, generated from the route table so the two cannot drift, with
 * the OAuth endpoints, descriptions (src/api/rest/operationDocs.ts) and examples (src/api/rest/openapiExamples.ts).
 * `baseUrl` is the service's public base URL: the server, and the base of the problem types in the examples.
 */
function openApiDocument(routes: RestRoute[], baseUrl: string = BASE_URL_PLACEHOLDER) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, Record<string, unknown>> = structuredClone(BASE_COMPONENTS) as never;
  for (const [kind, entries] of Object.entries(oauthComponents(baseUrl))) {
    for (const [name, value] of Object.entries(entries)) mergeComponent(components, kind, name, value);
  }
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    const extra = (r.openapi ?? {}) as OpenApiFragment;
    const declared = new Set((extra.parameters ?? []).map((p) => `${p.in}:${p.name}`));
    const pathParams = [...r.path.matchAll(/:(\w+)/g)]
      .filter(([, name]) => !declared.has(`path:${name}`))
      .map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    for (const [kind, entries] of Object.entries(extra.components ?? {})) {
      for (const [name, value] of Object.entries(entries ?? {})) mergeComponent(components, kind, name, value);
    }
    const write = WRITES.has(r.method);
    paths[path] ??= {};
    const docs = OPERATION_DOCS[r.operationId];
    const description = docs?.description ?? extra.description;
    paths[path][r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(description ? { description } : {}),
      tags: [r.path.startsWith('/api/public/') ? 'Public API' : 'Merchant API'],
      ...(r.auth === 'dashboard'
        ? { security: [{ dashboardToken: [] }] }
        : r.auth === 'public'
          ? { security: [{ apiKey: [] }, { apiKeyHeader: [] }, ...(docs?.scopes ?? []).map((scopes) => ({ oauth2: scopes }))] }
          : { security: [] }),
      parameters: [...pathParams, ...(extra.parameters ?? []), ...(write ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [])],
      ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
      responses: write
        ? { ...withReplayHeader(extra.responses ?? { '200': { description: 'OK' } }), '4XX': writeProblem, '5XX': problem }
        : { ...(extra.responses ?? { '200': { description: 'OK' } }), '4XX': problem, '5XX': problem },
    };
  }
  Object.assign(paths, oauthPaths());
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Store catalog REST API',
      version: '1.0.0',
      description:
        'Merchant product API and public integration API. Errors are RFC 9457 problem documents whose `type` is a page of this service explaining the error code ' +
        `([all error codes](${baseUrl}/docs/errors)). The dashboard's GraphQL API, the source of truth behind every route, is at [/graphql](${baseUrl}/graphql).`,
    },
    servers: [{ url: baseUrl, description: 'This service' }],
    tags: [
      { name: 'Merchant API', description: 'Product management for a store; dashboard bearer token with manage_products' },
      { name: 'Public API', description: 'Integration API for API keys and OAuth access tokens' },
      { name: 'OAuth', description: `OAuth 2.0 authorization code flow with PKCE for partner apps (${OAUTH_BASE_PATH}; off unless OAUTH_ENABLED)` },
    ],
    paths,
    components,
  };
  const surfaceOf = (path: string, op: Record<string, unknown>) =>
    path.startsWith(OAUTH_BASE_PATH) ? 'oauth' : path.startsWith('/api/public/') ? 'public' : Array.isArray(op.security) && op.security.length ? 'dashboard' : 'none';
  completeExamples(doc, baseUrl, surfaceOf);
  return doc;
}

/**
 * The document as JSON for any base URL: built once, with the base URL (from PUBLIC_BASE_URL or the request)
 * spliced in per request, so `servers` and the examples' problem types name the host the client used.
 */
export function openApiJson(routes: RestRoute[]): (baseUrl: string) => string {
  const parts = JSON.stringify(openApiDocument(routes)).split(BASE_URL_PLACEHOLDER);
  return (baseUrl) => parts.join(JSON.stringify(baseUrl).slice(1, -1));
}

/** Two routes may share a component only if they describe it identically; a clash is a bug found at startup. */
function mergeComponent(components: Record<string, Record<string, unknown>>, kind: string, name: string, value: unknown) {
  const group = (components[kind] ??= {});
  if (name in group && JSON.stringify(group[name]) !== JSON.stringify(value)) {
    throw new Error(`OpenAPI component ${kind}.${name} is declared twice with different content`);
  }
  group[name] = value;
}
