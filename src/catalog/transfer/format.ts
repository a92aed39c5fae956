/** The bulk product file format (CSV and JSON Lines), shared by import and export. */

import type { FieldError } from '../../platform/errors';
import { pickFields, productParts, type ProductPartsRow, SEO, VARIANT, type variantView, viewOf } from '../services/views';
import type { PriceView } from '../services/prices';
import { type RowTranslations, rowTranslations } from './translations';

/**
 * The bulk product format: one product per CSV row or JSON Lines object, with
 * the same columns (keys) both ways, so an export imports as it stands.
 *
 * Conventions (docs/import-export.md):
 * - A column left out of the header (a key left out of a JSON object) leaves
 *   that field of an updated product as it is, or takes the create default.
 * - An empty cell (JSON null) does the same for fields that cannot be empty
 *   (name, price, quantities, status, categories, variants) and empties the
 *   others (description "", tags [], SEO fields null).
 * - Lists (category_slugs, tags) are `|`-separated in CSV, arrays in JSON;
 *   options and variants are a JSON array in both, attributes a JSON object.
 * - product_type is the type's name (unique in the store, readable in a
 *   spreadsheet); an empty cell removes the product's type.
 * - Prices in further currencies: `price:JPY` and `compare_at_price:JPY` columns
 *   in CSV (one pair per currency of the store, after the others), a nested
 *   `prices` list in JSON Lines; variants carry `prices` in their JSON. Given,
 *   they replace the product's prices (an empty `price:JPY` cell: none in JPY).
 */

export const TRANSFER_FORMATS = ['csv', 'jsonl'] as const;
export type TransferFormat = (typeof TRANSFER_FORMATS)[number];

export const COLUMNS = [
  'id',
  'sku',
  'name',
  'description',
  'price',
  'inventory_quantity',
  'low_stock_threshold',
  'status',
  'category_slugs',
  'tags',
  'product_type',
  'attributes',
  'options',
  'variants',
  'seo_title',
  'seo_description',
  'seo_slug',
  'seo_canonical_url',
  'seo_og_image_url',
  'seo_noindex',
] as const;
type Column = (typeof COLUMNS)[number];

/** A CSV column of a price in a further currency: `price:JPY` (its amount) or `compare_at_price:JPY`. */
export const PRICE_COLUMN = /^(price|compare_at_price):([A-Za-z]{3})$/;

/** The CSV price columns of a store's further currencies, a pair per currency in the store's order. */
export const priceColumns = (currencies: string[]) => currencies.flatMap((c) => [`price:${c}`, `compare_at_price:${c}`]);

/** The JSON Lines key of the prices in further currencies (a list, as the REST product shows it). */
export const PRICES_KEY = 'prices';

/** Read and ignored (with one warning per file): images are uploaded on their own, never fetched from a URL by an import. */
export const IGNORED_COLUMNS = ['image_urls'] as const;

export const CONTENT_TYPES: Record<TransferFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

const LIST_SEPARATOR = '|';

const SEO_COLUMNS = { seo_title: 'title', seo_description: 'description', seo_slug: 'slug', seo_canonical_url: 'canonicalUrl', seo_og_image_url: 'ogImageUrl', seo_noindex: 'noindex' } as const;
type SeoColumn = keyof typeof SEO_COLUMNS;

/** One entry of the error report. `row`: the spreadsheet's row number (the CSV header is row 1), or the JSON Lines line number. */
export interface RowError {
  row: number;
  field: string;
  code: string;
  message: string;
}

/** A variant of the file in the variant services' input names. */
type ImportVariant = Record<string, unknown>;

/** The variant fields the file names in snake_case (the REST representation's names), by their input names. */
const VARIANT_KEYS = { inventoryQuantity: 'inventory_quantity', compareAtPrice: 'compare_at_price', imageId: 'image_id' } as const;

/** A price list of the file (snake_case, as REST shows it) in the services' input names. */
const priceInput = (list: unknown[]) =>
  list.map((p) => {
    if (typeof p !== 'object' || p === null) return p;
    const { compare_at_amount: compareAtAmount, ...rest } = p as Record<string, unknown>;
    return compareAtAmount === undefined ? rest : { ...rest, compareAtAmount };
  });

/** Columns holding JSON in CSV cells too. */
const JSON_COLUMNS: readonly Column[] = ['attributes', 'options', 'variants'];

