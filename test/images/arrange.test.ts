import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct } from '../products/helpers';
import { filePart, makeImage, restUpload } from './images';

/**
 * arrangeProductImages: a product's image order and alt texts in one write, a
 * new product version with product.images_updated; the list must name every
 * image once; a stale version changes nothing.
 */
let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t?.close());

const ARRANGE = `mutation($storeId: ID!, $productId: ID!, $images: [ProductImageArrangement!]!, $v: Int) {
  arrangeProductImages(storeId: $storeId, productId: $productId, images: $images, expectedVersion: $v) { id alt position }
}`;
const codeOf = (res: { body: any }) => res.body?.errors?.[0]?.extensions?.code;

async function productWithImages(n: number) {
  const p = await createProduct(t, a, { name: 'Pictured' });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: p.id }, filePart(await makeImage('png', 10 + i, 10), `p${i}.png`, 'image/png')]);
    expect(res.status).toBe(201);
    ids.push(res.body.data.id);
  }
  const { version } = await db().product.findUniqueOrThrow({ where: { id: p.id }, select: { version: true } });
  return { id: p.id as string, ids, version };
}

it('reorders and sets alt texts in one new version, with product.images_updated; the same arrangement again writes nothing', async () => {
  const p = await productWithImages(3);
  const images = [{ id: p.ids[2], alt: 'Side view' }, { id: p.ids[0] }, { id: p.ids[1], alt: null }];
  const res = await t.graphql(ARRANGE, { storeId: a.storeId, productId: p.id, images, v: p.version }, { token: a.ownerToken });
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.arrangeProductImages).toEqual([
    { id: p.ids[2], alt: 'Side view', position: 0 },
    { id: p.ids[0], alt: null, position: 1 },
    { id: p.ids[1], alt: null, position: 2 },
  ]);
  const after = await db().product.findUniqueOrThrow({ where: { id: p.id }, select: { version: true } });
  expect(after.version).toBe(p.version + 1);
  expect(await db().event.count({ where: { resourceId: p.id, type: 'product.images_updated' } })).toBe(1);
  // The REST product shows the new order.
  const rest = await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products/${p.id}`, { token: a.ownerToken });
  expect(rest.body.data.images.map((i: { id: string }) => i.id)).toEqual([p.ids[2], p.ids[0], p.ids[1]]);

  const again = await t.graphql(ARRANGE, { storeId: a.storeId, productId: p.id, images: [{ id: p.ids[2] }, { id: p.ids[0] }, { id: p.ids[1] }] }, { token: a.ownerToken });
  expect(again.body.errors).toBeUndefined();
  expect((await db().product.findUniqueOrThrow({ where: { id: p.id }, select: { version: true } })).version).toBe(p.version + 1);
});

it('refuses a list that is not the product\'s images exactly once, a stale version, and staff without manage_products; nothing changes', async () => {
  const p = await productWithImages(2);
  const other = await productWithImages(1);
  const cases: [unknown[], string][] = [
    [[{ id: p.ids[0] }], 'validation_failed'],
    [[{ id: p.ids[0] }, { id: p.ids[1] }, { id: other.ids[0] }], 'validation_failed'],
    [[{ id: p.ids[0] }, { id: p.ids[0] }], 'validation_failed'],
  ];
  for (const [images, code] of cases) {
    expect(codeOf(await t.graphql(ARRANGE, { storeId: a.storeId, productId: p.id, images }, { token: a.ownerToken }))).toBe(code);
  }
  const stale = await t.graphql(ARRANGE, { storeId: a.storeId, productId: p.id, images: [{ id: p.ids[1] }, { id: p.ids[0] }], v: p.version - 1 }, { token: a.ownerToken });
  expect(codeOf(stale)).toBe('precondition_failed');
  const viewer = await t.graphql(ARRANGE, { storeId: a.storeId, productId: p.id, images: [{ id: p.ids[1] }, { id: p.ids[0] }] }, { token: a.viewerToken });
  expect(codeOf(viewer)).toBe('forbidden');
  const rows = await db().productImage.findMany({ where: { productId: p.id }, orderBy: { position: 'asc' }, select: { id: true } });
  expect(rows.map((r) => r.id)).toEqual(p.ids);
});
