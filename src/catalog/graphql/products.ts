/** GraphQL types and operations for products: the Product type, the product list, and product writes. */

import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { GraphQLContext } from '../../api/graphql/builder';
import * as products from '../services/products';
import { listProductIds, listProductIdsAfter, type PageResult, PRODUCT_SORTS, productsByIds, type ProductFilter, type ProductSort } from '../services/productList';
import type { Facet } from '../services/attributeFilters';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';
import { ProductOptionInput } from './options';
import { VariantInput } from './variants';
import { createProduct } from '../services/productCreate';
import { PRODUCT_VIEW_INCLUDE, productTranslationsView } from '../services/views';
import { PRICES_INPUT_DESCRIPTION, PriceInput, pricesArg, pricesField } from './prices';
import { productWrite } from '../services/stagedChanges';
import { STAGEABLE_PRODUCT_FIELDS } from '../services/stagedContent';
import { APPLY_TO_ARG_DOC, inputCheck, STAGED_ARG_DOC, StagedApplyTo, writeTarget } from './stagedArgs';

export const ProductStatus = builder.enumType('ProductStatus', { values: products.PRODUCT_STATUSES });
/** GraphQL name of a sort: `-price` is PRICE_DESC. REST maps its `sort` parameter through this too. */
export const productSortEnumName = (s: ProductSort) => (s.startsWith('-') ? `${s.slice(1).toUpperCase()}_DESC` : `${s.toUpperCase()}_ASC`);
const ProductSort = builder.enumType('ProductSort', {
  values: Object.fromEntries(PRODUCT_SORTS.map((s) => [productSortEnumName(s), { value: s }])),
});

export const Product = builder.prismaObject('Product', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    price: t.expose('price', { type: 'Decimal' }),
    currency: t.string({ select: { store: { select: { currency: true } } }, resolve: (p) => p.store.currency }),
    prices: pricesField(t),
    inventoryQuantity: t.exposeInt('inventoryQuantity'),
    lowStockThreshold: t.exposeInt('lowStockThreshold'),
    status: t.expose('status', { type: ProductStatus }),
    isActive: t.boolean({ select: { status: true }, resolve: (p) => p.status === 'active' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    publishAt: t.expose('publishAt', { type: 'DateTime', nullable: true, description: 'When the product is scheduled to be published (status active); null: not scheduled' }),
    unpublishAt: t.expose('unpublishAt', { type: 'DateTime', nullable: true, description: 'When the product is scheduled to be unpublished (status draft); null: not scheduled' }),
    tags: t.exposeStringList('tags'),
    categorySlugs: t.stringList({
      select: { categories: { select: { category: { select: { slug: true } } } } },
      resolve: (p) => p.categories.map((c) => c.category.slug).sort(),
    }),
    productTypeId: t.exposeID('productTypeId', { nullable: true }),
    productType: t.relation('productType', { nullable: true }),
    attributes: t.expose('attributes', { type: 'JSON', description: 'Attribute values by code ({"material": "cotton"}), checked against the product type; encodings in docs/attributes.md' }),
    variantsCount: t.relationCount('variants'),
    hasStagedChanges: t.exposeBoolean('hasStagedChanges', { description: 'Whether the product has a staged version that differs from this, the current one (stagedProduct reads it; docs/staged-changes.md)' }),
    version: t.exposeInt('version'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    translations: t.field({
      type: 'JSON',
      description:
        'Translations by locale: {"de": {name, description, seo {title, description, slug}, options, attributes, outdated, outdated_fields, updated_at}}; docs/locales-and-currencies.md',
      select: { translations: PRODUCT_VIEW_INCLUDE.translations },
      resolve: (p) => productTranslationsView(p.translations),
    }),
  }),
});

