/** GraphQL operations for translations: one locale of a product, category or attribute set or removed, and the status. */

import { builder, capability } from '../../api/graphql/builder';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';
import { AppError } from '../../platform/errors';
import { removeProductTranslation, setProductTranslation } from '../services/productTranslations';
import { type KindCount, STATUS_PAGE, type StatusItem, translationStatus } from '../services/translationStatus';
import { TRANSLATION_KINDS } from '../services/translations';
import { type AttributeTranslationWrite, removeAttributeTranslation, removeCategoryTranslation, setAttributeTranslation, setCategoryTranslation } from '../services/configTranslations';
import { attributeTranslationsView, BY_LOCALE, categoryTranslationsView } from '../services/views';

const TranslationSeoInput = builder.inputType('TranslationSeoInput', {
  fields: (t) => ({
    title: t.string({ description: 'At most 70 characters' }),
    description: t.string({ description: 'At most 320 characters' }),
    slug: t.string({ description: "The default slug's format; unique per store, mode and locale (409 slug_taken)" }),
  }),
});

const ProductTranslationInput = builder.inputType('ProductTranslationInput', {
  description: "A product's text in one locale; a field left out (or null) has no translation and falls back to the default locale's.",
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    seo: t.field({ type: TranslationSeoInput }),
    options: t.field({
      type: 'JSON',
      description: 'By option name in the default locale: {"Size": {"name": "Größe", "values": {"S": "Klein"}}}; unknown options or values are 422 naming the path',
    }),
    attributes: t.field({ type: 'JSON', description: 'plain_text and rich_text values by attribute code: {"care": "Handwäsche"}' }),
  }),
});

/** GraphQL's nulls are "no translation of the field", as the service takes null; absent keys are left out. */
const present = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const LOCALE_ARG = { required: true, description: "One of the store's further locales (not the default)" } as const;

builder.mutationFields((t) => ({
  setProductTranslation: t.prismaField({
    type: 'Product',
    description: "Sets the product's translation in one locale whole: fields left out have none. Writing a field clears its outdated mark.",
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      productId: t.arg.id({ required: true }),
      locale: t.arg.string(LOCALE_ARG),
      translation: t.arg({ type: ProductTranslationInput, required: true }),
    },
    authScopes: (_root, args) => capability('changeCatalog', String(args.storeId)),
    resolve: (query, _root, args, ctx) => {
      const { seo, ...rest } = args.translation as Record<string, unknown> & { seo?: Record<string, unknown> | null };
      const input = present({ ...rest, seo: seo ? present(seo) : seo });
      return setProductTranslation(inCatalogMode(ctx, args.mode), String(args.storeId), String(args.productId), args.locale, input, query);
    },
  }),
  removeProductTranslation: t.prismaField({
    type: 'Product',
    description: "Removes the product's translation in one locale (404 when it has none there).",
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      productId: t.arg.id({ required: true }),
      locale: t.arg.string(LOCALE_ARG),
    },
    authScopes: (_root, args) => capability('changeCatalog', String(args.storeId)),
    resolve: (query, _root, args, ctx) => removeProductTranslation(inCatalogMode(ctx, args.mode), String(args.storeId), String(args.productId), args.locale, query),
  }),
}));

const TranslationKindEnum = builder.enumType('TranslationKind', { values: TRANSLATION_KINDS });

const TranslationStatusItem = builder.objectRef<StatusItem>('TranslationStatusItem').implement({
  description: 'A product, category or attribute whose translation in the locale is missing fields or has outdated ones.',
  fields: (t) => ({
    kind: t.field({ type: TranslationKindEnum, resolve: (i) => i.kind }),
    id: t.exposeID('id'),
    name: t.exposeString('name', { description: 'In the default locale' }),
    missingFields: t.exposeStringList('missingFields', { description: 'Fields with default-locale text and no translation: name, seo.slug, options.Size, attributes.care, values.cotton' }),
    outdatedFields: t.exposeStringList('outdatedFields', { description: 'Translated fields whose default-locale text changed since' }),
  }),
});

const TranslationStatusCount = builder.objectRef<KindCount>('TranslationStatusCount').implement({
  fields: (t) => ({
    kind: t.field({ type: TranslationKindEnum, resolve: (c) => c.kind }),
    total: t.exposeInt('total', { description: 'Items of the kind (products: of the catalog asked)' }),
    missing: t.exposeInt('missing', { description: 'Items with a missing field' }),
    outdated: t.exposeInt('outdated', { description: 'Items with an outdated field' }),
    todo: t.exposeInt('todo', { description: 'Items with either: those the list pages through' }),
  }),
});

