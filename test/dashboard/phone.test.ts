import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { createProduct } from '../../src/catalog/services/productCreate';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, nav, signIn, startDashboard, type DashboardFixture } from '../helpers/dashboard';
import { filePart, restUpload } from '../images/images';
import sharp from 'sharp';

/**
 * Every screen at a phone's width (390 px): nothing scrolls sideways (the page's width is measured; tables become
 * cards or scroll inside their own frame), and axe finds no serious or critical problem there either.
 */

describeInBrowser('the dashboard on a phone (390 px) in headless Chromium', () => {
  let f: DashboardFixture;
  let productId: string;

  beforeAll(async () => {
    f = await startDashboard('phone', { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const ctx = testContext();
    await createCategory(ctx, { storeId: f.storeId, name: 'Winter hats', slug: 'winter-hats' });
    const product = await createProduct(ctx, f.storeId, {
      name: 'Alpine Beanie with a rather long name that has to wrap on a small screen',
      price: '19.90',
      categorySlugs: ['winter-hats'],
      tags: ['wool', 'winter'],
      variants: [
        { sku: 'ALP-RED-LONG-SKU-0001', title: 'Red', options: { Color: 'Red' } },
        { sku: 'ALP-BLUE-LONG-SKU-0002', title: 'Blue', options: { Color: 'Blue' } },
      ],
    });
    productId = product.id;
    const { token } = await issueDashboardToken(ctx, f.userId);
    const png = await sharp({ create: { width: 80, height: 60, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    expect((await restUpload(f.t, f.storeId, token, [filePart(png, 'red.png', 'image/png'), { name: 'product_id', value: productId }])).status).toBe(201);
    // A change with SEO and a price, for the history.
    const res = await f.t.graphql(
      'mutation($s: ID!, $id: ID!) { updateProduct(storeId: $s, id: $id, input: {price: "21.50", description: "A warm hat for cold mornings, knitted from merino wool."}) { version } }',
      { s: f.storeId, id: productId },
      { token },
    );
    expect(res.body.errors).toBeUndefined();
  }, 120_000);

  afterAll(() => f?.close());

  it('fits every screen in 390 px without sideways scrolling', async () => {
    const context = await f.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);
    await page.getByRole('link', { name: /Alpine Beanie/ }).waitFor();
    await checkPhoneScreen(page, 'products', problems);

    await page.getByRole('link', { name: /Alpine Beanie/ }).click();
    await page.getByRole('heading', { name: /Alpine Beanie/, level: 1 }).waitFor();
    await page.getByLabel('SKU of variant Blue', { exact: true }).waitFor();
    await checkPhoneScreen(page, 'product-edit', problems);

    await page.getByRole('link', { name: 'History' }).click();
    await page.locator('.timeline-item').first().waitFor();
    await checkPhoneScreen(page, 'product-history', problems);

    await page.goto(`${f.t.url}/dashboard/products/new`);
    await page.getByRole('heading', { name: 'New product' }).waitFor();
    await checkPhoneScreen(page, 'product-new', problems);

    for (const [link, heading] of [
      ['Categories', 'Categories'],
      ['Activity', 'Activity'],
      ['Webhooks', 'Webhooks'],
      ['Team', 'Team'],
    ]) {
      await nav(page, link!).click();
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await checkPhoneScreen(page, link!.toLowerCase(), problems);
    }

    // API keys, with a key in the list and its one-time secret shown.
    await nav(page, 'API keys').click();
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ERP sync with a long name');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByRole('textbox', { name: 'New API key “ERP sync with a long name”' }).waitFor();
    await checkPhoneScreen(page, 'api-keys', problems);

    expect(problems).toEqual(Object.fromEntries(Object.keys(problems).map((k) => [k, []])));
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
    await context.close();
  }, 90_000);
});
