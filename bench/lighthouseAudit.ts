/**
 * Lighthouse (the npm package) on a dashboard page of a running service, signed in: the session cookie travels in
 * Lighthouse's extraHeaders, since Lighthouse clears the origin's storage (cookies included) before it loads the
 * page. The browser is the system's Chromium, started headless by playwright-core with a DevTools port that
 * Lighthouse connects to. Config: Lighthouse's default, a mobile device with simulated throttling (slow 4G, 4x CPU).
 */
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from '../scripts/demoService';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export const CONFIG_DESCRIPTION = "Lighthouse's default config: mobile (Moto G Power emulation, 412x823), simulated throttling (150 ms RTT, 1.6 Mbps, 4x CPU slowdown), cold cache";

export interface AuditResult {
  url: string;
  /** The address the page ended on (a signed-out browser would have been sent to the sign-in page). */
  finalUrl: string;
  /** Every URL the page requested. */
  requested: string[];
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  /** The audits of the three categories that did not pass (title and what they found), to say what to fix. */
  failing: string[];
  lighthouseVersion: string;
  userAgent: string;
}

export interface AuditBrowser {
  port: number;
  version: string;
  close(): Promise<void>;
}

export async function launchAuditBrowser(): Promise<AuditBrowser> {
  const port = await freePort();
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-background-networking', `--remote-debugging-port=${port}`],
  });
  return { port, version: browser.version(), close: () => browser.close() };
}

interface LhAudit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  numericValue?: number;
  displayValue?: string;
}

/** Runs Lighthouse once on `url` with the session `cookie` ("svc_session=…"). */
export async function auditPage(browser: AuditBrowser, url: string, cookie: string): Promise<AuditResult> {
  const { default: lighthouse } = await import('lighthouse');
  const result = await lighthouse(url, {
    port: browser.port,
    output: 'json',
    logLevel: 'error',
    extraHeaders: { Cookie: cookie },
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audits = lhr.audits as Record<string, LhAudit>;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const failing: string[] = [];
  for (const id of ['performance', 'accessibility', 'best-practices']) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const a = audits[ref.id];
      if (!a || ref.weight === 0 || a.score === null || a.score >= 0.9 || a.scoreDisplayMode === 'informative' || a.scoreDisplayMode === 'notApplicable') continue;
      failing.push(`${id}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
    }
  }
  const requests = (audits['network-requests'] as { details?: { items?: { url: string }[] } } | undefined)?.details?.items ?? [];
  return {
    url,
    finalUrl: lhr.finalDisplayedUrl,
    requested: requests.map((r) => r.url),
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
    fcpMs: audits['first-contentful-paint']?.numericValue ?? NaN,
    failing,
    lighthouseVersion: lhr.lighthouseVersion,
    userAgent: lhr.environment.hostUserAgent,
  };
}

/**
 * Lighthouse once in a process of its own (its own browser too), for a test whose service runs in the test's
 * process: the test stays small and keeps serving while Lighthouse works. The cookie travels in the environment.
 */
export async function auditInChildProcess(url: string, cookie: string): Promise<AuditResult> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', __filename, url], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, NODE_OPTIONS: '', LIGHTHOUSE_COOKIE: cookie },
    maxBuffer: 16 * 1024 * 1024,
    timeout: 180_000,
  });
  return JSON.parse(stdout) as AuditResult;
}

if (require.main === module) {
  void (async () => {
    const browser = await launchAuditBrowser();
    try {
      process.stdout.write(JSON.stringify(await auditPage(browser, process.argv[2]!, process.env.LIGHTHOUSE_COOKIE ?? '')));
    } finally {
      await browser.close();
    }
  })().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
