/** The OAuth service's token endpoint side: exchanging codes and refresh tokens, revoking tokens and grants. */

import { hasValidChecksum, newCredential, safeEqual, sha256Base64Url, sha256Hex } from '../auth/secrets';
import type { RequestContext } from '../../platform/context';
import type { Actor } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import { emit, transaction } from '../../platform/outbox/outbox';
import { notFound } from '../../platform/errors';
import { oauthGrantView } from './views';

import { OAUTH_ACCESS_TOKEN_PREFIX, OAUTH_CODE_PREFIX, OAUTH_REFRESH_TOKEN_PREFIX } from '../auth/oauthTokens';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type';

/** An error of the OAuth protocol itself (RFC 6749 4.1.2.1, 5.2), answered as {error, error_description} rather than a problem. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthError';
  }

  get status(): number {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}

/** One value of a parameter; RFC 6749 3.1 forbids sending one twice. Empty counts as absent. */
export function one(params: URLSearchParams, name: string, fail: (message: string) => never): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) fail(`${name} must not be sent more than once`);
  return values[0] || undefined;
}

export const addSeconds = (d: Date, s: number) => new Date(d.getTime() + s * 1000);

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

// Compared against when the client_id is unknown, so a miss costs the same as a wrong secret.
const NO_SECRET_HASH = sha256Hex('no such client');

/** Confidential clients only: every app has a secret, sent by client_secret_basic or client_secret_post. */
async function authenticateClient(ctx: RequestContext, client: ClientCredentials | null, opts: { allowSuspended?: boolean } = {}) {
  if (!client) throw new OAuthError('invalid_client', 'Client authentication is required (client_secret_basic or client_secret_post)');
  const app = await ctx.db.oAuthApp.findUnique({ where: { clientId: client.clientId }, select: { id: true, name: true, status: true, clientSecretHash: true } });
  const secretMatches = safeEqual(app?.clientSecretHash ?? NO_SECRET_HASH, sha256Hex(client.clientSecret));
  if (!app || !secretMatches) throw new OAuthError('invalid_client', 'Client authentication failed');
  if (app.status !== 'active' && !opts.allowSuspended) throw new OAuthError('unauthorized_client', 'This OAuth app is suspended');
  return app;
}

const tokenFail = (error: OAuthErrorCode) => (message: string): never => {
  throw new OAuthError(error, message);
};

/** The token endpoint (RFC 6749 4.1.3 and 6): authorization_code with PKCE, and refresh_token with rotation. */
type ClientApp = { id: string; name: string };
const appActor = (app: ClientApp): Actor => ({ kind: 'oauth_app', id: app.id, name: app.name });

