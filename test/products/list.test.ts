import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData, productsPath } from './helpers';

let t: TestServer;
let s: StoreFixture;
let other: StoreFixture;

interface Seed {
  key: string;
  name: string;
  description: string;
  price: string;
  inventory_quantity: number;
  low_stock_threshold: number;
  status: 'active' | 'draft' | 'archived';
  tags: string[];
  category_slugs: string[];
}

const SEED: Seed[] = [
  { key: 'boot', name: 'Alpine Boot', description: 'Waterproof leather boot', price: '120.00', inventory_quantity: 2, low_stock_threshold: 5, status: 'active', tags: ['winter', 'leather'], category_slugs: ['shoes'] },
  { key: 'sandal', name: 'Beach Sandal', description: 'Light summer sandal', price: '25.50', inventory_quantity: 40, low_stock_threshold: 5, status: 'draft', tags: ['summer'], category_slugs: ['shoes'] },
  { key: 'cotton', name: 'Cotton Shirt', description: 'Soft and breathable', price: '30.00', inventory_quantity: 5, low_stock_threshold: 5, status: 'active', tags: ['summer', 'cotton'], category_slugs: ['shirts'] },
  { key: 'denim', name: 'Denim Shirt', description: 'Rugged workwear', price: '45.00', inventory_quantity: 6, low_stock_threshold: 5, status: 'archived', tags: ['denim'], category_slugs: ['shirts'] },
  { key: 'wool', name: 'Wool Hat', description: 'Warm for winter', price: '19.99', inventory_quantity: 0, low_stock_threshold: 0, status: 'active', tags: ['winter', 'Knit'], category_slugs: ['hats'] },
  { key: 'sun', name: 'Sun Hat', description: 'Wide brim', price: '19.99', inventory_quantity: 100, low_stock_threshold: 100, status: 'draft', tags: ['summer'], category_slugs: ['hats', 'shirts'] },
  { key: 'polish', name: 'Boot Polish', description: 'Keeps leather shiny', price: '5.00', inventory_quantity: 50, low_stock_threshold: 5, status: 'active', tags: ['care'], category_slugs: ['shoes'] },
  { key: 'runner', name: 'Trail Runner', description: 'Grippy 100% rubber sole', price: '89.90', inventory_quantity: 10, low_stock_threshold: 5, status: 'active', tags: ['running'], category_slugs: ['shoes'] },
  { key: 'junior', name: 'alpine boot junior', description: 'For kids', price: '45.00', inventory_quantity: 6, low_stock_threshold: 2, status: 'draft', tags: [], category_slugs: ['shoes'] },
];

/** REST bodies of the seeded products by key, as created. */
const P: Record<string, Record<string, any>> = {};
const keyOf = (id: string) => Object.keys(P).find((k) => P[k].id === id) ?? `foreign:${id}`;

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture();
  other = await createStoreFixture();
  for (const { key, ...fields } of SEED) P[key] = await createProduct(t, s, fields);
  await createProduct(t, other, { name: 'Alpine Boot', tags: ['summer'] });
});
afterAll(() => t.close());

async function list(query: string, token = s.ownerToken) {
  const res = await t.request('GET', `${productsPath(s.storeId)}${query ? '?' + query : ''}`, { token });
  return res;
}
async function keys(query: string) {
  const res = await list(query);
  expect(res.status).toBe(200);
  return (res.body.data as { id: string }[]).map((p) => keyOf(p.id));
}
const sorted = (ks: string[]) => [...ks].sort();
const all = () => Object.keys(P);

/** The expected order of a sort, computed from the created rows (ties broken by id in the same direction). */
function expectedOrder(sort: string, subset = all()): string[] {
  const desc = sort.startsWith('-');
  const field = desc ? sort.slice(1) : sort;
  const value = (k: string) => (field === 'price' ? Number(P[k].price) : P[k][field]);
  const cmp = (x: string, y: string) => {
    const [a, b] = [value(x), value(y)];
    const c = a < b ? -1 : a > b ? 1 : P[x].id < P[y].id ? -1 : P[x].id > P[y].id ? 1 : 0;
    return desc ? -c : c;
  };
  return [...subset].sort(cmp);
}

