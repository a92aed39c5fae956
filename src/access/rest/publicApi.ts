/**
 * The public integration API under /api/public/v1: credential authentication, mode, rate limits and CORS
 * around the public routes.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { LastUsedRecorder } from '../auth/apiKeys';
import { assertModeMatches, authenticatePublicCredential, publicCredentialToken, requestedMode } from '../auth/authenticate';
import type { Config } from '../../platform/config';
import type { RequestContext } from '../../platform/context';
import { db } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import { AppError } from '../../platform/errors';
import { rateLimitRejections } from '../../platform/metrics';
import { memoryRateLimiter, type RateLimitPolicy, rateLimitHeaders, redisRateLimiter } from '../../platform/rateLimit';

const PREFIX = '/api/public/v1/';
const OAUTH = '/api/public/v1/oauth';

/** Paths served with public credentials (API keys, OAuth access tokens); the OAuth protocol endpoints authenticate themselves. */
export const isPublicApiPath = (path: string) => path.startsWith(PREFIX) && path !== OAUTH && !path.startsWith(OAUTH + '/');

// Credentials travel in headers, never cookies, so any origin may call (publishable keys are made for browsers).
const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-Service-Mode, RateLimit, RateLimit-Policy, Retry-After, WWW-Authenticate, X-Request-Id, Link',
};
const PREFLIGHT = {
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, X-API-Key, X-Service-Mode, Content-Type, X-Request-Id',
  'Access-Control-Max-Age': '600',
};

/**
 * Authentication, mode and rate limiting of the public API, in this order:
 * 400 (conflicting credentials, invalid or conflicting mode), 401 (missing or
 * bad credential), 403 app_suspended, 429 (the credential's bucket), 403
 * mode_mismatch. Every response says its mode (X-Service-Mode, `livemode`) once known.
 */
export function createPublicApi(config: Config, log: Logger, now: () => Date) {
  const clockMs = () => now().getTime();
  const limiter = config.redisUrl ? redisRateLimiter(config.redisUrl, config.rateLimit.redisPrefix, log, clockMs) : memoryRateLimiter(clockMs);
  const usage = new LastUsedRecorder(db, log);
  const policies: Record<Mode, RateLimitPolicy> = {
    live: { name: 'live', ...config.rateLimit.live },
    test: { name: 'test', ...config.rateLimit.test },
  };

  /** The request's context with the credential as its principal, confined to the credential's store and mode. */
  async function authenticate(base: RequestContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<RequestContext> {
    let mode: Mode | null = null;
    try {
      const token = publicCredentialToken(req.headers);
      mode = requestedMode(req.headers, url.searchParams);
      const credential = await authenticatePublicCredential(base, token);
      mode ??= credential.mode;
      if (credential.kind === 'api_key') usage.record(credential.id, now());
      const policy = policies[credential.mode];
      const decision = await limiter.consume(`${credential.bucket}:${credential.mode}`, policy);
      const { 'Retry-After': retryAfter, ...headers } = rateLimitHeaders(policy, decision);
      for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
      if (!decision.allowed) {
        rateLimitRejections.inc({ mode: credential.mode });
        throw new AppError('rate_limited', `Rate limit of ${policy.perSecond} requests per second (burst ${policy.burst}) exceeded; retry after ${retryAfter} s`, {
          headers: { 'Retry-After': retryAfter },
          details: { retry_after: Number(retryAfter) },
        });
      }
      assertModeMatches(credential, mode);
      res.setHeader('X-Service-Mode', mode);
      return { ...base, principal: credential, mode, storeId: credential.storeId };
    } catch (err) {
      if (!mode || !(err instanceof AppError)) throw err;
      res.setHeader('X-Service-Mode', mode);
      throw new AppError(err.code, err.message, { errors: err.errors, headers: err.headers, details: { ...err.details, livemode: mode === 'live' }, cause: err });
    }
  }

  return {
    /** Sets the CORS headers; answers a preflight request (returns true) without authentication. */
    cors(req: IncomingMessage, res: ServerResponse): boolean {
      for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
      if (req.method !== 'OPTIONS') return false;
      for (const [k, v] of Object.entries(PREFLIGHT)) res.setHeader(k, v);
      res.statusCode = 204;
      res.end();
      return true;
    },
    authenticate,
    /** Waits for background last_used_at writes. */
    settle: () => usage.settle(),
    close: async () => {
      await usage.settle();
      await limiter.close();
    },
  };
}
