/** Reading the storefront in a language: the fallback chain, Accept-Language, the headers, search, the query count. */

import { addStoreLocale } from '../../src/catalog/services/localization';
import { createProduct } from '../../src/catalog/services/productCreate';
import { generateVariants } from '../../src/catalog/services/variants';
import { currentDatabase, db } from '../../src/platform/db/client';
import { setProductTranslation } from '../../src/catalog/services/productTranslations';
import type { ProductTranslationWrite } from '../../src/catalog/services/productTranslationWrites';
import { testContext } from '../helpers/context';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { assignProductType, defineAttribute, setProductAttributes } from '../helpers/attributes';
import { createKey, publicGet } from './helpers';

let t: TestServer;
let store: StoreFixture;
let key: string;
const ids: Record<string, string> = {};
const ctx = () => testContext(undefined, { mode: 'test' });

/** A product's translation in one locale, written by the translations service (PUT …/translations/{locale}). */
const translate = (productId: string, locale: string, fields: ProductTranslationWrite) => setProductTranslation(ctx(), store.storeId, productId, locale, fields);

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000' });
  store = await createStoreFixture();
  for (const l of ['de', 'de-AT', 'fr']) await addStoreLocale(testContext(), store.storeId, l);
  key = (await createKey(t, store, { type: 'publishable', mode: 'test' })).secret;

  const shirt = await createProduct(ctx(), store.storeId, {
    name: 'Linen shirt', description: 'Cool in summer', price: '45', status: 'active', categorySlugs: ['shoes'],
    options: [{ name: 'Size', values: ['S', 'M'] }, { name: 'Color', values: ['Red'] }],
  });
  ids.shirt = shirt.id;
  await generateVariants(ctx(), store.storeId, shirt.id, {});
  const care = await defineAttribute(store.storeId, { code: 'care', type: 'plain_text' });
  const type = await assignProductType(store.storeId, 'Shirts', [shirt.id]);
  await db().productTypeAttribute.create({ data: { productTypeId: type.id, attributeId: care.id, level: 'product' } });
  await setProductAttributes(shirt.id, { care: 'Hand wash' });
  // de has every field, de-AT only the name: the rest of an Austrian read comes from de.
  await translate(shirt.id, 'de', {
    name: 'Leinenhemd', description: 'Kühl im Sommer',
    options: { Size: { name: 'Größe', values: { S: 'Klein' } }, Color: { name: 'Farbe', values: { Red: 'Rot' } } },
    attributes: { care: 'Handwäsche' },
  });
  await translate(shirt.id, 'de-AT', { name: 'Leinenpfoad' });
  ids.hat = (await createProduct(ctx(), store.storeId, { name: 'Sun hat', description: 'Wide brim', price: '19.99', status: 'active', categorySlugs: ['shoes'] })).id;
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) => publicGet(t, path, { key, headers });
const product = (res: TestResponse, id: string) => (res.body.data.find ? res.body.data.find((p: { id: string }) => p.id === id) : res.body.data);

describe('the fallback chain', () => {
  it('de-AT takes each field from de-AT, then de, then the default', async () => {
    const res = await get(`/products/${ids.shirt}?locale=de-AT`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Leinenpfoad', description: 'Kühl im Sommer', attributes: { care: 'Handwäsche' } });
    expect(res.body.data.options).toEqual([{ name: 'Größe', values: ['Klein', 'M'] }, { name: 'Farbe', values: ['Rot'] }]);
    expect(res.body.data.variants.map((v: { title: string; options: unknown }) => [v.title, v.options])).toEqual([
      ['Klein / Rot', { Größe: 'Klein', Farbe: 'Rot' }],
      ['M / Rot', { Größe: 'M', Farbe: 'Rot' }],
    ]);
    expect(res.headers.get('content-language')).toBe('de-AT');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
    expect(res.body.locale).toBe('de-AT');
  });

  it('a locale the store lacks falls to its language, then to the default', async () => {
    const ch = await get(`/products/${ids.shirt}?locale=de-CH`);
    expect(ch.body.data.name).toBe('Leinenhemd');
    expect(ch.headers.get('content-language')).toBe('de');
    const ja = await get(`/products/${ids.shirt}?locale=ja`);
    expect(ja.status).toBe(200);
    expect(ja.body.data.name).toBe('Linen shirt');
    expect(ja.headers.get('content-language')).toBe('en');
    expect(ja.body.locale).toBe('en');
  });

  it('a product with no text in the locale answers in the default, and says so', async () => {
    const res = await get(`/products/${ids.hat}?locale=fr`);
    expect(res.body.data.name).toBe('Sun hat');
    expect(res.headers.get('content-language')).toBe('en');
  });

  it('without a locale the default answers, with Content-Language and Vary', async () => {
    const res = await get(`/products/${ids.shirt}`);
    expect(res.body.data.name).toBe('Linen shirt');
    expect(res.body.data.variants[0]).toMatchObject({ title: 'S / Red', options: { Size: 'S', Color: 'Red' } });
    expect(res.headers.get('content-language')).toBe('en');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
  });

  it('a locale that is not a BCP 47 tag is 422 naming locale', async () => {
    const res = await get(`/products/${ids.shirt}?locale=not_a_tag!`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'locale', code: 'invalid_locale' })]);
  });
});

