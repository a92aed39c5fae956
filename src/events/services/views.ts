/** Recorded changes and webhook endpoints as clients see them (REST, the CLI, webhook payloads). */
import { type DomainEvent, isStagedEdit } from '../../kernel/events';
import { secretHint } from '../webhooks/signing';

/** A recorded change as the REST history shows it. */
export const changeView = (e: DomainEvent) => ({
  id: e.id,
  type: e.type,
  occurred_at: e.occurredAt,
  store_id: e.storeId,
  mode: e.mode,
  actor: e.actor,
  source: e.source,
  request_id: e.requestId,
  resource: e.resource,
  staged: isStagedEdit(e.type),
  data: e.data,
  changes: e.changes,
});

/** A webhook endpoint: the secret never, only its last characters (`secret_hint`). */
export const webhookEndpointView = (e: {
  id: string;
  storeId: string;
  mode: string;
  url: string;
  description: string;
  eventTypes: string[];
  status: string;
  disabledReason: string | null;
  disabledAt: Date | null;
  secret: string;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}) => ({
  id: e.id,
  store_id: e.storeId,
  mode: e.mode,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes,
  status: e.status,
  disabled_reason: e.disabledReason,
  disabled_at: e.disabledAt,
  secret_hint: secretHint(e.secret),
  previous_secret_expires_at: e.previousSecretExpiresAt,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});
