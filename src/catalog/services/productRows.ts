/** Reading products' full rows (what the representation shows) in one statement. */

import { isDeepStrictEqual } from 'node:util';
import type { Mode } from '../../kernel/access';
import { Prisma, readRows } from '../../platform/db/client';
import { PRODUCT_VIEW_INCLUDE, type ProductViewRow } from './views';

type ProductQuery = { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect };

/**
 * The full row of a product is what its representation shows
 * (PRODUCT_VIEW_INCLUDE): every column, the store's currency, the category
 * slugs, the images in order, the SEO record, the variant count and the
 * translations by locale. It is also
 * the selection Pothos builds for the REST product fragment and the dashboard's
 * product screens.
 *
 * Whether the full row answers `query`: every relation it asks for is asked
 * exactly as PRODUCT_VIEW_INCLUDE loads it, and every other key is a column
 * (all of which the full row has). A query that asks for more (variants, another
 * image order) is not covered and goes through Prisma as before.
 */
export function coveredByFullRow(query: ProductQuery): boolean {
  const parts = query.include ?? query.select;
  if (!parts) return true;
  for (const [key, value] of Object.entries(parts)) {
    if (value === false || value === undefined) continue;
    const full = (PRODUCT_VIEW_INCLUDE as Record<string, unknown>)[key];
    if (full !== undefined) {
      if (!isDeepStrictEqual(value, full)) return false;
    } else if (!(key in COLUMNS) || value !== true) return false;
  }
  return true;
}

/** Product fields to their columns: the select list below and the coverage check both read it. */
const COLUMNS: Record<string, string> = {
  id: 'id',
  storeId: 'store_id',
  mode: 'mode',
  name: 'name',
  description: 'description',
  price: 'price',
  prices: 'prices',
  inventoryQuantity: 'inventory_quantity',
  lowStockThreshold: 'low_stock_threshold',
  status: 'status',
  publishedAt: 'published_at',
  publishAt: 'publish_at',
  unpublishAt: 'unpublish_at',
  tags: 'tags',
  options: 'options',
  productTypeId: 'product_type_id',
  attributes: 'attributes',
  ordinal: 'ordinal',
  searchText: 'search_text',
  lowStock: 'low_stock',
  hasStagedChanges: 'has_staged_changes',
  version: 'version',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

/**
 * One statement for the full rows. PostgreSQL builds the relations as JSON, so
 * the rows arrive in one round trip with no join fan-out, and Prisma only maps
 * the raw result: its own relation loading (query plan, nested result mapping)
 * costs several times the CPU per page.
 */
const SELECT_FULL_ROWS = `SELECT ${Object.entries(COLUMNS)
  .map(([field, column]) => `p.${column} AS "${field}"`)
  .join(', ')},
  json_build_object('currency', s.currency) AS store,
  coalesce((SELECT json_agg(json_build_object('category', json_build_object('slug', c.slug)) ORDER BY c.slug)
    FROM product_categories pc JOIN categories c ON c.id = pc.category_id WHERE pc.product_id = p.id), '[]') AS categories,
  coalesce((SELECT json_agg(json_build_object('id', i.id, 'storeId', i.store_id, 'productId', i.product_id, 'sha256', i.sha256, 'mimeType', i.mime_type,
      'width', i.width, 'height', i.height, 'sizeBytes', i.size_bytes, 'alt', i.alt, 'position', i.position, 'createdAt', i.created_at) ORDER BY i.position, i.created_at)
    FROM product_images i WHERE i.product_id = p.id), '[]') AS images,
  (SELECT json_build_object('id', o.id, 'storeId', o.store_id, 'productId', o.product_id, 'mode', o.mode, 'title', o.title, 'description', o.description,
      'slug', o.slug, 'canonicalUrl', o.canonical_url, 'ogImageUrl', o.og_image_url, 'noindex', o.noindex, 'updatedAt', o.updated_at)
    FROM product_seo o WHERE o.product_id = p.id) AS seo,
  json_build_object('variants', (SELECT count(*)::int FROM variants v WHERE v.product_id = p.id)) AS "_count",
  coalesce((SELECT json_agg(json_build_object('productId', t.product_id, 'storeId', t.store_id, 'mode', t.mode, 'locale', t.locale, 'name', t.name,
      'description', t.description, 'seoTitle', t.seo_title, 'seoDescription', t.seo_description, 'slug', t.slug, 'options', t.options,
      'attributes', t.attributes, 'outdatedFields', t.outdated_fields, 'searchText', t.search_text, 'createdAt', t.created_at, 'updatedAt', t.updated_at) ORDER BY t.locale)
    FROM product_translations t WHERE t.product_id = p.id), '[]') AS translations
FROM products p JOIN stores s ON s.id = p.store_id`;

const BY_IDS = `${SELECT_FULL_ROWS} WHERE p.id = ANY($1::uuid[])`;
const ONE_OF_CATALOG = `${SELECT_FULL_ROWS} WHERE p.id = $1::uuid AND p.store_id = $2::uuid AND p.mode = $3::"Mode"`;

type RawRow = Omit<ProductViewRow, 'images' | 'seo' | 'price' | 'translations'> & {
  translations: (Omit<ProductViewRow['translations'][number], 'createdAt' | 'updatedAt'> & { createdAt: string | Date; updatedAt: string | Date })[];
  price: Prisma.Decimal | string;
  images: (Omit<ProductViewRow['images'][number], 'createdAt'> & { createdAt: string | Date })[];
  seo: (Omit<NonNullable<ProductViewRow['seo']>, 'updatedAt'> & { updatedAt: string | Date }) | null;
};

/** The row as Prisma would give it: money as a Decimal (pg reads numeric as text), and Date objects in the nested rows (JSON carries times as text). */
function toFullRow(row: RawRow): ProductViewRow {
  if (!Prisma.Decimal.isDecimal(row.price)) row.price = new Prisma.Decimal(row.price);
  for (const image of row.images) image.createdAt = new Date(image.createdAt);
  if (row.seo) row.seo.updatedAt = new Date(row.seo.updatedAt);
  for (const tr of row.translations) {
    tr.createdAt = new Date(tr.createdAt);
    tr.updatedAt = new Date(tr.updatedAt);
  }
  return row as ProductViewRow;
}

/** The full rows of these products, in no particular order (one statement). */
export async function fullProductRowsByIds(ids: string[]): Promise<ProductViewRow[]> {
  const rows = await readRows<RawRow>(BY_IDS, [ids]);
  return rows.map(toFullRow);
}

/** The full row of one product of a store's catalog in a mode, or null (one statement). */
export async function fullProductRow(storeId: string, mode: Mode, id: string): Promise<ProductViewRow | null> {
  const [row] = await readRows<RawRow>(ONE_OF_CATALOG, [id, storeId, mode]);
  return row ? toFullRow(row) : null;
}
