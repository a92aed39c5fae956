/** What a process needs from outside before it changes anything: checked at start, each failure one line. */

import type { Config } from './config';
import { redactedUrl } from './db/errors';
import { storageFor } from './storage';

/**
 * A start-up precondition that does not hold (a port taken, Redis or the bucket
 * unreachable): the message is one line saying what failed and what to do.
 * Entry points print it as it is and exit 1, having changed nothing.
 */
export class StartupError extends Error {}

/** How long the start-up check waits for Redis to answer. */
const REDIS_PROBE_TIMEOUT_MS = 3000;

/**
 * The shared services the configuration names, checked before the database is
 * migrated or seeded: the file storage (uploads) and, when REDIS_URL is set,
 * Redis. At run time a Redis outage is ridden out (src/platform/redis.ts); at
 * start an unreachable one is a configuration to fix, not an outage to ride out.
 */
export async function checkSharedServices(config: { storage: Config['storage']; redisUrl?: string }): Promise<void> {
  const [storageProblem, redisProblem] = await Promise.all([storageFor(config).problem(), config.redisUrl ? redisProblemAt(config.redisUrl) : null]);
  const problem = storageProblem ?? redisProblem;
  if (problem) throw new StartupError(problem);
}

/** Why Redis at `url` cannot be used (one line), or null once it answered PING. */
async function redisProblemAt(url: string): Promise<string | null> {
  // Loaded only when REDIS_URL is set, as the shared connections load it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Redis } = require('ioredis') as typeof import('ioredis');
  const shown = redactedUrl(url, 'REDIS_URL').replace(/\/$/, '');
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: REDIS_PROBE_TIMEOUT_MS, commandTimeout: REDIS_PROBE_TIMEOUT_MS, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  let lastError: Error | undefined;
  redis.on('error', (err: Error) => (lastError = err));
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (e) {
    const err = lastError ?? (e as Error);
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'the host name does not resolve' : (code ?? err.message).split('\n')[0];
    return `Redis at ${shown} (REDIS_URL) does not answer: ${reason}; start it, fix REDIS_URL, or unset it to keep rate limits and login throttling per instance`;
  } finally {
    redis.disconnect();
  }
}
