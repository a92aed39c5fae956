/**
 * Currency rules shared by every layer: which ISO 4217 codes a store may use, how many digits after the decimal point
 * each has (its minor units), and what an amount string in it looks like. The codes and digits are the repository's
 * reviewed copy of List One (./currencies), the store's default currency is checked against the same list, and no
 * exchange rates exist here, nor anywhere: a price exists only where the merchant set it. A leaf module.
 */
import { currencyMinorUnits, isIso4217Currency } from './currencies';

/** A problem with one field, as services report it (the shape of platform/errors' FieldError). */
export interface MoneyFieldError {
  field: string;
  code: string;
  message: string;
}

/** The upper-cased currency code, or a field error naming `field`. */
export function normaliseCurrency(code: string, field: string): { currency: string } | { error: MoneyFieldError } {
  const currency = code.trim().toUpperCase();
  if (!isIso4217Currency(currency)) {
    return { error: { field, code: 'invalid_currency', message: `"${code}" is not an ISO 4217 currency code (such as EUR, JPY or KWD)` } };
  }
  return { currency };
}

/** Digits after the decimal point of an amount in the currency: 0 for JPY, 2 for EUR, 3 for KWD. */
export const minorUnits = currencyMinorUnits;

/**
 * Checks an amount sent as a decimal string: not negative, and with exactly the currency's minor-unit digits
 * (`"12.00"` in EUR, `"1200"` in JPY, `"1.250"` in KWD). Returns the field error naming `field`, or null.
 * Exactly, not "at most": "12.5" in EUR is refused, so one amount has one spelling and compares as text.
 */
export function amountError(amount: unknown, currency: string, field: string): MoneyFieldError | null {
  const digits = minorUnits(currency);
  const shape = digits === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${digits}}$`);
  const example = digits === 0 ? '"1200"' : `"12.${'0'.repeat(digits)}"`;
  if (typeof amount !== 'string') return { field, code: 'invalid_amount', message: `must be a decimal string such as ${example} (${currency})` };
  if (amount.trim().startsWith('-')) return { field, code: 'negative_amount', message: 'must not be negative' };
  if (!shape.test(amount) || /^0\d/.test(amount)) {
    return { field, code: 'invalid_amount', message: `must have exactly ${digits} digit(s) after the decimal point in ${currency}, such as ${example}` };
  }
  return null;
}
