/**
 * Streaming replicas of the primary PostgreSQL: their clients, a monitor of how far each has replayed, and the
 * choice of one for a read that may be a moment old (docs/operations.md, "Scale out reads").
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import type { Logger } from 'pino';
import type { PrismaClient } from '../../generated/prisma/client';

/** Where a read runs: the primary, or one replica. `readRows` is that database's direct read (see readRows in client.ts). */
export interface ReadTarget {
  /** `primary`, or the replica's host:port/database as metrics and logs name it. */
  name: string;
  prisma: PrismaClient;
  readRows<T>(sql: string, values: unknown[], opts?: { prepare?: boolean }): Promise<T[]>;
}

/** A replica as the monitor last saw it. */
export interface ReplicaStatus {
  name: string;
  /** Answered the last poll as a server in recovery (a streaming replica). */
  up: boolean;
  /** How long ago the oldest write it has not replayed was made on the primary (0: it has replayed all it was seen to have); null while unknown. */
  lagMs: number | null;
  /** Reads may go to it now: up and within the lag allowed. */
  serving: boolean;
}

export interface ReplicaOptions {
  urls: string[];
  maxLagMs: number;
  pollMs: number;
}

/** A WAL position (`16/B374D848`) as one number, so positions compare. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

const readScope = new AsyncLocalStorage<ReadTarget>();

/**
 * Runs `work` with the direct reads (readRows) it makes going to `target`. The hot read paths call readRows
 * without a context, so the pipeline names their target for the length of one query operation this way; the
 * same operation's Prisma reads take it from the context (`ctx.readDb`).
 */
export function readingFrom<T>(target: ReadTarget, work: () => T): T {
  return readScope.run(target, work);
}

/** The target readingFrom named for the current async scope, if any. */
export const scopedReadTarget = (): ReadTarget | undefined => readScope.getStore();

interface Replica extends ReadTarget {
  url: string;
  up: boolean;
  replayed: bigint | null;
  lagMs: number | null;
  /** The monitor's own connection (not one of the pool's, so a busy pool never delays a poll). */
  monitor: pg.Client | null;
  /** When a warning about it was last logged, so a replica that stays bad is reported every WARN_EVERY_MS, not every poll. */
  warnedAt: number;
  serving: boolean;
}

const WARN_EVERY_MS = 30_000;
/** Primary positions are kept this many polls beyond the lag allowed: enough to measure any lag up to it. */
const EXTRA_SAMPLES = 5;

/**
 * The replicas of one primary. Every `pollMs` one small query on each (the primary's current write position,
 * each replica's replay position) tells how far behind each replica is; routing then only compares numbers in
 * memory, with no query per request. Lag is measured against the primary's positions as polled: a replica
 * that has replayed what the primary had written at the poll of time T lacks only writes made after T.
 */
export class ReplicaSet {
  private readonly replicas: Replica[];
  /** The primary's write positions at past polls, oldest first. */
  private samples: { at: number; lsn: bigint }[] = [];
  private primaryMonitor: pg.Client | null = null;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private next = 0;
  private closed = false;

  constructor(
    private readonly primary: ReadTarget,
    replicas: (ReadTarget & { url: string })[],
    private readonly opts: ReplicaOptions & { primaryUrl: string; log: Logger },
  ) {
    this.replicas = replicas.map((r) => ({ ...r, up: false, replayed: null, lagMs: null, monitor: null, warnedAt: 0, serving: false }));
  }

