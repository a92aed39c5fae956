/** GraphQL types and operations for collections: the Collection type, its list and members, and its writes. */

import * as collections from '../services/collections';
import { addCollectionProducts, moveCollectionProducts, removeCollectionProducts } from '../services/collectionProducts';
import { listCollectionProductIds } from '../services/collectionList';
import { ALL_OPERATORS, RULE_FIELDS, type CollectionRule } from '../services/collectionRules';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';
import { previewCollectionRules, previewProductIds, PREVIEW_PRODUCTS, type CollectionRulesPreview } from '../services/collectionPreview';
import { productsByIds } from '../services/productList';
import { PageMeta, pageMeta, Product, ProductPage, productQuery } from './products';

const CollectionKind = builder.enumType('CollectionKind', { values: collections.COLLECTION_KINDS, description: 'manual: an ordered list kept by hand; smart: the products its rules match' });
const CollectionMatch = builder.enumType('CollectionMatch', { values: collections.COLLECTION_MATCHES, description: 'Whether a product must match all rules or any of them' });
const CollectionSort = builder.enumType('CollectionSort', { values: collections.COLLECTION_SORTS, description: 'The order of its products: manual (its list; manual collections only), newest, name, price_asc, price_desc' });
const CollectionMembershipState = builder.enumType('CollectionMembershipState', {
  values: ['current', 'recomputing'] as const,
  description: 'current: membership follows the rules; recomputing: a job is bringing it to changed rules (see progress)',
});
const CollectionRuleField = builder.enumType('CollectionRuleField', { values: RULE_FIELDS });
const CollectionRuleOperator = builder.enumType('CollectionRuleOperator', { values: ALL_OPERATORS as [string, ...string[]] });

const CollectionRuleType = builder.objectRef<CollectionRule>('CollectionRule').implement({
  fields: (t) => ({
    field: t.field({ type: CollectionRuleField, resolve: (r) => r.field }),
    operator: t.field({ type: CollectionRuleOperator, resolve: (r) => r.operator }),
    value: t.string({ resolve: (r) => r.value }),
    attribute: t.string({ nullable: true, description: 'attribute rules: the attribute code', resolve: (r) => r.attribute ?? null }),
  }),
});

const MembershipProgress = builder.simpleObject('CollectionMembership', {
  fields: (t) => ({
    state: t.field({ type: CollectionMembershipState }),
    done: t.int({ description: "Products of the catalog the last recompute examined" }),
    total: t.int({ description: 'Products of the catalog when the recompute started' }),
  }),
});

export const Collection = builder.objectRef<collections.CollectionRow>('Collection').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    slug: t.exposeString('slug', { description: 'Unique in the catalog (store and mode)' }),
    description: t.exposeString('description'),
    kind: t.field({ type: CollectionKind, resolve: (c) => c.kind }),
    rules: t.field({ type: [CollectionRuleType], description: 'smart: its rules; manual: none', resolve: (c) => c.rules as unknown as CollectionRule[] }),
    match: t.field({ type: CollectionMatch, resolve: (c) => c.match }),
    sort: t.field({ type: CollectionSort, resolve: (c) => c.sort }),
    published: t.exposeBoolean('published', { description: 'Whether the storefront (public API) lists it' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true, description: 'When it was last published' }),
    productsCount: t.exposeInt('productsCount', { description: 'Its products, of every status' }),
    membership: t.field({ type: MembershipProgress, resolve: (c) => ({ state: (c.membershipState === 'current' ? 'current' : 'recomputing') as 'current' | 'recomputing', done: c.recomputeDone, total: c.recomputeTotal }) }),
    version: t.exposeInt('version'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    translations: t.field({ type: 'JSON', description: 'Its title and description by locale: {"de": {title, description, outdated, outdated_fields, updated_at}}', resolve: (c) => collections.collectionView(c).translations }),
  }),
});

const CollectionPage = builder.objectRef<{ items: collections.CollectionRow[]; meta: ReturnType<typeof pageMeta> }>('CollectionPage').implement({
  fields: (t) => ({
    items: t.field({ type: [Collection], resolve: (p) => p.items }),
    meta: t.field({ type: PageMeta, resolve: (p) => p.meta }),
  }),
});

const CollectionRuleInput = builder.inputType('CollectionRuleInput', {
  fields: (t) => ({
    // Strings, not the enums: the service checks every rule against the store at once (rules.2.operator), which a
    // type error of one rule would stop before it runs.
    field: t.string({ required: true, description: `One of ${RULE_FIELDS.join(', ')}` }),
    operator: t.string({ required: true, description: `One of ${ALL_OPERATORS.join(', ')}; which each field takes: docs/collections.md` }),
    value: t.field({ type: 'JSON', required: true, description: 'A string or number: a tag, category slug, product type id, status, attribute value, price, quantity or RFC 3339 time' }),
    attribute: t.string({ description: 'attribute rules: the attribute code' }),
  }),
});

