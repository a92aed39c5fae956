import { amountError, minorUnits, normaliseCurrency } from '../../src/kernel/money';
import { canonicalLocale } from '../../src/kernel/locales';

describe('currency minor units', () => {
  it("are ISO 4217's digits: JPY 0, EUR 2, KWD 3, and the 0 and 3 of every such currency the store list holds", () => {
    expect([minorUnits('JPY'), minorUnits('EUR'), minorUnits('KWD')]).toEqual([0, 2, 3]);
    expect(['CLP', 'ISK', 'KRW', 'VND', 'XOF'].map(minorUnits)).toEqual([0, 0, 0, 0, 0]);
    expect(['BHD', 'IQD', 'JOD', 'LYD', 'OMR', 'TND'].map(minorUnits)).toEqual([3, 3, 3, 3, 3, 3]);
  });

  it('codes are upper-cased and unknown ones refused, naming the field as sent', () => {
    expect(normaliseCurrency(' jpy ', 'currency')).toEqual({ currency: 'JPY' });
    expect(normaliseCurrency('XYZ', 'prices.0.currency')).toEqual({ error: expect.objectContaining({ field: 'prices.0.currency', code: 'invalid_currency' }) });
    expect(normaliseCurrency('EURO', 'currency')).toEqual({ error: expect.objectContaining({ code: 'invalid_currency' }) });
    // Known to ISO 4217 but not money a shop charges (a fund code, gold): refused as a store's default is.
    expect(normaliseCurrency('CHE', 'currency')).toEqual({ error: expect.objectContaining({ code: 'invalid_currency' }) });
    expect(normaliseCurrency('XAU', 'currency')).toEqual({ error: expect.objectContaining({ code: 'invalid_currency' }) });
  });
});

describe('amounts', () => {
  it.each([
    ['JPY', '1200'],
    ['JPY', '0'],
    ['EUR', '12.00'],
    ['EUR', '0.99'],
    ['KWD', '1.250'],
  ])('%s %s has exactly its minor-unit digits', (currency, amount) => {
    expect(amountError(amount, currency, 'price')).toBeNull();
  });

  it.each([
    ['JPY', '1200.00'],
    ['JPY', '12.5'],
    ['EUR', '12'],
    ['EUR', '12.5'],
    ['EUR', '12.000'],
    ['KWD', '1.25'],
    ['KWD', '1.2500'],
    ['EUR', '012.00'],
    ['EUR', '1e3'],
    ['EUR', ''],
  ])('%s %s has the wrong digits: invalid_amount', (currency, amount) => {
    expect(amountError(amount, currency, 'prices.1.amount')).toEqual(expect.objectContaining({ field: 'prices.1.amount', code: 'invalid_amount' }));
  });

  it('refuses a negative amount and a number sent for a string', () => {
    expect(amountError('-1.00', 'EUR', 'prices.0.amount')).toEqual(expect.objectContaining({ field: 'prices.0.amount', code: 'negative_amount' }));
    expect(amountError('-5', 'JPY', 'price')?.code).toBe('negative_amount');
    expect(amountError(12, 'EUR', 'price')?.code).toBe('invalid_amount');
  });

  it('names the digits the currency wants in the message', () => {
    expect(amountError('1.25', 'KWD', 'a')?.message).toContain('exactly 3 digit(s)');
    expect(amountError('1.25', 'JPY', 'a')?.message).toContain('"1200"');
  });
});

describe('locale tags', () => {
  it.each([
    ['de-at', 'de-AT'],
    ['EN', 'en'],
    ['pt-br', 'pt-BR'],
    ['zh-hant-tw', 'zh-Hant-TW'],
  ])('%s is normalised to %s', (tag, canonical) => {
    expect(canonicalLocale(tag, 'locale')).toEqual({ locale: canonical });
  });

  it.each(['en_US', 'x-foo', '', 'en-u-ca-gregory', 'i-klingon', 'a'.repeat(40)])('%j is refused as invalid_locale', (tag) => {
    expect(canonicalLocale(tag, 'locale')).toEqual({ error: expect.objectContaining({ field: 'locale', code: 'invalid_locale' }) });
  });
});
