import { productPageQuery } from '../../src/catalog/services/productList';
import { db } from '../../src/platform/db/client';
import { addVariant, defineAttribute, setProductAttributes } from '../helpers/attributes';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';
import { createProduct, productPath, productsPath } from './helpers';

/**
 * Lists narrowed by attributes (and status) are answered from bitmaps over product ordinals (migration
 * attribute_value_bitmaps): the total, the facets and, when matches are common, the page. These tests hold the lists
 * to a model of the catalog computed here from what was written, over random filters and after every kind of write,
 * and hold the bitmaps to the value rows and products they follow.
 */
let t: TestServer;
let s: StoreFixture;
let publishable: string;

const MATERIALS = ['cotton', 'linen', 'wool', 'silk'];
const COLOURS = ['red', 'blue', 'green'];
const SIZES = ['S', 'M', 'L'];

interface ModelProduct {
  id: string;
  createdAt: string;
  status: 'active' | 'draft' | 'archived';
  /** Own and variants' values, as lists compare them (numbers as numbers, everything else as text). */
  values: Record<string, (string | number)[]>;
}
const model = new Map<string, ModelProduct>();

/** A deterministic pseudo-random sequence (mulberry32), so a failure reproduces. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = random(27);
const pick = <T,>(list: T[]) => list[Math.floor(rnd() * list.length)];

/** Writes random attribute values to a product (and sometimes a variant with a size) and records them in the model. */
async function writeValues(p: ModelProduct) {
  const own: Record<string, unknown> = { material: pick(MATERIALS), capacity: Math.round(rnd() * 50) / 10 };
  if (rnd() < 0.7) own.colour = [...new Set([pick(COLOURS), ...(rnd() < 0.4 ? [pick(COLOURS)] : [])])];
  if (rnd() < 0.5) own.organic = rnd() < 0.5;
  await setProductAttributes(p.id, own);
  await db().variant.deleteMany({ where: { productId: p.id } });
  p.values = Object.fromEntries(Object.entries(own).map(([k, v]) => [k, (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'number' ? x : String(x)))]));
  if (rnd() < 0.5) {
    const size = pick(SIZES);
    await addVariant(p.id, `${p.id.slice(0, 8)}-${size}`, { size });
    p.values.size = [size];
  }
}

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture();
  const listed = (values: string[]) => values.map((v) => ({ value: v, name: v }));
  await defineAttribute(s.storeId, { code: 'material', type: 'dropdown', values: listed(MATERIALS) });
  await defineAttribute(s.storeId, { code: 'colour', type: 'multiselect', values: listed(COLOURS) });
  await defineAttribute(s.storeId, { code: 'capacity', type: 'numeric', unit: 'l' });
  await defineAttribute(s.storeId, { code: 'organic', type: 'boolean' });
  await defineAttribute(s.storeId, { code: 'size', type: 'dropdown', values: listed(SIZES) });
  publishable = (await createKey(t, s, { type: 'publishable', mode: 'live' })).secret;
  for (let i = 0; i < 120; i++) {
    const status = rnd() < 0.75 ? 'active' : 'draft';
    const created = await createProduct(t, s, { name: `Bitmap product ${i}`, status });
    const p: ModelProduct = { id: created.id, createdAt: created.created_at, status, values: {} };
    model.set(p.id, p);
    await writeValues(p);
  }
}, 120_000);
afterAll(() => t.close());

interface Filter {
  code: string;
  values?: string[];
  gte?: number;
  lte?: number;
}

const matches = (p: ModelProduct, f: Filter) =>
  (p.values[f.code] ?? []).some((v) =>
    f.values ? f.values.includes(String(v)) : (f.gte === undefined || Number(v) >= f.gte) && (f.lte === undefined || Number(v) <= f.lte),
  );

function randomFilters(): Filter[] {
  const filters: Filter[] = [];
  if (rnd() < 0.7) filters.push({ code: 'material', values: [...new Set([pick(MATERIALS), ...(rnd() < 0.5 ? [pick(MATERIALS)] : [])])] });
  if (rnd() < 0.5) filters.push({ code: 'colour', values: [pick(COLOURS)] });
  if (rnd() < 0.5) {
    const lo = Math.round(rnd() * 30) / 10;
    filters.push(rnd() < 0.3 ? { code: 'capacity', gte: lo } : { code: 'capacity', gte: lo, lte: lo + Math.round(rnd() * 30) / 10 });
  }
  if (rnd() < 0.3) filters.push({ code: 'organic', values: [String(rnd() < 0.5)] });
  if (rnd() < 0.3) filters.push({ code: 'size', values: [pick(SIZES)] });
  return filters.length ? filters : [{ code: 'size', values: ['M'] }];
}

