import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { createProduct } from '../../src/catalog/services/productCreate';
import { db } from '../../src/platform/db/client';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, closeToasts, count, dropFile, eventually, hasText, pngBytes, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * The editor's option builder and variant grid (issue 30, item 4): options built as chips, the grid of their
 * combinations, a bulk edit of the rows with one value, one write on create; then on the saved product the
 * fewest writes (options, then variants), a SKU clash shown at its cell and named by the variant's values, an
 * option removed after a confirmation that says which variants go away, an image picked for a variant.
 */

interface ApiVariant {
  id: string;
  sku: string;
  options: Record<string, string>;
  price: string | null;
  compareAtPrice: string | null;
  inventoryQuantity: number;
  imageId: string | null;
  weight: { value: number; unit: string } | null;
}
interface ApiProduct {
  version: number;
  options: { name: string; values: string[] }[];
  variants: ApiVariant[];
  images: { id: string }[];
}

describeInBrowser('the option builder and variant grid in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    f = await startDashboard('variants');
    await createCategory(testContext(), { storeId: f.storeId, name: 'Shirts', slug: 'shirts' });
    // Another product holds the SKU one variant will try.
    await createProduct(testContext(), f.storeId, { name: 'Old Tee', price: '10', categorySlugs: ['shirts'], variants: [{ sku: 'TAKEN-9', options: {} }] });
    token = (await issueDashboardToken(testContext(), f.userId)).token;
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  /** The product as the API shows it. */
  const apiProduct = async (id: string): Promise<ApiProduct> => {
    const res = await f.t.graphql(
      `query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { version options { name values } images { id }
        variants { id sku options price compareAtPrice inventoryQuantity imageId weight { value unit } } } }`,
      { s: f.storeId, id },
      { token },
    );
    expect(res.body.errors).toBeUndefined();
    return (res.body.data as { product: ApiProduct }).product;
  };
  const byCombo = (p: ApiProduct) => Object.fromEntries(p.variants.map((v) => [p.options.map((o) => v.options[o.name]).join(' / '), v]));
  const eventTypes = async (productId: string) =>
    (await db().event.findMany({ where: { resourceId: productId }, orderBy: [{ occurredAt: 'asc' }, { resourceVersion: 'asc' }], select: { type: true } })).map((e) => e.type);

  const addValues = async (option: string, values: string[]) => {
    const input = page.getByLabel(`Add a value to ${option}`);
    for (const value of values) {
      await input.fill(value);
      await input.press('Enter');
    }
  };
  /** Closes the notifications shown, so that the next one with the same words is the next save's. */
  const gridRows = () => page.locator('.variant-grid tbody tr:not(.row-errors)');
  const gridLabels = async () => (await page.locator('.variant-grid tbody th[scope=row]').allInnerTexts()).map((t) => t.replace(/\s*New$/, '').trim());

  it('builds options as chips, bulk-edits the red variants and creates product, options and variants in one write', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByRole('heading', { name: 'New product' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Trail Tee');
    await page.getByLabel('Price (EUR)').fill('19.90');
    await page.getByRole('checkbox', { name: 'Shirts' }).check();

    // Options by keyboard: a name, Enter to its values, each value with Enter (which must not submit the form).
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByLabel('Name of option 1').fill('Color');
    await page.getByLabel('Name of option 1').press('Enter');
    await addValues('Color', ['Red', 'Blue', 'red']);
    // A value twice (without case) is refused at its field; nothing was submitted.
    await page.getByText('“red” is already a value of Color.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/products/new');
    await page.getByLabel('Add a value to Color').fill('');
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByLabel('Name of option 2').fill('Size');
    await addValues('Size', ['M', 'S', 'L']);
    // Reorder: S before M.
    await page.getByRole('button', { name: 'Move S earlier' }).click();
    expect(await page.getByRole('list', { name: 'Values of Size' }).locator('.chip-text').allInnerTexts()).toEqual(['S', 'M', 'L']);

    await count(gridRows(), (n) => n === 6, 'a row per combination');
    expect(await gridLabels()).toEqual(['Red / S', 'Red / M', 'Red / L', 'Blue / S', 'Blue / M', 'Blue / L']);
    expect(await page.getByLabel('SKU of variant Blue / L', { exact: true }).inputValue()).toBe('TRAIL-TEE-BLUE-L');

    // Select the red ones by their value, then set price and inventory for them.
    await page.getByLabel('Select by value').selectOption({ label: 'All Red' });
    await page.getByRole('button', { name: 'Select', exact: true }).click();
    await page.getByText('3 of 6 selected').waitFor();
    await page.getByLabel('Set', { exact: true }).selectOption('price');
    await page.getByLabel('New price (EUR) of the selected variants').fill('25');
    await page.getByRole('button', { name: 'Apply to 3 variants' }).click();
    await toast(page, 'Price set for 3 variants: save the product to keep it.').waitFor();
    await page.getByLabel('Set', { exact: true }).selectOption('inventoryQuantity');
    await page.getByLabel('New inventory of the selected variants').fill('7');
    await page.getByRole('button', { name: 'Apply to 3 variants' }).click();
    for (const size of ['S', 'M', 'L']) {
      expect(await page.getByLabel(`Price of variant Red / ${size}`, { exact: true }).inputValue()).toBe('25');
      expect(await page.getByLabel(`Inventory of variant Red / ${size}`, { exact: true }).inputValue()).toBe('7');
      expect(await page.getByLabel(`Price of variant Blue / ${size}`, { exact: true }).inputValue()).toBe('');
    }
    // One row by hand: a weight.
    await page.getByLabel('Weight of variant Blue / S', { exact: true }).fill('180');
    await page.getByLabel('Weight unit of variant Blue / S', { exact: true }).selectOption('g');
    await checkScreen(page, 'product-new-variants', problems);

    await page.getByRole('button', { name: 'Create product' }).click();
    await toast(page, 'Created “Trail Tee”.').waitFor();
    await page.getByRole('heading', { name: 'Trail Tee', level: 1 }).waitFor();
    const productId = new URL(page.url()).pathname.split('/').pop()!;
    const product = await apiProduct(productId);
    expect(product.options).toEqual([
      { name: 'Color', values: ['Red', 'Blue'] },
      { name: 'Size', values: ['S', 'M', 'L'] },
    ]);
    const variants = byCombo(product);
    expect(Object.keys(variants)).toEqual(['Red / S', 'Red / M', 'Red / L', 'Blue / S', 'Blue / M', 'Blue / L']);
    for (const size of ['S', 'M', 'L']) {
      expect(variants[`Red / ${size}`]).toMatchObject({ price: '25.00', inventoryQuantity: 7 });
      expect(variants[`Blue / ${size}`]).toMatchObject({ price: null, inventoryQuantity: 0 });
    }
    expect(variants['Blue / S']!.weight).toEqual({ value: 180, unit: 'g' });
    expect(variants['Red / M']!.sku).toBe('TRAIL-TEE-RED-M');
    expect(await eventTypes(productId)).toEqual(['product.created']);
    // The saved product opens with its grid, nothing unsaved.
    await count(gridRows(), (n) => n === 6, 'the saved grid');
    expect(await page.getByText('Unsaved changes').count()).toBe(0);

    expect(problems).toEqual({ 'product-new-variants': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('saves options then variants, shows a SKU clash at its cell by the variant’s values, and keeps every variant’s id', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const productId = new URL(page.url()).pathname.split('/').pop()!;
    const before = byCombo(await apiProduct(productId));

    // A new size, and S removed: its two variants are flagged before saving.
    await addValues('Size', ['XL']);
    await page.getByRole('button', { name: 'Remove S' }).click();
    expect(await gridLabels()).toEqual(['Red / M', 'Red / L', 'Red / XL', 'Blue / M', 'Blue / L', 'Blue / XL']);
    const removed = page.locator('.variants-removed');
    await hasText(removed, 'These 2 variants are deleted when you save');
    await hasText(removed, 'Red / S (SKU TRAIL-TEE-RED-S): Size “S” is removed');
    await page.getByText('Unsaved changes').waitFor();
    // The new rows carry a mark; one gets a SKU another product has.
    expect(await page.locator('.variant-new').count()).toBe(2);
    await page.getByLabel('SKU of variant Blue / XL', { exact: true }).fill('TAKEN-9');
    await page.getByRole('button', { name: 'Save changes' }).click();

    // The options went through; the variants' write was refused, the problem at its cell.
    await toast(page, "The product's variants were not saved: see the sections marked.").waitFor();
    const summary = page.locator('.error-summary');
    await hasText(summary, 'Variant Blue / XL: SKU');
    const sku = page.getByLabel('SKU of variant Blue / XL', { exact: true });
    expect(await sku.getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('td').filter({ has: sku }), 'already used');
    const half = await apiProduct(productId);
    expect(half.options[1]).toEqual({ name: 'Size', values: ['M', 'L', 'XL'] });
    expect(half.variants.map((v) => v.sku).sort()).toEqual(['TRAIL-TEE-BLUE-L', 'TRAIL-TEE-BLUE-M', 'TRAIL-TEE-RED-L', 'TRAIL-TEE-RED-M']);
    takeExpectedErrors(watch, 409);
    await checkScreen(page, 'product-variants-refused', problems);

    // The grid kept every edit: correct the SKU, set a compare-at price and save again.
    expect(await gridLabels()).toEqual(['Red / M', 'Red / L', 'Red / XL', 'Blue / M', 'Blue / L', 'Blue / XL']);
    await sku.fill('TRAIL-TEE-BLUE-XL');
    await page.getByLabel('Compare-at price of variant Red / M', { exact: true }).fill('40');
    // A saved variant's new SKU is given by its id first, so that the whole-set write keeps the variant.
    await page.getByLabel('SKU of variant Blue / M', { exact: true }).fill('TRAIL-TEE-NAVY-M');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    await closeToasts(page);
    expect(await eventTypes(productId)).toEqual(['product.created', 'product.options_updated', 'product.variants_updated', 'product.variants_replaced']);

    await page.reload();
    await page.getByRole('heading', { name: 'Trail Tee', level: 1 }).waitFor();
    await count(gridRows(), (n) => n === 6, 'the grid after reloading');
    expect(await page.getByLabel('Compare-at price of variant Red / M', { exact: true }).inputValue()).toBe('40.00');
    const after = await apiProduct(productId);
    expect(after.options).toEqual([
      { name: 'Color', values: ['Red', 'Blue'] },
      { name: 'Size', values: ['M', 'L', 'XL'] },
    ]);
    const variants = byCombo(after);
    expect(Object.keys(variants)).toEqual(['Red / M', 'Red / L', 'Red / XL', 'Blue / M', 'Blue / L', 'Blue / XL']);
    // Saved variants keep their id and their values; the new ones have the product's price.
    expect(variants['Red / M']).toMatchObject({ id: before['Red / M']!.id, price: '25.00', compareAtPrice: '40.00', inventoryQuantity: 7 });
    expect(variants['Blue / M']).toMatchObject({ id: before['Blue / M']!.id, sku: 'TRAIL-TEE-NAVY-M' });
    expect(variants['Blue / XL']).toMatchObject({ sku: 'TRAIL-TEE-BLUE-XL', price: null, inventoryQuantity: 0 });

    expect(problems).toEqual({ 'product-variants-refused': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('renames an option and a value, removes an option after saying which variants go away, and picks an image for a variant in one small write', async () => {
    const watch = watchPage(page, f.t.url);
    const productId = new URL(page.url()).pathname.split('/').pop()!;
    const before = byCombo(await apiProduct(productId));

    await page.getByLabel('Name of option 2').fill('Fit');
    await page.getByText('Renamed from Size: the variants follow.').waitFor();
    // A value renamed in place (select it, type, Enter): its variants follow too (the confirmation below names
    // the variants as they were saved).
    await page.getByRole('button', { name: 'Rename L' }).click();
    await page.getByLabel('New name for L').fill('Large');
    await page.getByLabel('New name for L').press('Enter');
    await page.getByRole('button', { name: 'Remove option Color' }).click();
    await page.getByRole('group', { name: 'Remove Color? These 3 variants go away when you save: Blue / M, Blue / L, Blue / XL.' }).waitFor();
    await page.getByRole('button', { name: 'Remove Color' }).click();
    expect(await gridLabels()).toEqual(['M', 'Large', 'XL']);
    await hasText(page.locator('.variants-removed'), 'These 3 variants are deleted when you save');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    const after = await apiProduct(productId);
    expect(after.options).toEqual([{ name: 'Fit', values: ['M', 'Large', 'XL'] }]);
    expect(after.variants.map((v) => [v.id, v.options])).toEqual([
      [before['Red / M']!.id, { Fit: 'M' }],
      [before['Red / L']!.id, { Fit: 'Large' }],
      [before['Red / XL']!.id, { Fit: 'XL' }],
    ]);
    // One write: the options write deleted the variants it left repeating.
    expect((await eventTypes(productId)).slice(4)).toEqual(['product.options_updated']);

    await closeToasts(page);
    // An image of the product, chosen for one variant: only that variant's image is sent.
    await dropFile(page, '[data-testid=image-dropzone]', { name: 'green.png', type: 'image/png', bytes: await pngBytes({ r: 40, g: 160, b: 60 }) });
    await eventually(() => page.getByLabel('Image of variant Large', { exact: true }).locator('option').count(), (n) => n === 2, 'the image in the variant’s list');
    await page.getByLabel('Image of variant Large', { exact: true }).selectOption({ label: 'Image 1' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    const withImage = await apiProduct(productId);
    expect(byCombo(withImage)['Large']!.imageId).toBe(withImage.images[0]!.id);
    expect(byCombo(withImage)['M']!.imageId).toBeNull();
    expect((await eventTypes(productId)).slice(-1)).toEqual(['product.variants_updated']);
    const change = await db().event.findFirst({ where: { resourceId: productId, type: 'product.variants_updated' }, orderBy: { occurredAt: 'desc' } });
    expect(change).not.toBeNull();

    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('fits the grid in 390 px: it scrolls inside its own frame, the page does not', async () => {
    const productId = new URL(page.url()).pathname.split('/').pop()!;
    const context = await f.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await context.newPage();
    const watch = watchPage(phone, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(phone, f);
    await phone.goto(`${f.t.url}/dashboard/products/${productId}`);
    await phone.getByLabel('SKU of variant XL', { exact: true }).waitFor();
    await phone.getByLabel('Select all variants').check();
    await phone.getByText('3 of 3 selected').waitFor();
    await checkPhoneScreen(phone, 'product-variants', problems);
    const frame = await phone.locator('.variant-grid-wrap').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(frame.scroll).toBeGreaterThan(frame.client);
    expect(problems).toEqual({ 'product-variants': [] });
    expect(watch.errors).toEqual([]);
    await context.close();
  }, 60_000);
});
