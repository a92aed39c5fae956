/**
 * Seeds benchmark catalogs with INSERT … SELECT over generate_series: 1M
 * products with their categories, variants, images and SEO records in a few
 * minutes. Values derive from a hash of the product number, so every run
 * (and every size) has the same distribution:
 *
 *   status        70 % active, 20 % draft, 10 % archived
 *   category      one of 40 (cat-01 … cat-40), 30 % of products in a second one  -> category=cat-01 ≈ 3 %
 *   tags          'sale' 10 %, 'new' 5 %, one of 30 themes 67 %, 'limited' 0.1 %  -> tags=sale ≈ 10 %
 *   search        'cotton' is one of 20 materials (≈ 5 %), 'zephyr' a rare word (0.1 %)
 *   low stock     inventory 0-199 against a threshold of 5 or 10                  -> low_stock ≈ 3.6 %
 *   variants      0-3 per product (SKU-<n>-<k>), included in search_text like the service does
 *   images / SEO  every 10th product has an image, every 5th an SEO record
 *
 * search_text and low_stock follow searchText() and the low-stock rule of
 * src/catalog/services/products.ts (name, description, tags, SKUs joined by one space,
 * lower-cased; inventory_quantity <= low_stock_threshold).
 *
 * The rich kind (issue 27) is the same products, each with the fields a
 * merchant's catalog carries besides:
 *
 *   options       Size × Color × Fit, 2-4 × 2-3 × 1-2 values: 8, 12 or 16 variants, 12 on average
 *   variants      one per combination: price by size, GTIN-13 barcode, cost, weight (kg or lb);
 *                 compare-at price on 30 % of products; the product image on the first color's variants
 *   attributes    one product type "Apparel" with six product attributes: material (dropdown, the name's
 *                 material), features (multiselect, 1-2 of 6), length (numeric, cm), machine_washable
 *                 (boolean), release_date (date), care (plain text, on 80 % of products)
 *
 * Usage: tsx bench/seed.ts <1k|10k|100k|1m> [--rich] [--force]
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../src/platform/config';
import { createContext } from '../src/platform/context';
import { SYSTEM } from '../src/kernel/principal';
import { applyMigrations } from '../src/platform/db/migrate';
import { postgresAdapterFactory } from '../src/platform/db/adapters';
import { closeDatabase, db, openDatabase } from '../src/platform/db/client';
import { createStore, createUser } from '../src/access/services/stores';
import { issueDashboardToken } from '../src/access/auth/dashboardTokens';
import { createApiKey } from '../src/access/services/apiKeys';
import { isValidGtin } from '../src/kernel/gtin';
import { adminQuery, databaseComment, databaseExists, databaseUrl, dropDatabase, ensurePostgres, withClient } from './postgres';

export const SIZES = { '1k': 1_000, '10k': 10_000, '100k': 100_000, '1m': 1_000_000 } as const;
export type SizeName = keyof typeof SIZES;

/** Today's catalog, or the same products with options, rich variants and typed attributes (see the module comment). */
export type CatalogKind = 'standard' | 'rich';

/** Filter values the scenarios use, with the share of the catalog each selects. */
export const FILTER_VALUES = { category: 'cat-01', tag: 'sale', commonTerm: 'cotton', rareTerm: 'zephyr' } as const;

/** Bump when the generated data changes, so kept databases are reseeded. */
const SEED_VERSION = 4;
const STORE_NAME = 'Bench Store';
const OWNER_EMAIL = 'bench-owner@example.test';

