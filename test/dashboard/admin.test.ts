import { readFile } from 'node:fs/promises';
import type { Download, Page } from 'playwright-core';
import { db } from '../../src/platform/db/client';
import { describeInBrowser, watchPage } from '../helpers/browser';
import { checkPhoneScreen, checkScreen, eventually, hasText, nav, signIn, startDashboard, takeExpectedErrors, toast, type DashboardFixture } from '../helpers/dashboard';

/**
 * The store's administration screens in headless Chromium against the real service (its worker running, as
 * `npm start` runs it): import a product file with one bad row (progress, the problem in words, the error report
 * downloaded and read), export with the list's filters, register an OAuth app (the secret once, rotate, suspend),
 * invite someone by link and accept it in a fresh browser as a new account that then signs in. Every screen:
 * axe (no serious or critical problem) and, at 390 px, nothing scrolls sideways.
 */

/** Clicks what starts a download and returns the file's name and text. */
async function downloaded(page: Page, start: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download') as Promise<Download>, start()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path!, 'utf8') };
}

describeInBrowser('import and export, OAuth apps and invitations in the dashboard', () => {
  let f: DashboardFixture;
  let stopJobs: () => Promise<void>;

  beforeAll(async () => {
    f = await startDashboard('admin', { WORKER_POLL_MS: '100' });
    await db().category.create({ data: { storeId: f.storeId, slug: 'hats', name: 'Hats' } });
    stopJobs = f.t.app.startJobs();
  }, 120_000);

  afterAll(async () => {
    await stopJobs?.();
    await f?.close();
  });

  it('imports a file with a bad row, downloads its error report, exports filtered products, manages an OAuth app and invites a new member', async () => {
    const context = await f.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const watch = watchPage(page, f.t.url);
    const problems: Record<string, string[]> = {};
    await signIn(page, f);

    // --- Import -----------------------------------------------------------------------------------------
    await page.getByRole('link', { name: 'Import or export' }).click();
    await page.getByRole('heading', { name: 'Import and export', level: 1 }).waitFor();
    await page.getByText('No imports yet.').waitFor();
    await checkScreen(page, 'import-export', problems);

    const file = [
      'name,sku,price,inventory_quantity,category_slugs,tags',
      'Alpha beanie,ALPHA-1,12.50,4,hats,winter',
      'Beta cap,BETA-1,9,2,hats,summer',
      'Broken hat,BROKEN-1,-3,1,hats,',
    ].join('\n');
    await page.getByLabel('Product file').setInputFiles({ name: 'hats.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByLabel('Import the rows that are right and leave out the others').check();
    await page.getByRole('button', { name: 'Start import' }).click();
    await toast(page, 'Importing “hats.csv”.').waitFor();
    const bar = page.getByRole('progressbar', { name: 'Progress of hats.csv' });
    await bar.waitFor();
    await eventually(() => bar.evaluate((el) => (el as HTMLProgressElement).value), (v) => v === 100, 'the progress bar at its end', 20_000);
    await hasText(page.getByRole('status').filter({ hasText: 'Import finished' }), 'Import finished: 2 created, 0 updated, 0 unchanged, 1 with problems.');
    expect(await bar.getAttribute('aria-valuetext')).toBe('3 of 3 rows');
    // The bad row in words: its row number as a spreadsheet shows it, the column's name, the problem.
    const errors = page.getByRole('table', { name: 'Problems in the file, by row' });
    const row = errors.getByRole('row').nth(1);
    expect(await row.getByRole('cell').nth(0).innerText()).toBe('4');
    expect(await row.getByRole('cell').nth(1).innerText()).toBe('Price');
    const message = await row.getByRole('cell').nth(2).innerText();
    expect(message).not.toMatch(/_/);
    expect(await page.locator('main').innerText()).not.toMatch(/too_small|invalid_value|validation_failed/);
    // What the API then holds: the two good rows, the bad one left out.
    const names = (await db().product.findMany({ where: { storeId: f.storeId }, select: { name: true } })).map((p) => p.name).sort();
    expect(names).toEqual(['Alpha beanie', 'Beta cap']);
    // The history lists it.
    const history = page.getByRole('table', { name: 'Recent imports, newest first' });
    await hasText(history, 'hats.csv');
    await hasText(history, '2 created, 0 updated, 0 unchanged, 1 with problems');
    await checkScreen(page, 'import-finished', problems);

    const report = await downloaded(page, () => page.getByRole('button', { name: 'Download the error report (CSV)' }).click());
    expect(report.name).toBe('hats-errors.csv');
    const lines = report.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('row,column,column_name,problem');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^4,price,Price,/);
    expect(lines[1]).toContain(message.replace(/"/g, '""'));

    // --- Export, with the product list's filters ----------------------------------------------------------
    await nav(page, 'Products').click();
    await page.getByLabel('Search').fill('Alpha');
    await page.getByLabel('Search').press('Enter');
    await eventually(async () => page.url(), (u) => u.includes('q=Alpha'), 'the list filtered');
    await page.getByRole('link', { name: 'Import or export' }).click();
    await page.getByRole('heading', { name: 'Import and export', level: 1 }).waitFor();
    const exportForm = page.getByRole('form', { name: 'Export products' });
    expect(await exportForm.getByLabel('Search').inputValue()).toBe('Alpha');
    const exported = await downloaded(page, () => exportForm.getByRole('button', { name: 'Download export' }).click());
    expect(exported.name).toMatch(/\.csv$/);
    const exportedLines = exported.text.trim().split(/\r?\n/);
    expect(exportedLines[0]).toMatch(/^id,sku,name,/);
    expect(exportedLines).toHaveLength(2);
    expect(exported.text).toContain('Alpha beanie');
    expect(exported.text).not.toContain('Beta cap');
    await toast(page, `Downloaded “${exported.name}”.`).waitFor();

    // --- OAuth apps ----------------------------------------------------------------------------------------
    await nav(page, 'OAuth apps').click();
    await page.getByRole('heading', { name: 'OAuth apps', level: 1 }).waitFor();
    await page.getByText('You have not registered an app yet.').waitFor();
    await page.getByRole('button', { name: 'Register an app' }).click();
    const register = page.getByRole('form', { name: 'Register an app' });
    // Every problem at its field, at once.
    await register.getByRole('button', { name: 'Register app' }).click();
    await register.locator('.field-error').first().waitFor();
    const fieldErrors = await register.locator('.field-error').allInnerTexts();
    expect(fieldErrors.length).toBeGreaterThanOrEqual(2);
    expect(await register.getByLabel('App name').getAttribute('aria-invalid')).toBe('true');
    expect(await register.getByLabel('Redirect addresses').getAttribute('aria-invalid')).toBe('true');
    takeExpectedErrors(watch, 422);
    await checkScreen(page, 'oauth-register-errors', problems);
    await register.getByLabel('App name').fill('Stock sync');
    await register.getByLabel('Redirect addresses').fill('https://sync.example/callback\nhttp://localhost:8080/cb');
    await register.getByLabel('Change products').check();
    await register.getByRole('button', { name: 'Register app' }).click();
    const secretBox = page.getByRole('textbox', { name: 'Client secret of “Stock sync”' });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret.length).toBeGreaterThan(20);
    const app = await db().oAuthApp.findFirstOrThrow({ where: { ownerId: f.userId, name: 'Stock sync' } });
    expect(app.redirectUris).toEqual(['https://sync.example/callback', 'http://localhost:8080/cb']);
    expect(JSON.stringify(app)).not.toContain(secret);
    const card = page.getByRole('list', { name: 'Your apps' }).getByRole('listitem').filter({ hasText: 'Stock sync' }).first();
    await hasText(card, app.clientId);
    await checkScreen(page, 'oauth-apps', problems);
    await page.getByRole('button', { name: 'I have stored it safely' }).click();
    expect(await page.locator('main').innerText()).not.toContain(secret);

    await card.getByRole('button', { name: 'Rotate secret of Stock sync' }).click();
    await card.getByRole('button', { name: 'Rotate now' }).click();
    const rotated = page.getByRole('textbox', { name: 'New client secret of “Stock sync”' });
    await rotated.waitFor();
    const secret2 = await rotated.inputValue();
    expect(secret2).not.toBe(secret);
    await page.getByRole('button', { name: 'I have stored it safely' }).click();

    await card.getByRole('button', { name: 'Suspend Stock sync' }).click();
    await card.getByRole('button', { name: 'Suspend now' }).click();
    await toast(page, 'Suspended “Stock sync”.').waitFor();
    await hasText(card, 'Suspended');
    expect((await db().oAuthApp.findUniqueOrThrow({ where: { id: app.id } })).status).toBe('suspended');
    await card.getByRole('button', { name: 'Activate Stock sync' }).waitFor();
    await card.getByRole('button', { name: 'Activate Stock sync' }).click();
    await toast(page, '“Stock sync” is active again.').waitFor();
    expect((await db().oAuthApp.findUniqueOrThrow({ where: { id: app.id } })).status).toBe('active');

    // The store's connected apps: one the owner approved (as the consent page records it), disconnected here.
    const grant = await db().oAuthGrant.create({
      data: { appId: app.id, storeId: f.storeId, userId: f.userId, mode: 'live', scopes: ['products:read'], redirectUri: 'https://sync.example/callback', codeChallenge: 'x'.repeat(43) },
    });
    await page.reload();
    const connected = page.getByRole('table', { name: 'Apps connected to Mira’s Hats' });
    await hasText(connected, 'Read products');
    await hasText(connected, f.email);
    await checkScreen(page, 'oauth-apps-connected', problems);
    await connected.getByRole('button', { name: 'Disconnect Stock sync' }).click();
    await connected.getByRole('button', { name: 'Disconnect now' }).click();
    await toast(page, 'Disconnected “Stock sync” from Mira’s Hats.').waitFor();
    await hasText(connected, 'Disconnected');
    expect((await db().oAuthGrant.findUniqueOrThrow({ where: { id: grant.id } })).revokedAt).not.toBeNull();

    // --- Invite a new member by link -----------------------------------------------------------------------
    const invitee = `invitee-${Date.now().toString(36)}@example.test`;
    await nav(page, 'Team').click();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    const inviteForm = page.getByRole('form', { name: 'Invite someone by link' });
    await inviteForm.getByLabel('Email to invite').fill(invitee);
    await inviteForm.getByRole('checkbox', { name: 'Products and categories' }).check();
    await inviteForm.getByRole('button', { name: 'Create invitation link' }).click();
    const linkBox = page.getByRole('textbox', { name: `Invitation link for ${invitee}` });
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(new RegExp(`^${f.t.url}/dashboard/invite/svc_inv_`));
    const invitations = page.getByRole('table', { name: 'Invitations, newest first' });
    await hasText(invitations, invitee);
    await hasText(invitations, 'Waiting');
    await checkScreen(page, 'team-invitations', problems);
    await page.getByRole('button', { name: 'I have stored it safely' }).click();

    // A fresh browser (the invitee's): the link, a new account, then signing in as it.
    const theirs = await f.browser.newContext({ viewport: { width: 390, height: 844 } });
    const them = await theirs.newPage();
    const theirWatch = watchPage(them, f.t.url);
    await them.goto(link);
    await them.getByRole('heading', { name: 'Join Mira’s Hats', level: 1 }).waitFor();
    await hasText(them.locator('main'), 'Products and categories');
    await checkPhoneScreen(them, 'invite', problems);
    await them.getByLabel('Your name').fill('Ivo Invitee');
    await them.getByLabel('Password', { exact: true }).fill('short');
    await them.getByRole('button', { name: 'Create account and join' }).click();
    await them.getByText('Choose a password of at least 8 characters.').waitFor();
    expect(await them.getByLabel('Password', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await them.getByLabel('Password', { exact: true }).fill('a new member password');
    await them.getByLabel('Password again').fill('a new member password');
    await them.getByRole('button', { name: 'Create account and join' }).click();
    await them.getByRole('heading', { name: 'Welcome to Mira’s Hats' }).waitFor();
    await checkPhoneScreen(them, 'invite-accepted', problems);
    await them.getByRole('button', { name: 'Sign in' }).click();
    await them.getByRole('heading', { name: 'Sign in to your store' }).waitFor();
    await them.getByText(`Sign in as ${invitee} to start working on Mira’s Hats.`).waitFor();
    await them.getByLabel('Email').fill(invitee);
    await them.getByLabel('Password').fill('a new member password');
    await them.getByRole('button', { name: 'Sign in' }).click();
    await them.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    await hasText(them.getByRole('banner'), 'Ivo Invitee');
    const member = await db().membership.findFirstOrThrow({ where: { storeId: f.storeId, user: { email: invitee } } });
    expect(member).toMatchObject({ role: 'staff', permissions: ['manage_products'] });
    // The link is used up.
    await them.goto(link);
    await them.getByRole('alert').filter({ hasText: 'This invitation has already been used.' }).waitFor();
    takeExpectedErrors(theirWatch, 410);
    expect(theirWatch.errors).toEqual([]);
    expect(theirWatch.external()).toEqual([]);
    await theirs.close();

    await page.reload();
    await page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await hasText(page.getByRole('table', { name: 'Invitations, newest first' }), 'Accepted');
    await hasText(page.getByRole('list', { name: 'Members of Mira’s Hats' }), 'Ivo Invitee');

    // --- Phones: nothing scrolls sideways ----------------------------------------------------------------------
    await page.setViewportSize({ width: 390, height: 844 });
    await checkPhoneScreen(page, 'team-invitations', problems);
    await page.goto(`${f.t.url}/dashboard/import-export`);
    await page.getByRole('heading', { name: 'Import and export', level: 1 }).waitFor();
    await page.getByRole('button', { name: /^Show/ }).first().click();
    await page.getByRole('table', { name: 'Problems in the file, by row' }).waitFor();
    await checkPhoneScreen(page, 'import-export', problems);
    await page.goto(`${f.t.url}/dashboard/oauth-apps`);
    await page.getByRole('heading', { name: 'OAuth apps', level: 1 }).waitFor();
    await page.getByText('Stock sync').first().waitFor();
    await checkPhoneScreen(page, 'oauth-apps', problems);

    expect(Object.entries(problems).filter(([, list]) => list.length > 0)).toEqual([]);
    expect(watch.errors).toEqual([]);
    expect(watch.external()).toEqual([]);
    await context.close();
  }, 120_000);
});