const collectionFields = (t: any, create: boolean) => ({
  title: t.string({ required: create, description: '1-255 characters' }),
  slug: t.string({ description: 'Lowercase letters, digits and single hyphens; from the title when left out' }),
  description: t.string(),
  kind: t.field({ type: CollectionKind, required: create, description: create ? undefined : 'Accepted only unchanged' }),
  rules: t.field({ type: [CollectionRuleInput], description: 'smart only: at least one; the list replaces the stored one' }),
  match: t.field({ type: CollectionMatch, description: 'Default all' }),
  sort: t.field({ type: CollectionSort, description: 'Default manual (manual collections) or newest (smart ones)' }),
  published: t.boolean({ description: 'Default false' }),
});
// Each field's own rules (the update's, all optional), so a type error and a rule error of one input come together;
// the rules' own checks (against the store) are the service's.
const fieldRules = inputRules((v) => {
  const { title, slug, description, published } = v as Record<string, unknown>;
  return fieldErrorsOf(collections.CollectionUpdateInput, present({ title, slug, description, published }));
});
const CollectionCreateInput = builder.inputType('CollectionCreateInput', { extensions: fieldRules, fields: (t) => collectionFields(t, true) });
const CollectionUpdateInput = builder.inputType('CollectionUpdateInput', { extensions: fieldRules, fields: (t) => collectionFields(t, false) });
const CollectionMoveInput = builder.inputType('CollectionMoveInput', {
  fields: (t) => ({
    productId: t.id({ required: true }),
    position: t.int({ description: '0-based; past the end: last' }),
    before: t.id({ description: 'Just before this member' }),
    after: t.id({ description: 'Just after this member' }),
  }),
});
const CollectionTranslationInput = builder.inputType('CollectionTranslationInput', { fields: (t) => ({ title: t.string(), description: t.string() }) });
const DeletedCollection = builder.simpleObject('DeletedCollection', { fields: (t) => ({ id: t.id() }) });

/** GraphQL's nulls as "left out" (every collection field is optional in an update). */
const present = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };

const COLLECTION_ARG = { required: true, description: 'Its id or slug' } as const;

const CollectionRulesPreviewType = builder.objectRef<CollectionRulesPreview>('CollectionRulesPreview').implement({
  description: 'What smart collection rules would hold if saved now: exactly the products_count and members saving them gives.',
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'How many products of the catalog (of every status) the rules match' }),
    products: t.field({
      type: [Product],
      description: "The first matching products, in the preview's sort",
      args: { first: t.arg.int({ description: `How many (0 to ${PREVIEW_PRODUCTS.max}; default ${PREVIEW_PRODUCTS.default})` }) },
      resolve: async (p, args, ctx, info) => {
        const c = inCatalogMode(ctx, p.mode);
        return productsByIds(c, await previewProductIds(c, p, args.first ?? PREVIEW_PRODUCTS.default), productQuery(ctx, info));
      },
    }),
  }),
});

builder.queryFields((t) => ({
  collections: t.field({
    type: CollectionPage,
    description: "A page of the catalog's collections, newest first.",
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }), page: t.arg.int(), perPage: t.arg.int() },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx) => {
      const r = await collections.listCollections(inCatalogMode(ctx, args.mode), args.storeId, { page: args.page ?? undefined, perPage: args.perPage ?? undefined });
      return { items: r.rows, meta: pageMeta({ ids: [], page: r.page, perPage: r.perPage, total: r.total, totalExact: true, hasMore: r.page * r.perPage < r.total }) };
    },
  }),
  collection: t.field({
    type: Collection,
    description: 'One collection of the catalog, by id or slug.',
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }), collection: t.arg.string(COLLECTION_ARG) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: (_root, args, ctx) => collections.findCollection(inCatalogMode(ctx, args.mode), args.storeId, args.collection),
  }),
  collectionRulesPreview: t.field({
    type: CollectionRulesPreviewType,
    description:
      'How many products smart collection rules match, and the first of them, before saving: the rules are checked as createCollection and updateCollection check them (every error at once, at rules.N.field) and evaluated by the same statement as membership. Writes nothing.',
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      rules: t.arg({ type: [CollectionRuleInput], required: true, description: 'As a smart collection takes them (at least one)' }),
      match: t.arg({ type: CollectionMatch, description: 'Default all' }),
      sort: t.arg({ type: CollectionSort, description: 'The order of `products`: newest (default), name, price_asc, price_desc' }),
    },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: (_root, args, ctx) =>
      previewCollectionRules(inCatalogMode(ctx, args.mode), args.storeId, { rules: args.rules as unknown[], match: args.match ?? undefined, sort: args.sort ?? undefined }),
  }),
  collectionProducts: t.field({
    type: ProductPage,
    description: "A page of a collection's products (every status), in the collection's sort.",
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      collection: t.arg.string(COLLECTION_ARG),
      page: t.arg.int(),
      perPage: t.arg.int(),
    },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx) => {
      const c = inCatalogMode(ctx, args.mode);
      const collection = await collections.collectionForList(c, args.storeId, args.collection);
      const r = await listCollectionProductIds(c, args.storeId, collection, {}, { page: args.page ?? undefined, perPage: args.perPage ?? undefined });
      return { storeId: args.storeId, ids: r.ids, meta: pageMeta(r) };
    },
  }),
}));