const ADJECTIVES = 'classic modern vintage rustic sleek cozy bold soft bright urban coastal alpine minimal royal sunny misty golden silver velvet wild quiet swift gentle noble lucky happy brave calm crisp fresh'.split(' ');
const MATERIALS = 'cotton wool linen leather silk denim bamboo canvas cashmere suede hemp oak walnut ceramic glass steel copper marble jade clay'.split(' ');
const NOUNS = 'shirt jacket scarf hat bag mug lamp vase chair table bowl plate candle blanket pillow rug towel apron wallet belt sock glove boot sandal dress skirt hoodie sweater tote backpack notebook pen clock mirror frame basket planter tray coaster stool'.split(' ');
const THEMES = 'summer winter spring autumn outdoor kitchen office travel kids gift eco handmade premium basic sport beach garden retro nordic boho party wedding pets vegan local fairtrade recycled organic artisan limited-run'.split(' ');
const CATEGORIES = 40;

/** The rich kind's options; a product takes the first n sizes and n consecutive colors and fits from a hashed start. */
const OPTION_SIZES = ['S', 'M', 'L', 'XL'];
const OPTION_COLORS = ['Black', 'White', 'Navy', 'Red', 'Green'];
const OPTION_FITS = ['Regular', 'Slim', 'Relaxed'];
/** (sizes, colors, fits) per shape: 12, 12, 12, 8 and 16 variants, 12 on average. */
const OPTION_SHAPES = [
  [3, 2, 2],
  [4, 3, 1],
  [2, 3, 2],
  [2, 2, 2],
  [4, 2, 2],
];
const FEATURES = ['waterproof', 'breathable', 'recycled', 'stretch', 'organic', 'quick_dry'];
const words = (keys: string[]) => keys.map((k) => ({ value: k, name: k.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()) }));
/** The rich kind's product attributes, in the product type's order. */
export const RICH_ATTRIBUTES = [
  { code: 'material', name: 'Material', type: 'dropdown', unit: null, values: words(MATERIALS), required: true },
  { code: 'features', name: 'Features', type: 'multiselect', unit: null, values: words(FEATURES), required: false },
  { code: 'length', name: 'Length', type: 'numeric', unit: 'cm', values: [], required: false },
  { code: 'machine_washable', name: 'Machine washable', type: 'boolean', unit: null, values: [], required: false },
  { code: 'release_date', name: 'Release date', type: 'date', unit: null, values: [], required: false },
  { code: 'care', name: 'Care instructions', type: 'plain_text', unit: null, values: [], required: false },
] as const;
const sqlText = (v: unknown) => `'${JSON.stringify(v).replace(/'/g, "''")}'`;

const arr = (words: string[]) => `ARRAY[${words.map((w) => `'${w}'`).join(',')}]`;
/** A 32-bit hash of the product number (0 … 2^32-1); `k` picks an independent stream. */
const h = (k: number) => `(hashint8(i::bigint * 16 + ${k})::bigint + 2147483648)`;
const productId = (store: string, i = 'i') => `md5('${store}:p:' || ${i})::uuid`;

function assertUuid(s: string) {
  if (!/^[0-9a-f-]{36}$/i.test(s)) throw new Error(`not a uuid: ${s}`);
}

/**
 * SQL statements that add products first … first+count-1 (with categories on
 * the first call) to a store. Deterministic ids (md5 of store and number)
 * let child rows find their product without a join.
 */
