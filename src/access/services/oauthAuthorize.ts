/** The OAuth authorization request and the user's consent (the front half of the code flow). */

import { missingCredential } from '../auth/challenges';
import { newCredential, sha256Hex } from '../auth/secrets';
import type { RequestContext } from '../../platform/context';
import { type Mode, type Scope, SCOPES } from '../../kernel/access';
import { userOf } from '../../kernel/principal';
import { allows } from '../auth/authorization';
import { emit, transaction } from '../../platform/outbox/outbox';
import { AppError } from '../../platform/errors';
import { oauthGrantView } from './views';
import { addSeconds, AUTHORIZATION_CODE_TTL_SECONDS, type OAuthErrorCode, one } from './oauth';
import { OAUTH_CODE_PREFIX } from '../auth/oauthTokens';

/**
 * The front half of the authorization code flow: the authorization request and
 * the user's consent, which ends in a grant and a single-use code. The token
 * endpoint (back half) lives in ./oauth.
 */

export const SIGN_IN_FIRST = 'Sign in first: in a browser, to the dashboard; otherwise send Authorization: Bearer <dashboard token>';

function problem(message: string): never {
  throw new AppError('invalid_parameter', message);
}

/** Thrown inside checkAuthorizationRequest once the redirect URI is trusted; returned to the caller as a redirect. */
class AuthorizationRedirect {
  readonly kind = 'redirect';
  constructor(readonly location: string) {}
}

const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The parameters an authorization request carries; the consent form posts them back unchanged. */
export const AUTHORIZATION_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'mode',
  'store_id',
] as const;

export interface ConsentRequest {
  kind: 'consent';
  app: { id: string; name: string; clientId: string };
  user: { id: string; email: string };
  scopes: Scope[];
  mode: Mode;
  /** Stores the user may connect the app to (owner, or `manage_oauth_apps`). */
  stores: { id: string; name: string }[];
  /** The store named by store_id, if the request named one. */
  storeId?: string;
  /** The validated request, to post back with the decision. */
  params: Record<string, string>;
}

/** `sign_in`: the request is sound so far (client and redirect URI) but nobody is signed in to consent. */
type AuthorizationOutcome = ConsentRequest | { kind: 'redirect'; location: string } | { kind: 'sign_in' };

function redirectTo(redirectUri: string, values: Record<string, string | undefined>): AuthorizationRedirect {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(values)) if (v !== undefined) url.searchParams.set(k, v);
  return new AuthorizationRedirect(url.toString());
}

/**
 * Validates an authorization request (RFC 6749 4.1.1 with PKCE, RFC 7636).
 * Until client_id and redirect_uri are known good, errors are thrown as AppError
 * (shown to the user, never redirected: an unvalidated URI could be an attacker's);
 * afterwards they come back as a redirect carrying error and state (RFC 6749 4.1.2.1).
 */
