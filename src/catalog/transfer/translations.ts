/**
 * Product translations in the bulk format. CSV: a column per translated field and locale (`name:de`,
 * `description:de`, `seo_title:de`, `seo_description:de`, `slug:de`, and JSON cells `options:de`, `attributes:de`),
 * the store's further locales only. JSON Lines: `translations: {"de": {…}}`, the merchant representation's shape
 * without its read-only `outdated`, `outdated_fields` and `updated_at`.
 *
 * An import writes what differs from the stored translation through the products' own translation write (merged
 * per locale; a field left unchanged keeps its outdated mark), so an export imported back changes nothing.
 */

import { canonicalLocale } from '../../kernel/locales';
import { AppError } from '../../platform/errors';
import type { ProductTranslation } from '../services/translationRows';
import { productTranslationsView } from '../services/views';

/** The translated fields of a CSV row, by column name before the `:locale`, in the order they are written. */
const FIELD_COLUMNS = ['name', 'description', 'seo_title', 'seo_description', 'slug', 'options', 'attributes'] as const;
type FieldColumn = (typeof FIELD_COLUMNS)[number];
/** Where each column's text is in the translation (its path in the representation). */
const PATHS: Record<FieldColumn, string> = {
  name: 'name',
  description: 'description',
  seo_title: 'seo.title',
  seo_description: 'seo.description',
  slug: 'seo.slug',
  options: 'options',
  attributes: 'attributes',
};
const JSON_FIELDS: readonly FieldColumn[] = ['options', 'attributes'];

/** The JSON Lines key. */
export const TRANSLATIONS_KEY = 'translations';

/** A locale's translation as a file gives it: undefined fields were not given, null ones clear; null removes the locale's translation. */
type LocaleCells = {
  name?: unknown;
  description?: unknown;
  seo?: unknown;
  options?: unknown;
  attributes?: unknown;
} | null;

/** What a row asks of the product's translations, by locale (canonical when the tag is valid, else as written). */
export interface RowTranslations {
  locales: Record<string, LocaleCells>;
  /** CSV: the columns of each locale as the header names them, by their path (`seo.slug` → `slug:de`); JSON Lines: none. */
  columns?: Record<string, Partial<Record<string, string>>>;
}

/** `name:de` → {field: 'name', tag: 'de'}; null for a column that is not a translation's. */
export function translationColumn(column: string): { field: FieldColumn; tag: string } | null {
  const at = column.indexOf(':');
  if (at < 0) return null;
  const field = column.slice(0, at) as FieldColumn;
  if (!FIELD_COLUMNS.includes(field)) return null;
  return { field, tag: column.slice(at + 1) };
}

const localeKey = (tag: string) => {
  const r = canonicalLocale(tag, 'locale');
  return 'locale' in r ? r.locale : tag;
};

/** The header's name for a column, as duplicates are found: the locale in its canonical spelling (`name:DE` is `name:de`). */
export function headerKey(column: string): string {
  const c = translationColumn(column);
  return c ? `${c.field}:${localeKey(c.tag)}` : column;
}

/** The CSV columns of the store's further locales. */
export const translationColumns = (locales: readonly string[]) => locales.flatMap((l) => FIELD_COLUMNS.map((f) => `${f}:${l}`));

const isBlank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The row's translations from its record: the CSV columns, or the JSON Lines key (a locale left out is left as
 * it is, null removes its translation; the key itself null or left out leaves them all). Cells that are not JSON
 * are reported through `fail` by column.
 */
export function rowTranslations(record: Record<string, unknown>, fail: (field: string, code: string, message: string) => void): RowTranslations | undefined {
  if (TRANSLATIONS_KEY in record) {
    const v = record[TRANSLATIONS_KEY];
    if (v === null || v === undefined) return undefined;
    if (!isObject(v)) {
      fail(TRANSLATIONS_KEY, 'invalid_type', 'must be an object of translations by locale, e.g. {"de": {"name": "…"}}');
      return undefined;
    }
    return { locales: Object.fromEntries(Object.entries(v).map(([tag, t]) => [localeKey(tag), t as LocaleCells])) };
  }
  const locales: Record<string, Record<string, unknown>> = {};
  const columns: Record<string, Record<string, string>> = {};
  for (const [column, raw] of Object.entries(record)) {
    const c = translationColumn(column);
    if (!c) continue;
    const locale = localeKey(c.tag);
    const cells = (locales[locale] ??= {});
    (columns[locale] ??= {})[PATHS[c.field]] = column;
    let value: unknown = isBlank(raw) ? null : raw;
    if (value !== null && JSON_FIELDS.includes(c.field) && typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        fail(column, 'invalid_type', `must be a JSON object, e.g. ${c.field === 'options' ? '{"Size":{"name":"Größe","values":{"S":"Klein"}}}' : '{"care":"Handwäsche"}'}`);
        continue;
      }
    }
    if (c.field.startsWith('seo_') || c.field === 'slug') ((cells.seo ??= {}) as Record<string, unknown>)[PATHS[c.field].slice(4)] = value;
    else cells[c.field] = value;
  }
  if (!Object.keys(locales).length) return undefined;
  // A locale whose cells are all empty asks for no translation: the store lacking the locale is then no error.
  return { locales, columns };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
const sorted = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sorted) : isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v;
const text = (v: unknown) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v);

/**
 * A set given whole (a locale's options or attribute values) as the merge the translation write takes: what
 * differs from the stored set, and null for what the file left out.
 */