/** What one row asks for, in the services' input names; a field that is undefined was not given. */
export interface ImportRow {
  row: number;
  id?: string;
  sku?: string;
  product: {
    name?: string;
    description?: string;
    price?: string | number;
    /** The prices in further currencies, replacing the product's; undefined when the row gives none. */
    prices?: unknown[];
    inventoryQuantity?: number;
    lowStockThreshold?: number;
    status?: string;
    tags?: string[];
    categorySlugs?: string[];
    /** {code: value}, the product's whole set: codes left out are cleared on an update (importer). */
    attributes?: Record<string, unknown>;
  };
  /** The product type's name; null: no type. */
  productType?: string | null;
  /** The options as given (the options services check them). */
  options?: unknown[];
  variants?: ImportVariant[];
  /** The SEO fields given (null: clear it); undefined when no SEO column is present. */
  seo?: Partial<Record<(typeof SEO_COLUMNS)[SeoColumn], string | boolean | null>>;
  /** The translation columns (CSV) or key (JSON Lines) given; undefined when none. */
  translations?: RowTranslations;
}

/** A service's field name (ProductCreateInput, the variant and SEO inputs) as the file names it. */
function columnOf(field: string, part: 'product' | 'variants' | 'seo' | 'translations'): string {
  // Translation errors are named as the file names them already (translations.ts, inFileNames).
  if (part === 'translations') return field;
  // A price's compare-at amount, as the file names it (REST's name).
  field = field.replace(/^((?:variants\.\d+\.)?prices\.\d+\.)compareAtAmount$/, '$1compare_at_amount');
  if (part === 'variants') {
    return field.replace(/^(variants\.\d+\.)(inventoryQuantity|compareAtPrice|imageId)/, (_, head: string, key: keyof typeof VARIANT_KEYS) => head + VARIANT_KEYS[key]);
  }
  if (part === 'seo') {
    const col = (Object.keys(SEO_COLUMNS) as SeoColumn[]).find((c) => SEO_COLUMNS[c] === field.split('.')[0]);
    return col ?? `seo_${field}`;
  }
  const renamed: Record<string, Column> = {
    inventoryQuantity: 'inventory_quantity',
    lowStockThreshold: 'low_stock_threshold',
    categorySlugs: 'category_slugs',
    productTypeId: 'product_type',
  };
  const [head, ...rest] = field.split('.');
  // attributes.<code> and options.<n>.… name the file's cells as they are.
  if (head === 'attributes' || head === 'options') return field;
  return renamed[head] ?? (rest.length ? field : head);
}

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/**
 * A record (column → cell: strings from CSV, JSON values from JSON Lines) as
 * an ImportRow, or the field errors that keep it from being one, with what
 * did convert (`partial`: the cells in error left out), so that the rules of
 * the other cells can be reported with them. Values are only converted here;
 * the services validate them as for any other write.
 */
