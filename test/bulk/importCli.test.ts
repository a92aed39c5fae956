import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cliOn, serveDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir, newTempDir } from '../helpers/templates';
import { generatedCsv } from './helpers';

/**
 * `npm run cli -- products import|export` as a real process on its own embedded
 * database: a generated CSV of ROWS products (the benchmark imports 10,000:
 * bench/bulkImport.ts), a summary on stdout, the full error report in a file,
 * and the export imported back as a no-op.
 */

const ROWS = Number(process.env.BULK_CLI_ROWS ?? 2000);
const dir = newTempDir('bulk-cli-');
const dataDir = migratedDataDir('bulk-cli-data-');
const cli = cliOn(dataDir);

describeEmbeddedProcesses('npm run cli -- products import|export', () => {
  // Served throughout: the commands go through the service's socket.
  let service: Awaited<ReturnType<typeof serveDataDir>>;
  beforeAll(async () => {
    service = await serveDataDir(dataDir);
    await cli.exec('user', 'create', '--email', 'ana@example.com', '--name', 'Ana');
    await cli.exec('store', 'create', '--name', 'Bulk', '--currency', 'EUR', '--owner', 'ana@example.com');
    await cli.exec('category', 'create', '--store', 'Bulk', '--slug', 'shoes', '--name', 'Shoes');
  }, 60_000);
  afterAll(() => service?.close());

  test(`imports a generated ${ROWS}-row CSV and prints a summary; bad rows are left out and written to the error report`, async () => {
    const file = path.join(dir, 'products.csv');
    // Two bad rows at the end: an unknown category and a price that is not one.
    writeFileSync(file, generatedCsv(ROWS) + 'BAD-1,Bad one,,1.00,1,sandals,,,\nBAD-2,Bad two,,cheap,1,shoes,,,\n');
    const report = path.join(dir, 'errors.csv');
    const { stdout, stderr } = await cli.exec('products', 'import', file, '--store', 'Bulk', '--error-policy', 'reject_failed_rows', '--error-report', report);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ rows: ROWS + 2, imported: ROWS, created: ROWS, updated: 0, rejected: 2, error_count: 2, committed: true, error_report: report });
    expect(summary.errors).toEqual([
      { row: ROWS + 2, field: 'category_slugs', code: 'unknown_category', message: 'no category with slug "sandals" in this store' },
      { row: ROWS + 3, field: 'price', code: expect.any(String), message: expect.any(String) },
    ]);
    // stderr is not a terminal here: the progress bar stays silent (cli-progress noTTYOutput: false).
    expect(stderr).toBe('');
    expect(readFileSync(report, 'utf8').split('\n')[0]).toBe('row,field,code,message');
    expect(readFileSync(report, 'utf8')).toContain(`${ROWS + 2},category_slugs,unknown_category,`);

    const out = path.join(dir, 'export.jsonl');
    const exported = await cli.json('products', 'export', '--store', 'Bulk', '--format', 'jsonl', '--out', out);
    expect(exported).toMatchObject({ format: 'jsonl', file: out });
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(ROWS);
    const again = await cli.json('products', 'import', out, '--store', 'Bulk', '--dry-run');
    expect(again).toMatchObject({ rows: ROWS, unchanged: ROWS, created: 0, updated: 0, rejected: 0, committed: false, dry_run: true });
  }, 120_000);

  test('a file that cannot be read fails with one line and exit 1; a missing file is a usage error', async () => {
    const file = path.join(dir, 'latin1.csv');
    writeFileSync(file, Buffer.from('name,price\nCaf\xe9,1\n', 'latin1'));
    const bad = await cli.outcome('products', 'import', file, '--store', 'Bulk');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: validation_failed: .*not UTF-8.*\[invalid_encoding\]\n$/);
    const missing = await cli.outcome('products', 'import', path.join(dir, 'nope.csv'), '--store', 'Bulk');
    expect(missing.code).toBe(2);
  }, 60_000);
});