export function catalogStatements(storeId: string, count: number, opts: { first?: number; withCategories?: boolean; mode?: 'live' | 'test'; kind?: CatalogKind } = {}): string[] {
  const rich = opts.kind === 'rich';
  // The mode column only when asked for (test): the seed then also fits a schema from before test mode, whose rows are all live.
  const mode = opts.mode === 'test' ? { col: ', mode', val: `, 'test'::"Mode"` } : { col: '', val: '' };
  assertUuid(storeId);
  const first = opts.first ?? 1;
  const last = first + count - 1;
  const series = `generate_series(${first}, ${last}) i`;
  const statements: string[] = [];
  if (opts.withCategories ?? first === 1) {
    statements.push(`INSERT INTO categories (id, store_id, slug, name)
      SELECT md5('${storeId}:c:' || c)::uuid, '${storeId}', 'cat-' || lpad(c::text, 2, '0'), 'Category ' || lpad(c::text, 2, '0')
      FROM generate_series(1, ${CATEGORIES}) c`);
    if (rich) statements.push(...richTypeStatements(storeId));
  }
  // Rich: the option shape (and so the variant count) and the compare-at share come from their own hash streams.
  const shape = (k: number) => `(ARRAY[${OPTION_SHAPES.map((sh) => sh[k]).join(',')}])[1 + ${h(13)} % ${OPTION_SHAPES.length}]`;
  const variantCount = rich ? `(${shape(0)} * ${shape(1)} * ${shape(2)})` : `(${h(8)} % 4)::int`;
  const richProduct = rich
    ? {
        col: ', options, product_type_id, attributes',
        val: `, jsonb_build_array(
          jsonb_build_object('name', 'Size', 'values', to_jsonb(sizes)),
          jsonb_build_object('name', 'Color', 'values', to_jsonb(colors)),
          jsonb_build_object('name', 'Fit', 'values', to_jsonb(fits))),
        md5('${storeId}:t:apparel')::uuid,
        jsonb_strip_nulls(jsonb_build_object(
          'material', material,
          'features', CASE WHEN h5 / 200 % 2 = 0 THEN jsonb_build_array((${arr(FEATURES)})[1 + h6 / 90 % 6])
            ELSE jsonb_build_array((${arr(FEATURES)})[1 + h6 / 90 % 6], (${arr(FEATURES)})[1 + (h6 / 90 + 1 + h6 / 540 % 5) % 6]) END,
          'length', (20 + h7 / 40 % 181)::int,
          'machine_washable', h9 / 200 % 3 <> 0,
          'release_date', to_char(date '2023-01-01' + (h4 / 50 % 1000)::int, 'YYYY-MM-DD'),
          'care', CASE WHEN h8 / 4 % 5 <> 0 THEN initcap(material) || ': wash at ' || (ARRAY[30, 40, 60])[1 + h8 / 20 % 3] || ' °C, do not tumble dry.' END))`,
        select: `, ARRAY(SELECT (${arr(OPTION_SIZES)})[k] FROM generate_series(1, ns) k) AS sizes,
        ARRAY(SELECT (${arr(OPTION_COLORS)})[1 + (c0 + k) % ${OPTION_COLORS.length}] FROM generate_series(0, nc - 1) k) AS colors,
        ARRAY(SELECT (${arr(OPTION_FITS)})[1 + (f0 + k) % ${OPTION_FITS.length}] FROM generate_series(0, nf - 1) k) AS fits`,
        shapes: `, ${shape(0)} AS ns, ${shape(1)} AS nc, ${shape(2)} AS nf, h2 / 7 % ${OPTION_COLORS.length} AS c0, h3 / 7 % ${OPTION_FITS.length} AS f0`,
      }
    : { col: '', val: '', select: '', shapes: '' };
  statements.push(`INSERT INTO products (id, store_id, name, description, price, inventory_quantity, low_stock_threshold, status,
      published_at, tags, search_text, low_stock, version, created_at, updated_at${mode.col}${richProduct.col})
    SELECT id, '${storeId}', name, description, price, qty, threshold, status::"ProductStatus",
      CASE WHEN status = 'active' THEN created + interval '1 hour' END, tags,
      lower(array_to_string(ARRAY[name, description] || tags || skus, ' ')), qty <= threshold, 1, created, created${mode.val}${richProduct.val}
    FROM (
      SELECT i, ${productId(storeId)} AS id,
        initcap(adj) || ' ' || initcap(material) || ' ' || initcap(noun) AS name,
        CASE WHEN h4 % 5 = 0 THEN '' ELSE 'A ' || adj || ' ' || noun || ' made of ' || material || '.' END AS description,
        ((h2 / 20 % 50000) + 100) / 100.0 AS price,
        (h9 % 200)::int AS qty,
        CASE WHEN h7 % 4 = 0 THEN 10 ELSE 5 END AS threshold,
        CASE WHEN h4 / 5 % 10 < 7 THEN 'active' WHEN h4 / 5 % 10 < 9 THEN 'draft' ELSE 'archived' END AS status,
        array_remove(ARRAY[
          CASE WHEN h5 % 10 = 0 THEN 'sale' END,
          CASE WHEN h5 / 10 % 20 = 0 THEN 'new' END,
          CASE WHEN h6 % 3 <> 0 THEN (${arr(THEMES)})[1 + h6 / 3 % ${THEMES.length}] END,
          CASE WHEN h7 / 4 % 1000 = 0 THEN 'limited' END], NULL) AS tags,
        ARRAY(SELECT 'SKU-' || i || '-' || k FROM generate_series(1, n_variants) k) AS skus,
        timestamptz '2024-01-01 00:00:00+00' + i * interval '31 seconds' AS created${rich ? ', material, h4, h5, h6, h7, h8, h9' : ''}${richProduct.select}
      FROM (
        SELECT i, h2, h4, h5, h6, h7, h8, h9, ${variantCount} AS n_variants${richProduct.shapes},
          CASE WHEN h1 % 1000 = 0 THEN 'zephyr' ELSE (${arr(ADJECTIVES)})[1 + h1 / 1000 % ${ADJECTIVES.length}] END AS adj,
          (${arr(MATERIALS)})[1 + h2 % ${MATERIALS.length}] AS material,
          (${arr(NOUNS)})[1 + h3 % ${NOUNS.length}] AS noun
        FROM (SELECT i, ${[1, 2, 3, 4, 5, 6, 7, 8, 9].map((k) => `${h(k)} AS h${k}`).join(', ')} FROM ${series}) hashes
      ) words
    ) p`);
  statements.push(`INSERT INTO product_categories (product_id, category_id${mode.col})
    SELECT ${productId(storeId)}, md5('${storeId}:c:' || c)::uuid${mode.val}
    FROM (SELECT i, 1 + ${h(10)} % ${CATEGORIES} AS c1, ${h(11)} AS h11 FROM ${series}) g,
      LATERAL unnest(CASE WHEN h11 % 10 < 3 THEN ARRAY[c1, 1 + (c1 + h11 / 10 % ${CATEGORIES - 1}) % ${CATEGORIES}] ELSE ARRAY[c1] END) c`);
  // Image rows before the variants that may point at them.
  statements.push(`INSERT INTO product_images (id, store_id, product_id, sha256, mime_type, width, height, size_bytes, alt, position, created_at)
    SELECT md5('${storeId}:i:' || i)::uuid, '${storeId}', ${productId(storeId)}, encode(sha256(('${storeId}:i:' || i)::bytea), 'hex'),
      'image/jpeg', 800, 800, 120000, NULL, 0, timestamptz '2024-01-01 00:00:00+00' + i * interval '31 seconds'
    FROM ${series} WHERE i % 10 = 0`);
  if (rich) statements.push(richVariantsStatement(storeId, series, mode));
  else {
    statements.push(`INSERT INTO variants (id, store_id, product_id, sku, title, options, options_key, price, inventory_quantity, position, created_at, updated_at${mode.col})
    SELECT md5('${storeId}:v:' || i || ':' || k)::uuid, '${storeId}', ${productId(storeId)}, 'SKU-' || i || '-' || k, size,
      jsonb_build_object('size', size), '{"size":"' || size || '"}', NULL, (${h(12)} % 50)::int, k - 1, created, created${mode.val}
    FROM (SELECT i, (${h(8)} % 4)::int AS n, timestamptz '2024-01-01 00:00:00+00' + i * interval '31 seconds' AS created FROM ${series}) g,
      LATERAL generate_series(1, n) k, LATERAL (SELECT (ARRAY['S','M','L'])[k] AS size) s`);
  }
  statements.push(`INSERT INTO product_seo (id, store_id, product_id, title, description, slug, canonical_url, og_image_url, noindex, updated_at${mode.col})
    SELECT md5('${storeId}:s:' || p.i)::uuid, '${storeId}', p.id, p.name, left(p.description, 160), 'p-' || p.i, NULL, NULL, false, p.created_at${mode.val}
    FROM (SELECT i, ${productId(storeId)} AS id FROM ${series} WHERE i % 5 = 0) s
      JOIN LATERAL (SELECT s.i, s.id, name, description, created_at FROM products WHERE products.id = s.id) p ON true`);
  return statements;
}

