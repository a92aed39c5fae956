/** CLI commands for webhook endpoints and the delivery log. */

import type { RequestContext } from '../../platform/context';
import { EVENT_TYPES } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import { AppError } from '../../platform/errors';
import { findStore } from '../../access/services/stores';
import {
  createWebhookEndpoint,
  DEFAULT_SECRET_OVERLAP_HOURS,
  deleteWebhookEndpoint,
  endpointView,
  ENDPOINT_STATUSES,
  getWebhookEndpoint,
  listWebhookEndpoints,
  MAX_DESCRIPTION_LENGTH,
  MAX_SECRET_OVERLAP_HOURS,
  rollWebhookEndpointSecret,
  updateWebhookEndpoint,
} from '../webhooks/endpoints';
import {
  getWebhookMessage,
  listWebhookMessages,
  MESSAGE_STATUSES,
  MESSAGES_PAGE,
  messageView,
  pingWebhookEndpoint,
  replayWebhookMessages,
  resendWebhookMessage,
} from '../webhooks/log';
import { type CliCommand, choiceFlag, dateFlag, defineCommand, listFlag, optionalFlag, required, requiredFlag, UsageError, wholeNumberFlag } from '../../api/cli/command';
import { STORE_REF } from '../../access/cli/stores';
import { SHOWN_ONCE } from '../../api/cli/command';

const MODES = ['test', 'live'] as const;
const ENDPOINT_REF = 'the endpoint: its id, or its URL when no other endpoint of the store has that URL';
const EVENTS_HELP = `comma-separated event types, or "*" for all (e.g. product.created,product.updated; any of ${EVENT_TYPES.length} types of the event catalogue)`;
const EXAMPLE_URL = 'https://hooks.example.com/catalog';

/** An endpoint named by id, or by its URL (as given or as stored, normalised) when exactly one endpoint of the store has it. */
async function findEndpoint(ctx: RequestContext, storeId: string, ref: string) {
  if (isUuid(ref)) return getWebhookEndpoint(ctx, storeId, ref);
  let normalised = ref;
  try {
    normalised = new URL(ref).toString();
  } catch {
    // Not a URL: it matches nothing below, and the answer is not_found.
  }
  const matches = (await listWebhookEndpoints(ctx, storeId)).filter((e) => e.url === ref || e.url === normalised);
  if (matches.length === 0) throw new AppError('not_found', `Webhook endpoint not found: no endpoint of this store has the id or URL ${ref}`);
  if (matches.length > 1) throw new AppError('conflict', `${matches.length} endpoints of this store have the URL ${ref} (${matches.map((e) => `${e.mode}: ${e.id}`).join(', ')}); name one by its id`);
  return matches[0];
}

async function storeAndEndpoint(ctx: RequestContext, f: { store: string; endpoint: string }) {
  const store = await findStore(ctx, f.store);
  return { storeId: store.id, endpoint: await findEndpoint(ctx, store.id, f.endpoint) };
}

const storeFlag = () => requiredFlag('--store <store>', STORE_REF);
const endpointFlag = () => requiredFlag('--endpoint <id or url>', ENDPOINT_REF);

