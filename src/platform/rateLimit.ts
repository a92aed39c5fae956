/** Token-bucket rate limiting, in memory or shared through Redis, and its response headers. */

import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { cacheBound, registerCache } from './caches';
import { openSharedRedis } from './redis';

/** A token bucket: `burst` requests at once, refilled at `perSecond`. */
export interface RateLimitPolicy {
  name: string;
  perSecond: number;
  burst: number;
}

interface RateLimitDecision {
  allowed: boolean;
  /** Tokens left after this request (fractional). */
  tokens: number;
}

interface RateLimiter {
  consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/**
 * One process's buckets; `now` is injectable so tests can move time instead of sleeping. Past the
 * `rate_limit_buckets` bound the least recently used goes (its key starts again with a full bucket).
 */
export function memoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number; fullAt: number }>();
  registerCache('rate_limit_buckets', () => buckets.size);
  return {
    async consume(key, policy) {
      const t = now();
      const b = buckets.get(key) ?? { tokens: policy.burst, at: t };
      buckets.delete(key); // set again below, last: the map's order is the order of use
      const max = cacheBound('rate_limit_buckets');
      if (buckets.size >= max) {
        // Buckets that have refilled completely carry no information; then the least recently used.
        for (const [k, old] of buckets) if (old.fullAt <= t) buckets.delete(k);
        if (buckets.size >= max) buckets.delete(buckets.keys().next().value!);
      }
      let tokens = Math.min(policy.burst, b.tokens + (Math.max(0, t - b.at) * policy.perSecond) / 1000);
      const allowed = tokens >= 1;
      if (allowed) tokens -= 1;
      buckets.set(key, { tokens, at: t, fullAt: t + ((policy.burst - tokens) / policy.perSecond) * 1000 });
      return { allowed, tokens };
    },
    async close() {},
  };
}

/**
 * The same bucket in Redis, updated by one Lua script so concurrent requests
 * on several instances cannot both take the last token. Time comes from the
 * Redis server, so instance clocks need not agree.
 */
const TOKEN_BUCKET_LUA = `
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return { allowed, tostring(tokens) }
`;

type BucketRedis = Redis & { tokenBucket(key: string, burst: number, rate: number): Promise<[number, string]> };

/**
 * Shared buckets in Redis. When Redis cannot answer (or its circuit is open,
 * see src/platform/redis.ts), requests are limited by a per-instance bucket instead,
 * rather than failing, waiting or going unlimited.
 */
export function redisRateLimiter(url: string, prefix: string, log: Logger, now: () => number = Date.now): RateLimiter {
  const shared = openSharedRedis<BucketRedis>(url, { purpose: 'rate limiting', log, commands: { tokenBucket: { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA } } });
  const fallback = memoryRateLimiter(now);
  return {
    consume: (key, policy) =>
      shared.run(
        async (redis) => {
          const [allowed, tokens] = await redis.tokenBucket(prefix + key, policy.burst, policy.perSecond);
          return { allowed: allowed === 1, tokens: Number(tokens) };
        },
        () => fallback.consume(key, policy),
      ),
    close: () => shared.close(),
  };
}

/** RateLimit-Policy / RateLimit fields (draft-ietf-httpapi-ratelimit-headers) and Retry-After for a decision. */
export function rateLimitHeaders(policy: RateLimitPolicy, d: RateLimitDecision): Record<string, string> {
  const window = Math.max(1, Math.ceil(policy.burst / policy.perSecond));
  const untilFull = Math.ceil((policy.burst - d.tokens) / policy.perSecond);
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${policy.name}";q=${policy.burst};w=${window}`,
    RateLimit: `"${policy.name}";r=${Math.floor(d.tokens)};t=${Math.max(0, untilFull)}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(Math.max(1, Math.ceil((1 - d.tokens) / policy.perSecond)));
  return headers;
}
