import { db } from '../../src/platform/db/client';
import type { ErrorCode } from '../../src/platform/errors';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import type { TestResponse, TestServer } from '../helpers/harness';
import { startTestServer } from '../helpers/harness';
import { filePart, makeImage, restUpload } from '../images/images';
import { createProduct, productPath, productsPath } from './helpers';

/**
 * Two clients on one product. Each kind of write on a product and its parts is
 * sent again and again, through REST and GraphQL, while another client deletes
 * the product: every answer is a success, 404, or 412 for a write that named a
 * version, never a 5xx; afterwards nothing of the product remains, and the only
 * events are those of writes that answered success, one per version. On PGlite
 * (one connection) the requests run one after another; on PostgreSQL they
 * overlap, and the delete commits in the middle of other writes.
 */
let t: TestServer;
let a: StoreFixture;
let png: Buffer;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  png = await makeImage('png', 8, 8);
});
afterAll(() => t.close());
const ROUNDS = 6;
const run = Date.now().toString(36);
const SEO = { title: 'Seeded title', description: 'Seeded description' };

interface Seeded {
  id: string;
  path: string;
  images: string[];
  version: number;
  /** Request ids of the writes that built the product. */
  requestIds: string[];
}

/** A draft product with two variants, an SEO record and two images: every no-change path of a write has something to compare. */
async function seed(round: number): Promise<Seeded> {
  const p = await createProduct(t, a, { name: `Race ${round}` });
  const path = productPath(a.storeId, p.id);
  const variants = await req('PUT', `${path}/variants`, { variants: [{ sku: `${run}-${round}-a`, options: { size: 'S' } }, { sku: `${run}-${round}-b`, options: { size: 'M' } }] });
  const seo = await req('PUT', `${path}/seo`, SEO);
  const uploads = [];
  for (let i = 0; i < 2; i++) uploads.push(await restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: p.id }, filePart(png, `r${i}.png`, 'image/png')]));
  for (const r of [variants, seo, ...uploads]) expect(r.status).toBeLessThan(300);
  const created = await db().event.findMany({ where: { resourceId: p.id }, select: { requestId: true, resourceVersion: true } });
  return {
    id: p.id,
    path,
    images: uploads.map((u) => u.body.data.id),
    version: Math.max(...created.map((e) => e.resourceVersion!)),
    requestIds: created.map((e) => e.requestId!),
  };
}

const req = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => t.request(method, path, { token: a.ownerToken, body, headers });
const gql = (query: string, variables: Record<string, unknown>) => t.graphql(query, { storeId: a.storeId, ...variables }, { token: a.ownerToken });

const PRODUCT_FIELDS = 'id version';
const G = {
  update: `mutation($storeId: ID!, $id: ID!, $input: ProductUpdateInput!) { updateProduct(storeId: $storeId, id: $id, input: $input) { ${PRODUCT_FIELDS} } }`,
  publish: `mutation($storeId: ID!, $id: ID!) { publishProduct(storeId: $storeId, id: $id) { ${PRODUCT_FIELDS} } }`,
  unpublish: `mutation($storeId: ID!, $id: ID!) { unpublishProduct(storeId: $storeId, id: $id) { ${PRODUCT_FIELDS} } }`,
  delete: `mutation($storeId: ID!, $id: ID!) { deleteProduct(storeId: $storeId, id: $id) { id } }`,
  variants: `mutation($storeId: ID!, $productId: ID!, $variants: [VariantInput!]!) { replaceProductVariants(storeId: $storeId, productId: $productId, variants: $variants) { id sku } }`,
  seo: `mutation($storeId: ID!, $productId: ID!, $input: SeoInput!, $v: Int) { setProductSeo(storeId: $storeId, productId: $productId, input: $input, expectedVersion: $v) { title } }`,
  arrange: `mutation($storeId: ID!, $productId: ID!, $images: [ProductImageArrangement!]!) { arrangeProductImages(storeId: $storeId, productId: $productId, images: $images) { id } }`,
  removeImage: `mutation($storeId: ID!, $productId: ID!, $id: ID!) { removeProductImage(storeId: $storeId, productId: $productId, id: $id) { id } }`,
};

const future = () => new Date(Date.now() + 86_400_000).toISOString();

/**
 * A kind of write: `send` makes its i-th request (`seen`: the latest version its answers showed); `also` lists
 * the answers besides success and 404 its rules allow; `shows` checks what a success answered.
 */
