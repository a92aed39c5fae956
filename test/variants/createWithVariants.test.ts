import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData, productCount, productsPath } from '../products/helpers';

/**
 * A product created with its variants is one write (POST …/products and createProduct with `variants`): all of it
 * or nothing, every error of the product and of its variants at once, named at their fields; one product.created
 * event that counts the variants.
 */

let t: TestServer;
let s: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture({ currency: 'EUR' });
});
afterAll(() => t.close());

const variantRows = (productId: string) =>
  db().variant.findMany({ where: { productId }, orderBy: { position: 'asc' }, select: { sku: true, title: true, options: true, price: true, inventoryQuantity: true } });

describe('creating a product with its variants', () => {
  it('REST: creates the product and its variants in one write, with one product.created event counting them', async () => {
    const res = await t.request('POST', productsPath(s.storeId), {
      token: s.ownerToken,
      body: {
        name: 'Alpine Beanie',
        price: 19.9,
        category_slugs: [s.categories[0]],
        variants: [
          { sku: 'ALP-RED', title: 'Red', options: { Color: 'Red' }, inventory_quantity: 5 },
          { sku: 'ALP-BLUE', title: 'Blue', options: { Color: 'Blue' }, price: 21.5 },
        ],
      },
    });
    expect(res.status).toBe(201);
    const p = res.body.data;
    expect(p.variants_count).toBe(2);
    expect(p.options).toEqual([{ name: 'Color', values: ['Red', 'Blue'] }]);
    expect(p.version).toBe(1);
    expect((await variantRows(p.id)).map((v) => [v.sku, v.title, v.options, v.price?.toString() ?? null, v.inventoryQuantity])).toEqual([
      ['ALP-RED', 'Red', { Color: 'Red' }, null, 5],
      ['ALP-BLUE', 'Blue', { Color: 'Blue' }, '21.5', 0],
    ]);
    const events = await db().event.findMany({ where: { resourceId: p.id }, select: { type: true, data: true } });
    expect(events.map((e) => e.type)).toEqual(['product.created']);
    expect((events[0]!.data as { variants_count: number }).variants_count).toBe(2);
    // The SKUs are searchable, as after a replace.
    const found = await t.request('GET', `${productsPath(s.storeId)}?search=alp-blue`, { token: s.ownerToken });
    expect(found.body.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
  });

  it('REST: a SKU another product holds creates nothing; every error of product and variants comes at once', async () => {
    await createProduct(t, s, { name: 'Holder', variants: [{ sku: 'HELD-1', options: { Size: 'M' } }] });
    const before = await productCount(s.storeId);
    const res = await t.request('POST', productsPath(s.storeId), {
      token: s.ownerToken,
      body: {
        name: '',
        price: -1,
        category_slugs: [s.categories[0]],
        variants: [{ sku: 'NEW-1', options: { Size: 'S' } }, { sku: 'NEW-1', options: { Size: 'L' } }, { sku: 'X', inventory_quantity: -2 }],
      },
    });
    const problem = expectProblem(res, 422, 'validation_failed');
    expect(problem.errors!.map((e) => [e.field, e.code]).sort()).toEqual(
      [
        ['name', expect.any(String)],
        ['price', expect.any(String)],
        ['variants.1.sku', 'duplicate_sku'],
        ['variants.2.inventory_quantity', expect.any(String)],
      ].sort(),
    );
    // The schema's errors answer first; then the store's (a SKU held elsewhere), with the product's own rules.
    const clash = await t.request('POST', productsPath(s.storeId), {
      token: s.ownerToken,
      body: { name: 'Clash', price: 10, category_slugs: ['no-such-category'], variants: [{ sku: 'FREE-1', options: { Size: 'S' } }, { sku: 'HELD-1', options: { Size: 'M' } }] },
    });
    const clashProblem = expectProblem(clash, 422, 'validation_failed');
    expect(clashProblem.errors!.map((e) => [e.field, e.code])).toEqual([
      ['category_slugs', 'unknown_category'],
      ['variants.1.sku', 'sku_taken'],
    ]);
    expect(await productCount(s.storeId)).toBe(before);
    expect(await db().variant.count({ where: { sku: 'FREE-1' } })).toBe(0);
  });

  it('GraphQL: createProduct takes variants; a failure writes nothing and names variants.N fields', async () => {
    const CREATE = `mutation($storeId: ID!, $input: ProductCreateInput!) { createProduct(storeId: $storeId, input: $input) { id variantsCount options { name values } } }`;
    const ok = await t.graphql(
      CREATE,
      { storeId: s.storeId, input: { name: 'Scarf', price: '30', categorySlugs: [s.categories[0]], variants: [{ sku: 'SCF-1', options: { Length: 'Long' }, compareAtPrice: '40' }] } },
      { token: s.ownerToken },
    );
    expect(gqlData(ok).createProduct).toMatchObject({ variantsCount: 1, options: [{ name: 'Length', values: ['Long'] }] });
    const before = await productCount(s.storeId);
    const failed = await t.graphql(
      CREATE,
      { storeId: s.storeId, input: { name: 'Scarf 2', price: '30', categorySlugs: [s.categories[0]], variants: [{ sku: 'SCF-2', options: { Length: 'Short' }, compareAtPrice: '20' }, { sku: 'SCF-1', options: { Length: 'Long' } }] } },
      { token: s.ownerToken },
    );
    const error = expectGqlError(failed, 'validation_failed');
    expect((error.extensions.errors as { field: string; code: string }[]).map((e) => [e.field, e.code])).toEqual([
      ['variants.0.compareAtPrice', 'compare_at_price_not_above_price'],
      ['variants.1.sku', 'sku_taken'],
    ]);
    expect(await productCount(s.storeId)).toBe(before);
  });

  it('without variants, a product error is answered as before (category_required)', async () => {
    const res = await t.request('POST', productsPath(s.storeId), { token: s.ownerToken, body: { name: 'Lonely', price: 1 } });
    expectProblem(res, 422, 'category_required');
  });
});
