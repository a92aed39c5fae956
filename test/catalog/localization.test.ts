import { CATALOG_LIMITS } from '../../src/catalog/limits';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { expectGqlError, expectProblem, gqlData } from '../products/helpers';

// A store's locales and currencies through the real HTTP handler: REST under /stores/{storeId}, GraphQL on the
// store, each write a store.updated event whose changes name the list it changed.

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture({ currency: 'EUR' });
  b = await createStoreFixture({ currency: 'USD' });
});
afterAll(() => t.close());

const base = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}`;
const locales = (s: StoreFixture) => `${base(s)}/locales`;
const currencies = (s: StoreFixture) => `${base(s)}/currencies`;
const get = (path: string, token = a.ownerToken) => t.request('GET', path, { token });
const post = (path: string, body: unknown, token = a.ownerToken) => t.request('POST', path, { token, body });
const del = (path: string, token = a.ownerToken) => t.request('DELETE', path, { token });
const storeEvents = async (s: StoreFixture) => (await get(`${base(s)}/changes?resource_type=store&type=store.updated`, s.ownerToken)).body.data as any[];

describe('store locales over REST', () => {
  it('starts with en as the default, adds normalised tags, changes the default and removes locales, each write an event', async () => {
    expect((await get(locales(a))).body.data).toEqual([{ locale: 'en', name: 'English', default: true }]);

    const added = await post(locales(a), { locale: 'de-at' });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({ locale: 'de-AT', name: 'Austrian German', default: false });
    expect(added.headers.get('location')).toBe(`${t.url}${locales(a)}/de-AT`);
    expect((await post(locales(a), { locale: 'FR' })).body.data.locale).toBe('fr');
    // One language, two spellings: the second is the first.
    expectProblem(await post(locales(a), { locale: 'DE-AT' }), 409, 'locale_taken');
    expectProblem(await post(locales(a), { locale: 'en' }), 409, 'locale_taken');

    const made = await t.request('PATCH', `${locales(a)}/de-at`, { token: a.ownerToken, body: { default: true } });
    expect(made.status).toBe(200);
    expect(made.body.data).toEqual({ locale: 'de-AT', name: 'Austrian German', default: true });
    // The former default keeps the new default's place.
    expect((await get(locales(a), a.staffToken)).body.data.map((l: any) => [l.locale, l.default])).toEqual([
      ['de-AT', true],
      ['en', false],
      ['fr', false],
    ]);

    const removingDefault = expectProblem(await del(`${locales(a)}/de-AT`), 409, 'default_locale_not_removable');
    expect(removingDefault.detail).toContain('make another locale the default first');
    expect((await del(`${locales(a)}/FR?delete_translations=true`)).status).toBe(204);
    expectProblem(await del(`${locales(a)}/fr`), 404, 'not_found');
    expectProblem(await t.request('PATCH', `${locales(a)}/fr`, { token: a.ownerToken, body: { default: true } }), 404, 'not_found');
    expect((await get(locales(a))).body.data.map((l: any) => l.locale)).toEqual(['de-AT', 'en']);

    const history = await storeEvents(a);
    expect(history.map((e) => [e.type, e.mode, e.changes.map((c: any) => c.field)])).toEqual([
      ['store.updated', 'live', ['locales']],
      ['store.updated', 'live', ['default_locale', 'locales']],
      ['store.updated', 'live', ['locales']],
      ['store.updated', 'live', ['locales']],
    ]);
    expect(history[0].changes).toEqual([{ field: 'locales', previous: ['en', 'fr'], next: ['en'] }]);
    expect(history[1].changes).toEqual([
      { field: 'default_locale', previous: 'en', next: 'de-AT' },
      { field: 'locales', previous: ['de-AT', 'fr'], next: ['en', 'fr'] },
    ]);
    expect(history[0].data).toMatchObject({ id: a.storeId, default_locale: 'de-AT', locales: ['en'], currency: 'EUR', currencies: [] });
  });

  it('refuses invalid tags and bodies, naming the field as sent', async () => {
    const invalid = expectProblem(await post(locales(b), { locale: 'en_US' }, b.ownerToken), 422, 'validation_failed');
    expect(invalid.errors).toEqual([{ field: 'locale', code: 'invalid_locale', message: expect.stringContaining('"en_US" is not a BCP 47 language tag') }]);
    expect(expectProblem(await post(locales(b), { locale: 'de-u-co-phonebk' }, b.ownerToken), 422, 'validation_failed').errors![0]).toMatchObject({ field: 'locale', code: 'invalid_locale' });
    expect(expectProblem(await post(locales(b), { locale: 'de', primary: true }, b.ownerToken), 422, 'validation_failed').errors).toEqual([
      { field: 'primary', code: 'unknown_field', message: expect.any(String) },
    ]);
    const notTrue = await t.request('PATCH', `${locales(b)}/en`, { token: b.ownerToken, body: { default: false } });
    expect(expectProblem(notTrue, 422, 'validation_failed').errors).toEqual([{ field: 'default', code: 'invalid', message: expect.stringContaining('must be true') }]);
    expect(expectProblem(await del(`${locales(b)}/x?delete_translations=yes`, b.ownerToken), 422, 'validation_failed').errors![0].field).toBe('delete_translations');
  });

  it(`allows ${CATALOG_LIMITS.localesPerStore} locales beside the default, then 422 limit_exceeded`, async () => {
    const s = await createStoreFixture();
    const tags = ['de', 'fr', 'es', 'it', 'nl', 'pt', 'pt-BR', 'sv', 'da', 'fi', 'nb', 'pl', 'cs', 'sk', 'hu', 'ro', 'el', 'tr', 'ja', 'ko'];
    expect(tags).toHaveLength(CATALOG_LIMITS.localesPerStore);
    for (const locale of tags) expect((await post(locales(s), { locale }, s.ownerToken)).status).toBe(201);
    const past = expectProblem(await post(locales(s), { locale: 'zh' }, s.ownerToken), 422, 'limit_exceeded');
    expect(past).toMatchObject({ limit_name: 'locales_per_store', limit: 20 });
    expect((await get(locales(s), s.ownerToken)).body.data).toHaveLength(21);
  });

  it('needs manage_products in the store, to read and to write', async () => {
    expectProblem(await get(locales(a), a.viewerToken), 403, 'forbidden');
    expectProblem(await post(locales(a), { locale: 'it' }, a.viewerToken), 403, 'forbidden');
    expectProblem(await get(locales(b), a.ownerToken), 403, 'forbidden');
  });
});

describe('store currencies over REST', () => {
  it('lists the default with its minor units, adds upper-cased ISO 4217 codes, removes them but never the default', async () => {
    expect((await get(currencies(b), b.ownerToken)).body.data).toEqual([{ currency: 'USD', name: 'US Dollar', minor_units: 2, default: true }]);
    const jpy = await post(currencies(b), { currency: 'jpy' }, b.ownerToken);
    expect(jpy.status).toBe(201);
    expect(jpy.body.data).toEqual({ currency: 'JPY', name: 'Japanese Yen', minor_units: 0, default: false });
    expect(jpy.headers.get('location')).toBe(`${t.url}${currencies(b)}/JPY`);
    expect((await post(currencies(b), { currency: 'KWD' }, b.ownerToken)).body.data.minor_units).toBe(3);
    expectProblem(await post(currencies(b), { currency: 'JPY' }, b.ownerToken), 409, 'currency_taken');
    expectProblem(await post(currencies(b), { currency: 'usd' }, b.ownerToken), 409, 'currency_taken');
    expect(expectProblem(await post(currencies(b), { currency: 'XYZ' }, b.ownerToken), 422, 'validation_failed').errors).toEqual([
      { field: 'currency', code: 'invalid_currency', message: expect.stringContaining('"XYZ" is not an ISO 4217 currency code') },
    ]);

    expectProblem(await del(`${currencies(b)}/usd`, b.ownerToken), 409, 'default_currency_not_removable');
    expect((await del(`${currencies(b)}/jpy`, b.ownerToken)).status).toBe(204);
    expectProblem(await del(`${currencies(b)}/JPY`, b.ownerToken), 404, 'not_found');
    expect((await get(currencies(b), b.ownerToken)).body.data.map((c: any) => [c.currency, c.minor_units, c.default])).toEqual([
      ['USD', 2, true],
      ['KWD', 3, false],
    ]);
    const history = await storeEvents(b);
    expect(history.map((e) => e.changes)).toEqual([
      [{ field: 'currencies', previous: ['JPY', 'KWD'], next: ['KWD'] }],
      [{ field: 'currencies', previous: ['JPY'], next: ['JPY', 'KWD'] }],
      [{ field: 'currencies', previous: [], next: ['JPY'] }],
    ]);
  });

  it(`allows ${CATALOG_LIMITS.currenciesPerStore} currencies beside the default, then 422 limit_exceeded`, async () => {
    const s = await createStoreFixture({ currency: 'EUR' });
    const codes = ['USD', 'GBP', 'JPY', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF'];
    for (const currency of codes) expect((await post(currencies(s), { currency }, s.ownerToken)).status).toBe(201);
    expect(expectProblem(await post(currencies(s), { currency: 'KWD' }, s.ownerToken), 422, 'limit_exceeded')).toMatchObject({ limit_name: 'currencies_per_store', limit: 10 });
  });
});

describe('locales and currencies over GraphQL', () => {
  it('reads them on the store and changes them with mutations', async () => {
    const s = await createStoreFixture({ currency: 'JPY' });
    const opts = { token: s.ownerToken };
    gqlData(await t.graphql('mutation($s: ID!) { addStoreLocale(storeId: $s, locale: "pt-br") { locale } }', { s: s.storeId }, opts));
    const made = gqlData(await t.graphql('mutation($s: ID!) { setDefaultStoreLocale(storeId: $s, locale: "PT-BR") { locale default } }', { s: s.storeId }, opts));
    expect(made.setDefaultStoreLocale).toEqual({ locale: 'pt-BR', default: true });
    gqlData(await t.graphql('mutation($s: ID!) { addStoreCurrency(storeId: $s, currency: "eur") { currency } }', { s: s.storeId }, opts));
    const viewer = gqlData(await t.graphql('{ viewer { memberships { store { id defaultLocale locales { locale name default } currencies { currency minorUnits default } } } } }', {}, opts));
    const store = viewer.viewer.memberships.find((m: any) => m.store.id === s.storeId).store;
    expect(store).toEqual({
      id: s.storeId,
      defaultLocale: 'pt-BR',
      locales: [
        { locale: 'pt-BR', name: 'Brazilian Portuguese', default: true },
        { locale: 'en', name: 'English', default: false },
      ],
      currencies: [
        { currency: 'JPY', minorUnits: 0, default: true },
        { currency: 'EUR', minorUnits: 2, default: false },
      ],
    });
    const removed = gqlData(await t.graphql('mutation($s: ID!) { removeStoreLocale(storeId: $s, locale: "en", deleteTranslations: false) { locale default } }', { s: s.storeId }, opts));
    expect(removed.removeStoreLocale).toEqual({ locale: 'en', default: false });
    expectGqlError(await t.graphql('mutation($s: ID!) { removeStoreLocale(storeId: $s, locale: "pt-BR") { locale } }', { s: s.storeId }, opts), 'default_locale_not_removable');
    expectGqlError(await t.graphql('mutation($s: ID!) { removeStoreCurrency(storeId: $s, currency: "JPY") { currency } }', { s: s.storeId }, opts), 'default_currency_not_removable');
    const bad = await t.graphql('mutation($s: ID!) { addStoreLocale(storeId: $s, locale: "??") { locale } }', { s: s.storeId }, opts);
    expect(expectGqlError(bad, 'validation_failed').extensions.errors).toEqual([{ field: 'locale', code: 'invalid_locale', message: expect.any(String) }]);
  });
});
