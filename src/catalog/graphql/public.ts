/**
 * Public integration API fields, reached through the REST routes under /api/public/v1
 * (src/catalog/rest/public.ts) with an API key or OAuth token: ctx.credential decides the store and the scopes.
 */

import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { productsByIds } from '../services/productList';
import { type LocalizedProduct, localizeProduct, pageLocale, pageTranslations, productLocaleChain, requestLocaleChain, type TranslatedText } from '../services/localizedReads';
import { isUuid } from '../../kernel/ids';
import {
  getPublicProduct,
  listPublicProducts,
  listSupportedCountries,
  namedCurrency,
  PUBLIC_PRODUCT_SORTS,
  soldCurrency,
  withStoreCurrencies,
} from '../services/publicCatalog';
import type { Facet } from '../services/attributeFilters';
import { builder, capability, type GraphQLContext } from '../../api/graphql/builder';
import type { ProductOption as ProductOptionShape } from '../services/options';
import { ProductOption } from './options';
import { amountIn, CURRENCY_ARG_DESCRIPTION, currencyOf, type Priced, readIn } from './prices';
import { variantWeight, VariantWeight } from './variants';
import { AttributeFilterInput, cleanAttributeFilters, FACETS_ARG_DESCRIPTION, facetsField, PageMeta, pageMeta, type PageMetaShape, productSortEnumName } from './products';

/** The product type's public attributes at both levels: one selection serves the product's values and its variants'. */
const PUBLIC_ASSIGNMENTS = {
  attributes: true,
  productType: { select: { attributes: { where: { attribute: { public: true } }, select: { level: true, attribute: { select: { code: true } } } } } },
} as const;

type PublicAssignments = { productType: { attributes: { level: string; attribute: { code: string } }[] } | null };

/** The values of the type's public attributes at this level; the others left out. */
function publicValues(p: PublicAssignments, level: 'product' | 'variant', values: unknown) {
  const shown = new Set(p.productType?.attributes.filter((a) => a.level === level).map((a) => a.attribute.code) ?? []);
  return Object.fromEntries(Object.entries(values as Record<string, unknown>).filter(([code]) => shown.has(code)));
}

/**
 * The product text each storefront row answers in, found for a whole page at once (one translations query) by the
 * field that loaded the rows; a variant's options and title follow its product's. Rows loaded any other way
 * answer the default locale's text.
 */
const localized = new WeakMap<object, LocalizedProduct>();

/** The locale argument of the storefront reads (REST: `?locale=`). */
export const LOCALE_ARG_DESCRIPTION =
  'A BCP 47 tag: fields come in the best of the store\'s locales by the fallback chain (the tag, its language alone, the store\'s default). Wins over Accept-Language; a tag the store lacks falls back, one that is not BCP 47 is refused (validation_failed)';

/** The request's language: the `locale` argument, else the Accept-Language header. Responses vary by that header either way. */
export function localeRequest(ctx: GraphQLContext, locale: string | null | undefined) {
  ctx.setResponseHeader?.('Vary', 'Accept-Language');
  return { locale, acceptLanguage: ctx.acceptLanguage };
}

export const chainOf = (ctx: GraphQLContext, storeId: string, locale: string | null | undefined) => requestLocaleChain(ctx, storeId, localeRequest(ctx, locale));

/** Localizes loaded storefront rows (their variants too) by the chain; returns the locale the answer names, set as Content-Language. */
function localizeRows<P extends { id: string; variants?: object[] }>(ctx: GraphQLContext, rows: P[], chain: string[], translations: Map<string, Map<string, TranslatedText>>) {
  const products = rows.map((row) => {
    const l = localizeProduct(row as unknown as Parameters<typeof localizeProduct>[0], chain, translations.get(row.id));
    localized.set(row, l);
    for (const v of row.variants ?? []) localized.set(v, l);
    return l;
  });
  const locale = pageLocale(chain, products);
  ctx.setResponseHeader?.('Content-Language', locale);
  return locale;
}

