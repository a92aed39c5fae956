/**
 * Prices in a store's further currencies, on products and variants: the input rules, the stored form, the view and
 * the history's changes per currency. A price exists only where the merchant set it: nothing here converts.
 *
 * Stored as a JSON column of the product (and of the variant) keyed by currency, {"EUR": {"amount": "12.00",
 * "compare_at_amount": null}}, rather than a table of price rows: every read of a product (list page, read,
 * event, export) shows its prices, and a column comes with the row at no extra statement or join; a write
 * replaces the list with the product's version. A list sorted or filtered by price in a further currency reads
 * product_currency_prices, a row per product and currency kept from the column by triggers, whose index serves
 * both (productList.ts; bench/results/currencies.md has the figures).
 */

import { z } from 'zod';
import type { FieldChange } from '../../kernel/events';
import { amountError, normaliseCurrency } from '../../kernel/money';
import type { RequestContext } from '../../platform/context';
import { type FieldError, validationError } from '../../platform/errors';
import { fieldErrorsOf, parseInput } from '../../platform/validation';
import { CATALOG_LIMITS } from '../limits';

/** A price in one further currency as stored (keyed by its currency). */
export type StoredPrice = {
  amount: string;
  compare_at_amount: string | null;
};
export type StoredPrices = Record<string, StoredPrice>;

/** A price as the API shows and takes it. */
export interface PriceView {
  currency: string;
  amount: string;
  compare_at_amount: string | null;
}

const decimal = (amount: string) => Number(amount);

/** Amounts have at most 12 digits before the point: below 10^12 in any currency, they compare and sort exactly as numbers. */
const tooBig = (amount: unknown, field: string) =>
  typeof amount === 'string' && amount.split('.')[0].length > 12 ? { field, code: 'too_big', message: 'must have at most 12 digits before the decimal point' } : null;

/**
 * The `prices` of a write: a list of {currency, amount, compareAtAmount}, replacing the stored list. Every error
 * at once, each naming its field (`prices.0.amount`): a currency that is not ISO 4217 or is listed twice, an
 * amount that is not a decimal string with exactly the currency's minor-unit digits or is negative, a
 * compare-at amount that is not above the amount. Whether the store sells in the currency is the write's check
 * (storePriceErrors), which needs the store. Gives the stored form.
 */
export const PricesInput = z
  .array(z.object({ currency: z.string(), amount: z.unknown(), compareAtAmount: z.unknown().optional() }).strict())
  .max(CATALOG_LIMITS.currenciesPerStore, `at most ${CATALOG_LIMITS.currenciesPerStore} prices, one per further currency of the store`)
  .transform((list, c) => {
    const stored: StoredPrices = {};
    const firstAt = new Map<string, number>();
    list.forEach((p, i) => {
      const issue = (e: { field: string; code: string; message: string }) =>
        c.addIssue({ code: 'custom', path: [i, e.field], message: e.message, params: { code: e.code } });
      const currency = normaliseCurrency(p.currency, 'currency');
      if ('error' in currency) return issue(currency.error);
      const code = currency.currency;
      const earlier = firstAt.get(code);
      if (earlier !== undefined) return issue({ field: 'currency', code: 'duplicate_currency', message: `${code} is also priced by prices.${earlier}` });
      firstAt.set(code, i);
      const amount = amountError(p.amount, code, 'amount') ?? tooBig(p.amount, 'amount');
      if (amount) issue(amount);
      const compareAt = p.compareAtAmount == null ? null : (amountError(p.compareAtAmount, code, 'compareAtAmount') ?? tooBig(p.compareAtAmount, 'compareAtAmount'));
      if (compareAt) issue(compareAt);
      if (amount || compareAt) return;
      const compare = p.compareAtAmount == null ? null : (p.compareAtAmount as string);
      if (compare !== null && decimal(compare) <= decimal(p.amount as string)) {
        issue({ field: 'compareAtAmount', code: 'compare_at_amount_not_above_amount', message: `must be greater than the amount (${p.amount as string})` });
      }
      stored[code] = { amount: p.amount as string, compare_at_amount: compare };
    });
    return sortedByCurrency(stored);
  });

