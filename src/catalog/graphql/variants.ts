/** GraphQL type and operations for product variants: list, replace, update by id, generate. */

import { productWrite } from '../services/stagedChanges';
import { STAGEABLE_VARIANT_FIELDS } from '../services/stagedContent';
import { APPLY_TO_ARG_DOC, inputCheck, STAGED_ARG_DOC, StagedApplyTo, writeTarget } from './stagedArgs';
import type { ArgBuilder, InputFieldBuilder, SchemaTypes } from '@pothos/core';
import { allows } from '../../access/auth/authorization';
import {
  generateVariants,
  listVariants,
  replaceVariants,
  updateVariants,
  VariantInput as VariantRules,
  VariantPatchInput as VariantPatchRules,
  WEIGHT_UNITS,
} from '../services/variants';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';
import { PriceInput, pricesField } from './prices';

type SchemaTypesOf<B> = B extends PothosSchemaTypes.SchemaBuilder<infer T extends SchemaTypes> ? T : never;

const WeightUnit = builder.enumType('WeightUnit', { values: WEIGHT_UNITS });

export const VariantWeight = builder.objectRef<{ value: number; unit: (typeof WEIGHT_UNITS)[number] }>('VariantWeight').implement({
  fields: (t) => ({ value: t.exposeFloat('value', { description: 'Greater than 0, at most 3 decimals' }), unit: t.expose('unit', { type: WeightUnit }) }),
});

/** A variant's weight from its two columns (null when it has none): the merchant and the storefront variant alike. */
export const variantWeight = (v: { weightValue: { toString(): string } | null; weightUnit: string | null }) =>
  v.weightValue == null || v.weightUnit == null ? null : { value: Number(v.weightValue), unit: v.weightUnit as (typeof WEIGHT_UNITS)[number] };