export async function checkAuthorizationRequest(ctx: RequestContext, params: URLSearchParams, issuer: string): Promise<AuthorizationOutcome> {
  const viewer = userOf(ctx.principal);
  const clientId = one(params, 'client_id', problem) ?? problem('client_id is required');
  const app = await ctx.db.oAuthApp.findUnique({
    where: { clientId },
    select: { id: true, name: true, clientId: true, redirectUris: true, allowedScopes: true, status: true },
  });
  if (!app) problem('client_id does not name a registered OAuth app');
  const redirectUri = one(params, 'redirect_uri', problem) ?? problem('redirect_uri is required');
  if (!app.redirectUris.includes(redirectUri)) problem('redirect_uri is not registered for this app (exact match required)');
  if (app.status !== 'active') throw new AppError('app_suspended', 'This OAuth app is suspended');
  if (!viewer) return { kind: 'sign_in' };

  const states = params.getAll('state');
  const state = states.length === 1 ? states[0] : undefined;
  const fail = (error: OAuthErrorCode, description: string): never => {
    throw redirectTo(redirectUri, { error, error_description: description, state, iss: issuer });
  };
  try {
    if (states.length > 1) fail('invalid_request', 'state must not be sent more than once');
    const get = (name: (typeof AUTHORIZATION_PARAMS)[number]) => one(params, name, (m) => fail('invalid_request', m));
    const responseType = get('response_type');
    if (responseType !== 'code') fail(responseType ? 'unsupported_response_type' : 'invalid_request', 'response_type must be "code"');
    if (get('code_challenge_method') !== 'S256') fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
    const codeChallenge = get('code_challenge') ?? '';
    if (!CODE_CHALLENGE.test(codeChallenge)) fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)');
    const requested = (get('scope') ?? '').split(' ').filter(Boolean);
    if (!requested.length) fail('invalid_scope', `scope is required (space-separated; this app may ask for: ${app.allowedScopes.join(' ')})`);
    const notAllowed = requested.filter((s) => !app.allowedScopes.includes(s));
    if (notAllowed.length) fail('invalid_scope', `This app may not ask for: ${notAllowed.join(' ')}`);
    const mode = get('mode') ?? 'test';
    if (mode !== 'test' && mode !== 'live') fail('invalid_request', 'mode must be "test" or "live"');

    const eligible = viewer.memberships.filter((m) => allows(viewer, 'manageOAuthApps', m.storeId)).map((m) => m.storeId);
    const storeId = get('store_id');
    if (storeId && (!UUID.test(storeId) || !eligible.includes(storeId))) {
      fail('access_denied', 'You may not connect apps to this store (owner or manage_oauth_apps required)');
    }
    if (!eligible.length) fail('access_denied', 'You may not connect apps to any store (owner or manage_oauth_apps required)');
    const stores = await ctx.db.store.findMany({ where: { id: { in: eligible } }, select: { id: true, name: true }, orderBy: { name: 'asc' } });

    const scopes = SCOPES.filter((s) => requested.includes(s));
    const validated: Record<string, string> = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: scopes.join(' '),
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      mode,
      ...(state !== undefined ? { state } : {}),
      ...(storeId ? { store_id: storeId } : {}),
    };
    return { kind: 'consent', app: { id: app.id, name: app.name, clientId }, user: { id: viewer.userId, email: viewer.email }, scopes, mode: mode as Mode, stores, storeId, params: validated };
  } catch (e) {
    if (e instanceof AuthorizationRedirect) return e;
    throw e;
  }
}

/** The user's answer on the consent page: approval creates the grant and a single-use code. */
export async function decideConsent(ctx: RequestContext, params: URLSearchParams, issuer: string): Promise<{ location: string }> {
  const request = await checkAuthorizationRequest(ctx, params, issuer);
  if (request.kind === 'sign_in') throw missingCredential('dashboard', SIGN_IN_FIRST);
  if (request.kind === 'redirect') return request;
  const { redirect_uri: redirectUri, state } = request.params;
  const decision = params.getAll('decision');
  if (decision.length !== 1 || (decision[0] !== 'approve' && decision[0] !== 'deny')) {
    return redirectTo(redirectUri, { error: 'invalid_request', error_description: 'decision must be "approve" or "deny"', state, iss: issuer });
  }
  if (decision[0] === 'deny') return redirectTo(redirectUri, { error: 'access_denied', error_description: 'The user denied access', state, iss: issuer });
  if (!request.storeId) return redirectTo(redirectUri, { error: 'invalid_request', error_description: 'store_id is required', state, iss: issuer });

  const code = newCredential(OAUTH_CODE_PREFIX, 32);
  const storeId = request.storeId;
  await transaction(ctx, async (t) => {
    const grant = await t.tx.oAuthGrant.create({
      data: {
        appId: request.app.id,
        storeId,
        userId: request.user.id,
        mode: request.mode,
        scopes: request.scopes,
        redirectUri,
        codeChallenge: request.params.code_challenge,
        tokens: { create: { kind: 'authorization_code', tokenHash: sha256Hex(code), expiresAt: addSeconds(t.now(), AUTHORIZATION_CODE_TTL_SECONDS) } },
      },
    });
    emit(t, { type: 'oauth_grant.created', storeId, mode: grant.mode, resource: { type: 'oauth_grant', id: grant.id }, data: oauthGrantView(grant) });
  });
  return redirectTo(redirectUri, { code, state, iss: issuer });
}
