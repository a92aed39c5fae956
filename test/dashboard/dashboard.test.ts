import type { Browser } from 'playwright-core';
import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import { addMember, createStore, createUser, listMembers } from '../../src/access/services/stores';
import { describeInBrowser, launchBrowser, watchPage } from '../helpers/browser';
import { testContext } from '../helpers/context';
import { checkScreen, count, dropFile, ensureDashboardBuilt, eventually, hasText, nav, pngBytes, takeExpectedErrors } from '../helpers/dashboard';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * The merchant dashboard (/dashboard) in headless Chromium against the real service: sign in, create a product
 * with an image, edit it (and meet a version conflict), publish it, see it in its history, switch to test mode,
 * create an API key and use it, look at webhooks, add a second user to the team (and change and remove them), sign out;
 * and the Team screen of a staff member, who sees only their own role and permissions. Every screen is checked with axe-core
 * (no serious or critical violation) and saved as a screenshot in test-artifacts/; no request may leave the
 * service's origin and the page may log no error (Chromium reports Content-Security-Policy violations there).
 */

describeInBrowser('the merchant dashboard in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  const email = `merchant-${Date.now().toString(36)}@example.test`;
  const password = 'a long dashboard password';
  const staffEmail = `staff-${Date.now().toString(36)}@example.test`;
  let storeId: string;
  let userId: string;
  let staffId: string;

  beforeAll(async () => {
    ensureDashboardBuilt();
    t = await startTestServer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const user = await createUser(testContext(), { email, name: 'Mira Merchant', password });
    userId = user.id;
    const store = await createStore(testContext(), { name: 'Mira’s Hats', currency: 'EUR', ownerId: user.id });
    storeId = store.id;
    // A second account, not yet in the store: the owner adds it on the Team screen.
    staffId = (await createUser(testContext(), { email: staffEmail, name: 'Sam Staff', password })).id;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in, manages a product with an image through its history, uses test mode and an API key, manages the team, and signs out', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const watch = watchPage(page, t.url);
    const problems: Record<string, string[]> = {};

    // Sign-in page; a wrong password is explained.
    // The address the README and npm start give: no trailing slash.
    const response = await page.goto(`${t.url}/dashboard`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByRole('heading', { name: 'Sign in to your store' }).waitFor();
    await checkScreen(page, 'sign-in', problems);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is not right.' }).waitFor();
    expect(takeExpectedErrors(watch, 401).length).toBeGreaterThan(0);
    await checkScreen(page, 'sign-in-error', problems);

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await page.getByText('No products yet.').waitFor();
    await hasText(page.getByRole('banner'), 'Mira Merchant');
    await checkScreen(page, 'products-empty', problems);

    // A category first: a product needs one.
    await nav(page, 'Categories').click();
    await page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
    const newCategory = page.getByRole('form', { name: 'New category' });
    await newCategory.getByLabel('Name').fill('Winter hats');
    expect(await newCategory.getByLabel('Slug').inputValue()).toBe('winter-hats');
    await newCategory.getByRole('button', { name: 'Add category' }).click();
    await page.getByText('Added “Winter hats”.').waitFor();
    await checkScreen(page, 'categories', problems);

    // Create a product with a variant and a search listing.
    await nav(page, 'Products').click();
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByRole('heading', { name: 'New product' }).waitFor();
    // One submit with three mistakes (no name, a negative price, a fraction of a hat) marks all three fields at
    // once, each with the service's words: the type error does not hide the other two.
    await page.getByLabel('Price (EUR)').fill('-1');
    await page.getByLabel('Inventory', { exact: true }).fill('1.5');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByText('The product was not saved: correct the fields marked below.').waitFor();
    // The summary names each field; a toast says so where the eye is.
    const summary = page.locator('.error-summary');
    for (const line of ['Name: must not be empty', 'Price (EUR): must be a number', 'Inventory: must be an integer']) await hasText(summary, line);
    await page.getByRole('region', { name: 'Notifications' }).getByText('The product was not saved: 3 fields need correcting.').waitFor();
    for (const [label, message] of [
      ['Name', 'must not be empty'],
      ['Price (EUR)', 'must be a number >= 0 with at most 2 decimals'],
      ['Inventory', 'must be an integer'],
    ]) {
      const input = page.getByLabel(label, { exact: true });
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      await hasText(page.locator('.field').filter({ has: input }).locator('.field-error'), message);
    }
    await count(page.locator('.field-error'), (n) => n === 3, 'field errors of the submit');
    takeExpectedErrors(watch, 400);
    await page.getByLabel('Name', { exact: true }).fill('Alpine Beanie');
    // A generated description replaces the merchant's own text only with a way back, and names no internal model.
    await page.getByLabel('Description', { exact: true }).fill('My own words about it.');
    await page.getByRole('button', { name: 'Generate description' }).click();
    await eventually(() => page.getByLabel('Description', { exact: true }).inputValue(), (v) => v.includes('Alpine Beanie'), 'generated description');
    expect(await page.locator('main').innerText()).not.toMatch(/local-templates|\(.*-v\d\)/);
    await page.getByRole('button', { name: 'Undo: restore my description' }).click();
    expect(await page.getByLabel('Description', { exact: true }).inputValue()).toBe('My own words about it.');
    await page.getByLabel('Description', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Generate description' }).click();
    await eventually(() => page.getByLabel('Description', { exact: true }).inputValue(), (v) => v.includes('Alpine Beanie'), 'generated description');
    await page.getByLabel('Price (EUR)').fill('19.90');
    await page.getByLabel('Inventory', { exact: true }).fill('12');
    await page.getByRole('checkbox', { name: 'Winter hats' }).check();
    await page.getByLabel('Tags').fill('wool, winter');
    await page.getByRole('button', { name: 'Add option' }).click();
    await page.getByLabel('Name of option 1').fill('Color');
    await page.getByLabel('Add a value to Color').fill('Red');
    await page.getByLabel('Add a value to Color').press('Enter');
    await page.getByLabel('SKU of variant Red', { exact: true }).fill('ALP-RED');
    await page.getByLabel('Inventory of variant Red', { exact: true }).fill('5');
    await page.getByLabel('Page title').fill('Alpine Beanie in merino wool');
    await page.getByLabel('URL slug').fill('alpine-beanie');
    await hasText(page.locator('.serp-title'), 'Alpine Beanie in merino wool');
    await checkScreen(page, 'product-new', problems);
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.getByText('Created “Alpine Beanie”.').waitFor();
    await page.getByRole('heading', { name: 'Alpine Beanie', level: 1 }).waitFor();
    const productId = new URL(page.url()).pathname.split('/').pop()!;
    expect(await page.getByLabel('SKU of variant Red', { exact: true }).inputValue()).toBe('ALP-RED');
    expect(await page.getByLabel('URL slug').inputValue()).toBe('alpine-beanie');

    // Images: a file that is no image is refused with the service's reason; a PNG dropped on the zone is added.
    await dropFile(page, '[data-testid=image-dropzone]', { name: 'notes.png', type: 'image/png', bytes: Buffer.from('just text') });
    await page.getByRole('alert').filter({ hasText: 'notes.png' }).waitFor();
    // The refused file's reason is in words, without the service's code.
    expect(await page.getByRole('alert').filter({ hasText: 'notes.png' }).innerText()).not.toContain('unsupported_media_type');
    takeExpectedErrors(watch, 415);
    await dropFile(page, '[data-testid=image-dropzone]', { name: 'red.png', type: 'image/png', bytes: await pngBytes() });
    await page.getByText('Uploaded red.png.').waitFor();
    const image = page.getByRole('img', { name: 'Image 1 of Alpine Beanie' });
    await image.waitFor();
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);

    // A second image, moved before the first and given an alt text: saved as a new product version.
    await dropFile(page, '[data-testid=image-dropzone]', { name: 'blue.png', type: 'image/png', bytes: await pngBytes({ r: 40, g: 40, b: 200 }) });
    await page.getByText('Uploaded blue.png.').waitFor();
    await page.getByRole('img', { name: 'Image 2 of Alpine Beanie' }).waitFor();
    const saveArrangement = page.getByRole('button', { name: 'Save image order and alt text' });
    expect(await saveArrangement.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Move image 1 up' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Move image 2 down' }).isDisabled()).toBe(true);
    const { token: reader } = await issueDashboardToken(testContext(), userId);
    const readImages = async () => {
      const res = await t.graphql('query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { version images { id alt position } } }', { s: storeId, id: productId }, { token: reader });
      expect(res.body.errors).toBeUndefined();
      const product = (res.body.data as { product: { version: number; images: { id: string; alt: string | null; position: number }[] } }).product;
      return { version: product.version, images: [...product.images].sort((a, b) => a.position - b.position) };
    };
    const uploaded = await readImages();
    expect(uploaded.images).toHaveLength(2);
    const [redId, blueId] = uploaded.images.map((i) => i.id);
    await page.getByRole('button', { name: 'Move image 2 up' }).click();
    expect(await page.getByRole('button', { name: 'Move image 1 up' }).isDisabled()).toBe(true);
    await page.getByLabel('Alt text of image 1').fill('Blue beanie, folded');
    expect(await saveArrangement.isEnabled()).toBe(true);
    await checkScreen(page, 'product-edit', problems);
    await saveArrangement.click();
    await page.getByText('Saved the image order and alt text.').waitFor();
    await page.getByRole('img', { name: 'Blue beanie, folded' }).waitFor();
    await eventually(() => saveArrangement.isDisabled(), (disabled) => disabled, 'save image order button disabled after saving');
    const arranged = await readImages();
    expect(arranged.images.map((i) => [i.id, i.alt, i.position])).toEqual([
      [blueId, 'Blue beanie, folded', 0],
      [redId, null, 1],
    ]);
    expect(arranged.version).toBe(uploaded.version + 1);
    await hasText(page.locator('.breadcrumb'), `version ${arranged.version}`);

    // Edit and save.
    await page.getByLabel('Price (EUR)').fill('21.50');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();

    // Someone else saves meanwhile: saving is refused with an explanation and a Reload button.
    const { token } = await issueDashboardToken(testContext(), userId);
    const other = await t.graphql('mutation($s: ID!, $id: ID!) { updateProduct(storeId: $s, id: $id, input: {inventoryQuantity: 30}) { version } }', { s: storeId, id: productId }, { token });
    expect(other.body.errors).toBeUndefined();
    await page.getByLabel('Name', { exact: true }).fill('Alpine Beanie (merino)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('This product changed since you opened it.').waitFor();
    await checkScreen(page, 'product-conflict', problems);
    await page.getByRole('button', { name: 'Reload', exact: true }).click();
    await page.getByText('Reloaded the latest version of the product.').waitFor();
    expect(await page.getByLabel('Inventory', { exact: true }).inputValue()).toBe('30');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Alpine Beanie');

    // Publish.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published: the product is active.').waitFor();
    await page.getByRole('button', { name: 'Unpublish', exact: true }).waitFor();

    // Its history shows what happened, newest first.
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History of Alpine Beanie' }).waitFor();
    const timeline = page.locator('.timeline-item');
    await count(timeline, (n) => n >= 6, 'history entries');
    await hasText(timeline.first(), 'Published');
    // Changes in words: the field's name, not its code; times in the browser's locale, all within the page.
    const priceChange = timeline.filter({ hasText: 'Updated' }).filter({ has: page.locator('dt', { hasText: /^Price$/ }) });
    await hasText(priceChange, '21.5');
    const historyText = await page.locator('.timeline').innerText();
    expect(historyText).not.toMatch(/is_active|inventory_quantity|\d{4}-\d{2}-\d{2}T\d{2}/);
    await page.locator('.change-thumbs img').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await count(timeline.filter({ hasText: 'Image added' }), (n) => n === 2, 'image added entries');
    await hasText(timeline.last(), 'Created');
    await checkScreen(page, 'product-history', problems);

    // The list shows it active; bulk unpublish and publish again.
    await nav(page, 'Products').click();
    const row = page.getByRole('row').filter({ hasText: 'Alpine Beanie' });
    await hasText(row, 'Active');
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Unpublish selected' }).click();
    await page.getByText('Unpublished 1 of 1 product.', { exact: true }).waitFor();
    await hasText(row, 'Draft');
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await page.getByText('Published 1 of 1 product.', { exact: true }).waitFor();
    await hasText(row, 'Active');
    await page.getByLabel('Search').fill('alpine');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.waitForURL(/q=alpine/);
    await count(page.getByRole('row'), (n) => n === 2, 'rows (header and one product)');
    await checkScreen(page, 'products', problems);

    // Test mode: a banner, and the test catalog is empty.
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByText('Test mode', { exact: true }).first().waitFor();
    await hasText(page.getByRole('banner'), 'you are working on the test data');
    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('The test catalog is empty.').waitFor();
    await checkScreen(page, 'products-test-mode', problems);
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await hasText(page.getByRole('banner'), 'you are working on the test data', true);
    await page.getByRole('link', { name: 'Alpine Beanie' }).waitFor();

    // An API key: created, shown once, and it works on the public API.
    await nav(page, 'API keys').click();
    await page.getByText('No live API keys yet.').waitFor();
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ERP sync');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByRole('textbox', { name: 'New API key “ERP sync”' });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^svc_live_sk_/);
    await page.getByRole('row').filter({ hasText: 'ERP sync' }).waitFor();
    await checkScreen(page, 'api-keys', problems);
    const publicList = await fetch(`${t.url}/api/public/v1/products`, { headers: { authorization: `Bearer ${secret}` } });
    expect(publicList.status).toBe(200);
    const listed = (await publicList.json()) as { data: { id: string; name: string; status: string }[] };
    expect(listed.data.map((p) => [p.id, p.name, p.status])).toEqual([[productId, 'Alpine Beanie', 'active']]);
    await page.getByRole('button', { name: 'I have stored it safely' }).click();
    await count(page.getByRole('textbox', { name: 'New API key “ERP sync”' }), (n) => n === 0, 'secret boxes');

    // Signing in again elsewhere in this browser replaces the session, so the page's CSRF token goes stale: the
    // dashboard reads the new one and retries, and the revocation goes through.
    const renewed = await page.evaluate(
      async ([e, p]) => {
        const res = await fetch('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }', variables: { e, p } }),
        });
        return res.status;
      },
      [email, password],
    );
    expect(renewed).toBe(200);
    const keyRow = page.getByRole('row').filter({ hasText: 'ERP sync' });
    await keyRow.getByRole('button', { name: 'Revoke ERP sync' }).click();
    await keyRow.getByRole('button', { name: 'Revoke now' }).click();
    await page.getByText('Revoked “ERP sync”.').waitFor();
    await hasText(keyRow, 'Revoked');
    expect((await fetch(`${t.url}/api/public/v1/products`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);

    // Webhooks: an endpoint, a ping in its delivery log.
    await nav(page, 'Webhooks').click();
    await page.getByText('No live webhook endpoints yet.').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hooks');
    await page.getByRole('button', { name: 'Add endpoint' }).last().click();
    await page.getByRole('textbox', { name: 'Signing secret of the new endpoint' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Signing secret of the new endpoint' }).inputValue()).toMatch(/^whsec_/);
    await checkScreen(page, 'webhooks', problems);
    await page.getByRole('link', { name: 'http://127.0.0.1:9/hooks' }).click();
    await page.getByRole('heading', { name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Send a ping' }).click();
    await page.getByText('Ping queued').waitFor();
    await page.getByRole('cell', { name: /ping/ }).first().waitFor();
    await checkScreen(page, 'webhook-endpoint', problems);

    // Team: the owner alone at first; an unknown email is explained; the second user is added, their permissions
    // changed, and they are removed.
    await nav(page, 'Team').click();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const members = page.getByRole('list', { name: 'Members of Mira’s Hats' });
    await count(members.getByRole('listitem'), (n) => n === 1, 'members (the owner)');
    await hasText(members, 'Mira Merchant (you)');
    await page.getByText('No staff members yet.').waitFor();
    const addMember = page.getByRole('form', { name: 'Add a member' });
    await addMember.getByLabel('Email').fill('nobody@example.test');
    await addMember.getByRole('button', { name: 'Add member' }).click();
    await addMember.getByText('No one has an account with this email yet: invite them with a link instead (below).').waitFor();
    expect(await page.locator('main').innerText()).not.toContain('npm run');
    expect(await addMember.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await addMember.getByLabel('Email').fill(staffEmail);
    await addMember.getByRole('checkbox', { name: 'Products and categories', exact: true }).check();
    await addMember.getByRole('button', { name: 'Add member' }).click();
    await page.getByText(`Added Sam Staff (${staffEmail}) with Products and categories.`).waitFor();
    const staffMember = members.getByRole('listitem').filter({ hasText: staffEmail });
    await staffMember.waitFor();
    await count(members.getByRole('listitem'), (n) => n === 2, 'members (owner and staff)');
    expect(await addMember.getByLabel('Email').inputValue()).toBe('');
    const staffPermissions = staffMember.getByRole('group', { name: 'Permissions of Sam Staff' });
    expect(await staffPermissions.getByRole('checkbox', { name: 'Products and categories', exact: true }).isChecked()).toBe(true);
    expect(await staffPermissions.getByRole('checkbox', { name: 'Webhooks', exact: true }).isChecked()).toBe(false);
    await checkScreen(page, 'team', problems);
    await staffPermissions.getByRole('checkbox', { name: 'Products and categories', exact: true }).uncheck();
    await staffPermissions.getByRole('checkbox', { name: 'Webhooks', exact: true }).check();
    await staffPermissions.getByRole('checkbox', { name: 'Change history', exact: true }).check();
    await staffMember.getByRole('button', { name: 'Save the permissions of Sam Staff' }).click();
    await hasText(staffMember, 'Saved: Sam Staff now has Change history, Webhooks.');
    const saved = await listMembers(testContext(), storeId);
    expect(saved.map((m) => [m.user.email, m.role, m.permissions])).toEqual([
      [email, 'owner', expect.any(Array)],
      [staffEmail, 'staff', ['view_changes', 'manage_webhooks']],
    ]);
    await staffMember.getByRole('button', { name: 'Remove Sam Staff' }).click();
    await staffMember.getByRole('button', { name: 'Remove now' }).click();
    await page.getByText(`Removed Sam Staff (${staffEmail}) from Mira’s Hats.`).waitFor();
    await count(members.getByRole('listitem'), (n) => n === 1, 'members after the removal');
    expect((await listMembers(testContext(), storeId)).map((m) => m.user.email)).toEqual([email]);

    // Activity (the store's whole history).
    await nav(page, 'Activity').click();
    await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
    await page.locator('.timeline-item').first().waitFor();
    await checkScreen(page, 'activity', problems);

    // Sign out: back to the sign-in page, also after a reload (the cookie is gone).
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to your store' }).waitFor();

    expect(problems).toEqual(Object.fromEntries(Object.keys(problems).map((k) => [k, []])));
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(watch.requests.some((u) => u.startsWith(`${t.url}/dashboard/assets/`))).toBe(true);
    await page.close();
  }, 90_000);

  it("shows a staff member their own role and permissions, and not the store's team", async () => {
    await addMember(testContext(), { storeId, userId: staffId, permissions: ['view_changes'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const watch = watchPage(page, t.url);
    const problems: Record<string, string[]> = {};
    const operations: string[] = [];
    page.on('request', (r) => {
      const body = r.postData() ?? '';
      const name = /(?:query|mutation)\s+(\w+)/.exec(body)?.[1];
      if (name) operations.push(name);
    });

    await page.goto(`${t.url}/dashboard/`);
    await page.getByLabel('Email').fill(staffEmail);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await hasText(page.getByRole('banner'), 'Sam Staff');
    expect(await nav(page, 'Products').count()).toBe(0);
    await nav(page, 'Team').click();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const you = page.getByRole('region', { name: 'You in Mira’s Hats' });
    await hasText(you, 'Staff');
    const permission = (label: string) => you.getByRole('listitem').filter({ hasText: label });
    await hasText(permission('Change history'), '(granted)');
    await hasText(permission('Webhooks'), '(not granted)');
    await page.getByText("Only the store's owner sees and manages the team").waitFor();
    expect(await page.getByRole('form', { name: 'Add a member' }).count()).toBe(0);
    await checkScreen(page, 'team-staff', problems);
    expect(operations).not.toContain('StoreMembers');

    expect(problems).toEqual({ 'team-staff': [] });
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
    await context.close();
  }, 30_000);
});