export const AttributeFilterInput = builder.inputType('AttributeFilter', {
  description:
    'Products with a matching value of the attribute, on themselves or on any of their variants. Errors name the attribute as REST does: attributes[code], attributes[code][gte].',
  fields: (t) => ({
    code: t.string({ required: true, description: 'The attribute code; the attribute must be filterable' }),
    values: t.stringList({ description: 'Any of these values (dropdown, multiselect and swatch: value keys; boolean: true or false; numbers and dates as text)' }),
    gte: t.string({ description: 'Lower bound, inclusive (numeric, date, date_time)' }),
    lte: t.string({ description: 'Upper bound, inclusive (numeric, date, date_time)' }),
  }),
});

const ProductFacetValue = builder.simpleObject('ProductFacetValue', {
  fields: (t) => ({
    value: t.string({ description: 'What the attribute filter takes to select it' }),
    name: t.string(),
    hex: t.string({ nullable: true, description: 'A swatch value\'s colour' }),
    count: t.int({ description: 'Products matching the list\'s other filters that have this value' }),
    selected: t.boolean({ description: 'Whether the list\'s filter selects this value' }),
  }),
});

const ProductFacet = builder.objectRef<Facet>('ProductFacet').implement({
  description:
    "An attribute's values with product counts over the list's filters, its own filter left out. Value types (dropdown, multiselect, swatch, boolean, plain_text, reference) have `values`; numeric, date and date_time have `min` and `max`.",
  fields: (t) => ({
    code: t.exposeString('code'),
    name: t.exposeString('name'),
    type: t.exposeString('type'),
    unit: t.exposeString('unit', { nullable: true }),
    values: t.field({ type: [ProductFacetValue], nullable: true, resolve: (f) => f.values?.map((v) => ({ ...v, hex: v.hex ?? null })) ?? null }),
    min: t.exposeString('min', { nullable: true, description: 'Smallest value among the matching products (numeric, date, date_time; a number as text); null when none has one' }),
    max: t.exposeString('max', { nullable: true, description: 'Largest value among the matching products' }),
  }),
});

/** The `facets` field of a list page: the facets its list's `facets` argument asked for, like `meta` computed with the page. */
export const facetsField = (t: any) =>
  t.field({
    type: [ProductFacet],
    nullable: true,
    description: "The facets the list's `facets` argument names, in its order; null when it names none",
    resolve: (page: { facets?: Facet[] }) => page.facets ?? null,
  });

export const FACETS_ARG_DESCRIPTION =
  "Codes of filterable attributes (at most 10): the page's `facets` gives each one's values with product counts over this list's filter, its own filter left out";

const ProductFilter = builder.inputType('ProductFilter', {
  fields: (t) => ({
    search: t.string({
      description:
        'Case-insensitive text over name, description, tags and variant SKUs. Without `sort`, best matches first: names equal to the text, then names starting with it, then names with a later word starting with it, then any other match; newest first within each group.',
    }),
    category: t.string({ description: 'Category slug' }),
    tags: t.stringList({ description: 'A product matches if it carries any of these tags' }),
    isActive: t.boolean(),
    lowStock: t.boolean({ description: 'true: inventory_quantity <= low_stock_threshold' }),
    scheduled: t.boolean({ description: 'true: products with a pending publishAt or unpublishAt; false: products with neither' }),
    attributes: t.field({ type: [AttributeFilterInput], description: 'Every one must match' }),
    productTypes: t.idList({ description: 'Products of any of these product types' }),
  }),
});

export const PageMeta = builder.simpleObject('PageMeta', {
  fields: (t) => ({
    page: t.int(),
    perPage: t.int(),
    total: t.int({
      description:
        'Number of matches: always exact for a list filtered by status alone (or not at all); any other filter counts up to ten pages past this one, and when more match, total is that bound (see totalExact)',
    }),
    totalExact: t.boolean({ description: 'false when more than `total` match (a filtered total stops counting ten pages past this page)' }),
    totalPages: t.int({ description: 'Pages of `total`; like total, a lower bound when totalExact is false' }),
    hasMore: t.boolean({ description: 'Whether a next page exists (always exact)' }),
  }),
});

