/** GraphQL type and operations for product variants: list and replace. */

import { listVariants, replaceVariants, VariantInput as VariantRules } from '../services/variants';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';

builder.prismaObject('Variant', {
  fields: (t) => ({
    id: t.exposeID('id'),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    options: t.expose('options', { type: 'JSON', description: 'Option name to value, e.g. {"Color": "Red", "Size": "M"}' }),
    price: t.expose('price', { type: 'Decimal', nullable: true, description: "Overrides the product's price; null: the product's price applies" }),
    inventoryQuantity: t.exposeInt('inventoryQuantity'),
    position: t.exposeInt('position'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Product', 'variants', (t) =>
  t.relation('variants', { query: { orderBy: [{ position: 'asc' }, { sku: 'asc' }] }, description: 'Ordered by position' }),
);

const VariantInput = builder.inputType('VariantInput', {
  extensions: inputRules((v) => fieldErrorsOf(VariantRules, defined(v))),
  fields: (t) => ({
    sku: t.string({ required: true, description: 'Unique within the store' }),
    title: t.string(),
    options: t.field({ type: 'JSON', description: 'Option name to value (strings); the combination is unique per product' }),
    price: t.field({ type: 'Decimal', description: "Omit or null to use the product's price" }),
    inventoryQuantity: t.int(),
    position: t.int({ description: 'Defaults to the index in the list' }),
  }),
});

/** GraphQL null means "not sent". */
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null));

builder.queryField('productVariants', (t) =>
  t.prismaField({
    type: ['Variant'],
    description: 'The variants of a product, ordered by position.',
    args: { storeId: t.arg.id({ required: true }), productId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => listVariants(inCatalogMode(ctx, args.mode), args.storeId, args.productId, query),
  }),
);

builder.mutationField('replaceProductVariants', (t) =>
  t.prismaField({
    type: ['Variant'],
    description: 'Replaces the whole variant set of a product in one transaction (an empty list removes all). Variants keep their id when their SKU stays.',
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      productId: t.arg.id({ required: true }),
      variants: t.arg({ type: [VariantInput], required: true }),
      expectedVersion: t.arg.int({ description: 'The product version you read: when the product has changed since, precondition_failed and nothing is written (as updateProduct).' }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) =>
      replaceVariants(inCatalogMode(ctx, args.mode), args.storeId, args.productId, args.variants.map(defined), query, { expectedVersion: args.expectedVersion }),
  }),
);
