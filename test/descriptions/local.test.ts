import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData, MISSING_ID, productPath, productsPath } from '../products/helpers';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
});
afterAll(() => t.close());

const generate = (s: StoreFixture, body: unknown, token = s.ownerToken) => t.request('POST', `${productsPath(s.storeId)}/generate-description`, { token, body });
const GENERATE = `mutation($storeId: ID!, $input: DescriptionInput!) { generateProductDescription(storeId: $storeId, input: $input) { description provider model } }`;

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const sentences = (s: string) => s.split(/(?<=[.!?])\s+/).filter(Boolean);

const MUG = { name: 'Harbor Mug', category: 'Kitchen', attributes: { material: 'stoneware', color: 'sea blue', Capacity: '350 ml', 'USB ports': 0 }, tags: ['coffee', 'gifts'] };

describe('POST /products/generate-description with the local provider', () => {
  it('writes a multi-sentence description from name, category, attributes and tags', async () => {
    const res = await generate(a, MUG);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ description: expect.any(String), provider: 'local', model: 'local-templates-v1' });
    const text: string = res.body.data.description;
    expect(sentences(text).length).toBeGreaterThanOrEqual(4);
    for (const fact of ['Harbor Mug', 'Kitchen', 'stoneware', 'sea blue', 'capacity is 350 ml', 'USB ports', 'coffee and gifts']) expect(text).toContain(fact);
    expect(words(text)).toBeLessThanOrEqual(120);
  });

  it('is deterministic: the same request gives the same text', async () => {
    const first = (await generate(a, MUG)).body.data.description;
    expect((await generate(a, MUG)).body.data.description).toBe(first);
  });

  it('writes in each tone differently', async () => {
    const texts = await Promise.all(['neutral', 'friendly', 'luxury', 'playful'].map(async (tone) => (await generate(a, { ...MUG, tone })).body.data.description));
    expect(new Set(texts).size).toBe(4);
    expect(texts[2]).toContain('crafted from stoneware');
    expect(texts[3]).toMatch(/!/);
    const implicit = (await generate(a, MUG)).body.data.description;
    expect(implicit).toBe(texts[0]);
  });

  it('writes German when asked, and accepts a regional tag', async () => {
    const res = await generate(a, { ...MUG, language: 'de-CH', tone: 'luxury' });
    expect(res.status).toBe(200);
    expect(res.body.data.description).toMatch(/Entdecken Sie Harbor Mug|Harbor Mug verkörpert/);
    expect(res.body.data.description).toContain('Material: stoneware.');
  });

  it('keeps to max_words, dropping the least important sentences first', async () => {
    for (const max of [10, 25, 40]) {
      const text: string = (await generate(a, { ...MUG, max_words: max })).body.data.description;
      expect(words(text)).toBeLessThanOrEqual(max);
      expect(text).toContain('Harbor Mug');
    }
    const short = (await generate(a, { ...MUG, max_words: 25 })).body.data.description;
    expect(short).not.toContain('coffee');
    // A name longer than the limit is cut rather than overflowing.
    const long = (await generate(a, { name: Array.from({ length: 30 }, (_, i) => `word${i}`).join(' '), max_words: 10 })).body.data.description;
    expect(words(long)).toBeLessThanOrEqual(10);
  });

  it('works from a name alone', async () => {
    const res = await generate(a, { name: 'Simple Thing' });
    expect(res.status).toBe(200);
    expect(sentences(res.body.data.description).length).toBeGreaterThanOrEqual(2);
  });

  it('reads name, category, tags and variant options from product_id; sent fields override them', async () => {
    const p = await createProduct(t, a, { name: 'Canvas Tote', tags: ['beach', 'market'], category_slugs: ['hats'] });
    const variants = [
      { sku: 'TOTE-R', options: { Color: 'Red', Strap: 'long' } },
      { sku: 'TOTE-B', options: { Color: 'Blue', Strap: 'long' } },
    ];
    expect((await t.request('PUT', `${productPath(a.storeId, p.id)}/variants`, { token: a.ownerToken, body: { variants } })).status).toBe(200);

    const res = await generate(a, { product_id: p.id });
    expect(res.status).toBe(200);
    const text: string = res.body.data.description;
    for (const fact of ['Canvas Tote', 'hats', 'Choose from Red or Blue', 'strap is long', 'beach and market']) expect(text).toContain(fact);

    const overridden = (await generate(a, { product_id: p.id, name: 'Tote Deluxe', attributes: { Color: 'Green' } })).body.data.description;
    expect(overridden).toContain('Tote Deluxe');
    expect(overridden).toContain('It comes in Green.');
    expect(overridden).not.toContain('Red');
  });
});