const query = (filters: Filter[]) =>
  filters
    .flatMap((f) =>
      f.values
        ? [`attributes[${f.code}]=${f.values.join(',')}`]
        : [...(f.gte !== undefined ? [`attributes[${f.code}][gte]=${f.gte}`] : []), ...(f.lte !== undefined ? [`attributes[${f.code}][lte]=${f.lte}`] : [])],
    )
    .join('&');

const newestFirst = (a: ModelProduct, b: ModelProduct) => (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1);

/** What a list of these filters must answer: every match newest first, and each facet's counts over the other filters. */
function expected(filters: Filter[], status: 'active' | null) {
  const pool = [...model.values()].filter((p) => !status || p.status === status);
  const all = pool.filter((p) => filters.every((f) => matches(p, f))).sort(newestFirst);
  const facets: Record<string, unknown> = {};
  for (const code of ['material', 'colour', 'organic', 'size', 'capacity']) {
    const over = pool.filter((p) => filters.every((f) => f.code === code || matches(p, f)));
    if (code === 'capacity') {
      const nums = over.flatMap((p) => (p.values.capacity ?? []).map(Number));
      facets[code] = nums.length ? [String(Math.min(...nums)), String(Math.max(...nums))] : [null, null];
      continue;
    }
    const counts: Record<string, number> = {};
    for (const p of over) for (const v of new Set((p.values[code] ?? []).map(String))) counts[v] = (counts[v] ?? 0) + 1;
    facets[code] = counts;
  }
  return { ids: all.map((p) => p.id), facets };
}

/** A list response's facets in the model's shape: listed values with a count above 0, ranges as [min, max]. */
function facetsOf(body: any) {
  return Object.fromEntries(
    (body.meta.facets as any[]).map((f) =>
      f.code === 'capacity'
        ? [f.code, [f.min === null ? null : String(Number(f.min)), f.max === null ? null : String(Number(f.max))]]
        : [f.code, Object.fromEntries((f.values as any[]).filter((v) => v.count > 0).map((v) => [v.value, v.count]))],
    ),
  );
}

async function checkList(filters: Filter[], perPage: number, audience: 'merchant' | 'public') {
  const want = expected(filters, audience === 'public' ? 'active' : null);
  const q = `${query(filters)}&facets=material,colour,organic,size,capacity&per_page=${perPage}`;
  const pages = Math.max(1, Math.ceil(want.ids.length / perPage));
  const got: string[] = [];
  for (let page = 1; page <= pages; page++) {
    const res =
      audience === 'public'
        ? await publicGet(t, `/products?${q}&page=${page}`, { key: publishable })
        : await t.request('GET', `${productsPath(s.storeId)}?${q}&page=${page}`, { token: s.ownerToken });
    expect(res.status).toBe(200);
    expect({ filters: query(filters), page, total: res.body.meta.total }).toEqual({ filters: query(filters), page, total: want.ids.length });
    if (page === 1) expect({ filters: query(filters), facets: facetsOf(res.body) }).toEqual({ filters: query(filters), facets: want.facets });
    got.push(...(res.body.data as { id: string }[]).map((p) => p.id));
  }
  expect({ filters: query(filters), ids: got }).toEqual({ filters: query(filters), ids: want.ids });
}

/** The bitmaps hold exactly the value rows and the products' statuses, and each catalog's ordinals are distinct. */
async function expectBitmapsFollowRows() {
  const [check] = await db().$queryRaw<{ value_bits: number; value_rows: number; missing_values: number; status_bits: number; products: number; missing_statuses: number; ordinals: number }[]>`
    SELECT
      (SELECT coalesce(sum(bit_count(bits)), 0)::int FROM product_attribute_value_bitmaps WHERE store_id = ${s.storeId}::uuid) AS value_bits,
      (SELECT count(*)::int FROM product_attribute_values WHERE store_id = ${s.storeId}::uuid) AS value_rows,
      (SELECT count(*)::int FROM product_attribute_values v LEFT JOIN product_attribute_value_bitmaps b
        ON (b.store_id, b.mode, b.code, b.value, b.chunk) = (v.store_id, v.mode, v.code, v.value, v.ordinal >> 12)
        WHERE v.store_id = ${s.storeId}::uuid AND (b.bits IS NULL OR get_bit(b.bits, v.ordinal & 4095) = 0)) AS missing_values,
      (SELECT coalesce(sum(bit_count(bits)), 0)::int FROM product_status_bitmaps WHERE store_id = ${s.storeId}::uuid) AS status_bits,
      (SELECT count(*)::int FROM products WHERE store_id = ${s.storeId}::uuid) AS products,
      (SELECT count(*)::int FROM products p LEFT JOIN product_status_bitmaps b
        ON (b.store_id, b.mode, b.status, b.chunk) = (p.store_id, p.mode, p.status, p.ordinal >> 12)
        WHERE p.store_id = ${s.storeId}::uuid AND (b.bits IS NULL OR get_bit(b.bits, p.ordinal & 4095) = 0)) AS missing_statuses,
      (SELECT count(DISTINCT (mode, ordinal))::int FROM products WHERE store_id = ${s.storeId}::uuid) AS ordinals`;
  expect(check).toEqual({
    value_bits: check.value_rows,
    value_rows: check.value_rows,
    missing_values: 0,
    status_bits: check.products,
    products: check.products,
    missing_statuses: 0,
    ordinals: check.products,
  });
}

