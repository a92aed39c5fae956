/** Login throttling per account and per client address, in memory or in Redis. */

import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { cacheBound, registerCache } from '../../platform/caches';
import type { Config } from '../../platform/config';
import { AppError } from '../../platform/errors';
import { openSharedRedis } from '../../platform/redis';

/**
 * Login throttling: failed logins are counted per account (the email, hashed)
 * and per client address in a window that starts at the first failure. Once
 * either count reaches its limit, logins for that account or from that
 * address answer 429 too_many_login_attempts (with Retry-After) until the
 * window ends, without checking the password. A successful login clears the
 * account's count and gives back its slot in the address's count.
 *
 * An attempt takes its slot before the password is checked, so a burst of
 * concurrent guesses cannot all pass the check before the first one fails.
 */
export interface LoginThrottle {
  /** Takes a slot for this account and address, or throws 429. */
  begin(email: string, address: string): Promise<LoginAttempt>;
  close(): Promise<void>;
}

interface LoginAttempt {
  /** The password was right: the account starts afresh. */
  succeeded(): Promise<void>;
  /** Something other than the credentials failed (the database, say): the attempt does not count. */
  abandoned(): Promise<void>;
}

interface LoginThrottleLimits {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowMs: number;
}

type Outcome = 'succeeded' | 'abandoned';

/** Where the counts live: one process's memory, or Redis for every instance. */
interface FailureCounts {
  /** Counts an attempt on both keys; returns 0, or the milliseconds until the key that is full frees up (nothing counted). */
  reserve(accountKey: string, addressKey: string, limits: LoginThrottleLimits): Promise<number>;
  settle(accountKey: string, addressKey: string, outcome: Outcome): Promise<void>;
  close(): Promise<void>;
}

export function createLoginThrottle(config: Pick<Config, 'loginThrottle' | 'redisUrl'>, log: Logger, nowMs: () => number = Date.now): LoginThrottle {
  const limits = config.loginThrottle;
  const counts = config.redisUrl ? redisCounts(config.redisUrl, limits.redisPrefix, log, nowMs) : memoryCounts(nowMs);
  return {
    async begin(email, address) {
      const accountKey = `account:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;
      const addressKey = `address:${address}`;
      const waitMs = await counts.reserve(accountKey, addressKey, limits);
      if (waitMs > 0) {
        const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
        throw new AppError('too_many_login_attempts', `Too many failed logins for this account or from this address; retry after ${retryAfter} s`, {
          headers: { 'Retry-After': String(retryAfter) },
          details: { retry_after: retryAfter },
        });
      }
      let settled = false;
      const settle = async (outcome: Outcome) => {
        if (settled) return;
        settled = true;
        await counts.settle(accountKey, addressKey, outcome);
      };
      return { succeeded: () => settle('succeeded'), abandoned: () => settle('abandoned') };
    },
    close: () => counts.close(),
  };
}

/** The client's address: the socket's, or with `trustedHops` proxies in front, the address the outermost of them saw. */
export function clientAddress(req: Pick<IncomingMessage, 'headers' | 'socket'>, trustedHops: number): string {
  const socketAddress = req.socket?.remoteAddress ?? 'unknown';
  if (trustedHops <= 0) return socketAddress;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Each trusted proxy appended the address it was called from; entries before those are the client's to write.
  return forwarded[forwarded.length - trustedHops] ?? forwarded[0] ?? socketAddress;
}

/**
 * Failure windows one process keeps (accounts and addresses), under the `login_throttle_windows` bound. Past it the
 * oldest window goes once the ended ones have: a flood of more distinct names than the bound could forget a window
 * early, which shared counts (Redis) avoid.
 */
function memoryCounts(nowMs: () => number): FailureCounts {
  const windows = new Map<string, { count: number; endsAt: number }>();
  registerCache('login_throttle_windows', () => windows.size);
  const live = (key: string) => {
    const w = windows.get(key);
    if (w && w.endsAt <= nowMs()) windows.delete(key);
    return windows.get(key);
  };
  const decrement = (key: string) => {
    const w = live(key);
    if (w && --w.count <= 0) windows.delete(key);
  };
  return {
    async reserve(accountKey, addressKey, limits) {
      // Room for the two windows a reservation may add.
      const max = cacheBound('login_throttle_windows') - 2;
      if (windows.size > max) for (const k of windows.keys()) live(k);
      while (windows.size > Math.max(0, max)) windows.delete(windows.keys().next().value!);
      const account = live(accountKey);
      const address = live(addressKey);
      const t = nowMs();
      let wait = 0;
      if (account && account.count >= limits.maxFailuresPerAccount) wait = Math.max(wait, account.endsAt - t);
      if (address && address.count >= limits.maxFailuresPerAddress) wait = Math.max(wait, address.endsAt - t);
      if (wait > 0) return wait;
      for (const key of [accountKey, addressKey]) {
        const w = live(key);
        if (w) w.count++;
        else windows.set(key, { count: 1, endsAt: t + limits.windowMs });
      }
      return 0;
    },
    async settle(accountKey, addressKey, outcome) {
      if (outcome === 'succeeded') windows.delete(accountKey);
      else decrement(accountKey);
      decrement(addressKey);
    },
    async close() {},
  };
}

/** Both keys checked and counted in one script, so instances cannot both take the last slot. */
const RESERVE_LUA = `
local wait = 0
local limits = { tonumber(ARGV[1]), tonumber(ARGV[2]) }
for i = 1, 2 do
  local n = tonumber(redis.call('GET', KEYS[i]) or '0')
  if n >= limits[i] then
    local ttl = redis.call('PTTL', KEYS[i])
    if ttl < 0 then
      redis.call('PEXPIRE', KEYS[i], ARGV[3])
      ttl = tonumber(ARGV[3])
    end
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then return wait end
for i = 1, 2 do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return 0
`;

const SETTLE_LUA = `
if ARGV[1] == 'succeeded' then
  redis.call('DEL', KEYS[1])
elseif tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then
  redis.call('DECR', KEYS[1])
end
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
return 0
`;

type ThrottleRedis = Redis & {
  loginReserve(accountKey: string, addressKey: string, maxAccount: number, maxAddress: number, windowMs: number): Promise<number>;
  loginSettle(accountKey: string, addressKey: string, outcome: Outcome): Promise<number>;
};

/**
 * Counts in Redis, shared by every instance. When Redis cannot answer (or its
 * circuit is open, see src/platform/redis.ts), this instance counts in its memory
 * instead, rather than letting logins through unthrottled, failing or waiting.
 */
function redisCounts(url: string, prefix: string, log: Logger, nowMs: () => number): FailureCounts {
  const shared = openSharedRedis<ThrottleRedis>(url, {
    purpose: 'login throttling',
    log,
    commands: { loginReserve: { numberOfKeys: 2, lua: RESERVE_LUA }, loginSettle: { numberOfKeys: 2, lua: SETTLE_LUA } },
  });
  const fallback = memoryCounts(nowMs);
  return {
    reserve: (accountKey, addressKey, limits) =>
      shared.run(
        async (redis) => Number(await redis.loginReserve(prefix + accountKey, prefix + addressKey, limits.maxFailuresPerAccount, limits.maxFailuresPerAddress, limits.windowMs)),
        () => fallback.reserve(accountKey, addressKey, limits),
      ),
    async settle(accountKey, addressKey, outcome) {
      await fallback.settle(accountKey, addressKey, outcome);
      await shared.run(
        (redis) => redis.loginSettle(prefix + accountKey, prefix + addressKey, outcome),
        () => 0,
      );
    },
    close: () => shared.close(),
  };
}
