import { gtin13, gtinCheckDigit, isValidGtin } from '../../src/kernel/gtin';

describe('GTIN check digits', () => {
  it.each(['4006381333931', '036000291452', '96385074', '10614141000415', '5901234123457'])('accepts the real GTIN %s', (gtin) => {
    expect(isValidGtin(gtin)).toBe(true);
  });

  it.each([
    ['4006381333932', 'a wrong check digit'],
    ['036000291453', 'a wrong check digit (GTIN-12)'],
    ['400638133393', 'twelve digits whose last is not their check digit'],
    ['1234567', 'seven digits'],
    ['400638133393A', 'a letter'],
    [' 4006381333931', 'a space'],
    ['', 'nothing'],
  ])('refuses %s (%s)', (value) => {
    expect(isValidGtin(value)).toBe(false);
  });

  it('makes GTIN-13s that validate', () => {
    expect(gtinCheckDigit('400638133393')).toBe(1);
    for (let i = 0; i < 50; i++) {
      const body = String(200000000000 + i * 7919).padStart(12, '0');
      expect(isValidGtin(gtin13(body))).toBe(true);
    }
  });
});