function parseLink(header: string | null): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of (header ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (m) out[m[2]] = new URL(m[1]);
  }
  return out;
}

describe('GET /products: envelope and defaults', () => {
  it('returns {data, meta} with page 1, 20 per page, newest first, only this store', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, per_page: 20, total: SEED.length, total_exact: true, total_pages: 1, has_more: false });
    expect(res.body.data.map((p: { id: string }) => keyOf(p.id))).toEqual(expectedOrder('-created_at'));
    expect(res.body.data.find((p: { id: string }) => p.id === P.boot.id)).toEqual(P.boot);
    expect(typeof res.body.data[0].price).toBe('number');
  });
});

describe('GET /products: filters', () => {
  it.each([
    ['search by name, case-insensitive', 'search=BOOT', ['boot', 'polish', 'junior']],
    ['search by description', 'search=waterproof', ['boot']],
    ['search by a tag', 'search=care', ['polish']],
    ['search by a tag in another case', 'search=knit', ['wool']],
    ['search with every word required', 'search=leather%20boot', ['boot', 'polish']],
    ['search where % is literal', 'search=100%25', ['runner']],
    ['search where _ is literal', 'search=d_b', []],
    ['search matching nothing', 'search=zzz', []],
    ['search in another store only', 'search=alpine', ['boot', 'junior']],
    ['category', 'category=shoes', ['boot', 'sandal', 'polish', 'runner', 'junior']],
    ['a category linked second', 'category=shirts', ['cotton', 'denim', 'sun']],
    ['an unknown category', 'category=socks', []],
    ['one tag', 'tags=summer', ['sandal', 'cotton', 'sun']],
    ['any of several tags', 'tags=summer,care', ['sandal', 'cotton', 'sun', 'polish']],
    ['tags with blanks around commas', 'tags=%20care%20,%20denim', ['polish', 'denim']],
    ['repeated tags parameters', 'tags=care&tags=denim', ['polish', 'denim']],
    ['is_active=true', 'is_active=true', ['boot', 'cotton', 'wool', 'polish', 'runner']],
    ['is_active=false', 'is_active=false', ['sandal', 'denim', 'sun', 'junior']],
    ['low_stock=true (inventory <= threshold)', 'low_stock=true', ['boot', 'cotton', 'wool', 'sun']],
    ['low_stock=false', 'low_stock=false', ['sandal', 'denim', 'polish', 'runner', 'junior']],
    ['category + is_active + low_stock', 'category=shoes&is_active=true&low_stock=true', ['boot']],
    ['search + is_active=false', 'search=shirt&is_active=false', ['denim']],
    ['tags + category', 'tags=summer&category=hats', ['sun']],
    ['search + tags + category', 'search=leather&tags=care,winter&category=shoes', ['boot', 'polish']],
    ['tags + low_stock + is_active', 'tags=winter,summer&low_stock=true&is_active=false', ['sun']],
    ['every filter at once', 'search=hat&category=hats&tags=winter&is_active=true&low_stock=true', ['wool']],
  ])('%s', async (_what, query, expected) => {
    const got = await keys(query);
    expect(sorted(got)).toEqual(sorted(expected));
    const res = await list(query);
    expect(res.body.meta.total).toBe(expected.length);
  });

  it.each([
    ['is_active=yes', 'is_active'],
    ['is_active=1', 'is_active'],
    ['is_active=TRUE', 'is_active'],
    ['low_stock=maybe', 'low_stock'],
    ['sort=popularity', 'sort'],
    ['sort=%2Bname', 'sort'],
    ['page=0', 'page'],
    ['page=-1', 'page'],
    ['page=1.5', 'page'],
    ['page=abc', 'page'],
    ['per_page=0', 'per_page'],
    ['per_page=101', 'per_page'],
    ['per_page=ten', 'per_page'],
    [`search=${'x'.repeat(201)}`, 'search'],
    [`tags=${Array.from({ length: 51 }, (_, i) => `t${i}`).join(',')}`, 'tags'],
  ])('rejects %s with 422 naming the parameter', async (query, field) => {
    const problem = expectProblem(await list(query), 422, 'validation_failed');
    expect(problem.errors?.map((e) => e.field)).toContain(field);
  });
});

