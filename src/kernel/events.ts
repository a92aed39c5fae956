/** The event catalogue and event shapes (types, resources, sources, actors) shared by every layer. */

import type { Mode } from './access';

/**
 * The event catalogue: every committed write records one or more of these in
 * the same transaction (src/platform/outbox/outbox.ts). A leaf module.
 */
export const EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.deleted',
  'product.published',
  'product.unpublished',
  'product.variants_replaced',
  'product.variants_updated',
  'product.options_updated',
  'product.seo_updated',
  'product.image_added',
  'product.image_removed',
  'product.images_updated',
  'product.staged',
  'product.staged_published',
  'product.staged_discarded',
  'collection.created',
  'collection.updated',
  'collection.deleted',
  'collection.published',
  'collection.unpublished',
  'collection.products_added',
  'collection.products_removed',
  'collection.products_moved',
  'category.created',
  'category.updated',
  'category.deleted',
  'attribute.created',
  'attribute.updated',
  'attribute.deleted',
  'product_type.created',
  'product_type.updated',
  'product_type.deleted',
  'translation.updated',
  'translation.deleted',
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'oauth_app.created',
  'oauth_app.updated',
  'oauth_app.suspended',
  'oauth_app.activated',
  'oauth_grant.created',
  'oauth_grant.revoked',
  'member.added',
  'member.updated',
  'member.removed',
  'member.invited',
  'member.invitation_revoked',
  'member.invitation_accepted',
  'store.created',
  'store.updated',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rolled',
  'webhook_endpoint.disabled',
  'webhook_endpoint.enabled',
  'test_catalog.copy_started',
  'test_catalog.copy_completed',
  'test_catalog.copy_failed',
  'test_catalog.delete_started',
  'test_catalog.deleted',
  'test_catalog.delete_failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Edits of a product's staged version, never of the current one: the history marks them `staged` (docs/staged-changes.md). */
export const STAGED_EVENT_TYPES: readonly EventType[] = ['product.staged', 'product.staged_discarded'];
export const isStagedEdit = (type: string) => (STAGED_EVENT_TYPES as readonly string[]).includes(type);

export const RESOURCE_TYPES = ['product', 'collection', 'category', 'attribute', 'product_type', 'api_key', 'oauth_app', 'oauth_grant', 'member', 'invitation', 'store', 'webhook_endpoint', 'test_catalog_job'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Where a write came in. */
export const EVENT_SOURCES = ['dashboard_graphql', 'merchant_rest', 'public_api', 'cli', 'system'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];

export const ACTOR_KINDS = ['user', 'api_key', 'oauth_app', 'operator', 'system'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Who made a change, as the history shows it; an API key is named by its redacted form, never the key. */
export interface Actor {
  kind: ActorKind;
  id: string | null;
  name: string;
}

/** One changed field of an update: its value before and after, as the REST API shows it. */
export interface FieldChange {
  field: string;
  previous: unknown;
  next: unknown;
}

/** A recorded event as the change history API returns it. */
export interface DomainEvent {
  id: string;
  type: EventType;
  storeId: string | null;
  mode: Mode;
  occurredAt: Date;
  actor: Actor;
  source: EventSource;
  requestId: string;
  resource: { type: ResourceType; id: string; version: number | null };
  data: Record<string, unknown>;
  changes: FieldChange[] | null;
}
