import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData, MISSING_ID, productPath, storedProduct } from './helpers';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
});
afterAll(() => t.close());

const PUBLISH = `mutation($storeId: ID!, $id: ID!) { publishProduct(storeId: $storeId, id: $id) { id status isActive publishedAt version } }`;
const UNPUBLISH = `mutation($storeId: ID!, $id: ID!) { unpublishProduct(storeId: $storeId, id: $id) { id status isActive publishedAt version } }`;
const DELETE = `mutation($storeId: ID!, $id: ID!) { deleteProduct(storeId: $storeId, id: $id) { id } }`;

const publish = (s: StoreFixture, id: string, token = s.ownerToken) => t.request('POST', `${productPath(s.storeId, id)}/publish`, { token });
const unpublish = (s: StoreFixture, id: string, token = s.ownerToken) => t.request('POST', `${productPath(s.storeId, id)}/unpublish`, { token });
const del = (s: StoreFixture, id: string, token = s.ownerToken) => t.request('DELETE', productPath(s.storeId, id), { token });

describe('POST /products/{id}/publish and /unpublish', () => {
  it('publishes a draft (status active, published_at set, new ETag) and is idempotent', async () => {
    const p = await createProduct(t, a);
    expect(p).toMatchObject({ status: 'draft', published_at: null });
    const res = await publish(a, p.id);
    expect(res.status).toBe(200);
    const pub = res.body.data;
    expect(pub).toMatchObject({ id: p.id, status: 'active', is_active: true, version: 2 });
    expect(new Date(pub.published_at).getTime()).toBeGreaterThanOrEqual(new Date(p.created_at).getTime());
    expect(res.headers.get('etag')).toBe('"v2"');

    const again = await publish(a, p.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(pub);
    expect(again.headers.get('etag')).toBe('"v2"');
    expect(await storedProduct(p.id)).toMatchObject({ status: 'active', version: 2 });
  });

  it('unpublishes to draft, idempotently', async () => {
    const p = await createProduct(t, a, { status: 'active' });
    const res = await unpublish(a, p.id);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'draft', is_active: false, version: 2 });
    const again = await unpublish(a, p.id);
    expect(again.body.data).toEqual(res.body.data);
    expect((await storedProduct(p.id))!.status).toBe('draft');
    const draft = await createProduct(t, a);
    expect((await unpublish(a, draft.id)).body.data).toMatchObject({ status: 'draft', version: 1 });
  });

  it('stamps published_at again when a draft is re-published', async () => {
    const p = await createProduct(t, a);
    const first = (await publish(a, p.id)).body.data.published_at;
    const un = await unpublish(a, p.id);
    expect(un.body.data.published_at).toBe(first);
    await new Promise((r) => setTimeout(r, 5));
    const again = (await publish(a, p.id)).body.data;
    expect(again.version).toBe(4);
    expect(new Date(again.published_at).getTime()).toBeGreaterThan(new Date(first).getTime());
  });

  it('refuses to publish an archived product with 409 product_archived and leaves it archived', async () => {
    const p = await createProduct(t, a, { status: 'archived' });
    const before = await storedProduct(p.id);
    expectProblem(await publish(a, p.id), 409, 'product_archived');
    expectGqlError(await t.graphql(PUBLISH, { storeId: a.storeId, id: p.id }, { token: a.ownerToken }), 'product_archived');
    expect(await storedProduct(p.id)).toEqual(before);
  });

  it('works the same through GraphQL', async () => {
    const p = await createProduct(t, a);
    const pub = gqlData(await t.graphql(PUBLISH, { storeId: a.storeId, id: p.id }, { token: a.staffToken })).publishProduct;
    expect(pub).toMatchObject({ status: 'active', isActive: true, publishedAt: expect.any(String), version: 2 });
    expect(gqlData(await t.graphql(PUBLISH, { storeId: a.storeId, id: p.id }, { token: a.staffToken })).publishProduct).toEqual(pub);
    const un = gqlData(await t.graphql(UNPUBLISH, { storeId: a.storeId, id: p.id }, { token: a.staffToken })).unpublishProduct;
    expect(un).toMatchObject({ status: 'draft', isActive: false, version: 3 });
    expect(gqlData(await t.graphql(UNPUBLISH, { storeId: a.storeId, id: p.id }, { token: a.staffToken })).unpublishProduct).toEqual(un);
  });

  it.each([
    ['publish', publish, PUBLISH],
    ['unpublish', unpublish, UNPUBLISH],
  ] as const)('%s: 404 for unknown, non-UUID and cross-store ids; 403 without permission; 401 without a token', async (_name, call, gql) => {
    const pa = await createProduct(t, a);
    const pb = await createProduct(t, b);
    const [beforeA, beforeB] = [await storedProduct(pa.id), await storedProduct(pb.id)];
    for (const id of [MISSING_ID, 'nope']) {
      expectProblem(await call(a, id), 404, 'not_found');
      expectGqlError(await t.graphql(gql, { storeId: a.storeId, id }, { token: a.ownerToken }), 'not_found');
    }
    expectProblem(await call(a, pb.id), 404, 'not_found');
    expectProblem(await call(b, pa.id), 404, 'not_found');
    expectGqlError(await t.graphql(gql, { storeId: b.storeId, id: pa.id }, { token: b.ownerToken }), 'not_found');
    expectProblem(await call(a, pa.id, a.viewerToken), 403, 'forbidden');
    expectGqlError(await t.graphql(gql, { storeId: a.storeId, id: pa.id }, { token: a.viewerToken }), 'forbidden');
    expectProblem(await t.request('POST', `${productPath(a.storeId, pa.id)}/${_name}`), 401, 'unauthenticated');
    expectGqlError(await t.graphql(gql, { storeId: a.storeId, id: pa.id }), 'unauthenticated');
    expect([await storedProduct(pa.id), await storedProduct(pb.id)]).toEqual([beforeA, beforeB]);
  });
});

