import { type Permission, PERMISSIONS } from '../domain/access';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../services/categories';
import { addMember, createStore, findStore, findUser, listMembers, listStores, removeMember } from '../services/stores';
import { type CliCommand, defineCommand, listFlag, optionalFlag, requiredFlag, UsageError } from './command';
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
    run: async (f, ctx) => storeView(await createStore(ctx, { name: f.name, currency: f.currency, ownerId: (await findUser(ctx, f.owner)).id })),
  }),
  defineCommand<{ owner?: string }>({
    name: 'store list',
    description: 'List stores, oldest first.',
    options: [optionalFlag('--owner <user>', "only this user's stores: a user id or email")],
    examples: ['npm run cli -- store list', 'npm run cli -- store list --owner ana@example.com'],
    run: async (f, ctx) => (await listStores(ctx, { ownerId: f.owner === undefined ? undefined : (await findUser(ctx, f.owner)).id })).map(storeView),
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
    run: async (f, ctx) => categoryView(await createCategory(ctx, { storeId: (await findStore(ctx, f.store)).id, slug: f.slug, name: f.name })),
  }),
  defineCommand<{ store: string }>({
    name: 'category list',
    description: "List a store's categories by slug.",
    options: [requiredFlag('--store <store>', STORE_REF)],
    examples: [`npm run cli -- category list --store "Ana's"`],
    run: async (f, ctx) => (await listCategories(ctx, (await findStore(ctx, f.store)).id)).map(categoryView),
  }),
  defineCommand<{ store: string; category: string; name?: string; slug?: string }>({
    name: 'category update',
    description: "Rename a category or change its slug. Products name their categories by slug, so they show the new slug at once.",
    options: [
      requiredFlag('--store <store>', STORE_REF),
      requiredFlag('--category <slug or id>', 'the category: its slug (any case) or id'),
      optionalFlag('--name <name>', 'new display name (1-255 characters)'),
      optionalFlag('--slug <slug>', 'new slug: lowercase letters, digits and single hyphens'),
    ],
    examples: [`npm run cli -- category update --store "Ana's" --category shoes --name "Running shoes" --slug running-shoes`],
    check: (f) => {
      if (f.name === undefined && f.slug === undefined) throw new UsageError('give --name, --slug or both');
    },
    run: async (f, ctx) => categoryView(await updateCategory(ctx, (await findStore(ctx, f.store)).id, f.category, { name: f.name, slug: f.slug })),
  }),
  defineCommand<{ store: string; category: string }>({
    name: 'category delete',
    description: 'Delete a category no product uses (one in use: error category_in_use, nothing is deleted).',
    options: [requiredFlag('--store <store>', STORE_REF), requiredFlag('--category <slug or id>', 'the category: its slug (any case) or id')],
    examples: [`npm run cli -- category delete --store "Ana's" --category hats`],
    run: async (f, ctx) => categoryView(await deleteCategory(ctx, (await findStore(ctx, f.store)).id, f.category)),
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