/** The rich kind's store-level rows: its six attributes and the product type that assigns them. */
function richTypeStatements(storeId: string): string[] {
  const attributeId = (code: string) => `md5('${storeId}:a:${code}')::uuid`;
  return [
    `INSERT INTO attributes (id, store_id, code, name, type, unit, values, filterable, public, updated_at)
      VALUES ${RICH_ATTRIBUTES.map((a) => `(${attributeId(a.code)}, '${storeId}', '${a.code}', '${a.name}', '${a.type}', ${a.unit ? `'${a.unit}'` : 'NULL'}, ${sqlText(a.values)}::jsonb, ${a.type !== 'plain_text'}, true, now())`).join(',\n        ')}`,
    `INSERT INTO product_types (id, store_id, name, updated_at) VALUES (md5('${storeId}:t:apparel')::uuid, '${storeId}', 'Apparel', now())`,
    `INSERT INTO product_type_attributes (product_type_id, attribute_id, level, required, position)
      VALUES ${RICH_ATTRIBUTES.map((a, i) => `(md5('${storeId}:t:apparel')::uuid, ${attributeId(a.code)}, 'product', ${a.required}, ${i})`).join(', ')}`,
  ];
}

/**
 * One variant per combination of the product's options (read back from the
 * product row, so both agree), the first option varying fastest. The barcode
 * is a GTIN-13 in GS1's restricted-circulation range (prefix 2), unique per
 * variant, with its mod-10 check digit computed here.
 */
