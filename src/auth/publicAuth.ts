import type { IncomingHttpHeaders } from 'node:http';
import type { Mode } from '../context';
import { AppError } from '../errors';
import { authenticateOAuthAccessToken, OAUTH_ACCESS_TOKEN_PREFIX } from '../services/oauth';
import { authenticateApiKey, bearerChallenge, credentialError, looksLikeApiKey } from './apiKeys';
import type { PublicCredential } from './credentials';

const MODES: readonly string[] = ['test', 'live'];

/**
 * The credential of a public API request, from `Authorization: Bearer` or
 * `X-API-Key`; null when neither is sent. Both sent and different: 400.
 */
export function credentialFromHeaders(headers: IncomingHttpHeaders): string | null {
  let bearer: string | null = null;
  const auth = headers.authorization?.trim();
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth);
    if (!m) {
      throw new AppError('invalid_api_key', 'Authorization must be "Bearer <API key or OAuth access token>"', {
        headers: { 'WWW-Authenticate': bearerChallenge('invalid_request', 'Authorization must use the Bearer scheme') },
      });
    }
    bearer = m[1];
  }
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
    if (!MODES.includes(value)) {
      throw new AppError('invalid_mode', `The ${source} must be "test" or "live", not "${value.slice(0, 20)}"`, { details: { allowed_modes: MODES } });
    }
  }
  const distinct = new Set(values.map(([, v]) => v));
  if (distinct.size > 1) throw new AppError('conflicting_mode', 'The request names both test and live mode; send one mode');
  return (values[0]?.[1] as Mode | undefined) ?? null;
}

/** Resolves a credential by its prefix: API keys here, OAuth access tokens in the OAuth service. */
export async function authenticateCredential(token: string | null, now = new Date(), opts = { oauthEnabled: true }): Promise<PublicCredential> {
  if (!token) {
    throw new AppError('unauthenticated', 'Send an API key or OAuth access token as "Authorization: Bearer <key>" or "X-API-Key: <key>"', {
      headers: { 'WWW-Authenticate': bearerChallenge() },
    });
  }
  if (token.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) {
    // The spec marks OAuth "not yet active": with it switched off, no token of it is honoured, even one issued earlier.
    if (!opts.oauthEnabled) throw credentialError('invalid_token', 'OAuth access tokens are not accepted: OAuth is not enabled on this service');
    return authenticateOAuthAccessToken(token, now);
  }
  if (looksLikeApiKey(token)) return authenticateApiKey(token, now);
  throw credentialError('invalid_api_key', 'This is not an API key (svc_test_.../svc_live_...) or an OAuth access token (svc_oat_...)');
}

/** A credential serves only its own mode, whatever its type. */
export function assertModeMatches(credential: PublicCredential, mode: Mode): void {
  if (credential.mode === mode) return;
  throw new AppError('mode_mismatch', `This request asks for ${mode} mode but the credential is a ${credential.mode}-mode credential`, {
    details: { request_mode: mode, credential_mode: credential.mode },
  });
}
