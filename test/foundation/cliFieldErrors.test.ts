import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

// The CLI reports every problem of a command's flags at once, each named by its flag, with the service's
// codes: a number flag is not parsed on its own (a parser would stop the command at the first bad flag).

describeEmbeddedProcesses('npm run cli: every flag error at once', () => {
  it('products create with several bad flags names each by its flag; fixed, it creates the product', async () => {
    // Served from the start: the commands go through the service's socket.
    const { outcome, json: cli } = (await servedDataDir(migratedDataDir('catalog-cli-errors-'))).cli;
    await cli('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--password', 'a long password');
    const store = await cli('store', 'create', '--name', 'Flags', '--currency', 'EUR', '--owner', 'owner@example.test');
    await cli('category', 'create', '--store', store.id, '--slug', 'shoes', '--name', 'Shoes');

    const bad = await outcome(
      'products', 'create', '--store', store.id, '--name', '', '--price', '-1', '--inventory-quantity', '1.5', '--low-stock-threshold', 'few', '--status', 'loud', '--category-slugs', 'shoes',
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^error: validation_failed: [^\n]+\n$/);
    const problems = bad.stderr.replace(/^error: validation_failed: /, '').trim().split('; ');
    expect(problems.sort()).toEqual(
      [
        '--inventory-quantity: must be an integer',
        '--low-stock-threshold: must be a number',
        '--name: must not be empty',
        '--price: must be a number >= 0 with at most 2 decimals and below 10,000,000,000',
        '--status: must be one of: active, draft, archived',
      ].sort(),
    );

    const created = await cli('products', 'create', '--store', store.id, '--name', 'Trail shoe', '--price', '89.90', '--inventory-quantity', '12', '--category-slugs', 'shoes', '--tags', 'trail,run');
    expect(created).toMatchObject({ name: 'Trail shoe', price: 89.9, currency: 'EUR', inventory_quantity: 12, status: 'draft', category_slugs: ['shoes'], tags: ['trail', 'run'] });
    // A missing required value is the service's `required`, named by its flag, with the others.
    const missing = await outcome('products', 'create', '--store', store.id, '--inventory-quantity', '-3');
    expect(missing.stderr.trim().replace(/^error: validation_failed: /, '').split('; ').sort()).toEqual(
      ['--inventory-quantity: must be at least 0', '--name: is required', '--price: is required'].sort(),
    );
  }, 180_000);
});
