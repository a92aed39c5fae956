import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { expectGqlError, expectProblem, gqlData } from '../products/helpers';

// Translations through the real HTTP handler: written on the product (translations: {"de": {…}}) and one locale at a
// time (PUT …/translations/{locale}), checked against the store's locales and the product's own options and
// attributes, marked outdated when the default-locale text changes, and counted by the status endpoint.

let t: TestServer;
let a: StoreFixture;

const base = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}`;
const req = (method: string, path: string, body?: unknown, token = a.ownerToken) => t.request(method, path, { token, body });

let productId: string;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  for (const locale of ['de', 'fr']) expect((await req('POST', `${base(a)}/locales`, { locale })).status).toBe(201);
  const care = await req('POST', `${base(a)}/attributes`, { code: 'care', name: 'Care', type: 'plain_text' });
  const material = await req('POST', `${base(a)}/attributes`, { code: 'material', name: 'Material', type: 'dropdown', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }] });
  const type = await req('POST', `${base(a)}/product-types`, {
    name: 'Shirt',
    product_attributes: [{ attribute_id: care.body.data.id }, { attribute_id: material.body.data.id }],
  });
  expect(type.status).toBe(201);
  const created = await req('POST', `${base(a)}/products`, {
    name: 'Organic Shirt',
    description: 'Soft cotton',
    price: 20,
    category_slugs: ['shirts'],
    product_type_id: type.body.data.id,
    attributes: { care: 'Hand wash', material: 'cotton' },
    options: [{ name: 'Size', values: ['S', 'M'] }],
    translations: { de: { name: 'Bio-Hemd', options: { Size: { name: 'Größe', values: { S: 'Klein' } } } } },
  });
  expect(created.status).toBe(201);
  productId = created.body.data.id;
});
afterAll(() => t.close());

const productUrl = () => `${base(a)}/products/${productId}`;

describe('product translations', () => {
  it('are written with the product and read back on it, by locale', async () => {
    const read = await req('GET', productUrl());
    expect(read.body.data.translations).toEqual({
      de: {
        name: 'Bio-Hemd',
        description: null,
        seo: { title: null, description: null, slug: null },
        options: { Size: { name: 'Größe', values: { S: 'Klein' } } },
        attributes: {},
        outdated: false,
        outdated_fields: [],
        updated_at: expect.any(String),
      },
    });
  });

  it('PUT …/translations/{locale} sets one locale whole; an update merges per locale and null removes one', async () => {
    const put = await req('PUT', `${productUrl()}/translations/FR`, { name: 'Chemise bio', seo: { slug: 'chemise-bio' }, attributes: { care: 'Lavage à la main' } });
    expect(put.status).toBe(200);
    expect(put.body.data.translations.fr).toMatchObject({ name: 'Chemise bio', seo: { title: null, description: null, slug: 'chemise-bio' }, attributes: { care: 'Lavage à la main' } });
    expect(put.headers.get('etag')).toBe(`"v${put.body.data.version}"`);

    const merged = await req('PUT', productUrl(), { translations: { de: { description: 'Weiche Baumwolle' } } });
    expect(merged.status).toBe(200);
    expect(merged.body.data.translations.de).toMatchObject({ name: 'Bio-Hemd', description: 'Weiche Baumwolle', options: { Size: { name: 'Größe' } } });
    expect(merged.body.data.version).toBe(put.body.data.version + 1);

    const history = (await req('GET', `${productUrl()}/changes?type=translation.updated`)).body.data;
    expect(history[0]).toMatchObject({ type: 'translation.updated', resource: { type: 'product', id: productId } });
    expect(history[0].changes).toEqual([{ field: 'translations.de.description', previous: null, next: 'Weiche Baumwolle' }]);
    expect(history[1].changes).toEqual(
      expect.arrayContaining([
        { field: 'translations.fr.name', previous: null, next: 'Chemise bio' },
        { field: 'translations.fr.seo.slug', previous: null, next: 'chemise-bio' },
      ]),
    );

    const removed = await req('PUT', productUrl(), { translations: { fr: null } });
    expect(Object.keys(removed.body.data.translations)).toEqual(['de']);
    expect((await req('PUT', `${productUrl()}/translations/fr`, { name: 'Chemise bio', seo: { slug: 'chemise-bio' } })).status).toBe(200);
  });

  it('refuses every error at once, naming the field as sent', async () => {
    const res = await req('PUT', `${productUrl()}/translations/de`, {
      name: '',
      options: { Colour: { name: 'Farbe' }, Size: { values: { XL: 'Riesig' } } },
      attributes: { material: 'Baumwolle', unknown: 'x' },
      seo: { slug: 'Not A Slug' },
    });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => [e.field, e.code]).sort()).toEqual(
      [
        ['name', 'too_small'],
        ['seo.slug', 'invalid_value'],
      ].sort(),
    );
    const sources = expectProblem(await req('PUT', `${productUrl()}/translations/de`, { options: { Colour: { name: 'Farbe' }, Size: { values: { XL: 'Riesig' } } }, attributes: { material: 'Baumwolle', unknown: 'x' } }), 422, 'validation_failed');
    expect(sources.errors!.map((e) => [e.field, e.code]).sort()).toEqual(
      [
        ['options.Colour', 'unknown_option'],
        ['options.Size.values.XL', 'unknown_option_value'],
        ['attributes.material', 'not_translatable'],
        ['attributes.unknown', 'unknown_attribute'],
      ].sort(),
    );
    expect(expectProblem(await req('PUT', `${productUrl()}/translations/en`, { name: 'x' }), 422, 'validation_failed').errors).toEqual([
      { field: 'locale', code: 'default_locale', message: expect.any(String) },
    ]);
    expect(expectProblem(await req('PUT', productUrl(), { translations: { it: { name: 'Camicia' }, de: { colour: 'x' } } }), 422, 'validation_failed').errors).toEqual([
      { field: 'translations.it', code: 'locale_not_enabled', message: expect.any(String) },
      { field: 'translations.de.colour', code: 'unknown_field', message: expect.any(String) },
    ]);
  });

  it('keeps a translated slug unique per store, mode and locale', async () => {
    const other = await req('POST', `${base(a)}/products`, { name: 'Other', price: 1, category_slugs: ['shirts'] });
    const taken = expectProblem(await req('PUT', `${base(a)}/products/${other.body.data.id}/translations/fr`, { seo: { slug: 'chemise-bio' } }), 409, 'slug_taken');
    expect(taken.errors).toEqual([{ field: 'seo.slug', code: 'slug_taken', message: expect.any(String) }]);
    // Another locale has slugs of its own.
    expect((await req('PUT', `${base(a)}/products/${other.body.data.id}/translations/de`, { seo: { slug: 'chemise-bio' } })).status).toBe(200);
  });

  it('marks a translated field outdated when its source changes, and writing it again clears the mark', async () => {
    await req('PUT', productUrl(), { name: 'Organic Cotton Shirt', attributes: { care: 'Machine wash' } });
    let read = (await req('GET', productUrl())).body.data.translations;
    expect(read.de).toMatchObject({ outdated: true, outdated_fields: ['name'] });
    expect(read.fr).toMatchObject({ outdated: true, outdated_fields: ['name'] });

    await req('PUT', `${productUrl()}/options`, { options: [{ name: 'Size', values: ['S', 'M', 'L'] }] });
    await req('PUT', `${productUrl()}/seo`, { slug: 'organic-cotton-shirt' });
    read = (await req('GET', productUrl())).body.data.translations;
    expect(read.de.outdated_fields).toEqual(['name', 'options.Size']);

    await req('PUT', productUrl(), { translations: { de: { name: 'Bio-Baumwollhemd' } } });
    read = (await req('GET', productUrl())).body.data.translations;
    expect(read.de).toMatchObject({ outdated: true, outdated_fields: ['options.Size'] });
    const rewritten = await req('PUT', `${productUrl()}/translations/de`, { name: 'Bio-Baumwollhemd', options: { Size: { name: 'Größe' } } });
    expect(rewritten.body.data.translations.de).toMatchObject({ outdated: false, outdated_fields: [] });

    // A name changed and translated in one write is current.
    const both = await req('PUT', productUrl(), { name: 'Organic Shirt', translations: { fr: { name: 'Chemise' } } });
    // (Its slug's source changed above and stays outdated.)
    expect(both.body.data.translations.fr).toMatchObject({ name: 'Chemise', outdated_fields: ['seo.slug'] });
    expect(both.body.data.translations.de.outdated_fields).toEqual(['name']);
  });

  it('over GraphQL: the translations field and the set and remove mutations', async () => {
    const set = await t.graphql(
      `mutation($s: ID!, $p: ID!) { setProductTranslation(storeId: $s, productId: $p, locale: "fr", translation: {name: "Chemise", seo: {title: "Chemise bio"}}) { translations } }`,
      { s: a.storeId, p: productId },
      { token: a.ownerToken },
    );
    expect(gqlData(set).setProductTranslation.translations.fr).toMatchObject({ name: 'Chemise', seo: { title: 'Chemise bio', slug: null } });
    expectGqlError(await t.graphql(`mutation($s: ID!, $p: ID!) { setProductTranslation(storeId: $s, productId: $p, locale: "it", translation: {name: "x"}) { id } }`, { s: a.storeId, p: productId }, { token: a.ownerToken }), 'validation_failed');
    const removed = await t.graphql(`mutation($s: ID!, $p: ID!) { removeProductTranslation(storeId: $s, productId: $p, locale: "fr") { translations } }`, { s: a.storeId, p: productId }, { token: a.ownerToken });
    expect(Object.keys(gqlData(removed).removeProductTranslation.translations)).toEqual(['de']);
    expectProblem(await req('DELETE', `${productUrl()}/translations/fr`), 404, 'not_found');
    const history = (await req('GET', `${productUrl()}/changes?type=translation.deleted`)).body.data;
    expect(history[0].changes).toEqual(expect.arrayContaining([{ field: 'translations.fr.name', previous: 'Chemise', next: null }]));
  });
});

describe('store locales that translations use', () => {
  it('are removed only with delete_translations=true, which deletes them, and cannot become the default', async () => {
    const s = await createStoreFixture();
    await req('POST', `${base(s)}/locales`, { locale: 'de' }, s.ownerToken);
    const p = await req('POST', `${base(s)}/products`, { name: 'Shoe', price: 1, category_slugs: ['shoes'], translations: { de: { name: 'Schuh' } } }, s.ownerToken);
    expect(p.status).toBe(201);

    const refused = expectProblem(await req('DELETE', `${base(s)}/locales/de`, undefined, s.ownerToken), 409, 'locale_has_translations');
    expect(refused).toMatchObject({ locale: 'de', translations: 1 });
    expectProblem(await req('PATCH', `${base(s)}/locales/de`, { default: true }, s.ownerToken), 409, 'locale_has_translations');

    expect((await req('DELETE', `${base(s)}/locales/de?delete_translations=true`, undefined, s.ownerToken)).status).toBe(204);
    expect((await req('GET', `${base(s)}/products/${p.body.data.id}`, undefined, s.ownerToken)).body.data.translations).toEqual({});
    // Added again, it starts empty, and with no translation it may become the default.
    await req('POST', `${base(s)}/locales`, { locale: 'de' }, s.ownerToken);
    expect((await req('PATCH', `${base(s)}/locales/de`, { default: true }, s.ownerToken)).status).toBe(200);
  });
});

describe('translation status', () => {
  it('counts per kind what is missing or outdated in a locale and pages through those items', async () => {
    const s = await createStoreFixture({ categories: ['shoes'] });
    await req('POST', `${base(s)}/locales`, { locale: 'de' }, s.ownerToken);
    const done = await req('POST', `${base(s)}/products`, { name: 'Done', price: 1, category_slugs: ['shoes'], translations: { de: { name: 'Fertig' } } }, s.ownerToken);
    const stale = await req('POST', `${base(s)}/products`, { name: 'Stale', description: 'Old text', price: 1, category_slugs: ['shoes'], translations: { de: { name: 'Alt', description: 'Alter Text' } } }, s.ownerToken);
    const none = await req('POST', `${base(s)}/products`, { name: 'None', price: 1, category_slugs: ['shoes'], options: [{ name: 'Size', values: ['S'] }] }, s.ownerToken);
    await req('PUT', `${base(s)}/products/${stale.body.data.id}`, { description: 'New text' }, s.ownerToken);

    const status = await req('GET', `${base(s)}/translations/status?locale=de&limit=2`, undefined, s.ownerToken);
    expect(status.status).toBe(200);
    expect(status.body.meta).toMatchObject({
      locale: 'de',
      limit: 2,
      has_more: true,
      counts: { product: { total: 3, missing: 1, outdated: 1, todo: 2 }, category: { total: 1, missing: 1, outdated: 0, todo: 1 }, attribute: { total: 0, todo: 0 } },
    });
    const ids = [stale.body.data.id, none.body.data.id].sort();
    expect(status.body.data.map((i: any) => i.id)).toEqual(ids);
    expect(status.body.data.find((i: any) => i.id === none.body.data.id)).toEqual({ kind: 'product', id: none.body.data.id, name: 'None', missing_fields: ['name', 'options.Size'], outdated_fields: [] });
    expect(status.body.data.find((i: any) => i.id === stale.body.data.id)).toMatchObject({ missing_fields: [], outdated_fields: ['description'] });
    expect(status.body.data.some((i: any) => i.id === done.body.data.id)).toBe(false);

    const next = await req('GET', `${base(s)}/translations/status?locale=de&limit=2&after=${status.body.meta.next_cursor}`, undefined, s.ownerToken);
    expect(next.body.data).toEqual([{ kind: 'category', id: expect.any(String), name: 'shoes', missing_fields: ['name'], outdated_fields: [] }]);
    expect(next.body.meta.has_more).toBe(false);

    const onlyCategories = await req('GET', `${base(s)}/translations/status?locale=de&kind=category`, undefined, s.ownerToken);
    expect(Object.keys(onlyCategories.body.meta.counts)).toEqual(['category']);
    expect(expectProblem(await req('GET', `${base(s)}/translations/status?locale=en`, undefined, s.ownerToken), 422, 'validation_failed').errors).toEqual([
      { field: 'locale', code: 'default_locale', message: expect.any(String) },
    ]);

    const gql = await t.graphql(
      `query($s: ID!) { translationStatus(storeId: $s, locale: "de", kind: product, first: 1) { locale counts { kind todo } edges { node { kind name missingFields outdatedFields } } pageInfo { hasNextPage } } }`,
      { s: s.storeId },
      { token: s.ownerToken },
    );
    expect(gqlData(gql).translationStatus).toMatchObject({ locale: 'de', counts: [{ kind: 'product', todo: 2 }], pageInfo: { hasNextPage: true } });
  });
});

describe('category and attribute translations', () => {
  it('translate names and value labels, are marked outdated when those change, and record their history', async () => {
    const s = await createStoreFixture({ categories: ['shoes'] });
    await req('POST', `${base(s)}/locales`, { locale: 'de' }, s.ownerToken);
    const attr = await req('POST', `${base(s)}/attributes`, { code: 'material', name: 'Material', type: 'dropdown', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }] }, s.ownerToken);
    const url = `${base(s)}/attributes/material/translations/de`;

    const set = await req('PUT', url, { name: 'Material', values: { cotton: 'Baumwolle' } }, s.ownerToken);
    expect(set.status).toBe(200);
    expect(set.body.data.translations.de).toMatchObject({ name: 'Material', values: { cotton: 'Baumwolle' }, outdated: false });
    expect(set.body.data.version).toBe(attr.body.data.version + 1);
    expect(expectProblem(await req('PUT', url, { values: { wool: 'Wolle' } }, s.ownerToken), 422, 'validation_failed').errors).toEqual([
      { field: 'values.wool', code: 'unknown_value', message: expect.any(String) },
    ]);

    await req('PATCH', `${base(s)}/attributes/material`, { values: [{ value: 'cotton', name: 'Organic cotton' }, { value: 'linen', name: 'Linen' }] }, s.ownerToken);
    expect((await req('GET', `${base(s)}/attributes/material`, undefined, s.ownerToken)).body.data.translations.de.outdated_fields).toEqual(['values.cotton']);
    expect((await req('PUT', url, { name: 'Material', values: { cotton: 'Bio-Baumwolle' } }, s.ownerToken)).body.data.translations.de.outdated).toBe(false);

    const category = `mutation($s: ID!, $n: String) { setCategoryTranslation(storeId: $s, category: "shoes", locale: "de", translation: {name: $n}) { name translations } }`;
    expect(gqlData(await t.graphql(category, { s: s.storeId, n: 'Schuhe' }, { token: s.ownerToken })).setCategoryTranslation.translations.de).toMatchObject({ name: 'Schuhe', outdated: false });
    await t.graphql(`mutation($s: ID!) { updateCategory(storeId: $s, category: "shoes", input: {name: "Shoes"}) { id } }`, { s: s.storeId }, { token: s.ownerToken });
    const status = await req('GET', `${base(s)}/translations/status?locale=de&kind=category`, undefined, s.ownerToken);
    expect(status.body.data).toEqual([expect.objectContaining({ kind: 'category', name: 'Shoes', missing_fields: [], outdated_fields: ['name'] })]);

    const history = (await req('GET', `${base(s)}/changes?type=translation.updated`, undefined, s.ownerToken)).body.data;
    expect(history.map((e: any) => [e.resource.type, e.mode, e.changes.map((c: any) => c.field)])).toEqual([
      ['category', 'live', ['translations.de.name']],
      ['attribute', 'live', ['translations.de.values.cotton']],
      ['attribute', 'live', ['translations.de.name', 'translations.de.values.cotton']],
    ]);
    expect((await req('DELETE', url, undefined, s.ownerToken)).status).toBe(204);
    const removed = await t.graphql(`mutation($s: ID!) { removeCategoryTranslation(storeId: $s, category: "shoes", locale: "de") { translations } }`, { s: s.storeId }, { token: s.ownerToken });
    expect(gqlData(removed).removeCategoryTranslation.translations).toEqual({});
  });
});
