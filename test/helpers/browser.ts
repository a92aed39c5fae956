import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { root } from './serverProcess';

/**
 * Headless Chromium for tests that look at a page as a browser renders it. The browser is the system's
 * (Debian's `chromium` package; .ci/run installs it), driven by playwright-core, which downloads nothing.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Screenshots and other files a test leaves for people to look at (git-ignored). */
export const ARTIFACTS_DIR = path.join(root, 'test-artifacts');

const onCi = () => process.env.CI === 'true';

/**
 * `describe` for browser tests. Without Chromium they are skipped, with the reason in their name, on a
 * developer's machine only: on CI (CI=true) they run and fail, so a missing browser is never a green build.
 * `BROWSER_TESTS=once-done` skips them too, with that reason: .ci/run sets it for its second run of the suite (on
 * PostgreSQL). The browser drives the pages through the HTTP API, which both runs test on their database; the
 * pages themselves are the same on either, and driving them again would add minutes, not coverage.
 */
export function describeInBrowser(name: string, fn: () => void): void {
  if (process.env.BROWSER_TESTS === 'once-done') {
    describe.skip(`${name} [skipped: the browser tests ran in the embedded database's run of the suite (BROWSER_TESTS=once-done)]`, fn);
    return;
  }
  if (existsSync(CHROMIUM_PATH) || onCi()) return describe(name, fn);
  describe.skip(`${name} [skipped: no Chromium at ${CHROMIUM_PATH}; install it with: apt-get install -y chromium]`, fn);
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}${onCi() ? ' on CI (CI=true)' : ''}: install it with apt-get install -y chromium (.ci/run does)`);
  }
  // No sandbox: CI runs as root, where Chromium's sandbox cannot start. No background networking: the browser
  // itself (updates, safe browsing, field trials) would otherwise call hosts no page asked for.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
}

export interface PageWatch {
  /** Every URL the page requested. */
  requests: string[];
  /** Those that went to another host than the service's (data: and blob: URLs never leave the browser). */
  external(): string[];
  /** Console errors (Chromium reports Content-Security-Policy violations there) and uncaught exceptions. */
  errors: string[];
}

/** Records what a page does from now on; `origin` is the service's (http://127.0.0.1:port). */
export function watchPage(page: Page, origin: string): PageWatch {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  // net::ERR_ABORTED is the browser cancelling a request itself (a navigation left the page while the favicon
  // or an image was loading), not an answer of the service; a reset, refused or empty answer has its own error.
  page.on('requestfailed', (r) => {
    const reason = r.failure()?.errorText;
    if (reason !== 'net::ERR_ABORTED') errors.push(`request failed: ${r.url()} (${reason})`);
  });
  const local = new URL(origin);
  return {
    requests,
    errors,
    external: () =>
      requests.filter((u) => {
        const url = new URL(u);
        if (url.protocol === 'data:' || url.protocol === 'blob:') return false;
        return !(['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.port === local.port);
      }),
  };
}

/** Saves a full-page screenshot under test-artifacts/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, name);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
