import { getIntrospectionQuery } from 'graphql';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/** Every field of a product, its variants, images and SEO: the heaviest page the dashboard asks for. */
const FULL_PRODUCT = `id name description price currency inventoryQuantity lowStockThreshold status isActive publishedAt publishAt unpublishAt
  categorySlugs tags variantsCount version createdAt updatedAt
  variants { id sku title options price inventoryQuantity position createdAt updatedAt }
  images { id url width height mimeType sizeBytes sha256 alt productId position createdAt }
  seo { title description slug canonicalUrl ogImageUrl noindex updatedAt }`;

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t?.close());

const codeOf = (res: { body: any }) => res.body?.errors?.[0]?.extensions?.code;

describe('GraphQL document limits (400 with a stable code)', () => {
  it('refuses 1000 aliases of products(perPage: 100) at once, before any list query runs', async () => {
    const aliases = Array.from({ length: 1000 }, (_, i) => `p${i}: products(storeId: "${a.storeId}", perPage: 100) { items { id } }`).join('\n');
    const started = Date.now();
    const res = await t.graphql(`{ ${aliases} }`, undefined, { token: a.ownerToken });
    expect(res.status).toBe(400);
    // Tokens are counted while parsing, so this document stops there.
    expect(codeOf(res)).toBe('query_too_large');
    expect(res.body.data).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES (24)', async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `v${i}: viewer { id }`).join(' ');
    expect((await t.graphql(`{ ${aliases(24)} }`, undefined, { token: a.ownerToken })).status).toBe(200);
    const res = await t.graphql(`{ ${aliases(25)} }`, undefined, { token: a.ownerToken });
    expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 400, code: 'too_many_aliases' });
  });

  it('refuses nesting deeper than GRAPHQL_MAX_DEPTH (12)', async () => {
    const nest = (depth: number) => 'a { '.repeat(depth - 1) + 'a' + ' }'.repeat(depth - 1);
    const res = await t.graphql(`{ ${nest(13)} }`);
    expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 400, code: 'query_too_deep' });
    // Within the depth, an unknown field is an ordinary validation error.
    expect(codeOf(await t.graphql(`{ ${nest(12)} }`))).not.toBe('query_too_deep');
  });

  it('refuses more directives than GRAPHQL_MAX_DIRECTIVES (20)', async () => {
    const res = await t.graphql(`{ viewer { id ${'@include(if: true) '.repeat(21)} } }`);
    expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 400, code: 'too_many_directives' });
  });

  it('answers 400, not 500, to nesting 10,000 levels deep and to 20,000 chained fragments', async () => {
    const deep = '{ ' + 'a { '.repeat(10_000) + 'a' + ' }'.repeat(10_000) + ' }';
    const deepRes = await t.graphql(deep);
    expect({ status: deepRes.status, code: codeOf(deepRes) }).toEqual({ status: 400, code: 'query_too_large' });

    const fragments = Array.from({ length: 20_000 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} }`).join('\n');
    const chainRes = await t.graphql(`query { ...F0 }\n${fragments}\nfragment F20000 on Query { viewer { id } }`);
    expect({ status: chainRes.status, code: codeOf(chainRes) }).toEqual({ status: 400, code: 'query_too_large' });

    // The service is still there.
    expect((await t.graphql('{ viewer { id } }', undefined, { token: a.ownerToken })).body.data.viewer.id).toBe(a.ownerId);
  });

  it('answers fragment cycles with a validation error, and a fan-out of fragments within the token limit with 400', async () => {
    const cycle = await t.graphql('query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }');
    expect(cycle.status).toBeLessThan(500);
    expect(cycle.body.errors[0].message).toMatch(/Cannot spread fragment/);
    // Each fragment spreads the next one twice: 2^20 paths from 21 short lines.
    const lines = Array.from({ length: 20 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`);
    const started = Date.now();
    const fanOut = await t.graphql(`query { ...F0 } ${lines.join('\n')} fragment F20 on Query { viewer { id } }`);
    expect({ status: fanOut.status, code: codeOf(fanOut) }).toEqual({ status: 400, code: 'query_too_complex' });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('the cost of list fields scales with their page size', () => {
  const page = (perPage: number | string) => `products(storeId: $s, perPage: ${perPage}) { items { ${FULL_PRODUCT} } meta { total } }`;

  it('lets the heaviest single dashboard page through (100 products with everything)', async () => {
    const res = await t.graphql(`query($s: ID!) { ${page(100)} }`, { s: a.storeId }, { token: a.ownerToken });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
  });

  it('refuses three such pages in one request (cost over GRAPHQL_MAX_COST), but not three small ones', async () => {
    const three = (perPage: number) => `query($s: ID!) { a: ${page(perPage)} b: ${page(perPage)} c: ${page(perPage)} }`;
    const big = await t.graphql(three(100), { s: a.storeId }, { token: a.ownerToken });
    expect({ status: big.status, code: codeOf(big) }).toEqual({ status: 400, code: 'query_too_complex' });
    expect(big.body.data).toBeUndefined();
    const small = await t.graphql(three(10), { s: a.storeId }, { token: a.ownerToken });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it('counts the page size a variable asks for', async () => {
    const q = `query($s: ID!, $n: Int) { a: ${page('$n')} b: ${page('$n')} c: ${page('$n')} }`;
    const big = await t.graphql(q, { s: a.storeId, n: 100 }, { token: a.ownerToken });
    expect(codeOf(big)).toBe('query_too_complex');
    const small = await t.graphql(q, { s: a.storeId, n: 5 }, { token: a.ownerToken });
    expect(small.status).toBe(200);
    expect(small.body.errors).toBeUndefined();
  });

  it('costs each request by its own page sizes and conditions, however often the same document comes back', async () => {
    const searched = (alias: string) => `${alias}: products(storeId: $s, perPage: 100, filter: { search: $q }) @include(if: $all) { items { ${FULL_PRODUCT} } }`;
    const q = `query($s: ID!, $n: Int, $all: Boolean!, $q: String) { a: ${page('$n')} b: ${page('$n')} c: ${page('$n')} ${searched('d')} ${searched('e')} ${searched('f')} }`;
    const send = (variables: Record<string, unknown>) => t.graphql(q, { s: a.storeId, ...variables }, { token: a.ownerToken });
    for (let round = 0; round < 2; round++) {
      expect(codeOf(await send({ n: 100, all: false }))).toBe('query_too_complex');
      expect((await send({ n: 5, all: false, q: `shoe ${round}` })).body.errors).toBeUndefined();
      expect(codeOf(await send({ n: 5, all: true, q: 'shoe' }))).toBe('query_too_complex');
      expect((await send({ n: 5, all: false })).body.errors).toBeUndefined();
    }
    // Variables that do not fit are refused by execution, and leave no cost behind for the same page sizes.
    const q2 = `${q} `;
    const sendOther = (variables: Record<string, unknown>) => t.graphql(q2, { s: a.storeId, ...variables }, { token: a.ownerToken });
    expect(codeOf(await sendOther({ n: 100, all: false, s: { not: 'an id' } }))).not.toBe('query_too_complex');
    expect(codeOf(await sendOther({ n: 100, all: false }))).toBe('query_too_complex');
  });

  it("counts a product's images as 10 without `first` and by `first` with it", async () => {
    // Each alias: 100 products × (1 + images × 4 fields). Whole lists count 10 images: 4,201 an alias, 10 of them fit under 50,000 and 12 do not.
    const aliases = (n: number, args: string) =>
      `query($s: ID!) { ${Array.from({ length: n }, (_, i) => `p${i}: products(storeId: $s, perPage: 100) { items { images${args} { id url width height } } }`).join(' ')} }`;
    const send = (n: number, args = '') => t.graphql(aliases(n, args), { s: a.storeId }, { token: a.ownerToken });
    expect((await send(10)).body.errors).toBeUndefined();
    expect(codeOf(await send(12))).toBe('query_too_complex');
    expect((await send(12, '(first: 1)')).body.errors).toBeUndefined();
    expect(codeOf(await send(10, '(first: 20)'))).toBe('query_too_complex');
  });

  it('counts connections by `first`', async () => {
    const conn = (first: number) => `productsConnection(storeId: $s, first: ${first}) { edges { node { ${FULL_PRODUCT} } } }`;
    const res = await t.graphql(`query($s: ID!) { a: ${conn(100)} b: ${conn(100)} c: ${conn(100)} }`, { s: a.storeId }, { token: a.ownerToken });
    expect(codeOf(res)).toBe('query_too_complex');
  });
});

describe('GraphiQL', () => {
  it("runs GraphiQL's introspection query (every option it asks for)", async () => {
    const query = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const res = await t.graphql(query);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.types.length).toBeGreaterThan(50);
  });
});

describe('one login per request', () => {
  const LOGIN = 'login(email: "nobody@example.test", password: "wrong password")';

  it.each([
    ['two aliased logins', `mutation { a: ${LOGIN} { token } b: ${LOGIN} { token } }`],
    ['two unaliased logins', `mutation { ${LOGIN} { token } ${LOGIN} { token } }`],
    ['a login in a fragment beside another', `mutation { ...L b: ${LOGIN} { token } } fragment L on Mutation { a: ${LOGIN} { token } }`],
    ['200 aliased logins', `mutation { ${Array.from({ length: 200 }, (_, i) => `l${i}: ${LOGIN} { token }`).join(' ')} }`],
  ])('refuses %s', async (_name, query) => {
    const res = await t.graphql(query);
    expect(res.status).toBe(400);
    expect(['too_many_logins', 'too_many_aliases', 'query_too_large']).toContain(codeOf(res));
    expect(res.body.data).toBeUndefined();
  });

  it('refuses two logins with too_many_logins even within the alias and token limits', async () => {
    const res = await t.graphql(`mutation { a: ${LOGIN} { token } b: ${LOGIN} { token } }`);
    expect({ status: res.status, code: codeOf(res) }).toEqual({ status: 400, code: 'too_many_logins' });
  });

  it('does not run a batch (a JSON array of operations)', async () => {
    const res = await t.request('POST', '/graphql', { body: [{ query: `mutation { ${LOGIN} { token } }` }, { query: `mutation { ${LOGIN} { token } }` }] });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
