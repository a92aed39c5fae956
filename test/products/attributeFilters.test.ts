import { db } from '../../src/platform/db/client';
import { addVariant, assignProductType, defineAttribute, setProductAttributes } from '../helpers/attributes';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { createProduct, expectProblem, gqlData, productsPath } from './helpers';

/**
 * Lists filtered and faceted by attributes, on the merchant REST list, the public list and GraphQL: a product
 * matches by its own value or any of its variants'; facets count over the other filters (self-exclusion).
 */
let t: TestServer;
let s: StoreFixture;
let other: StoreFixture;
let publishable: string;
const P: Record<string, string> = {};
const keyOf = (id: string) => Object.keys(P).find((k) => P[k] === id) ?? `foreign:${id}`;

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture();
  other = await createStoreFixture();
  const material = [
    { value: 'cotton', name: 'Cotton' },
    { value: 'linen', name: 'Linen' },
    { value: 'wool', name: 'Wool' },
    { value: 'silk', name: 'Silk' },
  ];
  await defineAttribute(s.storeId, { code: 'material', name: 'Material', type: 'dropdown', values: material });
  await defineAttribute(s.storeId, {
    code: 'colors',
    name: 'Colours',
    type: 'multiselect',
    values: [
      { value: 'red', name: 'Red' },
      { value: 'blue', name: 'Blue' },
      { value: 'green', name: 'Green' },
    ],
  });
  await defineAttribute(s.storeId, { code: 'capacity', name: 'Capacity', type: 'numeric', unit: 'l' });
  await defineAttribute(s.storeId, { code: 'organic', name: 'Organic', type: 'boolean', public: false });
  await defineAttribute(s.storeId, { code: 'release', name: 'Release', type: 'date' });
  await defineAttribute(s.storeId, { code: 'launch', name: 'Launch', type: 'date_time' });
  await defineAttribute(s.storeId, { code: 'notes', name: 'Notes', type: 'plain_text', filterable: false });
  await defineAttribute(s.storeId, {
    code: 'size',
    name: 'Size',
    type: 'swatch',
    values: [
      { value: 'S', name: 'Small', hex: '#111111' },
      { value: 'M', name: 'Medium', hex: '#222222' },
      { value: 'L', name: 'Large', hex: '#333333' },
    ],
  });
  // Another store's attribute of the same code, with values of its own: never counted here.
  await defineAttribute(other.storeId, { code: 'material', type: 'dropdown', values: material });

  for (const key of ['a', 'b', 'c', 'd', 'e']) P[key] = (await createProduct(t, s, { name: `Product ${key}`, status: key === 'd' ? 'draft' : 'active' })).id;
  await setProductAttributes(P.a, { material: 'cotton', colors: ['red', 'blue'], capacity: 1.5, organic: true, release: '2024-01-10', launch: '2024-01-10T08:00:00.000Z', notes: 'x' });
  await setProductAttributes(P.b, { material: 'linen', colors: ['blue'], capacity: 2, organic: false, release: '2024-06-01' });
  await setProductAttributes(P.c, { material: 'cotton', colors: ['green'], capacity: 0.5, release: '2025-01-01' });
  await setProductAttributes(P.d, { material: 'wool', capacity: 3 });
  await addVariant(P.a, 'A-S', { size: 'S' });
  await addVariant(P.a, 'A-M', { size: 'M' });
  await addVariant(P.b, 'B-L', { size: 'L' });
  await addVariant(P.d, 'D-M', { size: 'M' });
  // Variant-level values of a range attribute: the product counts once in the range facet.
  await addVariant(P.d, 'D-L', { size: 'L', capacity: 4 });
  const foreign = (await createProduct(t, other, { name: 'Foreign', status: 'active' })).id;
  await setProductAttributes(foreign, { material: 'cotton' });
  publishable = (await createKey(t, s, { type: 'publishable', mode: 'live' })).secret;
});
afterAll(() => t.close());

const list = (query: string) => t.request('GET', `${productsPath(s.storeId)}?${query}`, { token: s.ownerToken });
async function keys(query: string) {
  const res = await list(query);
  expect(res.status).toBe(200);
  return (res.body.data as { id: string }[]).map((p) => keyOf(p.id)).sort();
}
const facet = (res: { body: any }, code: string) => (res.body.meta.facets as any[]).find((f) => f.code === code);

