import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { cliOn, serveDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir, newTempDir } from '../helpers/templates';
import { csv } from './helpers';

/**
 * `npm run cli -- products import` as a real process: an untouched export of
 * products made without SEO columns imports back (for real, not as a dry run)
 * as unchanged rows and leaves no change-history entry; an unknown category is
 * a row error naming the column and the slug; the exit code says whether any
 * row was imported (0) or none was because rows failed (1), a dry run's as the
 * real run's would, the summary on stdout either way.
 */

const dir = newTempDir('bulk-cli-outcome-');
const dataDir = migratedDataDir('bulk-cli-outcome-data-');
const cli = cliOn(dataDir);
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};
const history = async (store: string) => (await cli.json('changes', 'list', '--store', store, '--limit', '100')).data.map((c: { id: string }) => c.id);

/** A store with two categories and two products imported without SEO columns (so without SEO records, which the export shows as empty seo_* cells). */
async function storeWithProducts(store: string) {
  await cli.exec('store', 'create', '--name', store, '--currency', 'EUR', '--owner', 'bo@example.com');
  await cli.exec('category', 'create', '--store', store, '--slug', 'shoes', '--name', 'Shoes');
  await cli.exec('category', 'create', '--store', store, '--slug', 'hats', '--name', 'Hats');
  const made = await cli.json(
    'products',
    'import',
    write(`${store}.csv`, csv(['sku', 'name', 'price', 'category_slugs', 'tags', 'variants'], [
      ['M-1', 'Plain', '10', 'shoes', '', ''],
      ['M-2', 'Two categories', '89.90', 'shoes|hats', 'sale|summer', JSON.stringify([{ sku: 'M-2', options: { size: 'S' } }, { sku: 'M-2-L', options: { size: 'L' }, price: '91.5' }])],
    ])),
    '--store',
    store,
  );
  expect(made).toMatchObject({ created: 2, committed: true });
}

describeEmbeddedProcesses('npm run cli -- products import: no-op re-import, row errors, exit codes', () => {
  // Served throughout: the commands go through the service's socket.
  let service: Awaited<ReturnType<typeof serveDataDir>>;
  beforeAll(async () => {
    service = await serveDataDir(dataDir);
    await cli.exec('user', 'create', '--email', 'bo@example.com', '--name', 'Bo');
    await storeWithProducts('Outcome');
  }, 300_000);
  afterAll(() => service?.close());

  test.each(['csv', 'jsonl'])('an untouched %s export imports back as unchanged rows, exit 0, and records no change', async (format) => {
    const store = `Round trip ${format}`;
    await storeWithProducts(store);
    const file = path.join(dir, `export.${format}`);
    await cli.exec('products', 'export', '--store', store, '--format', format, '--out', file);
    const before = await history(store);
    const again = await cli.outcome('products', 'import', file, '--store', store);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ rows: 2, imported: 2, created: 0, updated: 0, unchanged: 2, rejected: 0, committed: true });
    expect(again.stderr).toBe('');
    expect(await history(store)).toEqual(before);
  }, 300_000);

  test('an unknown category is a row error naming the column and the slug; nothing imported is exit 1 with the summary on stdout', async () => {
    const before = await history('Outcome');
    const bad = write('bad.csv', csv(['sku', 'name', 'price', 'category_slugs'], [['B-1', 'Sandal', '1', 'sandals'], ['B-2', 'Clog', '-1', 'clogs']]));
    for (const policy of ['reject_failed_rows', 'reject_everything']) {
      for (const dryRun of [[], ['--dry-run']]) {
        const out = await cli.outcome('products', 'import', bad, '--store', 'Outcome', '--error-policy', policy, ...dryRun);
        expect({ policy, dryRun, code: out.code }).toEqual({ policy, dryRun, code: 1 });
        expect(out.stderr).toMatch(/^error: rows_rejected: nothing (was|would be) imported: 2 of 2 row\(s\) rejected/);
        const summary = JSON.parse(out.stdout);
        expect(summary).toMatchObject({ rows: 2, imported: 0, created: 0, rejected: 2 });
        expect(summary.errors).toEqual([
          { row: 2, field: 'category_slugs', code: 'unknown_category', message: 'no category with slug "sandals" in this store' },
          { row: 3, field: 'price', code: expect.any(String), message: expect.any(String) },
          { row: 3, field: 'category_slugs', code: 'unknown_category', message: 'no category with slug "clogs" in this store' },
        ]);
      }
    }
    expect(await history('Outcome')).toEqual(before);
  }, 300_000);

  test('one good row among bad ones: exit 0 under reject_failed_rows (dry run too), exit 1 under reject_everything', async () => {
    const mixed = write('mixed.csv', csv(['sku', 'name', 'price', 'category_slugs'], [['G-1', 'Good', '1', 'shoes'], ['G-2', 'Bad', '1', 'sandals']]));
    const everything = await cli.outcome('products', 'import', mixed, '--store', 'Outcome');
    expect(everything.code).toBe(1);
    expect(everything.stderr).toMatch(/^error: rows_rejected: nothing was imported: 1 of 2 row\(s\) rejected and --error-policy reject_everything keeps none of the others/);
    expect(JSON.parse(everything.stdout)).toMatchObject({ committed: false, imported: 0, created: 1, rejected: 1 });
    const dry = await cli.outcome('products', 'import', mixed, '--store', 'Outcome', '--error-policy', 'reject_failed_rows', '--dry-run');
    expect(dry).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, committed: false, created: 1, rejected: 1 });
    const failedRows = await cli.outcome('products', 'import', mixed, '--store', 'Outcome', '--error-policy', 'reject_failed_rows');
    expect(failedRows).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(failedRows.stdout)).toMatchObject({ committed: true, imported: 1, created: 1, rejected: 1 });
  }, 300_000);
});
