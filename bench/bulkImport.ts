/**
 * npm run bench:import [-- options]: the bulk import against its target,
 * 10,000 products imported in under 60 s on the embedded database and on
 * PostgreSQL, with memory flat in file size.
 *
 * For each backend: a fresh database (a new PGlite data directory; a new
 * PostgreSQL database), a store with one category made by the CLI, and a
 * generated CSV file of each size (every row a new product with two variants,
 * tags, a description and an SEO slug). Then, per size:
 *
 * - import: `npm run cli -- products import FILE --store … --error-policy
 *   reject_failed_rows` as a real process, the command an operator runs
 *   (validation, versions, search text, one product.created event per row
 *   through the outbox, in batches of 200 rows per transaction);
 * - baseline: bench/bulkImportBaseline.ts on the same database, the same file
 *   and parser, writing the same products, category links and variants as
 *   multi-row INSERTs, 200 rows per transaction, and nothing else.
 *
 * Both run under /usr/bin/time: wall seconds and peak RSS of the whole
 * process. The report gives rows/s, the import/baseline ratio, and the peak
 * RSS by size (memory flat: the largest file's peak within 25% of the next
 * largest's, a file a quarter its size; the smallest ends before the heap
 * has grown to its working size).
 *
 *   --rows=2000,10000,40000   file sizes in rows (the target is judged at 10000)
 *   --backends=pglite,postgres
 *   --out=<dir>               where bulk-import.md and bulk-import.json go (default bench/results)
 *   --env=K=V,…               extra environment for the import and the baseline (experiments, e.g. DATABASE_PREPARED_STATEMENTS=false)
 *   --quick                   500 and 2000 rows, written to a temp dir: checks the harness works
 *   --report-only             rewrite bulk-import.md from the out dir's bulk-import.json (no measuring)
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generatedCsv } from '../test/bulk/helpers';
import { adminQuery, databaseUrl, dropAbandonedDatabases, dropDatabase, ensurePostgres, serverVersion } from './postgres';
import { environmentOf, ROOT } from './processes';

const run = promisify(execFile);
const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = args.includes('--quick');
const sizes = (option('rows') ?? (quick ? '500,2000' : '2000,10000,40000')).split(',').map(Number);
const backends = (option('backends') ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
const outDir = path.resolve(option('out') ?? (quick ? mkdtempSync(path.join(tmpdir(), 'bench-import-')) : path.join(__dirname, 'results')));
const workDir = mkdtempSync(path.join(tmpdir(), 'bench-import-work-'));
const extraEnv = environmentOf((option('env') ?? '').split(','));
const TARGET_ROWS = 10_000;
const TARGET_SECONDS = 60;
const DB_PREFIX = 'bench_import_';

const started = Date.now();
const log = (s: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${s}`);

interface Timed {
  seconds: number;
  peakRssMb: number;
  stdout: string;
}

/** A node process under /usr/bin/time: its wall time and peak RSS (the last stderr line). */
async function timedNode(script: string[], env: Record<string, string>): Promise<Timed> {
  const { stdout, stderr } = await run('/usr/bin/time', ['-f', 'TIMED %e %M', process.execPath, '--import', 'tsx', ...script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  const m = /TIMED ([\d.]+) (\d+)\s*$/.exec(stderr);
  if (!m) throw new Error(`no timing in: ${stderr.slice(-500)}`);
  return { seconds: Number(m[1]), peakRssMb: Math.round(Number(m[2]) / 1024), stdout };
}

const cli = (env: Record<string, string>, ...a: string[]) => timedNode(['src/cli.ts', ...a], env);

interface Measurement {
  backend: string;
  rows: number;
  fileMb: number;
  import: { seconds: number; rowsPerSecond: number; peakRssMb: number; ownSeconds: number };
  baseline: { seconds: number; rowsPerSecond: number; peakRssMb: number };
  ratio: number;
}

async function measureBackend(backend: 'pglite' | 'postgres'): Promise<Measurement[]> {
  let env: Record<string, string>;
  let dbName: string | null = null;
  const dataDir = path.join(workDir, backend);
  if (backend === 'postgres') {
    await ensurePostgres(log);
    await dropAbandonedDatabases(DB_PREFIX);
    dbName = `${DB_PREFIX}${process.pid}`;
    await adminQuery(`CREATE DATABASE ${dbName}`);
    env = { DATABASE_URL: databaseUrl(dbName), DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...extraEnv };
  } else {
    env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'production', ...extraEnv };
  }
  try {
    await cli(env, 'user', 'create', '--email', 'bench@example.com', '--name', 'Bench');
    const results: Measurement[] = [];
    for (const rows of sizes) {
      // Each size in its own store, the import's and the baseline's, so neither finds the other's SKUs.
      const ids = async (name: string) => {
        const store = JSON.parse((await cli(env, 'store', 'create', '--name', name, '--currency', 'EUR', '--owner', 'bench@example.com')).stdout);
        const category = JSON.parse((await cli(env, 'category', 'create', '--store', store.id, '--slug', 'shoes', '--name', 'Shoes')).stdout);
        return { storeId: store.id as string, categoryId: category.id as string };
      };
      const file = path.join(workDir, `products-${rows}.csv`);
      writeFileSync(file, generatedCsv(rows));
      const fileMb = Math.round((statSync(file).size / 1048576) * 100) / 100;

      const importStore = await ids(`Import ${rows}`);
      log(`${backend}: importing ${rows} rows (${fileMb} MB)`);
      const imported = await cli(env, 'products', 'import', file, '--store', importStore.storeId, '--error-policy', 'reject_failed_rows');
      const summary = JSON.parse(imported.stdout);
      if (summary.created !== rows || summary.rejected !== 0) throw new Error(`import of ${rows} rows: ${imported.stdout.slice(0, 2000)}`);

      const baselineStore = await ids(`Baseline ${rows}`);
      log(`${backend}: baseline insert of ${rows} rows`);
      const baseline = await timedNode(['bench/bulkImportBaseline.ts', file, baselineStore.storeId, baselineStore.categoryId], env);
      if (JSON.parse(baseline.stdout).rows !== rows) throw new Error(`baseline wrote ${baseline.stdout}`);

      const m: Measurement = {
        backend,
        rows,
        fileMb,
        import: { seconds: imported.seconds, rowsPerSecond: Math.round(rows / imported.seconds), peakRssMb: imported.peakRssMb, ownSeconds: summary.seconds },
        baseline: { seconds: baseline.seconds, rowsPerSecond: Math.round(rows / baseline.seconds), peakRssMb: baseline.peakRssMb },
        ratio: Math.round((imported.seconds / baseline.seconds) * 10) / 10,
      };
      log(`${backend} ${rows}: import ${m.import.seconds} s (${m.import.peakRssMb} MB), baseline ${m.baseline.seconds} s, ratio ${m.ratio}`);
      results.push(m);
    }
    return results;
  } finally {
    if (dbName) await dropDatabase(dbName).catch(() => {});
  }
}

function report(results: Measurement[], machine: Record<string, string>): string {
  const lines = [
    '# Bulk import: `products import` against a plain INSERT baseline',
    '',
    `Run ${machine.date} by \`${machine.command}\`: ${machine.cpus}, ${machine.memory}, Node ${machine.node}, ${machine.postgres}.`,
    '',
    'Seconds are the whole process (start, opening the database, import, exit) as `/usr/bin/time` saw it, and the part the command itself reports as importing; peak RSS is the process\'s.',
    'The baseline writes the same products, category links and variants with multi-row INSERTs, 200 rows per transaction, and nothing else.',
    '',
    '| backend | rows | file | import s | of which importing | import rows/s | baseline s | import / baseline | import peak RSS | baseline peak RSS |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (m) =>
        `| ${m.backend} | ${m.rows} | ${m.fileMb} MB | ${m.import.seconds} | ${m.import.ownSeconds} | ${m.import.rowsPerSecond} | ${m.baseline.seconds} | ${m.ratio}× | ${m.import.peakRssMb} MB | ${m.baseline.peakRssMb} MB |`,
    ),
    '',
    '## Targets',
    '',
  ];
  for (const backend of backends) {
    const own = results.filter((m) => m.backend === backend);
    const atTarget = own.find((m) => m.rows === TARGET_ROWS);
    if (atTarget) lines.push(`- ${backend}: ${TARGET_ROWS} products in ${atTarget.import.seconds} s (target: under ${TARGET_SECONDS} s): ${atTarget.import.seconds < TARGET_SECONDS ? 'met' : 'MISSED'}`);
    if (own.length > 1) {
      // The two largest files: a small one ends before the heap has grown to its working size.
      const [small, large] = [own[own.length - 2], own[own.length - 1]];
      const growth = large.import.peakRssMb / small.import.peakRssMb;
      lines.push(
        `- ${backend}: peak RSS ${small.import.peakRssMb} MB at ${small.rows} rows, ${large.import.peakRssMb} MB at ${large.rows} rows (${Math.round(large.rows / small.rows)}× the rows, memory ${growth.toFixed(2)}×): ${growth <= 1.25 ? 'flat' : 'GROWS'}`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

async function main() {
  if (args.includes('--report-only')) {
    const saved = JSON.parse(readFileSync(path.join(outDir, 'bulk-import.json'), 'utf8')) as { machine: Record<string, string>; results: Measurement[]; command?: string };
    writeFileSync(path.join(outDir, 'bulk-import.md'), report(saved.results, saved.machine));
    return;
  }
  const machine = {
    date: new Date().toISOString(),
    command: `npm run bench:import${args.length ? ' -- ' + args.join(' ') : ''}`,
    node: process.version,
    cpus: `${cpus().length} × ${cpus()[0]?.model.trim()}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    postgres: backends.includes('postgres') ? `PostgreSQL ${await serverVersion().catch(() => '?')}` : 'no PostgreSQL',
  };
  const results: Measurement[] = [];
  for (const backend of backends) results.push(...(await measureBackend(backend)));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'bulk-import.json'), JSON.stringify({ machine, results }, null, 2) + '\n');
  const md = report(results, machine);
  writeFileSync(path.join(outDir, 'bulk-import.md'), md);
  console.log(md);
  log(`written to ${outDir}`);
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(workDir, { recursive: true, force: true }));
