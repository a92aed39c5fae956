/** GraphQL operations for translations: one locale of a product, category or attribute set or removed, and the status. */

import { builder, capability } from '../../api/graphql/builder';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';
import { removeProductTranslation, setProductTranslation } from '../services/productTranslations';

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
