/** GS1 trade item numbers (GTIN-8, -12, -13, -14): the check digit a barcode must end with. */

const GTIN_LENGTHS = new Set([8, 12, 13, 14]);

/**
 * The GS1 mod-10 check digit of a GTIN's other digits: from the right, digits weigh 3, 1, 3, …; the check digit
 * brings the weighted sum to a multiple of ten.
 */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether `s` is a GTIN-8, -12, -13 or -14: digits only, of one of those lengths, ending with its check digit. */
export function isValidGtin(s: string): boolean {
  if (!GTIN_LENGTHS.has(s.length) || !/^\d+$/.test(s)) return false;
  return gtinCheckDigit(s.slice(0, -1)) === s.charCodeAt(s.length - 1) - 48;
}

/** A GTIN-13 with a valid check digit from a 12-digit body (fixtures and generated test catalogs). */
export const gtin13 = (body12: string) => body12 + String(gtinCheckDigit(body12));
