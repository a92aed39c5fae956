import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

// A store's locales and currencies through the real CLI process (few spawns: CI time is tight).

describeEmbeddedProcesses('npm run cli: locales and currencies', () => {
  it('adds a normalised locale and makes it the default, adds a currency with its minor units, and refuses to remove a default', async () => {
    // Served from the start: the commands go through the service's socket.
    const { outcome, json: cli } = (await servedDataDir(migratedDataDir('catalog-cli-locales-'))).cli;
    await cli('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--password', 'a long password');
    await cli('store', 'create', '--name', 'Wiener', '--currency', 'EUR', '--owner', 'owner@example.test');
    expect(await cli('locales', 'add', '--store', 'Wiener', '--locale', 'de-at')).toEqual({ locale: 'de-AT', name: 'Austrian German', default: false });
    expect(await cli('locales', 'set-default', '--store', 'Wiener', '--locale', 'DE-AT')).toEqual({ locale: 'de-AT', name: 'Austrian German', default: true });
    expect(await cli('currencies', 'add', '--store', 'Wiener', '--currency', 'kwd')).toEqual({ currency: 'KWD', name: 'Kuwaiti Dinar', minor_units: 3, default: false });
    const removing = await outcome('locales', 'remove', '--store', 'Wiener', '--locale', 'de-AT', '--delete-translations');
    expect(removing).toMatchObject({ code: 1, stdout: '' });
    expect(removing.stderr).toBe('error: default_locale_not_removable: "de-AT" is the store\'s default locale and cannot be removed; make another locale the default first\n');
  }, 300_000);
});
