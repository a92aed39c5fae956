/**
 * Lighthouse on the dashboard's product list and product editor, into bench/results/lighthouse.md: the service
 * (`npm start`'s command) on a fresh embedded database with the demo store, seeded through the merchant API with
 * products that have photos, signed in as the demo owner (GraphQL signIn; the cookie passed in Lighthouse's
 * extraHeaders), the system Chromium headless. Each page is audited several times after one discarded warm-up run;
 * the report gives the median of each score and metric, the range, and the audits that did not pass.
 *
 * Targets: performance >= 90, accessibility >= 95, best practices >= 95, with Lighthouse's default config (mobile,
 * simulated throttling). The dashboard is built first when its sources are newer than dashboard/dist.
 *
 * Usage: npm run bench:lighthouse [-- --runs 5] [-- --products 40] [-- --out <file>]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { ensureDashboardBuilt, startDemoService, seedProducts, sessionCookie } from '../scripts/demoService';
import { auditPage, CONFIG_DESCRIPTION, launchAuditBrowser, type AuditResult } from './lighthouseAudit';

const ROOT = path.resolve(__dirname, '..');
const argv = process.argv.slice(2);
const option = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
};
const RUNS = Number(option('runs') ?? 5);
const PRODUCTS = Number(option('products') ?? 40);
const OUT = path.resolve(option('out') ?? path.join(ROOT, 'bench', 'results', 'lighthouse.md'));

const TARGETS = { performance: 90, accessibility: 95, bestPractices: 95 } as const;

const log = (s: string) => process.stderr.write(`${s}\n`);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface PageRuns {
  name: string;
  path: string;
  /** The path as the report shows it (without the seeded product's id). */
  label: string;
  runs: AuditResult[];
}

function report(pages: PageRuns[], chromium: string, lighthouseVersion: string, load: { start: number; end: number }): string {
  const now = new Date();
  const lines = [
    '# Lighthouse: the product list and the product editor',
    '',
    `Written by \`npm run bench:lighthouse -- --runs ${RUNS} --products ${PRODUCTS}\` on ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `Lighthouse ${lighthouseVersion} (npm), ${CONFIG_DESCRIPTION}; categories performance, accessibility and best practices.`,
    `Browser: Chromium ${chromium} (the system's, headless, started by playwright-core; Lighthouse connects to its DevTools port).`,
    `Service: \`npm start\`'s command on a fresh embedded database (PGlite) with the demo store and ${PRODUCTS} more products, each with two 800x800 JPEG photos;`,
    'signed in as the demo owner (GraphQL `signIn`; the session cookie sent through Lighthouse\'s extraHeaders, since Lighthouse clears the origin\'s cookies before loading).',
    `Each page: one warm-up run (not counted), then ${RUNS} runs; medians, with the range in brackets.`,
    '',
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GB; Node ${process.version}. Load average (1 min) ${load.start.toFixed(2)} at the start, ${load.end.toFixed(2)} at the end` +
      (Math.max(load.start, load.end) > cpus().length ? ' (other work shared the machine: simulated throttling scales what was observed, so a busy machine lowers performance).' : '.'),
    '',
    '| page | performance | accessibility | best practices | LCP | TBT | CLS | FCP |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
  ];
  const range = (xs: number[], digits = 0) => `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]`;
  const verdict = (xs: number[], target: number) => `${median(xs) >= target ? '**' : ''}${range(xs)}${median(xs) >= target ? '**' : ' (below target)'}`;
  for (const p of pages) {
    const r = p.runs;
    lines.push(
      `| ${p.name} (\`${p.label}\`) | ${verdict(r.map((x) => x.performance), TARGETS.performance)} | ${verdict(r.map((x) => x.accessibility), TARGETS.accessibility)} | ${verdict(r.map((x) => x.bestPractices), TARGETS.bestPractices)} | ` +
        `${range(r.map((x) => x.lcpMs))} ms | ${range(r.map((x) => x.tbtMs))} ms | ${range(r.map((x) => x.cls), 3)} | ${range(r.map((x) => x.fcpMs))} ms |`,
    );
  }
  lines.push('', `Targets: performance ≥ ${TARGETS.performance}, accessibility ≥ ${TARGETS.accessibility}, best practices ≥ ${TARGETS.bestPractices} (bold: met by the median).`, '', '## Every run', '');
  lines.push('| page | run | performance | accessibility | best practices | LCP ms | TBT ms | CLS |', '|---|--:|--:|--:|--:|--:|--:|--:|');
  for (const p of pages) {
    p.runs.forEach((x, i) => lines.push(`| ${p.name} | ${i + 1} | ${x.performance} | ${x.accessibility} | ${x.bestPractices} | ${x.lcpMs.toFixed(0)} | ${x.tbtMs.toFixed(0)} | ${x.cls.toFixed(3)} |`));
  }
  lines.push('', '## Audits that did not pass (score below 0.9), with the number of runs', '');
  for (const p of pages) {
    const counts = new Map<string, number>();
    for (const x of p.runs) for (const f of new Set(x.failing.map((s) => s.replace(/ \(.*\)$/, '')))) counts.set(f, (counts.get(f) ?? 0) + 1);
    lines.push(`- ${p.name}: ${counts.size ? [...counts].map(([f, n]) => `${f} (${n} of ${p.runs.length})`).join('; ') : 'none'}`);
  }
  lines.push('');
  return lines.join('\n');
}

async function main(): Promise<void> {
  ensureDashboardBuilt(log);
  const loadStart = loadavg()[0]!;
  log('starting the service on a fresh embedded database…');
  const service = await startDemoService();
  const browser = await launchAuditBrowser();
  try {
    log(`seeding ${PRODUCTS} products with photos…`);
    const ids = await seedProducts(service, PRODUCTS, 2);
    const cookie = await sessionCookie(service);
    const pages: PageRuns[] = [
      { name: 'product list', path: '/dashboard/products', label: '/dashboard/products', runs: [] },
      { name: 'product editor', path: `/dashboard/products/${ids.at(-1)}`, label: '/dashboard/products/<id>', runs: [] },
    ];
    for (const page of pages) {
      const url = service.url + page.path;
      await auditPage(browser, url, cookie);
      for (let i = 0; i < RUNS; i++) {
        const r = await auditPage(browser, url, cookie);
        log(`${page.name} run ${i + 1}: performance ${r.performance}, accessibility ${r.accessibility}, best practices ${r.bestPractices}, LCP ${r.lcpMs.toFixed(0)} ms, TBT ${r.tbtMs.toFixed(0)} ms, CLS ${r.cls.toFixed(3)}`);
        page.runs.push(r);
      }
    }
    const text = report(pages, browser.version, pages[0]!.runs[0]!.lighthouseVersion, { start: loadStart, end: loadavg()[0]! });
    mkdirSync(path.dirname(OUT), { recursive: true });
    writeFileSync(OUT, text);
    log(`wrote ${path.relative(process.cwd(), OUT)}`);
    process.stdout.write(text);
  } finally {
    await browser.close();
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
