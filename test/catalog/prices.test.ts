import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { testWorker } from '../helpers/webhooks';
import { filePart, form, type Part } from '../images/images';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { expectGqlError, expectProblem, gqlData, productPath, productsPath } from '../products/helpers';

// Prices in a store's further currencies through the real HTTP handler: writes on products and variants (REST,
// GraphQL), their rules (minor units of JPY and KWD, every error at once), history per currency, the public API's
// ?currency= (reads, sorts and filters), and removing a currency that prices use.

let t: TestServer;
let s: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000' });
  s = await createStoreFixture({ currency: 'EUR' });
  for (const currency of ['JPY', 'KWD', 'USD']) {
    const res = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/currencies`, { token: s.ownerToken, body: { currency } });
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const post = (path: string, body: unknown) => t.request('POST', path, { token: s.ownerToken, body });
const put = (path: string, body: unknown) => t.request('PUT', path, { token: s.ownerToken, body });
const get = (path: string) => t.request('GET', path, { token: s.ownerToken });

async function newProduct(fields: Record<string, unknown> = {}) {
  const res = await post(productsPath(s.storeId), { name: 'Tea', price: 12, category_slugs: ['shoes'], ...fields });
  expect(res.status).toBe(201);
  return res.body.data;
}

describe('prices on products', () => {
  it('takes prices with exactly the minor units of each currency and shows them by currency, the default price beside them', async () => {
    const p = await newProduct({
      prices: [
        { currency: 'kwd', amount: '1.250', compare_at_amount: '2.000' },
        { currency: 'JPY', amount: '1200' },
      ],
    });
    expect(p.price).toBe(12);
    expect(p.currency).toBe('EUR');
    expect(p.prices).toEqual([
      { currency: 'JPY', amount: '1200', compare_at_amount: null },
      { currency: 'KWD', amount: '1.250', compare_at_amount: '2.000' },
    ]);
    expect((await get(productPath(s.storeId, p.id))).body.data.prices).toEqual(p.prices);
    const gql = gqlData(await t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { prices { currency amount compareAtAmount } } }`, { s: s.storeId, id: p.id }, { token: s.ownerToken }));
    expect(gql.product.prices).toEqual([
      { currency: 'JPY', amount: '1200', compareAtAmount: null },
      { currency: 'KWD', amount: '1.250', compareAtAmount: '2.000' },
    ]);
  });

  it('refuses wrong digits, numbers, negative amounts, unsold and default currencies, every error at once, naming each field', async () => {
    const res = await post(productsPath(s.storeId), {
      name: '',
      price: 12,
      category_slugs: ['shoes'],
      prices: [
        { currency: 'JPY', amount: '12.00' },
        { currency: 'KWD', amount: '1.25' },
        { currency: 'USD', amount: '1' },
        { currency: 'GBP', amount: '5.00' },
        { currency: 'EUR', amount: '5.00' },
        { currency: 'XYZ', amount: '5.00' },
      ],
    });
    const problem = expectProblem(res, 422, 'validation_failed');
    const byField = Object.fromEntries(problem.errors!.map((e) => [e.field, e.code]));
    expect(byField).toMatchObject({
      name: 'too_small',
      'prices.0.amount': 'invalid_amount',
      'prices.1.amount': 'invalid_amount',
      'prices.2.amount': 'invalid_amount',
      'prices.3.currency': 'currency_not_sold',
      'prices.4.currency': 'default_currency_price',
      'prices.5.currency': 'invalid_currency',
    });
    // A number is not an amount: GraphQL's String refuses it before the service runs (the type errors and the
    // input rules come together; whether the store sells in a currency is told once the types are right).
    const typed = expectProblem(
      await post(productsPath(s.storeId), { name: 'x', price: 1, category_slugs: ['shoes'], prices: [{ currency: 'USD', amount: 12 }, { currency: 'JPY', amount: '1.0' }] }),
      422,
      'validation_failed',
    );
    expect(typed.errors!.map((e) => [e.field, e.code])).toEqual([
      ['prices.0.amount', 'invalid_type'],
      ['prices.1.amount', 'invalid_amount'],
    ]);
    const more = expectProblem(
      await post(productsPath(s.storeId), {
        name: 'x',
        price: 1,
        category_slugs: ['shoes'],
        prices: [
          { currency: 'USD', amount: '-1.00' },
          { currency: 'JPY', amount: '100', compare_at_amount: '100' },
          { currency: 'jpy', amount: '100' },
        ],
      }),
      422,
      'validation_failed',
    );
    expect(more.errors).toEqual([
      { field: 'prices.0.amount', code: 'negative_amount', message: expect.any(String) },
      { field: 'prices.1.compare_at_amount', code: 'compare_at_amount_not_above_amount', message: expect.any(String) },
      { field: 'prices.2.currency', code: 'duplicate_currency', message: expect.any(String) },
    ]);
    const huge = expectProblem(await post(productsPath(s.storeId), { name: 'x', price: 1, category_slugs: ['shoes'], prices: [{ currency: 'JPY', amount: '1234567890123' }] }), 422, 'validation_failed');
    expect(huge.errors).toEqual([{ field: 'prices.0.amount', code: 'too_big', message: expect.any(String) }]);
    const gql = await t.graphql(
      `mutation($s: ID!) { createProduct(storeId: $s, input: {name: "x", price: "1", categorySlugs: ["shoes"], prices: [{currency: "JPY", amount: "1.5"}]}) { id } }`,
      { s: s.storeId },
      { token: s.ownerToken },
    );
    expectGqlError(gql, 'validation_failed');
  });

  it('replaces the list on update, records changes per currency in the history, and changes nothing when sent again', async () => {
    const p = await newProduct({ prices: [{ currency: 'JPY', amount: '1200' }, { currency: 'USD', amount: '13.00' }] });
    const updated = await put(productPath(s.storeId, p.id), { prices: [{ currency: 'JPY', amount: '1300' }, { currency: 'KWD', amount: '4.000' }] });
    expect(updated.status).toBe(200);
    expect(updated.body.data.prices.map((x: any) => [x.currency, x.amount])).toEqual([
      ['JPY', '1300'],
      ['KWD', '4.000'],
    ]);
    expect(updated.body.data.version).toBe(2);
    const again = await put(productPath(s.storeId, p.id), { prices: [{ currency: 'KWD', amount: '4.000' }, { currency: 'JPY', amount: '1300' }] });
    expect(again.body.data.version).toBe(2);
    const history = (await get(`${productPath(s.storeId, p.id)}/changes`)).body.data;
    expect(history[0].type).toBe('product.updated');
    expect(history[0].changes).toEqual([
      { field: 'prices.JPY', previous: { currency: 'JPY', amount: '1200', compare_at_amount: null }, next: { currency: 'JPY', amount: '1300', compare_at_amount: null } },
      { field: 'prices.KWD', previous: null, next: { currency: 'KWD', amount: '4.000', compare_at_amount: null } },
      { field: 'prices.USD', previous: { currency: 'USD', amount: '13.00', compare_at_amount: null }, next: null },
    ]);
    expect(history[0].data.prices).toHaveLength(2);
    const cleared = await put(productPath(s.storeId, p.id), { prices: [] });
    expect(cleared.body.data.prices).toEqual([]);
  });
});