export function toImportRow(row: number, record: Record<string, unknown>): { ok: ImportRow } | { errors: RowError[]; partial: ImportRow } {
  const errors: RowError[] = [];
  const fail = (field: string, code: string, message: string) => void errors.push({ row, field, code, message });
  const has = (c: Column) => Object.prototype.hasOwnProperty.call(record, c);
  const text = (c: Column): string | undefined => {
    const v = record[c];
    if (v === null || v === undefined) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    fail(c, 'invalid_type', 'must be a string');
    return undefined;
  };
  /** A JSON cell: parsed from CSV text, as it is in JSON Lines; undefined (reported) when the text is not JSON. */
  const jsonCell = (c: Column, expected: string): unknown => {
    const v = record[c];
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v);
    } catch {
      fail(c, 'invalid_type', `must be ${expected}`);
      return undefined;
    }
  };
  const out: ImportRow = { row, product: {} };

  const id = text('id')?.trim();
  if (id) out.id = id;
  const sku = text('sku')?.trim();
  if (sku) out.sku = sku;

  // Fields that cannot be empty: blank means "not given".
  if (has('name') && !isBlank(record.name)) out.product.name = text('name');
  if (has('price') && !isBlank(record.price)) {
    const v = record.price;
    if (typeof v === 'number' || typeof v === 'string') out.product.price = v;
    else fail('price', 'invalid_type', 'must be a number');
  }
  for (const [c, key] of [
    ['inventory_quantity', 'inventoryQuantity'],
    ['low_stock_threshold', 'lowStockThreshold'],
  ] as const) {
    if (!has(c) || isBlank(record[c])) continue;
    const v = record[c];
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n)) fail(c, 'invalid_type', 'must be a whole number');
    else out.product[key] = n;
  }
  if (has('status') && !isBlank(record.status)) out.product.status = text('status')?.trim();
  if (has('category_slugs') && !isBlank(record.category_slugs)) {
    const list = listOf(record.category_slugs);
    if (list) out.product.categorySlugs = list;
    else fail('category_slugs', 'invalid_type', `must be a list of slugs (${LIST_SEPARATOR}-separated in CSV)`);
  }

  // Fields that may be empty: blank empties them.
  if (has('description')) out.product.description = text('description') ?? '';
  if (has('tags')) {
    const list = isBlank(record.tags) ? [] : listOf(record.tags);
    if (list) out.product.tags = list;
    else fail('tags', 'invalid_type', `must be a list of tags (${LIST_SEPARATOR}-separated in CSV)`);
  }

  if (has('product_type')) out.productType = isBlank(record.product_type) ? null : text('product_type')?.trim();
  if (has('attributes')) {
    const v = isBlank(record.attributes) ? {} : jsonCell('attributes', 'a JSON object of attribute values by code, e.g. {"material":"cotton"}');
    if (v !== undefined && (typeof v !== 'object' || v === null || Array.isArray(v))) fail('attributes', 'invalid_type', 'must be a JSON object of attribute values by code');
    else if (v !== undefined) out.product.attributes = v as Record<string, unknown>;
  }
  if (has('options') && !isBlank(record.options)) {
    const v = jsonCell('options', 'a JSON array of options, e.g. [{"name":"Size","values":["S","M"]}]');
    if (v !== undefined && !Array.isArray(v)) fail('options', 'invalid_type', 'must be a JSON array of options');
    else if (v !== undefined) out.options = v;
  }
  if (has('variants') && !isBlank(record.variants)) {
    const v = jsonCell('variants', 'a JSON array of variants, e.g. [{"sku":"TEE-S","options":{"size":"S"}}]');
    if (v !== undefined) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'object' || x === null || Array.isArray(x))) {
        fail('variants', 'invalid_type', 'must be a JSON array of variant objects');
      } else {
        out.variants = v.map((x: Record<string, unknown>) => {
          const variant = { ...x };
          for (const [input, name] of Object.entries(VARIANT_KEYS)) {
            if (name in variant) {
              variant[input] = variant[name];
              delete variant[name];
            }
          }
          if (Array.isArray(variant.prices)) variant.prices = priceInput(variant.prices);
          return variant;
        });
      }
    }
  }

  pricesOf(record, out, fail);

  const seoColumns = (Object.keys(SEO_COLUMNS) as SeoColumn[]).filter((c) => has(c));
  if (seoColumns.length) {
    out.seo = {};
    for (const c of seoColumns) {
      const v = record[c];
      if (c === 'seo_noindex') {
        if (isBlank(v)) out.seo.noindex = false;
        else if (typeof v === 'boolean') out.seo.noindex = v;
        else if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) out.seo.noindex = v.trim().toLowerCase() === 'true';
        else fail(c, 'invalid_type', 'must be true or false');
      } else {
        out.seo[SEO_COLUMNS[c]] = isBlank(v) ? null : (text(c) ?? null);
      }
    }
  }
  out.translations = rowTranslations(record, fail);
  return errors.length ? { errors, partial: out } : { ok: out };
}

/**
 * The row's prices in further currencies: JSON Lines' `prices` list, or CSV's `price:XXX` / `compare_at_price:XXX`
 * cells (a blank price cell: no price in that currency). Either replaces the product's prices; neither leaves them.
 */
function pricesOf(record: Record<string, unknown>, out: ImportRow, fail: (field: string, code: string, message: string) => void) {
  if (Object.prototype.hasOwnProperty.call(record, PRICES_KEY)) {
    const v = record[PRICES_KEY];
    if (v === null) out.product.prices = [];
    else if (Array.isArray(v)) out.product.prices = priceInput(v);
    else fail(PRICES_KEY, 'invalid_type', 'must be a list of prices, e.g. [{"currency":"JPY","amount":"1200"}]');
    return;
  }
  const byCurrency = new Map<string, { amount?: string; compareAtAmount?: string }>();
  for (const [column, cell] of Object.entries(record)) {
    const m = PRICE_COLUMN.exec(column);
    if (!m) continue;
    const currency = m[2].toUpperCase();
    const entry = byCurrency.get(currency) ?? {};
    byCurrency.set(currency, entry);
    if (isBlank(cell)) continue;
    entry[m[1] === 'price' ? 'amount' : 'compareAtAmount'] = String(cell).trim();
  }
  if (!byCurrency.size) return;
  const prices: Record<string, string>[] = [];
  for (const [currency, p] of byCurrency) {
    if (p.amount !== undefined) prices.push({ currency, amount: p.amount, ...(p.compareAtAmount !== undefined ? { compareAtAmount: p.compareAtAmount } : {}) });
    else if (p.compareAtAmount !== undefined) fail(`price:${currency}`, 'required', `is needed with compare_at_price:${currency}`);
  }
  out.product.prices = prices;
}

