/** The Redis connection shared state goes through, with a circuit breaker so Redis never makes a request wait. */

import type * as Cockatiel from 'cockatiel';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * A Redis connection for state shared between instances (rate limits, login
 * throttling) that never makes a request wait for a Redis that is gone.
 *
 * - Commands fail at once while the connection is down (no offline queue),
 *   and after COMMAND_TIMEOUT_MS when Redis hangs.
 * - A circuit breaker (cockatiel) opens after FAILURES_TO_OPEN failures in a
 *   row: for a back-off period (1-2 s, doubling up to 30 s) every call goes
 *   straight to the caller's per-instance fallback without touching Redis; then
 *   one call tries Redis again and closes the circuit if it answers.
 * - One warning when the circuit opens (each period), one line when Redis
 *   answers again; never a line per request.
 */

const COMMAND_TIMEOUT_MS = 500;
const FAILURES_TO_OPEN = 2;

interface SharedRedis<R extends Redis = Redis> {
  /** Runs `command` on Redis, or `fallback` when Redis fails or its circuit is open. */
  run<T>(command: (redis: R) => Promise<T>, fallback: () => T | Promise<T>): Promise<T>;
  /** Whether calls are skipping Redis now. */
  circuitOpen(): boolean;
  close(): Promise<void>;
}

export function openSharedRedis<R extends Redis = Redis>(
  url: string,
  opts: { purpose: string; log: Logger; commands?: Record<string, { numberOfKeys: number; lua: string }> },
): SharedRedis<R> {
  const { purpose, log } = opts;
  // Loaded with the first connection, not at start: an instance without REDIS_URL never needs them.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Redis: RedisClient } = require('ioredis') as typeof import('ioredis');
  const { circuitBreaker, CircuitState, ConsecutiveBreaker, ExponentialBackoff, halfJitterGenerator, handleAll } = require('cockatiel') as typeof Cockatiel;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const redis = new RedisClient(url, {
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2000,
    enableOfflineQueue: false,
    // Reconnect in the background, backing off to 5 s: the breaker decides when requests try it.
    retryStrategy: (times) => Math.min(5000, 100 * 2 ** Math.min(times, 6)),
  }) as R;
  for (const [name, def] of Object.entries(opts.commands ?? {})) redis.defineCommand(name, def);
  // Connection errors repeat on every reconnect; the breaker's own warning says what matters.
  redis.on('error', (err) => log.debug({ err, purpose }, 'redis connection error'));

  const breaker = circuitBreaker(handleAll, {
    // 1-2 s, then 2-4 s, … up to 30 s: jittered, so instances do not all probe a recovering Redis at once.
    halfOpenAfter: new ExponentialBackoff({ generator: halfJitterGenerator, initialDelay: 2000, maxDelay: 30_000 }),
    breaker: new ConsecutiveBreaker(FAILURES_TO_OPEN),
  });
  let lastError: unknown = null;
  breaker.onBreak(() => log.warn({ err: lastError, purpose }, `redis unavailable: ${purpose} falls back to this instance until it answers again`));
  breaker.onReset(() => log.info({ purpose }, `redis answers again: ${purpose} is shared between instances`));

  return {
    async run(command, fallback) {
      try {
        return await breaker.execute(() =>
          command(redis).catch((err: unknown) => {
            lastError = err;
            throw err;
          }),
        );
      } catch {
        // Redis failed (recorded above), or the circuit is open and Redis was not asked.
        return fallback();
      }
    },
    circuitOpen: () => breaker.state !== CircuitState.Closed,
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
