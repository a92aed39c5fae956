import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { testWorker } from '../helpers/webhooks';
import { filePart, form, type Part } from '../images/images';

// Product translations in bulk import and export, through the merchant REST API and its worker: CSV columns per
// locale (name:de, …, options:de, attributes:de) and nested translations in JSON Lines; an export imported back
// changes nothing, imported into another store gives the same translations, and a bad translation is a row error
// naming the cell as the file names it.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const storeBase = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}`;
const req = (s: StoreFixture, method: string, path: string, body?: unknown) => t.request(method, `${storeBase(s)}${path}`, { token: s.ownerToken, body });

/** A store with the locales de and fr and a product type with a translatable text attribute. */
async function translatedStore() {
  const s = await createStoreFixture();
  for (const locale of ['de', 'fr']) expect((await req(s, 'POST', '/locales', { locale })).status).toBe(201);
  const care = await req(s, 'POST', '/attributes', { code: 'care', name: 'Care', type: 'plain_text' });
  expect(care.status).toBe(201);
  expect((await req(s, 'POST', '/product-types', { name: 'Shirt', product_attributes: [{ attribute_id: care.body.data.id }] })).status).toBe(201);
  return s;
}

/** Two translated products and one without translations. */
async function catalog(s: StoreFixture) {
  const types = await req(s, 'GET', '/product-types');
  const typeId = types.body.data.find((x: { name: string }) => x.name === 'Shirt').id;
  const made = [
    {
      name: 'Organic Shirt',
      description: 'Soft cotton',
      price: 20,
      category_slugs: ['shirts'],
      product_type_id: typeId,
      attributes: { care: 'Hand wash' },
      options: [{ name: 'Size', values: ['S', 'M'] }],
      translations: {
        de: {
          name: 'Bio-Hemd',
          description: 'Weiche Baumwolle, "gut", mit Komma',
          seo: { title: 'Bio-Hemd kaufen', description: null, slug: 'bio-hemd' },
          options: { Size: { name: 'Größe', values: { S: 'Klein' } } },
          attributes: { care: 'Handwäsche' },
        },
        fr: { name: 'Chemise bio' },
      },
    },
    { name: 'Plain Hat', price: 9, category_slugs: ['hats'], translations: { fr: { name: 'Chapeau', seo: { slug: 'chapeau' } } } },
    { name: 'Bare Shoe', price: 50, category_slugs: ['shoes'] },
  ];
  for (const body of made) {
    const res = await req(s, 'POST', '/products', body);
    expect([res.status, res.body.errors]).toEqual([201, undefined]);
  }
}

/** Each product's translations by name, as the merchant API shows them, without the bookkeeping fields. */
async function translationsByName(s: StoreFixture) {
  const list = await req(s, 'GET', '/products?per_page=100');
  expect(list.status).toBe(200);
  const out: Record<string, unknown> = {};
  for (const p of list.body.data) {
    const one = await req(s, 'GET', `/products/${p.id}`);
    out[p.name] = Object.fromEntries(
      Object.entries(one.body.data.translations as Record<string, Record<string, unknown>>).map(([l, { updated_at: _u, ...rest }]) => [l, rest]),
    );
  }
  return out;
}

async function imported(s: StoreFixture, file: string, fields: Record<string, string> = {}) {
  const res = await t.request('POST', `${storeBase(s)}/products/imports`, {
    token: s.ownerToken,
    rawBody: form([filePart(Buffer.from(file), 'products.txt', 'text/plain', 'file'), ...Object.entries(fields).map(([name, value]): Part => ({ name, value }))]),
  });
  expect(res.status).toBe(202);
  await testWorker(t).runOnce();
  const job = await t.request('GET', `${storeBase(s)}/products/imports/${res.body.data.id}`, { token: s.ownerToken });
  expect(job.status).toBe(200);
  return job.body.data;
}

const exported = async (s: StoreFixture, format: 'csv' | 'jsonl') => {
  const res = await t.request('GET', `${storeBase(s)}/products/export?format=${format}`, { token: s.ownerToken });
  expect(res.status).toBe(200);
  return res.text;
};

/** The file without product ids, so that it creates its products in another store. */
function withoutIds(file: string, format: 'csv' | 'jsonl') {
  if (format === 'jsonl') {
    return file
      .trim()
      .split('\n')
      .map((l) => {
        const { id: _id, ...rest } = JSON.parse(l);
        return JSON.stringify(rest);
      })
      .join('\n');
  }
  const rows: Record<string, string>[] = parse(file, { columns: true });
  return stringify(rows.map(({ id: _id, ...rest }) => rest), { header: true });
}

