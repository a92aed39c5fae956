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

/**
 * The errors every public operation can answer, whatever the operation: the credential's (401), its scope, mode
 * or app (403), the rate limit (429), and for a resource in the path, 404. They replace what a merchant route
 * reached by API credentials says of its dashboard token; a route's own 404 (what is not found) is kept.
 */
function publicErrors(own: Record<string, Json>, hasResource: boolean): Record<string, Json> {
  return {
    '400': own['400'] ?? problemResponse('The credential or mode is sent twice and differently (conflicting_credentials, conflicting_mode), or the mode is neither test nor live (invalid_mode)'),
    '401': problemResponse('No credential, or one that is not valid (unauthenticated, invalid_api_key, api_key_expired, api_key_revoked, invalid_token)'),
    '403': problemResponse(
      "The credential's scopes do not grant the operation (insufficient_scope, with required_scopes), the request names the other mode (mode_mismatch), or the OAuth app is suspended (app_suspended)",
    ),
    ...(hasResource ? { '404': own['404'] ?? problemResponse('No such resource in the credential\'s catalog (not_found)') } : {}),
    '429': {
      ...problemResponse('Too many requests for the credential (rate_limited); retry after Retry-After seconds'),
      headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } } },
    },
  };
}

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

const integer = (description: string) => ({ type: 'integer', description });
const strings = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

/**
 * The extension members a problem may carry besides RFC 9457's (the `details` of the service's errors), each with
 * the codes that send it; a test holds this list to every `details` the source gives an error.
 */
const PROBLEM_EXTENSIONS = {
  max_bytes: integer('payload_too_large: the size limit that was exceeded, in bytes'),
  max_depth: integer('bad_request: the deepest JSON nesting accepted'),
  max_files: integer('payload_too_large: the most files one upload request carries'),
  max_length: integer('invalid_idempotency_key: the longest Idempotency-Key accepted'),
  max_pixels: integer('image_dimensions_too_large: the most pixels an image may have'),
  width: integer('image_dimensions_too_large: the width of the image sent'),
  height: integer('image_dimensions_too_large: the height of the image sent'),
  accepted: strings('unsupported_media_type: the media types accepted'),
  declared_type: { type: 'string', description: 'unsupported_media_type: the media type the file was sent as' },
  row: integer('validation_failed (import file): the row of the file the error is on, 1 for the first data row'),
  unknown_slugs: strings('unknown_category: the category slugs that do not exist'),
  current_version: integer('precondition_failed: the product\'s current version'),
  skus: strings('sku_taken: the SKUs used by another product'),
  slug: { type: 'string', description: 'slug_taken: the slug that is taken' },
  translations: integer('locale_has_translations: how many translations use the locale'),
  products: integer('category_in_use: how many products are in the category; product_type_in_use: how many products have the type; attribute_value_in_use: how many products hold the values; attribute_values_missing: how many products lack the values; currency_in_use: how many products have prices in the currency'),
  attribute_code: { type: 'string', description: 'code_taken: the attribute code that is taken' },
  locale: { type: 'string', description: 'locale_taken, default_locale_not_removable, locale_has_translations, not_found (a locale the store lacks), slug_taken (a translated slug): the locale, normalised' },
  currency: { type: 'string', description: 'currency_taken, currency_in_use, default_currency_not_removable, not_found (a currency the store lacks): the currency code' },
  product_type_name: { type: 'string', description: 'name_taken: the product type name that is taken' },
  product_types: {
    type: 'array',
    items: { type: 'object', properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } },
    description: 'attribute_in_use: the product types that apply the attribute',
  },
  values: strings('attribute_value_in_use: the values being removed that products hold'),
  attributes: strings('attribute_values_missing: the codes of the required attributes products lack'),
  variants: {
    type: 'array',
    description: 'options_in_use: the variants the options write would leave without a value or with a shared combination',
    items: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        sku: { type: 'string' },
        options: { type: 'object', additionalProperties: { type: 'string' } },
        reason: { type: 'string', enum: ['value_removed', 'duplicate_combination'] },
      },
    },
  },
  limit: integer('conflict: the most webhook endpoints a mode may have; limit_exceeded: the maximum of the limit'),
  limit_name: { type: 'string', description: 'limit_exceeded: the limit the write would exceed (docs/limits.md)' },
  endpoint_id: { type: 'string', description: 'endpoint_disabled: the disabled webhook endpoint' },
  locked_until: { type: 'string', format: 'date-time', description: 'conflict: until when an attempt of the webhook message is in flight' },
  store_ids: strings('conflict: the stores of that name'),
  supported_languages: strings('validation_failed: the languages the description provider supports'),
  provider_status: integer('provider_error: the HTTP status the description provider answered'),
  retry_after: integer('rate_limited, too_many_login_attempts: seconds to wait (as the Retry-After header)'),
  required_scope: { type: 'string', description: 'insufficient_scope: a scope that grants the operation' },
  required_scopes: strings('insufficient_scope: the scopes that grant the operation (any one of them)'),
  request_mode: { type: 'string', enum: ['test', 'live'], description: 'mode_mismatch: the mode the request named' },
  credential_mode: { type: 'string', enum: ['test', 'live'], description: "mode_mismatch: the credential's mode" },
  allowed_modes: strings('invalid_mode: the modes a request may name'),
  max_products: integer('too_many_products: the most products one copy to the test catalog takes'),
  job_id: { type: 'string', description: 'conflict: the test catalog job still queued or running' },
  livemode: { type: 'boolean', description: 'Public API: true when the request ran in live mode' },
  required_permission: { type: 'string', description: 'forbidden: the store permission the operation needs (the first, when any of several would do)' },
  required_permissions: strings('forbidden: every store permission that would pass'),
  required_role: { type: 'string', enum: ['owner'], description: "forbidden: the operation is the store owner's alone" },
  invitation_state: { type: 'string', enum: ['expired', 'used', 'revoked'], description: 'invitation_unusable (GraphQL): why the invitation link no longer works' },
};

