import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { createStore, createUser } from '../../src/access/services/stores';
import { launchBrowser, screenshot, type PageWatch } from './browser';
import { testContext } from './context';
import { startTestServer, type TestServer } from './harness';
import { root } from './serverProcess';

/**
 * What the dashboard's browser tests share (test/dashboard/*.test.ts): the build, axe, waiting helpers, the
 * 390 px overflow measure, and a store with a signed-in merchant. Each test file starts one service and one
 * browser, so the files run in parallel.
 */

const DIST_INDEX = path.join(root, 'dashboard', 'dist', 'index.html');

/** The newest modification time under a directory (the dashboard's sources). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (name.startsWith('generated')) continue;
    const stat = statSync(path.join(dir, name));
    if (stat.isFile()) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** Builds the dashboard when dashboard/dist is missing or older than its sources (as `npm run dashboard:build`). */
export function ensureDashboardBuilt(): void {
  const sources = Math.max(newestSource(path.join(root, 'dashboard', 'src')), statSync(path.join(root, 'dashboard', 'index.html')).mtimeMs, statSync(path.join(root, 'schema.graphql')).mtimeMs);
  if (existsSync(DIST_INDEX) && statSync(DIST_INDEX).mtimeMs >= sources) return;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-dashboard.ts'], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  if (result.status !== 0) throw new Error(`dashboard build failed:\n${result.stdout}${result.stderr}`);
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core on the page and returns its serious and critical violations. The script is evaluated through
 * the DevTools protocol: an injected <script> element would be (rightly) refused by the page's
 * Content-Security-Policy, which allows no inline script.
 */
export async function axeProblems(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** Each screen: no serious or critical accessibility problem, and a screenshot. */
export async function checkScreen(page: Page, name: string, problems: Record<string, string[]>): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => window.scrollTo(0, 0));
  problems[name] = await axeProblems(page);
  await screenshot(page, `dashboard-${name}.png`);
}

export async function pngBytes(background = { r: 200, g: 40, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width: 120, height: 80, channels: 3, background } })
    .png()
    .toBuffer();
}

/** Drops a file on an element the way a browser drag and drop does. */
export async function dropFile(page: Page, selector: string, file: { name: string; type: string; bytes: Buffer }): Promise<void> {
  const dataTransfer = await page.evaluateHandle(({ name, type, base64 }) => {
    const transfer = new DataTransfer();
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    transfer.items.add(new File([bytes], name, { type }));
    return transfer;
  }, { name: file.name, type: file.type, base64: file.bytes.toString('base64') });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

/** The errors a deliberately refused request makes Chromium log ("Failed to load resource: … status of 401"). */
export function takeExpectedErrors(watch: PageWatch, status: number): string[] {
  const expected = watch.errors.filter((e) => e.includes(`status of ${status}`));
  const others = watch.errors.filter((e) => !e.includes(`status of ${status}`));
  watch.errors.length = 0;
  watch.errors.push(...others);
  return expected;
}

/** Polls until check passes (playwright-core has no web-first assertions); returns the last value. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeout = 10_000): Promise<T> {
  const until = Date.now() + timeout;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

/** Waits until the locator's text contains (or, with absent, no longer contains) the text. */
export async function hasText(locator: Locator, text: string, absent = false): Promise<void> {
  await eventually(
    () => locator.innerText(),
    (value) => value.includes(text) !== absent,
    `${absent ? 'text without' : 'text with'} ${JSON.stringify(text)}`,
  );
}

/** A link of the main navigation. */
export const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

export async function count(locator: Locator, check: (n: number) => boolean, what: string): Promise<number> {
  return eventually(() => locator.count(), check, what);
}


/** How far the page is wider than the window (0: nothing scrolls sideways), with the widest culprits. */
export async function horizontalOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const overflow = document.documentElement.scrollWidth - width;
    const culprits: string[] = [];
    if (overflow > 0) {
      // An element inside a frame that scrolls or clips by itself (a table's) does not widen the page.
      const clipped = (el: HTMLElement) => {
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
        return false;
      };
      for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
        const box = el.getBoundingClientRect();
        if (box.right > width + 1 && !clipped(el)) culprits.push(`${el.tagName.toLowerCase()}.${String(el.className)} (${Math.round(box.right)} px)`);
        if (culprits.length >= 5) break;
      }
    }
    return { overflow, culprits };
  });
}

/** Each screen at a phone's width: nothing scrolls sideways (measured), no serious axe problem, a screenshot. */
export async function checkPhoneScreen(page: Page, name: string, problems: Record<string, string[]>): Promise<void> {
  await page.waitForLoadState('networkidle');
  const { overflow, culprits } = await horizontalOverflow(page);
  problems[name] = [...(await axeProblems(page)), ...(overflow > 0 ? [`overflows by ${overflow} px: ${culprits.join(', ')}`] : [])];
  await screenshot(page, `dashboard-phone-${name}.png`);
}

export interface DashboardFixture {
  t: TestServer;
  browser: Browser;
  email: string;
  password: string;
  userId: string;
  storeId: string;
  close(): Promise<void>;
}

/** A service, a merchant with a store (currency EUR) and a browser, for one test file. */
export async function startDashboard(prefix: string, env: Record<string, string> = {}): Promise<DashboardFixture> {
  ensureDashboardBuilt();
  const t = await startTestServer(env);
  const email = `${prefix}-${Date.now().toString(36)}@example.test`;
  const password = 'a long dashboard password';
  const user = await createUser(testContext(), { email, name: 'Mira Merchant', password });
  const store = await createStore(testContext(), { name: 'Mira’s Hats', currency: 'EUR', ownerId: user.id });
  const browser = await launchBrowser();
  return {
    t,
    browser,
    email,
    password,
    userId: user.id,
    storeId: store.id,
    close: async () => {
      await browser.close();
      await t.close();
    },
  };
}

/** Signs in on the dashboard's sign-in page and waits for the products screen. */
export async function signIn(page: Page, f: DashboardFixture): Promise<void> {
  await page.goto(`${f.t.url}/dashboard`);
  await page.getByLabel('Email').fill(f.email);
  await page.getByLabel('Password').fill(f.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
}

/** A toast (the notifications region) with this text. */
export const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text);

/** Closes the notices shown so far, so that the next one with the same words is the next action's. */
export async function closeToasts(page: Page): Promise<void> {
  const close = page.getByRole('button', { name: 'Close the notification' });
  // A toast may go by itself between the count and the click: then the next count tells.
  while ((await close.count()) > 0) await close.first().click({ timeout: 2000 }).catch(() => undefined);
}
