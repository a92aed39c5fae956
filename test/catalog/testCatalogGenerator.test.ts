import { db } from '../../src/platform/db/client';
import { isValidGtin } from '../../src/kernel/gtin';
import { MAX_GENERATED_PRODUCTS, MAX_GENERATED_VARIANTS } from '../../src/catalog/services/testCatalogGenerator';
import { cliOn, servedDataDir } from '../helpers/cli';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';
import { expectGqlError, expectProblem, gqlData } from '../products/helpers';

/**
 * The test catalog's generator (issue 27): fake products in the test catalog with options, a variant per
 * combination carrying the rich variant fields, and valid values for the store's own product types'
 * attributes, through REST and GraphQL on the real database.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const base = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}`;
const generate = (s: StoreFixture, body: unknown, opts: { token?: string; mode?: 'live' | 'test' } = {}) =>
  t.request('POST', `${base(s)}/test-catalog/generate`, { token: opts.token ?? s.ownerToken, body, headers: opts.mode ? { 'x-service-mode': opts.mode } : undefined });

const DROPDOWN = ['cotton', 'linen', 'wool'];
const MULTI = ['waterproof', 'breathable', 'recycled'];

/**
 * The store's attributes and two product types, written to the rows directly (this test is about what the
 * generator reads, whatever wrote them): "Apparel" with one attribute of each kind at product level (material
 * required) and a variant-level swatch; "Gift card" with no attributes.
 */
async function typedStore() {
  const s = await createStoreFixture();
  const attribute = (code: string, type: string, extra: Record<string, unknown> = {}) =>
    db().attribute.create({ data: { storeId: s.storeId, code, name: code, type: type as never, ...extra } });
  const attrs = [
    await attribute('material', 'dropdown', { values: DROPDOWN.map((value) => ({ value, name: value })) }),
    await attribute('features', 'multiselect', { values: MULTI.map((value) => ({ value, name: value })) }),
    await attribute('length', 'numeric', { unit: 'cm' }),
    await attribute('washable', 'boolean'),
    await attribute('released', 'date'),
    await attribute('launch', 'date_time'),
    await attribute('care', 'plain_text'),
    await attribute('story', 'rich_text'),
    await attribute('related', 'reference', { referenceType: 'category' }),
  ];
  const shade = await attribute('shade', 'swatch', { values: [{ value: 'sky', name: 'Sky', hex: '#87ceeb' }] });
  const apparel = await db().productType.create({
    data: {
      storeId: s.storeId,
      name: 'Apparel',
      attributes: {
        create: [
          ...attrs.map((a, i) => ({ attributeId: a.id, level: 'product' as const, required: a.code === 'material', position: i })),
          { attributeId: shade.id, level: 'variant' as const, required: true, position: attrs.length },
        ],
      },
    },
  });
  const giftCard = await db().productType.create({ data: { storeId: s.storeId, name: 'Gift card' } });
  return { s, apparel, giftCard };
}

const storedProducts = (ids: string[]) =>
  db().product.findMany({ where: { id: { in: ids } }, include: { variants: { orderBy: { position: 'asc' } }, categories: true }, orderBy: { id: 'asc' } });