describe('attribute filters on the merchant list', () => {
  it('selects any of the values of a dropdown, and products having any of them for a multiselect', async () => {
    expect(await keys('attributes[material]=cotton')).toEqual(['a', 'c']);
    expect(await keys('attributes[material]=cotton,linen')).toEqual(['a', 'b', 'c']);
    expect(await keys('attributes[colors]=blue')).toEqual(['a', 'b']);
    expect(await keys('attributes[colors]=red,green')).toEqual(['a', 'c']);
  });

  it('takes numeric, date and date-time ranges, inclusive, and numbers by value', async () => {
    expect(await keys('attributes[capacity][gte]=1')).toEqual(['a', 'b', 'd']);
    expect(await keys('attributes[capacity][gte]=4')).toEqual(['d']);
    expect(await keys('attributes[capacity][gte]=1&attributes[capacity][lte]=2')).toEqual(['a', 'b']);
    expect(await keys('attributes[capacity]=2.0')).toEqual(['b']);
    expect(await keys('attributes[release][gte]=2024-05-01')).toEqual(['b', 'c']);
    expect(await keys('attributes[release][lte]=2024-01-10')).toEqual(['a']);
    expect(await keys('attributes[launch][gte]=2024-01-10T09:00:00%2B01:00')).toEqual(['a']);
    expect(await keys('attributes[launch][gte]=2024-01-10T08:00:01Z')).toEqual([]);
  });

  it('takes booleans', async () => {
    expect(await keys('attributes[organic]=true')).toEqual(['a']);
    expect(await keys('attributes[organic]=false')).toEqual(['b']);
  });

  it("matches a variant's value, and ANDs several attributes", async () => {
    expect(await keys('attributes[size]=M')).toEqual(['a', 'd']);
    expect(await keys('attributes[size]=L')).toEqual(['b', 'd']);
    expect(await keys('attributes[material]=cotton&attributes[size]=M')).toEqual(['a']);
    expect(await keys('attributes[material]=cotton,linen&attributes[capacity][gte]=1&is_active=true')).toEqual(['a', 'b']);
  });

  it('reports totals exactly over the filter', async () => {
    const res = await list('attributes[material]=cotton&per_page=1');
    expect(res.body.meta).toMatchObject({ total: 2, total_exact: true, has_more: true, total_pages: 2 });
  });

  it('follows every write: product values, status, variants added and removed', async () => {
    const p = (await createProduct(t, s, { name: 'Later', status: 'active' })).id;
    P.later = p;
    expect(await keys('attributes[material]=silk')).toEqual([]);
    await setProductAttributes(p, { material: 'silk' });
    expect(await keys('attributes[material]=silk')).toEqual(['later']);
    const v = await addVariant(p, 'LATER-S', { size: 'S' });
    expect(await keys('attributes[size]=S')).toEqual(['a', 'later']);
    await db().variant.update({ where: { id: v.id }, data: { attributes: { size: 'L' } } });
    expect(await keys('attributes[size]=S')).toEqual(['a']);
    await db().variant.delete({ where: { id: v.id } });
    expect(await keys('attributes[size]=L')).toEqual(['b', 'd']);
    await setProductAttributes(p, {});
    expect(await keys('attributes[material]=silk')).toEqual([]);
    const res = await t.request('DELETE', `${productsPath(s.storeId)}/${p}`, { token: s.ownerToken });
    expect(res.status).toBe(204);
    delete P.later;
  });

  it('filters by product type, any of a comma list', async () => {
    const shirts = await assignProductType(s.storeId, 'Shirts', [P.a, P.b]);
    const bags = await assignProductType(s.storeId, 'Bags', [P.c]);
    expect(await keys(`product_type=${shirts.id}`)).toEqual(['a', 'b']);
    expect(await keys(`product_type=${shirts.id},${bags.id}&attributes[material]=cotton`)).toEqual(['a', 'c']);
    const bad = expectProblem(await list('product_type=nope'), 422, 'validation_failed');
    expect(bad.errors).toEqual([{ field: 'product_type', code: 'invalid_parameter', message: 'must be product type ids' }]);
  });

  it('reports every bad attribute parameter at once, named as sent', async () => {
    const res = await list(
      'attributes[notes]=x&attributes[nope]=1&attributes[capacity]=abc&attributes[release][gte]=2024-13-01&attributes[material]=velvet&attributes[material][lte]=1&facets=nope',
    );
    const body = expectProblem(res, 422, 'validation_failed');
    expect(body.errors).toEqual([
      { field: 'attributes[notes]', code: 'invalid_parameter', message: 'notes is not filterable' },
      { field: 'attributes[nope]', code: 'invalid_parameter', message: 'no attribute "nope"' },
      { field: 'attributes[capacity]', code: 'invalid_parameter', message: 'must be a number: "abc"' },
      { field: 'attributes[release][gte]', code: 'invalid_parameter', message: 'must be a date (YYYY-MM-DD): "2024-13-01"' },
      { field: 'attributes[material]', code: 'invalid_parameter', message: '"velvet" is not a value of material' },
      { field: 'attributes[material][lte]', code: 'invalid_parameter', message: 'ranges are only for numeric, date and date_time attributes; material is dropdown' },
      { field: 'facets', code: 'invalid_parameter', message: 'no attribute "nope"' },
    ]);
  });

  it('refuses malformed attribute parameters and too many facets', async () => {
    const body = expectProblem(await list('attributes[capacity][max]=1&attributes[size]=&attributes=x'), 422, 'validation_failed');
    expect(body.errors!.map((e) => e.field)).toEqual(['attributes[capacity][max]', 'attributes[size]', 'attributes']);
    const many = expectProblem(await list(`facets=${Array.from({ length: 11 }, (_, i) => `f${i}`).join(',')}`), 422, 'validation_failed');
    expect(many.errors).toEqual([{ field: 'facets', code: 'too_big', message: 'at most 10 facets per list (facets_per_list)' }]);
  });
});

