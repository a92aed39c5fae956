/**
 * The public API's collections (REST: src/catalog/rest/publicCollections.ts): the credential's catalog's published
 * collections in the request's language, and a collection's active products as the storefront product list reads
 * them (filters, sorts, facets, currency), in the collection's own sort unless another is asked for.
 */

import { builder, capability, type GraphQLContext } from '../../api/graphql/builder';
import { namedCurrency, soldCurrency } from '../services/publicCatalog';
import { findPublishedCollection, listPublicCollectionProducts, listPublishedCollections, localizeCollection, type LocalizedCollection } from '../services/publicCollections';
import { COLLECTION_SORTS } from '../services/collections';
import { PageMeta, pageMeta } from './products';
import { chainOf, LOCALE_ARG_DESCRIPTION, PublicProductPage, publicFilterOf, publicListArgs } from './public';

const PublicCollectionSort = builder.enumType('PublicCollectionSort', {
  values: COLLECTION_SORTS,
  description: "A collection's own order of its products: manual (the merchant's list), newest, name, price_asc, price_desc",
});

/** The storefront view of a collection: no rules, kind, membership or counts (which count drafts too). */
const PublicCollection = builder.objectRef<LocalizedCollection>('PublicCollection').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title', { description: 'In the answer\'s locale (`locale`)' }),
    slug: t.exposeString('slug'),
    description: t.exposeString('description', { description: 'In the answer\'s locale (`locale`)' }),
    sort: t.field({ type: PublicCollectionSort, description: 'The order its products list in when no other sort is asked for', resolve: (c) => c.sort }),
    locale: t.exposeString('locale', { description: "The locale of title and description: the first of the chain that gave either, else the store's default" }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const PublicCollectionPage = builder.objectRef<{ items: LocalizedCollection[]; locale: string; meta: ReturnType<typeof pageMeta> }>('PublicCollectionPage').implement({
  fields: (t) => ({
    items: t.field({ type: [PublicCollection], resolve: (p) => p.items }),
    locale: t.string({ description: "The locale of the page's fields: the first of the chain any collection's fields came in, else the store's default", resolve: (p) => p.locale }),
    meta: t.field({ type: PageMeta, resolve: (p) => p.meta }),
  }),
});

/** The page's locale (the first of the chain any item used), set as Content-Language. */
function answerLocale(ctx: GraphQLContext, chain: string[], items: { locale: string }[]) {
  const locale = chain.find((l) => items.some((c) => c.locale === l)) ?? chain.at(-1)!;
  ctx.setResponseHeader?.('Content-Language', locale);
  return locale;
}

const COLLECTION_ARG = { required: true, description: 'Its id or slug; an unpublished one is not_found' } as const;

builder.queryFields((t) => ({
  publicCollections: t.field({
    type: PublicCollectionPage,
    description: "A page of the credential's catalog's published collections, newest first. Public API; needs public:read or products:read.",
    args: { page: t.arg.int(), perPage: t.arg.int(), locale: t.arg.string({ description: LOCALE_ARG_DESCRIPTION }) },
    authScopes: capability('readStorefront'),
    resolve: async (_root, args, ctx) => {
      const [r, chain] = await Promise.all([
        listPublishedCollections(ctx, ctx.storeId!, { page: args.page ?? undefined, perPage: args.perPage ?? undefined }),
        chainOf(ctx, ctx.storeId!, args.locale),
      ]);
      const items = r.rows.map((c) => localizeCollection(c, chain));
      const meta = pageMeta({ ids: [], page: r.page, perPage: r.perPage, total: r.total, totalExact: true, hasMore: r.page * r.perPage < r.total });
      return { items, locale: answerLocale(ctx, chain, items), meta };
    },
  }),
  publicCollection: t.field({
    type: PublicCollection,
    description: "One published collection of the credential's catalog, by id or slug. Public API; needs public:read or products:read.",
    args: { collection: t.arg.string(COLLECTION_ARG), locale: t.arg.string({ description: LOCALE_ARG_DESCRIPTION }) },
    authScopes: capability('readStorefront'),
    resolve: async (_root, args, ctx) => {
      const [{ collection }, chain] = await Promise.all([findPublishedCollection(ctx, ctx.storeId!, args.collection), chainOf(ctx, ctx.storeId!, args.locale)]);
      const localized = localizeCollection(collection, chain);
      answerLocale(ctx, chain, [localized]);
      return localized;
    },
  }),
  publicCollectionProducts: t.field({
    type: PublicProductPage,
    description:
      "A page of a published collection's active products, in the collection's sort unless `sort` names another; the storefront product list's filters, facets and currency. Public API; needs public:read or products:read.",
    args: { collection: t.arg.string(COLLECTION_ARG), ...publicListArgs(t) },
    authScopes: capability('readStorefront'),
    resolve: async (_root, args: any, ctx) => {
      const named = namedCurrency(args.currency);
      const [{ collection, store }, chain] = await Promise.all([findPublishedCollection(ctx, ctx.storeId!, args.collection), chainOf(ctx, ctx.storeId!, args.locale)]);
      const currency = soldCurrency(store, named);
      const paging = { page: args.page ?? undefined, perPage: args.perPage ?? undefined };
      const r = await listPublicCollectionProducts(ctx, ctx.storeId!, collection, { ...publicFilterOf(args.filter), chain }, paging, args.sort ?? undefined, args.facets ?? undefined, currency);
      return { currency, ids: r.ids, meta: pageMeta(r), facets: r.facets, chain };
    },
  }),
}));
