import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { createCategory } from '../../src/catalog/services/categories';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createProduct } from '../../src/catalog/services/productCreate';
import { db } from '../../src/platform/db/client';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { filePart, restUpload } from '../images/images';
import { checkScreen, count, eventually, signIn, startDashboard, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * The product list (issue 30, item 3): thumbnails, sorting by a column's header, and the bulk actions beyond
 * publishing, each one write per product with its event, with a summary of what failed.
 */

describeInBrowser('the product list in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    f = await startDashboard('list');
    const ctx = testContext();
    await createCategory(ctx, { storeId: f.storeId, name: 'Hats', slug: 'hats' });
    await createCategory(ctx, { storeId: f.storeId, name: 'Sale', slug: 'sale' });
    for (const [name, price] of [
      ['Beret', '30'],
      ['Cap', '10'],
      ['Fedora', '50'],
    ] as const) {
      ids[name] = (await createProduct(ctx, f.storeId, { name, price, categorySlugs: name === 'Fedora' ? ['hats'] : ['hats', 'sale'] })).id;
    }
    const png = await sharp({ create: { width: 60, height: 60, channels: 3, background: { r: 10, g: 120, b: 60 } } }).png().toBuffer();
    const { token } = await issueDashboardToken(ctx, f.userId);
    const uploaded = await restUpload(f.t, f.storeId, token, [filePart(png, 'cap.png', 'image/png'), { name: 'product_id', value: ids.Cap! }]);
    expect(uploaded.status).toBe(201);
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  const names = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('td:nth-child(3) a')?.textContent ?? ''));

  it('shows thumbnails, sorts by column, and runs bulk actions one write per product with a summary of failures', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);
    await count(page.locator('tbody tr'), (n) => n === 3, 'product rows');

    // The image of the cap as a thumbnail; no image: an empty frame.
    const capThumb = page.getByRole('row').filter({ hasText: 'Cap' }).locator('img.thumb');
    await capThumb.waitFor();
    await eventually(() => capThumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), (loaded) => loaded, 'thumbnail loaded');
    expect(await page.getByRole('row').filter({ hasText: 'Beret' }).locator('img').count()).toBe(0);

    // Sorting by a header: ascending, then descending, kept in the address.
    await page.getByRole('button', { name: /^Price/ }).click();
    await page.waitForURL(/sort=PRICE_ASC/);
    await eventually(names, (n) => n.join() === 'Cap,Beret,Fedora', 'names by price ascending');
    expect(await page.getByRole('columnheader', { name: /Price/ }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: /^Price/ }).click();
    await page.waitForURL(/sort=PRICE_DESC/);
    await eventually(names, (n) => n.join() === 'Fedora,Beret,Cap', 'names by price descending');
    await checkScreen(page, 'products-sorted', problems);

    const selectAll = page.getByRole('checkbox', { name: 'Select all products on this page' });
    const bulk = page.getByRole('form', { name: 'More bulk actions' });

    // Prices up by 10 % on all three.
    await selectAll.check();
    await bulk.getByLabel('Bulk action').selectOption('pricePercent');
    await bulk.getByLabel(/Percentage/).fill('10');
    await bulk.getByRole('button', { name: 'Apply to 3 products' }).click();
    await toast(page, 'Changed the price of 3 of 3 products.').waitFor();
    const prices = async () => Object.fromEntries((await db().product.findMany({ where: { storeId: f.storeId }, select: { name: true, price: true } })).map((p) => [p.name, p.price.toFixed(2)]));
    expect(await prices()).toEqual({ Beret: '33.00', Cap: '11.00', Fedora: '55.00' });

    // Removing "Sale" leaves the fedora without a category: refused for it alone, named in the summary.
    await eventually(() => selectAll.isChecked(), (c) => !c, 'selection cleared after success');
    await selectAll.check();
    await bulk.getByLabel('Bulk action').selectOption('removeCategory');
    await bulk.getByLabel('Category').selectOption('hats');
    await bulk.getByRole('button', { name: 'Apply to 3 products' }).click();
    const summary = page.getByRole('region', { name: 'Notifications' }).locator('.toast').filter({ hasText: 'Removed the category from 2 of 3 products.' });
    await summary.waitFor();
    await summary.getByText('Fedora: it would be left without a category (a product needs one)').waitFor();
    await checkScreen(page, 'products-bulk-summary', problems);
    // The failed product stays selected, to try again.
    expect(await page.getByRole('checkbox', { name: 'Select Fedora' }).isChecked()).toBe(true);

    // Tags added, then the beret archived, then the cap deleted: each product has its own event per write.
    await page.getByRole('checkbox', { name: 'Select Fedora' }).uncheck();
    await page.getByRole('checkbox', { name: 'Select Beret' }).check();
    await bulk.getByLabel('Bulk action').selectOption('addTags');
    await bulk.getByLabel('Tags (comma-separated)').fill('winter, wool');
    await bulk.getByRole('button', { name: 'Apply to 1 product' }).click();
    await toast(page, 'Tagged 1 of 1 product.').waitFor();
    await eventually(() => page.getByRole('checkbox', { name: 'Select Beret' }).isChecked(), (c) => !c, 'selection cleared');
    await page.getByRole('checkbox', { name: 'Select Beret' }).check();
    await bulk.getByLabel('Bulk action').selectOption('archive');
    await bulk.getByRole('button', { name: 'Apply to 1 product' }).click();
    await toast(page, 'Archived 1 of 1 product.').waitFor();
    await eventually(() => page.getByRole('checkbox', { name: 'Select Cap' }).isChecked(), (c) => !c, 'selection cleared');
    await page.getByRole('checkbox', { name: 'Select Cap' }).check();
    await bulk.getByLabel('Bulk action').selectOption('delete');
    await bulk.getByRole('button', { name: 'Delete 1 product' }).click();
    await bulk.getByRole('button', { name: 'Delete for good' }).click();
    await toast(page, 'Deleted 1 of 1 product.').waitFor();
    await count(page.locator('tbody tr'), (n) => n === 2, 'rows after the delete');

    const beret = await db().product.findUniqueOrThrow({ where: { id: ids.Beret! }, select: { tags: true, status: true } });
    expect(beret).toEqual({ tags: ['winter', 'wool'], status: 'archived' });
    const typesOf = async (id: string) => (await db().event.findMany({ where: { resourceId: id }, orderBy: { occurredAt: 'asc' }, select: { type: true } })).map((e) => e.type);
    expect(await typesOf(ids.Beret!)).toEqual(['product.created', 'product.updated', 'product.updated', 'product.updated', 'product.updated']);
    expect(await typesOf(ids.Fedora!)).toEqual(['product.created', 'product.updated']);
    expect((await typesOf(ids.Cap!)).at(-1)).toBe('product.deleted');

    expect(problems).toEqual({ 'products-sorted': [], 'products-bulk-summary': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);
});
