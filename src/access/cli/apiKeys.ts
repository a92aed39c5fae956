/** CLI commands for public API keys: create, list, roll, revoke. */

import { API_KEY_TYPES } from '../auth/apiKeys';
import { SCOPES } from '../../kernel/access';
import { createApiKey, DEFAULT_ROLL_OVERLAP_SECONDS, listApiKeys, MAX_ROLL_OVERLAP_SECONDS, revokeApiKey, rollApiKey } from '../services/apiKeys';
import { findStore } from '../services/stores';
import { type CliCommand, choiceFlag, dateFlag, defineCommand, listFlag, required, requiredFlag, wholeNumberFlag } from '../../api/cli/command';
import { STORE_REF } from './stores';
import { apiKeyView } from '../services/views';
import { SHOWN_ONCE } from '../../api/cli/command';

const MODES = ['test', 'live'] as const;
const KEY_ID = 'the key id printed by "key create" or "key list"';

export const apiKeyCommands: CliCommand[] = [
  defineCommand<{ store: string; type: string; mode: string; name: string; scopes?: string[]; expiresAt?: Date }>({
    name: 'key create',
    description:
      'Create a public API key for a store. The key is printed once; only its digest is kept. System keys get every scope when none are named; publishable keys always and only public:read.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      required(choiceFlag('--type <type>', 'kind of key', API_KEY_TYPES)),
      required(choiceFlag('--mode <mode>', 'test or live data', MODES)),
      requiredFlag('--name <label>', 'a label to recognise the key by (1-100 characters)'),
      listFlag('--scopes <list>', `comma-separated, any of ${SCOPES.join(', ')}`),
      dateFlag('--expires-at <date>', 'ISO 8601 date or time after which the key stops working (default: never)'),
    ],
    examples: ["npm run cli -- key create --store \"Ana's\" --type secret --mode test --name backend --scopes products:read,products:write"],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const { apiKey, secret } = await createApiKey(ctx, store.id, { name: f.name, type: f.type, mode: f.mode, scopes: f.scopes?.length ? f.scopes : undefined, expiresAt: f.expiresAt });
      return { ...apiKeyView(apiKey), secret, note: SHOWN_ONCE };
    },
  }),
  defineCommand<{ store: string; mode?: 'test' | 'live' }>({
    name: 'key list',
    description: "List a store's API keys (redacted: prefix and last four characters), revoked and expired ones included.",
    options: [requiredFlag('--store <store>', STORE_REF), choiceFlag('--mode <mode>', 'only keys of this mode', MODES)],
    examples: ["npm run cli -- key list --store \"Ana's\" --mode test"],
    run: async (f, ctx) => (await listApiKeys(ctx, (await findStore(ctx, f.store)).id, { mode: f.mode })).map(apiKeyView),
  }),
  defineCommand<{ store: string; key: string; expiresInSeconds?: number }>({
    name: 'key roll',
    description:
      'Replace a key with a new one of the same name, type, mode and scopes; the old one keeps working for an overlap. The new key is printed once.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--key <key id>', KEY_ID),
      wholeNumberFlag('--expires-in-seconds <seconds>', `how long the old key keeps working (default ${DEFAULT_ROLL_OVERLAP_SECONDS})`, 0, MAX_ROLL_OVERLAP_SECONDS),
    ],
    examples: ["npm run cli -- key roll --store \"Ana's\" --key 5d0c8f0e-2a8b-4b9e-8c1e-6f3a2b1c0d9e --expires-in-seconds 3600"],
    run: async (f, ctx) => {
      const store = await findStore(ctx, f.store);
      const r = await rollApiKey(ctx, store.id, f.key, { expiresInSeconds: f.expiresInSeconds });
      return { ...apiKeyView(r.apiKey), secret: r.secret, note: SHOWN_ONCE, previous: apiKeyView(r.previous) };
    },
  }),
  defineCommand<{ store: string; key: string }>({
    name: 'key revoke',
    description: 'Revoke a key at once. Idempotent: revoking a revoked key prints it unchanged.',
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--key <key id>', KEY_ID)],
    examples: ["npm run cli -- key revoke --store \"Ana's\" --key 5d0c8f0e-2a8b-4b9e-8c1e-6f3a2b1c0d9e"],
    run: async (f, ctx) => apiKeyView(await revokeApiKey(ctx, (await findStore(ctx, f.store)).id, f.key)),
  }),
];
