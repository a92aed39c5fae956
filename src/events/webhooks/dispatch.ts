/** Webhook dispatch: turning outbox events into messages for the endpoints that want them. */

import type { PrismaClient } from '../../platform/db/client';

/**
 * The dispatcher turns outbox events into webhook messages: one message per
 * event and enabled endpoint of the event's store that has the event's mode,
 * wants its type and existed when the event occurred. It runs in the
 * background worker, never on the request path. One statement takes a batch
 * of events (FOR UPDATE SKIP LOCKED, so several instances never take the same
 * one), marks them dispatched and inserts their messages, so every event
 * becomes its messages once. A message stores no body: it is built from the
 * event when it is sent (src/events/webhooks/payload.ts).
 */

interface DispatchResult {
  /** Events taken from the outbox (with or without an endpoint that wanted them). */
  events: number;
  /** Messages created. */
  messages: number;
}

export async function dispatchEvents(db: PrismaClient, opts: { now: Date; limit?: number }): Promise<DispatchResult> {
  const limit = opts.limit ?? 200;
  const [result] = await db.$queryRaw<DispatchResult[]>`
    WITH taken AS (
      UPDATE events SET dispatched_at = ${opts.now}
      WHERE id IN (SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, store_id, mode, type, occurred_at
    ), created AS (
      INSERT INTO webhook_messages (id, endpoint_id, store_id, mode, event_id, event_type, status, trigger, next_attempt_at, created_at)
      -- The id's first 48 bits are the event's (UUIDv7: its time), the rest random: messages sort as their events do.
      SELECT overlay(gen_random_uuid()::text PLACING substr(t.id::text, 1, 13) FROM 1)::uuid, e.id, t.store_id, t.mode, t.id, t.type, 'pending', 'scheduled', ${opts.now}, ${opts.now}
      FROM taken t
      JOIN webhook_endpoints e ON e.store_id = t.store_id AND e.mode = t.mode AND e.status = 'enabled'
        -- An endpoint hears of what happens from its creation on, never of older events still waiting here.
        AND e.created_at <= t.occurred_at
        AND ('*' = ANY(e.event_types) OR t.type = ANY(e.event_types))
      ORDER BY t.id, e.created_at
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM taken)::int AS events, (SELECT count(*) FROM created)::int AS messages`;
  return result;
}