  /** Polls once (so a replica that is ready serves from the first request), then every pollMs. */
  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.opts.pollMs);
    this.timer.unref();
  }

  /** The replica a read that must see writes up to `after` (null: any) goes to, round robin among those serving; undefined: none may. */
  choose(after: bigint | null): ReadTarget | undefined {
    const n = this.replicas.length;
    for (let i = 0; i < n; i++) {
      const r = this.replicas[(this.next + i) % n];
      if (r.serving && (after === null || (r.replayed !== null && r.replayed >= after))) {
        this.next = (this.next + i + 1) % n;
        return r;
      }
    }
    return undefined;
  }

  /** Whether any replica may serve reads now. */
  anyServing(): boolean {
    return this.replicas.some((r) => r.serving);
  }

  /** A read on `target` failed: it serves nothing more until a poll finds it well again. */
  reportFailure(target: ReadTarget, err: unknown): void {
    const r = this.replicas.find((x) => x === target);
    if (!r || !r.serving) return;
    r.serving = false;
    r.up = false;
    this.warn(r, Date.now(), { err }, 'database replica failed a read: reads go to the primary or another replica until it answers again');
  }

  /** The primary's write position now: every transaction committed before this call is at or before it. */
  async primaryPosition(): Promise<bigint> {
    const [row] = await this.primary.readRows<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn', []);
    return parseLsn(row.lsn);
  }

  status(): ReplicaStatus[] {
    return this.replicas.map((r) => ({ name: r.name, up: r.up, lagMs: r.lagMs, serving: r.serving }));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.polling;
    await Promise.all([this.primaryMonitor, ...this.replicas.map((r) => r.monitor)].map((c) => c?.end().catch(() => {})));
    await Promise.all(this.replicas.map((r) => r.prisma.$disconnect().catch(() => {})));
  }

  /** One round: the primary's position first, then every replica's (a poll still running is not overlapped). */
  private poll(): Promise<void> {
    if (this.polling || this.closed) return this.polling ?? Promise.resolve();
    this.polling = this.pollOnce().finally(() => (this.polling = undefined));
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    const primary = await this.query(this.primaryMonitor, this.opts.primaryUrl, 'SELECT pg_current_wal_lsn()::text AS lsn').catch(() => null);
    this.primaryMonitor = primary?.client ?? null;
    const at = Date.now();
    if (primary) this.samples.push({ at, lsn: parseLsn(primary.row.lsn as string) });
    const keepFrom = at - this.opts.maxLagMs - EXTRA_SAMPLES * this.opts.pollMs;
    while (this.samples.length > 1 && this.samples[0].at < keepFrom) this.samples.shift();
    await Promise.all(this.replicas.map((r) => this.pollReplica(r, primary !== null)));
  }

  private async pollReplica(r: Replica, primaryKnown: boolean): Promise<void> {
    let replayed: bigint | null = null;
    let failure: unknown;
    try {
      const answer = await this.query(r.monitor, r.url, 'SELECT pg_last_wal_replay_lsn()::text AS lsn');
      r.monitor = answer.client;
      // Null on a server that is not (or no longer) a streaming replica: a promoted replica diverges from the primary.
      if (answer.row.lsn === null) failure = new Error('not in recovery: not a streaming replica of the primary');
      else replayed = parseLsn(answer.row.lsn as string);
    } catch (e) {
      r.monitor = null;
      failure = e;
    }
    const now = Date.now();
    const wasServing = r.serving;
    r.up = replayed !== null;
    r.replayed = replayed ?? r.replayed;
    r.lagMs = replayed !== null && primaryKnown ? this.lagOf(replayed, now) : null;
    r.serving = r.up && r.lagMs !== null && r.lagMs <= this.opts.maxLagMs;
    if (r.serving) {
      if (!wasServing && r.warnedAt) this.opts.log.info({ replica: r.name, lag_ms: r.lagMs }, 'database replica serves reads again');
      r.warnedAt = 0;
      return;
    }
    if (this.closed) return;
    const why = failure
      ? { err: failure, reason: 'down' }
      : { reason: r.lagMs === null ? 'lag unknown (primary not answering)' : 'lagging', lag_ms: r.lagMs, max_lag_ms: this.opts.maxLagMs };
    this.warn(r, now, why, 'database replica skipped: reads go to the primary or another replica until it is back within the lag allowed');
  }

  /** Logs at most once per WARN_EVERY_MS per replica while it stays unusable. */
  private warn(r: Replica, now: number, fields: Record<string, unknown>, message: string): void {
    if (r.warnedAt && now - r.warnedAt < WARN_EVERY_MS) return;
    r.warnedAt = now;
    this.opts.log.warn({ replica: r.name, ...fields }, message);
  }

  /**
   * How old the oldest primary write the replica lacks is: the time of the first polled primary position past
   * what it replayed (0 when it replayed the latest). Past every kept sample it is at least the window's age.
   */
  private lagOf(replayed: bigint, now: number): number {
    for (const s of this.samples) if (s.lsn > replayed) return now - s.at;
    return 0;
  }

  /** One row of `sql` on the monitor connection `client`, connecting it first when there is none. */
  private async query(client: pg.Client | null, url: string, sql: string): Promise<{ client: pg.Client; row: Record<string, unknown> }> {
    let c = client;
    if (!c) {
      c = new pg.Client({ connectionString: url, connectionTimeoutMillis: Math.max(1000, this.opts.pollMs * 5), query_timeout: Math.max(1000, this.opts.pollMs * 5) });
      c.on('error', () => {}); // a server going away between polls; the next poll's query reports it
      try {
        await c.connect();
      } catch (e) {
        await c.end().catch(() => {});
        throw e;
      }
    }
    try {
      const result = await c.query(sql);
      return { client: c, row: result.rows[0] as Record<string, unknown> };
    } catch (e) {
      await c.end().catch(() => {});
      throw e;
    }
  }
}

/** A replica URL as metrics and logs name it: host:port/database, never its credentials. */
export function replicaName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return 'replica';
  }
}