/** Storefront view of a variant (views.ts PUBLIC_VARIANT): no inventory count, never cost, public attribute values only. */
const PublicVariant = builder.prismaObject('Variant', {
  variant: 'PublicVariant',
  fields: (t) => ({
    id: t.exposeID('id'),
    sku: t.exposeString('sku'),
    title: t.string({ select: { title: true, options: true }, resolve: (v) => localized.get(v)?.variant(v).title ?? v.title }),
    options: t.field({
      type: 'JSON',
      select: { title: true, options: true },
      description: "Option name to value, one of each of the product's options (in the answer's locale)",
      resolve: (v) => localized.get(v)?.variant(v).options ?? v.options,
    }),
    price: t.field({
      type: 'Decimal',
      nullable: true,
      select: { price: true, prices: true },
      description: "Overrides the product's price; null: the product's price applies. In the currency read in",
      resolve: (v) => amountIn(v, v.price, 'amount'),
    }),
    compareAtPrice: t.field({
      type: 'Decimal',
      nullable: true,
      select: { compareAtPrice: true, prices: true },
      description: 'The "was" price, above the price the variant sells at. In the currency read in',
      resolve: (v) => amountIn(v, v.compareAtPrice, 'compare_at_amount'),
    }),
    inStock: t.boolean({ select: { inventoryQuantity: true }, resolve: (v) => v.inventoryQuantity > 0 }),
    position: t.exposeInt('position'),
    barcode: t.exposeString('barcode', { nullable: true, description: 'GTIN-8, -12, -13 or -14' }),
    weight: t.field({
      type: VariantWeight,
      nullable: true,
      select: { weightValue: true, weightUnit: true },
      resolve: variantWeight,
    }),
    imageId: t.exposeID('imageId', { nullable: true, description: "One of the product's images" }),
    attributes: t.field({
      type: 'JSON',
      description: 'Values of the public variant attributes by code; values of attributes that are not public are left out',
      select: { attributes: true, product: { select: { productType: PUBLIC_ASSIGNMENTS.productType } } },
      resolve: (v) => publicValues(v.product, 'variant', v.attributes),
    }),
  }),
});

