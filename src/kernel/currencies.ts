/**
 * ISO 4217 codes of the currencies a store can price its products in: the
 * currencies in circulation on List One (as amended through 2025: XCG replaced
 * ANG, ZWG replaced ZWL, SLE replaced SLL; HRK and BGN went with the euro).
 * Fund codes (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW), precious metals,
 * bond units, SDR and the testing / no-currency codes are on List One too but
 * are not money a shop charges, so they are refused. Kept in the repository
 * (not read from the runtime's ICU data, which changes with the Node version)
 * so a change is reviewed like code; sorted.
 */
export const ISO_4217_CURRENCIES: readonly string[] = Object.freeze([
  'AED', 'AFN', 'ALL', 'AMD', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN',
  'BAM', 'BBD', 'BDT', 'BHD', 'BIF', 'BMD', 'BND', 'BOB', 'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD',
  'CAD', 'CDF', 'CHF', 'CLP', 'CNY', 'COP', 'CRC', 'CUP', 'CVE', 'CZK',
  'DJF', 'DKK', 'DOP', 'DZD',
  'EGP', 'ERN', 'ETB', 'EUR',
  'FJD', 'FKP',
  'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GNF', 'GTQ', 'GYD',
  'HKD', 'HNL', 'HTG', 'HUF',
  'IDR', 'ILS', 'INR', 'IQD', 'IRR', 'ISK',
  'JMD', 'JOD', 'JPY',
  'KES', 'KGS', 'KHR', 'KMF', 'KPW', 'KRW', 'KWD', 'KYD', 'KZT',
  'LAK', 'LBP', 'LKR', 'LRD', 'LSL', 'LYD',
  'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MYR', 'MZN',
  'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD',
  'OMR',
  'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'PYG',
  'QAR',
  'RON', 'RSD', 'RUB', 'RWF',
  'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN', 'SVC', 'SYP', 'SZL',
  'THB', 'TJS', 'TMT', 'TND', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS',
  'UAH', 'UGX', 'USD', 'UYU', 'UZS',
  'VED', 'VES', 'VND', 'VUV',
  'WST',
  'XAF', 'XCD', 'XCG', 'XOF', 'XPF',
  'YER',
  'ZAR', 'ZMW', 'ZWG',
]);

const KNOWN = new Set(ISO_4217_CURRENCIES);

export const isIso4217Currency = (code: string) => KNOWN.has(code);

/**
 * Digits after the decimal point (ISO 4217's minor unit) where they are not 2. From List One, like the codes: the
 * runtime's ICU data gives some currencies other digits (its cash or display conventions), and an amount's shape
 * must not change with the Node version.
 */
const MINOR_UNITS_OTHER_THAN_2: Readonly<Record<string, number>> = Object.freeze({
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
});

/** Digits after the decimal point of an amount in a currency of ISO_4217_CURRENCIES: 0 for JPY, 2 for EUR, 3 for KWD. */
export const currencyMinorUnits = (code: string) => MINOR_UNITS_OTHER_THAN_2[code] ?? 2;
