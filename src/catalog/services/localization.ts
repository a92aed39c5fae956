/**
 * A store's locales and currencies: the default one of each and the further ones it sells in. Store
 * configuration shared by the live and test catalogs (live `store.updated` events, as attributes'); translations
 * and prices per currency build on these lists. The default currency is the store's `currency`, which every
 * product's `price` is in; it cannot be removed or changed here (that would reprice every product, and no
 * exchange rate is ever invented). The default locale can be changed to one of the store's locales that no
 * translation uses.
 */

import type { RequestContext } from '../../platform/context';
import { isUuid } from '../../kernel/ids';
import { canonicalLocale, localeName } from '../../kernel/locales';
import { minorUnits, normaliseCurrency } from '../../kernel/money';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound, validationError } from '../../platform/errors';
import { storeView } from '../../access/services/views';
import { type CatalogLimit, CATALOG_LIMITS, limitExceeded } from '../limits';
import { lockStoreConfiguration } from './attributes';

type StoreRow = Parameters<typeof storeView>[0];

/** The two lists, told apart only by where they are stored, how a code is normalised and how it is named. */
const LISTS = {
  locale: {
    column: 'locales',
    defaultOf: (s: StoreRow) => s.defaultLocale,
    normalise: (raw: string, field: string) => {
      const r = canonicalLocale(raw, field);
      return 'error' in r ? r : { code: r.locale };
    },
    limit: 'localesPerStore',
  },
  currency: {
    column: 'currencies',
    defaultOf: (s: StoreRow) => s.currency,
    normalise: (raw: string, field: string) => {
      const r = normaliseCurrency(raw, field);
      return 'error' in r ? r : { code: r.currency };
    },
    limit: 'currenciesPerStore',
  },
} as const satisfies Record<string, { column: 'locales' | 'currencies'; defaultOf: (s: StoreRow) => string; normalise: unknown; limit: CatalogLimit }>;
type Kind = keyof typeof LISTS;

/** A locale as the API shows it: the tag, its English name, whether it is the default (Shopify's ShopLocale, `primary`). */
export const localeView = (locale: string, defaultLocale: string) => ({ locale, name: localeName(locale), default: locale === defaultLocale });

/** A currency as the API shows it, with the digits its amounts have after the decimal point. */
export const currencyView = (currency: string, defaultCurrency: string) => ({
  currency,
  name: new Intl.DisplayNames('en', { type: 'currency' }).of(currency) ?? currency,
  minor_units: minorUnits(currency),
  default: currency === defaultCurrency,
});

/** The default first, then the others in the order added. */
const allOf = (kind: Kind, s: StoreRow) => [LISTS[kind].defaultOf(s), ...s[LISTS[kind].column]];

export const storeLocales = (s: StoreRow) => allOf('locale', s).map((l) => localeView(l, s.defaultLocale));
export const storeCurrencies = (s: StoreRow) => allOf('currency', s).map((c) => currencyView(c, s.currency));

async function readStore(ctx: RequestContext, storeId: string) {
  const store = isUuid(storeId) ? await ctx.db.store.findUnique({ where: { id: storeId } }) : null;
  if (!store) throw notFound('Store');
  return store;
}

/** The code normalised, or the 422 naming the field as the client sent it. */
function normalised(kind: Kind, raw: string, field: string) {
  const r = LISTS[kind].normalise(raw, field);
  if ('error' in r) throw validationError([r.error]);
  return r.code;
}

/** An error's `details` (its problem's extension members): the locale or currency it is about, under its kind's name. */
const detailsOf = (kind: Kind, code: string) => ({ details: kind === 'locale' ? { locale: code } : { currency: code } });

const notListed = (kind: Kind, code: string) => new AppError('not_found', `The store has no ${kind} "${code}"`, detailsOf(kind, code));

/** Store-level configuration: a live event, as attributes'; its changes name `locales`, `default_locale` or `currencies`. */
const emitStoreUpdated = (t: TransactionContext, after: StoreRow, before: StoreRow) =>
  emit(t, { type: 'store.updated', storeId: after.id, mode: 'live', resource: { type: 'store', id: after.id }, data: storeView(after), before: storeView(before) });

