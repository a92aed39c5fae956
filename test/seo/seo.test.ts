import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData, MISSING_ID, productPath } from '../products/helpers';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
});
afterAll(() => t.close());

const seoPath = (s: StoreFixture, productId: string) => `${productPath(s.storeId, productId)}/seo`;
const put = (s: StoreFixture, productId: string, body: unknown, token = s.ownerToken) => t.request('PUT', seoPath(s, productId), { token, body });
const readProduct = async (s: StoreFixture, id: string) => (await t.request('GET', productPath(s.storeId, id), { token: s.ownerToken })).body.data;

const SET = `mutation($storeId: ID!, $productId: ID!, $input: SeoInput!) {
  setProductSeo(storeId: $storeId, productId: $productId, input: $input) { title description slug canonicalUrl ogImageUrl noindex updatedAt }
}`;

const FULL = {
  title: 'Trail Shoe – light and grippy',
  description: 'A trail running shoe with a grippy sole.',
  slug: 'trail-shoe-2',
  canonical_url: 'https://shop.example.com/p/trail-shoe',
  og_image_url: 'http://cdn.example.com/img/trail.jpg',
  noindex: true,
};

describe('PUT /products/{id}/seo', () => {
  it('creates the SEO record, returns it, and the product read includes it', async () => {
    const p = await createProduct(t, a);
    expect(p.seo).toBeNull();
    const res = await put(a, p.id, FULL);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...FULL, updated_at: expect.any(String) });
    expect((await readProduct(a, p.id)).seo).toEqual(res.body.data);
    const row = await db().seo.findUniqueOrThrow({ where: { productId: p.id } });
    expect(row).toMatchObject({ storeId: a.storeId, slug: 'trail-shoe-2', canonicalUrl: FULL.canonical_url, noindex: true });
  });

  it('replaces the whole record: fields left out, null or blank are cleared', async () => {
    const p = await createProduct(t, a);
    await put(a, p.id, { ...FULL, slug: 'replace-me' });
    const res = await put(a, p.id, { title: 'Only a title', description: '   ', canonical_url: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      title: 'Only a title',
      description: null,
      slug: null,
      canonical_url: null,
      og_image_url: null,
      noindex: false,
      updated_at: expect.any(String),
    });
    expect(await db().seo.count({ where: { productId: p.id } })).toBe(1);
  });

  it('trims values and ignores read-only fields echoed back from a read', async () => {
    const p = await createProduct(t, a);
    const first = (await put(a, p.id, { title: '  Padded  ', slug: ' padded-slug ' })).body.data;
    expect(first).toMatchObject({ title: 'Padded', slug: 'padded-slug' });
    const again = await put(a, p.id, { ...first, noindex: true });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ title: 'Padded', slug: 'padded-slug', noindex: true });
  });

  it('counts characters, not bytes or UTF-16 units: 70 emoji fit in a title', async () => {
    const p = await createProduct(t, a);
    const res = await put(a, p.id, { title: '👟'.repeat(70), description: 'é'.repeat(320) });
    expect(res.status).toBe(200);
  });
});

describe('SEO validation (422, nothing written)', () => {
  let p: Record<string, any>;
  let before: unknown;
  beforeAll(async () => {
    p = await createProduct(t, a);
    before = (await put(a, p.id, { ...FULL, slug: 'validation-base' })).body.data;
  });
  afterEach(async () => {
    expect((await readProduct(a, p.id)).seo).toEqual(before);
  });

  it.each([
    ['a title over 70 characters', { title: 'x'.repeat(71) }, 'title'],
    ['a description over 320 characters', { description: 'x'.repeat(321) }, 'description'],
    ['a slug with uppercase letters', { slug: 'Trail-Shoe' }, 'slug'],
    ['a slug with spaces', { slug: 'trail shoe' }, 'slug'],
    ['a slug with a leading hyphen', { slug: '-trail' }, 'slug'],
    ['a slug with a double hyphen', { slug: 'trail--shoe' }, 'slug'],
    ['a slug with non-ASCII letters', { slug: 'schuh-grün' }, 'slug'],
    ['a slug with a slash', { slug: 'shoes/trail' }, 'slug'],
    ['a relative canonical_url', { canonical_url: '/p/trail-shoe' }, 'canonical_url'],
    ['an ftp canonical_url', { canonical_url: 'ftp://example.com/x' }, 'canonical_url'],
    ['a javascript: og_image_url', { og_image_url: 'javascript:alert(1)' }, 'og_image_url'],
    ['an og_image_url that is not a URL', { og_image_url: 'not a url' }, 'og_image_url'],
    ['a noindex that is not a boolean', { noindex: 'yes' }, 'noindex'],
    ['a title that is not a string', { title: 42 }, 'title'],
    ['an unknown field', { keywords: 'shoes' }, 'keywords'],
  ])('rejects %s', async (_what, body, field) => {
    const problem = expectProblem(await put(a, p.id, body), 422, 'validation_failed');
    expect(problem.errors!.map((e) => e.field)).toContain(field);
  });

  it('rejects a body that is not an object', async () => {
    expectProblem(await put(a, p.id, ['title']), 400, 'bad_request');
  });
});

