/** GraphQL for product options: Product.options and setProductOptions. */

import { productWrite } from '../services/stagedChanges';
import { APPLY_TO_ARG_DOC, STAGED_ARG_DOC, StagedApplyTo, writeTarget } from './stagedArgs';
import { OptionInput as OptionRules, setProductOptions } from '../services/options';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';
import type { ProductOption as ProductOptionShape } from '../services/options';

export const ProductOption = builder.objectRef<ProductOptionShape>('ProductOption').implement({
  description: 'One of the options that define a product\'s variants (Size, Color), with its values in order.',
  fields: (t) => ({
    name: t.exposeString('name'),
    values: t.exposeStringList('values'),
  }),
});

builder.prismaObjectField('Product', 'options', (t) =>
  t.field({
    type: [ProductOption],
    select: { options: true },
    description: 'The options that define the variants, in order: each variant names exactly one value of each',
    resolve: (p) => (Array.isArray(p.options) ? (p.options as unknown as ProductOptionShape[]) : []),
  }),
);

/** GraphQL null means "not sent". */
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null));

export const ProductOptionInput = builder.inputType('ProductOptionInput', {
  extensions: inputRules((v) => fieldErrorsOf(OptionRules, defined(v))),
  fields: (t) => ({
    name: t.string({ required: true, description: 'Unique per product without case; a change of case alone renames the option' }),
    values: t.stringList({ required: true, description: 'In order; unique without case; at least one' }),
    renamedFrom: t.string({ description: "The option's current name, when this entry renames it (its variants follow)" }),
    renamedValues: t.field({ type: 'JSON', description: 'Current value to new value ({"Red": "Crimson"}), for values this entry renames; the new ones must be in `values`' }),
  }),
});

builder.mutationField('setProductOptions', (t) =>
  t.prismaField({
    type: 'Product',
    description:
      "Sets a product's options. Renames (renamedFrom, renamedValues, or a change of case) are carried to its variants in the same write; an added option gives existing variants its first value. Variants left without a value, or sharing a combination once an option is removed, are options_in_use unless deleteVariants deletes them.",
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      productId: t.arg.id({ required: true }),
      options: t.arg({ type: [ProductOptionInput], required: true, description: 'The whole list, in order (an empty list removes every option)' }),
      deleteVariants: t.arg.boolean({ description: 'Delete the variants the change leaves without a value or with a duplicate combination (the first by position stays)' }),
      expectedVersion: t.arg.int({ description: 'The product version you read: when the product has changed since, precondition_failed and nothing is written' }),
      staged: t.arg.boolean({ description: `${STAGED_ARG_DOC} Not with deleteVariants (variants are deleted from the current product only).` }),
      applyTo: t.arg({ type: StagedApplyTo, description: APPLY_TO_ARG_DOC }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) =>
      productWrite(
        inCatalogMode(ctx, args.mode),
        args.storeId,
        args.productId,
        writeTarget(args),
        { unstageable: args.deleteVariants ? ['deleteVariants'] : [], touchesStaged: true },
        (t, checkVersion) =>
          setProductOptions(t, args.storeId, args.productId, args.options.map(defined), { deleteVariants: args.deleteVariants, expectedVersion: checkVersion ? args.expectedVersion : null }, query),
      ),
  }),
);