/** Runs `change` on the store's row locked to the commit (so two adds racing past the limit take turns), recording the event when it wrote. */
async function changeStore(ctx: RequestContext, storeId: string, change: (t: TransactionContext, store: StoreRow) => Promise<StoreRow | null>) {
  await readStore(ctx, storeId);
  return transaction(ctx, async (t) => {
    await lockStoreConfiguration(t, storeId);
    const before = await t.tx.store.findUniqueOrThrow({ where: { id: storeId } });
    const after = await change(t, before);
    if (!after) return before;
    emitStoreUpdated(t, after, before);
    return after;
  });
}

async function addToList(ctx: RequestContext, storeId: string, kind: Kind, raw: string) {
  const code = normalised(kind, raw, kind);
  const list = LISTS[kind];
  return changeStore(ctx, storeId, async (t, store) => {
    if (allOf(kind, store).includes(code)) {
      throw new AppError(`${kind}_taken`, `The store already has the ${kind} "${code}"`, {
        errors: [{ field: kind, code: `${kind}_taken`, message: `"${code}" is already one of the store's ${list.column}` }],
        ...detailsOf(kind, code),
      });
    }
    if (store[list.column].length >= CATALOG_LIMITS[list.limit]) {
      throw limitExceeded(list.limit, `A store has at most ${CATALOG_LIMITS[list.limit]} ${list.column} beside its default one; remove one first`);
    }
    return t.tx.store.update({ where: { id: storeId }, data: { [list.column]: [...store[list.column], code] } });
  });
}

/** Removes a further locale or currency; the default is 409 default_<kind>_not_removable, one the store lacks 404. */
async function removeFromList(ctx: RequestContext, storeId: string, kind: Kind, raw: string, beforeRemoving: (t: TransactionContext, code: string) => Promise<void>) {
  const code = normalised(kind, raw, kind);
  const list = LISTS[kind];
  return changeStore(ctx, storeId, async (t, store) => {
    if (list.defaultOf(store) === code) {
      throw new AppError(`default_${kind}_not_removable`, `"${code}" is the store's default ${kind} and cannot be removed${kind === 'locale' ? '; make another locale the default first' : ''}`, {
        ...detailsOf(kind, code),
      });
    }
    if (!store[list.column].includes(code)) throw notListed(kind, code);
    await beforeRemoving(t, code);
    return t.tx.store.update({ where: { id: storeId }, data: { [list.column]: store[list.column].filter((c) => c !== code) } });
  });
}

export async function listStoreLocales(ctx: RequestContext, storeId: string) {
  return storeLocales(await readStore(ctx, storeId));
}

export async function listStoreCurrencies(ctx: RequestContext, storeId: string) {
  return storeCurrencies(await readStore(ctx, storeId));
}

/** Adds a locale (normalised: `de-at` is `de-AT`); one the store has is 409 locale_taken, past the limit 422 limit_exceeded. */
export async function addStoreLocale(ctx: RequestContext, storeId: string, locale: string) {
  const store = await addToList(ctx, storeId, 'locale', locale);
  return localeView(store.locales.at(-1)!, store.defaultLocale);
}

/**
 * Removes a locale. When translations use it, `deleteTranslations` is needed and deletes them in the same write
 * (their resources' own events are not recorded one by one: the store.updated event stands for them); without
 * it, 409 locale_has_translations naming how many.
 */
export async function removeStoreLocale(ctx: RequestContext, storeId: string, locale: string, opts: { deleteTranslations?: boolean } = {}) {
  const store = await removeFromList(ctx, storeId, 'locale', locale, async (t, code) => {
    if (opts.deleteTranslations) await deleteTranslationsIn(t, storeId, code);
    else await refuseTranslated(t, storeId, code, 'send delete_translations=true to delete them with it');
  });
  return localeView(normalised('locale', locale, 'locale'), store.defaultLocale);
}

/** Translations of every kind in the locale, in both catalogs. */
async function countTranslationsIn(t: TransactionContext, storeId: string, locale: string) {
  const where = { storeId, locale };
  return (await t.tx.productTranslation.count({ where })) + (await t.tx.categoryTranslation.count({ where })) + (await t.tx.attributeTranslation.count({ where }));
}