describe('prices on variants', () => {
  it('takes prices on replace and bulk update, with the same rules, named at each variant', async () => {
    const p = await newProduct();
    const variants = `${productPath(s.storeId, p.id)}/variants`;
    const replaced = await put(variants, [
      { sku: `A-${p.id}`, options: {}, prices: [{ currency: 'JPY', amount: '1500', compare_at_amount: '1800' }] },
    ]);
    expect(replaced.status).toBe(200);
    expect(replaced.body.data[0].prices).toEqual([{ currency: 'JPY', amount: '1500', compare_at_amount: '1800' }]);
    const bad = expectProblem(
      await put(variants, [{ sku: `A-${p.id}`, options: {}, prices: [{ currency: 'KWD', amount: '1.5' }, { currency: 'GBP', amount: '1.00' }] }]),
      422,
      'validation_failed',
    );
    expect(bad.errors!.map((e) => [e.field, e.code])).toEqual([
      ['variants.0.prices.0.amount', 'invalid_amount'],
      ['variants.0.prices.1.currency', 'currency_not_sold'],
    ]);
    const id = replaced.body.data[0].id;
    const patched = await t.request('PATCH', variants, { token: s.ownerToken, body: [{ id, prices: [{ currency: 'KWD', amount: '1.500' }] }] });
    expect(patched.status).toBe(200);
    expect(patched.body.data[0].prices).toEqual([{ currency: 'KWD', amount: '1.500', compare_at_amount: null }]);
    expect((await get(variants)).body.data[0].prices).toEqual([{ currency: 'KWD', amount: '1.500', compare_at_amount: null }]);
  });
});

