/** GraphQL operations for categories. */

import { categoryNotFound, createCategory, deleteCategory, UpdateCategory, updateCategory } from '../services/categories';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';

// Its rules are the update's (each field's own); a create also needs both fields, which the service then says.
const CategoryInput = builder.inputType('CategoryInput', {
  extensions: inputRules((v) => fieldErrorsOf(UpdateCategory, { slug: v.slug ?? undefined, name: v.name ?? undefined })),
  fields: (t) => ({
    slug: t.string({ description: 'Lowercase letters, digits and single hyphens, at most 128 characters; unique in the store whatever its case' }),
    name: t.string({ description: '1-255 characters' }),
  }),
});

const DeletedCategory = builder.simpleObject('DeletedCategory', { fields: (t) => ({ id: t.id(), slug: t.string() }) });

builder.mutationFields((t) => ({
  createCategory: t.prismaField({
    type: 'Category',
    description: 'Creates a category of the store (slug and name required). Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), input: t.arg({ type: CategoryInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: async (query, _root, { storeId, input }, ctx) => {
      const { id } = await createCategory(ctx, { storeId, slug: input.slug ?? '', name: input.name ?? '' });
      return ctx.db.category.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateCategory: t.prismaField({
    type: 'Category',
    description: "Renames a category or changes its slug (by id or slug); products show the new slug at once. Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }), category: t.arg.string({ required: true, description: 'Its id or slug' }), input: t.arg({ type: CategoryInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: async (query, _root, { storeId, category, input }, ctx) => {
      const { id } = await updateCategory(ctx, storeId, category, { slug: input.slug ?? undefined, name: input.name ?? undefined });
      // A delete may commit between the update and this read: the category is gone, as a read would say.
      const updated = await ctx.db.category.findUnique({ ...query, where: { id } });
      if (!updated) throw categoryNotFound(category);
      return updated;
    },
  }),
  deleteCategory: t.field({
    type: DeletedCategory,
    description: 'Deletes a category no product uses (else category_in_use, 409). Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), category: t.arg.string({ required: true, description: 'Its id or slug' }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, { storeId, category }, ctx) => deleteCategory(ctx, storeId, category),
  }),
}));
