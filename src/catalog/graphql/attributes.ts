/** GraphQL types and operations for attributes and product types. */

import * as attributes from '../services/attributes';
import * as productTypes from '../services/productTypes';
import { ATTRIBUTE_TYPES, REFERENCE_TYPES } from '../services/attributeValues';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { PageMeta, pageMeta } from './products';

const AttributeTypeEnum = builder.enumType('AttributeType', { values: ATTRIBUTE_TYPES });
const ReferenceTypeEnum = builder.enumType('AttributeReferenceType', { values: REFERENCE_TYPES, description: 'What a reference attribute points at' });

const AttributeValue = builder.simpleObject('AttributeValue', {
  fields: (t) => ({
    value: t.string({ description: 'The key products hold (and filter URLs name)' }),
    name: t.string(),
    hex: t.string({ nullable: true, description: 'Swatch colour, #rrggbb' }),
  }),
});

builder.prismaObject('Attribute', {
  fields: (t) => ({
    id: t.exposeID('id'),
    code: t.exposeString('code', { description: 'The key of product and variant attribute values; never changes' }),
    name: t.exposeString('name'),
    type: t.expose('type', { type: AttributeTypeEnum }),
    unit: t.exposeString('unit', { nullable: true, description: 'numeric only' }),
    values: t.field({
      type: [AttributeValue],
      description: 'dropdown, multiselect and swatch: the allowed values in order; empty otherwise',
      select: { values: true },
      resolve: (a) => (a.values as { value: string; name: string; hex?: string }[]).map((v) => ({ value: v.value, name: v.name, hex: v.hex ?? null })),
    }),
    referenceType: t.expose('referenceType', { type: ReferenceTypeEnum, nullable: true, description: 'reference only' }),
    filterable: t.exposeBoolean('filterable', { description: 'Whether lists filter and facet by it' }),
    public: t.exposeBoolean('public', { description: 'Whether the public API shows its values' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    version: t.exposeInt('version'),
  }),
});

type Assignment = { attributeId: string; level: string; required: boolean; attribute: { code: string } };

const ProductTypeAttribute = builder.objectRef<Assignment>('ProductTypeAttribute').implement({
  fields: (t) => ({
    attributeId: t.id({ resolve: (a) => a.attributeId }),
    code: t.string({ resolve: (a) => a.attribute.code }),
    required: t.boolean({ resolve: (a) => a.required }),
  }),
});

const ASSIGNMENTS = { attributes: { orderBy: { position: 'asc' }, include: { attribute: { select: { code: true } } } } } as const;

builder.prismaObject('ProductType', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    productAttributes: t.field({
      type: [ProductTypeAttribute],
      description: 'The attributes of the product itself, in order',
      select: ASSIGNMENTS,
      resolve: (p) => p.attributes.filter((a) => a.level === 'product'),
    }),
    variantAttributes: t.field({
      type: [ProductTypeAttribute],
      description: 'The attributes of each variant, in order',
      select: ASSIGNMENTS,
      resolve: (p) => p.attributes.filter((a) => a.level === 'variant'),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    version: t.exposeInt('version'),
  }),
});

const AttributePage = builder.objectRef<{ ids: string[]; meta: ReturnType<typeof pageMeta> }>('AttributePage');
const ProductTypePage = builder.objectRef<{ ids: string[]; meta: ReturnType<typeof pageMeta> }>('ProductTypePage');

AttributePage.implement({
  fields: (t) => ({
    items: t.prismaField({
      type: ['Attribute'],
      resolve: (query, page, _args, ctx) => ctx.db.attribute.findMany({ ...query, where: { id: { in: page.ids } }, orderBy: { code: 'asc' } }),
    }),
    meta: t.field({ type: PageMeta, resolve: (p) => p.meta }),
  }),
});
ProductTypePage.implement({
  fields: (t) => ({
    items: t.prismaField({
      type: ['ProductType'],
      resolve: (query, page, _args, ctx) => ctx.db.productType.findMany({ ...query, where: { id: { in: page.ids } }, orderBy: { name: 'asc' } }),
    }),
    meta: t.field({ type: PageMeta, resolve: (p) => p.meta }),
  }),
});

const page = (r: { rows: { id: string }[]; page: number; perPage: number; total: number }) => ({
  ids: r.rows.map((x) => x.id),
  meta: pageMeta({ ids: [], page: r.page, perPage: r.perPage, total: r.total, totalExact: true, hasMore: r.page * r.perPage < r.total }),
});

builder.queryFields((t) => ({
  attributes: t.field({
    type: AttributePage,
    description: "A page of the store's attributes, by code.",
    args: { storeId: t.arg.id({ required: true }), page: t.arg.int(), perPage: t.arg.int() },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx) => page(await attributes.listAttributes(ctx, args.storeId, { page: args.page ?? undefined, perPage: args.perPage ?? undefined })),
  }),
  attribute: t.prismaField({
    type: 'Attribute',
    description: 'One attribute of the store, by id or code.',
    args: { storeId: t.arg.id({ required: true }), attribute: t.arg.string({ required: true, description: 'Its id or code' }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (query, _root, args, ctx) => {
      const { id } = await attributes.findAttribute(ctx, args.storeId, args.attribute);
      return ctx.db.attribute.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  productTypes: t.field({
    type: ProductTypePage,
    description: "A page of the store's product types, by name.",
    args: { storeId: t.arg.id({ required: true }), page: t.arg.int(), perPage: t.arg.int() },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx) => page(await productTypes.listProductTypes(ctx, args.storeId, { page: args.page ?? undefined, perPage: args.perPage ?? undefined })),
  }),
  productType: t.prismaField({
    type: 'ProductType',
    description: 'One product type of the store, by id or name.',
    args: { storeId: t.arg.id({ required: true }), productType: t.arg.string({ required: true, description: 'Its id or name' }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (query, _root, args, ctx) => {
      const { id } = await productTypes.findProductType(ctx, args.storeId, args.productType);
      return ctx.db.productType.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));

const AttributeValueInput = builder.inputType('AttributeValueInput', {
  fields: (t) => ({
    value: t.string({ required: true, description: 'Lower-case letters, digits and single hyphens or underscores, at most 64 characters; unique in the attribute' }),
    name: t.string({ required: true, description: '1-255 characters' }),
    hex: t.string({ description: 'swatch only (and required there): #rrggbb' }),
  }),
});

const ATTRIBUTE_FIELD_DOCS = {
  unit: 'numeric only, e.g. "cm"; at most 32 characters',
  values: 'Required (at least one) for dropdown, multiselect and swatch; not allowed otherwise',
  referenceType: 'Required for reference; not allowed otherwise',
};

/** GraphQL's absent and null for an input object: the service takes undefined as "not sent". */
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null)) as { [K in keyof T]: Exclude<T[K], null> };
const valuesOf = (values: { value: string; name: string; hex?: string | null }[] | null | undefined) => values?.map((v) => defined(v));

const AttributeCreateInput = builder.inputType('AttributeCreateInput', {
  extensions: inputRules((v) => fieldErrorsOf(attributes.AttributeCreateInput, { ...defined(v), values: valuesOf(v.values as Parameters<typeof valuesOf>[0]) })),
  fields: (t) => ({
    code: t.string({ required: true, description: 'Lower-case: ^[a-z][a-z0-9_]{0,63}$; unique in the store; never changes (it is the key in product values and filter URLs)' }),
    name: t.string({ required: true }),
    type: t.field({ type: AttributeTypeEnum, required: true, description: 'Never changes' }),
    unit: t.string({ description: ATTRIBUTE_FIELD_DOCS.unit }),
    values: t.field({ type: [AttributeValueInput], description: ATTRIBUTE_FIELD_DOCS.values }),
    referenceType: t.field({ type: ReferenceTypeEnum, description: ATTRIBUTE_FIELD_DOCS.referenceType }),
    filterable: t.boolean({ description: 'Default false' }),
    public: t.boolean({ description: 'Default false' }),
  }),
});

const AttributeUpdateInput = builder.inputType('AttributeUpdateInput', {
  fields: (t) => ({
    code: t.string({ description: 'Accepted only unchanged (immutable)' }),
    type: t.string({ description: 'Accepted only unchanged (immutable)' }),
    name: t.string(),
    unit: t.string({ description: `${ATTRIBUTE_FIELD_DOCS.unit}; null removes it` }),
    values: t.field({ type: [AttributeValueInput], description: `${ATTRIBUTE_FIELD_DOCS.values}. Replaces the list: removing a value products hold is attribute_value_in_use (409)` }),
    referenceType: t.field({ type: ReferenceTypeEnum }),
    filterable: t.boolean(),
    public: t.boolean(),
  }),
});

const ProductTypeAttributeInput = builder.inputType('ProductTypeAttributeInput', {
  fields: (t) => ({
    attributeId: t.id({ description: 'The attribute by id (or give code)' }),
    code: t.string({ description: 'The attribute by code (or give attributeId)' }),
    required: t.boolean({ description: 'Default false' }),
    defaultValue: t.field({
      type: 'JSON',
      description: "A value set on the type's products (or variants) that lack one when the write makes the attribute required; without it such a write is attribute_values_missing (409)",
    }),
  }),
});

const ProductTypeInput = builder.inputType('ProductTypeInput', {
  fields: (t) => ({
    name: t.string({ description: '1-255 characters, unique in the store; required on create' }),
    productAttributes: t.field({ type: [ProductTypeAttributeInput], description: "The product's attributes in order; on update, replaces the list (values of removed attributes are dropped from the type's products)" }),
    variantAttributes: t.field({ type: [ProductTypeAttributeInput], description: "Each variant's attributes in order; on update, replaces the list" }),
  }),
});

type AssignmentInput = { attributeId?: string | null; code?: string | null; required?: boolean | null; defaultValue?: unknown };
const assignments = (list: AssignmentInput[] | null | undefined) => list?.map((a) => ({ ...defined({ attributeId: a.attributeId, code: a.code, required: a.required }), defaultValue: a.defaultValue ?? undefined }));

const DeletedAttribute = builder.simpleObject('DeletedAttribute', { fields: (t) => ({ id: t.id(), code: t.string() }) });
const DeletedProductType = builder.simpleObject('DeletedProductType', { fields: (t) => ({ id: t.id(), name: t.string() }) });

builder.mutationFields((t) => ({
  createAttribute: t.prismaField({
    type: 'Attribute',
    description: 'Creates an attribute of the store. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), input: t.arg({ type: AttributeCreateInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: async (query, _root, { storeId, input }, ctx) => {
      const { id } = await attributes.createAttribute(ctx, storeId, { ...defined(input), values: valuesOf(input.values), unit: input.unit ?? undefined, referenceType: input.referenceType ?? undefined });
      return ctx.db.attribute.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateAttribute: t.prismaField({
    type: 'Attribute',
    description: 'Changes an attribute (by id or code): name, unit, values, referenceType, filterable, public; code and type never change. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), attribute: t.arg.string({ required: true, description: 'Its id or code' }), input: t.arg({ type: AttributeUpdateInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: async (query, _root, { storeId, attribute, input }, ctx) => {
      // null clears unit and referenceType; for the other fields it means "keep".
      const { unit, referenceType, ...rest } = input;
      const { id } = await attributes.updateAttribute(ctx, storeId, attribute, { ...defined(rest), values: valuesOf(rest.values), ...('unit' in input ? { unit } : {}), ...('referenceType' in input ? { referenceType } : {}) });
      const updated = await ctx.db.attribute.findUnique({ ...query, where: { id } });
      if (!updated) throw attributes.attributeNotFound(attribute);
      return updated;
    },
  }),
  deleteAttribute: t.field({
    type: DeletedAttribute,
    description: 'Deletes an attribute no product type applies (else attribute_in_use, 409). Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), attribute: t.arg.string({ required: true, description: 'Its id or code' }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, { storeId, attribute }, ctx) => attributes.deleteAttribute(ctx, storeId, attribute),
  }),
  createProductType: t.prismaField({
    type: 'ProductType',
    description: 'Creates a product type of the store. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), input: t.arg({ type: ProductTypeInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: async (query, _root, { storeId, input }, ctx) => {
      const { id } = await productTypes.createProductType(ctx, storeId, {
        // Left out, the name is the service's 422 `required`, with the lists' own errors.
        name: (input.name ?? undefined) as string,
        productAttributes: assignments(input.productAttributes),
        variantAttributes: assignments(input.variantAttributes),
      });
      return ctx.db.productType.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateProductType: t.prismaField({
    type: 'ProductType',
    description:
      "Renames a product type or replaces its attribute lists (by id or name). Values of removed attributes are dropped from the type's products; a newly required attribute needs a default while products lack it (else attribute_values_missing, 409). Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }), productType: t.arg.string({ required: true, description: 'Its id or name' }), input: t.arg({ type: ProductTypeInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: async (query, _root, { storeId, productType, input }, ctx) => {
      const { id } = await productTypes.updateProductType(ctx, storeId, productType, {
        name: input.name ?? undefined,
        productAttributes: assignments(input.productAttributes),
        variantAttributes: assignments(input.variantAttributes),
      });
      const updated = await ctx.db.productType.findUnique({ ...query, where: { id } });
      if (!updated) throw productTypes.productTypeNotFound(productType);
      return updated;
    },
  }),
  deleteProductType: t.field({
    type: DeletedProductType,
    description: 'Deletes a product type no product has (else product_type_in_use, 409). Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), productType: t.arg.string({ required: true, description: 'Its id or name' }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, { storeId, productType }, ctx) => productTypes.deleteProductType(ctx, storeId, productType),
  }),
}));
