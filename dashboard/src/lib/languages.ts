/** Names of languages and currencies in the browser's own language, and amounts checked as the service checks them. */

function displayName(type: 'language' | 'currency', code: string): string | null {
  try {
    const name = new Intl.DisplayNames(undefined, { type, fallback: 'none' }).of(code);
    return name && name !== code ? name : null;
  } catch {
    return null;
  }
}

/** The canonical BCP 47 form of a tag (de-at → de-AT), or null when it is not one. */
export function canonicalLocale(tag: string): string | null {
  const trimmed = tag.trim();
  if (!trimmed || trimmed.length > 35 || trimmed.includes('_')) return null;
  try {
    const [canonical] = Intl.getCanonicalLocales(trimmed);
    // Extensions and private use (de-u-co-phonebk, x-foo) are not store languages.
    if (!canonical || /(^|-)[a-wyz]-|(^|-)x-/i.test(canonical)) return null;
    return canonical;
  } catch {
    return null;
  }
}

/** "German (Austria)" for de-AT, in the browser's language; the service's English name when the browser has none. */
export function languageName(tag: string, fallback?: string): string {
  return displayName('language', tag) ?? fallback ?? tag;
}

export function currencyName(code: string, fallback?: string): string {
  return displayName('currency', code.toUpperCase()) ?? fallback ?? code.toUpperCase();
}

/** Whether the browser knows the code as a currency (a first check; the service has the final word). */
export const knownCurrency = (code: string) => /^[A-Za-z]{3}$/.test(code.trim()) && displayName('currency', code.trim().toUpperCase()) !== null;

/** An example amount in a currency with these minor-unit digits: 1200, 12.00, 1.250. */
export function exampleAmount(minorUnits: number): string {
  return minorUnits === 0 ? '1200' : minorUnits === 3 ? '1.250' : `12.${'0'.repeat(minorUnits)}`;
}

/** What the service would say of an amount in a currency with these digits, in words; null when it is fine. */
export function amountProblem(amount: string, minorUnits: number): string | null {
  const value = amount.trim();
  if (!/^-?\d+(\.\d+)?$/.test(value)) return `Enter a number, e.g. ${exampleAmount(minorUnits)}.`;
  if (value.startsWith('-')) return 'The amount cannot be negative.';
  const digits = value.split('.')[1]?.length ?? 0;
  if (digits === minorUnits) return null;
  return minorUnits === 0
    ? `Enter a whole amount without decimals, e.g. ${exampleAmount(0)}.`
    : `Enter exactly ${minorUnits} ${minorUnits === 1 ? 'digit' : 'digits'} after the decimal point, e.g. ${exampleAmount(minorUnits)}.`;
}

/** The number found in a refusal's message ("3 translation(s) use …", "2 product(s) have prices …"). */
export function countIn(message: string, noun: string): number | null {
  const found = new RegExp(`(\\d+) ${noun}`).exec(message);
  return found ? Number(found[1]) : null;
}

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
