/** CLI commands for categories. */

import { findStore } from '../../access/services/stores';
import { STORE_REF } from '../../access/cli/stores';
import { type CliCommand, defineCommand, optionalFlag, requiredFlag, UsageError } from '../../api/cli/command';
import { createCategory, deleteCategory, listCategories, updateCategory } from '../services/categories';
import { categoryView } from '../services/views';

export const categoryCommands: CliCommand[] = [
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
];
