/**
 * Authentication of every HTTP entry point, in one place: dashboard tokens for the dashboard (GraphQL, merchant
 * REST, the OAuth consent screen); API keys and OAuth access tokens for the public API. The OAuth token and
 * revoke endpoints authenticate their clients themselves (OAuth service); the CLI's principal is the operator.
 */

import type { IncomingHttpHeaders } from 'node:http';
import type { RequestContext } from '../../platform/context';
import { isMode, type Mode, MODES } from '../../kernel/access';
import { ANONYMOUS, type AnonymousPrincipal, type PublicCredential, type UserPrincipal } from '../../kernel/principal';
import { AppError } from '../../platform/errors';
import { authenticateOAuthAccessToken, OAUTH_ACCESS_TOKEN_PREFIX } from './oauthTokens';
import { authenticateApiKey, looksLikeApiKey } from './apiKeys';
import { invalidAuthorizationHeader, invalidToken, missingCredential, type Realm } from './challenges';
import { authenticateDashboardToken, DASHBOARD_TOKEN_PREFIX } from './dashboardTokens';
import { CSRF_HEADER, csrfTokenFor, sessionCookieToken } from './sessionCookie';
import { safeEqual } from './secrets';

/** The token of `Authorization: Bearer <token>`; null without the header. Any other scheme: 401 with an invalid_request challenge. */
function bearerToken(headers: IncomingHttpHeaders, realm: Realm): string | null {
  const auth = headers.authorization?.trim();
  if (!auth) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  if (m) return m[1];
  throw realm === 'dashboard'
    ? invalidAuthorizationHeader(realm, 'Authorization must be "Bearer <token>"', 'invalid_token')
    : invalidAuthorizationHeader(realm, 'Authorization must be "Bearer <API key or OAuth access token>"', 'invalid_api_key');
}

/** The dashboard user of a request; anonymous without a token (operations that need one refuse later, with 401). */
export async function authenticateDashboard(ctx: RequestContext, headers: IncomingHttpHeaders): Promise<UserPrincipal | AnonymousPrincipal> {
  const token = bearerToken(headers, 'dashboard');
  if (!token) return ANONYMOUS;
  if (!token.startsWith(DASHBOARD_TOKEN_PREFIX)) throw invalidToken('dashboard', 'The bearer token is not a dashboard token');
  return authenticateDashboardToken(ctx, token);
}

/**
 * The dashboard user of a /graphql request, which may also come signed in by
 * the session cookie (src/access/auth/sessionCookie.ts). A bearer header wins: the
 * cookie is then not read. A cookie whose token no longer works (revoked,
 * expired) makes the request anonymous and is reported as `staleCookie`, so
 * the response can clear it.
 */
export async function authenticateDashboardOrSession(
  ctx: RequestContext,
  headers: IncomingHttpHeaders,
): Promise<{ principal: UserPrincipal | AnonymousPrincipal; session?: { tokenId: string; csrfToken: string; sentCsrfToken: string | null }; staleCookie?: true }> {
  const cookieToken = headers.authorization ? null : sessionCookieToken(headers);
  if (!cookieToken) return { principal: await authenticateDashboard(ctx, headers) };
  let principal: UserPrincipal;
  try {
    principal = await authenticateDashboardToken(ctx, cookieToken);
  } catch (err) {
    if (err instanceof AppError) return { principal: ANONYMOUS, staleCookie: true };
    throw err;
  }
  const sent = headers[CSRF_HEADER];
  return { principal, session: { tokenId: principal.tokenId, csrfToken: csrfTokenFor(cookieToken), sentCsrfToken: typeof sent === 'string' ? sent : null } };
}

/**
 * The dashboard user of a merchant REST request: a bearer token, or the session cookie together with the
 * session's X-CSRF-Token header. A browser sends the cookie with any request, a link or a form of another site's
 * page included, but only the dashboard's own script can add that header (the page of another site can neither
 * read nor compute it, and a custom header makes the browser ask CORS first, which the service never allows with
 * credentials). Without the header, or with another session's, the cookie is not read: the request is anonymous.
 */