describe('facets on the merchant list', () => {
  it("counts each attribute's values over the other filters, leaving its own selection out", async () => {
    const res = await list('attributes[material]=cotton&facets=material,colors,capacity,organic,size,release');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    // material's own filter is left out: every product counts (the draft too, in the merchant list).
    expect(facet(res, 'material')).toEqual({
      code: 'material',
      name: 'Material',
      type: 'dropdown',
      unit: null,
      values: [
        { value: 'cotton', name: 'Cotton', count: 2, selected: true },
        { value: 'linen', name: 'Linen', count: 1, selected: false },
        { value: 'wool', name: 'Wool', count: 1, selected: false },
      ],
    });
    expect(facet(res, 'colors').values).toEqual([
      { value: 'red', name: 'Red', count: 1, selected: false },
      { value: 'blue', name: 'Blue', count: 1, selected: false },
      { value: 'green', name: 'Green', count: 1, selected: false },
    ]);
    expect(facet(res, 'capacity')).toEqual({ code: 'capacity', name: 'Capacity', type: 'numeric', unit: 'l', min: 0.5, max: 1.5 });
    expect(facet(res, 'release')).toMatchObject({ min: '2024-01-10', max: '2025-01-01' });
    expect(facet(res, 'organic').values).toEqual([{ value: 'true', name: 'true', count: 1, selected: false }]);
    expect(facet(res, 'size').values).toEqual([
      { value: 'S', name: 'Small', hex: '#111111', count: 1, selected: false },
      { value: 'M', name: 'Medium', hex: '#222222', count: 1, selected: false },
    ]);
    expect(res.body.meta.facets.map((f: any) => f.code)).toEqual(['material', 'colors', 'capacity', 'organic', 'size', 'release']);
  });

  it('shows a selected value that nothing else matches with count 0, and unfiltered counts', async () => {
    const res = await list('attributes[colors]=red&attributes[material]=linen&facets=colors,material');
    expect(res.body.data).toHaveLength(0);
    expect(facet(res, 'colors').values).toEqual([
      { value: 'red', name: 'Red', count: 0, selected: true },
      { value: 'blue', name: 'Blue', count: 1, selected: false },
    ]);
    expect(facet(res, 'material').values).toEqual([{ value: 'cotton', name: 'Cotton', count: 1, selected: false }, { value: 'linen', name: 'Linen', count: 0, selected: true }]);
    const all = await list('facets=material&is_active=true');
    expect(facet(all, 'material').values.map((v: any) => [v.value, v.count])).toEqual([
      ['cotton', 2],
      ['linen', 1],
    ]);
  });

  it("spans a product's own and its variants' values in a range facet", async () => {
    const res = await list('attributes[material]=wool&facets=capacity');
    expect(facet(res, 'capacity')).toMatchObject({ min: 3, max: 4 });
    const unfiltered = await list('facets=capacity,release');
    expect(facet(unfiltered, 'capacity')).toMatchObject({ min: 0.5, max: 4 });
    expect(facet(unfiltered, 'release')).toMatchObject({ min: '2024-01-10', max: '2025-01-01' });
  });

  it('adds no meta.facets without facets', async () => {
    const res = await list('attributes[material]=cotton');
    expect(res.body.meta.facets).toBeUndefined();
  });
});

