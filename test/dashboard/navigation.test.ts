import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { createProduct } from '../../src/catalog/services/productCreate';
import { db } from '../../src/platform/db/client';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, eventually, nav, signIn, startDashboard, type DashboardFixture } from '../helpers/dashboard';
import { filePart, restUpload } from '../images/images';

/**
 * Moving around the dashboard (issue 30, item 5): the browser's Back button asks before unsaved edits are lost, as
 * links do; the product list asks the API for each product's first image only (its thumbnail), not all; screens
 * other than the list and the editor load when first opened, and one that cannot load says so with a way out.
 */

describeInBrowser('navigation, lazily loaded screens and list thumbnails in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  let token: string;
  let productId: string;
  const imageIds: string[] = [];
  const imageUrls: string[] = [];

  beforeAll(async () => {
    f = await startDashboard('back');
    const ctx = testContext();
    await createCategory(ctx, { storeId: f.storeId, name: 'Hats', slug: 'hats' });
    await createProduct(ctx, f.storeId, { name: 'Plain Cap', price: '9', categorySlugs: ['hats'] });
    productId = (await createProduct(ctx, f.storeId, { name: 'Straw Hat', price: '25', categorySlugs: ['hats'] })).id;
    token = (await issueDashboardToken(ctx, f.userId)).token;
    for (const [n, green] of [40, 140, 240].entries()) {
      const png = await sharp({ create: { width: 60, height: 60, channels: 3, background: { r: 200, g: green, b: 20 } } }).png().toBuffer();
      const res = await restUpload(f.t, f.storeId, token, [{ name: 'product_id', value: productId }, filePart(png, `straw-${n}.png`, 'image/png')]);
      expect(res.status).toBe(201);
      const body = res.body as { data: { id: string; url: string } };
      imageIds.push(body.data.id);
      imageUrls.push(body.data.url);
    }
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  /** The thumbnail's address and what the list's query asked for and got. */
  const openList = async () => {
    // Waited for once the new page is committed, so that a list request of the page before is not taken for its own.
    await page.goto(`${f.t.url}/dashboard/products`, { waitUntil: 'commit' });
    const answer = await page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('"operationName":"ProductList"'));
    const sent = JSON.parse(answer.request().postData()!) as { query: string };
    const body = (await answer.json()) as { data: { products: { items: { name: string; images: { url: string }[] }[] } } };
    const thumb = page.getByRole('row').filter({ hasText: 'Straw Hat' }).locator('img.thumb');
    await eventually(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), (loaded) => loaded, 'thumbnail loaded');
    return { query: sent.query, items: body.data.products.items, src: await thumb.evaluate((img: HTMLImageElement) => img.src) };
  };

  it('shows the first image as the thumbnail, fetching only that one', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);

    let list = await openList();
    expect(list.query).toMatch(/images\(first: 1\)/);
    expect(list.items.map((p) => [p.name, p.images.length])).toEqual([
      ['Straw Hat', 1],
      ['Plain Cap', 0],
    ]);
    expect(list.src).toBe(imageUrls[0]);
    await checkScreen(page, 'products-thumbnails', problems);

    // Another image put first (as the editor's arrangement does): the list shows that one.
    const arranged = await f.t.graphql(
      'mutation($s: ID!, $p: ID!, $i: [ProductImageArrangement!]!) { arrangeProductImages(storeId: $s, productId: $p, images: $i) { id } }',
      { s: f.storeId, p: productId, i: [imageIds[2], imageIds[0], imageIds[1]].map((id) => ({ id })) },
      { token },
    );
    expect(arranged.body.errors).toBeUndefined();
    list = await openList();
    expect(list.src).toBe(imageUrls[2]);
    expect(list.items[0]!.images).toEqual([{ id: imageIds[2], url: imageUrls[2] }]);

    // The API: all images without the argument, none with 0, and a negative count refused, naming the argument.
    const images = async (first: number | null) =>
      f.t.graphql('query($s: ID!, $id: ID!, $f: Int) { product(storeId: $s, id: $id) { images(first: $f) { id } } }', { s: f.storeId, id: productId, f: first }, { token });
    expect(((await images(null)).body.data as { product: { images: unknown[] } }).product.images).toHaveLength(3);
    expect(((await images(0)).body.data as { product: { images: unknown[] } }).product.images).toEqual([]);
    const refused = (await images(-1)).body.errors![0]!;
    expect(refused.extensions).toMatchObject({ code: 'validation_failed', errors: [{ field: 'first', code: 'too_small' }] });

    // Publishing in the editor keeps all its images, each drawn at its proportions (the list's row is not the editor's).
    await page.getByRole('link', { name: 'Straw Hat' }).click();
    await page.getByRole('heading', { name: 'Straw Hat', level: 1 }).waitFor();
    const cards = page.getByTestId('image-card').locator('img');
    await eventually(() => cards.count(), (n) => n === 3, 'image cards');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Unpublish', exact: true }).waitFor();
    expect(await cards.evaluateAll((imgs) => imgs.map((img) => img.getAttribute('height')))).toEqual(['160', '160', '160']);
    expect((await db().product.findUniqueOrThrow({ where: { id: productId } })).status).toBe('active');

    expect(problems).toEqual({ 'products-thumbnails': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);

  it('asks before the Back button drops unsaved edits; staying keeps them, leaving drops them', async () => {
    const watch = watchPage(page, f.t.url);
    const dialogs: string[] = [];
    page.on('dialog', (d) => dialogs.push(d.message()));
    const answer = (accept: boolean) => page.once('dialog', (d) => void (accept ? d.accept() : d.dismiss()));
    const editorPath = `/dashboard/products/${productId}`;
    const name = page.getByLabel('Name', { exact: true });

    // Without edits, Back simply goes back.
    await page.goto(`${f.t.url}/dashboard/products`);
    await page.getByRole('link', { name: 'Straw Hat' }).click();
    await page.getByRole('heading', { name: 'Straw Hat', level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    expect(dialogs).toEqual([]);

    // With an edit: Back asks; staying keeps the page, its address and the edit.
    await page.goForward();
    await page.getByRole('heading', { name: 'Straw Hat', level: 1 }).waitFor();
    await name.fill('Straw Hat (edited)');
    await page.getByText('Unsaved changes').waitFor();
    answer(false);
    await page.goBack();
    await eventually(async () => dialogs.length, (n) => n === 1, 'the leave question');
    expect(dialogs).toEqual(['You have unsaved changes. Leave this page and lose them?']);
    await eventually(async () => new URL(page.url()).pathname, (p) => p === editorPath, 'the editor address back');
    expect(await name.inputValue()).toBe('Straw Hat (edited)');
    expect(await page.getByRole('heading', { name: 'Products', level: 1 }).count()).toBe(0);

    // Back again, leaving: the list, and the product as it was saved.
    answer(true);
    await page.goBack();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    expect(dialogs).toHaveLength(2);
    expect(new URL(page.url()).pathname).toBe('/dashboard/products');
    expect((await db().product.findUniqueOrThrow({ where: { id: productId } })).name).toBe('Straw Hat');
    await page.getByRole('link', { name: 'Straw Hat', exact: true }).waitFor();

    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 60_000);

  it('loads a screen when it is first opened; one whose code cannot be fetched says so and offers a reload', async () => {
    const problems: Record<string, string[]> = {};
    const fresh = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const watch = watchPage(fresh, f.t.url);
    await signIn(fresh, f);
    const chunk = (name: string) => watch.requests.filter((u) => new RegExp(`/dashboard/assets/${name}-[\\w-]+\\.js$`).test(u));
    // The list is in the first bundle; the team's screen is not fetched until it is opened.
    expect(chunk('Team')).toEqual([]);
    await nav(fresh, 'Team').click();
    await fresh.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    expect(chunk('Team')).toHaveLength(1);

    // The webhooks' code cannot be fetched (the connection dropped): the page says so, another screen still opens.
    await fresh.route(/\/dashboard\/assets\/Webhooks-[\w-]+\.js$/, (route) => route.abort('internetdisconnected'));
    await nav(fresh, 'Webhooks').click();
    await fresh.getByRole('heading', { name: 'This page could not be opened', level: 1 }).waitFor();
    expect(await fresh.getByRole('alert').innerText()).toContain('Check the connection, then reload');
    await fresh.getByRole('button', { name: 'Reload the page' }).waitFor();
    await checkScreen(fresh, 'screen-not-loaded', problems);
    await fresh.setViewportSize({ width: 390, height: 844 });
    await checkPhoneScreen(fresh, 'screen-not-loaded-phone', problems);
    await fresh.setViewportSize({ width: 1280, height: 900 });
    await nav(fresh, 'Categories').click();
    await fresh.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();

    // Back on a connection: Reload opens the webhooks.
    await fresh.unroute(/\/dashboard\/assets\/Webhooks-[\w-]+\.js$/);
    await nav(fresh, 'Webhooks').click();
    await fresh.getByRole('button', { name: 'Reload the page' }).click();
    await fresh.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();

    expect(problems).toEqual({ 'screen-not-loaded': [], 'screen-not-loaded-phone': [] });
    // The refused fetch is the only error the page met (Chromium logs it, and React reports the failed import).
    const refused = (e: string) => /Webhooks-[\w-]+\.js|dynamically imported module|ERR_INTERNET_DISCONNECTED/.test(e);
    expect(watch.errors.filter(refused).length).toBeGreaterThan(0);
    expect(watch.errors.filter((e) => !refused(e))).toEqual([]);
    expect(watch.external()).toEqual([]);
    await fresh.close();
  }, 60_000);
});