describe('GET /products: sorting', () => {
  it.each(['created_at', '-created_at', 'name', '-name', 'price', '-price', 'inventory_quantity', '-inventory_quantity'])('sort=%s', async (sort) => {
    expect(await keys(`sort=${sort}`)).toEqual(expectedOrder(sort));
  });

  it('sorts a filtered list too', async () => {
    expect(await keys('category=shoes&sort=-price')).toEqual(expectedOrder('-price', ['boot', 'sandal', 'polish', 'runner', 'junior']));
  });

  it('an explicit sort overrides relevance for a search', async () => {
    expect(await keys('search=boot&sort=price')).toEqual(expectedOrder('price', ['boot', 'polish', 'junior']));
  });
});

describe('GET /products: paging', () => {
  it('walks every page with per_page=1 without gaps or duplicates', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= SEED.length; page++) {
      const res = await list(`per_page=1&page=${page}&sort=name`);
      expect(res.body.meta).toEqual({ page, per_page: 1, total: SEED.length, total_exact: true, total_pages: SEED.length, has_more: page < SEED.length });
      expect(res.body.data).toHaveLength(1);
      seen.push(keyOf(res.body.data[0].id));
    }
    expect(seen).toEqual(expectedOrder('name'));
  });

  it('returns everything with per_page=100', async () => {
    const res = await list('per_page=100');
    expect(res.body.data).toHaveLength(SEED.length);
    expect(res.body.meta).toEqual({ page: 1, per_page: 100, total: SEED.length, total_exact: true, total_pages: 1, has_more: false });
  });

  it('answers a page beyond the end with empty data and the true total', async () => {
    const res = await list('per_page=4&page=7&category=shoes');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toEqual({ page: 7, per_page: 4, total: 5, total_exact: true, total_pages: 2, has_more: false });
    const links = parseLink(res.headers.get('link'));
    expect(links.last.searchParams.get('page')).toBe('2');
    expect(links.prev.searchParams.get('page')).toBe('2');
    expect(links.next).toBeUndefined();
  });

  it('answers an empty list with total 0 and Link first = last = page 1', async () => {
    const res = await list('category=socks');
    expect(res.body).toEqual({ data: [], meta: { page: 1, per_page: 20, total: 0, total_exact: true, total_pages: 0, has_more: false } });
    const links = parseLink(res.headers.get('link'));
    expect(Object.keys(links).sort()).toEqual(['first', 'last']);
    expect(links.first.searchParams.get('page')).toBe('1');
    expect(links.last.searchParams.get('page')).toBe('1');
  });

  it('sends an RFC 8288 Link header with first/prev/next/last that keeps the other parameters', async () => {
    const query = 'per_page=2&sort=price&tags=summer,care,winter';
    const total = 6;
    const pages: string[][] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(`${query}&page=${page}`);
      expect(res.body.meta).toEqual({ page, per_page: 2, total, total_exact: true, total_pages: 3, has_more: page < 3 });
      const links = parseLink(res.headers.get('link'));
      expect(Object.keys(links).sort()).toEqual(page === 1 ? ['first', 'last', 'next'] : page === 3 ? ['first', 'last', 'prev'] : ['first', 'last', 'next', 'prev']);
      for (const [rel, url] of Object.entries(links)) {
        expect(url.origin).toBe(t.url);
        expect(url.pathname).toBe(productsPath(s.storeId));
        expect(url.searchParams.get('per_page')).toBe('2');
        expect(url.searchParams.get('sort')).toBe('price');
        expect(url.searchParams.get('tags')).toBe('summer,care,winter');
        const want = { first: 1, last: 3, prev: page - 1, next: page + 1 }[rel];
        expect(url.searchParams.get('page')).toBe(String(want));
      }
      if (links.next) {
        // Following the link gives the next page.
        const next = await t.request('GET', links.next.pathname + links.next.search, { token: s.ownerToken });
        expect(next.body.meta.page).toBe(page + 1);
      }
      pages.push(res.body.data.map((p: { id: string }) => keyOf(p.id)));
    }
    expect(pages.flat()).toEqual(expectedOrder('price', ['sandal', 'cotton', 'sun', 'polish', 'boot', 'wool']));
  });
});

