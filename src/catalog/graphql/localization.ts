/** GraphQL types and operations for a store's locales and currencies (src/catalog/services/localization.ts). */

import * as localization from '../services/localization';
import { builder, capability } from '../../api/graphql/builder';

type LocaleView = ReturnType<typeof localization.localeView>;
type CurrencyView = ReturnType<typeof localization.currencyView>;

const StoreLocale = builder.objectRef<LocaleView>('StoreLocale').implement({
  description: 'A locale the store sells in (Shopify: ShopLocale).',
  fields: (t) => ({
    locale: t.string({ description: 'Canonical BCP 47 tag (de, de-AT, pt-BR)', resolve: (l) => l.locale }),
    name: t.string({ description: 'Its English name, e.g. "German (Austria)"', resolve: (l) => l.name }),
    default: t.boolean({ description: "Whether it is the store's default locale", resolve: (l) => l.default }),
  }),
});

const StoreCurrency = builder.objectRef<CurrencyView>('StoreCurrency').implement({
  description: 'A currency the store prices in.',
  fields: (t) => ({
    currency: t.string({ description: 'ISO 4217 code, upper case', resolve: (c) => c.currency }),
    name: t.string({ description: 'Its English name', resolve: (c) => c.name }),
    minorUnits: t.int({ description: 'Digits after the decimal point of an amount in it: JPY 0, EUR 2, KWD 3', resolve: (c) => c.minor_units }),
    default: t.boolean({ description: "Whether it is the store's default currency (`currency`), which `price` is in", resolve: (c) => c.default }),
  }),
});

const STORE_COLUMNS = { id: true, name: true, currency: true, currencies: true, defaultLocale: true, locales: true, ownerId: true, createdAt: true } as const;

builder.prismaObjectFields('Store', (t) => ({
  defaultLocale: t.string({
    description: "The store's default locale. Needs manage_products.",
    select: { defaultLocale: true },
    authScopes: (store) => capability('readCatalog', store.id),
    resolve: (store) => store.defaultLocale,
  }),
  locales: t.field({
    type: [StoreLocale],
    description: 'The default locale first, then the others in the order added. Needs manage_products.',
    select: STORE_COLUMNS,
    authScopes: (store) => capability('readCatalog', store.id),
    resolve: (store) => localization.storeLocales(store),
  }),
  currencies: t.field({
    type: [StoreCurrency],
    description: 'The default currency first, then the others in the order added. Needs manage_products.',
    select: STORE_COLUMNS,
    authScopes: (store) => capability('readCatalog', store.id),
    resolve: (store) => localization.storeCurrencies(store),
  }),
}));


builder.queryFields((t) => ({
  storeLocales: t.field({
    type: [StoreLocale],
    description: "The store's locales: the default first, then the others in the order added. Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: (_root, args, ctx) => localization.listStoreLocales(ctx, args.storeId),
  }),
  storeCurrencies: t.field({
    type: [StoreCurrency],
    description: "The store's currencies: the default first, then the others in the order added. Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: (_root, args, ctx) => localization.listStoreCurrencies(ctx, args.storeId),
  }),
}));

builder.mutationFields((t) => ({
  addStoreLocale: t.field({
    type: StoreLocale,
    description: 'Adds a locale (a BCP 47 tag, normalised: de-at is de-AT). One the store has: locale_taken (409); past the locales_per_store limit: limit_exceeded. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), locale: t.arg.string({ required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => localization.addStoreLocale(ctx, args.storeId, args.locale),
  }),
  setDefaultStoreLocale: t.field({
    type: StoreLocale,
    description: "Makes one of the store's locales its default; the former default stays one of its locales. One that translations use is locale_has_translations (409): remove them first. Needs manage_products.",
    args: { storeId: t.arg.id({ required: true }), locale: t.arg.string({ required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => localization.setDefaultStoreLocale(ctx, args.storeId, args.locale),
  }),
  removeStoreLocale: t.field({
    type: StoreLocale,
    description:
      'Removes a locale; the default cannot be removed (default_locale_not_removable, 409). deleteTranslations: true is needed when translations use the locale (else locale_has_translations, 409), and deletes them in the same write. Needs manage_products.',
    args: {
      storeId: t.arg.id({ required: true }),
      locale: t.arg.string({ required: true }),
      deleteTranslations: t.arg.boolean({ description: 'Delete the translations in this locale with it (default false)' }),
    },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => localization.removeStoreLocale(ctx, args.storeId, args.locale, { deleteTranslations: args.deleteTranslations ?? false }),
  }),
  addStoreCurrency: t.field({
    type: StoreCurrency,
    description: 'Adds an ISO 4217 currency (any case). One the store has: currency_taken (409); past the currencies_per_store limit: limit_exceeded. Needs manage_products.',
    args: { storeId: t.arg.id({ required: true }), currency: t.arg.string({ required: true }) },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => localization.addStoreCurrency(ctx, args.storeId, args.currency),
  }),
  removeStoreCurrency: t.field({
    type: StoreCurrency,
    description:
      "Removes a currency; the default (the store's currency) cannot be removed (default_currency_not_removable, 409). When products or variants have prices in it: currency_in_use (409) unless deletePrices is true, which deletes those prices with it. Needs manage_products.",
    args: {
      storeId: t.arg.id({ required: true }),
      currency: t.arg.string({ required: true }),
      deletePrices: t.arg.boolean({ description: 'Delete the prices in this currency with it (default false)' }),
    },
    authScopes: (_root, args) => capability('manageCatalog', args.storeId),
    resolve: (_root, args, ctx) => localization.removeStoreCurrency(ctx, args.storeId, args.currency, { deletePrices: args.deletePrices ?? false }),
  }),
}));
