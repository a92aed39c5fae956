/** GraphQL types and queries for the change history and the event catalogue. */

import { ACTOR_KINDS, type DomainEvent, EVENT_SOURCES, EVENT_TYPES, isStagedEdit, RESOURCE_TYPES } from '../../kernel/events';
import { AppError } from '../../platform/errors';
import { CHANGES_PAGE, listChanges } from '../services/history';
import { assertAgreesWithRequest, ServiceMode } from '../../api/graphql/modes';
import { builder, capability } from '../../api/graphql/builder';
import { FieldChange } from '../../api/graphql/fieldChange';

const ChangeResourceType = builder.enumType('ChangeResourceType', { values: RESOURCE_TYPES });
const ChangeSource = builder.enumType('ChangeSource', { values: EVENT_SOURCES, description: 'The entry point a change came in by' });
const ActorKind = builder.enumType('ChangeActorKind', { values: ACTOR_KINDS });

const ChangeActor = builder.simpleObject('ChangeActor', {
  description: 'Who made a change. An API key is named by its redacted form (svc_live_sk_…abcd).',
  fields: (t) => ({ kind: t.field({ type: ActorKind }), id: t.id({ nullable: true }), name: t.string() }),
});

const ChangeResource = builder.simpleObject('ChangeResource', {
  fields: (t) => ({
    type: t.field({ type: ChangeResourceType }),
    id: t.id(),
    version: t.int({ nullable: true, description: "The resource's version after the change (products); null for resources without versions" }),
  }),
});

const Change = builder.objectRef<DomainEvent>('Change').implement({
  description: 'A recorded change (an event of the outbox): what happened to which resource, who did it and where it came from.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Time-ordered (UUIDv7)' }),
    type: t.exposeString('type', { description: `One of ${EVENT_TYPES.join(', ')}` }),
    occurredAt: t.field({ type: 'DateTime', resolve: (e) => e.occurredAt }),
    storeId: t.exposeID('storeId', { nullable: true }),
    mode: t.field({ type: ServiceMode, resolve: (e) => e.mode }),
    actor: t.field({ type: ChangeActor, resolve: (e) => e.actor }),
    source: t.field({ type: ChangeSource, resolve: (e) => e.source }),
    requestId: t.exposeString('requestId'),
    resource: t.field({ type: ChangeResource, resolve: (e) => e.resource }),
    data: t.field({ type: 'JSON', description: 'The resource as the REST API shows it after the change (before it, for a deletion)', resolve: (e) => e.data }),
    changes: t.field({ type: [FieldChange], nullable: true, description: 'For updates: one entry per changed field', resolve: (e) => e.changes }),
    staged: t.boolean({ description: "An edit of a product's staged version (product.staged, product.staged_discarded), not of the current product", resolve: (e) => isStagedEdit(e.type) }),
  }),
});

const ChangeFilter = builder.inputType('ChangeFilter', {
  fields: (t) => ({
    resourceType: t.field({ type: ChangeResourceType }),
    mode: t.field({ type: ServiceMode, description: "Only the changes of this mode. Default: the request's mode when it names one (X-Service-Mode), else both" }),
    resourceId: t.id(),
    actorId: t.id({ description: 'A user id, API key id, OAuth app id or CLI operator name' }),
    types: t.stringList({ description: 'Event types, e.g. ["product.updated", "product.published"]; any of them matches' }),
    since: t.field({ type: 'DateTime', description: 'Changes at or after this time' }),
    until: t.field({ type: 'DateTime', description: 'Changes before this time' }),
    staged: t.boolean({ description: "true: only edits of products' staged versions; false: only the other changes" }),
  }),
});

/** A product's history is also readable by whoever may manage products; everything else needs view_changes. */
const canRead = (storeId: string, filter: { resourceType?: string | null; resourceId?: string | null } | null | undefined) =>
  capability((filter?.resourceType === 'product' || filter?.resourceType === 'collection') && filter.resourceId ? 'viewProductChanges' : 'viewChanges', storeId);

builder.queryField('changes', (t) =>
  t.connection({
    type: Change,
    description: `The store's change history, newest first (keyset cursors; first defaults to ${CHANGES_PAGE.default}, at most ${CHANGES_PAGE.max}). Needs view_changes; one product's history (resourceType product with resourceId) also manage_products.`,
    args: { storeId: t.arg.id({ required: true }), filter: t.arg({ type: ChangeFilter }) },
    authScopes: (_root, args) => canRead(args.storeId, args.filter),
    resolve: async (_root, args, ctx) => {
      if (args.last != null || args.before != null) {
        throw new AppError('validation_failed', 'last/before: the history pages forward only (first/after)', {
          errors: [{ field: args.last != null ? 'last' : 'before', code: 'unsupported', message: 'the history pages forward only' }],
        });
      }
      const f = args.filter;
      assertAgreesWithRequest(ctx, f?.mode, "the filter's mode");
      const page = await listChanges(ctx, args.storeId, {
        resourceType: f?.resourceType ?? undefined,
        mode: f?.mode ?? ctx.requestedMode ?? undefined,
        resourceId: f?.resourceId ?? undefined,
        actorId: f?.actorId ?? undefined,
        types: f?.types ?? undefined,
        since: f?.since ?? undefined,
        until: f?.until ?? undefined,
        staged: f?.staged ?? undefined,
        first: args.first ?? undefined,
        after: args.after ?? undefined,
      });
      return {
        edges: page.items.map((node, i) => ({ node, cursor: page.cursors[i] })),
        pageInfo: { hasNextPage: page.hasMore, hasPreviousPage: !!args.after, startCursor: page.cursors[0] ?? null, endCursor: page.cursors.at(-1) ?? null },
      };
    },
  }),
);

builder.queryField('eventTypes', (t) =>
  t.stringList({
    description:
      'The event catalogue: every type a change-history entry or a webhook message can have (docs/change-history.md). Webhook endpoints subscribe to some of them, or to "*" for all, including types added later. Needs no credential.',
    resolve: () => [...EVENT_TYPES],
  }),
);