describe('the public API in a currency', () => {
  let key: string;
  let other: StoreFixture;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    other = await createStoreFixture({ currency: 'USD' });
    // A store of its own: its list holds only these three.
    for (const currency of ['JPY', 'KWD']) await t.request('POST', `/api/v1/merchant/stores/${other.storeId}/currencies`, { token: other.ownerToken, body: { currency } });
    const make = async (name: string, price: number, prices: unknown[]) => {
      const res = await t.request('POST', productsPath(other.storeId), { token: other.ownerToken, body: { name, price, prices, status: 'active', category_slugs: ['shoes'] } });
      expect(res.status).toBe(201);
      ids[name] = res.body.data.id;
    };
    await make('Cheap in yen', 30, [{ currency: 'JPY', amount: '900' }, { currency: 'KWD', amount: '9.500', compare_at_amount: '10.000' }]);
    await make('Dear in yen', 10, [{ currency: 'JPY', amount: '5000' }]);
    await make('Only dollars', 20, []);
    const variants = await t.request('PUT', `${productPath(other.storeId, ids['Dear in yen'])}/variants`, {
      token: other.ownerToken,
      body: [
        { sku: 'DY-1', options: {}, prices: [{ currency: 'JPY', amount: '4800', compare_at_amount: '5200' }] },
      ],
    });
    expect(variants.status).toBe(200);
    key = (await createKey(t, other, { type: 'publishable', mode: 'live' })).secret;
  });

  it('reads a product in a further currency, and answers price null with its currencies where it has none', async () => {
    const cheap = (await publicGet(t, `/products/${ids['Cheap in yen']}?currency=kwd`, { key })).body.data;
    expect(cheap).toMatchObject({ price: 9.5, compare_at_price: 10, currency: 'KWD', currencies: ['USD', 'JPY', 'KWD'] });
    const inDefault = (await publicGet(t, `/products/${ids['Cheap in yen']}`, { key })).body.data;
    expect(inDefault).toMatchObject({ price: 30, compare_at_price: null, currency: 'USD', currencies: ['USD', 'JPY', 'KWD'] });
    expect((await publicGet(t, `/products/${ids['Cheap in yen']}?currency=USD`, { key })).body.data).toMatchObject({ price: 30, currency: 'USD' });
    const none = (await publicGet(t, `/products/${ids['Only dollars']}?currency=JPY`, { key })).body.data;
    expect(none).toMatchObject({ price: null, compare_at_price: null, currency: 'JPY', currencies: ['USD'] });
    const dear = (await publicGet(t, `/products/${ids['Dear in yen']}?currency=JPY`, { key })).body.data;
    expect(dear.variants[0]).toMatchObject({ sku: 'DY-1', price: 4800, compare_at_price: 5200 });
    expect((await publicGet(t, `/products/${ids['Dear in yen']}`, { key })).body.data.variants[0]).toMatchObject({ price: null, compare_at_price: null });
  });

  it('refuses a currency the store does not sell in, naming currency', async () => {
    const notSold = expectProblem(await publicGet(t, `/products/${ids['Cheap in yen']}?currency=EUR`, { key }), 422, 'validation_failed');
    expect(notSold.errors).toEqual([{ field: 'currency', code: 'currency_not_sold', message: expect.stringContaining('USD, JPY, KWD') }]);
    const invalid = expectProblem(await publicGet(t, '/products?currency=EURO', { key }), 422, 'validation_failed');
    expect(invalid.errors).toEqual([{ field: 'currency', code: 'invalid_currency', message: expect.any(String) }]);
  });

  it('sorts and filters the list by price in the currency asked for, products without a price in it last and never matching', async () => {
    const names = async (query: string) => (await publicGet(t, `/products?${query}`, { key })).body.data.map((p: any) => p.name);
    expect(await names('sort=price')).toEqual(['Dear in yen', 'Only dollars', 'Cheap in yen']);
    expect(await names('sort=price&currency=JPY')).toEqual(['Cheap in yen', 'Dear in yen', 'Only dollars']);
    expect(await names('sort=-price&currency=JPY')).toEqual(['Dear in yen', 'Cheap in yen', 'Only dollars']);
    expect((await names('sort=-price&currency=KWD'))[0]).toBe('Cheap in yen');
    expect(await names('currency=JPY&price_min=1000')).toEqual(['Dear in yen']);
    // The default named as such is the default; an empty page in a currency is still checked against the store's.
    expect(await names('sort=price&currency=usd')).toEqual(['Dear in yen', 'Only dollars', 'Cheap in yen']);
    expect(await names('currency=JPY&price_min=99999999')).toEqual([]);
    expectProblem(await publicGet(t, '/products?currency=EUR&price_min=99999999', { key }), 422, 'validation_failed');
    expect(await names('currency=JPY&price_max=1000&sort=name')).toEqual(['Cheap in yen']);
    expect(await names('price_min=15&sort=price')).toEqual(['Only dollars', 'Cheap in yen']);
    expect(await names('currency=KWD&price_min=0&sort=name')).toEqual(['Cheap in yen']);
    const list = (await publicGet(t, '/products?currency=JPY&sort=price', { key })).body.data;
    expect(list.map((p: any) => [p.price, p.currency])).toEqual([
      [900, 'JPY'],
      [5000, 'JPY'],
      [null, 'JPY'],
    ]);
    const bad = expectProblem(await publicGet(t, '/products?price_min=abc', { key }), 422, 'validation_failed');
    expect(bad.errors![0]).toMatchObject({ field: 'price_min' });
  });
});

