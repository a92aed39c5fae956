import { type Permission, PERMISSIONS } from '../auth/permissions';
import { createCategory, listCategories } from '../services/categories';
import { addMember, createStore, findStore, findUser, listMembers, listStores } from '../services/stores';
import { type CliCommand, defineCommand, listFlag, optionalFlag, requiredFlag } from './command';
import { categoryView, memberView, storeView } from './views';

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
    run: async (f) => storeView(await createStore({ name: f.name, currency: f.currency, ownerId: (await findUser(f.owner)).id })),
  }),
  defineCommand<{ owner?: string }>({
    name: 'store list',
    description: 'List stores, oldest first.',
    options: [optionalFlag('--owner <user>', "only this user's stores: a user id or email")],
    examples: ['npm run cli -- store list', 'npm run cli -- store list --owner ana@example.com'],
    run: async (f) => (await listStores({ ownerId: f.owner === undefined ? undefined : (await findUser(f.owner)).id })).map(storeView),
  }),
  defineCommand<{ store: string; slug: string; name: string }>({
    name: 'category create',
    description:
      'Create a category of a store. Products name their categories by slug (category_slugs), so the slug is unique in the store whatever its case.',
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--slug <slug>', 'lowercase letters, digits and single hyphens, e.g. running-shoes (at most 128 characters)'),
      requiredFlag('--name <name>', 'display name (1-255 characters)'),
    ],
    examples: [`npm run cli -- category create --store "Ana's" --slug shoes --name Shoes`],
    run: async (f) => categoryView(await createCategory({ storeId: (await findStore(f.store)).id, slug: f.slug, name: f.name })),
  }),
  defineCommand<{ store: string }>({
    name: 'category list',
    description: "List a store's categories by slug.",
    options: [requiredFlag('--store <store>', STORE_REF)],
    examples: [`npm run cli -- category list --store "Ana's"`],
    run: async (f) => (await listCategories((await findStore(f.store)).id)).map(categoryView),
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
    run: async (f) => {
      // The service refuses unknown permissions (422 naming them).
      const [store, user] = await Promise.all([findStore(f.store), findUser(f.user)]);
      return memberView(await addMember({ storeId: store.id, userId: user.id, permissions: (f.permissions ?? []) as Permission[] }));
    },
  }),
  defineCommand<{ store: string }>({
    name: 'member list',
    description: "List a store's members: the owner first, then staff by when they joined.",
    options: [requiredFlag('--store <store>', STORE_REF)],
    examples: [`npm run cli -- member list --store "Ana's"`],
    run: async (f) => (await listMembers((await findStore(f.store)).id)).map(memberView),
  }),
];
