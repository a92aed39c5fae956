/** The OAuth endpoints' part of the OpenAPI document. */

import { SCOPE_DESCRIPTIONS } from '../auth/credentials';
import { ACCESS_TOKEN_TTL_SECONDS } from '../services/oauth';
import { authorizationServerMetadata, OAUTH_BASE_PATH, OAUTH_METADATA_PATH } from './oauth';

/**
 * The OAuth 2.0 endpoints (src/access/rest/oauth.ts) in the OpenAPI document. They are plain handlers, not route-table
 * entries, so they are described here. Token and revoke speak RFC 6749 error objects; the rest, and every
 * path while OAuth is switched off (404 oauth_not_enabled), answer problem documents.
 */

type Json = Record<string, unknown>;

/** A problem+json response (as openapi.ts's problemResponse; the examples are added with the rest). */
const problemResponse = (description: string) => ({ $ref: '#/components/responses/Problem', description });

const TAG = 'OAuth';
const form = (schema: Json, example: Json) => ({ required: true, content: { 'application/x-www-form-urlencoded': { schema, example } } });
const oauthError = (description: string, examples: Record<string, [string, string]>) => ({
  description,
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/OAuthError' },
      examples: Object.fromEntries(Object.entries(examples).map(([name, [error, text]]) => [name, { summary: error, value: { error, error_description: text } }])),
    },
  },
});
/** An error of the authorization pages: a problem, or for a browser (Accept: text/html) a page saying the same. */
const pageOrProblem = (description: string) => ({
  ...problemResponse(description),
  content: { 'text/html': { schema: { type: 'string' }, example: '<!doctype html>…<h1>This authorization request cannot be completed</h1>…' } },
});

const NOT_ENABLED = 'OAuth is switched off on this service (oauth_not_enabled), or no such OAuth endpoint (route_not_found)';
const notEnabled = { '404': problemResponse(NOT_ENABLED) };
/** The consent form is read up to 64 KiB; a larger body is refused before it is read (with max_bytes). */
const formTooLarge = problemResponse('The form is over 64 KiB (payload_too_large, with max_bytes)');
const notEnabledPage = { '404': pageOrProblem(NOT_ENABLED) };
const clientAuth = [{ oauthClient: [] }, {}];

const authorizationParams = [
  { name: 'response_type', in: 'query', required: true, schema: { type: 'string', enum: ['code'] }, example: 'code' },
  { name: 'client_id', in: 'query', required: true, schema: { type: 'string' }, description: "The app's client id", example: 'svc_oci_3kTMd9QxLw' },
  { name: 'redirect_uri', in: 'query', required: true, schema: { type: 'string', format: 'uri' }, description: 'One of the redirect URIs registered for the app, exactly', example: 'https://partner.example.com/oauth/callback' },
  { name: 'scope', in: 'query', required: true, schema: { type: 'string' }, description: 'Space-separated scopes, each allowed for the app', example: 'products:read products:write' },
  { name: 'state', in: 'query', required: false, schema: { type: 'string' }, description: 'Returned unchanged with the code: bind it to the user’s session (CSRF)', example: 'af0ifjsldkj' },
  { name: 'code_challenge', in: 'query', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' }, description: 'PKCE: BASE64URL(SHA-256(code_verifier))', example: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' },
  { name: 'code_challenge_method', in: 'query', required: true, schema: { type: 'string', enum: ['S256'] }, example: 'S256' },
  { name: 'mode', in: 'query', required: false, schema: { type: 'string', enum: ['test', 'live'], default: 'test' }, description: 'The mode of the grant and its tokens' },
  { name: 'store_id', in: 'query', required: false, schema: { type: 'string' }, description: 'The store to connect; left out, the consent page lets the user choose among the stores they may connect apps to', example: '3f8e2a4c-5b6d-4e7f-8a9b-0c1d2e3f4a5b' },
];