interface Write {
  name: string;
  send: (p: Seeded, i: number, seen: number) => Promise<TestResponse>;
  also?: ErrorCode[];
  shows?: (res: TestResponse, p: Seeded) => boolean;
}

const WRITES: Write[] = [
  { name: 'REST publish', send: (p) => req('POST', `${p.path}/publish`) },
  // The product is a draft: unpublishing it changes nothing, until a publish makes it active.
  { name: 'REST unpublish', send: (p) => req('POST', `${p.path}/unpublish`) },
  { name: 'REST update', send: (p, i) => req('PUT', p.path, { description: `written ${i}`, inventory_quantity: i }) },
  { name: 'REST update changing nothing', send: (p) => req('PUT', p.path, {}) },
  // Another writer moves the version on meanwhile: 412, unless the product is gone (404).
  { name: 'REST update with If-Match', send: (p, i, seen) => req('PUT', p.path, { tags: [`t${i}`] }, { 'If-Match': `"v${seen}"` }), also: ['precondition_failed'] },
  { name: 'REST schedule', send: (p, i) => req('PUT', p.path, i % 2 ? { unpublish_at: future() } : { publish_at: null, unpublish_at: null }) },
  { name: 'REST categories', send: (p, i) => req('PUT', p.path, { category_slugs: i % 2 ? ['shoes'] : ['shirts', 'hats'] }) },
  { name: 'REST variants', send: (p, i) => req('PUT', `${p.path}/variants`, { variants: [{ sku: `${run}-${p.id}-rest-${i}`, options: { size: 'L' } }] }) },
  { name: 'REST SEO', send: (p, i) => req('PUT', `${p.path}/seo`, { title: `Title ${i}` }) },
  { name: 'REST SEO changing nothing', send: (p) => req('PUT', `${p.path}/seo`, SEO) },
  {
    name: 'REST image upload',
    send: (p, i) => restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: p.id }, filePart(png, `u${i}.png`, 'image/png')]),
  },
  { name: 'REST image delete', send: (p, i) => req('DELETE', `${p.path}/images/${p.images[i % 2]}`) },
  { name: 'GraphQL update', send: (p, i) => gql(G.update, { id: p.id, input: { name: `Renamed ${i}` } }) },
  { name: 'GraphQL update changing nothing', send: (p) => gql(G.update, { id: p.id, input: {} }) },
  { name: 'GraphQL publish', send: (p) => gql(G.publish, { id: p.id }) },
  { name: 'GraphQL unpublish', send: (p) => gql(G.unpublish, { id: p.id }) },
  { name: 'GraphQL variants', send: (p, i) => gql(G.variants, { productId: p.id, variants: [{ sku: `${run}-${p.id}-gql-${i}`, options: { size: 'XL' } }] }) },
  { name: 'GraphQL SEO changing nothing', send: (p) => gql(G.seo, { productId: p.id, input: SEO }) },
  { name: 'GraphQL SEO with expectedVersion', send: (p, i, seen) => gql(G.seo, { productId: p.id, input: { title: `Versioned ${i}` }, v: seen }), also: ['precondition_failed'] },
  {
    name: 'GraphQL image arrangement',
    send: (p, i) => gql(G.arrange, { productId: p.id, images: (i % 2 ? [...p.images].reverse() : p.images).map((id) => ({ id })) }),
    // An arrangement of a product that is gone is not an empty list of images.
    shows: (res, p) => res.body.data.arrangeProductImages.length === p.images.length,
  },
  { name: 'GraphQL image removal', send: (p, i) => gql(G.removeImage, { productId: p.id, id: p.images[(i + 1) % 2] }) },
];

/** The error code of an answer (REST problem or GraphQL error), or null for a success. */
function errorCode(r: TestResponse): string | null {
  if (r.status >= 300) return r.body?.code ?? `http_${r.status}`;
  if (r.body?.errors) return r.body.errors[0]?.extensions?.code ?? 'unknown';
  return null;
}

/** Each write, in a loop, until the product's delete has answered: the delete commits while some of them are half-way. */
async function race(p: Seeded, writes: Write[], deleteVia: 'REST' | 'GraphQL') {
  let deleted = false;
  const answers: { write: string; res: TestResponse }[] = [];
  const loops = writes.map(async (w) => {
    let seen = p.version;
    for (let i = 0; !deleted; i++) {
      const res = await w.send(p, i, seen);
      answers.push({ write: w.name, res });
      // The version an answer shows: an ETag, a 412's current_version, else one more after a success.
      const etag = /"v(\d+)"/.exec(res.headers.get('etag') ?? '')?.[1];
      seen = Number(etag ?? res.body?.current_version ?? res.body?.errors?.[0]?.extensions?.current_version ?? seen + 1);
    }
  });
  // A moment's head start, so the writes are under way when the delete begins.
  await new Promise((r) => setTimeout(r, 5));
  const del = await (deleteVia === 'REST' ? req('DELETE', p.path) : gql(G.delete, { id: p.id }));
  deleted = true;
  await Promise.all(loops);
  return { del, answers };
}

