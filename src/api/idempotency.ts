/** Idempotency keys: reserving a key, keeping a write's answer, replaying it (Stripe's rules). */

import { createHash, randomUUID } from 'node:crypto';
import type { RequestContext } from '../platform/context';
import type { PrismaClient } from '../platform/db/client';
import type { Principal } from '../kernel/principal';
import { AppError } from '../platform/errors';

/**
 * Idempotency keys, with Stripe's rules. A client sends a key with a write; the
 * first request with it reserves a row (a unique row, INSERT … ON CONFLICT),
 * runs, and completes the row with its answer. For 24 hours a retry with the
 * same key and the same request gets that answer again without running; the
 * same key with another request is refused (422 idempotency_key_reused), and
 * while the first request is still running, so is a retry (409
 * idempotency_key_in_progress).
 *
 * Only answers that wrote something are kept (status below 400). A 4xx answer
 * comes from a check that refused the request and rolled its transaction back;
 * a 5xx answer from a failure that did the same (every write of the service
 * runs in one transaction): neither is kept, so the key can be used again, and a
 * retry runs the request afresh. The one case where that is not exact is a
 * connection lost during COMMIT (503), when the write may have committed; the
 * client learns of it by reading.
 *
 * A reservation whose request died (a crashed instance) is held for LOCK_MS,
 * then the next retry takes it over. Rows live in the database, so every
 * instance sees every key; the worker deletes expired rows
 * (pruneIdempotencyKeys).
 *
 * The service knows nothing of HTTP or GraphQL: the surfaces say what the
 * request is (a fingerprint of it) and what its answer was (status, headers,
 * body as text).
 */

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** How long a completed key answers retries. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** How long a reservation stays in flight before a retry may take it over (the request's instance crashed). */
const IDEMPOTENCY_LOCK_MS = 60_000;

/** Printable ASCII, space to tilde. */
const KEY_FORMAT = /^[\x20-\x7e]+$/;

interface IdempotentRequest {
  key: string;
  /** The store the request writes to; null when it names none. */
  storeId: string | null;
  /** fingerprintOf() of the canonical request. */
  fingerprint: string;
}

export interface IdempotentAnswer {
  status: number;
  /** Headers a replay repeats (the surface chooses which). */
  headers: Record<string, string>;
  /** The body exactly as sent; null for none. */
  body: string | null;
}

interface IdempotentOutcome {
  answer: IdempotentAnswer;
  /** The answer is the first request's, repeated; nothing ran. */
  replayed: boolean;
}

/** A key as sent: 1 to 255 printable ASCII characters, or 400 invalid_idempotency_key. */
export function checkIdempotencyKey(key: string): string {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_FORMAT.test(key)) {
    throw new AppError('invalid_idempotency_key', `An idempotency key is 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`, {
      details: { max_length: IDEMPOTENCY_KEY_MAX_LENGTH },
    });
  }
  return key;
}

/** SHA-256 (hex) of the canonical JSON of `parts`: object keys sorted, so the order a client sent them in does not matter. */
export function fingerprintOf(parts: unknown): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** Whose keys these are: the credential (an OAuth app through its grant, so a refreshed token keeps its keys), or the dashboard user. */
function idempotencyScopeOf(p: Principal): string | null {
  switch (p.kind) {
    case 'user':
      return `user:${p.userId}`;
    case 'api_key':
      return `api_key:${p.id}`;
    case 'oauth_app':
      return `oauth_grant:${p.grantId}`;
    case 'operator':
      return `operator:${p.username}`;
    default:
      return null;
  }
}