describe('removing a currency that prices use', () => {
  it('is 409 currency_in_use unless delete_prices=true, which deletes those prices (products and variants)', async () => {
    const p = await newProduct({ prices: [{ currency: 'USD', amount: '20.00' }] });
    const q = await newProduct();
    await put(`${productPath(s.storeId, q.id)}/variants`, [{ sku: `U-${q.id}`, options: {}, prices: [{ currency: 'USD', amount: '21.00' }] }]);
    const base = `/api/v1/merchant/stores/${s.storeId}/currencies/USD`;
    const refused = expectProblem(await t.request('DELETE', base, { token: s.ownerToken }), 409, 'currency_in_use');
    expect(refused).toMatchObject({ currency: 'USD', products: 2 });
    expect((await t.request('DELETE', `${base}?delete_prices=true`, { token: s.ownerToken })).status).toBe(204);
    const after = (await get(productPath(s.storeId, p.id))).body.data;
    expect(after.prices).toEqual([]);
    expect(after.version).toBe(p.version + 1);
    expect((await get(`${productPath(s.storeId, q.id)}/variants`)).body.data[0].prices).toEqual([]);
  });
});

describe('import and export of a multi-currency catalog', () => {
  const withCurrencies = async () => {
    const store = await createStoreFixture({ currency: 'EUR' });
    for (const currency of ['JPY', 'KWD']) await t.request('POST', `/api/v1/merchant/stores/${store.storeId}/currencies`, { token: store.ownerToken, body: { currency } });
    return store;
  };
  const imported = async (store: StoreFixture, file: string, format: string) => {
    const res = await t.request('POST', `${productsPath(store.storeId)}/imports`, {
      token: store.ownerToken,
      rawBody: form([filePart(Buffer.from(file), 'products.txt', 'text/plain', 'file'), ...Object.entries({ format }).map(([name, value]): Part => ({ name, value }))]),
    });
    expect(res.status).toBe(202);
    await testWorker(t).runOnce();
    return (await t.request('GET', `${productsPath(store.storeId)}/imports/${res.body.data.id}`, { token: store.ownerToken })).body.data;
  };
  const catalog = async (store: StoreFixture) => {
    const list = (await t.request('GET', `${productsPath(store.storeId)}?sort=name`, { token: store.ownerToken })).body.data;
    const out = [];
    for (const p of list) {
      const variants = (await t.request('GET', `${productPath(store.storeId, p.id)}/variants`, { token: store.ownerToken })).body.data;
      out.push({ name: p.name, price: p.price, prices: p.prices, variants: variants.map((v: any) => ({ sku: v.sku.replace(/^[^-]+-/, ''), prices: v.prices })) });
    }
    return out;
  };

  it.each(['csv', 'jsonl'])('round-trips prices through %s: into another store as they are, into the same store unchanged', async (format) => {
    const a = await withCurrencies();
    const make = async (name: string, prices: unknown[], variantPrices: unknown[]) => {
      const p = (await t.request('POST', productsPath(a.storeId), { token: a.ownerToken, body: { name, price: 10, prices, category_slugs: ['shoes'] } })).body.data;
      expect((await t.request('PUT', `${productPath(a.storeId, p.id)}/variants`, { token: a.ownerToken, body: [{ sku: `${format}${name}-V`, options: {}, prices: variantPrices }] })).status).toBe(200);
    };
    await make('A', [{ currency: 'JPY', amount: '1200' }, { currency: 'KWD', amount: '1.250', compare_at_amount: '1.500' }], [{ currency: 'JPY', amount: '1100' }]);
    await make('B', [{ currency: 'KWD', amount: '0.500' }], []);
    await make('C', [], [{ currency: 'KWD', amount: '3.000', compare_at_amount: '3.100' }]);
    const file = (await t.request('GET', `${productsPath(a.storeId)}/export?format=${format}`, { token: a.ownerToken })).text;
    if (format === 'csv') {
      expect(file.split('\n')[0]).toMatch(/,price:JPY,compare_at_price:JPY,price:KWD,compare_at_price:KWD$/);
      expect(file).toContain(',1200,,1.250,1.500');
    } else {
      expect(JSON.parse(file.split('\n')[0]).prices).toBeDefined();
    }
    const same = await imported(a, file, format);
    expect(same.counts).toMatchObject({ created: 0, updated: 0, unchanged: 3, rejected: 0 });

    const b = await withCurrencies();
    const other = await imported(b, file.replaceAll(/"id":"[^"]*"|^[0-9a-f-]{36}/gm, (m) => (m.startsWith('"id"') ? '"id":null' : '')), format);
    expect(other.counts).toMatchObject({ created: 3, rejected: 0 });
    expect(await catalog(b)).toEqual(await catalog(a));
    expect((await catalog(b))[0].prices).toEqual([
      { currency: 'JPY', amount: '1200', compare_at_amount: null },
      { currency: 'KWD', amount: '1.250', compare_at_amount: '1.500' },
    ]);
  });

  it('reports prices in currencies the store lacks and wrong digits as row errors', async () => {
    const a = await withCurrencies();
    const file = 'name,price,category_slugs,price:JPY,price:USD,compare_at_price:KWD\nX,1,shoes,12.5,3.00,1.000\n';
    const job = await imported(a, file, 'csv');
    expect(job.counts).toMatchObject({ created: 0, rejected: 1 });
    // A price cell's errors name the row's prices in column order (prices.0 is price:JPY here).
    expect(job.errors.map((e: any) => [e.field, e.code])).toEqual(expect.arrayContaining([
      ['price:KWD', 'required'],
      ['prices.0.amount', 'invalid_amount'],
    ]));
    const unsold = await imported(a, 'name,price,category_slugs,price:JPY,price:USD\nX,1,shoes,1200,3.00\n', 'csv');
    expect(unsold.errors.map((e: any) => [e.field, e.code])).toEqual([['prices.1.currency', 'currency_not_sold']]);
  });
});

describe('the test-catalog generator', () => {
  it("prices every product in each of the store's further currencies, with their minor-unit digits", async () => {
    const res = await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/test-catalog/generate`, { token: s.ownerToken, body: { count: 5, seed: 3 } });
    expect(res.status).toBe(201);
    const { currencies } = (await t.database.prisma.store.findUniqueOrThrow({ where: { id: s.storeId }, select: { currencies: true } }));
    for (const p of res.body.data) {
      expect(p.prices.map((x: any) => x.currency)).toEqual([...currencies].sort());
      for (const x of p.prices) {
        const digits = { JPY: 0, KWD: 3 }[x.currency as string] ?? 2;
        expect(x.amount).toMatch(digits ? new RegExp(`^\\d+\\.\\d{${digits}}$`) : /^\d+$/);
        if (x.compare_at_amount !== null) expect(Number(x.compare_at_amount)).toBeGreaterThan(Number(x.amount));
      }
    }
  });
});