describe('GET /products: relevance', () => {
  it('ranks an exact name first, then name prefixes, then closer matches, regardless of age', async () => {
    const r = await createStoreFixture();
    const made: Record<string, string> = {};
    // Oldest first, so newest-first order would be the reverse of relevance.
    for (const name of ['Hat', 'Hat Rack', 'Sun Hat', 'Thatch Broom']) made[(await createProduct(t, r, { name })).id] = name;
    const res = await t.request('GET', `${productsPath(r.storeId)}?search=hat`, { token: r.ownerToken });
    expect(res.body.data.map((p: { id: string }) => made[p.id])).toEqual(['Hat', 'Hat Rack', 'Sun Hat', 'Thatch Broom']);
    const two = await t.request('GET', `${productsPath(r.storeId)}?search=SUN%20hat`, { token: r.ownerToken });
    expect(two.body.data.map((p: { id: string }) => made[p.id])).toEqual(['Sun Hat']);
  });

  it('orders each group newest first, puts matches outside the name last, and pages through the groups without gaps or repeats', async () => {
    const r = await createStoreFixture();
    const made: Record<string, string> = {};
    // Created in this order, oldest first.
    const names = ['Wool Cap', 'Cap', 'Cap Hook', 'Old Cap Stand', 'Snow Cap', 'Capstone', 'Cap', 'Linen Scarf', 'Mocap Suit'];
    for (const name of names) {
      const fields = name === 'Linen Scarf' ? { name, description: 'Pairs with a cap' } : name === 'Wool Cap' ? { name, tags: ['winter'] } : { name };
      made[(await createProduct(t, r, fields)).id] = name;
    }
    const expected = [
      'Cap', 'Cap', // the name is the search text, newest first (same names: any order would do, ids break the tie)
      'Capstone', 'Cap Hook', // the name starts with it, newest first
      'Snow Cap', 'Old Cap Stand', 'Wool Cap', // a later word of the name starts with it, newest first
      'Mocap Suit', 'Linen Scarf', // anywhere else (inside a word, the description), newest first
    ];
    const all = await t.request('GET', `${productsPath(r.storeId)}?search=cap`, { token: r.ownerToken });
    expect(all.body.data.map((p: { id: string }) => made[p.id])).toEqual(expected);
    expect(all.body.meta).toMatchObject({ total: 9, total_exact: true, has_more: false });
    const paged: string[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await t.request('GET', `${productsPath(r.storeId)}?search=cap&per_page=2&page=${page}`, { token: r.ownerToken });
      expect(res.body.meta.has_more).toBe(page < 5);
      paged.push(...res.body.data.map((p: { id: string }) => p.id));
    }
    expect(paged).toEqual(all.body.data.map((p: { id: string }) => p.id));
  });
});

describe('GET /products: access', () => {
  it('403 without manage_products, 401 without a token', async () => {
    expectProblem(await list('', s.viewerToken), 403, 'forbidden');
    expectProblem(await list('', other.ownerToken), 403, 'forbidden');
    expectProblem(await t.request('GET', productsPath(s.storeId)), 401, 'unauthenticated');
  });
});

