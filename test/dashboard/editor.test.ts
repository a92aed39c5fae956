import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { createProduct } from '../../src/catalog/services/productCreate';
import { db } from '../../src/platform/db/client';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkScreen, count, dropFile, eventually, hasText, pngBytes, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * The product editor's bugs and layout (issue 30, items 1 and 3): a product with a clashing variant SKU is not
 * created at all and the failure is shown as one; the two columns at desktop width; images reordered by dragging;
 * a warning before edits are lost; a delete that says what it deleted and returns to the list as it was.
 */

describeInBrowser('the product editor in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;

  beforeAll(async () => {
    f = await startDashboard('editor');
    await createCategory(testContext(), { storeId: f.storeId, name: 'Winter hats', slug: 'winter-hats' });
    // Another product holds the SKU the new one will try.
    await createProduct(testContext(), f.storeId, { name: 'Older Beanie', price: '15', categorySlugs: ['winter-hats'], variants: [{ sku: 'TAKEN-1', options: { Color: 'Red' } }] });
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  it('creates nothing when a variant SKU clashes, shows the failure as one, then creates product and variants together', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByRole('heading', { name: 'New product' }).waitFor();

    // Two columns: the content left, status and organisation right.
    const main = await page.locator('.editor-main').boundingBox();
    const side = await page.locator('.editor-side').boundingBox();
    expect(side!.x).toBeGreaterThan(main!.x + main!.width - 1);
    expect(side!.y).toBeLessThan(main!.y + 50);

    await page.getByLabel('Name', { exact: true }).fill('Alpine Beanie');
    await page.getByLabel('Price (EUR)').fill('19.90');
    await page.getByRole('checkbox', { name: 'Winter hats' }).check();
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByLabel('Name of option 1').fill('Color');
    for (const value of ['Red', 'Blue']) {
      await page.getByLabel('Add a value to Color').fill(value);
      await page.getByLabel('Add a value to Color').press('Enter');
    }
    await page.getByLabel('SKU of variant Red', { exact: true }).fill('ALP-RED');
    await page.getByLabel('SKU of variant Blue', { exact: true }).fill('TAKEN-1');
    await page.getByRole('button', { name: 'Create product' }).click();

    await toast(page, 'The product was not saved: one field needs correcting.').waitFor();
    await hasText(page.locator('.error-summary'), 'Variant Blue: SKU');
    const sku = page.getByLabel('SKU of variant Blue', { exact: true });
    expect(await sku.getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('td').filter({ has: sku }), 'is already used by another variant');
    // Nothing green, nothing created.
    expect(await page.locator('.toast-success, .alert-success').count()).toBe(0);
    expect(await db().product.count({ where: { storeId: f.storeId, name: 'Alpine Beanie' } })).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard/products/new');
    takeExpectedErrors(watch, 409);
    await checkScreen(page, 'product-new-sku-clash', problems);

    await sku.fill('ALP-BLUE');
    await page.getByRole('button', { name: 'Create product' }).click();
    await toast(page, 'Created “Alpine Beanie”.').waitFor();
    await page.getByRole('heading', { name: 'Alpine Beanie', level: 1 }).waitFor();
    const productId = new URL(page.url()).pathname.split('/').pop()!;
    expect(await db().variant.count({ where: { productId } })).toBe(2);
    const events = await db().event.findMany({ where: { resourceId: productId }, select: { type: true } });
    expect(events.map((e) => e.type)).toEqual(['product.created']);

    expect(problems).toEqual({ 'product-new-sku-clash': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);

  it('reorders images by dragging, warns before leaving unsaved edits, and ends a delete on the list as it was', async () => {
    const watch = watchPage(page, f.t.url);
    const productId = new URL(page.url()).pathname.split('/').pop()!;
    await dropFile(page, '[data-testid=image-dropzone]', { name: 'red.png', type: 'image/png', bytes: await pngBytes() });
    await page.getByText('Uploaded red.png.').waitFor();
    await dropFile(page, '[data-testid=image-dropzone]', { name: 'blue.png', type: 'image/png', bytes: await pngBytes({ r: 40, g: 40, b: 200 }) });
    await page.getByText('Uploaded blue.png.').waitFor();
    const cards = page.getByTestId('image-card');
    await count(cards, (n) => n === 2, 'image cards');
    const { token } = await issueDashboardToken(testContext(), f.userId);
    const order = async () => {
      const res = await f.t.graphql('query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { images { id position } } }', { s: f.storeId, id: productId }, { token });
      return (res.body.data as { product: { images: { id: string; position: number }[] } }).product.images.sort((a, b) => a.position - b.position).map((i) => i.id);
    };
    const [first, second] = await order();
    await cards.nth(1).dragTo(cards.nth(0));
    await page.getByRole('button', { name: 'Save image order and alt text' }).click();
    await page.getByText('Saved the image order and alt text.').waitFor();
    await eventually(order, (ids) => ids[0] === second && ids[1] === first, 'image order after dragging');

    // An edit, then a link away: the browser asks; staying keeps the edit, leaving drops it.
    await page.getByLabel('Name', { exact: true }).fill('Alpine Beanie (edited)');
    await page.getByText('Unsaved changes').waitFor();
    const dialogs: string[] = [];
    page.once('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.getByRole('link', { name: 'Categories', exact: true }).click();
    expect(dialogs).toEqual(['You have unsaved changes. Leave this page and lose them?']);
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Alpine Beanie (edited)');
    expect(new URL(page.url()).pathname).toBe(`/dashboard/products/${productId}`);
    await page.getByLabel('Name', { exact: true }).fill('Alpine Beanie');

    // The list searched, then the product opened and deleted: the list comes back searched, with a notice.
    await page.getByRole('link', { name: '← All products' }).click();
    await page.getByLabel('Search').fill('alpine');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.waitForURL(/q=alpine/);
    await page.getByRole('link', { name: 'Alpine Beanie' }).click();
    await page.getByRole('heading', { name: 'Alpine Beanie', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete product' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await toast(page, 'Deleted “Alpine Beanie”.').waitFor();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe('?q=alpine');
    expect(await page.getByLabel('Search').inputValue()).toBe('alpine');

    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);
});
