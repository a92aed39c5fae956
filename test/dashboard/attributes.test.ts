import path from 'node:path';
import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { createProduct } from '../../src/catalog/services/productCreate';
import { ARTIFACTS_DIR, describeInBrowser, watchPage, type PageWatch } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, count, eventually, hasText, nav, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * Attributes and product types in the dashboard (issue 30, item 4): a swatch, a date, a rich text and a dropdown
 * attribute and a product type defined in the browser; a product given the type and its values in the editor
 * (typed rich text, a picked date, a swatch chip), with a missing required value shown at its field; what the
 * API then holds; the refusals of the service explained (an attribute in use, a value products hold); every new
 * screen checked with axe and at 390 px.
 */

interface ApiAttribute {
  code: string;
  name: string;
  type: string;
  filterable: boolean;
  public: boolean;
  values: { value: string; name: string; hex: string | null }[];
}

describeInBrowser('attributes and product types in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  let watch: PageWatch;
  let token: string;
  let productId: string;
  const problems: Record<string, string[]> = {};

  const api = async <T>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const res = await f.t.graphql(query, { s: f.storeId, ...variables }, { token });
    expect(res.body.errors).toBeUndefined();
    return res.body.data as T;
  };
  const attributes = async () =>
    (await api<{ attributes: { items: ApiAttribute[] } }>('query($s: ID!) { attributes(storeId: $s, perPage: 100) { items { code name type filterable public values { value name hex } } } }')).attributes.items;
  const product = async () =>
    (await api<{ product: { productTypeId: string | null; attributes: Record<string, unknown>; version: number } }>('query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { productTypeId attributes version } }', { id: productId }))
      .product;

  beforeAll(async () => {
    f = await startDashboard('attributes');
    await createCategory(testContext(), { storeId: f.storeId, name: 'Summer hats', slug: 'summer-hats' });
    productId = (await createProduct(testContext(), f.storeId, { name: 'Panama Fedora', price: '59', categorySlugs: ['summer-hats'] })).id;
    token = (await issueDashboardToken(testContext(), f.userId)).token;
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch = watchPage(page, f.t.url);
  }, 120_000);

  afterAll(() => f?.close());

  /** Creates an attribute through the form: name, type, then what `fill` adds. */
  async function createAttribute(name: string, type: string, fill: () => Promise<void> = async () => undefined) {
    await page.getByRole('link', { name: 'New attribute' }).click();
    await page.getByRole('heading', { name: 'New attribute', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Type', { exact: true }).selectOption({ label: type });
    await fill();
    await page.getByRole('button', { name: 'Create attribute' }).click();
    await toast(page, `Created “${name}”.`).waitFor();
    await page.getByRole('heading', { name: 'Attributes', level: 1 }).waitFor();
  }

  it('defines a swatch, a date, a rich text and a dropdown attribute, each value error at its field', async () => {
    await signIn(page, f);
    await nav(page, 'Attributes').click();
    await page.getByRole('heading', { name: 'Attributes', level: 1 }).waitFor();
    await page.getByText('No attributes yet.').waitFor();

    // A swatch with three values: the third left without a name is refused at its own field.
    await page.getByRole('link', { name: 'New attribute' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Shade');
    expect(await page.getByLabel('Code').inputValue()).toBe('shade');
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Colour swatch' });
    await page.getByLabel('Name of value 1').fill('Navy');
    expect(await page.getByLabel('Key of value 1').inputValue()).toBe('navy');
    await page.getByLabel('Colour of value 1').fill('#000080');
    await page.getByRole('button', { name: 'Add value' }).click();
    await page.getByLabel('Name of value 2').fill('Signal red');
    await page.getByLabel('Colour of value 2').fill('#ff0000');
    await page.getByRole('button', { name: 'Add value' }).click();
    await page.getByRole('button', { name: 'Move Signal red up' }).click();
    expect(await page.getByLabel('Name of value 1').inputValue()).toBe('Signal red');
    await checkScreen(page, 'attribute-new-swatch', problems);
    await page.getByRole('button', { name: 'Create attribute' }).click();
    await toast(page, 'The attribute was not saved').waitFor();
    const third = page.getByLabel('Name of value 3');
    expect(await third.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-invalid').count()).toBeGreaterThanOrEqual(1);
    // Only the empty row is marked, with the service's words under its name.
    expect(await page.locator('.value-row').nth(2).locator('.field-error').first().innerText()).toMatch(/\w/);
    expect(await page.locator('.value-row').nth(0).locator('.field-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove value 3' }).click();
    await page.getByRole('button', { name: 'Create attribute' }).click();
    await toast(page, 'Created “Shade”.').waitFor();
    takeExpectedErrors(watch, 422);

    await createAttribute('Release date', 'Date');
    await createAttribute('Care instructions', 'Rich text');
    await createAttribute('Material', 'Single choice (dropdown)', async () => {
      await page.getByLabel('Name of value 1').fill('Felt');
      await page.getByRole('button', { name: 'Add value' }).click();
      await page.getByLabel('Name of value 2').fill('Straw');
      await page.getByRole('checkbox', { name: 'Filter product lists by it' }).check();
      await page.getByRole('checkbox', { name: 'Show its values on the storefront' }).check();
    });

    const rows = page.locator('tbody tr');
    await count(rows, (n) => n === 4, 'attribute rows');
    await hasText(rows.filter({ hasText: 'Shade' }), 'Colour swatch');
    await hasText(rows.filter({ hasText: 'Shade' }), 'Signal red');
    await hasText(rows.filter({ hasText: 'Material' }), 'Filterable');
    await hasText(rows.filter({ hasText: 'Release date' }), 'No product type');
    await checkScreen(page, 'attributes', problems);

    const stored = await attributes();
    expect(stored.map((a) => [a.code, a.type]).sort()).toEqual([
      ['care_instructions', 'rich_text'],
      ['material', 'dropdown'],
      ['release_date', 'date'],
      ['shade', 'swatch'],
    ]);
    expect(stored.find((a) => a.code === 'shade')!.values).toEqual([
      { value: 'signal-red', name: 'Signal red', hex: '#ff0000' },
      { value: 'navy', name: 'Navy', hex: '#000080' },
    ]);
    expect(stored.find((a) => a.code === 'material')).toMatchObject({ filterable: true, public: true, values: [{ value: 'felt', name: 'Felt', hex: null }, { value: 'straw', name: 'Straw', hex: null }] });
    expect(problems).toEqual({ 'attribute-new-swatch': [], attributes: [] });
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('defines a product type with ordered, required attributes; an attribute it uses is not deleted, and says why', async () => {
    await nav(page, 'Product types').click();
    await page.getByRole('heading', { name: 'Product types', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'New product type' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Hats');
    for (const name of ['Material', 'Care instructions', 'Release date']) {
      await page.getByLabel('Add a product attribute').selectOption({ label: `${name} (${name === 'Material' ? 'Single choice (dropdown)' : name === 'Release date' ? 'Date' : 'Rich text'})` });
      await page.getByRole('button', { name: 'Add to product attributes' }).click();
    }
    await page.getByLabel('Add a variant attribute').selectOption({ label: 'Shade (Colour swatch)' });
    await page.getByRole('button', { name: 'Add to variant attributes' }).click();
    await page.getByRole('button', { name: 'Move Release date up' }).click();
    await page.getByRole('checkbox', { name: 'Required Material' }).check();
    await page.getByRole('checkbox', { name: 'Required Release date' }).check();
    await checkScreen(page, 'product-type-new', problems);
    await page.getByRole('button', { name: 'Create product type' }).click();
    await toast(page, 'Created “Hats”.').waitFor();
    await hasText(page.locator('tbody tr').filter({ hasText: 'Hats' }), 'Material (required), Release date (required), Care instructions');
    await checkScreen(page, 'product-types', problems);

    const { productTypes } = await api<{ productTypes: { items: { name: string; productAttributes: { code: string; required: boolean }[]; variantAttributes: { code: string; required: boolean }[] }[] } }>(
      'query($s: ID!) { productTypes(storeId: $s) { items { name productAttributes { code required } variantAttributes { code required } } } }',
    );
    expect(productTypes.items).toEqual([
      {
        name: 'Hats',
        productAttributes: [
          { code: 'material', required: true },
          { code: 'release_date', required: true },
          { code: 'care_instructions', required: false },
        ],
        variantAttributes: [{ code: 'shade', required: false }],
      },
    ]);

    // Deleting an attribute the type uses: the question says so, and the service's refusal names the type.
    await nav(page, 'Attributes').click();
    const material = page.locator('tbody tr').filter({ hasText: 'Material' });
    await material.getByRole('button', { name: 'Delete Material' }).click();
    await hasText(material, '“Hats” still uses it');
    await material.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, '“Material” was not deleted.').waitFor();
    await hasText(page.getByRole('region', { name: 'Notifications' }), 'The product type “Hats” uses it. Remove it from that type first');
    expect((await attributes()).some((a) => a.code === 'material')).toBe(true);
    takeExpectedErrors(watch, 409);
    expect(problems).toMatchObject({ 'product-type-new': [], 'product-types': [] });
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('gives a product the type and its values in the editor: rich text typed, a date picked, a swatch chosen', async () => {
    await page.goto(`${f.t.url}/dashboard/products/${productId}`);
    await page.getByRole('heading', { name: 'Panama Fedora', level: 1 }).waitFor();
    await page.getByLabel('Product type', { exact: true }).selectOption({ label: 'Hats' });
    await page.getByLabel('Material').selectOption({ label: 'Felt' });
    await hasText(page.locator('.attribute-fields'), 'Release date (required)');
    const care = page.getByRole('textbox', { name: 'Care instructions' });
    await care.click();
    await page.keyboard.type('Brush gently ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('against the nap');
    await page.getByText('Unsaved changes').waitFor();

    // The required date left empty: refused, the error at the date's field and in the summary.
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'The product was not saved: one field needs correcting.').waitFor();
    const date = page.getByLabel('Release date');
    expect(await date.getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('.attribute-fields .field-invalid'), 'is required for this product type');
    await hasText(page.locator('.error-summary'), 'Release date');
    expect((await product()).productTypeId).toBeNull();
    takeExpectedErrors(watch, 422);
    await checkScreen(page, 'product-attributes-required', problems);

    await date.fill('2027-03-01');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    const { productTypes } = await api<{ productTypes: { items: { id: string }[] } }>('query($s: ID!) { productTypes(storeId: $s) { items { id } } }');
    const saved = await product();
    expect(saved.productTypeId).toBe(productTypes.items[0]!.id);
    expect(saved.attributes).toEqual({ material: 'felt', release_date: '2027-03-01', care_instructions: '<p>Brush gently <strong>against the nap</strong></p>' });

    // Loaded again, the values are there; a swatch is a variant attribute here, so the product has none.
    await page.reload();
    await page.getByRole('heading', { name: 'Panama Fedora', level: 1 }).waitFor();
    expect(await page.getByLabel('Release date').inputValue()).toBe('2027-03-01');
    await hasText(page.getByRole('textbox', { name: 'Care instructions' }), 'against the nap');
    expect(await page.getByLabel('Material').inputValue()).toBe('felt');
    await hasText(page.locator('#section-attributes').locator('..'), 'Each variant of this type has: Shade.');
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('makes an attribute required with a value for the products without one, picks a swatch, and refuses to remove a value products hold', async () => {
    // Shade becomes a required product attribute of the type: the fedora has none, so the service asks for the
    // value such products get, and the form offers the swatch's chips for it.
    await nav(page, 'Product types').click();
    await page.getByRole('link', { name: 'Hats', exact: true }).click();
    await page.getByRole('button', { name: 'Remove Shade' }).click();
    await page.getByLabel('Add a product attribute').selectOption({ label: 'Shade (Colour swatch)' });
    await page.getByRole('button', { name: 'Add to product attributes' }).click();
    await page.getByRole('checkbox', { name: 'Required Shade' }).check();
    await page.getByRole('button', { name: 'Save product type' }).click();
    await toast(page, 'The product type was not saved.').waitFor();
    await hasText(page.locator('.alert-warning'), '1 product of this type has no value for “Shade”, which you made required.');
    takeExpectedErrors(watch, 409);
    expect((await product()).attributes).not.toHaveProperty('shade');
    await checkScreen(page, 'product-type-values-missing', problems);
    await page.getByRole('radio', { name: 'Navy' }).check();
    await page.getByRole('button', { name: 'Save product type' }).click();
    await toast(page, 'Saved “Hats”.').waitFor();
    expect((await product()).attributes).toMatchObject({ shade: 'navy' });

    // In the editor the chips show it chosen; another is picked and saved.
    await page.goto(`${f.t.url}/dashboard/products/${productId}`);
    await page.getByRole('heading', { name: 'Panama Fedora', level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: 'Navy' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Signal red' }).check();
    expect(await page.locator('.swatch-chosen').innerText()).toContain('Signal red');
    await checkScreen(page, 'product-attributes', problems);
    await page.locator('section[aria-labelledby=section-attributes]').screenshot({ path: path.join(ARTIFACTS_DIR, 'dashboard-product-attributes-section.png') });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    expect((await product()).attributes).toMatchObject({ shade: 'signal-red', material: 'felt' });

    // Felt is held by the fedora: removing it is refused, said at the values.
    await nav(page, 'Attributes').click();
    await page.getByRole('link', { name: 'Material', exact: true }).click();
    await page.getByRole('heading', { name: 'Material', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Remove Felt' }).click();
    await page.getByRole('button', { name: 'Save attribute' }).click();
    await hasText(page.locator('fieldset.field-invalid'), '“Felt” is still set on 1 product: give it another value before removing it.');
    takeExpectedErrors(watch, 409);
    expect((await attributes()).find((a) => a.code === 'material')!.values.map((v) => v.value)).toEqual(['felt', 'straw']);
    await checkScreen(page, 'attribute-edit-refused', problems);
    // The removal is undone in place before saving: nothing is left unsaved.
    await page.getByRole('button', { name: 'Put back Felt' }).click();
    expect(await page.getByLabel('Name of value 1').inputValue()).toBe('Felt');
    await eventually(() => page.getByText('Unsaved changes').count(), (n) => n === 0, 'no unsaved changes after putting the value back');
    await nav(page, 'Attributes').click();
    await page.getByRole('heading', { name: 'Attributes', level: 1 }).waitFor();

    expect(problems).toMatchObject({ 'product-attributes-required': [], 'product-type-values-missing': [], 'product-attributes': [], 'attribute-edit-refused': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('creates a product with its type and values, every problem shown at once; a type products have is not deleted', async () => {
    await nav(page, 'Products').click();
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByRole('heading', { name: 'New product', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Straw Boater');
    await page.getByRole('checkbox', { name: 'Summer hats' }).check();
    await page.getByLabel('Product type', { exact: true }).selectOption({ label: 'Hats' });
    await page.getByLabel('Material').selectOption({ label: 'Straw' });
    await page.getByRole('radio', { name: 'Navy' }).check();
    // No type, then the type again: the values chosen come back (nothing was saved in between).
    await page.getByLabel('Product type', { exact: true }).selectOption({ label: 'No type' });
    expect(await page.getByLabel('Material').count()).toBe(0);
    await page.getByLabel('Product type', { exact: true }).selectOption({ label: 'Hats' });
    expect(await page.getByLabel('Material').inputValue()).toBe('straw');
    // No price and no release date: both are named together.
    await page.getByRole('button', { name: 'Create product' }).click();
    await toast(page, 'The product was not saved: 2 fields need correcting.').waitFor();
    const summary = page.locator('.error-summary');
    await hasText(summary, 'Price (EUR)');
    await hasText(summary, 'Release date');
    expect(await page.getByLabel('Release date').getAttribute('aria-invalid')).toBe('true');
    // An empty price does not fit the operation's Decimal: the request itself is refused (400), naming the field.
    takeExpectedErrors(watch, 400);

    await page.getByLabel('Price (EUR)').fill('35');
    await page.getByLabel('Release date').fill('2027-05-01');
    await page.getByRole('button', { name: 'Create product' }).click();
    await toast(page, 'Created “Straw Boater”.').waitFor();
    await page.getByRole('heading', { name: 'Straw Boater', level: 1 }).waitFor();
    const createdId = new URL(page.url()).pathname.split('/').pop()!;
    const created = await api<{ product: { productType: { name: string } | null; attributes: Record<string, unknown> } }>('query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { productType { name } attributes } }', { id: createdId });
    expect(created.product).toEqual({ productType: { name: 'Hats' }, attributes: { material: 'straw', release_date: '2027-05-01', shade: 'navy' } });

    await nav(page, 'Product types').click();
    const hats = page.locator('tbody tr').filter({ hasText: 'Hats' });
    await hats.getByRole('button', { name: 'Delete Hats' }).click();
    await hats.getByRole('button', { name: 'Delete', exact: true }).click();
    await toast(page, '“Hats” was not deleted.').waitFor();
    await hasText(page.getByRole('region', { name: 'Notifications' }), '2 products (test catalog included) have this type');
    takeExpectedErrors(watch, 409);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('fits the new screens in 390 px', async () => {
    const context = await f.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await context.newPage();
    const phoneWatch = watchPage(phone, f.t.url);
    const phoneProblems: Record<string, string[]> = {};
    await signIn(phone, f);
    await nav(phone, 'Attributes').click();
    await phone.getByRole('link', { name: 'Shade', exact: true }).waitFor();
    await checkPhoneScreen(phone, 'attributes', phoneProblems);
    await phone.getByRole('link', { name: 'Shade', exact: true }).click();
    await phone.getByLabel('Name of value 2').waitFor();
    await checkPhoneScreen(phone, 'attribute-edit', phoneProblems);
    await nav(phone, 'Product types').click();
    await phone.getByRole('link', { name: 'Hats', exact: true }).click();
    await phone.getByRole('checkbox', { name: 'Required Material' }).waitFor();
    await checkPhoneScreen(phone, 'product-type-edit', phoneProblems);
    await nav(phone, 'Product types').click();
    await phone.getByRole('heading', { name: 'Product types', level: 1 }).waitFor();
    await checkPhoneScreen(phone, 'product-types', phoneProblems);
    await phone.goto(`${f.t.url}/dashboard/products/${productId}`);
    await phone.getByRole('textbox', { name: 'Care instructions' }).waitFor();
    await checkPhoneScreen(phone, 'product-edit-attributes', phoneProblems);
    expect(phoneProblems).toEqual(Object.fromEntries(Object.keys(phoneProblems).map((k) => [k, []])));
    expect(phoneWatch.external()).toEqual([]);
    expect(phoneWatch.errors).toEqual([]);
    await context.close();
  }, 90_000);
});
