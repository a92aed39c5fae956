/** GraphQL types of prices in a store's further currencies (products and variants alike). */

import { builder } from '../../api/graphql/builder';
import { type PriceView, priceIn, pricesView } from '../services/prices';

export const Price = builder.objectRef<PriceView>('Price').implement({
  description: "A price in one of the store's further currencies. Amounts are decimal strings with exactly the currency's minor-unit digits (\"12.00\" EUR, \"1200\" JPY, \"1.250\" KWD).",
  fields: (t) => ({
    currency: t.exposeString('currency', { description: 'ISO 4217, one of the store\'s further currencies' }),
    amount: t.exposeString('amount'),
    compareAtAmount: t.exposeString('compare_at_amount', { nullable: true, description: 'The "was" amount, above `amount`' }),
  }),
});

export const PriceInput = builder.inputType('PriceInput', {
  fields: (t) => ({
    currency: t.string({ required: true, description: "One of the store's further currencies (not its default: that price is `price`)" }),
    amount: t.string({ required: true, description: 'A decimal string with exactly the currency\'s minor-unit digits: "12.00" EUR, "1200" JPY, "1.250" KWD; not negative' }),
    compareAtAmount: t.string({ description: 'Like amount, and above it; null or left out: none' }),
  }),
});

export const PRICES_INPUT_DESCRIPTION = "Prices in the store's further currencies: the list sent replaces the stored one ([] removes them all); left out, they are kept";

/** The `prices` field of a type whose row has the prices column. */
export const pricesField = (t: any) =>
  t.field({ type: [Price], select: { prices: true }, description: "Prices in the store's further currencies, by currency; none in a currency: no price there (no exchange rate is applied)", resolve: (r: { prices: unknown }) => pricesView(r.prices) });

/** GraphQL's price inputs as the services take them (null compare-at: none). */
export const pricesArg = (list: { currency: string; amount: string; compareAtAmount?: string | null }[] | null | undefined) =>
  list?.map((p) => ({ currency: p.currency, amount: p.amount, ...(p.compareAtAmount != null ? { compareAtAmount: p.compareAtAmount } : {}) }));

/**
 * The further currency a storefront row is read in (publicProducts' and publicProduct's `currency`), set on the
 * product's row and its variants' rows by the field that read them; absent: the store's default, `price`.
 */
const IN_CURRENCY = Symbol('currency');
export type Priced = { [IN_CURRENCY]?: string; prices: unknown };
export type Money = { toFixed(n: number): string } | string | null;

/** Marks rows (and their variants) as read in a further currency; none leaves them in the default. */
export function readIn<R extends object>(rows: R[], currency: string | null): R[] {
  if (currency) {
    for (const row of rows as (R & Priced & { variants?: Priced[] })[]) {
      row[IN_CURRENCY] = currency;
      for (const v of row.variants ?? []) v[IN_CURRENCY] = currency;
    }
  }
  return rows;
}

/** A price field in the row's currency: the column in the default, the amount of `prices` in a further one (null where none). */
export const amountIn = (row: Priced, inDefault: Money, field: 'amount' | 'compare_at_amount'): Money => {
  const currency = row[IN_CURRENCY];
  return currency ? (priceIn(row.prices, currency)?.[field] ?? null) : inDefault;
};

export const CURRENCY_ARG_DESCRIPTION =
  "One of the store's currencies (ISO 4217): prices come in it, from the prices the merchant set in it (no exchange rate is ever applied); a product without one answers price null and lists its currencies. Default: the store's currency. One the store does not sell in: currency_not_sold (422)";

/** The further currency a storefront row was read in; undefined: the store's default. */
export const currencyOf = (row: Priced) => row[IN_CURRENCY];
