import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createAttribute } from '../../src/catalog/services/attributes';
import { createCategory } from '../../src/catalog/services/categories';
import { addStoreCurrency } from '../../src/catalog/services/localization';
import { createProduct } from '../../src/catalog/services/productCreate';
import { createProductType } from '../../src/catalog/services/productTypes';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, eventually, hasText, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * The variant grid's further columns (issue 30, item 4): a value per variant attribute of the product's type (a
 * swatch here), set per variant and for the selected variants at once, and the variant's price in each further
 * currency, set in bulk and checked for the currency's decimals at its cell; saved with the variant writes, and
 * kept by a whole-set write when a value is added.
 */

interface ApiVariant {
  sku: string;
  options: Record<string, string>;
  attributes: Record<string, unknown>;
  prices: { currency: string; amount: string; compareAtAmount: string | null }[];
}

describeInBrowser('variant attributes and prices in further currencies in the variant grid', () => {
  let f: DashboardFixture;
  let page: Page;
  let token: string;
  let productId: string;

  beforeAll(async () => {
    f = await startDashboard('variantextras');
    const ctx = testContext();
    await createCategory(ctx, { storeId: f.storeId, name: 'Shirts', slug: 'shirts' });
    await createAttribute(ctx, f.storeId, {
      code: 'shade',
      name: 'Shade',
      type: 'swatch',
      values: [
        { value: 'red', name: 'Signal red', hex: '#cc0000' },
        { value: 'navy', name: 'Navy', hex: '#001f5b' },
      ],
    });
    await createAttribute(ctx, f.storeId, {
      code: 'fit',
      name: 'Fit',
      type: 'dropdown',
      values: [
        { value: 'slim', name: 'Slim' },
        { value: 'loose', name: 'Loose' },
      ],
    });
    const type = await createProductType(ctx, f.storeId, { name: 'Tees', variantAttributes: [{ code: 'shade' }, { code: 'fit', required: true }] });
    await addStoreCurrency(ctx, f.storeId, 'JPY');
    const product = await createProduct(ctx, f.storeId, {
      name: 'Field Tee',
      price: '20',
      categorySlugs: ['shirts'],
      productTypeId: (type as { id: string }).id,
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      variants: ['S', 'M', 'L'].map((size) => ({ sku: `FIELD-${size}`, options: { Size: size }, attributes: { fit: 'slim' } })),
    });
    productId = (product as { id: string }).id;
    token = (await issueDashboardToken(ctx, f.userId)).token;
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  const variants = async (): Promise<Record<string, ApiVariant>> => {
    const res = await f.t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { variants { sku options attributes prices { currency amount compareAtAmount } } } }`, { s: f.storeId, id: productId }, { token });
    expect(res.body.errors).toBeUndefined();
    return Object.fromEntries((res.body.data as { product: { variants: ApiVariant[] } }).product.variants.map((v) => [v.options.Size!, v]));
  };
  const shadeOf = (size: string) => page.getByRole('radiogroup', { name: `Shade of variant ${size}` });

  it('sets a swatch per variant and in bulk, a JPY price for two variants, says a wrong amount at its cell, and saves', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);
    await page.goto(`${f.t.url}/dashboard/products/${productId}`);
    await page.getByLabel('SKU of variant L', { exact: true }).waitFor();
    await page.getByRole('columnheader', { name: 'Price (JPY)' }).waitFor();
    await page.getByRole('columnheader', { name: 'Shade' }).waitFor();

    // Every variant Signal red at once, then M Navy by hand.
    await page.getByLabel('Select all variants').check();
    await page.getByLabel('Set', { exact: true }).selectOption({ label: 'Shade' });
    await page.getByRole('radiogroup', { name: 'New shade of the selected variants' }).getByLabel('Signal red').check();
    await page.getByRole('button', { name: 'Apply to 3 variants' }).click();
    await toast(page, 'Shade set for 3 variants: save the product to keep it.').waitFor();
    for (const size of ['S', 'M', 'L']) expect(await shadeOf(size).getByLabel('Signal red').isChecked()).toBe(true);
    await shadeOf('M').getByLabel('Navy').check();

    // A JPY price for M and L.
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByLabel('Select variant M', { exact: true }).check();
    await page.getByLabel('Select variant L', { exact: true }).check();
    await page.getByLabel('Set', { exact: true }).selectOption({ label: 'Price (JPY)' });
    await page.getByLabel('New price (JPY) of the selected variants').fill('2500');
    await page.getByRole('button', { name: 'Apply to 2 variants' }).click();
    await toast(page, 'Price (JPY) set for 2 variants: save the product to keep it.').waitFor();
    expect(await page.getByLabel('Price (JPY) of variant M', { exact: true }).inputValue()).toBe('2500');
    expect(await page.getByLabel('Price (JPY) of variant L', { exact: true }).inputValue()).toBe('2500');
    expect(await page.getByLabel('Price (JPY) of variant S', { exact: true }).inputValue()).toBe('');

    // Yen have no decimals: said at the cell as it is typed, and the service's refusal lands there too.
    const jpyS = page.getByLabel('Price (JPY) of variant S', { exact: true });
    await jpyS.fill('2500.50');
    await hasText(page.locator('td.cell-invalid'), 'Enter a whole amount without decimals, e.g. 1200.');
    expect(await jpyS.getAttribute('aria-invalid')).toBe('true');
    await checkScreen(page, 'product-variant-extras', problems);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, "The product's variants were not saved: see the sections marked.").waitFor();
    await hasText(page.locator('.error-summary'), 'Variant S: Price (JPY)');
    takeExpectedErrors(watch, 400);
    expect((await variants()).M!.prices).toEqual([]);

    await jpyS.fill('2400');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    // The refusal it answers is gone: the latest save's outcome takes its place.
    expect(await toast(page, "The product's variants were not saved: see the sections marked.").count()).toBe(0);
    const saved = await variants();
    expect(Object.fromEntries(Object.entries(saved).map(([size, v]) => [size, [v.attributes.shade, v.prices.map((p) => `${p.currency} ${p.amount}`).join()]]))).toEqual({
      S: ['red', 'JPY 2400'],
      M: ['navy', 'JPY 2500'],
      L: ['red', 'JPY 2500'],
    });
    expect(problems).toEqual({ 'product-variant-extras': [] });
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('keeps the prices and values when a new value makes the whole set written again, a missing required value at its cell', async () => {
    const watch = watchPage(page, f.t.url);
    await page.getByLabel('Add a value to Size').fill('XL');
    await page.getByLabel('Add a value to Size').press('Enter');
    await page.getByLabel('Price (JPY) of variant XL', { exact: true }).fill('2600');
    await shadeOf('XL').getByLabel('Navy').check();
    // The new variant has no fit, which the type requires: said at its cell and in the summary by the variant.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, "The product's variants were not saved: see the sections marked.").waitFor();
    await hasText(page.locator('.error-summary'), 'Variant XL: Fit');
    const fitXL = page.getByLabel('Fit of variant XL (required)', { exact: true });
    expect(await fitXL.getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('.variant-attr-cell .field-invalid'), 'Fit is required for this product type');
    await fitXL.selectOption({ label: 'Loose' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    const saved = await eventually(variants, (v) => Boolean(v.XL), 'the new variant');
    expect(Object.fromEntries(Object.entries(saved).map(([size, v]) => [size, [v.attributes.shade, v.attributes.fit, v.prices.map((p) => `${p.currency} ${p.amount}`).join()]]))).toEqual({
      S: ['red', 'slim', 'JPY 2400'],
      M: ['navy', 'slim', 'JPY 2500'],
      L: ['red', 'slim', 'JPY 2500'],
      XL: ['navy', 'loose', 'JPY 2600'],
    });
    takeExpectedErrors(watch, 400);
    expect(watch.errors).toEqual([]);
  }, 60_000);

  it('fits the wider grid in 390 px: it scrolls inside its own frame', async () => {
    const context = await f.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await context.newPage();
    const watch = watchPage(phone, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(phone, f);
    await phone.goto(`${f.t.url}/dashboard/products/${productId}`);
    await phone.getByLabel('Price (JPY) of variant XL', { exact: true }).waitFor();
    await phone.getByLabel('Select all variants').check();
    await phone.getByLabel('Set', { exact: true }).selectOption({ label: 'Shade' });
    await checkPhoneScreen(phone, 'product-variant-extras-phone', problems);
    const frame = await phone.locator('.variant-grid-wrap').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(frame.scroll).toBeGreaterThan(frame.client);
    expect(problems).toEqual({ 'product-variant-extras-phone': [] });
    expect(watch.errors).toEqual([]);
    await context.close();
  }, 60_000);
});
