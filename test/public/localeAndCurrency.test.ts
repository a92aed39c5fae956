/**
 * A storefront read in a language and a currency at once: the shopper's German text with yen prices, a search in
 * German sorted by the yen price, and a product without a yen price answering null in German.
 */

import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { productsPath } from '../products/helpers';
import { createKey, publicGet } from './helpers';

let t: TestServer;
let s: StoreFixture;
let key: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000' });
  s = await createStoreFixture({ currency: 'EUR' });
  const merchant = (method: string, path: string, body?: unknown) => t.request(method, `/api/v1/merchant/stores/${s.storeId}${path}`, { token: s.ownerToken, body });
  expect((await merchant('POST', '/locales', { locale: 'de' })).status).toBe(201);
  expect((await merchant('POST', '/currencies', { currency: 'JPY' })).status).toBe(201);
  const create = async (body: Record<string, unknown>) => {
    const res = await t.request('POST', productsPath(s.storeId), { token: s.ownerToken, body: { status: 'active', category_slugs: ['shoes'], ...body } });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  ids.tea = await create({
    name: 'Green tea', price: 12, prices: [{ currency: 'JPY', amount: '1800' }],
    translations: { de: { name: 'Grüner Tee', description: 'Frisch' } },
  });
  ids.mug = await create({
    name: 'Tea mug', price: 8, prices: [{ currency: 'JPY', amount: '900' }],
    translations: { de: { name: 'Teebecher' } },
  });
  ids.pot = await create({ name: 'Tea pot', price: 30, translations: { de: { name: 'Teekanne' } } });
  key = (await createKey(t, s, { type: 'publishable', mode: 'live' })).secret;
});
afterAll(() => t.close());

const get = (path: string, headers: Record<string, string> = {}) => publicGet(t, path, { key, headers });

describe('a storefront read in a locale and a currency', () => {
  it('answers the translated text with the price in the currency', async () => {
    const res = await get(`/products/${ids.tea}?currency=JPY`, { 'Accept-Language': 'de-DE, en;q=0.5' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Grüner Tee', description: 'Frisch', price: 1800, currency: 'JPY', currencies: ['EUR', 'JPY'] });
    expect(res.body.locale).toBe('de');
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
  });

  it('a product without a price in the currency answers price null, still in the language', async () => {
    const res = await get(`/products/${ids.pot}?locale=de&currency=JPY`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Teekanne', price: null, currency: 'JPY', currencies: ['EUR'] });
  });

  it('a search in German sorted by the yen price: priced products by amount, the unpriced one last', async () => {
    const res = await get('/products?locale=de&currency=JPY&search=tee&sort=price');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { name: string; price: number | null }) => [p.name, p.price])).toEqual([
      ['Teebecher', 900],
      ['Grüner Tee', 1800],
      ['Teekanne', null],
    ]);
    expect(res.body.locale).toBe('de');
  });

  it('a price filter in the currency leaves out the products without a price in it', async () => {
    const res = await get('/products?locale=de&currency=JPY&price_min=1000');
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['Grüner Tee']);
  });

  it('a currency the store does not sell in is 422 on currency, whatever the language', async () => {
    const res = await get(`/products/${ids.tea}?locale=de&currency=USD`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'currency', code: 'currency_not_sold' })]);
  });
});