/** How a merchant request picks its catalog; every merchant route takes it (src/access/auth/authenticate.ts, requestedMode). */
const merchantMode = {
  required: false,
  schema: { type: 'string', enum: ['test', 'live'] },
  description: 'The catalog to work on: live (the default) or test. Header or query parameter; both must agree (400 conflicting_mode).',
};
const MERCHANT_MODE = [
  { in: 'header', name: 'X-Service-Mode', $ref: '#/components/parameters/ServiceModeHeader' },
  { in: 'query', name: 'mode', $ref: '#/components/parameters/ServiceModeQuery' },
];

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
          description: 'The field errors of the request (validation_failed and the like), each naming the field as the client sent it',
          items: { type: 'object', required: ['field', 'code', 'message'], properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } } },
        },
        ...PROBLEM_EXTENSIONS,
      },
    },
  },
  responses: {
    Problem: { description: 'Error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
  },
  parameters: {
    ServiceModeHeader: { name: 'X-Service-Mode', in: 'header', ...merchantMode },
    ServiceModeQuery: { name: 'mode', in: 'query', ...merchantMode },
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
      parameters: [
        ...pathParams,
        ...(extra.parameters ?? []),
        ...(r.auth === 'dashboard' ? MERCHANT_MODE.filter((p) => !declared.has(`${p.in}:${p.name}`)).map((p) => ({ $ref: p.$ref })) : []),
        ...(write ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      ],
      ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
      responses: {
        ...(write ? withReplayHeader(extra.responses ?? { '200': { description: 'OK' } }) : (extra.responses ?? { '200': { description: 'OK' } })),
        ...(r.auth === 'public' ? publicErrors(extra.responses ?? {}, r.path.includes(':')) : {}),
        '4XX': write ? writeProblem : problem,
        '5XX': problem,
      },
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
 * The document as JSON for any base URL: built once, when first asked for (1.8 MB of JSON that a process nobody
 * asks need not hold), with the base URL (from PUBLIC_BASE_URL or the request) spliced in per request, so
 * `servers` and the examples' problem types name the host the client used.
 */
export function openApiJson(routes: RestRoute[]): (baseUrl: string) => string {
  let parts: string[] | undefined;
  return (baseUrl) => (parts ??= JSON.stringify(openApiDocument(routes)).split(BASE_URL_PLACEHOLDER)).join(JSON.stringify(baseUrl).slice(1, -1));
}

/** Two routes may share a component only if they describe it identically; a clash is a bug, found when the document is built (the OpenAPI tests build it). */
function mergeComponent(components: Record<string, Record<string, unknown>>, kind: string, name: string, value: unknown) {
  const group = (components[kind] ??= {});
  if (name in group && JSON.stringify(group[name]) !== JSON.stringify(value)) {
    throw new Error(`OpenAPI component ${kind}.${name} is declared twice with different content`);
  }
  group[name] = value;
}