/** Every answer is a success, 404 or a code the write's rules allow; the product and everything of it are gone; events only of successes. */
async function expectClean(p: Seeded, writes: Write[], outcome: Awaited<ReturnType<typeof race>>) {
  expect({ delete: errorCode(outcome.del) }).toEqual({ delete: null });
  const unexpected = outcome.answers
    .map(({ write, res }) => ({ write, status: res.status, code: errorCode(res), message: res.body?.errors?.[0]?.message ?? res.body?.detail }))
    .filter(({ write, code }) => code !== null && code !== 'not_found' && !writes.find((w) => w.name === write)!.also?.includes(code as ErrorCode));
  expect(unexpected).toEqual([]);
  const wrong = outcome.answers.filter(({ write, res }) => errorCode(res) === null && !(writes.find((w) => w.name === write)!.shows?.(res, p) ?? true));
  expect(wrong.map(({ write, res }) => ({ write, body: res.body }))).toEqual([]);

  const where = { productId: p.id };
  expect({
    product: await db().product.count({ where: { id: p.id } }),
    variants: await db().variant.count({ where }),
    seo: await db().seo.count({ where }),
    images: await db().productImage.count({ where }),
    categories: await db().productCategory.count({ where }),
  }).toEqual({ product: 0, variants: 0, seo: 0, images: 0, categories: 0 });

  // Events: of the writes that answered success only; one per version; the deletion is the last.
  const events = await db().event.findMany({ where: { resourceId: p.id }, orderBy: { resourceVersion: 'asc' }, select: { type: true, requestId: true, resourceVersion: true } });
  const succeeded = new Set([...p.requestIds, outcome.del.headers.get('x-request-id'), ...outcome.answers.filter(({ res }) => errorCode(res) === null).map(({ res }) => res.headers.get('x-request-id'))]);
  expect(events.filter((e) => !succeeded.has(e.requestId))).toEqual([]);
  const versions = events.map((e) => e.resourceVersion!);
  expect(versions).toEqual(Array.from({ length: versions.length }, (_, i) => i + 1));
  expect(events.at(-1)!.type).toBe('product.deleted');
  expect(events.at(-1)!.requestId).toBe(outcome.del.headers.get('x-request-id'));
}

/** The writes of a round: each kind in turn with some others, every round with writes that change nothing (their own path to the answer). */
const GROUPS: Write[][] = [
  WRITES.filter((w) => /unpublish|changing nothing|REST update|REST publish/.test(w.name)),
  WRITES.filter((w) => /schedule|categories|variants|GraphQL publish|REST unpublish/.test(w.name)),
  WRITES.filter((w) => /SEO|arrangement|GraphQL update|If-Match/.test(w.name)),
  WRITES.filter((w) => /image upload|image delete|image removal|changing nothing/.test(w.name)),
];

describe('writes racing a delete of their product', () => {
  it('cover every kind of write', () => {
    expect(new Set(GROUPS.flat())).toEqual(new Set(WRITES));
  });

  it.each(GROUPS.map((g, i) => [i + 1, g.map((w) => w.name).join(', '), g] as const))(
    'group %i (%s): success, 404 or a stale version\'s 412, never 5xx; nothing left behind',
    async (_n, _names, writes) => {
      for (let round = 0; round < ROUNDS; round++) {
        const p = await seed(round);
        const outcome = await race(p, writes, round % 2 ? 'GraphQL' : 'REST');
        await expectClean(p, writes, outcome);
      }
    },
    60_000,
  );
});

