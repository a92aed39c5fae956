import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { describeInBrowser, launchBrowser, screenshot, watchPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * Issue 14's "done when": /docs renders in headless Chromium with no request leaving the service, no
 * console error and no Content-Security-Policy violation, and leaves a screenshot in test-artifacts/.
 */
describeInBrowser('/docs in headless Chromium', () => {
  let t: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestServer();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the reference from /api/openapi.json with nothing but this origin, no error, and saves a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const watch = watchPage(page, t.url);
    const response = await page.goto(`${t.url}/docs`);
    expect(response?.status()).toBe(200);
    // The reference is drawn from the document: an operation's title and the document's own title appear.
    await page.getByText('List products (paged, filterable)').first().waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'Store catalog REST API' }).first().waitFor({ timeout: 10_000 });
    // Whatever the page would fetch once drawn (fonts, icons, telemetry) has had time to be asked for.
    await page.waitForTimeout(1500);
    const file = await screenshot(page, 'docs.png');
    expect(existsSync(file)).toBe(true);

    expect(watch.requests).toEqual(expect.arrayContaining([`${t.url}/docs`, `${t.url}/api/openapi.json`]));
    expect(watch.requests.some((u) => u.startsWith(`${t.url}/docs/assets/scalar-api-reference-`))).toBe(true);
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
    await page.close();
  }, 90_000);

  it('an error page a problem points at renders without script and without errors', async () => {
    const problem = await t.request('GET', '/api/v1/merchant/stores/x/products');
    expect(problem.status).toBe(401);
    const page = await browser.newPage();
    const watch = watchPage(page, t.url);
    const response = await page.goto(problem.body.type);
    expect(response?.status()).toBe(200);
    expect(await page.locator('#code').textContent()).toBe('unauthenticated');
    expect(await page.locator('#status').textContent()).toBe('401');
    await screenshot(page, 'docs-error-unauthenticated.png');
    expect(watch.external()).toEqual([]);
    expect(watch.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('GraphiQL links to the reference', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${t.url}/graphql`);
    const link = page.locator('#rest-api-reference');
    await link.waitFor();
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'graphiql.png');
    await link.click();
    await page.waitForURL(`${t.url}/docs`);
    await page.close();
  }, 60_000);
});
