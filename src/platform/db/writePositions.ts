/**
 * Read-your-writes across instances: each client's last write position (the primary's WAL position after its
 * write committed), kept in Redis when REDIS_URL is set, else in this process.
 */

import type { Logger } from 'pino';
import { cacheBound, registerCache } from '../caches';
import { openSharedRedis } from '../redis';

export interface WritePositions {
  /** Records that `client` wrote: its reads need a replica at or past `position` while the record lasts. */
  record(client: string, position: bigint): Promise<void>;
  /** The client's last recorded write position; null: none recorded (or expired); undefined: unknown (Redis failed), so read the primary. */
  lastWrite(client: string): Promise<bigint | null | undefined>;
  close(): Promise<void>;
}

/** Keeps the larger of the stored and the given position, and (re)sets the expiry: two instances may record out of order. */
const RECORD_MAX = `
local current = redis.call('GET', KEYS[1])
if not current or tonumber(ARGV[1]) > tonumber(current) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

const KEY_PREFIX = 'svc:last-write:';

type RecordingRedis = import('ioredis').Redis & { recordWritePosition(key: string, position: string, ttlMs: string): Promise<number> };

const CONNECT_WAIT_MS = 1000;

/** Resolves once the connection is ready (at once when it is); rejects after CONNECT_WAIT_MS. */
function connected(redis: RecordingRedis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`redis not ready after ${CONNECT_WAIT_MS} ms`));
    }, CONNECT_WAIT_MS);
    redis.once('ready', onReady);
  });
}

/**
 * A record lasts `ttlMs`: DATABASE_REPLICA_MAX_LAG_MS plus a few polls. Past that, every replica allowed to serve
 * has replayed the write anyway (it is at most that far behind), so the record no longer changes a choice.
 */
export function createWritePositions(opts: { redisUrl?: string; ttlMs: number; log: Logger }): WritePositions {
  const { ttlMs } = opts;
  if (opts.redisUrl) {
    const shared = openSharedRedis<RecordingRedis>(opts.redisUrl, {
      purpose: 'read-your-writes positions',
      log: opts.log,
      commands: { recordWritePosition: { numberOfKeys: 1, lua: RECORD_MAX } },
    });
    return {
      record: (client, position) =>
        shared.run(
          async (redis) => {
            // A record must not be lost to a connection still being made (the first writes after a start): wait for it, briefly.
            await connected(redis);
            await redis.recordWritePosition(KEY_PREFIX + client, position.toString(), String(ttlMs));
          },
          () => undefined,
        ),
      lastWrite: (client) =>
        shared.run(
          async (redis) => {
            const v = await redis.get(KEY_PREFIX + client);
            return v === null ? null : BigInt(v);
          },
          () => undefined,
        ),
      close: () => shared.close(),
    };
  }
  const local = new Map<string, { position: bigint; until: number }>();
  // Clients remembered by one process without Redis (`write_positions`): past the bound the oldest record is dropped (its reads may then be a moment old).
  registerCache('write_positions', () => local.size);
  return {
    async record(client, position) {
      const known = local.get(client);
      local.delete(client); // re-inserted last: the map's order is the order of last writes
      local.set(client, { position: known && known.position > position ? known.position : position, until: Date.now() + ttlMs });
      if (local.size > cacheBound('write_positions')) local.delete(local.keys().next().value!);
    },
    async lastWrite(client) {
      const known = local.get(client);
      if (!known) return null;
      if (known.until > Date.now()) return known.position;
      local.delete(client);
      return null;
    },
    close: async () => local.clear(),
  };
}