const writeArgs = (t: any) => ({
  storeId: t.arg.id({ required: true }),
  mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
  collection: t.arg.string(COLLECTION_ARG),
  expectedVersion: t.arg.int({ description: 'The version you read: precondition_failed when it moved' }),
});

builder.mutationFields((t) => ({
  createCollection: t.field({
    type: Collection,
    description: 'Creates a collection of the catalog; a smart one has its members at once (or, in a large catalog, once its recompute job ends).',
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }), input: t.arg({ type: CollectionCreateInput, required: true }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (_root, args, ctx) => collections.createCollection(inCatalogMode(ctx, args.mode), args.storeId, present(args.input) as collections.CollectionCreate),
  }),
  updateCollection: t.field({
    type: Collection,
    description: 'Partial update; a rule change recomputes membership. Pass expectedVersion to fail with precondition_failed instead of overwriting a newer change.',
    args: { ...writeArgs(t), input: t.arg({ type: CollectionUpdateInput, required: true }) },
    authScopes: (_root, args: any) => capability('changeCatalog', args.storeId),
    resolve: (_root, args: any, ctx) =>
      collections.updateCollection(inCatalogMode(ctx, args.mode), args.storeId, args.collection, present(args.input) as collections.CollectionUpdate, { expectedVersion: args.expectedVersion }),
  }),
  deleteCollection: t.field({
    type: DeletedCollection,
    args: writeArgs(t),
    authScopes: (_root, args: any) => capability('changeCatalog', args.storeId),
    resolve: (_root, args: any, ctx) => collections.deleteCollection(inCatalogMode(ctx, args.mode), args.storeId, args.collection, { expectedVersion: args.expectedVersion }),
  }),
  addCollectionProducts: t.field({
    type: Collection,
    description: 'Adds products to a manual collection, in order, at position (default: the end); members already in stay where they are.',
    args: { ...writeArgs(t), productIds: t.arg.idList({ required: true }), position: t.arg.int() },
    authScopes: (_root, args: any) => capability('changeCatalog', args.storeId),
    resolve: (_root, args: any, ctx) =>
      addCollectionProducts(inCatalogMode(ctx, args.mode), args.storeId, args.collection, { productIds: args.productIds.map(String), position: args.position ?? undefined }, { expectedVersion: args.expectedVersion }),
  }),
  removeCollectionProducts: t.field({
    type: Collection,
    description: 'Removes products from a manual collection; the rest close up.',
    args: { ...writeArgs(t), productIds: t.arg.idList({ required: true }) },
    authScopes: (_root, args: any) => capability('changeCatalog', args.storeId),
    resolve: (_root, args: any, ctx) =>
      removeCollectionProducts(inCatalogMode(ctx, args.mode), args.storeId, args.collection, { productIds: args.productIds.map(String) }, { expectedVersion: args.expectedVersion }),
  }),
  moveCollectionProducts: t.field({
    type: Collection,
    description: 'Moves members of a manual collection, one after the other: to a position, or before or after another member.',
    args: { ...writeArgs(t), moves: t.arg({ type: [CollectionMoveInput], required: true }) },
    authScopes: (_root, args: any) => capability('changeCatalog', args.storeId),
    resolve: (_root, args: any, ctx) =>
      moveCollectionProducts(
        inCatalogMode(ctx, args.mode),
        args.storeId,
        args.collection,
        { moves: args.moves.map((m: Record<string, unknown>) => present({ productId: m.productId, position: m.position, before: m.before, after: m.after })) },
        { expectedVersion: args.expectedVersion },
      ),
  }),
  setCollectionTranslation: t.field({
    type: Collection,
    description: "Sets a collection's title and description in one of the store's further locales (whole: left out, it has none).",
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }), collection: t.arg.string(COLLECTION_ARG), locale: t.arg.string({ required: true }), translation: t.arg({ type: CollectionTranslationInput, required: true }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (_root, args, ctx) => collections.setCollectionTranslation(inCatalogMode(ctx, args.mode), args.storeId, args.collection, args.locale, present(args.translation)),
  }),
  removeCollectionTranslation: t.field({
    type: Collection,
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }), collection: t.arg.string(COLLECTION_ARG), locale: t.arg.string({ required: true }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (_root, args, ctx) => collections.setCollectionTranslation(inCatalogMode(ctx, args.mode), args.storeId, args.collection, args.locale, null),
  }),
}));