function richVariantsStatement(storeId: string, series: string, mode: { col: string; val: string }): string {
  return `INSERT INTO variants (id, store_id, product_id, sku, title, options, options_key, price, inventory_quantity, position, created_at, updated_at,
      barcode, compare_at_price, cost, weight_value, weight_unit, image_id${mode.col})
    SELECT md5('${storeId}:v:' || g.i || ':' || k)::uuid, '${storeId}', g.id, 'SKU-' || g.i || '-' || k, size || ' / ' || color || ' / ' || fit,
      jsonb_build_object('Size', size, 'Color', color, 'Fit', fit), '{"Color":"' || color || '","Fit":"' || fit || '","Size":"' || size || '"}',
      vprice, (${h(12)} % 50)::int, k - 1, g.created, g.created,
      body || ((10 - (SELECT sum(substr(body, d, 1)::int * (1 + 2 * (1 - d % 2))) FROM generate_series(1, 12) d) % 10) % 10),
      CASE WHEN ${h(14)} % 10 < 3 THEN round(vprice * 1.25, 2) END, round(vprice * 0.45, 2),
      CASE WHEN ${h(15)} % 2 = 0 THEN round(0.2 + sz * 0.05, 3) ELSE round((0.2 + sz * 0.05) * 2.2046, 3) END,
      (CASE WHEN ${h(15)} % 2 = 0 THEN 'kg' ELSE 'lb' END)::"WeightUnit",
      CASE WHEN g.i % 10 = 0 AND cl = 0 THEN md5('${storeId}:i:' || g.i)::uuid END${mode.val}
    FROM (
      SELECT i, p.id, p.price, p.created_at AS created, p.options->0->'values' AS sizes, p.options->1->'values' AS colors, p.options->2->'values' AS fits
      FROM ${series} JOIN products p ON p.id = ${productId(storeId)}
    ) g,
      LATERAL generate_series(1, jsonb_array_length(sizes) * jsonb_array_length(colors) * jsonb_array_length(fits)) k,
      LATERAL (SELECT (k - 1) % jsonb_array_length(sizes) AS sz, (k - 1) / jsonb_array_length(sizes) % jsonb_array_length(colors) AS cl,
        (k - 1) / (jsonb_array_length(sizes) * jsonb_array_length(colors)) AS ft) ix,
      LATERAL (SELECT sizes->>sz AS size, colors->>cl AS color, fits->>ft AS fit, g.price + 2 * sz AS vprice,
        '2' || lpad((g.i * 16 + k)::text, 11, '0') AS body) v`;
}

