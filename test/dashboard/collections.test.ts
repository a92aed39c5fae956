import type { Page } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { createCategory } from '../../src/catalog/services/categories';
import { COLLECTION_RECOMPUTE, runDueCollectionRecomputes } from '../../src/catalog/services/collectionMembership';
import { createProduct } from '../../src/catalog/services/productCreate';
import { db } from '../../src/platform/db/client';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkPhoneScreen, checkScreen, count, eventually, hasText, nav, signIn, startDashboard, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * The collections screens (issue 30, item 4): a manual collection made, filled from the product search, arranged by
 * dragging (one move call per drag) and from the keyboard, a removal undone; a smart collection whose live match
 * count follows each rule edit and equals the saved collection's products count; errors at the rule's field; the
 * list; a job's recompute progress; deleting; every screen checked with axe and at 390 px.
 */

describeInBrowser('collections in headless Chromium', () => {
  let f: DashboardFixture;
  let page: Page;
  let token: string;
  const ids: Record<string, string> = {};

  const api = async <T,>(query: string, variables: Record<string, unknown> = {}): Promise<T> => {
    const res = await f.t.graphql(query, { s: f.storeId, ...variables }, { token });
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
    return res.body.data as T;
  };
  const collectionBySlug = (slug: string) =>
    api<{ collection: { id: string; title: string; published: boolean; productsCount: number; description: string } }>(
      'query($s: ID!, $c: String!) { collection(storeId: $s, collection: $c) { id title published productsCount description } }',
      { c: slug },
    ).then((d) => d.collection);
  const memberNames = async (slug: string) => {
    const d = await api<{ collectionProducts: { items: { name: string }[] } }>('query($s: ID!, $c: String!) { collectionProducts(storeId: $s, collection: $c, perPage: 100) { items { name } } }', { c: slug });
    return d.collectionProducts.items.map((p) => p.name);
  };
  const shownMembers = () => page.getByTestId('member').locator('.member-name a').allInnerTexts();

  beforeAll(async () => {
    f = await startDashboard('collections');
    const ctx = testContext();
    await createCategory(ctx, { storeId: f.storeId, name: 'Hats', slug: 'hats' });
    for (const [name, price, tags] of [
      ['Alpine Beanie', '19.90', ['winter']],
      ['Bobble Hat', '25.00', ['winter']],
      ['Cloche', '45.00', ['summer']],
      ['Derby', '80.00', []],
      ['Fedora', '55.00', ['summer']],
    ] as const) {
      ids[name] = (await createProduct(ctx, f.storeId, { name, price, categorySlugs: ['hats'], tags: [...tags], inventoryQuantity: 5 })).id;
    }
    token = (await issueDashboardToken(ctx, f.userId)).token;
    page = await f.browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 120_000);

  afterAll(() => f?.close());

  it('makes a manual collection, adds products from the search, drags one to a new place and keeps the order', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const moveCalls: { moves: unknown[] }[] = [];
    page.on('request', (r) => {
      const body = r.postData();
      if (r.url().endsWith('/graphql') && body?.includes('MoveCollectionProducts')) moveCalls.push((JSON.parse(body) as { variables: { moves: unknown[] } }).variables);
    });
    await signIn(page, f);
    await nav(page, 'Collections').click();
    await page.getByRole('heading', { name: 'Collections', level: 1 }).waitFor();
    await page.getByText('No collections yet.').waitFor();
    await page.getByRole('link', { name: 'New collection' }).click();
    await page.getByRole('heading', { name: 'New collection', level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: /^Manual/ }).isChecked()).toBe(true);
    await page.getByLabel('Title').fill('Front page');
    expect(await page.getByLabel('Web address').inputValue()).toBe('front-page');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await toast(page, 'Created “Front page”.').waitFor();
    await page.getByRole('heading', { name: 'Front page', level: 1 }).waitFor();

    // Added from the search, each at the end.
    for (const [search, name] of [
      ['beanie', 'Alpine Beanie'],
      ['bobble', 'Bobble Hat'],
      ['cloche', 'Cloche'],
    ] as const) {
      await page.getByRole('searchbox', { name: 'Add products' }).fill(search);
      await page.getByRole('button', { name: `Add ${name}` }).click();
      await toast(page, `Added “${name}”.`).waitFor();
      await page.getByRole('search', { name: 'Product search' }).getByText('In the collection').waitFor();
    }
    await count(page.getByTestId('member'), (n) => n === 3, 'members shown');
    expect(await memberNames('front-page')).toEqual(['Alpine Beanie', 'Bobble Hat', 'Cloche']);
    await checkScreen(page, 'collection-manual', problems);

    // Dragged: Cloche to the top, one move call naming it and its new position.
    const members = page.getByTestId('member');
    await members.nth(2).dragTo(members.nth(0));
    await hasText(page.locator('.manual-products [role=status]').last(), '“Cloche” moved to position 1 of 3.');
    expect(await shownMembers()).toEqual(['Cloche', 'Alpine Beanie', 'Bobble Hat']);
    await eventually(() => memberNames('front-page'), (names) => names.join() === 'Cloche,Alpine Beanie,Bobble Hat', 'order after dragging');
    expect(moveCalls).toEqual([expect.objectContaining({ moves: [{ productId: ids.Cloche, position: 0 }] })]);

    // From the keyboard: the Move down button, and the focus stays with the moved product.
    await page.getByRole('button', { name: 'Move Alpine Beanie down' }).focus();
    await page.keyboard.press('Enter');
    await hasText(page.locator('.manual-products [role=status]').last(), '“Alpine Beanie” moved to position 3 of 3.');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Move Alpine Beanie up');
    await eventually(() => memberNames('front-page'), (names) => names.join() === 'Cloche,Bobble Hat,Alpine Beanie', 'order after the keyboard move');
    expect(moveCalls).toHaveLength(2);
    const moved = await db().event.count({ where: { storeId: f.storeId, type: 'collection.products_moved' } });
    expect(moved).toBe(2);

    // After a reload the page shows the order the service keeps.
    await page.reload();
    await page.getByRole('heading', { name: 'Front page', level: 1 }).waitFor();
    await count(page.getByTestId('member'), (n) => n === 3, 'members after reload');
    expect(await shownMembers()).toEqual(['Cloche', 'Bobble Hat', 'Alpine Beanie']);

    // A removal can be undone: the product comes back in its place.
    await page.getByRole('button', { name: 'Remove Bobble Hat' }).click();
    await toast(page, 'Removed “Bobble Hat” from the collection.').waitFor();
    expect(await memberNames('front-page')).toEqual(['Cloche', 'Alpine Beanie']);
    await page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Undo' }).click();
    await toast(page, '“Bobble Hat” is back in the collection.').waitFor();
    await eventually(() => memberNames('front-page'), (names) => names.join() === 'Cloche,Bobble Hat,Alpine Beanie', 'order after undo');
    await eventually(shownMembers, (names) => names.join() === 'Cloche,Bobble Hat,Alpine Beanie', 'shown order after undo');

    // Title, description and publishing, saved with the version read.
    await page.getByLabel('Title').fill('Front page picks');
    await page.getByLabel('Description').fill('What we like this week.');
    await page.getByLabel('Show on the storefront').check();
    await page.getByText('Unsaved changes').waitFor();
    // Leaving with unsaved edits asks first; staying keeps them.
    const dialogs: string[] = [];
    page.once('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await nav(page, 'Products').click();
    expect(dialogs).toEqual(['You have unsaved changes. Leave this page and lose them?']);
    expect(await page.getByLabel('Title').inputValue()).toBe('Front page picks');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Saved.').waitFor();
    expect(await collectionBySlug('front-page')).toMatchObject({ title: 'Front page picks', published: true, description: 'What we like this week.', productsCount: 3 });

    // The list: title, type, count, storefront state.
    await page.getByRole('link', { name: '← All collections' }).click();
    await page.getByRole('heading', { name: 'Collections', level: 1 }).waitFor();
    const row = page.getByRole('row', { name: /Front page picks/ });
    await hasText(row, 'Manual');
    expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/Front page picks front-page Manual 3 Published/);
    await checkScreen(page, 'collections', problems);

    expect(problems).toEqual({ 'collection-manual': [], collections: [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
  }, 90_000);

  it('builds a smart collection with a live match count that saving confirms, errors at the rule, and deletes it', async () => {
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    const matchCount = page.getByTestId('match-count');
    await nav(page, 'Collections').click();
    await page.getByRole('link', { name: 'New collection' }).click();
    await page.getByRole('radio', { name: /^Smart/ }).check();
    await page.getByLabel('Title').fill('Cheap or summer');
    await page.getByLabel('Rule 1 looks at').selectOption({ label: 'Price' });
    await page.getByLabel('Condition of rule 1').selectOption({ label: 'is less than' });
    await hasText(matchCount, 'Fill in every rule');
    await page.getByLabel('Amount (EUR) of rule 1').fill('50');
    await hasText(matchCount, '3 products match');
    await hasText(page.locator('.member-preview'), 'Cloche');
    await page.getByLabel('Amount (EUR) of rule 1').fill('30');
    await hasText(matchCount, '2 products match');
    expect(await page.locator('.member-preview li').allInnerTexts()).toEqual([expect.stringContaining('Bobble Hat'), expect.stringContaining('Alpine Beanie')]);

    await page.getByRole('button', { name: 'Add rule' }).click();
    await hasText(matchCount, 'Fill in every rule');
    await page.getByLabel('Tag of rule 2').fill('summer');
    await hasText(matchCount, 'No products match');
    await page.getByRole('radio', { name: 'any rule' }).check();
    await hasText(matchCount, '4 products match');

    // A value the service refuses: said at its field, in words, while editing and when saving.
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Rule 3 looks at').selectOption({ label: 'Inventory' });
    await page.getByLabel('Value of rule 3').fill('1.5');
    await hasText(matchCount, 'Correct the rules marked');
    const inventory = page.getByLabel('Value of rule 3');
    await eventually(() => inventory.getAttribute('aria-invalid'), (v) => v === 'true', 'rule 3 marked');
    await hasText(page.locator('[data-testid=rule]').nth(2), 'Enter a whole number.');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await toast(page, 'The collection was not saved: one field needs correcting.').waitFor();
    await hasText(page.locator('.error-summary'), 'Rule 3, value: Enter a whole number.');
    expect(await db().collection.count({ where: { storeId: f.storeId, kind: 'smart' } })).toBe(0);
    await checkScreen(page, 'collection-smart-error', problems);
    await page.getByRole('button', { name: 'Remove rule 3' }).click();
    await hasText(matchCount, '4 products match');
    // The refused value's marks went with its rule.
    expect(await page.locator('.error-summary, [aria-invalid=true]').count()).toBe(0);

    await page.getByRole('button', { name: 'Create collection' }).click();
    await toast(page, 'Created “Cheap or summer”.').waitFor();
    expect(await toast(page, 'The collection was not saved').count()).toBe(0);
    await page.getByRole('heading', { name: 'Cheap or summer', level: 1 }).waitFor();
    expect((await collectionBySlug('cheap-or-summer')).productsCount).toBe(4);
    await hasText(matchCount, '4 products match');

    // A saved collection's rule edited: the count moves, and saving gives the same number.
    await page.getByLabel('Amount (EUR) of rule 1').fill('20');
    await hasText(matchCount, '3 products match');
    // The first page's "Saved." may still be shown: this save's is one more.
    const savedBefore = await toast(page, 'Saved.').count();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await eventually(() => toast(page, 'Saved.').count(), (n) => n > savedBefore, 'a new “Saved.” notice', 30_000);
    expect((await collectionBySlug('cheap-or-summer')).productsCount).toBe(3);
    expect((await memberNames('cheap-or-summer')).sort()).toEqual(['Alpine Beanie', 'Cloche', 'Fedora']);
    await checkScreen(page, 'collection-smart', problems);

    // In a catalog larger than the in-request limit a rule change is applied by a job: its progress shows, then the end.
    const limit = COLLECTION_RECOMPUTE.inTransaction;
    COLLECTION_RECOMPUTE.inTransaction = 2;
    try {
      await page.getByLabel('Amount (EUR) of rule 1').fill('30');
      await hasText(matchCount, '4 products match');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await toast(page, 'Saved. The products are being brought up to date with the new rules.').waitFor();
      const progress = page.locator('.membership-progress');
      await hasText(progress, '0 of 5 products checked');
      expect(await progress.getByRole('progressbar', { name: 'Products checked' }).getAttribute('value')).toBe('0');
      expect(await runDueCollectionRecomputes(testContext())).toBeGreaterThan(0);
      await toast(page, 'The collection is up to date: 4 products.').waitFor();
      expect(await progress.count()).toBe(0);
      expect((await collectionBySlug('cheap-or-summer')).productsCount).toBe(4);
    } finally {
      COLLECTION_RECOMPUTE.inTransaction = limit;
    }

    // Deleting asks first, then ends on the list with a notice.
    await page.getByRole('button', { name: 'Delete collection' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await toast(page, 'Deleted “Cheap or summer”. Its products were not changed.').waitFor();
    await page.getByRole('heading', { name: 'Collections', level: 1 }).waitFor();
    expect(await db().collection.count({ where: { storeId: f.storeId, slug: 'cheap-or-summer' } })).toBe(0);
    expect(await page.getByRole('row', { name: /Cheap or summer/ }).count()).toBe(0);

    expect(problems).toEqual({ 'collection-smart-error': [], 'collection-smart': [] });
    expect(watch.external()).toEqual([]);
    // The refused create was answered with a 422 status.
    expect(watch.errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  }, 90_000);

  it('fits the collection screens in 390 px', async () => {
    const context = await f.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await context.newPage();
    const watch = watchPage(phone, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(phone, f);
    await nav(phone, 'Collections').click();
    await phone.getByRole('link', { name: 'Front page picks' }).waitFor();
    await checkPhoneScreen(phone, 'collections', problems);
    await phone.getByRole('link', { name: 'Front page picks' }).click();
    await count(phone.getByTestId('member'), (n) => n === 3, 'members on the phone');
    await phone.getByRole('searchbox', { name: 'Add products' }).fill('hat');
    await phone.getByText('In the collection').waitFor();
    await checkPhoneScreen(phone, 'collection-manual', problems);
    await phone.goto(`${f.t.url}/dashboard/collections/new?kind=smart`);
    await phone.getByLabel('Rule 1 looks at').selectOption({ label: 'Attribute' });
    await phone.getByRole('button', { name: 'Add rule' }).click();
    await phone.getByLabel('Rule 2 looks at').selectOption({ label: 'Date created' });
    await checkPhoneScreen(phone, 'collection-smart', problems);
    expect(problems).toEqual({ collections: [], 'collection-manual': [], 'collection-smart': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
    await context.close();
  }, 60_000);
});