/** The OAuth security schemes and schemas; the flow's URLs are absolute on `baseUrl`. */
export const oauthComponents = (baseUrl: string) => ({
  securitySchemes: {
    oauth2: {
      type: 'oauth2',
      description: 'OAuth 2.0 authorization code flow with PKCE (S256) for partner apps; the access tokens (svc_oat_…) are sent as bearer tokens to /api/public/v1. Enabled with OAUTH_ENABLED.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${baseUrl}${OAUTH_BASE_PATH}/authorize`,
          tokenUrl: `${baseUrl}${OAUTH_BASE_PATH}/token`,
          refreshUrl: `${baseUrl}${OAUTH_BASE_PATH}/token`,
          scopes: SCOPE_DESCRIPTIONS,
        },
      },
    },
    dashboardSession: {
      type: 'apiKey',
      in: 'cookie',
      name: 'svc_session',
      description: "The dashboard's session cookie, set when a browser signs in to /dashboard. A form posted with it carries the session's CSRF token as csrf_token.",
    },
    oauthClient: { type: 'http', scheme: 'basic', description: 'OAuth client authentication (client_secret_basic): client_id and client_secret, form-encoded then Base64. client_secret_post (both in the form) works too.' },
  },
  schemas: {
    OAuthServerMetadata: {
      type: 'object',
      description: 'RFC 8414 authorization server metadata',
      required: Object.keys(authorizationServerMetadata('https://catalog.example.com')),
      additionalProperties: false,
      properties: {
        issuer: { type: 'string', format: 'uri', description: 'PUBLIC_BASE_URL (in development without it, the address the service listens on); every authorization response carries it as iss' },
        authorization_endpoint: { type: 'string', format: 'uri' },
        token_endpoint: { type: 'string', format: 'uri' },
        revocation_endpoint: { type: 'string', format: 'uri' },
        scopes_supported: { type: 'array', items: { type: 'string' } },
        response_types_supported: { type: 'array', items: { type: 'string', enum: ['code'] } },
        response_modes_supported: { type: 'array', items: { type: 'string', enum: ['query'] } },
        grant_types_supported: { type: 'array', items: { type: 'string', enum: ['authorization_code', 'refresh_token'] } },
        token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string', enum: ['client_secret_basic', 'client_secret_post'] } },
        revocation_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string', enum: ['client_secret_basic', 'client_secret_post'] } },
        code_challenge_methods_supported: { type: 'array', items: { type: 'string', enum: ['S256'] } },
        authorization_response_iss_parameter_supported: { type: 'boolean' },
        service_documentation: { type: 'string', format: 'uri' },
      },
    },
    OAuthError: {
      type: 'object',
      required: ['error'],
      description: 'RFC 6749 5.2 error object',
      properties: {
        error: { type: 'string', enum: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'] },
        error_description: { type: 'string' },
      },
    },
    OAuthTokens: {
      type: 'object',
      required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
      properties: {
        access_token: { type: 'string', description: 'Send as Authorization: Bearer to /api/public/v1' },
        token_type: { type: 'string', enum: ['Bearer'] },
        expires_in: { type: 'integer', description: 'Seconds until the access token expires' },
        refresh_token: { type: 'string', description: 'Single use: each refresh answers a new one (rotation)' },
        scope: { type: 'string', description: 'The granted scopes, space-separated' },
      },
    },
  },
});

const tokens = {
  access_token: 'svc_oat_4Jc1ZkR8wq2Xy7PbN0sTgV3mHd6LfA9eQ5uWiO1rKz2B',
  token_type: 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
  refresh_token: 'svc_ort_8Hn3VbQ1xR6tY2mK9pL0sW5cZ7gD4fJ1aE3uI6oP8qT',
  scope: 'products:read products:write',
};

