import path from 'node:path';
import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

// Collections through the real CLI process (few spawns: CI time is tight): a manual collection's products added by
// id and SEO slug, moved and removed; a smart one created and its rules changed; listing, errors naming the flags,
// exporting and importing back, and deleting.

describeEmbeddedProcesses('npm run cli: collections', () => {
  it('creates, fills, reorders, shows, updates, lists and deletes collections', async () => {
    const served = await servedDataDir(migratedDataDir('catalog-cli-collections-'));
    const { outcome, json: cli } = served.cli;
    await cli('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--password', 'a long password');
    const store = await cli('store', 'create', '--name', 'Ana', '--currency', 'EUR', '--owner', 'owner@example.test');
    await cli('category', 'create', '--store', 'Ana', '--slug', 'shoes', '--name', 'Shoes');
    const { token } = await cli('token', 'issue', '--user', 'owner@example.test');
    // Products with SEO slugs, through the service the CLI shares the database with.
    const api = async (method: string, path: string, body: unknown) => {
      const res = await fetch(`${served.url}/api/v1/merchant/stores/${store.id}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBeLessThan(300);
      return ((await res.json()) as { data: Record<string, any> }).data;
    };
    const ids: Record<string, string> = {};
    for (const [name, price] of [['Trail runner', 90], ['Sun hat', 20], ['Flip flop', 10]] as const) {
      ids[name] = (await api('POST', '/products', { name, price, category_slugs: ['shoes'], tags: price < 50 ? ['summer'] : [] })).id;
    }
    await api('PUT', `/products/${ids['Trail runner']}/seo`, { slug: 'trail-runner' });
    await api('PUT', `/products/${ids['Sun hat']}/seo`, { slug: 'sun-hat' });

    const created = await cli('collections', 'create', '--store', 'Ana', '--title', 'Staff picks', '--kind', 'manual', '--description', 'Ours', '--published');
    expect(created).toMatchObject({ title: 'Staff picks', slug: 'staff-picks', kind: 'manual', sort: 'manual', published: true, products_count: 0, version: 1 });
    expect(await cli('collections', 'add-products', '--store', 'Ana', '--collection', 'staff-picks', '--products', `trail-runner,SUN-HAT,${ids['Flip flop']}`)).toMatchObject({ products_count: 3, version: 2 });
    await cli('collections', 'move-product', '--store', 'Ana', '--collection', 'staff-picks', '--product', ids['Flip flop'], '--before', 'trail-runner');
    const shown = await cli('collections', 'show', '--store', 'Ana', '--collection', created.id, '--products');
    expect(shown.products.map((p: { name: string }) => p.name)).toEqual(['Flip flop', 'Trail runner', 'Sun hat']);
    expect(shown.products_page).toEqual({ page: 1, has_more: false });
    expect(await cli('collections', 'remove-products', '--store', 'Ana', '--collection', 'staff-picks', '--products', 'sun-hat')).toMatchObject({ products_count: 2, version: 4 });

    const smart = await cli('collections', 'create', '--store', 'Ana', '--title', 'Summer', '--kind', 'smart', '--rules', '[{"field":"tag","operator":"equals","value":"summer"}]', '--sort', 'price_asc');
    expect(smart).toMatchObject({ kind: 'smart', products_count: 2, published: false, membership: { state: 'current' } });
    const updated = await cli('collections', 'update', '--store', 'Ana', '--collection', 'summer', '--rules', '[{"field":"price","operator":"greater_than","value":15}]', '--published');
    expect(updated).toMatchObject({ products_count: 2, published: true, rules: [{ field: 'price', operator: 'greater_than' }] });
    expect((await cli('collections', 'list', '--store', 'Ana')).map((c: { slug: string }) => c.slug)).toEqual(['summer', 'staff-picks']);

    // Errors: an unknown slug names its flag and item; a smart collection takes no products by hand; no change given.
    const unknown = await outcome('collections', 'add-products', '--store', 'Ana', '--collection', 'staff-picks', '--products', 'sun-hat,nope');
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/^error: validation_failed: --products\.1: no product of this catalog has the slug "nope"/);
    expect((await outcome('collections', 'add-products', '--store', 'Ana', '--collection', 'summer', '--products', 'sun-hat')).stderr).toMatch(/^error: collection_is_smart/);
    expect((await outcome('collections', 'update', '--store', 'Ana', '--collection', 'summer')).stderr).toMatch(/give at least one of --title/);

    // Export to a file and import it back: nothing changes.
    const file = path.join(served.dataDir, 'collections.jsonl');
    expect(await cli('collections', 'export', '--store', 'Ana', '--out', file)).toMatchObject({ file, format: 'jsonl', mode: 'live' });
    expect(await cli('collections', 'import', file, '--store', 'Ana')).toMatchObject({ rows: 2, created: 0, updated: 0, unchanged: 2, rejected: 0, errors: [] });

    expect(await cli('collections', 'delete', '--store', 'Ana', '--collection', 'staff-picks')).toMatchObject({ id: created.id, products_count: 2 });
    expect((await outcome('collections', 'show', '--store', 'Ana', '--collection', 'staff-picks')).stderr).toMatch(/^error: not_found/);
  }, 300_000);
});