export async function exchangeToken(ctx: RequestContext, client: ClientCredentials | null, params: URLSearchParams): Promise<TokenResponse> {
  const app = await authenticateClient(ctx, client);
  const grantType = one(params, 'grant_type', tokenFail('invalid_request'));
  if (grantType === 'authorization_code') return redeemCode(ctx, app, params);
  if (grantType === 'refresh_token') return refresh(ctx, app, params);
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
  throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

const tokenSelect = {
  id: true,
  kind: true,
  expiresAt: true,
  usedAt: true,
  revokedAt: true,
  grant: { select: { id: true, appId: true, scopes: true, redirectUri: true, codeChallenge: true, revokedAt: true } },
} as const;

async function findToken(ctx: RequestContext, token: string, prefix: string, kind: 'authorization_code' | 'refresh' | 'access', appId: string) {
  if (!hasValidChecksum(token, prefix)) return null;
  const row = await ctx.db.oAuthToken.findUnique({ where: { tokenHash: sha256Hex(token) }, select: tokenSelect });
  // A token of another client is treated as unknown: clients cannot probe each other's tokens.
  return row && row.kind === kind && row.grant.appId === appId ? row : null;
}

async function redeemCode(ctx: RequestContext, app: ClientApp, params: URLSearchParams): Promise<TokenResponse> {
  const now = ctx.now();
  const get = (name: string) => one(params, name, tokenFail('invalid_request')) ?? tokenFail('invalid_request')(`${name} is required`);
  const code = get('code');
  const redirectUri = get('redirect_uri');
  const verifier = get('code_verifier');
  const row = await findToken(ctx, code, OAUTH_CODE_PREFIX, 'authorization_code', app.id);
  if (!row) throw new OAuthError('invalid_grant', 'The authorization code is not valid');
  // RFC 6749 4.1.2: a code presented twice may have been stolen; revoke what it produced.
  if (row.usedAt) return reused(ctx, app, row.grant.id, 'The authorization code has already been used; the tokens issued for it are revoked');
  if (row.revokedAt || row.grant.revokedAt) throw new OAuthError('invalid_grant', 'The authorization code has been revoked');
  if (row.expiresAt <= now) throw new OAuthError('invalid_grant', 'The authorization code has expired');
  if (redirectUri !== row.grant.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (!CODE_VERIFIER.test(verifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43-128 characters of [A-Za-z0-9._~-]');
  if (!safeEqual(sha256Base64Url(verifier), row.grant.codeChallenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  return rotate(ctx, app, row, 'The authorization code has already been used; the tokens issued for it are revoked');
}

async function refresh(ctx: RequestContext, app: ClientApp, params: URLSearchParams): Promise<TokenResponse> {
  const now = ctx.now();
  const get = (name: string) => one(params, name, tokenFail('invalid_request'));
  const token = get('refresh_token') ?? tokenFail('invalid_request')('refresh_token is required');
  const row = await findToken(ctx, token, OAUTH_REFRESH_TOKEN_PREFIX, 'refresh', app.id);
  if (!row) throw new OAuthError('invalid_grant', 'The refresh token is not valid');
  if (row.revokedAt || row.grant.revokedAt) throw new OAuthError('invalid_grant', 'The refresh token has been revoked');
  // Rotation makes every refresh token single-use; a second use means two parties hold it (RFC 9700 4.14.2).
  if (row.usedAt) return reused(ctx, app, row.grant.id, 'The refresh token has already been used; the whole grant is revoked');
  if (row.expiresAt <= now) throw new OAuthError('invalid_grant', 'The refresh token has expired');
  const scope = get('scope');
  if (scope !== undefined) {
    const asked = new Set(scope.split(' ').filter(Boolean));
    if (asked.size !== row.grant.scopes.length || row.grant.scopes.some((s) => !asked.has(s))) {
      throw new OAuthError('invalid_scope', `Tokens of this grant carry exactly the granted scopes (${row.grant.scopes.join(' ')}); omit scope`);
    }
  }
  return rotate(ctx, app, row, 'The refresh token has already been used; the whole grant is revoked');
}

async function reused(ctx: RequestContext, app: ClientApp, grantId: string, message: string): Promise<never> {
  await revokeGrant(ctx, grantId, appActor(app));
  throw new OAuthError('invalid_grant', message);
}

/** Spends a code or refresh token and issues a new access + refresh pair, atomically: of two concurrent uses only one wins. */
async function rotate(ctx: RequestContext, app: ClientApp, row: { id: string; grant: { id: string; scopes: string[] } }, reuseMessage: string): Promise<TokenResponse> {
  const now = ctx.now();
  const accessToken = newCredential(OAUTH_ACCESS_TOKEN_PREFIX, 32);
  const refreshToken = newCredential(OAUTH_REFRESH_TOKEN_PREFIX, 32);
  // Issuing tokens is the use of a grant, not a change to it: no event.
  const issued = await ctx.db.$transaction(async (tx) => {
    const spent = await tx.oAuthToken.updateMany({ where: { id: row.id, usedAt: null, revokedAt: null }, data: { usedAt: now } });
    if (spent.count !== 1) return false;
    await tx.oAuthToken.createMany({
      data: [
        { grantId: row.grant.id, kind: 'access', tokenHash: sha256Hex(accessToken), expiresAt: addSeconds(now, ACCESS_TOKEN_TTL_SECONDS) },
        { grantId: row.grant.id, kind: 'refresh', tokenHash: sha256Hex(refreshToken), expiresAt: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS) },
      ],
    });
    return true;
  });
  if (!issued) return reused(ctx, app, row.grant.id, reuseMessage);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refreshToken, scope: row.grant.scopes.join(' ') };
}

/**
 * Ends a grant: the grant and every code, access and refresh token of it. The
 * grant's event names `actor` when given (the client app that asked), else the
 * request's principal. Ending an ended grant changes nothing.
 */
async function revokeGrant(ctx: RequestContext, grantId: string, actor?: Actor) {
  await transaction(ctx, async (t) => {
    const now = t.now();
    const { count } = await t.tx.oAuthGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: now } });
    await t.tx.oAuthToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) return;
    const grant = await t.tx.oAuthGrant.findUniqueOrThrow({ where: { id: grantId } });
    emit(t, {
      type: 'oauth_grant.revoked',
      storeId: grant.storeId,
      mode: grant.mode,
      resource: { type: 'oauth_grant', id: grant.id },
      data: oauthGrantView(grant),
      changes: [{ field: 'revoked_at', previous: null, next: now }],
      actor,
    });
  });
}

/**
 * Token revocation (RFC 7009). Unknown, foreign or already revoked tokens are
 * answered like successful revocations so the endpoint reveals nothing. Revoking a
 * refresh token ends its whole grant (RFC 7009 2.1). A suspended app may still
 * revoke its tokens. Revoking one access token leaves the grant as it is: no event.
 */
export async function revokeToken(ctx: RequestContext, client: ClientCredentials | null, params: URLSearchParams): Promise<void> {
  const app = await authenticateClient(ctx, client, { allowSuspended: true });
  const token = one(params, 'token', tokenFail('invalid_request')) ?? tokenFail('invalid_request')('token is required');
  // token_type_hint only orders the search (RFC 7009 2.1); both prefixes are checked anyway.
  const access = await findToken(ctx, token, OAUTH_ACCESS_TOKEN_PREFIX, 'access', app.id);
  if (access) {
    await ctx.db.oAuthToken.updateMany({ where: { id: access.id, revokedAt: null }, data: { revokedAt: ctx.now() } });
    return;
  }
  const refreshRow = await findToken(ctx, token, OAUTH_REFRESH_TOKEN_PREFIX, 'refresh', app.id);
  if (refreshRow) await revokeGrant(ctx, refreshRow.grant.id, appActor(app));
}

/** Disconnects an app from a store (the merchant's side of revocation): the grant and all its tokens end now. */
export async function revokeStoreGrant(ctx: RequestContext, storeId: string, grantId: string) {
  const grant = isUuid(grantId) ? await ctx.db.oAuthGrant.findFirst({ where: { id: grantId, storeId }, select: { id: true } }) : null;
  if (!grant) throw notFound('OAuth grant');
  await revokeGrant(ctx, grant.id);
  return grant;
}