interface KeyRow {
  fingerprint: string;
  reservation: string;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

/**
 * Runs `run` once per key: reserves the key, runs, keeps a successful answer
 * (status < 400) for IDEMPOTENCY_TTL_MS and releases the key otherwise (an
 * answer of 400 or more, or a thrown error, which is rethrown). A key already
 * completed for the same request answers with the stored answer instead.
 * With no principal to scope the key to (anonymous), it just runs: such a
 * write is refused by its own authorization anyway.
 */
export async function idempotent(ctx: RequestContext, request: IdempotentRequest, run: () => Promise<IdempotentAnswer>): Promise<IdempotentOutcome> {
  const scope = idempotencyScopeOf(ctx.principal);
  if (!scope) return { answer: await run(), replayed: false };
  const id = { scope, storeId: request.storeId ?? '', mode: ctx.mode, key: checkIdempotencyKey(request.key) };
  const reservation = randomUUID();
  const now = ctx.now();
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LOCK_MS);
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
  // A new key, an expired one, or a reservation whose request died: ours. Otherwise the row stays as it is.
  const reserved = await ctx.db.$queryRaw<{ reservation: string }[]>`
    INSERT INTO idempotency_keys (scope, store_id, mode, key, fingerprint, reservation, locked_until, created_at, expires_at)
    VALUES (${id.scope}, ${id.storeId}, ${id.mode}::"Mode", ${id.key}, ${request.fingerprint}, ${reservation}::uuid, ${lockedUntil}, ${now}, ${expiresAt})
    ON CONFLICT (scope, store_id, mode, key) DO UPDATE SET
      fingerprint = EXCLUDED.fingerprint, reservation = EXCLUDED.reservation, response_status = NULL, response_headers = NULL,
      response_body = NULL, locked_until = EXCLUDED.locked_until, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
    WHERE idempotency_keys.expires_at <= ${now}
       OR (idempotency_keys.response_status IS NULL AND idempotency_keys.locked_until <= ${now})
    RETURNING reservation::text AS reservation`;
  if (reserved.length === 0) return { answer: await existing(ctx, id, request.fingerprint), replayed: true };

  let answer: IdempotentAnswer;
  try {
    answer = await run();
  } catch (err) {
    await release(ctx, id, reservation);
    throw err;
  }
  if (answer.status >= 400) {
    await release(ctx, id, reservation);
    return { answer, replayed: false };
  }
  const kept = await ctx.db.$executeRaw`
    UPDATE idempotency_keys
    SET response_status = ${answer.status}, response_headers = ${JSON.stringify(answer.headers)}::jsonb, response_body = ${answer.body}
    WHERE scope = ${id.scope} AND store_id = ${id.storeId} AND mode = ${id.mode}::"Mode" AND key = ${id.key} AND reservation = ${reservation}::uuid`;
  // Taken over after LOCK_MS by a retry that ran too: both ran (the lock period is meant to outlast every request).
  if (kept === 0) ctx.log.warn({ idempotency_key: id.key }, 'idempotency key reservation was taken over before the request finished');
  return { answer, replayed: false };
}

type KeyId = { scope: string; storeId: string; mode: string; key: string };

/** The answer stored for a key, or why there is none to give. */
async function existing(ctx: RequestContext, id: KeyId, fingerprint: string): Promise<IdempotentAnswer> {
  const [row] = await ctx.db.$queryRaw<KeyRow[]>`
    SELECT fingerprint, reservation::text AS reservation, response_status, response_headers, response_body
    FROM idempotency_keys WHERE scope = ${id.scope} AND store_id = ${id.storeId} AND mode = ${id.mode}::"Mode" AND key = ${id.key}`;
  // Released between our insert and this read (the first request failed): the client retries and runs it.
  if (!row) throw inProgress();
  if (row.fingerprint !== fingerprint) {
    throw new AppError('idempotency_key_reused', 'This idempotency key was already used with a different request; use a new key for a new request');
  }
  if (row.response_status === null) throw inProgress();
  return { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body };
}

const inProgress = () =>
  new AppError('idempotency_key_in_progress', 'A request with this idempotency key is still being processed; retry after it has finished', {
    headers: { 'Retry-After': '1' },
  });

/** Frees the key for another try; a failure here only leaves the reservation to expire after its lock period. */
async function release(ctx: RequestContext, id: KeyId, reservation: string): Promise<void> {
  try {
    await ctx.db.$executeRaw`
      DELETE FROM idempotency_keys
      WHERE scope = ${id.scope} AND store_id = ${id.storeId} AND mode = ${id.mode}::"Mode" AND key = ${id.key} AND reservation = ${reservation}::uuid`;
  } catch (err) {
    ctx.log.warn({ err, idempotency_key: id.key }, 'could not release an idempotency key; it frees itself when its lock period ends');
  }
}

/** Deletes expired keys (the worker's retention step), in batches; several instances may run it at once. */
export async function pruneIdempotencyKeys(db: PrismaClient, opts: { now: Date; batchSize?: number }): Promise<number> {
  const batch = opts.batchSize ?? 5000;
  let total = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM idempotency_keys WHERE (scope, store_id, mode, key) IN (
        SELECT scope, store_id, mode, key FROM idempotency_keys WHERE expires_at <= ${opts.now}
        ORDER BY expires_at LIMIT ${batch} FOR UPDATE SKIP LOCKED
      )`;
    total += deleted;
    if (deleted < batch) return total;
  }
}