export { ProductFilter as ProductFilterInputType };

export type PageMetaShape = { page: number; perPage: number; total: number; totalExact: boolean; totalPages: number; hasMore: boolean };

/** The list envelope's meta for a page of ids. */
export function pageMeta(r: PageResult): PageMetaShape {
  return { page: r.page, perPage: r.perPage, total: r.total, totalExact: r.totalExact, totalPages: Math.ceil(r.total / r.perPage), hasMore: r.hasMore };
}

interface ProductPageShape {
  storeId: string;
  ids: string[];
  meta: PageMetaShape;
  facets?: Facet[];
}

export const ProductPage = builder.objectRef<ProductPageShape>('ProductPage').implement({
  fields: (t) => ({
    items: t.field({
      type: [Product],
      resolve: (page, _args, ctx, info) => productsByIds(ctx, page.ids, productQuery(ctx, info)),
    }),
    meta: t.field({ type: PageMeta, resolve: (p) => p.meta }),
    facets: facetsField(t),
  }),
});

/** The Prisma include/select for the Product selection at the current field, so a page loads in one statement. */
export function productQuery(ctx: GraphQLContext, info: GraphQLResolveInfo, path?: string[]) {
  const q = queryFromInfo({ context: ctx, info, typeName: 'Product', path }) as { select?: Record<string, unknown>; include?: Record<string, unknown> };
  return q.select ? { select: { ...q.select, id: true } } : q;
}

builder.queryFields((t) => ({
  products: t.field({
    type: ProductPage,
    description: 'A page of the store\'s products (active and inactive unless filtered).',
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      page: t.arg.int(),
      perPage: t.arg.int(),
      filter: t.arg({ type: ProductFilter }),
      sort: t.arg({ type: ProductSort }),
      facets: t.arg.stringList({ description: FACETS_ARG_DESCRIPTION }),
    },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx) => {
      const paging = { page: args.page ?? undefined, perPage: args.perPage ?? undefined };
      const r = await listProductIds(inCatalogMode(ctx, args.mode), args.storeId, cleanFilter(args.filter), paging, args.sort ?? undefined, { facets: args.facets ?? undefined });
      return { storeId: args.storeId, ids: r.ids, meta: pageMeta(r), facets: r.facets };
    },
  }),
  productsConnection: t.connection(
    {
      type: Product,
      description: 'The same list as `products`, as a Relay connection with keyset cursors (flat cost at any depth).',
      args: {
        storeId: t.arg.id({ required: true }),
        mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
        filter: t.arg({ type: ProductFilter }),
        sort: t.arg({ type: ProductSort }),
        facets: t.arg.stringList({ description: FACETS_ARG_DESCRIPTION }),
      },
      authScopes: (_root, args) => capability('readCatalog', args.storeId),
      resolve: async (_root, args, ctx, info) => {
        const paging = { first: args.first, after: args.after, last: args.last, before: args.before };
        const r = await listProductIdsAfter(inCatalogMode(ctx, args.mode), args.storeId, cleanFilter(args.filter), paging, args.sort ?? undefined, { facets: args.facets ?? undefined });
        const rows = await productsByIds(ctx, r.ids, productQuery(ctx, info, ['edges', 'node']));
        return {
          edges: rows.map((node, i) => ({ node, cursor: r.cursors[i] })),
          pageInfo: { hasNextPage: r.hasNextPage, hasPreviousPage: !!args.after, startCursor: r.cursors[0] ?? null, endCursor: r.cursors.at(-1) ?? null },
          facets: r.facets,
        };
      },
    },
    { fields: (t) => ({ facets: facetsField(t) }) },
  ),
  product: t.prismaField({
    type: 'Product',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => products.getProduct(inCatalogMode(ctx, args.mode), args.storeId, args.id, query),
  }),
}));

