/** The WWW-Authenticate challenges and 401/403 errors of every credential check. */

import { AppError, type ErrorCode } from '../../platform/errors';

/**
 * Every WWW-Authenticate challenge the service sends, rendered here (RFC 6750
 * 3). Two bearer realms: the dashboard (dashboard tokens: GraphQL, merchant
 * REST, the OAuth consent screen) and the public API (API keys and OAuth access
 * tokens); and Basic for OAuth clients at the token and revoke endpoints.
 */
export type Realm = 'dashboard' | 'public-api';
type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

function bearerChallenge(realm: Realm, error?: BearerError, description?: string, scope?: string): string {
  const parts = [`realm="${realm}"`];
  if (error) parts.push(`error="${error}"`);
  // RFC 6750 limits error_description to printable ASCII without quotes or backslashes.
  if (description) parts.push(`error_description="${description.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '')}"`);
  if (scope) parts.push(`scope="${scope}"`);
  return `Bearer ${parts.join(', ')}`;
}

/** The OAuth token and revoke endpoints' challenge for a client that failed to authenticate (RFC 6749 5.2). */
export const CLIENT_CHALLENGE = 'Basic realm="oauth"';

/** 401 without a credential: the challenge names no error (RFC 6750 3.1). */
export const missingCredential = (realm: Realm, message: string) =>
  new AppError('unauthenticated', message, { headers: { 'WWW-Authenticate': bearerChallenge(realm) } });

/** 401 for a credential that is malformed, unknown, expired or revoked. */
export const invalidToken = (realm: Realm, message: string, code: ErrorCode = 'invalid_token') =>
  new AppError(code, message, { headers: { 'WWW-Authenticate': bearerChallenge(realm, 'invalid_token', message) } });

/** An Authorization header that is not "Bearer <token>". */
export const invalidAuthorizationHeader = (realm: Realm, message: string, code: ErrorCode) =>
  new AppError(code, message, { headers: { 'WWW-Authenticate': bearerChallenge(realm, 'invalid_request', 'Authorization must use the Bearer scheme') } });

/** 403 for a public credential without any of the scopes an operation needs. */
export const insufficientScope = (scopes: string[], message: string) =>
  new AppError('insufficient_scope', message, {
    details: { required_scope: scopes[0], required_scopes: scopes },
    headers: { 'WWW-Authenticate': bearerChallenge('public-api', 'insufficient_scope', undefined, scopes.join(' ')) },
  });