describe('DELETE /products/{id}', () => {
  /** A product with everything that hangs off it: variants, SEO, images, category links. */
  async function productWithEverything(s: StoreFixture) {
    const p = await createProduct(t, s, { category_slugs: ['shoes', 'hats'] });
    await db().variant.create({ data: { storeId: s.storeId, productId: p.id, sku: `SKU-${p.id.slice(0, 8)}`, optionsKey: '{}' } });
    await db().seo.create({ data: { storeId: s.storeId, productId: p.id, slug: `slug-${p.id.slice(0, 8)}` } });
    await db().productImage.create({ data: { storeId: s.storeId, productId: p.id, sha256: 'a'.repeat(64), mimeType: 'image/png', width: 1, height: 1, sizeBytes: 1 } });
    return p;
  }
  const leftovers = async (id: string) => ({
    product: await db().product.count({ where: { id } }),
    variants: await db().variant.count({ where: { productId: id } }),
    seo: await db().seo.count({ where: { productId: id } }),
    images: await db().productImage.count({ where: { productId: id } }),
    categories: await db().productCategory.count({ where: { productId: id } }),
  });

  it('answers 204 with no body, removes the product with its variants, SEO, images and category links; then 404', async () => {
    const p = await productWithEverything(a);
    const keep = await productWithEverything(a);
    expect(await leftovers(p.id)).toEqual({ product: 1, variants: 1, seo: 1, images: 1, categories: 2 });
    const res = await del(a, p.id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await leftovers(p.id)).toEqual({ product: 0, variants: 0, seo: 0, images: 0, categories: 0 });
    expectProblem(await t.request('GET', productPath(a.storeId, p.id), { token: a.ownerToken }), 404, 'not_found');
    expectProblem(await del(a, p.id), 404, 'not_found');
    // The categories themselves and other products stay.
    expect(await db().category.count({ where: { storeId: a.storeId } })).toBe(3);
    expect(await leftovers(keep.id)).toEqual({ product: 1, variants: 1, seo: 1, images: 1, categories: 2 });
  });

  it('deletes through GraphQL, returning the id; a second delete is not_found', async () => {
    const p = await createProduct(t, a);
    expect(gqlData(await t.graphql(DELETE, { storeId: a.storeId, id: p.id }, { token: a.staffToken })).deleteProduct).toEqual({ id: p.id });
    expect(await storedProduct(p.id)).toBeNull();
    expectGqlError(await t.graphql(DELETE, { storeId: a.storeId, id: p.id }, { token: a.staffToken }), 'not_found');
  });

  it('404s unknown, non-UUID and cross-store ids (both directions) and deletes nothing', async () => {
    const pa = await productWithEverything(a);
    const pb = await productWithEverything(b);
    for (const id of [MISSING_ID, 'not-a-uuid']) {
      expectProblem(await del(a, id), 404, 'not_found');
      expectGqlError(await t.graphql(DELETE, { storeId: a.storeId, id }, { token: a.ownerToken }), 'not_found');
    }
    expectProblem(await del(a, pb.id), 404, 'not_found');
    expectProblem(await del(b, pa.id), 404, 'not_found');
    expectGqlError(await t.graphql(DELETE, { storeId: a.storeId, id: pb.id }, { token: a.ownerToken }), 'not_found');
    expect(await leftovers(pa.id)).toEqual({ product: 1, variants: 1, seo: 1, images: 1, categories: 2 });
    expect(await leftovers(pb.id)).toEqual({ product: 1, variants: 1, seo: 1, images: 1, categories: 2 });
  });

  it('answers 403 without manage_products and 401 without a token, deleting nothing', async () => {
    const p = await createProduct(t, a);
    expectProblem(await del(a, p.id, a.viewerToken), 403, 'forbidden');
    expectProblem(await del(a, p.id, b.ownerToken), 403, 'forbidden');
    expectGqlError(await t.graphql(DELETE, { storeId: a.storeId, id: p.id }, { token: a.viewerToken }), 'forbidden');
    expectProblem(await t.request('DELETE', productPath(a.storeId, p.id)), 401, 'unauthenticated');
    expectGqlError(await t.graphql(DELETE, { storeId: a.storeId, id: p.id }), 'unauthenticated');
    expect(await storedProduct(p.id)).not.toBeNull();
  });
});
