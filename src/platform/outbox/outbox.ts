/** The write transaction with its outbox: every write records its events in the transaction that makes it. */

import { v7 as uuidv7 } from 'uuid';
import type { RequestContext } from '../context';
import { Prisma } from '../db/client';
import type { Mode } from '../../kernel/access';
import type { Actor, EventType, FieldChange, ResourceType } from '../../kernel/events';
import type { Principal } from '../../kernel/principal';
import { AppError } from '../errors';
import { fieldChanges } from './fieldChanges';
import { signalWorkPending } from './signal';

/**
 * The transactional outbox. A write runs inside transaction(); what it emits is
 * kept in memory and inserted, as one multi-row INSERT, just before the
 * transaction commits. A write that fails or rolls back leaves no event; a
 * committed write always leaves its events. Readers (the change
 * history, webhook delivery) read the same table.
 */

interface EventInput {
  type: EventType;
  /** The store whose history shows the event; null for resources of no store (OAuth apps). */
  storeId: string | null;
  /** Defaults to the request's mode; a resource with a mode of its own (API key, OAuth grant) passes it. */
  mode?: Mode;
  resource: { type: ResourceType; id: string; version?: number | null };
  /** The resource as the REST API shows it after the change (before it, for a deletion). Never a secret. */
  data: Record<string, unknown>;
  /** The same representation before the change: `changes` become the fields that differ. */
  before?: Record<string, unknown>;
  /** Changes to record as given, when a field cannot be shown (a rotated secret). */
  changes?: FieldChange[] | null;
  /** Defaults to the request's principal (the OAuth endpoints name the client they authenticated). */
  actor?: Actor;
}

/** A context inside transaction(): the transaction client and the events waiting for the commit. */
export interface TransactionContext extends RequestContext {
  tx: Prisma.TransactionClient;
  outbox: Prisma.EventCreateManyInput[];
}

/**
 * Thrown inside a transaction when an optimistic check saw a concurrent write
 * (a version moved between read and write). transaction() runs the whole unit
 * again on fresh data, a few times, before answering 409.
 */
export class ConcurrentWrite extends Error {
  constructor() {
    super('concurrent write');
  }
}

const ATTEMPTS = 5;

/**
 * Runs `work` in one database transaction whose events are inserted with it; nested calls join the outer transaction.
 * `timeoutMs` raises Prisma's limit on how long the transaction may stay open (5 s by default), for bulk work.
 */
export async function transaction<T>(ctx: RequestContext, work: (t: TransactionContext) => Promise<T>, opts: { timeoutMs?: number } = {}): Promise<T> {
  if (isTransactionContext(ctx)) return work(ctx);
  for (let attempt = 1; ; attempt++) {
    try {
      let recorded = false;
      const result = await ctx.db.$transaction(async (tx) => {
        // Every read of a transaction is the primary's, the replica-eligible ones included.
        const t: TransactionContext = { ...ctx, readDb: ctx.db, tx, outbox: [] };
        const result = await work(t);
        if (t.outbox.length) await tx.event.createMany({ data: t.outbox });
        recorded = t.outbox.length > 0;
        return result;
      }, opts.timeoutMs ? { timeout: opts.timeoutMs } : undefined);
      // Committed: the webhook dispatcher of this process can pick the events up now.
      if (recorded) signalWorkPending();
      return result;
    } catch (e) {
      if (!(e instanceof ConcurrentWrite) && !isDeadlock(e)) throw e;
      if (attempt >= ATTEMPTS) throw new AppError('conflict', 'The resource kept changing concurrently; retry the request');
    }
  }
}

/**
 * PostgreSQL aborted the transaction to break a deadlock (or a serialization
 * failure): nothing of it was written, so it runs again. Two writers can meet
 * this way on the store's product counters (product_counts) when their
 * connections share a counter slot.
 */
const isDeadlock = (e: unknown) =>
  e instanceof Prisma.PrismaClientKnownRequestError && (e.code === 'P2034' || (e.code === 'P2010' && RETRYABLE_SQLSTATES.has(sqlStateOf(e))));

/**
 * A raw statement ($queryRaw, as the row locks are taken) that PostgreSQL aborted reaches us as P2010 with the
 * driver's SQLSTATE, not as P2034: a deadlock between two writers locking rows in opposite orders (a product
 * type change locks the type, then its products; a product write its product, then its type) is retried alike.
 */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
const sqlStateOf = (e: Prisma.PrismaClientKnownRequestError) =>
  String((e.meta as { driverAdapterError?: { cause?: { originalCode?: unknown } } } | undefined)?.driverAdapterError?.cause?.originalCode ?? '');

const isTransactionContext = (ctx: RequestContext): ctx is TransactionContext => 'outbox' in ctx;

/** Records an event of the current transaction. */
export function emit(t: TransactionContext, event: EventInput): void {
  const actor = event.actor ?? actorOf(t.principal);
  const changes = event.changes ?? (event.before ? fieldChanges(event.before, event.data) : null);
  t.outbox.push({
    id: uuidv7(),
    type: event.type,
    storeId: event.storeId,
    mode: event.mode ?? t.mode,
    occurredAt: t.now(),
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: actor.name,
    source: t.source,
    requestId: t.requestId,
    resourceType: event.resource.type,
    resourceId: event.resource.id,
    resourceVersion: event.resource.version ?? null,
    // Dates inside are written as ISO strings (JSON.stringify), as the REST API writes them.
    data: event.data as Prisma.InputJsonObject,
    changes: changes ? (changes as unknown as Prisma.InputJsonArray) : undefined,
  });
}

/** How the history names whoever acted: never a secret, an API key by its redacted form. */
export function actorOf(p: Principal): Actor {
  switch (p.kind) {
    case 'user':
      return { kind: 'user', id: p.userId, name: p.name || p.email };
    case 'api_key':
      return { kind: 'api_key', id: p.id, name: p.redactedKey };
    case 'oauth_app':
      return { kind: 'oauth_app', id: p.appId, name: p.appName };
    case 'operator':
      return { kind: 'operator', id: p.username, name: `${p.username} (CLI)` };
    default:
      return { kind: 'system', id: null, name: 'system' };
  }
}