describe('generating test products', () => {
  it('makes products in the test catalog with options, a variant per combination, rich variant fields and valid attribute values', async () => {
    const { s, apparel, giftCard } = await typedStore();
    const res = await generate(s, { count: 12, seed: 42 });
    expect(res.status).toBe(201);
    const made: { id: string; name: string; variants_count: number }[] = res.body.data;
    expect(made).toHaveLength(12);

    // In the test catalog only, whatever the request's mode (live here).
    const inMode = async (mode: string) => (await t.request('GET', `${base(s)}/products?per_page=100`, { token: s.ownerToken, headers: { 'x-service-mode': mode } })).body.meta.total;
    expect(await inMode('test')).toBe(12);
    expect(await inMode('live')).toBe(0);

    const rows = await storedProducts(made.map((p) => p.id));
    const categoryIds = (await db().category.findMany({ where: { storeId: s.storeId } })).map((c) => c.id);
    const seenTypes = new Set<string | null>();
    for (const p of rows) {
      expect(p.mode).toBe('test');
      expect(made.find((m) => m.id === p.id)!.variants_count).toBe(p.variants.length);
      expect(p.categories).toHaveLength(1);
      expect(categoryIds).toContain(p.categories[0].categoryId);

      // 2 or 3 options of 2-4 values, and exactly one variant per combination.
      const options = p.options as { name: string; values: string[] }[];
      expect(options.length).toBeGreaterThanOrEqual(2);
      expect(options.length).toBeLessThanOrEqual(3);
      for (const o of options) expect(new Set(o.values).size).toBe(o.values.length);
      const combinations = options.reduce((n, o) => n * o.values.length, 1);
      expect(combinations).toBeLessThanOrEqual(MAX_GENERATED_VARIANTS);
      expect(p.variants).toHaveLength(combinations);
      expect(new Set(p.variants.map((v) => v.optionsKey)).size).toBe(combinations);
      for (const v of p.variants) {
        const map = v.options as Record<string, string>;
        expect(Object.keys(map).sort()).toEqual(options.map((o) => o.name).sort());
        for (const o of options) expect(o.values).toContain(map[o.name]);
        expect(isValidGtin(v.barcode!)).toBe(true);
        expect(v.barcode).toMatch(/^2\d{12}$/);
        expect(Number(v.cost)).toBeGreaterThan(0);
        expect(Number(v.cost)).toBeLessThan(Number(v.price));
        if (v.compareAtPrice !== null) expect(Number(v.compareAtPrice)).toBeGreaterThan(Number(v.price));
        expect(Number(v.weightValue)).toBeGreaterThan(0);
        expect(['g', 'kg', 'oz', 'lb']).toContain(v.weightUnit);
        expect(v.imageId).toBeNull();
      }
      // The search text covers the SKUs, as for a product made by hand.
      for (const v of p.variants) expect(p.searchText).toContain(v.sku.toLowerCase());

      // One of the store's types with values its attributes accept; a type without attributes gives none.
      seenTypes.add(p.productTypeId);
      const attributes = p.attributes as Record<string, unknown>;
      if (p.productTypeId === giftCard.id) expect(attributes).toEqual({});
      else {
        expect(p.productTypeId).toBe(apparel.id);
        expect(DROPDOWN).toContain(attributes.material);
        const a = attributes as Record<string, any>;
        if ('features' in a) expect(a.features.every((f: string) => MULTI.includes(f)) && a.features.length >= 1).toBe(true);
        if ('length' in a) expect(typeof a.length).toBe('number');
        if ('washable' in a) expect(typeof a.washable).toBe('boolean');
        if ('released' in a) expect(a.released).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if ('launch' in a) expect(new Date(a.launch).toISOString()).toBe(a.launch);
        if ('care' in a) expect(typeof a.care).toBe('string');
        if ('story' in a) expect(a.story).toMatch(/^<p>.*<\/p>$/);
        if ('related' in a) expect(categoryIds).toContain(a.related);
        expect(Object.keys(a).every((k) => ['material', 'features', 'length', 'washable', 'released', 'launch', 'care', 'story', 'related'].includes(k))).toBe(true);
        for (const v of p.variants) expect(v.attributes).toEqual({ shade: 'sky' });
      }
      if (p.productTypeId !== apparel.id) for (const v of p.variants) expect(v.attributes).toEqual({});
    }
    expect(seenTypes).toEqual(new Set([apparel.id, giftCard.id]));
    // Some compare-at prices, not on every product.
    const withCompareAt = rows.filter((p) => p.variants.some((v) => v.compareAtPrice !== null)).length;
    expect(withCompareAt).toBeGreaterThan(0);
    expect(withCompareAt).toBeLessThan(rows.length);
    // The generator created no attribute and no type.
    expect(await db().attribute.count({ where: { storeId: s.storeId } })).toBe(10);
    expect(await db().productType.count({ where: { storeId: s.storeId } })).toBe(2);

    // Each product recorded as product.created in test mode.
    const events = await db().event.findMany({ where: { storeId: s.storeId, type: 'product.created' } });
    expect(events.map((e) => e.mode)).toEqual(Array(12).fill('test'));
    expect(new Set(events.map((e) => e.resourceId))).toEqual(new Set(made.map((p) => p.id)));
  });

  it('gives the same products again for the same seed, with new SKUs', async () => {
    const { s } = await typedStore();
    const first = (await generate(s, { count: 3, seed: 7 })).body.data;
    const second = await generate(s, { count: 3, seed: 7 }, { mode: 'test' });
    expect(second.status).toBe(201);
    const shape = (p: Record<string, unknown>) => ({ name: p.name, price: p.price, tags: p.tags, variants_count: p.variants_count });
    expect(second.body.data.map(shape)).toEqual(first.map(shape));
    const skus = await db().variant.findMany({ where: { storeId: s.storeId, mode: 'test' }, select: { sku: true } });
    expect(new Set(skus.map((v) => v.sku)).size).toBe(skus.length);
  });

  it('translates the products into the store\'s further locales, deterministically per seed; the products stay those of a store without them', async () => {
    const plain = await createStoreFixture();
    const localised = await createStoreFixture();
    for (const locale of ['de', 'ja']) expect((await t.request('POST', `${base(localised)}/locales`, { token: localised.ownerToken, body: { locale } })).status).toBe(201);
    const made = async (s: StoreFixture) => (await generate(s, { count: 16, seed: 11 })).body.data as Record<string, unknown>[];
    const shape = (p: Record<string, unknown>) => ({ name: p.name, description: p.description, price: p.price, tags: p.tags, options: p.options, variants_count: p.variants_count });
    const withoutLocales = await made(plain);
    const first = await made(localised);
    expect(first.map(shape)).toEqual(withoutLocales.map(shape));
    for (const p of withoutLocales) expect(p.translations).toEqual({});

    const translations = first.map((p) => p.translations as Record<string, { name: string; description: string; options: Record<string, { name: string; values: Record<string, string> }>; outdated: boolean }>);
    // Most products are translated in each locale, some are left for the translation status to show.
    for (const locale of ['de', 'ja']) expect(translations.filter((x) => x[locale]).length).toBeGreaterThanOrEqual(10);
    expect(translations.some((x) => !x.de || !x.ja)).toBe(true);
    const german = first.find((p, i) => translations[i].de)!;
    const de = translations[first.indexOf(german)].de;
    expect(de.name).toMatch(/ aus /);
    expect(de.outdated).toBe(false);
    const options = german.options as { name: string; values: string[] }[];
    // Stored as JSON objects (jsonb keeps its own key order): compared as sets.
    expect(Object.keys(de.options).sort()).toEqual(options.map((o) => o.name).sort());
    for (const o of options) expect(Object.keys(de.options[o.name].values).sort()).toEqual([...o.values].sort());
    const japanese = translations.find((x) => x.ja)!.ja;
    expect(japanese.name).toMatch(/^\[ja\] /);

    // The same seed gives the same translations again.
    const again = await made(localised);
    const texts = (list: Record<string, unknown>[]) =>
      list.map((p) => Object.fromEntries(Object.entries(p.translations as Record<string, Record<string, unknown>>).map(([l, { updated_at: _u, ...x }]) => [l, x])));
    expect(texts(again)).toEqual(texts(first));
  });

  it('makes products without attribute values in a store without product types', async () => {
    const s = await createStoreFixture();
    const res = await generate(s, { count: 4 });
    expect(res.status).toBe(201);
    for (const p of await storedProducts(res.body.data.map((x: { id: string }) => x.id))) {
      expect(p).toMatchObject({ productTypeId: null, attributes: {} });
      expect(p.variants.length).toBeGreaterThanOrEqual(4);
      for (const v of p.variants) expect(v.attributes).toEqual({});
    }
  });

  it('refuses a count out of range (422 naming count), a store without categories (422 category_required), and members without manage_products (403)', async () => {
    const s = await createStoreFixture();
    for (const [count, code] of [
      [0, 'too_small'],
      [MAX_GENERATED_PRODUCTS + 1, 'too_big'],
    ] as const) {
      const problem = expectProblem(await generate(s, { count }), 422, 'validation_failed');
      expect(problem.errors).toEqual([{ field: 'count', code, message: expect.any(String) }]);
    }
    for (const body of [{ count: 'five' }, {}]) {
      const problem = expectProblem(await generate(s, body), 422, 'validation_failed');
      expect(problem.errors?.map((e) => e.field)).toEqual(['count']);
    }
    const badSeed = expectProblem(await generate(s, { count: 1, seed: -1 }), 422, 'validation_failed');
    expect(badSeed.errors).toEqual([{ field: 'seed', code: 'too_small', message: expect.any(String) }]);

    const bare = await createStoreFixture({ categories: [] });
    expectProblem(await generate(bare, { count: 1 }), 422, 'category_required');
    expect(await db().product.count({ where: { storeId: bare.storeId } })).toBe(0);

    expectProblem(await generate(s, { count: 1 }, { token: s.viewerToken }), 403, 'forbidden');
    expect((await generate(s, { count: 1 }, { token: s.staffToken })).status).toBe(201);
    expect(await db().product.count({ where: { storeId: s.storeId } })).toBe(1);
  });

  it('GraphQL generateTestProducts answers the products made', async () => {
    const { s } = await typedStore();
    const res = await t.graphql(
      'mutation($s: ID!) { generateTestProducts(storeId: $s, count: 2, seed: 3) { id name variantsCount } }',
      { s: s.storeId },
      { token: s.ownerToken },
    );
    const products = gqlData(res).generateTestProducts;
    expect(products).toHaveLength(2);
    expect(await db().product.count({ where: { id: { in: products.map((p: { id: string }) => p.id) }, mode: 'test' } })).toBe(2);
    expectGqlError(await t.graphql('mutation($s: ID!) { generateTestProducts(storeId: $s, count: 1) { id } }', { s: s.storeId }, { token: s.viewerToken }), 'forbidden');
  });
});