/** Storefront view of a product: what a shop page shows, without inventory counts, thresholds or drafts. */
const PublicProduct = builder.prismaObject('Product', {
  variant: 'PublicProduct',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.string({ select: { name: true }, resolve: (p) => localized.get(p)?.name ?? p.name }),
    description: t.string({ select: { description: true }, resolve: (p) => localized.get(p)?.description ?? p.description }),
    locale: t.string({
      select: { name: true, description: true, options: true, attributes: true },
      description: 'The locale of the fields: the first of the chain that gave any field, else the store\'s default',
      resolve: (p) => localized.get(p)?.locale ?? '',
    }),
    price: t.field({
      type: 'Decimal',
      nullable: true,
      select: { price: true, prices: true },
      description: 'In `currency`; null when the product has no price in the currency asked for (see `currencies`)',
      resolve: (p) => amountIn(p, p.price, 'amount'),
    }),
    compareAtPrice: t.field({
      type: 'Decimal',
      nullable: true,
      select: { prices: true },
      description: 'The "was" price in `currency`, above `price`; only prices in further currencies have one (null in the default)',
      resolve: (p) => amountIn(p, null, 'compare_at_amount'),
    }),
    currency: t.string({
      select: { store: { select: { currency: true } } },
      description: 'The currency of the prices: the one asked for, else the store\'s default',
      resolve: (p) => currencyOf(p as Priced) ?? p.store.currency,
    }),
    currencies: t.stringList({
      select: { prices: true, store: { select: { currency: true } } },
      description: "The currencies the product has a price in: the store's default, then those of its prices",
      resolve: (p) => [p.store.currency, ...Object.keys((p.prices ?? {}) as object)],
    }),
    inStock: t.boolean({ select: { inventoryQuantity: true }, resolve: (p) => p.inventoryQuantity > 0 }),
    tags: t.exposeStringList('tags'),
    categorySlugs: t.stringList({
      select: { categories: { select: { category: { select: { slug: true } } } } },
      resolve: (p) => p.categories.map((c) => c.category.slug).sort(),
    }),
    attributes: t.field({
      type: 'JSON',
      description: 'Values of the public attributes by code; values of attributes that are not public are left out',
      // The type's public attributes come with the product, in the same query as its other fields.
      select: PUBLIC_ASSIGNMENTS,
      resolve: (p) => publicValues(p, 'product', localized.get(p)?.attributes ?? p.attributes),
    }),
    options: t.field({
      type: [ProductOption],
      select: { options: true },
      description: 'The options that define the variants, in order (a variant picker renders them)',
      resolve: (p) => localized.get(p)?.options ?? (Array.isArray(p.options) ? (p.options as unknown as ProductOptionShape[]) : []),
    }),
    variants: t.relation('variants', { type: PublicVariant, query: { orderBy: [{ position: 'asc' }, { sku: 'asc' }] }, description: 'Ordered by position' }),
    images: t.relation('images', { query: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] } }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const SupportedCountry = builder.simpleObject('SupportedCountry', {
  fields: (t) => ({
    code: t.string({ description: 'ISO 3166-1 alpha-2' }),
    name: t.string(),
    defaultCurrency: t.string({ description: 'ISO 4217' }),
    supportedCurrencies: t.stringList({ description: 'ISO 4217 codes' }),
  }),
});

export const PublicProductSort = builder.enumType('PublicProductSort', {
  values: Object.fromEntries(PUBLIC_PRODUCT_SORTS.map((s) => [productSortEnumName(s), { value: s }])),
});

export const PublicProductFilter = builder.inputType('PublicProductFilter', {
  fields: (t) => ({
    search: t.string({ description: 'Case-insensitive text over name, description and tags' }),
    category: t.string({ description: 'Category slug' }),
    tags: t.stringList({ description: 'A product matches if it carries any of these tags' }),
    attributes: t.field({ type: [AttributeFilterInput], description: 'Every one must match; public, filterable attributes only' }),
    productTypes: t.idList({ description: 'Products of any of these product types (their ids, from the merchant)' }),
    priceMin: t.field({ type: 'Decimal', description: 'Products priced at least this, in the list\'s currency (inclusive); those without a price in it never match' }),
    priceMax: t.field({ type: 'Decimal', description: 'Products priced at most this, in the list\'s currency (inclusive)' }),
  }),
});

export interface PublicProductPageShape {
  currency: string | null;
  facets?: Facet[];
  ids: string[];
  meta: PageMetaShape;
  chain: string[];
  /** The locale the page answers in, known once its items are localized (set when `items` starts resolving). */
  locale?: Promise<string>;
}

function publicProductQuery(ctx: GraphQLContext, info: GraphQLResolveInfo) {
  const q = queryFromInfo({ context: ctx, info, typeName: 'PublicProduct' }) as { select?: Record<string, unknown>; include?: Record<string, unknown> };
  return q.select ? { select: { ...q.select, id: true } } : q;
}

export const PublicProductPage = builder.objectRef<PublicProductPageShape>('PublicProductPage').implement({
  fields: (t) => ({
    items: t.field({
      type: [PublicProduct],
      resolve: (page, _args, ctx, info) => {
        const rows = Promise.all([productsByIds(ctx, page.ids, publicProductQuery(ctx, info)), pageTranslations(ctx, page.ids, page.chain)]).then(([rows, translations]) => ({
          rows: readIn(rows, page.currency),
          locale: localizeRows(ctx, rows, page.chain, translations),
        }));
        page.locale = rows.then((r) => r.locale, () => page.chain.at(-1)!);
        return rows.then((r) => r.rows);
      },
    }),
    locale: t.string({
      description: "The locale of the page's fields: the first of the chain that any item's fields came in, else the store's default",
      // Resolvers of one object are called in the order selected: selected after items, it waits for them; without
      // them (or before them), it reads the page's translations itself.
      resolve: async (page, _args, ctx) =>
        page.locale ?? pageLocale(page.chain, [...(await pageTranslations(ctx, page.ids, page.chain)).values()].flatMap((byLocale) => [...byLocale.keys()].map((locale) => ({ locale })))),
    }),
    meta: t.field({ type: PageMeta, resolve: (p) => p.meta }),
    facets: facetsField(t),
  }),
});

/** The PublicProductFilter argument as the storefront list takes it (GraphQL's nulls as left out). */
export function publicFilterOf(f: typeof PublicProductFilter.$inferInput | null | undefined) {
  return {
    search: f?.search ?? undefined,
    category: f?.category ?? undefined,
    tags: f?.tags ?? undefined,
    attributes: cleanAttributeFilters(f?.attributes),
    productTypes: f?.productTypes?.map(String) ?? undefined,
    priceMin: f?.priceMin ?? undefined,
    priceMax: f?.priceMax ?? undefined,
  };
}

/** The page-level arguments of a storefront product list (publicProducts, publicCollectionProducts). */
export const publicListArgs = (t: any) => ({
  page: t.arg.int(),
  perPage: t.arg.int(),
  filter: t.arg({ type: PublicProductFilter }),
  sort: t.arg({ type: PublicProductSort }),
  facets: t.arg.stringList({ description: `${FACETS_ARG_DESCRIPTION}; public attributes only` }),
  locale: t.arg.string({ description: LOCALE_ARG_DESCRIPTION }),
  currency: t.arg.string({ description: `${CURRENCY_ARG_DESCRIPTION}. Sorting by price and the price filters use it; products without a price in it sort last and match no price filter` }),
});

builder.queryFields((t) => ({
  publicSupportedCountries: t.field({
    type: [SupportedCountry],
    description: 'Countries where payments are supported. Public API; needs public:read or payments:read.',
    authScopes: capability('readPayments'),
    resolve: () => listSupportedCountries(),
  }),
  publicProducts: t.field({
    type: PublicProductPage,
    description: "A page of the credential's store's active products. Public API; needs public:read or products:read.",
    args: publicListArgs(t),
    authScopes: capability('readStorefront'),
    resolve: async (_root, args: any, ctx) => {
      const named = namedCurrency(args.currency);
      const filter = publicFilterOf(args.filter);
      const paging = { page: args.page ?? undefined, perPage: args.perPage ?? undefined };
      const list = (chain: string[] | undefined, currency: string | null) =>
        listPublicProducts(ctx, ctx.storeId!, { ...filter, chain }, paging, args.sort ?? undefined, args.facets ?? undefined, currency);
      // The store's currencies come with the page (its statement reads them), so a request in a currency costs no more
      // statements than one without. The default named as such lists again, by `price`.
      const inCurrency = async (chain?: string[]) => {
        const page = await list(chain, named);
        const currency = named === null ? null : soldCurrency(page.storeCurrencies!, named);
        return { currency, r: currency === named ? page : await list(chain, null) };
      };
      // A search reads the chain's text, so it waits for the chain; any other list reads the page beside it.
      const [{ currency, r }, chain] = filter.search
        ? await chainOf(ctx, ctx.storeId!, args.locale).then(async (c) => [await inCurrency(c), c] as const)
        : await Promise.all([inCurrency(), chainOf(ctx, ctx.storeId!, args.locale)]);
      return { currency, ids: r.ids, meta: pageMeta(r), facets: r.facets, chain };
    },
  }),
  publicProduct: t.prismaField({
    type: PublicProduct,
    description: "One active product of the credential's store. Public API; needs public:read or products:read.",
    args: {
      id: t.arg.id({ required: true }),
      locale: t.arg.string({ description: LOCALE_ARG_DESCRIPTION }),
      currency: t.arg.string({ description: CURRENCY_ARG_DESCRIPTION }),
    },
    authScopes: capability('readStorefront'),
    resolve: async (query, _root, args, ctx) => {
      const named = namedCurrency(args.currency);
      // The product (with the store's currencies when one is named) beside the store's locales with every translation
      // of the product: two statements, run together.
      const [product, { chain, byLocale }] = await Promise.all([
        getPublicProduct(ctx, ctx.storeId!, args.id, named === null ? query : withStoreCurrencies(query)),
        productLocaleChain(ctx, ctx.storeId!, isUuid(args.id) ? args.id : null, localeRequest(ctx, args.locale)),
      ]);
      localizeRows(ctx, [product as typeof product & { variants?: object[] }], chain, new Map([[product.id, byLocale]]));
      if (named === null) return product;
      return readIn([product], soldCurrency((product as unknown as { store: { currency: string; currencies: string[] } }).store, named))[0];
    },
  }),
}));