builder.queryField('translationStatus', (t) =>
  t.connection(
    {
      type: TranslationStatusItem,
      description: `What is left to translate in a locale: counts per kind and the items with a missing or outdated translation (products, then categories, then attributes; first defaults to ${STATUS_PAGE.default}, at most ${STATUS_PAGE.max}). Needs manage_products.`,
      args: {
        storeId: t.arg.id({ required: true }),
        mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
        locale: t.arg.string({ required: true, description: "One of the store's further locales" }),
        kind: t.arg({ type: TranslationKindEnum, description: 'Only this kind' }),
      },
      authScopes: (_root, args) => capability('readCatalog', String(args.storeId)),
      resolve: async (_root, args, ctx) => {
        if (args.last != null || args.before != null) {
          throw new AppError('validation_failed', 'last/before: the status pages forward only (first/after)', {
            errors: [{ field: args.last != null ? 'last' : 'before', code: 'unsupported', message: 'the status pages forward only' }],
          });
        }
        const page = await translationStatus(inCatalogMode(ctx, args.mode), String(args.storeId), args.locale, {
          kind: args.kind ?? undefined,
          first: args.first ?? undefined,
          after: args.after ?? undefined,
        });
        return {
          locale: page.locale,
          counts: page.counts,
          edges: page.items.map((node, i) => ({ node, cursor: page.cursors[i] })),
          pageInfo: { hasNextPage: page.hasMore, hasPreviousPage: !!args.after, startCursor: page.cursors[0] ?? null, endCursor: page.cursors.at(-1) ?? null },
        };
      },
    },
    {
      fields: (t) => ({
        locale: t.string({ description: 'The locale, canonical', resolve: (c: any) => c.locale }),
        counts: t.field({ type: [TranslationStatusCount], description: 'Per kind asked, in order', resolve: (c: any) => c.counts }),
      }),
    },
  ),
);

builder.prismaObjectFields('Category', (t) => ({
  translations: t.field({
    type: 'JSON',
    description: 'Its name by locale: {"de": {name, outdated, outdated_fields, updated_at}}',
    select: BY_LOCALE,
    resolve: (c) => categoryTranslationsView(c.translations),
  }),
}));

builder.prismaObjectFields('Attribute', (t) => ({
  translations: t.field({
    type: 'JSON',
    description: 'Its name and value labels (by value code) by locale: {"de": {name, values, outdated, outdated_fields, updated_at}}',
    select: BY_LOCALE,
    resolve: (a) => attributeTranslationsView(a.translations),
  }),
}));

const CategoryTranslationInput = builder.inputType('CategoryTranslationInput', { fields: (t) => ({ name: t.string() }) });
const AttributeTranslationInput = builder.inputType('AttributeTranslationInput', {
  fields: (t) => ({
    name: t.string(),
    values: t.field({ type: 'JSON', description: 'Value labels by value code: {"cotton": "Baumwolle"}; a code the attribute lacks is 422 unknown_value' }),
  }),
});

builder.mutationFields((t) => ({
  setCategoryTranslation: t.prismaField({
    type: 'Category',
    description: "Sets a category's name in one of the store's further locales (by id or slug); writing it clears its outdated mark. Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }), category: t.arg.string({ required: true, description: 'Its id or slug' }), locale: t.arg.string(LOCALE_ARG), translation: t.arg({ type: CategoryTranslationInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', String(args.storeId)),
    resolve: async (query, _root, args, ctx) => {
      const { id } = await setCategoryTranslation(ctx, String(args.storeId), args.category, args.locale, present(args.translation));
      return ctx.db.category.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  removeCategoryTranslation: t.prismaField({
    type: 'Category',
    description: "Removes a category's translation in a locale (404 when it has none there). Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }), category: t.arg.string({ required: true, description: 'Its id or slug' }), locale: t.arg.string(LOCALE_ARG) },
    authScopes: (_root, args) => capability('manageCatalog', String(args.storeId)),
    resolve: async (query, _root, args, ctx) => {
      const { id } = await removeCategoryTranslation(ctx, String(args.storeId), args.category, args.locale);
      return ctx.db.category.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  setAttributeTranslation: t.prismaField({
    type: 'Attribute',
    description: "Sets an attribute's name and value labels in one of the store's further locales whole (by id or code); writing them clears their outdated marks. Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }), attribute: t.arg.string({ required: true, description: 'Its id or code' }), locale: t.arg.string(LOCALE_ARG), translation: t.arg({ type: AttributeTranslationInput, required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', String(args.storeId)),
    resolve: async (query, _root, args, ctx) => {
      const { id } = await setAttributeTranslation(ctx, String(args.storeId), args.attribute, args.locale, present(args.translation) as AttributeTranslationWrite);
      return ctx.db.attribute.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  removeAttributeTranslation: t.prismaField({
    type: 'Attribute',
    description: "Removes an attribute's translation in a locale (404 when it has none there). Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }), attribute: t.arg.string({ required: true, description: 'Its id or code' }), locale: t.arg.string(LOCALE_ARG) },
    authScopes: (_root, args) => capability('manageCatalog', String(args.storeId)),
    resolve: async (query, _root, args, ctx) => {
      const { id } = await removeAttributeTranslation(ctx, String(args.storeId), args.attribute, args.locale);
      return ctx.db.attribute.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