export function cleanFilter(
  f:
    | {
        search?: string | null;
        category?: string | null;
        tags?: string[] | null;
        isActive?: boolean | null;
        lowStock?: boolean | null;
        scheduled?: boolean | null;
        attributes?: { code: string; values?: string[] | null; gte?: string | null; lte?: string | null }[] | null;
        productTypes?: (string | number)[] | null;
      }
    | null
    | undefined,
): ProductFilter {
  return {
    search: f?.search ?? undefined,
    category: f?.category ?? undefined,
    tags: f?.tags ?? undefined,
    isActive: f?.isActive ?? undefined,
    lowStock: f?.lowStock ?? undefined,
    scheduled: f?.scheduled ?? undefined,
    attributes: cleanAttributeFilters(f?.attributes),
    productTypes: f?.productTypes?.map(String) ?? undefined,
  };
}

export function cleanAttributeFilters(a: { code: string; values?: string[] | null; gte?: string | null; lte?: string | null }[] | null | undefined) {
  return a?.map((x) => ({ code: x.code, values: x.values ?? undefined, gte: x.gte ?? undefined, lte: x.lte ?? undefined }));
}

/**
 * Schedule times are taken as strings and parsed strictly by the service (RFC 3339 with an
 * offset): the DateTime scalar accepts any text Date.parse reads, offset-less times included.
 */
const SCHEDULE_DOC = {
  publishAt:
    'RFC 3339 timestamp with offset (e.g. 2026-05-01T09:00:00+02:00), in the future: the scheduler publishes the product then. Not on an active or archived product.',
  unpublishAt: 'RFC 3339 timestamp with offset, in the future and after publishAt: the scheduler unpublishes the product (status draft) then. Not on an archived product.',
};

const TRANSLATIONS_DOC =
  'Translations by locale, {"de": {name, description, seo, options, attributes}}: merged per locale into the stored ones (a field null clears it), a locale null removes its translation. Locales: the store\'s further ones.';

const ProductCreateInput = builder.inputType('ProductCreateInput', {
  extensions: inputRules((v) => fieldErrorsOf(products.ProductCreateInput, defined(v))),
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    price: t.field({ type: 'Decimal', required: true }),
    prices: t.field({ type: [PriceInput], description: PRICES_INPUT_DESCRIPTION }),
    inventoryQuantity: t.int(),
    lowStockThreshold: t.int(),
    status: t.field({ type: ProductStatus, description: 'Defaults to draft' }),
    tags: t.stringList(),
    // Optional in the type so a missing list gets the same `category_required` error as an empty one.
    categorySlugs: t.stringList({ description: 'Required: at least one slug of an existing category of the store' }),
    publishAt: t.string({ description: SCHEDULE_DOC.publishAt }),
    unpublishAt: t.string({ description: SCHEDULE_DOC.unpublishAt }),
    productTypeId: t.id({ description: 'The product type whose attributes the product has; null: none (its attribute values are dropped)' }),
    attributes: t.field({ type: 'JSON', description: 'Attribute values by code; merged into the stored ones, null clears one. Checked against the product type (docs/attributes.md)' }),
    translations: t.field({ type: 'JSON', description: TRANSLATIONS_DOC }),
    options: t.field({
      type: [ProductOptionInput],
      description: "The options that define the product's variants, in order, checked as setProductOptions checks them; the product starts without variants (generateProductVariants makes them)",
    }),
    variants: t.field({
      type: [VariantInput],
      description:
        'The variants, as replaceProductVariants takes them, created with the product in one write: nothing is created unless all of it is valid, and every error of either comes at once (fields such as variants.2.sku). Option values they name are added to the options.',
    }),
  }),
});