export async function authenticateDashboardOrCsrfSession(ctx: RequestContext, headers: IncomingHttpHeaders): Promise<UserPrincipal | AnonymousPrincipal> {
  const cookieToken = headers.authorization ? null : sessionCookieToken(headers);
  const sent = headers[CSRF_HEADER];
  if (!cookieToken || typeof sent !== 'string' || !safeEqual(sent, csrfTokenFor(cookieToken))) return authenticateDashboard(ctx, headers);
  try {
    return await authenticateDashboardToken(ctx, cookieToken);
  } catch (err) {
    if (err instanceof AppError) return ANONYMOUS;
    throw err;
  }
}

/**
 * The credential of a public API request, from `Authorization: Bearer` or
 * `X-API-Key`; null when neither is sent. Both sent and different: 400.
 */
export function publicCredentialToken(headers: IncomingHttpHeaders): string | null {
  const bearer = bearerToken(headers, 'public-api');
  const raw = headers['x-api-key'];
  const apiKey = (Array.isArray(raw) ? raw.join(',') : raw)?.trim() || null;
  if (bearer && apiKey && bearer !== apiKey) {
    throw new AppError('conflicting_credentials', 'Authorization and X-API-Key carry different credentials; send one of them');
  }
  return bearer ?? apiKey;
}

/**
 * The mode a request asks for, from `X-Service-Mode` and/or `?mode=`; null when
 * neither is sent. Values are exactly `test` or `live`; two different values: 400.
 */
export function requestedMode(headers: IncomingHttpHeaders, query: URLSearchParams): Mode | null {
  const header = headers['x-service-mode'];
  const values: [string, string][] = [
    ...(header === undefined ? [] : [['X-Service-Mode header', Array.isArray(header) ? header.join(',') : header] as [string, string]]),
    ...query.getAll('mode').map((v) => ['mode query parameter', v] as [string, string]),
  ];
  for (const [source, value] of values) {
    if (!isMode(value)) {
      throw new AppError('invalid_mode', `The ${source} must be "test" or "live", not "${value.slice(0, 20)}"`, { details: { allowed_modes: [...MODES] } });
    }
  }
  const distinct = new Set(values.map(([, v]) => v));
  if (distinct.size > 1) throw new AppError('conflicting_mode', 'The request names both test and live mode; send one mode');
  return (values[0]?.[1] as Mode | undefined) ?? null;
}

/** Resolves a public credential by its prefix: an API key or an OAuth access token. */
export async function authenticatePublicCredential(ctx: RequestContext, token: string | null): Promise<PublicCredential> {
  if (!token) throw missingCredential('public-api', 'Send an API key or OAuth access token as "Authorization: Bearer <key>" or "X-API-Key: <key>"');
  if (token.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) {
    // The spec marks OAuth "not yet active": with it switched off, no token of it is honoured, even one issued earlier.
    if (!ctx.config.oauthEnabled) throw invalidToken('public-api', 'OAuth access tokens are not accepted: OAuth is not enabled on this service');
    return authenticateOAuthAccessToken(ctx, token);
  }
  if (looksLikeApiKey(token)) return authenticateApiKey(ctx, token);
  throw invalidToken('public-api', 'This is not an API key (svc_test_.../svc_live_...) or an OAuth access token (svc_oat_...)', 'invalid_api_key');
}

/** A credential serves only its own mode, whatever its type. */
export function assertModeMatches(credential: PublicCredential, mode: Mode): void {
  if (credential.mode === mode) return;
  throw new AppError('mode_mismatch', `This request asks for ${mode} mode but the credential is a ${credential.mode}-mode credential`, {
    details: { request_mode: mode, credential_mode: credential.mode },
  });
}