describe('slug uniqueness per store (409)', () => {
  it('answers 409 slug_taken when another product of the store has the slug; other stores may reuse it', async () => {
    const first = await createProduct(t, a);
    const second = await createProduct(t, a);
    expect((await put(a, first.id, { slug: 'shared-slug' })).status).toBe(200);
    const res = await put(a, second.id, { title: 'Second', slug: 'shared-slug' });
    const problem = expectProblem(res, 409, 'slug_taken');
    expect(problem.detail).toContain('shared-slug');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'slug', code: 'slug_taken' })]);
    expect(await db().seo.count({ where: { productId: second.id } })).toBe(0);

    // The same product may send its own slug again.
    expect((await put(a, first.id, { slug: 'shared-slug', noindex: true })).status).toBe(200);
    const foreign = await createProduct(t, b);
    expect((await put(b, foreign.id, { slug: 'shared-slug' })).status).toBe(200);
  });

  it('frees a slug when its record clears it or its product is deleted', async () => {
    const holder = await createProduct(t, a);
    const taker = await createProduct(t, a);
    await put(a, holder.id, { slug: 'freed-slug' });
    await put(a, holder.id, { title: 'no slug now' });
    expect((await put(a, taker.id, { slug: 'freed-slug' })).status).toBe(200);

    expect((await t.request('DELETE', productPath(a.storeId, taker.id), { token: a.ownerToken })).status).toBe(204);
    expect(await db().seo.count({ where: { productId: taker.id } })).toBe(0);
    expect((await put(a, holder.id, { slug: 'freed-slug' })).status).toBe(200);
  });
});

describe('access', () => {
  let p: Record<string, any>;
  let foreign: Record<string, any>;
  beforeAll(async () => {
    p = await createProduct(t, a);
    foreign = await createProduct(t, b);
  });

  it('answers 401 without a token', async () => {
    expectProblem(await t.request('PUT', seoPath(a, p.id), { body: FULL }), 401, 'unauthenticated');
    const gql = await t.graphql(SET, { storeId: a.storeId, productId: p.id, input: {} });
    expect(gql.status).toBe(401);
    expectGqlError(gql, 'unauthenticated');
  });

  it('answers 403 to staff without manage_products and to another store\'s owner', async () => {
    expectProblem(await put(a, p.id, { title: 'x' }, a.viewerToken), 403, 'forbidden');
    expectProblem(await put(a, p.id, { title: 'x' }, b.ownerToken), 403, 'forbidden');
    expectGqlError(await t.graphql(SET, { storeId: a.storeId, productId: p.id, input: { title: 'x' } }, { token: a.viewerToken }), 'forbidden');
    expect(await db().seo.count({ where: { productId: p.id } })).toBe(0);
  });

  it('lets staff with manage_products set SEO', async () => {
    expect((await put(a, p.id, { title: 'By staff' }, a.staffToken)).status).toBe(200);
  });

  it.each([
    ['an unknown id', () => MISSING_ID],
    ['a malformed id', () => 'nope'],
    ["another store's product", () => foreign.id],
  ])('answers 404 for %s', async (_what, id) => {
    expectProblem(await put(a, id(), { title: 'x' }), 404, 'not_found');
    expectGqlError(await t.graphql(SET, { storeId: a.storeId, productId: id(), input: { title: 'x' } }, { token: a.ownerToken }), 'not_found');
    expect(await db().seo.count({ where: { productId: foreign.id } })).toBe(0);
  });
});

describe('GraphQL', () => {
  it('sets SEO and exposes it on Product', async () => {
    const p = await createProduct(t, a);
    const input = { title: 'GQL', slug: 'gql-product', canonicalUrl: 'https://example.com/gql', noindex: true };
    const res = gqlData(await t.graphql(SET, { storeId: a.storeId, productId: p.id, input }, { token: a.ownerToken }));
    expect(res.setProductSeo).toEqual({ ...input, description: null, ogImageUrl: null, updatedAt: expect.any(String) });
    const read = gqlData(
      await t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { seo { slug noindex } } }`, { s: a.storeId, id: p.id }, { token: a.ownerToken }),
    );
    expect(read.product.seo).toEqual({ slug: 'gql-product', noindex: true });
  });

  it('reports validation errors and slug clashes with stable codes', async () => {
    const holder = await createProduct(t, a);
    await put(a, holder.id, { slug: 'gql-taken' });
    const p = await createProduct(t, a);
    const bad = expectGqlError(await t.graphql(SET, { storeId: a.storeId, productId: p.id, input: { canonicalUrl: 'relative/path' } }, { token: a.ownerToken }), 'validation_failed');
    expect(bad.extensions.errors[0].field).toBe('canonicalUrl');
    const taken = expectGqlError(await t.graphql(SET, { storeId: a.storeId, productId: p.id, input: { slug: 'gql-taken' } }, { token: a.ownerToken }), 'slug_taken');
    expect(taken.extensions.slug).toBe('gql-taken');
  });
});