/**
 * Which way the page statement took for these filters (page 1 of 5, at least one match): the walk of the sort order
 * testing bits, or the ids the value rows name. Each branch runs only under its one-time condition; the one that ran
 * gave the rows.
 */
async function pageWay(filters: Filter[]): Promise<'walk' | 'named'> {
  const resolved = filters.map((f) => ({ code: f.code, numeric: f.code === 'capacity', values: f.values, gte: f.gte?.toString(), lte: f.lte?.toString() }));
  const q = productPageQuery(s.storeId, 'live', { attributes: resolved }, { page: 1, perPage: 5 }, undefined, resolved);
  const rows = await db().$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${q.sql.text}`, ...q.sql.values);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  const rowsOf = (n: 1 | 2) => Number(/actual rows=(\d+)/.exec(plan.slice(plan.indexOf(`"*SELECT* ${n}"`)))?.[1]);
  const ran = ([1, 2] as const).filter((n) => rowsOf(n) > 0);
  expect(ran).toHaveLength(1);
  return ran[0] === 1 ? 'walk' : 'named';
}

describe('lists answered from attribute bitmaps', () => {
  it('walk the order for common matches and read the named ids for rare ones', async () => {
    expect(await pageWay([{ code: 'size', values: ['S', 'M', 'L'] }])).toBe('walk');
    // One or two matches among about 120 products: a walk would read most of the catalog for them.
    const candidates = MATERIALS.flatMap((m) => [4.2, 4.4, 4.6, 4.8, 5].map((gte): Filter[] => [{ code: 'capacity', gte }, { code: 'material', values: [m] }]));
    const rare = candidates.find((c) => [1, 2].includes(expected(c, null).ids.length))!;
    expect(rare).toBeDefined();
    expect(await pageWay(rare)).toBe('named');
    await checkList(rare, 5, 'merchant');
  });

  it('agree with a model of the catalog over random filters: total, every page in order, and facets', async () => {
    await expectBitmapsFollowRows();
    for (let i = 0; i < 12; i++) await checkList(randomFilters(), pick([5, 20, 50]), i % 3 === 2 ? 'public' : 'merchant');
    // Common matches walk the sort order (a filter on one material of four); rare ones read the matching value rows.
    await checkList([{ code: 'size', values: ['S', 'M', 'L'] }], 10, 'merchant');
    await checkList([{ code: 'material', values: ['silk'] }, { code: 'colour', values: ['red'] }, { code: 'size', values: ['S'] }], 5, 'merchant');
    await checkList([{ code: 'capacity', gte: 9 }], 5, 'merchant');
  }, 120_000);

  it('follow every write: status moves, new values, variants, deletes, and products created side by side', async () => {
    const products = [...model.values()];
    for (const p of products.slice(0, 15)) {
      const to = p.status === 'active' ? 'unpublish' : 'publish';
      expect((await t.request('POST', `${productPath(s.storeId, p.id)}/${to}`, { token: s.ownerToken })).status).toBe(200);
      p.status = to === 'publish' ? 'active' : 'draft';
    }
    for (const p of products.slice(15, 30)) await writeValues(p);
    for (const p of products.slice(30, 36)) {
      expect((await t.request('DELETE', productPath(s.storeId, p.id), { token: s.ownerToken })).status).toBe(204);
      model.delete(p.id);
    }
    // Created concurrently: each takes its own ordinal (from its connection's block) and its own bits.
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createProduct(t, s, { name: `Side by side ${i}`, status: 'active' })),
    );
    for (const c of created) {
      const p: ModelProduct = { id: c.id, createdAt: c.created_at, status: 'active', values: {} };
      model.set(p.id, p);
      await writeValues(p);
    }
    await expectBitmapsFollowRows();
    for (let i = 0; i < 8; i++) await checkList(randomFilters(), pick([5, 20]), i % 2 ? 'public' : 'merchant');
  }, 120_000);
});