describe('Accept-Language', () => {
  it.each([
    ['de-AT', 'de-AT', 'Leinenpfoad'],
    ['fr;q=0.9, de;q=0.8', 'de', 'Leinenhemd'], // fr has no text for the shirt: the next preference gives it
    ['de-AT;q=0.2, de;q=0.9', 'de', 'Leinenhemd'],
    ['de;q=0, de-AT', 'de-AT', 'Leinenpfoad'], // and the description in the default, as de is excluded
    ['de-AT;q=0, de', 'de', 'Leinenhemd'],
    ['*', 'en', 'Linen shirt'],
    ['ja, *;q=0.1', 'en', 'Linen shirt'],
    ['DE-at', 'de-AT', 'Leinenpfoad'],
    [';;;q=x, ,', 'en', 'Linen shirt'],
  ])('%s answers %s', async (header, locale, name) => {
    const res = await get(`/products/${ids.shirt}`, { 'accept-language': header });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe(name);
    expect(res.headers.get('content-language')).toBe(locale);
  });

  it('?locale= wins over Accept-Language', async () => {
    const res = await get(`/products/${ids.shirt}?locale=en`, { 'accept-language': 'de' });
    expect(res.body.data.name).toBe('Linen shirt');
    expect(res.headers.get('content-language')).toBe('en');
  });

  it('the list answers each product in its best locale and names the best one any used', async () => {
    const res = await get('/products', { 'accept-language': 'de-AT' });
    expect(res.status).toBe(200);
    expect(product(res, ids.shirt).name).toBe('Leinenpfoad');
    expect(product(res, ids.hat).name).toBe('Sun hat');
    expect(res.headers.get('content-language')).toBe('de-AT');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
    expect(res.body.locale).toBe('de-AT');
  });
});

describe('search', () => {
  it('matches the requested locale\'s text and the default\'s', async () => {
    const de = await get('/products?search=hemd&locale=de');
    expect(de.body.data.map((p: { id: string }) => p.id)).toEqual([ids.shirt]);
    expect(de.body.data[0].name).toBe('Leinenhemd');
    const both = await get('/products?search=linen&locale=de');
    expect(both.body.data.map((p: { id: string }) => p.id)).toEqual([ids.shirt]);
    // de-AT's text does not have it, de's does: each translated locale of the chain is searched.
    const at = await get('/products?search=hemd&locale=de-AT');
    expect(at.body.data.map((p: { id: string; name: string }) => [p.id, p.name])).toEqual([[ids.shirt, 'Leinenpfoad']]);
    const none = await get('/products?search=hemd');
    expect(none.body.data).toEqual([]);
    const fr = await get('/products?search=hemd&locale=fr');
    expect(fr.body.data).toEqual([]);
  });

  it('ranks a name in the locale that equals the search first', async () => {
    // Created after the shirt, so newer: without ranking they would come first.
    const prefix = await createProduct(ctx(), store.storeId, { name: 'Hemd box', description: '', price: '5', status: 'active', categorySlugs: ['shoes'] });
    const exact = await createProduct(ctx(), store.storeId, { name: 'Plain top', description: '', price: '5', status: 'active', categorySlugs: ['shoes'] });
    await translate(exact.id, 'de', { name: 'Hemd' });
    const ranked = await get('/products?search=hemd&locale=de');
    expect(ranked.body.data.map((p: { id: string }) => p.id)).toEqual([exact.id, prefix.id, ids.shirt]);
    expect(ranked.body.meta).toMatchObject({ total: 3 });
    const sorted = await get('/products?search=hemd&locale=de&sort=name');
    expect(sorted.body.data.map((p: { id: string }) => p.id)).toEqual([prefix.id, ids.shirt, exact.id]);
  });
});

describe('cost', () => {
  /** Number of SQL statements the server sent while `fn` ran (requests run one at a time here). */
  async function counted(fn: () => Promise<TestResponse>) {
    const before = currentDatabase()!.queryCount();
    const res = await fn();
    return { res, queries: currentDatabase()!.queryCount() - before };
  }

  it('a page of 20 in a locale reads the translations of the whole page in one statement', async () => {
    for (let i = 0; i < 20; i++) {
      const p = await createProduct(ctx(), store.storeId, { name: `Bulk ${i}`, price: '1', status: 'active', categorySlugs: ['shoes'], options: [{ name: 'Size', values: ['S'] }] });
      await translate(p.id, 'de', { name: `Masse ${i}`, options: { Size: { name: 'Größe' } } });
    }
    const plain = await counted(() => get('/products?per_page=20'));
    const one = await counted(() => get('/products?per_page=1&locale=de'));
    const page = await counted(() => get('/products?per_page=20&locale=de'));
    expect(page.res.body.data).toHaveLength(20);
    expect(page.res.body.data.filter((p: { name: string }) => p.name.startsWith('Masse'))).toHaveLength(20);
    expect(page.queries).toBe(one.queries);
    expect(page.queries).toBe(plain.queries + 1);
  });
});