function listOf(v: unknown): string[] | null {
  if (typeof v === 'string') {
    return v
      .split(LIST_SEPARATOR)
      .map((s) => s.trim())
      .filter(Boolean);
  }
  // As in CSV: items trimmed, empty ones dropped.
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.map((s) => s.trim()).filter(Boolean);
  return null;
}

/** A product with what the format shows of it: its categories, variants (by position) and SEO record. */
export type ExportRow = ProductPartsRow & {
  categories: { category: { slug: string } }[];
  productType: { name: string } | null;
  variants: Parameters<typeof variantView>[0][];
  seo: { title: string | null; description: string | null; slug: string | null; canonicalUrl: string | null; ogImageUrl: string | null; noindex: boolean } | null;
};

/**
 * What the format shows of a variant: the REST variant's own fields, without its id and times (an import matches
 * variants by SKU). `cost` only for whoever may read it (readCost; exportRecord's withCost).
 */
const EXPORTED_VARIANT = pickFields(VARIANT, [
  'sku',
  'title',
  'options',
  'price',
  'inventory_quantity',
  'position',
  'barcode',
  'compare_at_price',
  'prices',
  'cost',
  'weight',
  'image_id',
  'attributes',
]);

/**
 * The product as one record of the format, derived from the REST product: its fields with the first variant's
 * SKU, the variants, and the SEO record flattened into `seo_*` columns. JSON values (JSON Lines); csvCells turns
 * it into CSV cells.
 */
export function exportRecord(p: ExportRow, withCost: boolean): ExportRecord {
  const v = productParts(p, '');
  const seo = (name: keyof typeof SEO) => v.seo?.[name] ?? (name === 'noindex' ? false : null);
  return {
    id: v.id,
    sku: p.variants[0]?.sku ?? '',
    name: v.name,
    description: v.description,
    price: v.price,
    prices: v.prices,
    inventory_quantity: v.inventory_quantity,
    low_stock_threshold: v.low_stock_threshold,
    status: v.status,
    category_slugs: v.category_slugs,
    tags: v.tags,
    product_type: p.productType?.name ?? null,
    attributes: v.attributes,
    options: v.options,
    variants: p.variants.map((x) => {
      const { cost, ...shown } = viewOf(EXPORTED_VARIANT, x, '');
      return withCost ? { ...shown, cost } : shown;
    }),
    seo_title: seo('title'),
    seo_description: seo('description'),
    seo_slug: seo('slug'),
    seo_canonical_url: seo('canonical_url'),
    seo_og_image_url: seo('og_image_url'),
    seo_noindex: seo('noindex'),
  };
}

/** An exported product: the format's columns, and its prices in further currencies (nested in JSON Lines). */
export type ExportRecord = Record<Column, unknown> & { prices: PriceView[] };

/** A record's CSV cells, in COLUMNS order, then its price columns (priceColumns of the same currencies). */
export function csvCells(r: ExportRecord, currencies: string[]): string[] {
  const cells = COLUMNS.map((c) => {
    const v = r[c];
    if (v === null || v === undefined) return '';
    if (JSON_COLUMNS.includes(c)) return JSON.stringify(v);
    if (Array.isArray(v)) return v.join(LIST_SEPARATOR);
    return String(v);
  });
  const prices = new Map(r.prices.map((p) => [p.currency, p]));
  return [...cells, ...currencies.flatMap((c) => [prices.get(c)?.amount ?? '', prices.get(c)?.compare_at_amount ?? ''])];
}

/** Field errors of a service (AppError.errors) as report entries of a row and one part of it. */
export const reportErrors = (row: number, part: 'product' | 'variants' | 'seo' | 'translations', errors: FieldError[]): RowError[] =>
  errors.map((e) => ({ row, field: columnOf(e.field, part), code: e.code, message: e.message }));
