import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { createProduct } from '../../src/catalog/services/productCreate';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, closeToasts, eventually, hasText, pngBytes, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';
import { filePart, restUpload } from '../images/images';

/**
 * Staged changes in the dashboard (issue 30, item 4): edits staged from the editor instead of saved live, the
 * "Staged" badge in the list and the editor, the difference in words, a live save refused while changes are
 * staged, publishing the prices only, scheduling the publish in the browser's time zone, and discarding the rest.
 */

interface Live {
  name: string;
  price: string;
  description: string;
  tags: string[];
  hasStagedChanges: boolean;
  variants: { title: string; price: string | null }[];
}
interface Staged {
  hasStagedChanges: boolean;
  publishAt: string | null;
  publishScope: string | null;
  changes: { field: string; previous: unknown; next: unknown }[];
}

describeInBrowser('staged changes in the dashboard in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  let token: string;
  let productId: string;

  const live = async (): Promise<Live> => {
    const res = await f.t.graphql('query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { name price description tags hasStagedChanges variants { title price } } }', { s: f.storeId, id: productId }, { token });
    return (res.body.data as { product: Live }).product;
  };
  const staged = async (): Promise<Staged> => {
    const res = await f.t.graphql('query($s: ID!, $id: ID!) { stagedProduct(storeId: $s, id: $id) { hasStagedChanges publishAt publishScope changes { field previous next } } }', { s: f.storeId, id: productId }, { token });
    return (res.body.data as { stagedProduct: Staged }).stagedProduct;
  };
  const fields = async () => (await staged()).changes.map((c) => c.field).sort();

  beforeAll(async () => {
    f = await startDashboard('staged');
    const ctx = testContext();
    await createCategory(ctx, { storeId: f.storeId, name: 'Shirts', slug: 'shirts' });
    const product = await createProduct(ctx, f.storeId, { name: 'Linen shirt', price: '49', status: 'active', categorySlugs: ['shirts'], variants: [{ sku: 'LIN-BLUE', title: 'Blue', options: { Color: 'Blue' } }] });
    productId = product.id;
    token = (await issueDashboardToken(ctx, f.userId)).token;
    const upload = await restUpload(f.t, f.storeId, token, [filePart(await pngBytes(), 'front.png', 'image/png'), { name: 'product_id', value: productId }]);
    expect(upload.status).toBe(201);
    // A new alt text staged through the API: the difference shows the images as thumbnails.
    const imageId = (upload.body as { data: { id: string } }).data.id;
    const arranged = await f.t.graphql(
      'mutation($s: ID!, $p: ID!, $i: ID!) { arrangeProductImages(storeId: $s, productId: $p, images: [{id: $i, alt: "Linen shirt, front"}], staged: true) { id } }',
      { s: f.storeId, p: productId, i: imageId },
      { token },
    );
    expect(arranged.body.errors).toBeUndefined();
    // The browser's time zone is not the service's: a scheduled time must travel as an instant.
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 }, timezoneId: 'America/New_York' });
  }, 120_000);

  afterAll(() => f?.close());

  it('stages a name and price change, shows it in words, refuses a live save, publishes the prices, schedules and discards', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);
    await page.getByRole('link', { name: 'Linen shirt' }).click();
    await page.getByRole('heading', { name: 'Linen shirt', level: 1 }).waitFor();
    const panel = page.getByRole('region', { name: /Staged changes/ });
    await hasText(panel, 'Images');
    expect(await panel.locator('.staged-image img').count()).toBe(2);
    await hasText(panel, 'no alt text');
    await hasText(panel, '“Linen shirt, front”');

    // Stock is never staged: the field says so, and nothing is written.
    await page.getByLabel('Inventory', { exact: true }).fill('7');
    await page.getByRole('button', { name: 'Stage changes' }).click();
    await toast(page, 'The product was not saved: one field needs correcting.').waitFor();
    await hasText(page.locator('.error-summary'), 'Inventory: cannot be staged: save it live with “Save changes”');
    expect(await page.getByLabel('Inventory', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await fields()).toEqual(['images']);
    takeExpectedErrors(watch, 422);
    await page.getByLabel('Inventory', { exact: true }).fill('0');

    // Name, price and the variant's price, staged: the live product keeps its own.
    await page.getByLabel('Name', { exact: true }).fill('Linen summer shirt');
    await page.getByLabel('Price (EUR)').fill('39');
    await page.getByLabel('Price of variant Blue', { exact: true }).fill('35');
    await page.getByLabel('Page title').fill('Linen summer shirt at Mira’s');
    await page.getByRole('button', { name: 'Stage changes' }).click();
    await toast(page, 'Staged: these changes are not live until you publish them.').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Linen shirt');
    expect(await live()).toMatchObject({ name: 'Linen shirt', price: '49.00', hasStagedChanges: true, variants: [{ title: 'Blue', price: null }] });
    const stagedFields = await fields();
    expect(stagedFields).toEqual(expect.arrayContaining(['images', 'name', 'price', 'seo']));
    expect(stagedFields.some((field) => /^variants\.[^.]+\.price$/.test(field))).toBe(true);

    // The difference in words, and the badge in the header.
    await hasText(panel, 'Linen summer shirt');
    // "→" is read out as "staged as" (a hidden text); the eye sees the arrow.
    const panelText = (await panel.innerText()).replace(/\s*→\s*staged as\s*/g, ' → ');
    expect(panelText).toContain('Name\nLinen shirt → Linen summer shirt');
    expect(panelText).toMatch(/Price \(EUR\)\n€49\.00 → €39\.00/);
    expect(panelText).toContain('Search engine listing\nnone → page title “Linen summer shirt at Mira’s”');
    expect(panelText).toMatch(/Variant “Blue”: price\nthe product’s price → €35\.00/);
    expect(panelText).not.toMatch(/variants\.|prices\.|[a-z]_[a-z]/);
    await page.locator('.page-header').getByText('Staged', { exact: true }).waitFor();
    await checkScreen(page, 'product-staged', problems);

    // The list shows the badge on the product's row.
    await page.getByRole('link', { name: '← All products' }).click();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await page.getByRole('row', { name: /Linen shirt/ }).getByText('Staged', { exact: true }).waitFor();
    await checkScreen(page, 'products-staged', problems);
    await page.getByRole('link', { name: 'Linen shirt' }).click();
    await page.getByRole('heading', { name: 'Linen shirt', level: 1 }).waitFor();

    // A live save of a staged field is refused while changes are staged; the merchant adds it to the staged changes.
    await page.getByLabel('Description', { exact: true }).fill('Light and cool.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Not saved: this product has staged changes. Choose how to save at the top of the page.').waitFor();
    await page.getByText('This product has staged changes, so your edits were not saved.').waitFor();
    takeExpectedErrors(watch, 409);
    expect((await live()).description).toBe('');
    await closeToasts(page);
    await page.getByRole('button', { name: 'Add to the staged changes' }).click();
    await toast(page, 'Staged: these changes are not live until you publish them.').waitFor();
    await hasText(panel, 'Light and cool.');
    expect(await fields()).toContain('description');
    expect((await live()).description).toBe('');

    // Or to both versions: the tags go live and into the staged version, which then holds no tag change of its own.
    await page.getByLabel('Tags').fill('summer, linen');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('This product has staged changes, so your edits were not saved.').waitFor();
    takeExpectedErrors(watch, 409);
    expect((await live()).tags).toEqual([]);
    await closeToasts(page);
    await page.getByRole('button', { name: 'Save live and in the staged changes' }).click();
    await toast(page, 'Saved.').waitFor();
    expect((await live()).tags).toEqual(['summer', 'linen']);
    expect(await fields()).toEqual(['description', 'images', 'name', 'price', 'seo', expect.stringMatching(/^variants\.[^.]+\.price$/)]);
    expect(await page.getByText('This product has staged changes, so your edits were not saved.').count()).toBe(0);

    // Prices only: the prices go live, the rest stays staged.
    await panel.getByRole('button', { name: 'Publish prices only' }).click();
    await toast(page, 'Published the staged prices: the other staged changes are still waiting.').waitFor();
    await eventually(live, (p) => p.price === '39.00', 'the live price');
    expect(await live()).toMatchObject({ name: 'Linen shirt', price: '39.00', description: '', hasStagedChanges: true, variants: [{ title: 'Blue', price: '35.00' }] });
    expect(await fields()).toEqual(['description', 'images', 'name', 'seo']);
    await hasText(panel, 'Price (EUR)', true);
    expect(await panel.getByRole('button', { name: 'Publish prices only' }).count()).toBe(0);

    // A time in the past is refused at its field.
    const year = new Date().getUTCFullYear() + 1;
    await panel.getByLabel('Publish at').fill(`${year - 3}-01-15T10:00`);
    await panel.getByRole('button', { name: 'Schedule publish' }).click();
    await toast(page, 'The publish was not scheduled: correct the time.').waitFor();
    await hasText(panel.locator('.field-invalid'), 'must be in the future');
    expect(await panel.getByLabel('Publish at').getAttribute('aria-invalid')).toBe('true');
    expect((await staged()).publishAt).toBeNull();
    takeExpectedErrors(watch, 422);

    // A schedule chosen in the browser's zone (New York, UTC-5 in January) arrives as that instant.
    await panel.getByLabel('Publish at').fill(`${year}-01-15T10:00`);
    await panel.getByLabel('What to publish').selectOption('ALL');
    await panel.getByRole('button', { name: 'Schedule publish' }).click();
    await toast(page, 'Scheduled: the staged changes publish on').waitFor();
    const scheduled = await staged();
    expect(new Date(scheduled.publishAt!).toISOString()).toBe(`${year}-01-15T15:00:00.000Z`);
    expect(scheduled.publishScope).toBe('ALL');
    await hasText(panel, `Scheduled to publish every staged change on Jan 15, ${year}, 10:00`);
    expect((await live()).name).toBe('Linen shirt');

    // At a phone's width the panel fits.
    await page.setViewportSize({ width: 390, height: 844 });
    await checkPhoneScreen(page, 'product-staged-phone', problems);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Discard asks first, then drops the rest and the schedule; the live product stays as it was.
    await panel.getByRole('button', { name: 'Discard staged changes' }).click();
    await page.getByRole('group', { name: /Discard every staged change/ }).getByRole('button', { name: 'Cancel' }).click();
    expect((await staged()).hasStagedChanges).toBe(true);
    await panel.getByRole('button', { name: 'Discard staged changes' }).click();
    await page.getByRole('button', { name: 'Discard', exact: true }).click();
    await toast(page, 'Discarded the staged changes: the live product is unchanged.').waitFor();
    await eventually(async () => (await staged()).hasStagedChanges, (has) => !has, 'staged changes after discarding');
    expect(await staged()).toMatchObject({ publishAt: null, changes: [] });
    expect(await live()).toMatchObject({ name: 'Linen shirt', price: '39.00', description: '', hasStagedChanges: false });
    await eventually(() => panel.count(), (n) => n === 0, 'the staged panel gone');
    expect(await page.locator('.page-header').getByText('Staged', { exact: true }).count()).toBe(0);

    expect(problems).toEqual({ 'product-staged': [], 'products-staged': [], 'product-staged-phone': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 120_000);
});
