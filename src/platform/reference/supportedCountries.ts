/**
 * Countries where payments are supported: ISO 3166-1 alpha-2 code, English
 * short name, the default settlement currency and every currency a store in
 * that country may charge in (ISO 4217). Kept in the repository so a change is
 * reviewed like code; sorted by code.
 */
interface SupportedCountry {
  code: string;
  name: string;
  defaultCurrency: string;
  supportedCurrencies: string[];
}

const EUROZONE = ['EUR', 'USD', 'GBP'];

export const SUPPORTED_COUNTRIES: readonly SupportedCountry[] = Object.freeze([
  { code: 'AE', name: 'United Arab Emirates', defaultCurrency: 'AED', supportedCurrencies: ['AED', 'USD', 'EUR'] },
  { code: 'AT', name: 'Austria', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'AU', name: 'Australia', defaultCurrency: 'AUD', supportedCurrencies: ['AUD', 'USD', 'NZD'] },
  { code: 'BE', name: 'Belgium', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'BG', name: 'Bulgaria', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'BR', name: 'Brazil', defaultCurrency: 'BRL', supportedCurrencies: ['BRL', 'USD'] },
  { code: 'CA', name: 'Canada', defaultCurrency: 'CAD', supportedCurrencies: ['CAD', 'USD'] },
  { code: 'CH', name: 'Switzerland', defaultCurrency: 'CHF', supportedCurrencies: ['CHF', 'EUR', 'USD'] },
  { code: 'CY', name: 'Cyprus', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'CZ', name: 'Czechia', defaultCurrency: 'CZK', supportedCurrencies: ['CZK', 'EUR', 'USD'] },
  { code: 'DE', name: 'Germany', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'DK', name: 'Denmark', defaultCurrency: 'DKK', supportedCurrencies: ['DKK', 'EUR', 'SEK', 'NOK'] },
  { code: 'EE', name: 'Estonia', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'ES', name: 'Spain', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'FI', name: 'Finland', defaultCurrency: 'EUR', supportedCurrencies: [...EUROZONE, 'SEK'] },
  { code: 'FR', name: 'France', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'GB', name: 'United Kingdom', defaultCurrency: 'GBP', supportedCurrencies: ['GBP', 'EUR', 'USD'] },
  { code: 'GR', name: 'Greece', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'HK', name: 'Hong Kong', defaultCurrency: 'HKD', supportedCurrencies: ['HKD', 'USD', 'CNY'] },
  { code: 'HR', name: 'Croatia', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'HU', name: 'Hungary', defaultCurrency: 'HUF', supportedCurrencies: ['HUF', 'EUR', 'USD'] },
  { code: 'IE', name: 'Ireland', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'IN', name: 'India', defaultCurrency: 'INR', supportedCurrencies: ['INR'] },
  { code: 'IT', name: 'Italy', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'JP', name: 'Japan', defaultCurrency: 'JPY', supportedCurrencies: ['JPY', 'USD'] },
  { code: 'LT', name: 'Lithuania', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'LU', name: 'Luxembourg', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'LV', name: 'Latvia', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'MT', name: 'Malta', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'MX', name: 'Mexico', defaultCurrency: 'MXN', supportedCurrencies: ['MXN', 'USD'] },
  { code: 'NL', name: 'Netherlands', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'NO', name: 'Norway', defaultCurrency: 'NOK', supportedCurrencies: ['NOK', 'EUR', 'SEK', 'DKK'] },
  { code: 'NZ', name: 'New Zealand', defaultCurrency: 'NZD', supportedCurrencies: ['NZD', 'AUD', 'USD'] },
  { code: 'PL', name: 'Poland', defaultCurrency: 'PLN', supportedCurrencies: ['PLN', 'EUR', 'USD'] },
  { code: 'PT', name: 'Portugal', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'RO', name: 'Romania', defaultCurrency: 'RON', supportedCurrencies: ['RON', 'EUR', 'USD'] },
  { code: 'SE', name: 'Sweden', defaultCurrency: 'SEK', supportedCurrencies: ['SEK', 'EUR', 'NOK', 'DKK'] },
  { code: 'SG', name: 'Singapore', defaultCurrency: 'SGD', supportedCurrencies: ['SGD', 'USD'] },
  { code: 'SI', name: 'Slovenia', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'SK', name: 'Slovakia', defaultCurrency: 'EUR', supportedCurrencies: EUROZONE },
  { code: 'US', name: 'United States', defaultCurrency: 'USD', supportedCurrencies: ['USD'] },
]);
