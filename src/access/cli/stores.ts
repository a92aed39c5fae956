/** CLI commands for stores and their members. */

import { type Permission, PERMISSIONS } from '../../kernel/access';
import { addMember, createStore, findStore, findUser, listMembers, listStores, removeMember } from '../services/stores';
import { type CliCommand, defineCommand, listFlag, optionalFlag, requiredFlag } from '../../api/cli/command';
import { memberView, storeView } from '../services/views';

export const STORE_REF = 'the store: its id, or its name when no other store has that name';

export const storeCommands: CliCommand[] = [
  defineCommand<{ name: string; currency: string; owner: string }>({
    name: 'store create',
    description: 'Create a store owned by an existing user, who gets every permission on it.',
    options: [
      requiredFlag('--name <name>', 'store name (1-255 characters)'),
      requiredFlag('--currency <code>', 'ISO 4217 currency of its prices, e.g. EUR (any case)'),
      requiredFlag('--owner <user>', 'the owner: a user id or email'),
    ],
    examples: [`npm run cli -- store create --name "Ana's" --currency EUR --owner ana@example.com`],
    run: async (f, ctx) => storeView(await createStore(ctx, { name: f.name, currency: f.currency, ownerId: (await findUser(ctx, f.owner)).id })),
  }),
  defineCommand<{ owner?: string }>({
    name: 'store list',
    description: 'List stores, oldest first.',
    options: [optionalFlag('--owner <user>', "only this user's stores: a user id or email")],
    examples: ['npm run cli -- store list', 'npm run cli -- store list --owner ana@example.com'],
    run: async (f, ctx) => (await listStores(ctx, { ownerId: f.owner === undefined ? undefined : (await findUser(ctx, f.owner)).id })).map(storeView),
  }),
  defineCommand<{ store: string; user: string; permissions?: string[] }>({
    name: 'member add',
    description: "Add a user to a store as staff, or replace an existing member's permissions.",
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--user <user>', 'the user: an id or an email'),
      listFlag('--permissions <list>', `comma-separated, any of ${PERMISSIONS.join(', ')} (default: none)`),
    ],
    examples: [`npm run cli -- member add --store "Ana's" --user bo@example.com --permissions manage_products`],
    run: async (f, ctx) => {
      // The service refuses unknown permissions (422 naming them).
      const [store, user] = await Promise.all([findStore(ctx, f.store), findUser(ctx, f.user)]);
      return memberView(await addMember(ctx, { storeId: store.id, userId: user.id, permissions: (f.permissions ?? []) as Permission[] }));
    },
  }),
  defineCommand<{ store: string }>({
    name: 'member list',
    description: "List a store's members: the owner first, then staff by when they joined.",
    options: [requiredFlag('--store <store>', STORE_REF)],
    examples: [`npm run cli -- member list --store "Ana's"`],
    run: async (f, ctx) => (await listMembers(ctx, (await findStore(ctx, f.store)).id)).map(memberView),
  }),
  defineCommand<{ store: string; user: string }>({
    name: 'member remove',
    description: "Remove a staff member from a store (the owner cannot be removed). Their dashboard tokens stop reaching the store at once.",
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--user <user>', 'the user: an id or an email')],
    examples: [`npm run cli -- member remove --store "Ana's" --user bo@example.com`],
    run: async (f, ctx) => {
      const [store, user] = await Promise.all([findStore(ctx, f.store), findUser(ctx, f.user)]);
      return memberView(await removeMember(ctx, store.id, user.id));
    },
  }),
];