function wholeSet(stored: Record<string, unknown>, given: unknown, entry: (stored: unknown, given: unknown) => unknown): unknown {
  if (given !== null && !isObject(given)) return given;
  const wanted = given ?? {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(stored)) if (!(key in wanted)) out[key] = null;
  for (const [key, value] of Object.entries(wanted)) if (!sameJson(stored[key], value)) out[key] = entry(stored[key], value);
  return Object.keys(out).length ? out : undefined;
}

/** An option's translation given whole: its name and value labels left out are cleared. */
function wholeOption(stored: unknown, given: unknown): unknown {
  if (!isObject(given) || !isObject(stored)) return given;
  const values = isObject(stored.values) && (given.values === undefined || isObject(given.values))
    ? { ...Object.fromEntries(Object.keys(stored.values).map((k) => [k, null])), ...((given.values as object) ?? {}) }
    : given.values;
  return { name: given.name ?? null, ...(values === undefined ? {} : { values }) };
}

/**
 * The row's translations as the product write takes them (`translations: {"de": {…}}`, merged per locale): only
 * what differs from the stored ones, so a field the file leaves as it is keeps its outdated mark and an unchanged
 * row writes nothing. Undefined when nothing differs. Locales are as the row names them (the write checks them).
 */
export function changedTranslations(row: RowTranslations, stored: ProductTranslation[]): Record<string, unknown> | undefined {
  const byLocale = new Map(stored.map((r) => [r.locale, r]));
  const out: Record<string, unknown> = {};
  for (const [locale, cells] of Object.entries(row.locales)) {
    const current = byLocale.get(locale);
    if (cells === null) {
      if (current || !row.columns) out[locale] = null;
      continue;
    }
    if (!isObject(cells)) {
      out[locale] = cells;
      continue;
    }
    const input: Record<string, unknown> = {};
    // A description is stored as written (not trimmed); an empty one is none.
    const description = cells.description === '' ? null : cells.description;
    if (cells.name !== undefined && !sameJson(text(cells.name), current?.name ?? null)) input.name = text(cells.name);
    if (description !== undefined && !sameJson(description, current?.description ?? null)) input.description = description;
    if (cells.seo === null) {
      if (current?.seoTitle || current?.seoDescription || current?.slug) input.seo = null;
    } else if (isObject(cells.seo)) {
      const seo: Record<string, unknown> = {};
      const was = { title: current?.seoTitle ?? null, description: current?.seoDescription ?? null, slug: current?.slug ?? null };
      for (const [key, value] of Object.entries(cells.seo)) if (!(key in was) || !sameJson(text(value), was[key as keyof typeof was])) seo[key] = text(value);
      if (Object.keys(seo).length) input.seo = seo;
    } else if (cells.seo !== undefined) input.seo = cells.seo;
    if (cells.options !== undefined) {
      const options = wholeSet((current?.options ?? {}) as Record<string, unknown>, cells.options, wholeOption);
      if (options !== undefined) input.options = options;
    }
    if (cells.attributes !== undefined) {
      const attributes = wholeSet((current?.attributes ?? {}) as Record<string, unknown>, cells.attributes, (_, v) => v);
      if (attributes !== undefined) input.attributes = attributes;
    }
    // Read-only fields of an export are not sent (the write would ignore them).
    for (const [key, value] of Object.entries(cells)) if (!['name', 'description', 'seo', 'options', 'attributes', 'outdated', 'outdated_fields', 'updated_at'].includes(key)) input[key] = value;
    // CSV: a locale without text and without a stored translation asks for nothing.
    if (Object.keys(input).length) out[locale] = input;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * Runs a translation write, its errors (named `translations.<locale>.<path>` as in a product write) renamed as the
 * file names them: the CSV's columns (`name:de`, `slug:de`, `options:de.Size.values.XL`; a locale's own error on
 * its first column), the JSON Lines paths as they are.
 */
export async function inFileNames<T>(row: RowTranslations | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!row?.columns || !(e instanceof AppError) || !e.errors?.length) throw e;
    const columns = row.columns;
    const rename = (field: string) => {
      const locale = Object.keys(columns).find((l) => field === `translations.${l}` || field.startsWith(`translations.${l}.`));
      if (!locale) return field;
      const path = field.slice(`translations.${locale}.`.length);
      const named = columns[locale];
      if (field === `translations.${locale}`) return Object.values(named)[0]!;
      const head = Object.keys(named).find((p) => path === p || path.startsWith(`${p}.`));
      return head ? `${named[head]}${path.slice(head.length)}` : `${Object.values(named)[0]}`;
    };
    throw new AppError(e.code, e.message, { errors: e.errors.map((x) => ({ ...x, field: rename(x.field) })), details: e.details });
  }
}

/** A product's translations as the file shows them: the representation's, without its read-only fields. */
export function exportedTranslations(rows: ProductTranslation[]): Record<string, Record<string, unknown>> {
  const view = productTranslationsView(rows);
  return Object.fromEntries(
    Object.entries(view).map(([locale, { outdated: _o, outdated_fields: _f, updated_at: _u, ...fields }]) => [locale, fields]),
  );
}

/** The CSV cells of the store's locales, in translationColumns order. */
export function translationCells(rows: ProductTranslation[], locales: readonly string[]): string[] {
  const byLocale = new Map(rows.map((r) => [r.locale, r]));
  return locales.flatMap((l) => {
    const r = byLocale.get(l);
    const json = (v: unknown) => (isObject(v) && Object.keys(v).length ? JSON.stringify(v) : '');
    return [r?.name ?? '', r?.description ?? '', r?.seoTitle ?? '', r?.seoDescription ?? '', r?.slug ?? '', json(r?.options), json(r?.attributes)];
  });
}