export const webhookCommands: CliCommand[] = [
  defineCommand<{ store: string; url: string; events: string[]; description?: string; mode?: string; disabled?: boolean }>({
    name: 'webhook create',
    fieldFlags: { eventTypes: '--events' },
    description:
      'Create a webhook endpoint: the store\'s events of its mode (live by default) are POSTed to the URL, signed (Standard Webhooks). The signing secret is printed once. At most 16 endpoints per mode and store.',
    options: [
      storeFlag(),
      requiredFlag('--url <url>', 'https URL of the receiver (no private, loopback or metadata address)'),
      required(listFlag('--events <list>', EVENTS_HELP)),
      optionalFlag('--description <text>', `what the endpoint is for (at most ${MAX_DESCRIPTION_LENGTH} characters)`),
      choiceFlag('--mode <mode>', 'test: receives test-mode events only; live (default): live-mode events only. Cannot change later', MODES),
      optionalFlag('--disabled', 'create it disabled (it receives nothing until enabled)'),
    ],
    examples: [`npm run cli -- webhook create --store "Ana's" --url ${EXAMPLE_URL} --events product.created,product.updated --description ERP`],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const { endpoint, secret } = await createWebhookEndpoint(ctx, store.id, {
        url: f.url,
        eventTypes: f.events,
        description: f.description,
        mode: f.mode,
        status: f.disabled ? 'disabled' : undefined,
      });
      return { ...endpointView(endpoint), secret, note: SHOWN_ONCE };
    },
  }),
  defineCommand<{ store: string; mode?: string }>({
    name: 'webhook list',
    description: "List a store's webhook endpoints, oldest first (secrets only as a hint: whsec_… and the last four characters).",
    options: [storeFlag(), choiceFlag('--mode <mode>', 'only endpoints of this mode', MODES)],
    examples: [`npm run cli -- webhook list --store "Ana's"`],
    run: async (f, ctx) => (await listWebhookEndpoints(ctx, (await findStore(ctx, f.store)).id, { mode: f.mode })).map(endpointView),
  }),
  defineCommand<{ store: string; endpoint: string }>({
    name: 'webhook show',
    description: 'Show one webhook endpoint.',
    options: [storeFlag(), endpointFlag()],
    examples: [`npm run cli -- webhook show --store "Ana's" --endpoint ${EXAMPLE_URL}`],
    run: async (f, ctx) => endpointView((await storeAndEndpoint(ctx, f)).endpoint),
  }),
  defineCommand<{ store: string; endpoint: string; url?: string; events?: string[]; description?: string; status?: string }>({
    name: 'webhook update',
    fieldFlags: { eventTypes: '--events' },
    description: 'Change the URL, event types, description or status of an endpoint. Enabling it again clears why it was disabled.',
    options: [
      storeFlag(),
      endpointFlag(),
      optionalFlag('--url <url>', 'new https URL'),
      listFlag('--events <list>', EVENTS_HELP),
      optionalFlag('--description <text>', `new description (at most ${MAX_DESCRIPTION_LENGTH} characters; "" clears it)`),
      choiceFlag('--status <status>', 'enabled or disabled', ENDPOINT_STATUSES),
    ],
    examples: [`npm run cli -- webhook update --store "Ana's" --endpoint ${EXAMPLE_URL} --events "*" --status enabled`],
    check: (f) => {
      if (f.url === undefined && f.events === undefined && f.description === undefined && f.status === undefined) {
        throw new UsageError('give at least one of --url, --events, --description or --status');
      }
    },
    run: async (f, ctx) => {
      const { storeId, endpoint } = await storeAndEndpoint(ctx, f);
      return endpointView(await updateWebhookEndpoint(ctx, storeId, endpoint.id, { url: f.url, eventTypes: f.events, description: f.description, status: f.status }));
    },
  }),
  defineCommand<{ store: string; endpoint: string }>({
    name: 'webhook delete',
    description: 'Delete a webhook endpoint and its delivery log; prints it as it was.',
    options: [storeFlag(), endpointFlag()],
    examples: [`npm run cli -- webhook delete --store "Ana's" --endpoint ${EXAMPLE_URL}`],
    run: async (f, ctx) => {
      const { storeId, endpoint } = await storeAndEndpoint(ctx, f);
      return endpointView(await deleteWebhookEndpoint(ctx, storeId, endpoint.id));
    },
  }),
  defineCommand<{ store: string; endpoint: string; overlapHours?: number }>({
    name: 'webhook roll-secret',
    description:
      'Replace the signing secret; the new one is printed once. During the overlap every message carries a signature with the old secret too, so the receiver can switch over.',
    options: [
      storeFlag(),
      endpointFlag(),
      wholeNumberFlag('--overlap-hours <hours>', `how long the old secret keeps signing (default ${DEFAULT_SECRET_OVERLAP_HOURS}; 0 stops it now)`, 0, MAX_SECRET_OVERLAP_HOURS),
    ],
    examples: [`npm run cli -- webhook roll-secret --store "Ana's" --endpoint ${EXAMPLE_URL} --overlap-hours 2`],
    run: async (f, ctx) => {
      const { storeId, endpoint } = await storeAndEndpoint(ctx, f);
      const rolled = await rollWebhookEndpointSecret(ctx, storeId, endpoint.id, { overlapHours: f.overlapHours });
      return { ...endpointView(rolled.endpoint), secret: rolled.secret, note: SHOWN_ONCE };
    },
  }),
  defineCommand<{ store: string; endpoint: string }>({
    name: 'webhook ping',
    description: 'Send a ping message to one endpoint (one attempt, not retried) and print the queued message; "webhook message" shows how it went.',
    options: [storeFlag(), endpointFlag()],
    examples: [`npm run cli -- webhook ping --store "Ana's" --endpoint ${EXAMPLE_URL}`],
    run: async (f, ctx) => {
      const { storeId, endpoint } = await storeAndEndpoint(ctx, f);
      return messageView(await pingWebhookEndpoint(ctx, storeId, endpoint.id));
    },
  }),
  defineCommand<{ store: string; endpoint: string; since: Date }>({
    name: 'webhook replay',
    description: 'Send every failed message of an endpoint created since a time (within the delivery log\'s 30 days) once more. Prints how many.',
    options: [storeFlag(), endpointFlag(), required(dateFlag('--since <time>', 'ISO 8601 date or time, e.g. 2027-01-31T08:00:00Z'))],
    examples: [`npm run cli -- webhook replay --store "Ana's" --endpoint ${EXAMPLE_URL} --since 2027-01-31T08:00:00Z`],
    run: async (f, ctx) => {
      const { storeId, endpoint } = await storeAndEndpoint(ctx, f);
      const r = await replayWebhookMessages(ctx, storeId, endpoint.id, { since: f.since });
      return { endpoint_id: r.endpointId, since: r.since, replayed: r.replayed };
    },
  }),
  defineCommand<{ store: string; endpoint?: string; status?: string; eventType?: string; limit?: number; after?: string }>({
    name: 'webhook messages',
    description: "The store's delivery log, newest first (the last 30 days): one line per message with its status and attempt count. Prints {data, next_cursor}.",
    options: [
      storeFlag(),
      optionalFlag('--endpoint <id or url>', `only messages of this endpoint (${ENDPOINT_REF})`),
      choiceFlag('--status <status>', 'only messages in this state', MESSAGE_STATUSES),
      optionalFlag('--event-type <type>', 'only messages of this event type (or ping)'),
      wholeNumberFlag('--limit <n>', `how many (default ${MESSAGES_PAGE.default})`, 1, MESSAGES_PAGE.max),
      optionalFlag('--after <cursor>', 'next_cursor of the previous page'),
    ],
    examples: [`npm run cli -- webhook messages --store "Ana's" --status failed --limit 5`],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const endpointId = f.endpoint === undefined ? undefined : (await findEndpoint(ctx, store.id, f.endpoint)).id;
      const page = await listWebhookMessages(ctx, store.id, { endpointId, status: f.status, eventType: f.eventType, first: f.limit, after: f.after });
      return { data: page.items.map(messageView), next_cursor: page.hasMore ? page.cursors.at(-1) : null };
    },
  }),
  defineCommand<{ store: string; message: string }>({
    name: 'webhook message',
    description: 'One message of the delivery log: the payload as sent and every attempt (time, status code, duration, the first 2 KB of the answer, the error).',
    options: [storeFlag(), requiredFlag('--message <id>', 'the message id printed by "webhook messages"')],
    examples: [`npm run cli -- webhook message --store "Ana's" --message 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b`],
    run: async (f, ctx) => messageView(await getWebhookMessage(ctx, (await findStore(ctx, f.store)).id, f.message)),
  }),
  defineCommand<{ store: string; message: string }>({
    name: 'webhook resend',
    description: 'Send one message again now: a pending one keeps its retry schedule, a succeeded or failed one gets one more attempt.',
    options: [storeFlag(), requiredFlag('--message <id>', 'the message id printed by "webhook messages"')],
    examples: [`npm run cli -- webhook resend --store "Ana's" --message 0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b`],
    run: async (f, ctx) => messageView(await resendWebhookMessage(ctx, (await findStore(ctx, f.store)).id, f.message)),
  }),
];
