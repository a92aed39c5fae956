import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

// Prices in further currencies through the real CLI process (few spawns: CI time is tight).

describeEmbeddedProcesses('npm run cli: prices per currency', () => {
  it('creates a product with --prices, replaces them with products set-prices, and refuses to remove a priced currency without --delete-prices', async () => {
    // Served from the start: the commands go through the service's socket.
    const { outcome, json: cli } = (await servedDataDir(migratedDataDir('catalog-cli-prices-'))).cli;
    await cli('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--password', 'a long password');
    await cli('store', 'create', '--name', 'Kuwait', '--currency', 'USD', '--owner', 'owner@example.test');
    await cli('currencies', 'add', '--store', 'Kuwait', '--currency', 'KWD');
    await cli('currencies', 'add', '--store', 'Kuwait', '--currency', 'JPY');
    await cli('category', 'create', '--store', 'Kuwait', '--slug', 'tea', '--name', 'Tea');
    const created = await cli('products', 'create', '--store', 'Kuwait', '--name', 'Tea', '--price', '5', '--category-slugs', 'tea', '--prices', 'KWD=1.250:1.500,jpy=700');
    expect(created.prices).toEqual([
      { currency: 'JPY', amount: '700', compare_at_amount: null },
      { currency: 'KWD', amount: '1.250', compare_at_amount: '1.500' },
    ]);
    const wrong = await outcome('products', 'set-prices', '--store', 'Kuwait', '--product', created.id, '--prices', 'KWD=1.25,EUR=1.00');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--prices.0.amount');
    expect(wrong.stderr).toContain('--prices.1.currency');
    expect((await cli('products', 'set-prices', '--store', 'Kuwait', '--product', created.id, '--prices', 'JPY=800')).prices).toEqual([{ currency: 'JPY', amount: '800', compare_at_amount: null }]);
    const removing = await outcome('currencies', 'remove', '--store', 'Kuwait', '--currency', 'JPY');
    expect(removing.stderr).toContain('currency_in_use');
    expect(await cli('currencies', 'remove', '--store', 'Kuwait', '--currency', 'JPY', '--delete-prices')).toMatchObject({ currency: 'JPY' });
  }, 300_000);
});