export interface SeededCatalog {
  dbName: string;
  url: string;
  size: number;
  /** Seconds the seed took; 0 when a kept database was reused. */
  seedSeconds: number;
}

/** The kept database of a catalog (full runs reuse it while its seed tag matches). */
export const catalogDatabase = (size: SizeName, kind: CatalogKind) => `bench_catalog_${size}${kind === 'rich' ? '_rich' : ''}`;

const seedTag = (size: number, kind: CatalogKind) => `bench catalog v${SEED_VERSION} size=${size}${kind === 'rich' ? ' rich' : ''}`;
const CHILD_TABLES = ['products', 'product_categories', 'variants', 'product_images', 'product_seo'];

/**
 * A migrated database holding the bench store with `size` products. With
 * `reuse`, a database left by an earlier run with the same seed version and
 * size is kept as it is (seeding 1M takes minutes). `migrationsDir` migrates
 * it as another version of the service would (a worktree's prisma/migrations):
 * the seed writes only columns every version since the event outbox has.
 */
export async function prepareCatalog(
  size: number,
  opts: { dbName: string; reuse: boolean; log: (s: string) => void; migrationsDir?: string; kind?: CatalogKind },
): Promise<SeededCatalog> {
  const { dbName, log } = opts;
  const kind = opts.kind ?? 'standard';
  const url = databaseUrl(dbName);
  if (opts.reuse && (await databaseExists(dbName)) && (await databaseComment(dbName)) === seedTag(size, kind)) {
    return { dbName, url, size, seedSeconds: 0 };
  }
  const started = Date.now();
  await dropDatabase(dbName);
  await adminQuery(`CREATE DATABASE "${dbName}"`);
  await applyMigrations(postgresAdapterFactory(url, 2), { migrationsDir: opts.migrationsDir });

  await openDatabase({ kind: 'postgres', url, poolSize: 2, preparedStatements: true }, { migrate: false });
  let storeId: string;
  try {
    const owner = await createUser(benchContext(), { email: OWNER_EMAIL, name: 'Bench Owner' });
    storeId = (await createStore(benchContext(), { name: STORE_NAME, currency: 'EUR', ownerId: owner.id })).id;
  } finally {
    await closeDatabase();
  }

  await withClient(url, async (c) => {
    // Indexes are built once after the load (much faster than maintained row by row); FK triggers are off since ids are consistent by construction.
    const { rows: indexes } = await c.query<{ name: string; def: string }>(
      `SELECT quote_ident(ic.relname) AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_class ic ON ic.oid = i.indexrelid
       WHERE t.relname = ANY($1) AND NOT i.indisprimary AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
      [CHILD_TABLES],
    );
    await c.query("SET maintenance_work_mem = '512MB'; SET synchronous_commit = off; SET session_replication_role = replica");
    for (const ix of indexes) await c.query(`DROP INDEX ${ix.name}`);
    const batch = 250_000;
    for (let first = 1; first <= size; first += batch) {
      const count = Math.min(batch, size - first + 1);
      for (const sql of catalogStatements(storeId, count, { first, withCategories: first === 1, kind })) await c.query(sql);
      log(`  seeded ${first + count - 1}/${size} products`);
    }
    for (const ix of indexes) await c.query(ix.def);
    await c.query('SET session_replication_role = origin');
    // Triggers were off during the load: the store's product counters (unfiltered and status totals) are filled here,
    // as the migration that introduced them backfills an existing catalog.
    await c.query(`INSERT INTO product_counts (store_id, mode, status, slot, count)
      SELECT store_id, mode, status, 0, count(*) FROM products WHERE store_id = $1::uuid GROUP BY 1, 2, 3
      ON CONFLICT (store_id, mode, status, slot) DO UPDATE SET count = product_counts.count + EXCLUDED.count`, [storeId]);
    const { rows: [check] } = await c.query<{ counted: string; rows: string }>(
      `SELECT (SELECT coalesce(sum(count), 0) FROM product_counts WHERE store_id = $1::uuid)::text AS counted, (SELECT count(*) FROM products WHERE store_id = $1::uuid)::text AS rows`,
      [storeId],
    );
    if (check.counted !== check.rows) throw new Error(`product counters say ${check.counted} products, the table holds ${check.rows}`);
    // Likewise the products' ordinals and the attribute value and status bitmaps over them.
    await c.query('SELECT product_ordinals_rebuild($1::uuid)', [storeId]);
    if (kind === 'rich') {
      // The check digits come from SQL: hold a sample to the service's own rule.
      const { rows: sample } = await c.query<{ barcode: string }>('SELECT barcode FROM variants WHERE store_id = $1::uuid ORDER BY id LIMIT 1000', [storeId]);
      const bad = sample.find((r) => !isValidGtin(r.barcode));
      if (bad) throw new Error(`seeded barcode ${bad.barcode} is not a valid GTIN`);
    }
    await c.query('VACUUM ANALYZE');
  });
  await adminQuery(`COMMENT ON DATABASE "${dbName}" IS '${seedTag(size, kind)}'`);
  return { dbName, url, size, seedSeconds: (Date.now() - started) / 1000 };
}

export interface BenchFixture {
  storeId: string;
  ownerId: string;
  /** Dashboard bearer token of the store owner. */
  token: string;
  /** A live secret API key for the public API. */
  apiKey: string;
  /** A product with variants, an image and an SEO record (read-one scenarios). */
  productId: string;
  /** Ids for write scenarios: drafts to publish, active products to unpublish, products to update and products without an SEO record. */
  draftIds: string[];
  activeIds: string[];
  updateIds: string[];
  seoIds: string[];
  /** Rows the write scenarios add or change, to undo afterwards. */
  restore: () => Promise<void>;
}

/** Issues fresh credentials on a seeded catalog and picks the ids the scenarios use. */
export async function openFixture(url: string): Promise<BenchFixture> {
  await openDatabase({ kind: 'postgres', url, poolSize: 2, preparedStatements: true }, { migrate: false });
  try {
    const store = await db().store.findFirstOrThrow({ where: { name: STORE_NAME }, select: { id: true, ownerId: true } });
    const { token } = await issueDashboardToken(benchContext(), store.ownerId, { name: 'bench' });
    const apiKey = await createBenchApiKey(store.id);
    // The oldest product that has variants, an image and an SEO record: the richest read-one response.
    const [full] = await db().$queryRaw<{ id: string }[]>`
      SELECT p.id::text AS id FROM products p
      WHERE p.store_id = ${store.id}::uuid AND EXISTS (SELECT 1 FROM variants v WHERE v.product_id = p.id)
        AND EXISTS (SELECT 1 FROM product_images im WHERE im.product_id = p.id) AND EXISTS (SELECT 1 FROM product_seo s WHERE s.product_id = p.id)
      ORDER BY p.created_at LIMIT 1`;
    const drafts = await db().$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM products WHERE store_id = ${store.id}::uuid AND status = 'draft' ORDER BY created_at LIMIT 20000`;
    const actives = await db().$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM products WHERE store_id = ${store.id}::uuid AND status = 'active' ORDER BY created_at LIMIT 20000`;
    const updates = await db().$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM products WHERE store_id = ${store.id}::uuid ORDER BY created_at DESC LIMIT 200`;
    const withoutSeo = await db().$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM products p WHERE store_id = ${store.id}::uuid AND NOT EXISTS (SELECT 1 FROM product_seo s WHERE s.product_id = p.id)
      ORDER BY created_at DESC LIMIT 200`;
    const draftIds = drafts.map((r) => r.id);
    const activeIds = actives.map((r) => r.id);
    return {
      storeId: store.id,
      ownerId: store.ownerId,
      token,
      apiKey,
      productId: full.id,
      draftIds,
      activeIds,
      updateIds: updates.map((r) => r.id),
      seoIds: withoutSeo.map((r) => r.id),
      restore: () =>
        withClient(url, async (c) => {
          await c.query(`DELETE FROM products WHERE store_id = $1 AND name LIKE 'Bench new %'`, [store.id]);
          await c.query(`UPDATE products SET status = 'draft', published_at = NULL WHERE id = ANY($1::uuid[]) AND status <> 'draft'`, [draftIds]);
          // As seeded: active products were published an hour after their creation.
          await c.query(`UPDATE products SET status = 'active', published_at = created_at + interval '1 hour' WHERE id = ANY($1::uuid[]) AND status <> 'active'`, [activeIds]);
          await c.query(`DELETE FROM product_seo WHERE store_id = $1 AND title LIKE 'Bench SEO %'`, [store.id]);
          await c.query('ANALYZE products');
        }),
    };
  } finally {
    await closeDatabase();
  }
}

/**
 * Another store of the bench owner in a seeded database, with `count` products of the same distribution (written
 * with the triggers on, so its counters and ordinals are kept as the service keeps them). Returns its id; an existing
 * store of that name is deleted first.
 */
export async function addBenchStore(url: string, name: string, count: number): Promise<string> {
  await openDatabase({ kind: 'postgres', url, poolSize: 2, preparedStatements: true }, { migrate: false });
  let storeId: string;
  try {
    const owner = await db().user.findFirstOrThrow({ where: { email: OWNER_EMAIL }, select: { id: true } });
    await db().store.deleteMany({ where: { name } });
    storeId = (await createStore(benchContext(), { name, currency: 'EUR', ownerId: owner.id })).id;
  } finally {
    await closeDatabase();
  }
  await withClient(url, async (c) => {
    for (const sql of catalogStatements(storeId, count, { withCategories: true })) await c.query(sql);
    await c.query('ANALYZE');
  });
  return storeId;
}

/** A live secret key with the default scopes, for the public API scenarios. */
async function createBenchApiKey(storeId: string): Promise<string> {
  const { secret } = await createApiKey(benchContext(), storeId, { name: 'bench', type: 'secret', mode: 'live', scopes: ['public:read', 'payments:read'] });
  return secret;
}

/** The benchmark's own setup acts as the system on the open database. */
function benchContext() {
  return createContext({ requestId: randomUUID(), source: 'system', principal: SYSTEM, config: loadConfig({ SEED_DEMO: 'false' }), log: pino({ level: 'silent' }), db: db() });
}

if (require.main === module) {
  const [sizeArg, ...rest] = process.argv.slice(2);
  const size = SIZES[(sizeArg ?? '').toLowerCase() as SizeName];
  if (!size) {
    console.error(`usage: tsx bench/seed.ts <${Object.keys(SIZES).join('|')}> [--rich] [--force]`);
    process.exit(2);
  }
  const log = (s: string) => console.log(s);
  const kind: CatalogKind = rest.includes('--rich') ? 'rich' : 'standard';
  ensurePostgres(log)
    .then(() => prepareCatalog(size, { dbName: catalogDatabase(sizeArg.toLowerCase() as SizeName, kind), reuse: !rest.includes('--force'), log, kind }))
    .then((c) => log(`${c.dbName}: ${c.size} products (${c.seedSeconds ? `seeded in ${c.seedSeconds.toFixed(1)} s` : 'kept from an earlier run'})`))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
