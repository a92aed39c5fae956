import { db } from '../../src/platform/db/client';
import { coveredByFullRow, fullProductRow, fullProductRowsByIds } from '../../src/catalog/services/productRows';
import { PRODUCT_VIEW_INCLUDE, type ProductViewRow } from '../../src/catalog/services/views';
import { createStoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, productPath, productsPath } from './helpers';

/**
 * The product screens, GraphQL and REST load products with one hand-written
 * statement (src/catalog/services/productRows.ts) instead of Prisma's relation
 * loading. Its rows must be exactly what Prisma gives for the same include,
 * whatever the product carries: images in order, SEO with and without nulls,
 * several categories, variants, schedule times, money with cents.
 */
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** Prisma leaves the order of categories open; both sides are compared by slug. */
const bySlug = (rows: ProductViewRow[]) =>
  [...rows]
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((r) => ({ ...r, categories: [...r.categories].sort((a, b) => a.category.slug.localeCompare(b.category.slug)) }));

describe('full product rows', () => {
  it('equal what Prisma loads for the representation include, for plain and rich products', async () => {
    const s = await createStoreFixture();
    const plain = await createProduct(t, s, { name: 'Plain', price: 10 });
    const rich = await createProduct(t, s, { name: 'Rich', price: 1234.5, category_slugs: s.categories, tags: ['b', 'a'], status: 'active' });
    const scheduled = await createProduct(t, s, { name: 'Scheduled', price: 0.99, publish_at: new Date(Date.now() + 86_400_000).toISOString() });
    await db().productImage.createMany({
      data: [
        { storeId: s.storeId, productId: rich.id, sha256: 'b'.repeat(64), mimeType: 'image/png', width: 2, height: 3, sizeBytes: 40, alt: 'second', position: 1 },
        { storeId: s.storeId, productId: rich.id, sha256: 'a'.repeat(64), mimeType: 'image/jpeg', width: 4, height: 5, sizeBytes: 50, alt: null, position: 0 },
      ],
    });
    await db().seo.create({ data: { storeId: s.storeId, productId: rich.id, title: 'Rich', description: null, slug: 'rich', canonicalUrl: 'https://shop.example/rich', noindex: true } });
    await db().seo.create({ data: { storeId: s.storeId, productId: plain.id } });
    await db().variant.createMany({
      data: [1, 2, 3].map((n) => ({ storeId: s.storeId, productId: rich.id, sku: `RICH-${n}`, optionsKey: `size=${n}`, options: { size: String(n) }, price: n === 2 ? 1.25 : null })),
    });
    const ids = [plain.id, rich.id, scheduled.id];
    const expected = await db().product.findMany({ where: { id: { in: ids } }, include: PRODUCT_VIEW_INCLUDE });
    const rows = await fullProductRowsByIds(ids);
    expect(rows).toHaveLength(3);
    expect(bySlug(rows)).toStrictEqual(bySlug(expected));
    const richRow = rows.find((r) => r.id === rich.id)!;
    expect(richRow.images.map((i) => i.alt)).toEqual([null, 'second']);
    expect(richRow.price.toFixed(2)).toBe('1234.50');
    expect(richRow._count.variants).toBe(3);
  });

  it('read one product only in its store and mode', async () => {
    const s = await createStoreFixture();
    const other = await createStoreFixture();
    const p = await createProduct(t, s);
    const [expected] = await db().product.findMany({ where: { id: p.id }, include: PRODUCT_VIEW_INCLUDE });
    expect(await fullProductRow(s.storeId, 'live', p.id)).toStrictEqual(expected);
    expect(await fullProductRow(s.storeId, 'test', p.id)).toBeNull();
    expect(await fullProductRow(other.storeId, 'live', p.id)).toBeNull();
  });

  it('answer the queries they cover, and leave the others to Prisma', () => {
    expect(coveredByFullRow({})).toBe(true);
    expect(coveredByFullRow({ include: PRODUCT_VIEW_INCLUDE })).toBe(true);
    expect(coveredByFullRow({ include: { images: PRODUCT_VIEW_INCLUDE.images, seo: true } })).toBe(true);
    expect(coveredByFullRow({ select: { id: true, name: true, _count: PRODUCT_VIEW_INCLUDE._count } })).toBe(true);
    expect(coveredByFullRow({ include: { variants: true } })).toBe(false);
    expect(coveredByFullRow({ include: { images: { orderBy: [{ position: 'desc' }] } } })).toBe(false);
    expect(coveredByFullRow({ select: { id: true, store: { select: { name: true } } } })).toBe(false);
  });

  it('serve the REST list and read as the GraphQL fragment describes them', async () => {
    const s = await createStoreFixture();
    const p = await createProduct(t, s, { name: 'Shown', price: 19.99, tags: ['x'], category_slugs: [s.categories[1], s.categories[0]] });
    await db().productImage.create({ data: { storeId: s.storeId, productId: p.id, sha256: 'c'.repeat(64), mimeType: 'image/webp', width: 7, height: 8, sizeBytes: 9, position: 0 } });
    const read = await t.request('GET', productPath(s.storeId, p.id), { token: s.ownerToken });
    expect(read.status).toBe(200);
    const list = await t.request('GET', productsPath(s.storeId), { token: s.ownerToken });
    expect(list.body.data).toEqual([read.body.data]);
    expect(read.body.data).toMatchObject({
      name: 'Shown',
      price: 19.99,
      currency: 'EUR',
      category_slugs: [s.categories[1], s.categories[0]].sort(),
      variants_count: 0,
      seo: null,
      images: [{ width: 7, height: 8, mime_type: 'image/webp', size_bytes: 9, position: 0, alt: null }],
    });
    expect(read.body.data.images[0].url).toMatch(/^http/);
  });
});