async function deleteTranslationsIn(t: TransactionContext, storeId: string, locale: string) {
  const where = { storeId, locale };
  await t.tx.productTranslation.deleteMany({ where });
  await t.tx.categoryTranslation.deleteMany({ where });
  await t.tx.attributeTranslation.deleteMany({ where });
}

/** 409 locale_has_translations when translations use the locale. */
async function refuseTranslated(t: TransactionContext, storeId: string, locale: string, action: string) {
  const count = await countTranslationsIn(t, storeId, locale);
  if (count === 0) return;
  throw new AppError('locale_has_translations', `${count} translation(s) use the locale "${locale}"; ${action}`, { details: { locale, translations: count } });
}

/**
 * Makes one of the store's locales its default; the former default stays a further locale, in the new
 * default's place, so the count (and the limit) does not move. One the store lacks: 404 (add it first); one
 * that translations use: 409 locale_has_translations (they would shadow nothing and read as the default's).
 */
export async function setDefaultStoreLocale(ctx: RequestContext, storeId: string, locale: string) {
  const code = normalised('locale', locale, 'locale');
  const store = await changeStore(ctx, storeId, async (t, current) => {
    if (current.defaultLocale === code) return null;
    if (!current.locales.includes(code)) throw notListed('locale', code);
    // The resources' own fields hold the default locale's text: its translations would have nowhere to go.
    await refuseTranslated(t, storeId, code, 'remove them before making it the default (the resources\' own fields hold the default locale\'s text)');
    const locales = current.locales.map((l) => (l === code ? current.defaultLocale : l));
    return t.tx.store.update({ where: { id: storeId }, data: { defaultLocale: code, locales } });
  });
  return localeView(code, store.defaultLocale);
}

/** Adds a currency (upper-cased ISO 4217 the runtime knows); one the store has is 409 currency_taken, past the limit 422. */
export async function addStoreCurrency(ctx: RequestContext, storeId: string, currency: string) {
  const store = await addToList(ctx, storeId, 'currency', currency);
  return currencyView(store.currencies.at(-1)!, store.currency);
}

/**
 * Removes a further currency; the default (the store's `currency`) is 409 default_currency_not_removable. When
 * products or variants (of either catalog, test or live) have prices in it, 409 currency_in_use naming how many,
 * unless `deletePrices`: then those prices go with it, in the same transaction (each product priced in it moves to
 * a new version, so ETags taken before are stale; the store.updated event records the removal, no product event).
 */
export async function removeStoreCurrency(ctx: RequestContext, storeId: string, currency: string, opts: { deletePrices?: boolean } = {}) {
  const store = await removeFromList(ctx, storeId, 'currency', currency, async (t, code) => {
    // Products priced in the currency themselves or through a variant.
    const [{ products }] = await t.tx.$queryRaw<{ products: number }[]>`
      SELECT count(*)::int AS products FROM products WHERE store_id = ${storeId}::uuid
        AND (prices ? ${code} OR id IN (SELECT product_id FROM variants WHERE store_id = ${storeId}::uuid AND prices ? ${code}))`;
    if (products === 0) return;
    if (!opts.deletePrices) {
      throw new AppError('currency_in_use', `${products} product(s) have prices in ${code} (their own or their variants'); remove them first, or pass delete_prices=true to delete them with the currency`, {
        details: { currency: code, products },
      });
    }
    // The products of priced variants move to a new version too: their representation (the variants') changed.
    await t.tx.$executeRaw`UPDATE products SET prices = prices - ${code}::text, version = version + 1, updated_at = now()
      WHERE store_id = ${storeId}::uuid AND (prices ? ${code} OR id IN (SELECT product_id FROM variants WHERE store_id = ${storeId}::uuid AND prices ? ${code}))`;
    await t.tx.$executeRaw`UPDATE variants SET prices = prices - ${code}::text WHERE store_id = ${storeId}::uuid AND prices ? ${code}`;
  });
  return currencyView(normalised('currency', currency, 'currency'), store.currency);
}