const sortedByCurrency = (prices: StoredPrices): StoredPrices => Object.fromEntries(Object.entries(prices).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * The errors of prices in currencies the store does not sell in: its default currency (whose price is `price`) or
 * one that is not among its further currencies, each at its field (`prices.0.currency`, `variants.2.prices.0.currency`).
 * `lists` are the price lists as sent, with where each is. Reads the store's currencies only when some price is sent.
 */
export async function storePriceErrors(ctx: RequestContext, storeId: string, lists: { input: unknown; field: string }[]): Promise<FieldError[]> {
  const sent = lists.filter((l) => Array.isArray(l.input) && l.input.length > 0);
  if (!sent.length) return [];
  // Inside a write's transaction (an import's row), its client: another connection could wait on this one.
  const db = 'tx' in ctx ? (ctx as RequestContext & { tx: RequestContext['db'] }).tx : ctx.db;
  const store = await db.store.findUnique({ where: { id: storeId }, select: { currency: true, currencies: true } });
  if (!store) return [];
  const errors: FieldError[] = [];
  for (const { input, field } of sent) {
    (input as unknown[]).forEach((p, i) => {
      const sentCode = (p as { currency?: unknown } | null)?.currency;
      const code = typeof sentCode === 'string' ? normaliseCurrency(sentCode, '') : null;
      if (!code || 'error' in code) return;
      if (code.currency === store.currency) {
        errors.push({ field: `${field}.${i}.currency`, code: 'default_currency_price', message: `${code.currency} is the store's default currency: its price is \`price\`` });
      } else if (!store.currencies.includes(code.currency)) {
        errors.push({
          field: `${field}.${i}.currency`,
          code: 'currency_not_sold',
          message: `the store does not sell in ${code.currency}; add it to the store's currencies first (further currencies: ${store.currencies.join(', ') || 'none'})`,
        });
      }
    });
  }
  return errors;
}

/**
 * Parses a write's input with its schema, with the errors of prices in currencies the store does not sell in
 * reported beside the schema's (every error at once). The store's currencies are read before the write's
 * transaction: a currency removed in between leaves a price the store's currencies no longer list, which no read
 * in a currency shows (a removal without delete_prices is refused only for prices written before it).
 */
export async function parseWithPrices<S extends z.ZodType>(ctx: RequestContext, storeId: string, schema: S, input: unknown, lists: (input: any) => { input: unknown; field: string }[]): Promise<z.output<S>> {
  const errors = [...fieldErrorsOf(schema, input), ...(await storePriceErrors(ctx, storeId, lists(input ?? {})))];
  if (errors.length) throw validationError(errors);
  return parseInput(schema, input);
}

/** The stored prices as the API lists them, by currency. */
export function pricesView(stored: unknown): PriceView[] {
  return Object.entries((stored ?? {}) as StoredPrices).map(([currency, p]) => ({ currency, amount: p.amount, compare_at_amount: p.compare_at_amount }));
}

/** The stored form of a list the API showed (an import row, an event's data). */
export const storedPrices = (list: PriceView[]): StoredPrices => sortedByCurrency(Object.fromEntries(list.map((p) => [p.currency, { amount: p.amount, compare_at_amount: p.compare_at_amount }])));

/** Whether two stored price sets are the same prices. */
export const samePrices = (a: unknown, b: unknown) => JSON.stringify(sortedByCurrency((a ?? {}) as StoredPrices)) === JSON.stringify(sortedByCurrency((b ?? {}) as StoredPrices));

/**
 * The history's changes with `prices` told per currency: `prices.EUR` from the price before to the price after
 * (null where there was none), for each currency whose price changed; every other change as it is.
 */
export function withPriceChangesPerCurrency(changes: FieldChange[]): FieldChange[] {
  return changes.flatMap((c) => {
    if (c.field !== 'prices' || !Array.isArray(c.previous) || !Array.isArray(c.next)) return [c];
    const byCurrency = (list: PriceView[]) => new Map(list.map((p) => [p.currency, p]));
    const [before, after] = [byCurrency(c.previous as PriceView[]), byCurrency(c.next as PriceView[])];
    const currencies = [...new Set([...before.keys(), ...after.keys()])].sort();
    return currencies
      .filter((cur) => JSON.stringify(before.get(cur) ?? null) !== JSON.stringify(after.get(cur) ?? null))
      .map((cur) => ({ field: `prices.${cur}`, previous: before.get(cur) ?? null, next: after.get(cur) ?? null }));
  });
}

/** The price of a product or variant in a currency: the amounts, or null where it has none there. */
export const priceIn = (stored: unknown, currency: string): StoredPrice | null => ((stored ?? {}) as StoredPrices)[currency] ?? null;