test.each(['csv', 'jsonl'] as const)('a translated catalog exported as %s imports back unchanged, and into another store with the same translations', async (format) => {
  const s = await translatedStore();
  await catalog(s);
  const before = await translationsByName(s);
  const file = await exported(s, format);
  if (format === 'csv') {
    const header = parse(file, { to_line: 1 })[0] as string[];
    expect(header.slice(-14)).toEqual(['de', 'fr'].flatMap((l) => ['name', 'description', 'seo_title', 'seo_description', 'slug', 'options', 'attributes'].map((f) => `${f}:${l}`)));
  } else {
    const first = JSON.parse(file.split('\n')[0]);
    expect(first.translations.de).toEqual({
      name: 'Bio-Hemd',
      description: 'Weiche Baumwolle, "gut", mit Komma',
      seo: { title: 'Bio-Hemd kaufen', description: null, slug: 'bio-hemd' },
      options: { Size: { name: 'Größe', values: { S: 'Klein' } } },
      attributes: { care: 'Handwäsche' },
    });
  }

  const back = await imported(s, file, { format });
  expect(back).toMatchObject({ status: 'succeeded', counts: { created: 0, updated: 0, unchanged: 3, rejected: 0 } });
  expect(await translationsByName(s)).toEqual(before);

  const other = await translatedStore();
  const copied = await imported(other, withoutIds(file, format), { format });
  expect(copied).toMatchObject({ status: 'succeeded', counts: { created: 3, rejected: 0 }, errors: [] });
  expect(await translationsByName(other)).toEqual(before);
});

test('CSV: a changed cell writes that field alone; an empty cell clears it; the options cell is the whole set', async () => {
  const s = await translatedStore();
  await catalog(s);
  // The source name changes: its translations are outdated, and stay so through an import that leaves them as they are.
  const list = await req(s, 'GET', '/products?per_page=100');
  const shirt = list.body.data.find((p: { name: string }) => p.name === 'Organic Shirt');
  expect((await req(s, 'PUT', `/products/${shirt.id}`, { name: 'Organic Tee' })).status).toBe(200);
  const rows: Record<string, string>[] = parse(await exported(s, 'csv'), { columns: true });
  const row = rows.find((r) => r.id === shirt.id)!;
  const unchanged = await imported(s, stringify(rows, { header: true }));
  expect(unchanged.counts).toMatchObject({ updated: 0, unchanged: 3 });
  row['description:de'] = '';
  row['name:fr'] = 'Tee-shirt bio';
  row['options:de'] = JSON.stringify({ Size: { values: { M: 'Mittel' } } });
  const changed = await imported(s, stringify([{ id: row.id, 'description:de': '', 'name:fr': row['name:fr'], 'options:de': row['options:de'] }], { header: true }));
  expect(changed).toMatchObject({ status: 'succeeded', counts: { updated: 1, rejected: 0 } });
  const after = (await req(s, 'GET', `/products/${shirt.id}`)).body.data.translations;
  expect(after.de).toMatchObject({ name: 'Bio-Hemd', description: null, options: { Size: { values: { M: 'Mittel' } } }, outdated_fields: ['name'] });
  expect(after.fr).toMatchObject({ name: 'Tee-shirt bio', outdated: false });
  const history = await req(s, 'GET', `/products/${shirt.id}/changes?limit=1`);
  if (history.status === 200) expect(history.body.data[0].type).toBe('translation.updated');
});