describeEmbeddedProcesses('npm run cli -- test-catalog generate', () => {
  jest.setTimeout(300_000);

  it('makes the products with no service running and prints them; a count out of range is a usage error', async () => {
    const dataDir = migratedDataDir('catalog-cli-generate-');
    const { json: cli, outcome } = cliOn(dataDir);
    // Set up beside a service (the commands go through its socket), which then stops.
    const server = await servedDataDir(dataDir);
    await cli('user', 'create', '--email', 'gen@example.test', '--name', 'Gen', '--password', 'a long password');
    await cli('store', 'create', '--name', 'Generated shop', '--currency', 'EUR', '--owner', 'gen@example.test');
    await cli('category', 'create', '--store', 'Generated shop', '--slug', 'shoes', '--name', 'Shoes');
    await server.close();

    const made = await cli('test-catalog', 'generate', '--store', 'Generated shop', '--count', '2', '--seed', '5');
    expect(made).toHaveLength(2);
    for (const p of made) expect(p).toMatchObject({ currency: 'EUR', category_slugs: ['shoes'], variants_count: expect.any(Number) });
    for (const p of made) expect(p.variants_count).toBeGreaterThanOrEqual(4);
    expect(await outcome('test-catalog', 'generate', '--store', 'Generated shop', '--count', '101')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('must be a whole number from 1 to 100'),
    });
  });
});
