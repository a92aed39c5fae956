/**
 * Index guards: with realistic statistics (a few thousand products over
 * several stores, seeded like the benchmark catalogs, then VACUUM ANALYZE), the
 * planner must serve the list's filters from their indexes. The SQL is the
 * service's own (productPageQuery), so a change to it or to the indexes that
 * loses an index fails here rather than at 1M products in production.
 */
import { FILTER_VALUES, catalogStatements } from '../../bench/seed';
import { testContext } from '../helpers/context';
import { db, Prisma } from '../../src/platform/db/client';
import { productPageQuery, type ProductFilter, type ProductSort } from '../../src/catalog/services/productList';
import { createStore, createUser } from '../../src/access/services/stores';
import { openTestDatabase } from '../helpers/harness';

type Database = Awaited<ReturnType<typeof openTestDatabase>>;
let database: Database;
let storeId: string;

interface PlanNode {
  'Node Type': string;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

beforeAll(async () => {
  database = await openTestDatabase();
  // The measured store holds a quarter of the table, as one merchant among several does.
  const sizes = [2000, 2000, 2000, 2000];
  const stores: string[] = [];
  for (const [i, size] of sizes.entries()) {
    const owner = await createUser(testContext(), { email: `explain-${i}@example.test`, name: 'Owner' });
    const store = await createStore(testContext(), { name: `Explain ${i}`, currency: 'EUR', ownerId: owner.id });
    for (const sql of catalogStatements(store.id, size)) await db().$executeRawUnsafe(sql);
    stores.push(store.id);
  }
  storeId = stores[0];
  // What autovacuum maintains on a live table: statistics, the visibility map and a flushed GIN pending list.
  await db().$executeRawUnsafe('VACUUM ANALYZE');
}, 120_000);

afterAll(async () => {
  await database.close();
  await database.dropDatabase();
});

async function plan(filter: ProductFilter): Promise<PlanNode> {
  const { sql } = productPageQuery(storeId, 'live', filter, { page: 1, perPage: 20 });
  const [row] = await db().$queryRaw<{ 'QUERY PLAN': unknown }[]>(Prisma.sql`EXPLAIN (FORMAT JSON) ${sql}`);
  const json = typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'];
  return (json as { Plan: PlanNode }[])[0].Plan;
}

/** The plan as run (EXPLAIN ANALYZE): how many times each node ran and the rows it returned. */
async function executedPlan(filter: ProductFilter, sort?: ProductSort): Promise<PlanNode> {
  const { sql } = productPageQuery(storeId, 'live', filter, { page: 1, perPage: 20 }, sort);
  const [row] = await db().$queryRaw<{ 'QUERY PLAN': unknown }[]>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`);
  const json = typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'];
  return (json as { Plan: PlanNode }[])[0].Plan;
}

function nodes(p: PlanNode): PlanNode[] {
  return [p, ...(p.Plans ?? []).flatMap(nodes)];
}

const indexesUsed = (p: PlanNode) => nodes(p).flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));
/** One line per node, e.g. "Bitmap Index Scan products_live_text_tags_idx > Seq Scan products": failures print the whole plan. */
const planText = (p: PlanNode) => nodes(p).map((n) => [n['Node Type'], n['Index Name'] ?? n['Relation Name']].filter(Boolean).join(' ')).join(' > ');

describe('the product list uses its indexes (EXPLAIN after VACUUM ANALYZE)', () => {
  const cases: [string, ProductFilter, string][] = [
    ['search (rare term) uses the trigram index on search_text', { search: FILTER_VALUES.rareTerm }, 'products_live_text_tags_idx'],
    ['search (common term, 5 %) uses the trigram index on search_text', { search: FILTER_VALUES.commonTerm }, 'products_live_text_tags_idx'],
    ['a search of several words uses the trigram index', { search: `${FILTER_VALUES.rareTerm} ${FILTER_VALUES.commonTerm}` }, 'products_live_text_tags_idx'],
    // A theme tag (2 %). For tags on 5 % or more of the store, walking the created_at index and filtering is the cheaper plan.
    ['the tags filter uses the GIN index on tags', { tags: ['summer'] }, 'products_live_text_tags_idx'],
    ['the tags filter with several tags uses the GIN index', { tags: ['summer', 'limited'] }, 'products_live_text_tags_idx'],
    ['low_stock uses the store/low_stock index', { lowStock: true }, 'products_store_id_mode_low_stock_created_at_idx'],
    ['category goes through the category -> product index', { category: FILTER_VALUES.category }, 'product_categories_category_id_mode_product_id_idx'],
  ];

  it.each(cases)('%s', async (_title, filter, index) => {
    const text = planText(await plan(filter));
    expect(text).toContain(` ${index}`);
    expect(text).not.toContain('Seq Scan products');
  });

  it('a search with tags intersects both inside one GIN index, before reading any product row', async () => {
    const p = await plan({ search: FILTER_VALUES.commonTerm, tags: [FILTER_VALUES.tag], isActive: true });
    const scans = nodes(p).filter((n) => n['Index Name'] === 'products_live_text_tags_idx');
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) {
      expect(scan['Index Cond']).toContain('search_text');
      expect(scan['Index Cond']).toContain('tags');
    }
    expect(planText(p)).not.toContain('Seq Scan products');
  });

  it('a search ranked by relevance reads its groups in order, each cut at the page, and stops once the page is full', async () => {
    const p = await executedPlan({ search: FILTER_VALUES.commonTerm });
    const append = nodes(p).find((n) => n['Node Type'] === 'Append')!;
    // Four groups: name equal, name starts with, a word of the name starts with, any other match.
    expect(append.Plans).toHaveLength(4);
    // Nothing sorts the union (a sort would run every group to its end): the page is the groups' rows in order.
    const above = nodes(p).find((n) => n.Plans?.includes(append))!;
    expect(above['Node Type']).toBe('Limit');
    expect(append['Actual Rows']).toBe(21);
    // The common word sits inside product names here, so the third group fills the page and the last never runs.
    expect(append.Plans!.map((g) => g['Actual Loops'])).toEqual([1, 1, 1, 0]);
    expect(planText(p)).not.toContain('Seq Scan products');
  });

  it('the default list (newest first) reads the store/created_at index in order and takes its total from the counters', async () => {
    const text = planText(await plan({}));
    expect(text).toContain('Index Only Scan products_store_id_mode_created_at_id_idx');
    expect(text).not.toContain('Sort');
    expect(text).not.toContain('Seq Scan products');
    // The page is the only read of products: the total is a sum of a few counter rows, not a count of the catalog.
    expect(text).toContain('product_counts');
    expect(text.match(/products_/g)).toHaveLength(1);
  });

  it('a status list reads a created_at index in order and takes its total from the counters', async () => {
    const text = planText(await plan({ isActive: true }));
    // Most products are active: walking store/created_at and skipping the rest can beat the status index.
    expect(text).toMatch(/Index (Only )?Scan products_store_id_mode_(status_)?created_at/);
    expect(text).not.toContain('Sort');
    expect(text).not.toContain('Seq Scan products');
    expect(text).toContain('product_counts');
    expect(text.match(/products_/g)).toHaveLength(1);
  });
});

describe('a list by price in a further currency uses the price rows index (EXPLAIN ANALYZE after VACUUM ANALYZE)', () => {
  beforeAll(async () => {
    // 90 % of the store's products priced in JPY, as the currencies benchmark's catalog (the triggers write the rows).
    await db().$executeRaw`UPDATE products SET prices = jsonb_build_object('JPY', jsonb_build_object('amount', (100 + abs(hashtext(id::text)) % 30000)::text, 'compare_at_amount', NULL))
      WHERE store_id = ${storeId}::uuid AND abs(hashtext(id::text || ':j')) % 10 < 9`;
    await db().$executeRawUnsafe('VACUUM ANALYZE');
  }, 60_000);

  it.each(['price', '-price'] as const)('sort=%s walks the index in order, stops after the page and never lists the unpriced', async (sort) => {
    const p = await executedPlan({ isActive: true, currency: 'JPY' }, sort);
    const text = planText(p);
    expect(text).not.toContain('Seq Scan products');
    const append = nodes(p).find((n) => n['Node Type'] === 'Append')!;
    expect(append.Plans).toHaveLength(2);
    // The priced come in the index's order (no sort); the unpriced, sorted by id, only on the last pages.
    expect(planText(append.Plans![0])).toContain('product_currency_prices_store_mode_currency_amount_idx');
    expect(planText(append.Plans![0])).not.toContain('Sort');
    expect(append.Plans!.map((g) => g['Actual Loops'])).toEqual([1, 0]);
  });

  it('a price range reads the index range for its page and its total, no product row outside it', async () => {
    const p = await executedPlan({ isActive: true, currency: 'JPY', priceMin: '100', priceMax: '400' }, 'price');
    const text = planText(p);
    expect(text).not.toContain('Seq Scan products');
    const ranges = nodes(p).filter((n) => n['Index Name'] === 'product_currency_prices_store_mode_currency_amount_idx');
    expect(ranges).toHaveLength(2);
    for (const r of ranges) expect(r['Index Cond']).toContain('amount');
  });
});
