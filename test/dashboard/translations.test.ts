import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { createProduct } from '../../src/catalog/services/productCreate';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, eventually, hasText, nav, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * Languages and currencies, translations side by side and prices per currency (issue 30, item 4): a language and
 * currencies added in the browser; a product translated side by side, its default name changed (the translation
 * marked outdated) and fixed; the status counts following; prices with the wrong number of decimals refused at
 * their fields; a language with translations removed only with the explicit choice. Each step checked through the API.
 */

interface ApiProduct {
  name: string;
  version: number;
  prices: { currency: string; amount: string; compareAtAmount: string | null }[];
  translations: Record<string, { name: string | null; description: string | null; options: Record<string, { name: string | null; values: Record<string, string> }>; outdated: boolean; outdated_fields: string[] }>;
}

describeInBrowser('languages, translations and prices per currency in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  let productId: string;
  let token: string;

  const api = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await f.t.graphql(query, { s: f.storeId, ...variables }, { token });
    expect(res.body.errors).toBeUndefined();
    return res.body.data as Record<string, unknown>;
  };
  const product = async () =>
    ((await api('query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { name version prices { currency amount compareAtAmount } translations } }', { id: productId })).product as ApiProduct);
  const statusCounts = async () =>
    ((await api('query($s: ID!) { translationStatus(storeId: $s, locale: "de", kind: product) { counts { todo missing outdated } } }')).translationStatus as { counts: { todo: number; missing: number; outdated: number }[] }).counts[0]!;
  /** The screen at 390 px: no sideways scrolling, no serious axe problem; then back to the desktop width. */
  const atPhoneWidth = async (name: string, phone: Record<string, string[]>) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await checkPhoneScreen(page, name, phone);
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const countsRow = () => page.locator('table.status-counts tr[data-kind=product]');

  beforeAll(async () => {
    f = await startDashboard('translations');
    const ctx = testContext();
    await createCategory(ctx, { storeId: f.storeId, name: 'Winter hats', slug: 'winter-hats' });
    const created = await createProduct(ctx, f.storeId, {
      name: 'Wool Hat',
      description: 'A warm hat for cold mornings.',
      price: '19.90',
      categorySlugs: ['winter-hats'],
      options: [{ name: 'Size', values: ['S', 'M'] }],
    });
    productId = created.id;
    token = (await issueDashboardToken(ctx, f.userId)).token;
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  it('adds a language and currencies on the Languages and currencies screen', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const phone: Record<string, string[]> = {};
    await signIn(page, f);
    await nav(page, 'Languages and currencies').click();
    await page.getByRole('heading', { name: 'Languages and currencies', level: 1 }).waitFor();
    await hasText(page.locator('.locale-list').first(), 'English');

    // Not a language tag: said at the field, nothing sent.
    const tag = page.getByLabel('Language tag');
    await tag.fill('en_US');
    await page.getByRole('button', { name: 'Add language' }).click();
    await hasText(page.locator('.field').filter({ has: tag }), 'This is not a language tag');
    expect(await tag.getAttribute('aria-invalid')).toBe('true');

    // The tag as typed, named as it is typed, written canonically.
    await tag.fill('de');
    await hasText(page.locator('.field').filter({ has: tag }), 'German (de)');
    await page.getByRole('button', { name: 'Add German' }).click();
    await toast(page, 'Added German.').waitFor();
    await hasText(page.locator('.locale-list').first(), 'German');
    // Twice: the store already has it, said at the field.
    await tag.fill('DE');
    await page.getByRole('button', { name: 'Add German' }).click();
    await hasText(page.locator('.field').filter({ has: tag }), 'The store already has German.');
    takeExpectedErrors(watch, 409);

    const code = page.getByLabel('Currency code');
    for (const currency of ['jpy', 'usd']) {
      await code.fill(currency);
      await page.getByRole('button', { name: /^Add (Japanese Yen|US Dollar)$/ }).click();
      await toast(page, `(${currency.toUpperCase()}). Products have no price in it until you set one.`).first().waitFor();
    }
    await hasText(page.locator('.locale-list').nth(1), 'JPY');
    await hasText(page.locator('.locale-list').nth(1), 'no decimals');

    const store = (await api('query($s: ID!) { storeLocales(storeId: $s) { locale default } storeCurrencies(storeId: $s) { currency minorUnits } }')) as {
      storeLocales: { locale: string; default: boolean }[];
      storeCurrencies: { currency: string; minorUnits: number }[];
    };
    expect(store.storeLocales).toEqual([{ locale: 'en', default: true }, { locale: 'de', default: false }]);
    expect(store.storeCurrencies.map((c) => [c.currency, c.minorUnits])).toEqual([['EUR', 2], ['JPY', 0], ['USD', 2]]);

    await checkScreen(page, 'languages', problems);
    await atPhoneWidth('languages', phone);
    expect(problems).toEqual({ languages: [] });
    expect(phone).toEqual({ languages: [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('translates a product side by side, marks it outdated when the original changes, and counts what is left', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const phone: Record<string, string[]> = {};
    await nav(page, 'Translations').click();
    await page.getByRole('heading', { name: 'Translations', level: 1 }).waitFor();
    await hasText(countsRow(), 'Products');
    expect((await countsRow().locator('td').allInnerTexts()).map(Number)).toEqual([1, 1, 0, 1]);
    const hatItem = page.locator('.translation-item').filter({ hasText: 'Wool Hat' });
    await hasText(hatItem, 'Name: missing');
    await hasText(page.locator('.translation-item').filter({ hasText: 'Winter hats' }), 'Category');
    await checkScreen(page, 'translations', problems);
    await atPhoneWidth('translations', phone);

    // The item opens the side-by-side editor: the original on the left, read-only; the translation on the right.
    await page.getByRole('link', { name: /Wool Hat/ }).click();
    await page.getByRole('heading', { name: 'Translate “Wool Hat”', level: 1 }).waitFor();
    const name = page.getByLabel('Name in German', { exact: true });
    await hasText(page.locator('.tr-row').filter({ has: name }), 'Wool Hat');
    await hasText(page.locator('.tr-row').filter({ has: name }), 'Missing');
    expect(await page.locator('.tr-source input, .tr-source textarea').count()).toBe(0);
    await name.fill('Wollmütze');
    await page.getByLabel('Description in German', { exact: true }).fill('Eine warme Mütze für kalte Morgen.');
    await page.getByLabel('Option “Size” in German').fill('Größe');
    await page.getByLabel('Value “S” of “Size” in German').fill('Klein');
    await hasText(page.locator('.tr-row').filter({ has: name }), 'Missing', true);
    await checkScreen(page, 'translate-product', problems);
    await atPhoneWidth('translate-product', phone);
    // A slug the service refuses: said at its field, by its name, and nothing is written.
    const slug = page.getByLabel('URL slug in German', { exact: true });
    await slug.fill('Not a slug!');
    await page.getByRole('button', { name: 'Save translation' }).click();
    await toast(page, 'The translation was not saved: one field needs correcting.').waitFor();
    expect(await slug.getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('.error-summary'), 'URL slug');
    expect((await product()).translations).toEqual({});
    takeExpectedErrors(watch, 422);
    await slug.fill('');
    await page.getByRole('button', { name: 'Save translation' }).click();
    await toast(page, 'Saved the German translation.').waitFor();
    // The failure's notice goes once the save goes through.
    await eventually(() => toast(page, 'The translation was not saved').count(), (n) => n === 0, 'the failure toast closed');
    let saved = await product();
    expect(saved.translations.de).toMatchObject({ name: 'Wollmütze', description: 'Eine warme Mütze für kalte Morgen.', outdated: false, options: { Size: { name: 'Größe', values: { S: 'Klein' } } } });
    // "M" is still untranslated: the option stays missing.
    expect(await statusCounts()).toEqual({ todo: 1, missing: 1, outdated: 0 });
    await page.getByLabel('Value “M” of “Size” in German').fill('Mittel');
    await page.getByRole('button', { name: 'Save translation' }).click();
    await toast(page, 'Saved the German translation.').nth(0).waitFor();
    await eventually(statusCounts, (c) => c.todo === 0, 'nothing left to translate');

    // The status list follows: the product is done, the category is left; translated too, nothing is left.
    await page.getByRole('link', { name: /All translations into German/ }).click();
    await page.getByRole('heading', { name: 'Translations', level: 1 }).waitFor();
    await hasText(countsRow(), 'Products');
    expect((await countsRow().locator('td').allInnerTexts()).map(Number)).toEqual([1, 0, 0, 0]);
    expect(await page.locator('.translation-item').filter({ hasText: 'Wool Hat' }).count()).toBe(0);
    await page.getByRole('link', { name: /Winter hats/ }).click();
    await page.getByRole('heading', { name: 'Translate “Winter hats”', level: 1 }).waitFor();
    await hasText(page.locator('.tr-row'), 'Missing');
    await checkScreen(page, 'translate-category', problems);
    await atPhoneWidth('translate-category', phone);
    await page.getByLabel('Name in German', { exact: true }).fill('Wintermützen');
    await page.getByRole('button', { name: 'Save translation' }).click();
    const categoryTranslations = async () => JSON.stringify(await api('query { viewer { memberships { store { categories { slug translations } } } } }'));
    await eventually(categoryTranslations, (text) => text.includes('"de":{"name":"Wintermützen"'), 'the category translated through the API');
    await nav(page, 'Translations').click();
    await page.getByText('Everything is translated into German.').waitFor();

    // The original name changes in the product editor: the German name is outdated.
    await page.goto(`${f.t.url}/dashboard/products/${productId}`);
    await page.getByLabel('Name', { exact: true }).fill('Merino Wool Hat');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    saved = await product();
    expect(saved.translations.de).toMatchObject({ outdated: true, outdated_fields: ['name'] });
    await nav(page, 'Translations').click();
    await hasText(page.locator('.translation-item').filter({ hasText: 'Merino Wool Hat' }), 'Name: outdated');
    expect((await countsRow().locator('td').allInnerTexts()).map(Number)).toEqual([1, 0, 1, 1]);

    // From the product editor's Translate link: the name is marked outdated, the description is not; fixing it clears the mark.
    await page.goto(`${f.t.url}/dashboard/products/${productId}`);
    await page.getByRole('link', { name: 'Translate', exact: true }).click();
    await page.getByRole('heading', { name: 'Translate “Merino Wool Hat”', level: 1 }).waitFor();
    const nameRow = page.locator('.tr-row').filter({ has: page.getByLabel('Name in German', { exact: true }) });
    await hasText(nameRow, 'Outdated');
    await hasText(nameRow, 'Merino Wool Hat');
    expect(await page.locator('.tr-row').filter({ has: page.getByLabel('Description in German', { exact: true }) }).innerText()).not.toContain('Outdated');
    await page.getByLabel('Name in German', { exact: true }).fill('Merino-Wollmütze');
    await hasText(nameRow, 'Outdated', true);
    await page.getByRole('button', { name: 'Save translation' }).click();
    await toast(page, 'Saved the German translation.').nth(0).waitFor();
    saved = await product();
    expect(saved.translations.de).toMatchObject({ name: 'Merino-Wollmütze', outdated: false, outdated_fields: [] });
    expect(await statusCounts()).toEqual({ todo: 0, missing: 0, outdated: 0 });

    expect(problems).toEqual({ translations: [], 'translate-product': [], 'translate-category': [] });
    expect(phone).toEqual({ translations: [], 'translate-product': [], 'translate-category': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 120_000);

  it('sets prices per currency in the product editor, every wrong amount refused at its field', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const phone: Record<string, string[]> = {};
    await page.goto(`${f.t.url}/dashboard/products/${productId}`);
    await page.getByRole('heading', { name: 'Prices in other currencies' }).waitFor();
    const jpy = page.getByLabel('Price (JPY)', { exact: true });
    const usd = page.getByLabel('Price (USD)', { exact: true });
    const before = await product();

    // JPY has no decimals, USD two: both wrong, both said at once, each at its field; nothing is written.
    await jpy.fill('4900.50');
    await usd.fill('12.5');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await toast(page, 'The prices were not saved: 2 fields need correcting.').waitFor();
    expect(await jpy.getAttribute('aria-invalid')).toBe('true');
    expect(await usd.getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('.field').filter({ has: jpy }), 'Enter a whole amount without decimals, e.g. 1200.');
    await hasText(page.locator('.field').filter({ has: usd }), 'Enter exactly 2 digits after the decimal point, e.g. 12.00.');
    expect((await product()).version).toBe(before.version);

    // A compare-at price below the price: the service refuses it, at its field.
    await jpy.fill('4900');
    await usd.fill('12.50');
    const jpyCompare = page.getByLabel('Compare-at price (JPY)');
    await jpyCompare.fill('4000');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await toast(page, 'The prices were not saved: one field needs correcting.').waitFor();
    await hasText(page.locator('.field').filter({ has: jpyCompare }), 'The compare-at price must be above the price.');
    expect(await jpy.getAttribute('aria-invalid')).toBeNull();
    expect((await product()).prices).toEqual([]);
    takeExpectedErrors(watch, 422);

    await jpyCompare.fill('5500');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await toast(page, 'Saved the prices.').waitFor();
    const priced = await product();
    expect(priced.prices).toEqual([
      { currency: 'JPY', amount: '4900', compareAtAmount: '5500' },
      { currency: 'USD', amount: '12.50', compareAtAmount: null },
    ]);
    expect(priced.version).toBe(before.version + 1);

    // The editor took the new version: a later save of the product is no conflict.
    await page.getByLabel('Name', { exact: true }).fill('Merino Wool Hat (new)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    expect((await product()).name).toBe('Merino Wool Hat (new)');
    await checkScreen(page, 'product-prices', problems);
    await atPhoneWidth('product-prices', phone);

    // Removing one price and saving: it is gone through the API too.
    await usd.fill('');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await toast(page, 'Saved the prices.').nth(0).waitFor();
    await eventually(async () => (await product()).prices.map((p) => p.currency), (c) => c.join() === 'JPY', 'the USD price removed');

    expect(problems).toEqual({ 'product-prices': [] });
    expect(phone).toEqual({ 'product-prices': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('pages through what is left to translate, per catalog', async () => {
    const watch = watchPage(page, f.t.url);
    const testMode = testContext(undefined, { mode: 'test' });
    for (let i = 1; i <= 21; i++) {
      await createProduct(testMode, f.storeId, { name: `Test Cap ${String(i).padStart(2, '0')}`, price: '9.90', categorySlugs: ['winter-hats'] });
    }
    await nav(page, 'Translations').click();
    await page.getByRole('heading', { name: 'Translations', level: 1 }).waitFor();
    await hasText(countsRow(), 'Products');
    // The live catalog: the one product, outdated again since its rename in the price test.
    expect((await countsRow().locator('td').allInnerTexts()).map(Number)).toEqual([1, 0, 1, 1]);
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await eventually(async () => (await countsRow().locator('td').allInnerTexts()).map(Number).join(), (v) => v === '21,21,0,21', 'the test catalog counted');
    const items = page.locator('.translation-item');
    expect(await items.count()).toBe(20);
    await hasText(page.getByRole('navigation', { name: 'Pages' }), 'Page 1');
    await page.getByRole('button', { name: 'Next' }).click();
    await hasText(page.getByRole('navigation', { name: 'Pages' }), 'Page 2');
    await eventually(() => items.count(), (n) => n === 1, 'the second page');
    await hasText(items.first(), 'Test Cap');
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await hasText(page.getByRole('navigation', { name: 'Pages' }), 'Page 1');
    await eventually(() => items.count(), (n) => n === 20, 'the first page again');
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await eventually(async () => (await countsRow().locator('td').allInnerTexts()).map(Number).join(), (v) => v === '1,0,1,1', 'the live catalog again');
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);

  it('removes a language with translations only with the explicit choice to delete them', async () => {
    const watch = watchPage(page, f.t.url);
    await nav(page, 'Languages and currencies').click();
    await page.getByRole('heading', { name: 'Languages and currencies', level: 1 }).waitFor();
    // A language with translations cannot become the default: the refusal says why, in words.
    await page.getByRole('button', { name: 'Make default German' }).click();
    await toast(page, 'German did not become the default language.').waitFor();
    await hasText(page.getByRole('region', { name: 'Notifications' }), '2 translations are written in German.');
    expect(await page.getByRole('region', { name: 'Notifications' }).innerText()).not.toMatch(/locale_has_translations|delete_translations/);
    takeExpectedErrors(watch, 409);
    expect(((await api('query($s: ID!) { storeLocales(storeId: $s) { locale default } }')).storeLocales as { locale: string; default: boolean }[]).find((l) => l.default)!.locale).toBe('en');

    await page.getByRole('button', { name: 'Remove German' }).click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    const warning = page.locator('.remove-with-data');
    await hasText(warning, 'German still has 2 translations.');
    takeExpectedErrors(watch, 409);
    const confirm = page.getByRole('button', { name: 'Remove German and its translations' });
    expect(await confirm.isDisabled()).toBe(true);
    expect((await product()).translations.de).toBeDefined();
    await page.getByLabel('Also delete the 2 translations in German').check();
    await confirm.click();
    await toast(page, 'Removed German and its translations.').waitFor();
    const locales = (await api('query($s: ID!) { storeLocales(storeId: $s) { locale } }')).storeLocales as { locale: string }[];
    expect(locales.map((l) => l.locale)).toEqual(['en']);
    expect((await product()).translations).toEqual({});

    // A currency that prices use: the same explicit choice.
    await page.getByRole('button', { name: 'Remove Japanese Yen' }).click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await hasText(page.locator('.remove-with-data'), '1 product has prices in Japanese Yen.');
    takeExpectedErrors(watch, 409);
    await page.getByLabel('Also delete the prices in JPY').check();
    await page.getByRole('button', { name: 'Remove JPY and its prices' }).click();
    await toast(page, 'Removed Japanese Yen (JPY) and its prices.').waitFor();
    expect((await product()).prices).toEqual([]);

    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);
});