const PAGE = `query($storeId: ID!, $page: Int, $perPage: Int, $filter: ProductFilter, $sort: ProductSort) {
  products(storeId: $storeId, page: $page, perPage: $perPage, filter: $filter, sort: $sort) { items { id price } meta { page perPage total totalExact totalPages hasMore } } }`;
const CONNECTION = `query($storeId: ID!, $first: Int, $after: String, $filter: ProductFilter, $sort: ProductSort) {
  productsConnection(storeId: $storeId, first: $first, after: $after, filter: $filter, sort: $sort) {
    edges { cursor node { id name } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;

const GQL_SORTS: Record<string, string> = {
  CREATED_AT_ASC: 'created_at',
  CREATED_AT_DESC: '-created_at',
  NAME_ASC: 'name',
  NAME_DESC: '-name',
  PRICE_ASC: 'price',
  PRICE_DESC: '-price',
  INVENTORY_QUANTITY_ASC: 'inventory_quantity',
  INVENTORY_QUANTITY_DESC: '-inventory_quantity',
};

describe('GraphQL products (page-based)', () => {
  it('returns the same page and meta as REST for the same filters', async () => {
    const res = gqlData(
      await t.graphql(PAGE, { storeId: s.storeId, page: 2, perPage: 2, filter: { tags: ['summer', 'care', 'winter'] }, sort: 'PRICE_ASC' }, { token: s.staffToken }),
    ).products;
    expect(res.meta).toEqual({ page: 2, perPage: 2, total: 6, totalExact: true, totalPages: 3, hasMore: true });
    expect(res.items.map((p: { id: string }) => keyOf(p.id))).toEqual(expectedOrder('price', ['sandal', 'cotton', 'sun', 'polish', 'boot', 'wool']).slice(2, 4));
    expect(typeof res.items[0].price).toBe('string');
    const filtered = gqlData(await t.graphql(PAGE, { storeId: s.storeId, filter: { category: 'shoes', isActive: true, lowStock: true, search: 'BOOT' } }, { token: s.staffToken }));
    expect(filtered.products.items.map((p: { id: string }) => keyOf(p.id))).toEqual(['boot']);
  });

  it.each(Object.entries(GQL_SORTS))('sort %s', async (gqlSort, restSort) => {
    const res = gqlData(await t.graphql(PAGE, { storeId: s.storeId, sort: gqlSort }, { token: s.ownerToken }));
    expect(res.products.items.map((p: { id: string }) => keyOf(p.id))).toEqual(expectedOrder(restSort));
  });

  it.each([
    [{ perPage: 0 }],
    [{ perPage: 101 }],
    [{ page: 0 }],
  ])('rejects %j with validation_failed', async (args) => {
    expectGqlError(await t.graphql(PAGE, { storeId: s.storeId, ...args }, { token: s.ownerToken }), 'validation_failed');
  });

  it('is forbidden without manage_products', async () => {
    expectGqlError(await t.graphql(PAGE, { storeId: s.storeId }, { token: s.viewerToken }), 'forbidden');
    expectGqlError(await t.graphql(PAGE, { storeId: s.storeId }), 'unauthenticated');
  });
});

describe('GraphQL productsConnection (Relay cursors)', () => {
  async function walk(vars: Record<string, unknown>, first: number) {
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 50; i++) {
      const res: any = gqlData(await t.graphql(CONNECTION, { storeId: s.storeId, first, after, ...vars }, { token: s.ownerToken })).productsConnection;
      expect(res.pageInfo.hasPreviousPage).toBe(after !== null);
      seen.push(...res.edges.map((e: { node: { id: string } }) => keyOf(e.node.id)));
      if (res.edges.length) {
        expect(res.pageInfo.startCursor).toBe(res.edges[0].cursor);
        expect(res.pageInfo.endCursor).toBe(res.edges.at(-1).cursor);
      }
      if (!res.pageInfo.hasNextPage) return seen;
      expect(res.edges).toHaveLength(first);
      after = res.pageInfo.endCursor;
    }
    throw new Error('connection did not end');
  }

  it.each(Object.entries(GQL_SORTS))('walks all pages for sort %s without duplicates or gaps', async (gqlSort, restSort) => {
    expect(await walk({ sort: gqlSort }, 2)).toEqual(expectedOrder(restSort));
  });

  it('defaults to newest first and walks a filtered list', async () => {
    expect(await walk({}, 4)).toEqual(expectedOrder('-created_at'));
    expect(await walk({ filter: { category: 'shoes' }, sort: 'PRICE_DESC' }, 1)).toEqual(expectedOrder('-price', ['boot', 'sandal', 'polish', 'runner', 'junior']));
    expect(await walk({ filter: { search: 'boot' } }, 1)).toEqual(expectedOrder('-created_at', ['boot', 'polish', 'junior']));
    expect(await walk({ filter: { tags: ['nothing'] } }, 3)).toEqual([]);
  });

  it.each([
    ['garbage', 'not-a-cursor'],
    ['base64 of something else', Buffer.from('{"a":1}').toString('base64url')],
    ['a cursor with a bad id', Buffer.from(JSON.stringify(['-created_at', '2024-01-01T00:00:00.000000Z', 'x'])).toString('base64url')],
    ['a forged date', Buffer.from(JSON.stringify(['-created_at', '2024-19-99T00:00:00.000Z', '00000000-0000-4000-8000-000000000000'])).toString('base64url')],
    ['an old-style cursor without the sort', Buffer.from(JSON.stringify(['2024-01-01T00:00:00.000000Z', '00000000-0000-4000-8000-000000000000'])).toString('base64url')],
  ])('rejects an invalid cursor (%s) with validation_failed', async (_what, after) => {
    expectGqlError(await t.graphql(CONNECTION, { storeId: s.storeId, first: 2, after }, { token: s.ownerToken }), 'validation_failed');
  });

  it('rejects a cursor whose value does not fit the sort with validation_failed', async () => {
    const res = gqlData(await t.graphql(CONNECTION, { storeId: s.storeId, first: 1, sort: 'NAME_ASC' }, { token: s.ownerToken }));
    const after = res.productsConnection.pageInfo.endCursor;
    expectGqlError(await t.graphql(CONNECTION, { storeId: s.storeId, first: 1, after, sort: 'PRICE_ASC' }, { token: s.ownerToken }), 'validation_failed');
    expectGqlError(await t.graphql(CONNECTION, { storeId: s.storeId, first: 1, after, sort: 'CREATED_AT_DESC' }, { token: s.ownerToken }), 'validation_failed');
    const forged = (sort: string, value: string) => Buffer.from(JSON.stringify([sort, value, P.boot.id])).toString('base64url');
    for (const [sort, gqlSort, value] of [['price', 'PRICE_ASC', 'abc'], ['inventory_quantity', 'INVENTORY_QUANTITY_ASC', '99999999999'], ['name', 'NAME_ASC', 'a\0b']]) {
      expectGqlError(await t.graphql(CONNECTION, { storeId: s.storeId, first: 1, after: forged(sort, value), sort: gqlSort }, { token: s.ownerToken }), 'validation_failed');
    }
  });

  it.each([[0], [101], [-1]])('rejects first=%d with validation_failed', async (first) => {
    expectGqlError(await t.graphql(CONNECTION, { storeId: s.storeId, first }, { token: s.ownerToken }), 'validation_failed');
  });

  it('rejects backward paging (last/before), which it does not offer', async () => {
    const q = `query($storeId: ID!) { productsConnection(storeId: $storeId, last: 2) { edges { cursor } } }`;
    expectGqlError(await t.graphql(q, { storeId: s.storeId }, { token: s.ownerToken }), 'validation_failed');
  });

  it('is forbidden without manage_products', async () => {
    expectGqlError(await t.graphql(CONNECTION, { storeId: s.storeId, first: 1 }, { token: s.viewerToken }), 'forbidden');
  });
});
