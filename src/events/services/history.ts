/** The change history service: a store's recorded events, filtered and paged. */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { type DomainEvent, EVENT_TYPES, type EventType, RESOURCE_TYPES, type ResourceType, STAGED_EVENT_TYPES } from '../../kernel/events';
import { MODES } from '../../kernel/access';
import { isUuid } from '../../kernel/ids';
import { AppError, notFound } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { catalogOf } from '../../catalog/services/catalogScope';

/**
 * The change history: a store's recorded events (src/platform/outbox/outbox.ts), newest
 * first, in pages with keyset cursors, filtered by resource, actor, event type
 * and time.
 */

export const CHANGES_PAGE = { default: 20, max: 100 } as const;

const ChangeFilter = z.object({
  resourceType: z.enum(RESOURCE_TYPES).optional(),
  /** Only the changes of one mode; both when absent. */
  mode: z.enum(MODES).optional(),
  resourceId: z.string().trim().min(1).max(200).optional(),
  actorId: z.string().trim().min(1).max(200).optional(),
  types: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).optional(),
  since: z.date().optional(),
  until: z.date().optional(),
  /** true: only edits of staged versions (STAGED_EVENT_TYPES); false: only the others. */
  staged: z.boolean().optional(),
  first: z.number().int().min(1).max(CHANGES_PAGE.max).default(CHANGES_PAGE.default),
  after: z.string().max(200).optional(),
});

/** What callers pass: plain strings for the enumerations, which the filter validates (422 naming the field). */
type ChangeQuery = Omit<z.input<typeof ChangeFilter>, 'types' | 'resourceType' | 'mode'> & { types?: string[]; resourceType?: string; mode?: string };

interface ChangePage {
  items: DomainEvent[];
  /** Cursor of each item: pass the last one as `after` for the next page. */
  cursors: string[];
  hasMore: boolean;
}

/** Cursors are opaque to clients: the event id, base64url-encoded. */
const encodeCursor = (id: string) => Buffer.from(`e:${id}`).toString('base64url');

function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = decoded.startsWith('e:') ? decoded.slice(2) : '';
  if (!isUuid(id)) {
    throw new AppError('validation_failed', 'after: is not a cursor this API returned', {
      errors: [{ field: 'after', code: 'invalid_cursor', message: 'is not a cursor this API returned' }],
    });
  }
  return id;
}

type EventRow = Prisma.EventGetPayload<object>;

function toDomainEvent(e: EventRow): DomainEvent {
  return {
    id: e.id,
    type: e.type as EventType,
    storeId: e.storeId,
    mode: e.mode,
    occurredAt: e.occurredAt,
    actor: { kind: e.actorKind as DomainEvent['actor']['kind'], id: e.actorId, name: e.actorName },
    source: e.source as DomainEvent['source'],
    requestId: e.requestId,
    resource: { type: e.resourceType as ResourceType, id: e.resourceId, version: e.resourceVersion },
    data: e.data as Record<string, unknown>,
    changes: (e.changes as DomainEvent['changes']) ?? null,
  };
}

/** The event types a filter asks for: those named, narrowed to staged edits or to the others. */
function typeFilter(types: EventType[] | undefined, staged: boolean | undefined): Prisma.StringFilter | undefined {
  const named = types?.length ? types : undefined;
  if (staged === undefined) return named && { in: named };
  if (staged) return { in: (named ?? [...STAGED_EVENT_TYPES]).filter((t) => STAGED_EVENT_TYPES.includes(t)) };
  return named ? { in: named.filter((t) => !STAGED_EVENT_TYPES.includes(t)) } : { notIn: [...STAGED_EVENT_TYPES] };
}

/**
 * A page of the store's changes, newest first. The history of one product that
 * never existed (no events, no row) is a 404; a deleted product's stays readable.
 */
export async function listChanges(ctx: RequestContext, storeId: string, query: ChangeQuery): Promise<ChangePage> {
  const q = parseInput(ChangeFilter, query);
  if (!isUuid(storeId)) throw notFound('Store');
  if (q.since && q.until && q.since >= q.until) {
    throw new AppError('validation_failed', 'until: must be after since', { errors: [{ field: 'until', code: 'invalid_range', message: 'must be after since' }] });
  }
  const where: Prisma.EventWhereInput = {
    storeId,
    resourceType: q.resourceType,
    mode: q.mode,
    resourceId: q.resourceId,
    actorId: q.actorId,
    type: typeFilter(q.types, q.staged),
    occurredAt: q.since || q.until ? { gte: q.since, lt: q.until } : undefined,
    id: q.after ? { lt: decodeCursor(q.after) } : undefined,
  };
  const rows = await ctx.readDb.event.findMany({ where, orderBy: { id: 'desc' }, take: q.first + 1 });
  const page = rows.slice(0, q.first);
  if (page.length === 0 && !q.after && q.resourceType === 'product' && q.resourceId) {
    const exists = isUuid(q.resourceId) && (await ctx.readDb.product.findFirst({ where: { id: q.resourceId, ...catalogOf(ctx, storeId) }, select: { id: true } }));
    if (!exists) throw notFound('Product');
  }
  return { items: page.map(toDomainEvent), cursors: page.map((e) => encodeCursor(e.id)), hasMore: rows.length > q.first };
}