test('row errors name the cell: CSV columns, JSON Lines paths; a locale the store lacks rejects the row', async () => {
  const s = await translatedStore();
  await catalog(s);
  const sized = (sku: string) => JSON.stringify([{ sku, options: { Size: 'S' } }]);
  const csvFile = stringify([
    ['sku', 'name', 'price', 'category_slugs', 'variants', 'name:it', 'name:de', 'slug:de', 'options:de', 'attributes:de', 'name:EN'],
    ['T-1', 'One', '5', 'shoes', '', 'Uno', 'Eins', '', '', '', 'One'],
    ['T-2', 'Two', '5', 'shoes', sized('T-2'), '', 'Zwei', 'Not A Slug!', '{"Colour":{"name":"Farbe"}}', '{not json', ''],
    ['T-3', 'Three', '5', 'shoes', '', '', 'Drei', 'bio-hemd', '', '', ''],
    ['T-4', 'Four', '5', 'shoes', sized('T-4'), '', 'Vier', 'vier', '{"Size":{"name":"Größe","values":{"S":"Klein"}}}', '', ''],
  ]);
  const job = await imported(s, csvFile, { error_policy: 'reject_failed_rows' });
  expect(job.counts).toMatchObject({ created: 1, rejected: 3 });
  // A cell that does not convert is reported alone (the row's translations are checked once it converts).
  expect(job.errors.map((e: { row: number; field: string; code: string }) => `${e.row} ${e.field} ${e.code}`)).toEqual([
    '2 name:it locale_not_enabled',
    '2 name:EN default_locale',
    '3 attributes:de invalid_type',
    '4 slug:de slug_taken',
  ]);
  const four = (await req(s, 'GET', '/products?search=Four')).body.data[0];
  expect((await req(s, 'GET', `/products/${four.id}`)).body.data.translations.de).toMatchObject({ name: 'Vier', seo: { slug: 'vier' }, options: { Size: { name: 'Größe', values: { S: 'Klein' } } } });

  // Once its cells convert, the row's translation errors of both locales are reported together, beside its other errors.
  const fixed = await imported(s, stringify([['sku', 'name', 'price', 'category_slugs', 'variants', 'slug:de', 'options:fr'], ['T-2', 'Two', '-5', 'shoes', sized('T-2'), 'Not A Slug!', '{"Colour":{"name":"Couleur"}}']]));
  expect(fixed.errors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`)).toEqual([expect.stringMatching(/^price /), 'slug:de invalid_value', 'options:fr.Colour unknown_option']);

  // An update's translation errors too, beside its other errors; a translation it leaves as it is is not checked again.
  const update = await imported(s, stringify([['sku', 'price', 'name:de', 'name:it', 'options:de'], ['T-4', '-1', 'Vier', 'Quattro', '{"Size":{"name":"Größe","values":{"S":"Klein","XL":"Riesig"}}}']]));
  expect(update.errors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`)).toEqual([
    expect.stringMatching(/^price /),
    'name:it locale_not_enabled',
    'options:de.Size.values.XL unknown_option_value',
  ]);

  const jsonl = [
    JSON.stringify({ sku: 'J-1', name: 'J', price: 5, category_slugs: ['shoes'], translations: { it: { name: 'Gi' } } }),
    JSON.stringify({ sku: 'J-2', name: 'J2', price: 5, category_slugs: ['shoes'], translations: { de: { name: 'J2', options: { Colour: { name: 'Farbe' } } } } }),
    JSON.stringify({ sku: 'J-3', name: 'J3', price: 5, category_slugs: ['shoes'], translations: ['de'] }),
  ].join('\n');
  const j = await imported(s, jsonl, { format: 'jsonl', error_policy: 'reject_failed_rows' });
  expect(j.errors.map((e: { row: number; field: string; code: string }) => `${e.row} ${e.field} ${e.code}`)).toEqual([
    '1 translations.it locale_not_enabled',
    '2 translations.de.options.Colour unknown_option',
    '3 translations invalid_type',
  ]);
});

test.each(['csv', 'jsonl'] as const)('a translated catalog with prices in further currencies survives a %s round trip into another store', async (format) => {
  const shop = async () => {
    const s = await createStoreFixture({ currency: 'EUR' });
    expect((await req(s, 'POST', '/locales', { locale: 'de' })).status).toBe(201);
    for (const currency of ['JPY', 'KWD']) expect((await req(s, 'POST', '/currencies', { currency })).status).toBe(201);
    return s;
  };
  const s = await shop();
  const made = [
    { name: 'Green tea', price: 12, category_slugs: ['shoes'], prices: [{ currency: 'JPY', amount: '1800' }, { currency: 'KWD', amount: '1.250', compare_at_amount: '1.500' }], translations: { de: { name: 'Grüner Tee' } } },
    { name: 'Tea pot', price: 30, category_slugs: ['shoes'], prices: [{ currency: 'KWD', amount: '9.000' }], translations: { de: { name: 'Teekanne', seo: { slug: 'teekanne' } } } },
    { name: 'Tea mug', price: 8, category_slugs: ['shoes'] },
  ];
  for (const body of made) expect((await req(s, 'POST', '/products', body)).status).toBe(201);
  const shown = async (store: StoreFixture) => {
    const list = await req(store, 'GET', '/products?per_page=100&sort=name');
    return Promise.all(
      list.body.data.map(async (p: { id: string }) => {
        const { name, price, prices, translations } = (await req(store, 'GET', `/products/${p.id}`)).body.data;
        return { name, price, prices, translations: Object.fromEntries(Object.entries(translations as Record<string, Record<string, unknown>>).map(([l, { updated_at: _u, ...rest }]) => [l, rest])) };
      }),
    );
  };
  const before = await shown(s);
  expect(before[0]).toMatchObject({ name: 'Green tea', prices: [{ currency: 'JPY', amount: '1800' }, { currency: 'KWD', amount: '1.250', compare_at_amount: '1.500' }], translations: { de: { name: 'Grüner Tee' } } });
  const file = await exported(s, format);
  if (format === 'csv') {
    const header = parse(file, { to_line: 1 })[0] as string[];
    expect(header).toEqual(expect.arrayContaining(['price:JPY', 'compare_at_price:JPY', 'price:KWD', 'compare_at_price:KWD', 'name:de', 'slug:de']));
  }
  const other = await shop();
  const copied = await imported(other, withoutIds(file, format), { format });
  expect(copied).toMatchObject({ status: 'succeeded', counts: { created: 3, rejected: 0 }, errors: [] });
  expect(await shown(other)).toEqual(before);
});