describe('the public list', () => {
  const pub = (query: string) => publicGet(t, `/products?${query}`, { key: publishable });

  it('filters and facets by public attributes over active products', async () => {
    const res = await pub('attributes[size]=M&facets=material,size');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: any) => keyOf(p.id))).toEqual(['a']);
    // The draft (wool, size M) does not exist for storefronts.
    expect(facet(res, 'material').values.map((v: any) => [v.value, v.count])).toEqual([['cotton', 1]]);
    expect(facet(res, 'size').values.map((v: any) => [v.value, v.count, v.selected])).toEqual([
      ['S', 1, false],
      ['M', 1, true],
      ['L', 1, false],
    ]);
  });

  it('follows status changes in its counts, and the counters agree with the value rows', async () => {
    const cotton = async () => facet(await pub('facets=material'), 'material').values.find((v: any) => v.value === 'cotton')?.count ?? 0;
    expect(await cotton()).toBe(2);
    expect((await t.request('POST', `${productsPath(s.storeId)}/${P.a}/unpublish`, { token: s.ownerToken })).status).toBe(200);
    expect(await cotton()).toBe(1);
    expect((await t.request('POST', `${productsPath(s.storeId)}/${P.a}/publish`, { token: s.ownerToken })).status).toBe(200);
    expect(await cotton()).toBe(2);
    const [counted, rows] = await Promise.all([
      db().$queryRaw<{ k: string; n: number }[]>`SELECT code || ':' || value || ':' || status AS k, sum(count)::int AS n FROM product_attribute_value_counts
        WHERE store_id = ${s.storeId}::uuid GROUP BY 1 HAVING sum(count) <> 0 ORDER BY 1`,
      db().$queryRaw<{ k: string; n: number }[]>`SELECT code || ':' || value || ':' || status AS k, count(*)::int AS n FROM product_attribute_values
        WHERE store_id = ${s.storeId}::uuid GROUP BY 1 ORDER BY 1`,
    ]);
    expect(counted).toEqual(rows);
  });

  it('filters by product type, as Shopify\'s storefront filters by productType: active products only, with the facets counted within', async () => {
    const outerwear = await assignProductType(s.storeId, 'Outerwear', [P.b, P.d]);
    const bags = await db().productType.findFirstOrThrow({ where: { storeId: s.storeId, name: 'Bags' } });
    const res = await pub(`product_type=${outerwear.id},${bags.id}&facets=material`);
    expect(res.status).toBe(200);
    // The draft d (wool) is of the type too, and does not exist for storefronts.
    expect(res.body.data.map((p: any) => keyOf(p.id)).sort()).toEqual(['b', 'c']);
    expect(facet(res, 'material').values.map((v: any) => [v.value, v.count])).toEqual([['cotton', 1], ['linen', 1]]);
    const bad = expectProblem(await pub('product_type=nope'), 422, 'validation_failed');
    expect(bad.errors).toEqual([{ field: 'product_type', code: 'invalid_parameter', message: 'must be product type ids' }]);
    expect((await pub(`product_type=${outerwear.id}`)).body.data.map((p: any) => keyOf(p.id))).toEqual(['b']);
  });

  it('knows no private attribute', async () => {
    const body = expectProblem(await pub('attributes[organic]=true&facets=organic'), 422, 'validation_failed');
    expect(body.errors).toEqual([
      { field: 'attributes[organic]', code: 'invalid_parameter', message: 'no attribute "organic"' },
      { field: 'facets', code: 'invalid_parameter', message: 'no attribute "organic"' },
    ]);
  });
});

