/** When a failed webhook delivery is tried again, and when a failing endpoint is disabled. */

import type { Mode } from '../../kernel/access';

/**
 * When a failed delivery is tried again: exponential backoff with ±20 % jitter
 * (so endpoints that failed together do not all come back at the same second).
 * Live endpoints get 8 attempts over about three days, test endpoints 3
 * attempts within the hour (Stripe's split). The table in docs/webhooks.md is these numbers.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The wait after attempt 1, 2, …; one entry fewer than there are attempts. */
export const RETRY_DELAYS_MS: Record<Mode, readonly number[]> = {
  live: [1 * MINUTE, 10 * MINUTE, 1 * HOUR, 3 * HOUR, 8 * HOUR, 24 * HOUR, 36 * HOUR],
  test: [5 * MINUTE, 30 * MINUTE],
};

/** Attempts a scheduled message gets before it fails for good: 8 live, 3 test. */
export const MAX_ATTEMPTS: Record<Mode, number> = {
  live: RETRY_DELAYS_MS.live.length + 1,
  test: RETRY_DELAYS_MS.test.length + 1,
};

/** Each wait is its table value times a random factor in [1 - JITTER, 1 + JITTER]. */
export const JITTER = 0.2;

/** A live endpoint whose attempts have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * HOUR;

/**
 * When attempt `attempt + 1` is due after attempt `attempt` (1-based) failed at
 * `failedAt`, or null when that was the last one. `random` returns [0, 1);
 * tests pass a fixed one.
 */
export function nextAttemptAt(mode: Mode, attempt: number, failedAt: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_MS[mode][attempt - 1];
  if (delay === undefined) return null;
  const factor = 1 - JITTER + 2 * JITTER * random();
  return new Date(failedAt.getTime() + Math.round(delay * factor));
}
