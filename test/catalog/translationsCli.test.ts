import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

// Translations through the real CLI process (few spawns: CI time is tight).

describeEmbeddedProcesses('npm run cli: translations', () => {
  it('sets a category translation and reports what is left to translate', async () => {
    // Served from the start: the commands go through the service's socket.
    const { json: cli } = (await servedDataDir(migratedDataDir('catalog-cli-translations-'))).cli;
    await cli('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--password', 'a long password');
    await cli('store', 'create', '--name', 'Berlin', '--currency', 'EUR', '--owner', 'owner@example.test');
    await cli('locales', 'add', '--store', 'Berlin', '--locale', 'de');
    await cli('category', 'create', '--store', 'Berlin', '--slug', 'shoes', '--name', 'Shoes');
    expect(await cli('translations', 'set', '--store', 'Berlin', '--category', 'shoes', '--locale', 'DE', '--translation', '{"name":"Schuhe"}')).toEqual({
      de: { name: 'Schuhe', outdated: false, outdated_fields: [], updated_at: expect.any(String) },
    });
    expect(await cli('translations', 'status', '--store', 'Berlin', '--locale', 'de')).toEqual({
      locale: 'de',
      counts: { product: { total: 0, missing: 0, outdated: 0, todo: 0 }, category: { total: 1, missing: 0, outdated: 0, todo: 0 }, attribute: { total: 0, missing: 0, outdated: 0, todo: 0 } },
      data: [],
      next_cursor: null,
    });
  }, 300_000);
});