const ProductUpdateInput = builder.inputType('ProductUpdateInput', {
  extensions: inputRules((v) => fieldErrorsOf(products.ProductUpdateInput, v)),
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    price: t.field({ type: 'Decimal' }),
    prices: t.field({ type: [PriceInput], description: PRICES_INPUT_DESCRIPTION }),
    inventoryQuantity: t.int(),
    lowStockThreshold: t.int(),
    status: t.field({ type: ProductStatus }),
    tags: t.stringList(),
    categorySlugs: t.stringList(),
    publishAt: t.string({ description: `${SCHEDULE_DOC.publishAt} null cancels it.` }),
    unpublishAt: t.string({ description: `${SCHEDULE_DOC.unpublishAt} null cancels it.` }),
    productTypeId: t.id({ description: 'The product type whose attributes the product has; null: none (its attribute values are dropped)' }),
    attributes: t.field({ type: 'JSON', description: 'Attribute values by code; merged into the stored ones, null clears one. Checked against the product type (docs/attributes.md)' }),
    translations: t.field({ type: 'JSON', description: TRANSLATIONS_DOC }),
  }),
});

/** On create, GraphQL null means "not sent" (the default applies). */
const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null)) as { [K in keyof T]: Exclude<T[K], null> };

/** A JSON scalar's value (attributes, translations) as the service takes it; the service's rules refuse anything but an object. */
const attributesArg = (v: unknown) => v as Record<string, unknown> | null | undefined;

const DeletedProduct = builder.simpleObject('DeletedProduct', { fields: (t) => ({ id: t.id() }) });

builder.mutationFields((t) => ({
  createProduct: t.prismaField({
    type: 'Product',
    args: { storeId: t.arg.id({ required: true }), input: t.arg({ type: ProductCreateInput, required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) =>
      createProduct(
        inCatalogMode(ctx, args.mode),
        args.storeId,
        {
          ...defined(args.input),
          prices: pricesArg(args.input.prices),
          attributes: attributesArg(args.input.attributes) ?? undefined,
          translations: attributesArg(args.input.translations) ?? undefined,
          options: args.input.options?.map(defined) as products.ProductCreate['options'],
          variants: args.input.variants?.map(defined),
        },
        query,
      ),
  }),
  updateProduct: t.prismaField({
    type: 'Product',
    description:
      'Partial update: omitted fields are kept; null is rejected, except for publishAt and unpublishAt, where it cancels the schedule. Pass expectedVersion (the version you read) to fail with precondition_failed instead of overwriting a newer change.',
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: ProductUpdateInput, required: true }),
      expectedVersion: t.arg.int(),
      staged: t.arg.boolean({ description: STAGED_ARG_DOC }),
      applyTo: t.arg({ type: StagedApplyTo, description: APPLY_TO_ARG_DOC }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    // Nulls go through to be rejected: silently keeping a field the caller tried to clear would hide the mistake.
    resolve: (query, _root, args, ctx) => {
      const input = {
        ...args.input,
        prices: args.input.prices === null ? null : pricesArg(args.input.prices),
        attributes: attributesArg(args.input.attributes),
        translations: attributesArg(args.input.translations),
      };
      const c = inCatalogMode(ctx, args.mode);
      return productWrite(c, args.storeId, args.id, writeTarget(args), inputCheck(input, STAGEABLE_PRODUCT_FIELDS), (t, checkVersion) =>
        products.updateProduct(t, args.storeId, args.id, input, { expectedVersion: checkVersion ? args.expectedVersion : null }, query),
      );
    },
  }),
  deleteProduct: t.field({
    type: DeletedProduct,
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (_root, args, ctx) => products.deleteProduct(inCatalogMode(ctx, args.mode), args.storeId, args.id),
  }),
  publishProduct: t.prismaField({
    type: 'Product',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => products.publishProduct(inCatalogMode(ctx, args.mode), args.storeId, args.id, query),
  }),
  unpublishProduct: t.prismaField({
    type: 'Product',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => products.unpublishProduct(inCatalogMode(ctx, args.mode), args.storeId, args.id, query),
  }),
}));