export function oauthPaths(): Record<string, Record<string, Json>> {
  return {
    [OAUTH_METADATA_PATH]: {
      get: {
        operationId: 'oauthAuthorizationServerMetadata',
        summary: 'The authorization server’s metadata (RFC 8414): issuer, endpoints, supported scopes and methods',
        description:
          'What an OAuth client library discovers from the issuer. The issuer is PUBLIC_BASE_URL (in development without it, the address the service listens on), whatever host name a request used; when PUBLIC_BASE_URL has a path, the metadata is at this path followed by it. Any origin may read it; cacheable for an hour.',
        tags: [TAG],
        security: [],
        responses: {
          '200': {
            description: 'The metadata',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthServerMetadata' }, example: authorizationServerMetadata('https://catalog.example.com') } },
          },
          ...notEnabled,
        },
      },
    },
    [`${OAUTH_BASE_PATH}/authorize`]: {
      get: {
        operationId: 'oauthAuthorize',
        summary: 'Authorization request: the consent page (OAuth 2.0 authorization code flow with PKCE)',
        description:
          'Where a partner app sends the store user’s browser. For a user signed in to the dashboard (in a browser, its session cookie; another client, a bearer dashboard token) a valid request answers the consent page, which names the app, the store, the mode and what each scope allows. A browser that is not signed in is sent to the dashboard’s sign-in page and back here (302); another client gets 401. A request the app got wrong after its client and redirect URI are known is sent back to the redirect URI with `error`, `error_description`, `state` and `iss` (RFC 6749 4.1.2.1, RFC 9207); one with an unknown client or redirect URI is answered here, never redirected.',
        tags: [TAG],
        security: [{ dashboardSession: [] }, { dashboardToken: [] }],
        parameters: authorizationParams,
        responses: {
          '200': { description: 'The consent page', content: { 'text/html': { schema: { type: 'string' }, example: '<!doctype html>…<h1>Partner app wants to access your store</h1>…' } } },
          '302': {
            description: 'Back to the app with an error (invalid_request, invalid_scope, unsupported_response_type, access_denied…); or, for a browser not signed in, to /dashboard/sign-in?return_to=…',
            headers: {
              Location: {
                schema: { type: 'string', format: 'uri-reference' },
                example: 'https://partner.example.com/oauth/callback?error=invalid_scope&error_description=This+app+may+not+ask+for%3A+products%3Awrite&state=af0ifjsldkj&iss=https%3A%2F%2Fcatalog.example.com',
              },
            },
          },
          '400': pageOrProblem('An unknown client_id or redirect_uri, which cannot be redirected to (invalid_parameter)'),
          '401': pageOrProblem('No or invalid dashboard token (unauthenticated, invalid_token)'),
          '403': pageOrProblem('The app is suspended (app_suspended)'),
          '422': pageOrProblem('A parameter is not valid text, e.g. holds a NUL character (validation_failed; errors[].field names it)'),
          ...notEnabledPage,
        },
      },
    },
    [`${OAUTH_BASE_PATH}/authorize/consent`]: {
      post: {
        operationId: 'oauthConsent',
        summary: 'The user’s decision on the consent page',
        description:
          'The consent page’s form: the authorization request’s parameters unchanged, the chosen `store_id`, `decision` (`approve` or `deny`) and, when the browser is signed in by the dashboard’s session cookie, the session’s `csrf_token` (the page carries it; a cross-site post cannot know it, and the cookie is SameSite=Lax). Another client authenticates with the bearer dashboard token instead. Answers 303 to the redirect URI with `code`, `state` and `iss`, or with `error=access_denied`, `error_description`, `state` and `iss` on a deny; the code is valid for 60 seconds, once.',
        tags: [TAG],
        security: [{ dashboardSession: [] }, { dashboardToken: [] }],
        requestBody: form(
          {
            type: 'object',
            required: ['response_type', 'client_id', 'redirect_uri', 'scope', 'code_challenge', 'code_challenge_method', 'store_id', 'decision'],
            properties: {
              ...Object.fromEntries(authorizationParams.map((p) => [p.name, p.schema])),
              decision: { type: 'string', enum: ['approve', 'deny'] },
              csrf_token: { type: 'string', description: 'With the session cookie: the session’s CSRF token, as the consent page carries it' },
            },
          },
          {
            response_type: 'code',
            client_id: 'svc_oci_3kTMd9QxLw',
            redirect_uri: 'https://partner.example.com/oauth/callback',
            scope: 'products:read products:write',
            state: 'af0ifjsldkj',
            code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
            code_challenge_method: 'S256',
            mode: 'test',
            store_id: '3f8e2a4c-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
            decision: 'approve',
          },
        ),
        responses: {
          '303': {
            description: 'Back to the app with the authorization code, or on a deny with error=access_denied, error_description, state and iss',
            headers: { Location: { schema: { type: 'string', format: 'uri' }, example: 'https://partner.example.com/oauth/callback?code=svc_oac_Qm7xR2vT8nK4pL9s&state=af0ifjsldkj&iss=https%3A%2F%2Fcatalog.example.com' } },
          },
          '400': pageOrProblem('The form is not valid (invalid_parameter)'),
          '401': pageOrProblem('No or invalid dashboard token or session (unauthenticated, invalid_token)'),
          '403': pageOrProblem('With the session cookie, a csrf_token that is not the session’s (csrf_token_invalid); or the app is suspended (app_suspended)'),
          '413': formTooLarge,
          '415': pageOrProblem('The body is not application/x-www-form-urlencoded (unsupported_media_type)'),
          '422': pageOrProblem('A field is not valid (validation_failed; errors[].field names it)'),
          ...notEnabledPage,
        },
      },
    },
    [`${OAUTH_BASE_PATH}/token`]: {
      post: {
        operationId: 'oauthToken',
        summary: 'Exchange an authorization code, or a refresh token, for tokens',
        description:
          'RFC 6749 4.1.3 and 6. `grant_type=authorization_code` with the `code`, the same `redirect_uri` and the PKCE `code_verifier`; or `grant_type=refresh_token` with the `refresh_token`, which is rotated: the answer holds a new one and the old one stops working (reusing it revokes the grant). The client authenticates with HTTP Basic (client_secret_basic) or `client_id` and `client_secret` in the form. Answers are never cached.',
        tags: [TAG],
        security: clientAuth,
        requestBody: form(
          {
            type: 'object',
            required: ['grant_type'],
            properties: {
              grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
              code: { type: 'string', description: 'authorization_code: the code from the redirect' },
              redirect_uri: { type: 'string', format: 'uri', description: 'authorization_code: the redirect_uri of the authorization request' },
              code_verifier: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$', description: 'authorization_code: the PKCE verifier' },
              refresh_token: { type: 'string', description: 'refresh_token: the latest refresh token' },
              client_id: { type: 'string', description: 'client_secret_post only' },
              client_secret: { type: 'string', description: 'client_secret_post only' },
            },
          },
          { grant_type: 'authorization_code', code: 'svc_oac_Qm7xR2vT8nK4pL9s', redirect_uri: 'https://partner.example.com/oauth/callback', code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' },
        ),
        responses: {
          '200': { description: 'Tokens', content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthTokens' }, example: tokens } } },
          '400': oauthError('The request or the grant is not valid', {
            invalid_grant: ['invalid_grant', 'The authorization code has expired'],
            invalid_request: ['invalid_request', 'grant_type is required'],
            unsupported_grant_type: ['unsupported_grant_type', 'grant_type must be authorization_code or refresh_token'],
            unauthorized_client: ['unauthorized_client', 'This OAuth app is suspended'],
          }),
          '401': oauthError('Client authentication failed (with WWW-Authenticate: Basic)', { invalid_client: ['invalid_client', 'Client authentication failed'] }),
          '413': oauthError('The form is over 64 KiB, refused before it is read', { invalid_request: ['invalid_request', 'Form bodies are limited to 65536 bytes'] }),
          ...notEnabled,
        },
      },
    },
    [`${OAUTH_BASE_PATH}/revoke`]: {
      post: {
        operationId: 'oauthRevoke',
        summary: 'Revoke an access or refresh token (RFC 7009)',
        description:
          'Revokes an access token, or a refresh token together with its whole grant (every token of it stops working). An unknown or already revoked token answers 200 as well (RFC 7009 2.2). The client authenticates as at the token endpoint; `token_type_hint` only orders the search.',
        tags: [TAG],
        security: clientAuth,
        requestBody: form(
          {
            type: 'object',
            required: ['token'],
            properties: { token: { type: 'string' }, token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] }, client_id: { type: 'string' }, client_secret: { type: 'string' } },
          },
          { token: tokens.refresh_token, token_type_hint: 'refresh_token' },
        ),
        responses: {
          '200': { description: 'Revoked (or already unknown); empty body' },
          '400': oauthError('The request is not valid', { invalid_request: ['invalid_request', 'token is required'] }),
          '401': oauthError('Client authentication failed (with WWW-Authenticate: Basic)', { invalid_client: ['invalid_client', 'Client authentication failed'] }),
          '413': oauthError('The form is over 64 KiB, refused before it is read', { invalid_request: ['invalid_request', 'Form bodies are limited to 65536 bytes'] }),
          ...notEnabled,
        },
      },
    },
  };
}
