import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { productPath, productsPath } from '../products/helpers';

// The price rows a list sorted or filtered by price in a further currency reads (product_currency_prices, kept by
// triggers from products.prices): whatever writes the prices, the rows are what the prices say, and the pages read
// from them are the order of the amounts (ties by id, products without a price in the currency last), page after page.

let t: TestServer;
let s: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000' });
  s = await createStoreFixture({ currency: 'EUR' });
  for (const currency of ['JPY', 'KWD']) {
    const res = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/currencies`, { token: s.ownerToken, body: { currency } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

type Price = { currency: string; amount: string };

async function newProduct(name: string, prices: Price[], status = 'active'): Promise<string> {
  const res = await t.request('POST', productsPath(s.storeId), { token: s.ownerToken, body: { name, price: 10, prices, status, category_slugs: ['shoes'] } });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

/** The store's price rows, and the same derived from the products' prices: "product currency amount store mode status". */
async function expectRowsFollowPrices() {
  const rows = await db().$queryRaw<{ r: string }[]>`
    SELECT concat_ws(' ', product_id, currency, amount::text, store_id, mode, status) AS r FROM product_currency_prices WHERE store_id = ${s.storeId}::uuid ORDER BY 1`;
  const derived = await db().$queryRaw<{ r: string }[]>`
    SELECT concat_ws(' ', p.id, e.key, (e.value ->> 'amount')::numeric::text, p.store_id, p.mode, p.status) AS r
    FROM products p, jsonb_each(p.prices) e WHERE p.store_id = ${s.storeId}::uuid ORDER BY 1`;
  expect(rows.map((x) => x.r)).toEqual(derived.map((x) => x.r));
  return rows.length;
}

describe('the price rows of further currencies', () => {
  it('follow every write of the prices: create, replace, clear, delete, and removing a currency with its prices', async () => {
    const a = await newProduct('Rows a', [{ currency: 'JPY', amount: '1200' }, { currency: 'KWD', amount: '1.250' }]);
    const b = await newProduct('Rows b', [{ currency: 'JPY', amount: '800' }]);
    const c = await newProduct('Rows c', []);
    expect(await expectRowsFollowPrices()).toBe(3);
    expect((await t.request('PUT', productPath(s.storeId, a), { token: s.ownerToken, body: { prices: [{ currency: 'KWD', amount: '2.000' }] } })).status).toBe(200);
    expect((await t.request('PUT', productPath(s.storeId, c), { token: s.ownerToken, body: { prices: [{ currency: 'JPY', amount: '50' }] } })).status).toBe(200);
    expect(await expectRowsFollowPrices()).toBe(3);
    // A change of status moves the rows with it; a write of anything else leaves them as they are.
    expect((await t.request('PUT', productPath(s.storeId, b), { token: s.ownerToken, body: { status: 'draft' } })).status).toBe(200);
    expect(await expectRowsFollowPrices()).toBe(3);
    expect((await t.request('PUT', productPath(s.storeId, b), { token: s.ownerToken, body: { name: 'Rows b renamed' } })).status).toBe(200);
    expect(await expectRowsFollowPrices()).toBe(3);
    expect((await t.request('PUT', productPath(s.storeId, b), { token: s.ownerToken, body: { prices: [] } })).status).toBe(200);
    expect(await expectRowsFollowPrices()).toBe(2);
    expect((await t.request('DELETE', productPath(s.storeId, c), { token: s.ownerToken })).status).toBe(204);
    expect(await expectRowsFollowPrices()).toBe(1);
    expect((await t.request('DELETE', `/api/v1/merchant/stores/${s.storeId}/currencies/KWD?delete_prices=true`, { token: s.ownerToken })).status).toBe(204);
    expect(await expectRowsFollowPrices()).toBe(0);
    expect((await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/currencies`, { token: s.ownerToken, body: { currency: 'KWD' } })).status).toBe(201);
    for (const id of [a, b]) expect((await t.request('DELETE', productPath(s.storeId, id), { token: s.ownerToken })).status).toBe(204);
  });
});

describe('a list sorted or filtered by price in a further currency', () => {
  let key: string;
  const amounts: (string | null)[] = ['500', '120', null, '500', '7000', '120', null, '300', '500', '99', null, '650', '300', '1'];
  const expected: { id: string; amount: number | null }[] = [];

  beforeAll(async () => {
    for (const [i, amount] of amounts.entries()) {
      const id = await newProduct(`Sorted ${i}`, amount === null ? [{ currency: 'KWD', amount: '1.000' }] : [{ currency: 'JPY', amount }]);
      expected.push({ id, amount: amount === null ? null : Number(amount) });
    }
    // Neither a draft nor another store's product is listed, whatever its price.
    await newProduct('Draft', [{ currency: 'JPY', amount: '2' }], 'draft');
    key = (await createKey(t, s, { type: 'publishable', mode: 'live' })).secret;
  });

  /** Every page of the list, per_page 3: the ids in order and the totals each page reports. */
  async function walk(query: string) {
    const ids: string[] = [];
    const totals = new Set<number>();
    for (let page = 1; ; page++) {
      const res = await publicGet(t, `/products?currency=JPY&per_page=3&page=${page}&${query}`, { key });
      expect(res.status).toBe(200);
      ids.push(...res.body.data.map((p: { id: string }) => p.id));
      totals.add(res.body.meta.total);
      if (!res.body.meta.has_more) return { ids, totals: [...totals] };
    }
  }

  const order = (dir: 1 | -1, keep: (a: number | null) => boolean = () => true) =>
    expected
      .filter((p) => keep(p.amount))
      .sort((x, y) => {
        if (x.amount === null || y.amount === null) return x.amount === y.amount ? dir * (x.id < y.id ? -1 : 1) : x.amount === null ? 1 : -1;
        return dir * (x.amount - y.amount || (x.id < y.id ? -1 : 1));
      })
      .map((p) => p.id);

  it('pages through the amounts in order, ties by id, products without a price in it last, in both directions', async () => {
    expect(await walk('sort=price')).toEqual({ ids: order(1), totals: [amounts.length] });
    expect(await walk('sort=-price')).toEqual({ ids: order(-1), totals: [amounts.length] });
  });

  it('leaves out a product once it is no longer active, and lists it again once it is', async () => {
    const [cheapest] = order(1);
    const setStatus = async (status: string) =>
      expect((await t.request('PUT', productPath(s.storeId, cheapest), { token: s.ownerToken, body: { status } })).status).toBe(200);
    await setStatus('draft');
    expect(await walk('sort=price')).toEqual({ ids: order(1).slice(1), totals: [amounts.length - 1] });
    await setStatus('active');
    expect(await walk('sort=price')).toEqual({ ids: order(1), totals: [amounts.length] });
  });

  it('filters by the amounts in it, with and without the price sort, and counts the matches', async () => {
    const within = (a: number | null) => a !== null && a >= 120 && a <= 500;
    const inRange = order(1, within);
    expect(await walk('sort=price&price_min=120&price_max=500')).toEqual({ ids: inRange, totals: [inRange.length] });
    expect(await walk('sort=-price&price_min=120&price_max=500')).toEqual({ ids: order(-1, within), totals: [inRange.length] });
    expect((await walk('sort=name&price_min=120&price_max=500')).ids.sort()).toEqual([...inRange].sort());
    expect(await walk('sort=price&price_min=501')).toEqual({ ids: order(1, (a) => a !== null && a >= 501), totals: [2] });
    expect(await walk('sort=price&price_max=0.5')).toEqual({ ids: [], totals: [0] });
  });
});