describe('description validation (422)', () => {
  it.each([
    ['neither product_id nor name', { category: 'Kitchen' }, 'name'],
    ['an empty name', { name: ' ' }, 'name'],
    ['an unknown tone', { name: 'X', tone: 'grumpy' }, 'tone'],
    ['max_words below 10', { name: 'X', max_words: 9 }, 'max_words'],
    ['max_words above 500', { name: 'X', max_words: 501 }, 'max_words'],
    ['a fractional max_words', { name: 'X', max_words: 12.5 }, 'max_words'],
    ['an invalid language tag', { name: 'X', language: 'not a language!' }, 'language'],
    ['attributes given as a list', { name: 'X', attributes: ['a'] }, 'attributes'],
    ['an attribute value that is an object', { name: 'X', attributes: { size: { cm: 3 } } }, 'attributes'],
    ['more than 30 attributes', { name: 'X', attributes: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, 'v'])) }, 'attributes'],
    ['an unknown field', { name: 'X', temperature: 2 }, 'temperature'],
  ])('rejects %s', async (_what, body, field) => {
    const problem = expectProblem(await generate(a, body), 422, 'validation_failed');
    expect(problem.errors!.map((e) => e.field)).toContain(field);
  });

  it('rejects a language the local provider does not write, listing the supported ones', async () => {
    const problem = expectProblem(await generate(a, { name: 'X', language: 'fr' }), 422, 'validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'language', code: 'unsupported_language' })]);
    expect(problem.supported_languages).toEqual(['en', 'de']);
  });

  it('keeps attribute names as sent in errors', async () => {
    const problem = expectProblem(await generate(a, { name: 'X', attributes: { sizeLabel: '' } }), 422, 'validation_failed');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'attributes', message: expect.stringContaining('"sizeLabel"') })]);
  });
});

describe('access', () => {
  it('answers 401 without a token', async () => {
    expectProblem(await t.request('POST', `${productsPath(a.storeId)}/generate-description`, { body: { name: 'X' } }), 401, 'unauthenticated');
    const gql = await t.graphql(GENERATE, { storeId: a.storeId, input: { name: 'X' } });
    expect(gql.status).toBe(401);
    expectGqlError(gql, 'unauthenticated');
  });

  it("answers 403 to staff without manage_products and to another store's owner", async () => {
    expectProblem(await generate(a, { name: 'X' }, a.viewerToken), 403, 'forbidden');
    expectProblem(await generate(a, { name: 'X' }, b.ownerToken), 403, 'forbidden');
    expectGqlError(await t.graphql(GENERATE, { storeId: a.storeId, input: { name: 'X' } }, { token: a.viewerToken }), 'forbidden');
    expect((await generate(a, { name: 'X' }, a.staffToken)).status).toBe(200);
  });

  it.each([
    ['an unknown product_id', () => MISSING_ID],
    ['a malformed product_id', () => 'nope'],
    ["another store's product", () => foreignId],
  ])('answers 404 for %s', async (_what, id) => {
    expectProblem(await generate(a, { product_id: id() }), 404, 'not_found');
    expectGqlError(await t.graphql(GENERATE, { storeId: a.storeId, input: { productId: id() } }, { token: a.ownerToken }), 'not_found');
  });
  let foreignId: string;
  beforeAll(async () => {
    foreignId = (await createProduct(t, b, { name: 'Secret Product' })).id;
  });
});

describe('GraphQL', () => {
  it('generates the same text as REST', async () => {
    const rest = (await generate(a, { ...MUG, max_words: 60, tone: 'friendly' })).body.data;
    const gql = gqlData(await t.graphql(GENERATE, { storeId: a.storeId, input: { ...MUG, maxWords: 60, tone: 'friendly' } }, { token: a.ownerToken }));
    expect(gql.generateProductDescription).toEqual(rest);
  });

  it('reports validation errors with stable codes', async () => {
    const err = expectGqlError(await t.graphql(GENERATE, { storeId: a.storeId, input: { name: 'X', language: 'ja' } }, { token: a.ownerToken }), 'validation_failed');
    expect(err.extensions.supported_languages).toEqual(['en', 'de']);
  });
});