builder.prismaObject('Variant', {
  fields: (t) => ({
    id: t.exposeID('id'),
    sku: t.exposeString('sku'),
    title: t.exposeString('title'),
    options: t.expose('options', { type: 'JSON', description: "Option name to value, one of each of the product's options, e.g. {\"Color\": \"Red\", \"Size\": \"M\"}" }),
    price: t.expose('price', { type: 'Decimal', nullable: true, description: "Overrides the product's price; null: the product's price applies" }),
    compareAtPrice: t.expose('compareAtPrice', { type: 'Decimal', nullable: true, description: 'The "was" price: above the price the variant sells at when set' }),
    prices: pricesField(t),
    cost: t.field({
      type: 'Decimal',
      nullable: true,
      select: { cost: true, storeId: true },
      description: "What the merchant pays for the variant. Only the store's staff with manage_products see it; null for anyone else.",
      resolve: (v, _args, ctx) => (allows(ctx.principal, 'readCost', v.storeId) ? v.cost : null),
    }),
    inventoryQuantity: t.exposeInt('inventoryQuantity'),
    position: t.exposeInt('position'),
    barcode: t.exposeString('barcode', { nullable: true, description: 'GTIN-8, -12, -13 or -14' }),
    weight: t.field({
      type: VariantWeight,
      nullable: true,
      select: { weightValue: true, weightUnit: true },
      resolve: variantWeight,
    }),
    imageId: t.exposeID('imageId', { nullable: true, description: "One of the product's images; cleared when that image is deleted" }),
    attributes: t.expose('attributes', { type: 'JSON', description: 'Variant attribute values by attribute code' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Product', 'variants', (t) =>
  t.relation('variants', { query: { orderBy: [{ position: 'asc' }, { sku: 'asc' }] }, description: 'Ordered by position' }),
);

const WeightInput = builder.inputType('WeightInput', {
  fields: (t) => ({ value: t.float({ required: true, description: 'Greater than 0, at most 3 decimals' }), unit: t.field({ type: WeightUnit, required: true }) }),
});

/** The writable fields of a variant, shared by the replace and the update inputs. */
const variantFields = (t: InputFieldBuilder<SchemaTypesOf<typeof builder>, 'InputObject'>) => ({
  title: t.string(),
  options: t.field({ type: 'JSON', description: "Option name to value (strings): one value of each of the product's options; the combination is unique per product" }),
  price: t.field({ type: 'Decimal', description: "null: the product's price" }),
  prices: t.field({
    type: [PriceInput],
    description: "Prices in the store's further currencies: the list sent replaces the variant's ([] removes them); none in a currency: the product's price there applies",
  }),
  inventoryQuantity: t.int(),
  position: t.int(),
  barcode: t.string({ description: 'GTIN-8, -12, -13 or -14 with a valid check digit (invalid_barcode)' }),
  compareAtPrice: t.field({ type: 'Decimal', description: 'Above the price the variant sells at, its own or else the product\'s (compare_at_price_not_above_price)' }),
  cost: t.field({ type: 'Decimal', description: 'What the merchant pays; shown only to staff with manage_products' }),
  weight: t.field({ type: WeightInput }),
  imageId: t.id({ description: "One of the product's own images (unknown_image)" }),
  attributes: t.field({ type: 'JSON', description: 'Variant attribute values by attribute code (an object)' }),
});

export const VariantInput = builder.inputType('VariantInput', {
  extensions: inputRules((v) => fieldErrorsOf(VariantRules, defined(v))),
  fields: (t) => ({
    sku: t.string({ required: true, description: 'Unique within the store' }),
    ...variantFields(t),
    position: t.int({ description: 'Defaults to the index in the list' }),
  }),
});

const VariantPatchInput = builder.inputType('VariantPatchInput', {
  extensions: inputRules((v) => fieldErrorsOf(VariantPatchRules, v)),
  description: 'A variant to change, by id: fields left out are kept; null clears price, barcode, compareAtPrice, cost, weight and imageId (and is refused elsewhere).',
  fields: (t) => ({
    id: t.id({ required: true }),
    sku: t.string({ description: 'Unique within the store' }),
    ...variantFields(t),
  }),
});

const GenerateVariantsInput = builder.inputType('GenerateVariantsInput', {
  fields: (t) => ({
    price: t.field({ type: 'Decimal', description: "Price of each new variant; default null: the product's price" }),
    inventoryQuantity: t.int({ description: 'Inventory of each new variant; default 0' }),
    skuPattern: t.string({
      description:
        'SKU of each new variant: {product} (the product id up to its first hyphen, in capitals), {position}, and {<option name>} (its value; names without case). Default: {product}-{<first option>}-{<second option>}…',
    }),
    attributes: t.field({ type: 'JSON', description: 'Variant attribute values by attribute code that every new variant gets; needed when the product type requires values of variants' }),
  }),
});

/** GraphQL null means "not sent". */
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null));

const productArgs = (t: ArgBuilder<SchemaTypesOf<typeof builder>>) => ({
  storeId: t.id({ required: true }),
  mode: t({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
  productId: t.id({ required: true }),
  expectedVersion: t.int({ description: 'The product version you read: when the product has changed since, precondition_failed and nothing is written (as updateProduct).' }),
});

builder.queryField('productVariants', (t) =>
  t.prismaField({
    type: ['Variant'],
    description: 'The variants of a product, ordered by position.',
    args: { storeId: t.arg.id({ required: true }), productId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => listVariants(inCatalogMode(ctx, args.mode), args.storeId, args.productId, query),
  }),
);

builder.mutationFields((t) => ({
  replaceProductVariants: t.prismaField({
    type: ['Variant'],
    description:
      "Replaces the whole variant set of a product in one transaction (an empty list removes all). Variants keep their id when their SKU stays. Option names and values the product does not have yet are added to its options; every variant names one value of each option.",
    args: { ...productArgs(t.arg), variants: t.arg({ type: [VariantInput], required: true }), applyTo: t.arg({ type: StagedApplyTo, description: APPLY_TO_ARG_DOC }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    // Never staged (the set's variants are new), but it changes the variants a staged version holds: the 409 rule applies.
    resolve: (query, _root, args, ctx) =>
      productWrite(inCatalogMode(ctx, args.mode), args.storeId, args.productId, writeTarget(args), { unstageable: [], touchesStaged: true }, (t, checkVersion) =>
        replaceVariants(t, args.storeId, args.productId, args.variants.map(defined), query, { expectedVersion: checkVersion ? args.expectedVersion : null }),
      ),
  }),
  updateProductVariants: t.prismaField({
    type: ['Variant'],
    description:
      'Updates many variants of a product by id in one write (one version, one product.variants_updated event): fields left out are kept. Every error of every item at once. Answers the named variants in the order named.',
    args: {
      ...productArgs(t.arg),
      variants: t.arg({ type: [VariantPatchInput], required: true }),
      staged: t.arg.boolean({ description: `${STAGED_ARG_DOC} SKU, inventory and cost are never staged.` }),
      applyTo: t.arg({ type: StagedApplyTo, description: APPLY_TO_ARG_DOC }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    // Nulls go through: null clears a nullable field and is refused for the others.
    resolve: (query, _root, args, ctx) => {
      const checks = args.variants.map((v, i) => inputCheck(v, STAGEABLE_VARIANT_FIELDS, `variants.${i}.`));
      const check = { unstageable: checks.flatMap((c) => c.unstageable), touchesStaged: checks.some((c) => c.touchesStaged) };
      return productWrite(inCatalogMode(ctx, args.mode), args.storeId, args.productId, writeTarget(args), check, (t, checkVersion) =>
        updateVariants(t, args.storeId, args.productId, args.variants, query, { expectedVersion: checkVersion ? args.expectedVersion : null }),
      );
    },
  }),
  generateProductVariants: t.prismaField({
    type: ['Variant'],
    description:
      "Creates every combination of the product's options that no variant has yet, in one write, after the existing variants; answers the created variants. Over the variants-per-product limit: limit_exceeded; a generated SKU already used in the store: sku_taken; nothing is written then.",
    args: { ...productArgs(t.arg), input: t.arg({ type: GenerateVariantsInput }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) =>
      generateVariants(inCatalogMode(ctx, args.mode), args.storeId, args.productId, defined(args.input ?? {}), query, { expectedVersion: args.expectedVersion }),
  }),
}));
