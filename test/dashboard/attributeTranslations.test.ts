import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createAttribute } from '../../src/catalog/services/attributes';
import { createCategory } from '../../src/catalog/services/categories';
import { addStoreLocale } from '../../src/catalog/services/localization';
import { createProduct } from '../../src/catalog/services/productCreate';
import { createProductType } from '../../src/catalog/services/productTypes';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, eventually, hasText, nav, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * Attribute translations (issue 30, item 4): an attribute's name and its values' labels translated side by side,
 * the default name changed (the translation marked outdated) and fixed, the status counts following, the translation
 * removed after asking; a product's text attribute value translated in the product's side-by-side editor. Each step
 * checked through the API.
 */

interface ApiAttribute {
  name: string;
  translations: Record<string, { name: string | null; values: Record<string, string> | null; outdated: boolean; outdated_fields: string[] }>;
}

describeInBrowser('attribute translations in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  let attributeId: string;
  let productId: string;
  let token: string;

  const api = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await f.t.graphql(query, { s: f.storeId, ...variables }, { token });
    expect(res.body.errors).toBeUndefined();
    return res.body.data as Record<string, unknown>;
  };
  const attribute = async () => (await api('query($s: ID!, $a: String!) { attribute(storeId: $s, attribute: $a) { name translations } }', { a: attributeId })).attribute as ApiAttribute;
  const statusCounts = async () =>
    ((await api('query($s: ID!) { translationStatus(storeId: $s, locale: "de", kind: attribute) { counts { total todo missing outdated } } }')).translationStatus as {
      counts: { total: number; todo: number; missing: number; outdated: number }[];
    }).counts[0]!;
  const atPhoneWidth = async (name: string, phone: Record<string, string[]>) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await checkPhoneScreen(page, name, phone);
    await page.setViewportSize({ width: 1280, height: 900 });
  };
  const countsRow = () => page.locator('table.status-counts tr[data-kind=attribute]');
  const save = () => page.getByRole('button', { name: 'Save translation' }).click();

  beforeAll(async () => {
    f = await startDashboard('attrtrans');
    const ctx = testContext();
    await addStoreLocale(ctx, f.storeId, 'de');
    const material = await createAttribute(ctx, f.storeId, {
      code: 'material',
      name: 'Material',
      type: 'dropdown',
      values: [
        { value: 'cotton', name: 'Cotton' },
        { value: 'wool', name: 'Wool' },
      ],
    });
    attributeId = material.id;
    await createAttribute(ctx, f.storeId, { code: 'care', name: 'Care instructions', type: 'plain_text' });
    await createCategory(ctx, { storeId: f.storeId, name: 'Scarves', slug: 'scarves' });
    const type = await createProductType(ctx, f.storeId, { name: 'Knitwear', productAttributes: [{ code: 'material' }, { code: 'care' }] });
    const created = await createProduct(ctx, f.storeId, { name: 'Wool Scarf', price: '29.00', categorySlugs: ['scarves'], productTypeId: type.id, attributes: { material: 'wool', care: 'Hand wash cold.' } });
    productId = created.id;
    token = (await issueDashboardToken(ctx, f.userId)).token;
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  it('translates an attribute and its values side by side, marks it outdated when the original changes, and removes it after asking', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const phone: Record<string, string[]> = {};
    await signIn(page, f);
    await nav(page, 'Translations').click();
    await page.getByRole('heading', { name: 'Translations', level: 1 }).waitFor();
    await hasText(countsRow(), 'Attributes');
    expect((await countsRow().locator('td').allInnerTexts()).map(Number)).toEqual([2, 2, 0, 2]);

    // The status list opens the attribute's editor: its name and each value's label on the left, read-only.
    await page.locator('.translation-item').filter({ hasText: 'Material' }).getByRole('link').click();
    await page.getByRole('heading', { name: 'Translate “Material”', level: 1 }).waitFor();
    const name = page.getByLabel('Name in German', { exact: true });
    const nameRow = page.locator('.tr-row').filter({ has: name });
    await hasText(nameRow, 'Material');
    await hasText(nameRow, 'Missing');
    expect(await page.locator('.tr-source input, .tr-source textarea').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Remove translation' }).count()).toBe(0);
    await name.fill('Material (DE)');
    await page.getByLabel('Value “Cotton” in German').fill('Baumwolle');
    await hasText(nameRow, 'Missing', true);
    await hasText(page.locator('.save-bar'), 'Unsaved changes');
    await checkScreen(page, 'translate-attribute', problems);
    await atPhoneWidth('translate-attribute', phone);
    await save();
    await toast(page, 'Saved the German translation.').waitFor();
    let saved = await attribute();
    expect(saved.translations.de).toMatchObject({ name: 'Material (DE)', values: { cotton: 'Baumwolle' }, outdated: false });
    // "Wool" is not translated yet: still to do.
    expect(await statusCounts()).toMatchObject({ total: 2, todo: 2, missing: 2, outdated: 0 });
    await hasText(page.locator('.tr-row').filter({ has: page.getByLabel('Value “Wool” in German') }), 'Missing');
    await page.getByLabel('Value “Wool” in German').fill('Wolle');
    await save();
    await toast(page, 'Saved the German translation.').nth(0).waitFor();
    await eventually(statusCounts, (c) => c.missing === 1, 'the material fully translated');
    expect((await attribute()).translations.de!.values).toEqual({ cotton: 'Baumwolle', wool: 'Wolle' });

    // The original name changes on the attribute's page: the German name is outdated, the values are not.
    await page.goto(`${f.t.url}/dashboard/attributes/${attributeId}`);
    await page.getByRole('heading', { name: 'Material', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Fabric');
    await page.getByRole('button', { name: 'Save attribute' }).click();
    await toast(page, 'Saved “Fabric”.').waitFor();
    saved = await attribute();
    expect(saved.translations.de).toMatchObject({ outdated: true, outdated_fields: ['name'] });
    await nav(page, 'Translations').click();
    await hasText(page.locator('.translation-item').filter({ hasText: 'Fabric' }), 'Name: outdated');
    expect((await countsRow().locator('td').allInnerTexts()).map(Number)).toEqual([2, 1, 1, 2]);

    // From the attribute's page, "Translate": the name is marked outdated; fixing it clears the mark.
    await page.goto(`${f.t.url}/dashboard/attributes/${attributeId}`);
    await page.getByRole('link', { name: 'Translate', exact: true }).click();
    await page.getByRole('heading', { name: 'Translate “Fabric”', level: 1 }).waitFor();
    await hasText(nameRow, 'Outdated');
    await hasText(nameRow, 'Fabric');
    expect(await page.locator('.tr-row').filter({ has: page.getByLabel('Value “Cotton” in German') }).innerText()).not.toContain('Outdated');
    await name.fill('Stoff');
    await hasText(nameRow, 'Outdated', true);
    await save();
    await toast(page, 'Saved the German translation.').nth(0).waitFor();
    saved = await attribute();
    expect(saved.translations.de).toMatchObject({ name: 'Stoff', outdated: false, outdated_fields: [] });
    expect(await statusCounts()).toMatchObject({ total: 2, todo: 1, missing: 1, outdated: 0 });
    await page.getByRole('link', { name: /All translations into German/ }).click();
    await hasText(countsRow(), 'Attributes');
    expect((await countsRow().locator('td').allInnerTexts()).map(Number)).toEqual([2, 1, 0, 1]);
    expect(await page.locator('.translation-item').filter({ hasText: 'Fabric' }).count()).toBe(0);

    // Removing asks first; cancelled, nothing changes; confirmed, the translation is gone.
    await page.goto(`${f.t.url}/dashboard/attributes/${attributeId}/translate?locale=de`);
    await page.getByRole('heading', { name: 'Translate “Fabric”', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Remove translation' }).click();
    await hasText(page.locator('.save-bar'), 'Remove the whole German translation?');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect((await attribute()).translations.de).toBeDefined();
    await page.getByRole('button', { name: 'Remove translation' }).click();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    await toast(page, 'Removed the German translation.').waitFor();
    expect((await attribute()).translations).toEqual({});
    await hasText(nameRow, 'Missing');
    expect(await statusCounts()).toMatchObject({ todo: 2, missing: 2 });

    expect(problems).toEqual({ 'translate-attribute': [] });
    expect(phone).toEqual({ 'translate-attribute': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 120_000);

  it('says a refused value label at its field, by its name', async () => {
    const watch = watchPage(page, f.t.url);
    await page.goto(`${f.t.url}/dashboard/attributes/${attributeId}/translate?locale=de`);
    await page.getByRole('heading', { name: 'Translate “Fabric”', level: 1 }).waitFor();
    const cotton = page.getByLabel('Value “Cotton” in German');
    const name = page.getByLabel('Name in German', { exact: true });
    await name.fill('x'.repeat(300));
    await cotton.fill('y'.repeat(300));
    await save();
    await toast(page, 'The translation was not saved: 2 fields need correcting.').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await cotton.getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('.error-summary'), 'Value “Cotton”');
    await hasText(page.locator('.error-summary'), 'Name');
    await hasText(page.locator('.tr-row').filter({ has: cotton }).locator('.field-error'), '255');
    expect(await page.locator('.error-summary').innerText()).not.toContain('values.cotton');
    takeExpectedErrors(watch, 422);
    expect((await attribute()).translations).toEqual({});
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);

  it("translates a product's text attribute value side by side", async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const phone: Record<string, string[]> = {};
    await page.goto(`${f.t.url}/dashboard/products/${productId}/translate?locale=de`);
    await page.getByRole('heading', { name: 'Translate “Wool Scarf”', level: 1 }).waitFor();
    const attributes = page.getByRole('region', { name: 'Attributes' });
    const care = page.getByLabel('Care instructions in German');
    const careRow = page.locator('.tr-row').filter({ has: care });
    await hasText(careRow, 'Hand wash cold.');
    await hasText(careRow, 'Missing');
    // Only the text attribute: the dropdown's labels are the attribute's own translation.
    expect(await attributes.locator('.tr-row').count()).toBe(1);
    await page.getByLabel('Name in German', { exact: true }).fill('Wollschal');
    await care.fill('Kalt von Hand waschen.');
    await checkScreen(page, 'translate-product-attributes', problems);
    await atPhoneWidth('translate-product-attributes', phone);
    await save();
    await toast(page, 'Saved the German translation.').waitFor();
    const read = async () =>
      ((await api('query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { translations } }', { id: productId })).product as { translations: Record<string, { name: string; attributes: Record<string, string> }> })
        .translations;
    await eventually(read, (t) => t.de?.attributes?.care === 'Kalt von Hand waschen.', 'the care text translated through the API');
    expect((await read()).de).toMatchObject({ name: 'Wollschal', attributes: { care: 'Kalt von Hand waschen.' } });
    await hasText(careRow, 'Missing', true);

    // Emptied, the value's translation goes and the other fields stay.
    await care.fill('');
    await save();
    await eventually(read, (t) => t.de !== undefined && !t.de.attributes?.care, 'the care translation cleared');
    expect((await read()).de!.name).toBe('Wollschal');

    expect(problems).toEqual({ 'translate-product-attributes': [] });
    expect(phone).toEqual({ 'translate-product-attributes': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);
});
