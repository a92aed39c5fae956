/**
 * The body of a webhook message (Standard Webhooks): `{type, timestamp, data}`, `data` being the event as the
 * change history API shows it. An event's message stores no body: it is built from the event row (its stored
 * `data` and `changes`, byte for byte) whenever it is sent or shown, so every retry carries the same bytes and
 * an event with several endpoints is stored once. A ping stores its body.
 */

import { Prisma, type PrismaClient } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import type { ActorKind, DomainEvent, EventSource, EventType, ResourceType } from '../../kernel/events';
import { changeView } from '../services/views';

/** Standard Webhooks' limit; a larger event is sent without its resource representation. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;

export function messageBody(type: string, timestamp: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: timestamp.toISOString(), data });
}

/**
 * The body for an outbox event, from its `data` and `changes` as JSON text,
 * without parsing and re-serialising them: the same bytes as
 * messageBody(type, occurredAt, changeView(event)). If it would exceed 256 KB,
 * `data.data` and `data.changes` are null and `data.truncated` is true: the
 * receiver reads the resource from the API (`data.resource` names it).
 */
export function eventMessageBodyFromJson(event: Omit<DomainEvent, 'data' | 'changes'>, dataJson: string, changesJson: string | null): string {
  const { data: _data, changes: _changes, ...head } = changeView({ ...event, data: {}, changes: null });
  const headJson = JSON.stringify(head);
  const envelope = (view: string) => `{"type":${JSON.stringify(event.type)},"timestamp":${JSON.stringify(event.occurredAt.toISOString())},"data":${view}}`;
  const full = envelope(`${headJson.slice(0, -1)},"data":${dataJson},"changes":${changesJson ?? 'null'}}`);
  if (Buffer.byteLength(full) <= MAX_PAYLOAD_BYTES) return full;
  return envelope(`${headJson.slice(0, -1)},"data":null,"changes":null,"truncated":true}`);
}

/** An event row as EVENT_TEXT_COLUMNS select it: `data` and `changes` as their JSON text. */
export interface EventText {
  id: string;
  type: string;
  storeId: string | null;
  mode: string;
  occurredAt: Date;
  actorKind: string;
  actorId: string | null;
  actorName: string;
  source: string;
  requestId: string;
  resourceType: string;
  resourceId: string;
  resourceVersion: number | null;
  data: string;
  changes: string | null;
}

/** The columns of `events` (aliased `ev`) an EventText needs. */
export const EVENT_TEXT_COLUMNS = Prisma.sql`ev.id::text AS id, ev.type, ev.store_id::text AS "storeId", ev.mode::text AS mode, ev.occurred_at AS "occurredAt",
  ev.actor_kind AS "actorKind", ev.actor_id AS "actorId", ev.actor_name AS "actorName", ev.source, ev.request_id AS "requestId",
  ev.resource_type AS "resourceType", ev.resource_id AS "resourceId", ev.resource_version AS "resourceVersion",
  ev.data::text AS data, ev.changes::text AS changes`;

export function eventTextBody(e: EventText): string {
  return eventMessageBodyFromJson(
    {
      id: e.id,
      type: e.type as EventType,
      storeId: e.storeId,
      mode: e.mode as Mode,
      occurredAt: e.occurredAt,
      actor: { kind: e.actorKind as ActorKind, id: e.actorId, name: e.actorName },
      source: e.source as EventSource,
      requestId: e.requestId,
      resource: { type: e.resourceType as ResourceType, id: e.resourceId, version: e.resourceVersion },
    },
    e.data,
    e.changes,
  );
}

/**
 * The body of each message as sent: a ping's as stored, an event's built from
 * its event (null once the event has left the change history, whose retention
 * may be shorter than the delivery log's).
 */
export async function messageBodies<M extends { payload: string | null; eventId: string | null }>(db: PrismaClient, messages: M[]): Promise<(string | null)[]> {
  const eventIds = [...new Set(messages.filter((m) => m.payload === null && m.eventId).map((m) => m.eventId!))];
  const events = eventIds.length ? await db.$queryRaw<EventText[]>`SELECT ${EVENT_TEXT_COLUMNS} FROM events ev WHERE ev.id = ANY(${eventIds}::uuid[])` : [];
  const bodies = new Map(events.map((e) => [e.id, eventTextBody(e)]));
  return messages.map((m) => m.payload ?? (m.eventId ? (bodies.get(m.eventId) ?? null) : null));
}
