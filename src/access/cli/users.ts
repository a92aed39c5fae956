/** CLI commands for dashboard users and their tokens. */

import { createDashboardToken, listDashboardTokens, revokeDashboardTokenBy } from '../services/dashboardTokens';
import { createUser, findStore, findUser, listStores, listUsers } from '../services/stores';
import { AppError } from '../../platform/errors';
import { type CliCommand, defineCommand, exactlyOne, optionalFlag, OUTPUT_WRITTEN, requiredFlag, wholeNumberFlag } from '../../api/cli/command';
import { dashboardTokenView, userView } from '../services/views';
import { SHOWN_ONCE } from '../../api/cli/command';

const USER_REF = 'the user: an id or an email';

export const userCommands: CliCommand[] = [
  defineCommand<{ email: string; name: string; password?: string }>({
    name: 'user create',
    description: 'Create a dashboard user. Without --password the user cannot log in with the login mutation, only with tokens from "token issue".',
    options: [
      requiredFlag('--email <email>', 'email address, stored lowercased; unique'),
      requiredFlag('--name <name>', 'display name (1-255 characters)'),
      optionalFlag('--password <password>', 'password for the login mutation (8-1024 characters)'),
    ],
    examples: [`npm run cli -- user create --email ana@example.com --name Ana --password 'a long password'`],
    run: async (f, ctx) => userView(await createUser(ctx, { email: f.email, name: f.name, password: f.password })),
  }),
  defineCommand<Record<string, never>>({
    name: 'user list',
    description: 'List every user, oldest first.',
    options: [],
    examples: ['npm run cli -- user list'],
    run: async (_f, ctx) => (await listUsers(ctx)).map(userView),
  }),
];

export const tokenCommands: CliCommand[] = [
  defineCommand<{ user: string; name?: string; expiresInDays?: number }>({
    name: 'token issue',
    description: 'Issue a dashboard bearer token (svc_dash_…) for a user. The token is printed once; only its digest is kept.',
    options: [
      requiredFlag('--user <user>', USER_REF),
      optionalFlag('--name <label>', 'a label to recognise the token by in "token list"'),
      wholeNumberFlag('--expires-in-days <days>', 'the token stops working after this many days (default: never)', 1, 3650),
    ],
    examples: ['npm run cli -- token issue --user bo@example.com --name laptop --expires-in-days 30'],
    run: async (f, ctx) => {
      const user = await findUser(ctx, f.user);
      const expiresAt = f.expiresInDays === undefined ? undefined : new Date(ctx.now().getTime() + f.expiresInDays * 86_400_000);
      const { token, record } = await createDashboardToken(ctx, { userId: user.id, name: f.name, expiresAt });
      return { ...dashboardTokenView(record), token, note: SHOWN_ONCE };
    },
  }),
  defineCommand<{ user: string; store?: string }>({
    name: 'token env',
    description:
      'Issue a dashboard token for a user (named "shell") and print it with the service\'s base URL and a store id as shell assignments: BASE, STORE and TOKEN, the variables the README\'s tour and the guides\' examples use. Without --store, the one store the user owns. eval "$(npm run --silent cli -- token env --user <user>)" sets them in the current shell.',
    options: [requiredFlag('--user <user>', USER_REF), optionalFlag('--store <store>', 'the store: an id, or a name no other store has (default: the one store the user owns)')],
    examples: ['npm run cli -- token env --user owner@demo.store'],
    run: async (f, ctx) => {
      const user = await findUser(ctx, f.user);
      const store = f.store !== undefined ? await findStore(ctx, f.store) : await ownStore(ctx, user);
      const { token } = await createDashboardToken(ctx, { userId: user.id, name: 'shell' });
      // export: the programs the examples run (npm run webhooks:listen) read them too.
      const lines = [`export BASE='${ctx.baseUrl}'`, `export STORE='${store.id}'`, `export TOKEN='${token}'`];
      process.stdout.write(`${lines.join('\n')}\n`);
      return OUTPUT_WRITTEN;
    },
  }),
  defineCommand<{ user: string }>({
    name: 'token list',
    description: "List a user's dashboard tokens, newest first, revoked and expired ones included (redacted: only the last four characters).",
    options: [requiredFlag('--user <user>', USER_REF)],
    examples: ['npm run cli -- token list --user bo@example.com'],
    run: async (f, ctx) => (await listDashboardTokens(ctx, (await findUser(ctx, f.user)).id)).map(dashboardTokenView),
  }),
  defineCommand<{ id?: string; token?: string }>({
    name: 'token revoke',
    description:
      'Revoke a dashboard token, named by its id (see "token list") or by the token itself. Idempotent: revoking a revoked token prints it unchanged. A running service on the embedded database stops accepting it at once; on PostgreSQL, within AUTH_CACHE_TTL_MS.',
    options: [optionalFlag('--id <token id>', 'the token id printed by "token issue" or "token list"'), optionalFlag('--token <token>', 'the token itself (svc_dash_…)')],
    examples: ['npm run cli -- token revoke --id 0b6f1a52-3c1e-4d8e-9a57-2f1c9d0e4b7a', 'npm run cli -- token revoke --token "$TOKEN"'],
    check: (f) => exactlyOne(f, 'id', 'token'),
    run: async (f, ctx) => dashboardTokenView(await revokeDashboardTokenBy(ctx, f.id !== undefined ? { id: f.id } : { token: f.token! })),
  }),
];

/** The one store a user owns, for commands that default to it. */
async function ownStore(ctx: Parameters<typeof listStores>[0], user: { id: string; email: string }) {
  const stores = await listStores(ctx, { ownerId: user.id });
  if (stores.length === 1) return stores[0];
  if (stores.length === 0) throw new AppError('not_found', `${user.email} owns no store; name one with --store`);
  throw new AppError('conflict', `${user.email} owns several stores; name one with --store: ${stores.map((s) => s.id).join(', ')}`);
}