describe('writes naming a category racing its delete', () => {
  const DELETE_CATEGORY = `mutation($storeId: ID!, $slug: String!) { deleteCategory(storeId: $storeId, category: $slug) { id } }`;

  it('the write answers success and the delete category_in_use, or the delete succeeds and the write unknown_category; never 5xx, never a product without categories', async () => {
    const p = await createProduct(t, a, { name: 'Moves between categories' });
    const path = productPath(a.storeId, p.id);
    for (let round = 0; round < 4 * ROUNDS; round++) {
      const slug = `race-${run}-${round}`;
      await db().category.create({ data: { storeId: a.storeId, slug, name: slug } });
      await req('PUT', path, { category_slugs: ['shoes'] });
      // Staggered differently each round (the writes first, or the delete), so they meet at different points.
      const lag = round % 5;
      const after = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const [update, create, del] = await Promise.all([
        after(round % 2 ? lag : 0).then(() => req('PUT', path, { category_slugs: [slug] })),
        after(round % 2 ? lag : 1).then(() => req('POST', productsPath(a.storeId), { name: `In ${slug}`, price: 1, category_slugs: [slug] })),
        after(round % 2 ? 0 : lag).then(() => gql(DELETE_CATEGORY, { slug })),
      ]);
      const answers = { update: errorCode(update), create: errorCode(create), delete: errorCode(del) };
      const deleted = answers.delete === null;
      // Both writes came before the delete (category_in_use), or after it (unknown_category).
      expect(answers).toEqual(
        deleted
          ? { update: 'unknown_category', create: 'unknown_category', delete: null }
          : { update: answers.update, create: answers.create, delete: 'category_in_use' },
      );
      if (!deleted) expect([answers.update, answers.create]).toContainEqual(null);
      expect(await db().category.count({ where: { storeId: a.storeId, slug } })).toBe(deleted ? 0 : 1);
      const uncategorised = await db().product.count({ where: { storeId: a.storeId, categories: { none: {} } } });
      expect(uncategorised).toBe(0);
    }
  }, 60_000);
});

describe('a category renamed while it is deleted', () => {
  const RENAME = `mutation($storeId: ID!, $slug: String!, $name: String!) { updateCategory(storeId: $storeId, category: $slug, input: { name: $name }) { id name } }`;
  const DELETE_CATEGORY = `mutation($storeId: ID!, $slug: String!) { deleteCategory(storeId: $storeId, category: $slug) { id } }`;

  it('the rename answers the category or not_found, the delete succeeds; never 5xx', async () => {
    for (let round = 0; round < 4 * ROUNDS; round++) {
      const slug = `renamed-${run}-${round}`;
      await db().category.create({ data: { storeId: a.storeId, slug, name: slug } });
      const lag = round % 5;
      const after = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const [rename, del] = await Promise.all([
        after(round % 2 ? lag : 0).then(() => gql(RENAME, { slug, name: `Renamed ${round}` })),
        after(round % 2 ? 0 : lag).then(() => gql(DELETE_CATEGORY, { slug })),
      ]);
      expect({ rename: [null, 'not_found'].includes(errorCode(rename)), delete: errorCode(del) }).toEqual({ rename: true, delete: null });
      expect(await db().category.count({ where: { storeId: a.storeId, slug } })).toBe(0);
    }
  }, 60_000);
});

describe('two products claiming the same SKU or SEO slug at once', () => {
  it('one gets it, the other answers 409 sku_taken or slug_taken; never 5xx, and the loser writes nothing', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [p, q] = [await createProduct(t, a, { name: `Claims ${round}` }), await createProduct(t, a, { name: `Counterclaims ${round}` })];
      const sku = `${run}-claimed-${round}`;
      const slug = `claimed-${run}-${round}`;
      const claims = await Promise.all(
        [p, q].flatMap((x) => [
          req('PUT', `${productPath(a.storeId, x.id)}/variants`, { variants: [{ sku }] }),
          req('PUT', `${productPath(a.storeId, x.id)}/seo`, { slug }),
        ]),
      );
      const [pSku, pSlug, qSku, qSlug] = claims.map(errorCode);
      expect([pSku, qSku].sort()).toEqual([null, 'sku_taken'].sort());
      expect([pSlug, qSlug].sort()).toEqual([null, 'slug_taken'].sort());
      // The winner holds it; the loser's product moved on only by its successful write.
      const skuOwner = pSku === null ? p : q;
      const slugOwner = pSlug === null ? p : q;
      expect(await db().variant.findMany({ where: { sku }, select: { productId: true } })).toEqual([{ productId: skuOwner.id }]);
      expect(await db().seo.findMany({ where: { slug }, select: { productId: true } })).toEqual([{ productId: slugOwner.id }]);
      for (const x of [p, q]) {
        const won = (skuOwner === x ? 1 : 0) + (slugOwner === x ? 1 : 0);
        expect((await db().product.findUniqueOrThrow({ where: { id: x.id }, select: { version: true } })).version).toBe(1 + won);
        expect(await db().event.count({ where: { resourceId: x.id } })).toBe(1 + won);
      }
    }
  });
});