describe('GraphQL', () => {
  it('filters the page list and the connection, and answers facets on the page', async () => {
    const res = await t.graphql(
      `query($storeId: ID!, $filter: ProductFilter) {
        products(storeId: $storeId, filter: $filter, facets: ["material", "capacity"]) {
          items { id }
          meta { total }
          facets { code values { value count selected } min max }
        }
        productsConnection(storeId: $storeId, filter: $filter) { edges { node { id } } }
      }`,
      { storeId: s.storeId, filter: { attributes: [{ code: 'material', values: ['cotton', 'linen'] }, { code: 'capacity', gte: '1' }] } },
      { token: s.ownerToken },
    );
    const data = gqlData(res);
    expect(data.products.items.map((p: any) => keyOf(p.id)).sort()).toEqual(['a', 'b']);
    expect(data.productsConnection.edges.map((e: any) => keyOf(e.node.id)).sort()).toEqual(['a', 'b']);
    expect(data.products.facets).toEqual([
      {
        code: 'material',
        values: [
          { value: 'cotton', count: 1, selected: true },
          { value: 'linen', count: 1, selected: true },
          { value: 'wool', count: 1, selected: false },
        ],
        min: null,
        max: null,
      },
      { code: 'capacity', values: null, min: '0.5', max: '2' },
    ]);
  });

  it('answers the same facets on the connection, over its whole filter whatever the page; none asked, none answered', async () => {
    const query = `query($storeId: ID!, $filter: ProductFilter, $first: Int, $after: String, $facets: [String!]) {
      products(storeId: $storeId, filter: $filter, facets: $facets) { facets { code values { value count selected } min max } }
      productsConnection(storeId: $storeId, filter: $filter, first: $first, after: $after, facets: $facets) {
        edges { node { id } }
        pageInfo { hasNextPage endCursor }
        facets { code values { value count selected } min max }
      }
    }`;
    const vars = { storeId: s.storeId, filter: { attributes: [{ code: 'material', values: ['cotton', 'linen'] }, { code: 'capacity', gte: '1' }] }, facets: ['material', 'capacity'] };
    const first = gqlData(await t.graphql(query, { ...vars, first: 1 }, { token: s.ownerToken }));
    expect(first.productsConnection.edges).toHaveLength(1);
    expect(first.productsConnection.pageInfo.hasNextPage).toBe(true);
    expect(first.productsConnection.facets).toEqual(first.products.facets);
    expect(first.productsConnection.facets.map((f: { code: string }) => f.code)).toEqual(['material', 'capacity']);
    const second = gqlData(await t.graphql(query, { ...vars, first: 1, after: first.productsConnection.pageInfo.endCursor }, { token: s.ownerToken }));
    expect(second.productsConnection.facets).toEqual(first.products.facets);
    const none = gqlData(await t.graphql(query, { storeId: s.storeId, first: 1 }, { token: s.ownerToken }));
    expect(none.productsConnection.facets).toBeNull();
    const unknown = await t.graphql(query, { storeId: s.storeId, facets: ['nope'] }, { token: s.ownerToken });
    expect(unknown.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ field: 'facets', code: 'invalid_parameter', message: 'no attribute "nope"' }] });
  });

  it('names a bad filter as REST does', async () => {
    const res = await t.graphql(
      `query($storeId: ID!) { products(storeId: $storeId, filter: { attributes: [{ code: "capacity", gte: "lots" }] }) { items { id } } }`,
      { storeId: s.storeId },
      { token: s.ownerToken },
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'attributes[capacity][gte]', code: 'invalid_parameter', message: 'must be a number: "lots"' }],
    });
  });
});
