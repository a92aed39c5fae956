/**
 * Collections in and out as CSV or JSON Lines, the same columns both ways (docs/import-export.md, "Collections"): an
 * export imports as it stands, and importing it again changes nothing. A catalog has at most
 * CATALOG_LIMITS.collectionsPerCatalog collections, so a file is read whole and each collection written in its own
 * transaction through the collection services (their checks, versions and events).
 */

import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { AppError, type FieldError, notFound } from '../../platform/errors';
import { transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { isUuid } from '../../kernel/ids';
import { PAGE_LIMITS } from '../services/productList';
import { addCollectionProducts, removeCollectionProducts } from '../services/collectionProducts';
import { type CollectionRow, collectionRows, collectionView, createCollection, listCollections, setCollectionTranslation, updateCollection } from '../services/collections';
import { productIdsByRef } from '../services/productRefs';
import type { TransferFormat } from './format';

export const COLLECTION_COLUMNS = ['id', 'title', 'slug', 'description', 'kind', 'rules', 'match', 'sort', 'published', 'products'] as const;
const TRANSLATED = ['title', 'description'] as const;
const LIST_SEPARATOR = '|';

/** A collection as a file holds it. `products`: a manual collection's members in order (ids; an import takes SEO slugs too). */
interface CollectionRecord {
  id: string;
  title: string;
  slug: string;
  description: string;
  kind: string;
  rules: unknown[];
  match: string;
  sort: string;
  published: boolean;
  products?: string[];
  translations?: Record<string, { title: string | null; description: string | null }>;
}

/** The members of manual collections, in order: one statement for a page of collections. */
async function manualMembers(db: Pick<Prisma.TransactionClient, '$queryRaw'>, ids: string[]): Promise<Map<string, string[]>> {
  if (!ids.length) return new Map();
  const rows = await db.$queryRaw<{ c: string; ids: string[] }[]>`
    SELECT collection_id::text AS c, array_agg(product_id::text ORDER BY position, product_id) AS ids
    FROM collection_products WHERE collection_id = ANY(${ids}::uuid[]) GROUP BY collection_id`;
  return new Map(rows.map((r) => [r.c, r.ids]));
}

function recordOf(c: CollectionRow, members: string[] | undefined): CollectionRecord {
  const { id, title, slug, description, kind, rules, match, sort, published, translations } = collectionView(c);
  return {
    id,
    title,
    slug,
    description,
    kind,
    rules,
    match,
    sort,
    published,
    ...(kind === 'manual' ? { products: members ?? [] } : {}),
    // The translated text only: whether it is outdated is the store's bookkeeping, not the file's.
    translations: Object.fromEntries(Object.entries(translations).map(([locale, t]) => [locale, { title: t.title, description: t.description }])),
  };
}

const translationColumns = (locales: string[]) => locales.flatMap((l) => TRANSLATED.map((f) => `${f}:${l}`));

function csvRow(r: CollectionRecord, locales: string[]): unknown[] {
  const cells = [r.id, r.title, r.slug, r.description, r.kind, r.rules.length ? JSON.stringify(r.rules) : '', r.match, r.sort, String(r.published), (r.products ?? []).join(LIST_SEPARATOR)];
  return [...cells, ...locales.flatMap((l) => TRANSLATED.map((f) => r.translations?.[l]?.[f] ?? ''))];
}

/** The store's further locales; an unknown store is 404. */
export async function storeLocales(ctx: RequestContext, storeId: string) {
  const store = isUuid(storeId) ? await ctx.db.store.findUnique({ where: { id: storeId }, select: { locales: true } }) : null;
  if (!store) throw notFound('Store');
  return store;
}

/** The catalog's collections (ctx.mode), oldest first, as CSV (header first) or JSON Lines, a page of 100 per chunk. */
export async function* exportCollections(ctx: RequestContext, storeId: string, format: TransferFormat): AsyncGenerator<string> {
  const { locales } = await storeLocales(ctx, storeId);
  if (format === 'csv') yield stringify([[...COLLECTION_COLUMNS, ...translationColumns(locales)]]);
  const first = await listCollections(ctx, storeId, { page: 1, perPage: PAGE_LIMITS.perPage.max });
  const pages = Math.ceil(first.total / first.perPage);
  // Newest first is the list's order: the pages are read from the last, each reversed, so the file is oldest first.
  for (let page = pages; page >= 1; page--) {
    const { rows } = page === 1 ? first : await listCollections(ctx, storeId, { page, perPage: PAGE_LIMITS.perPage.max });
    const members = await manualMembers(ctx.db, rows.filter((c) => c.kind === 'manual').map((c) => c.id));
    const records = rows.reverse().map((c) => recordOf(c, members.get(c.id)));
    yield format === 'csv' ? stringify(records.map((r) => csvRow(r, locales))) : records.map((r) => `${JSON.stringify(locales.length ? r : { ...r, translations: undefined })}\n`).join('');
  }
}

/** What an import did: counts, and every problem as {row, field, code, message} (row: the CSV line, header = 1, or the JSON line). */
export interface CollectionImportSummary {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
  errors: (FieldError & { row: number })[];
}

type Parsed = { row: number; record: Record<string, unknown> } | { row: number; error: FieldError };

/** The file's records: JSON Lines objects, or CSV rows turned into the JSON shape (cells typed, lists split). */
function readRecords(text: string, format: TransferFormat): Parsed[] {
  const body = text.replace(/^\uFEFF/, '');
  if (format === 'jsonl') {
    return body.split('\n').flatMap((line, i): Parsed[] => {
      if (!line.trim()) return [];
      try {
        const record = JSON.parse(line);
        if (record && typeof record === 'object' && !Array.isArray(record)) return [{ row: i + 1, record }];
      } catch {
        // reported below
      }
      return [{ row: i + 1, error: { field: 'line', code: 'invalid_json', message: 'not a JSON object' } }];
    });
  }
  let rows: string[][];
  try {
    rows = parse(body, { relax_column_count: false, skip_empty_lines: true });
  } catch (e) {
    throw new AppError('validation_failed', `file: ${(e as Error).message}`, { errors: [{ field: 'file', code: 'malformed_csv', message: (e as Error).message }] });
  }
  const [header, ...data] = rows;
  if (!header) return [];
  const unknown = header.filter((h) => !(COLLECTION_COLUMNS as readonly string[]).includes(h) && !/^(title|description):[A-Za-z]{2,3}(-[A-Za-z0-9]+)*$/.test(h));
  if (unknown.length) {
    const message = `Unknown column "${unknown[0]}" in the header; the columns are ${COLLECTION_COLUMNS.join(', ')}, and title:<locale>, description:<locale>`;
    throw new AppError('validation_failed', `file: ${message}`, { errors: [{ field: 'file', code: 'unknown_column', message }] });
  }
  return data.map((cells, i) => {
    const row = i + 2;
    const record: Record<string, unknown> = {};
    const translations: Record<string, Record<string, string | null>> = {};
    for (const [j, name] of header.entries()) {
      const cell = cells[j];
      const [field, locale] = name.split(':');
      if (locale) (translations[locale] ??= {})[field] = cell === '' ? null : cell;
      else if (name === 'rules') {
        try {
          record.rules = cell === '' ? [] : JSON.parse(cell);
        } catch {
          return { row, error: { field: 'rules', code: 'invalid_json', message: 'must be a JSON array of rules' } };
        }
      } else if (name === 'published') record.published = cell === '' ? undefined : cell === 'true' ? true : cell === 'false' ? false : cell;
      else if (name === 'products') record.products = cell.split(LIST_SEPARATOR).map((s) => s.trim()).filter(Boolean);
      else record[name] = cell === '' && name !== 'description' ? undefined : cell;
    }
    if (Object.keys(translations).length) record.translations = translations;
    return { row, record };
  });
}

/** The service's field names as the file names them. */
const fileField = (field: string) => field.replace(/^productIds\b/, 'products');

function errorsOf(e: unknown): FieldError[] {
  if (!(e instanceof AppError)) throw e;
  const list = e.errors;
  return list?.length ? list.map((x) => ({ ...x, field: fileField(x.field) })) : [{ field: '', code: e.code, message: e.message }];
}

/**
 * A manual collection's list made the file's: members the file leaves out removed, then the list's new members
 * added at the end. When the kept members' order differs from the file's, the list is rewritten (all removed, then
 * added in the file's order): the history shows it as a removal and an addition.
 */
async function syncMembers(t: TransactionContext, storeId: string, id: string, wanted: string[]) {
  const current = (await manualMembers(t.tx, [id])).get(id) ?? [];
  const wantedSet = new Set(wanted);
  const kept = current.filter((p) => wantedSet.has(p));
  const inOrder = kept.every((p, i) => wanted[i] === p);
  if (inOrder && kept.length === wanted.length && kept.length === current.length) return;
  const removed = inOrder ? current.filter((p) => !wantedSet.has(p)) : current;
  if (removed.length) await removeCollectionProducts(t, storeId, id, { productIds: removed });
  const added = inOrder ? wanted.slice(kept.length) : wanted;
  if (added.length) await addCollectionProducts(t, storeId, id, { productIds: added });
}

/** The catalog's collection a record names: by `id`, else by `slug`; none: the record creates one. */
async function matchingCollection(t: TransactionContext, storeId: string, r: Record<string, unknown>) {
  const select = { id: true, version: true } as const;
  const where = { storeId, mode: t.mode };
  if (typeof r.id === 'string' && isUuid(r.id)) {
    const byId = await t.tx.collection.findFirst({ where: { ...where, id: r.id }, select });
    if (byId) return byId;
  }
  return typeof r.slug === 'string' && r.slug ? t.tx.collection.findFirst({ where: { ...where, slug: r.slug.toLowerCase() }, select }) : null;
}

/** One record written in one transaction: created or updated, its translations, a manual collection's list. */
async function importRecord(ctx: RequestContext, storeId: string, r: Record<string, unknown>, format: TransferFormat): Promise<'created' | 'updated' | 'unchanged'> {
  return transaction(ctx, async (t) => {
    const existing = await matchingCollection(t, storeId, r);
    const fields = Object.fromEntries(
      (['title', 'slug', 'description', 'kind', 'rules', 'match', 'sort', 'published'] as const).filter((k) => r[k] !== undefined && r[k] !== null).map((k) => [k, r[k]]),
    );
    const productRefs = Array.isArray(r.products) ? (r.products as unknown[]).map(String) : undefined;
    const productIds = productRefs && (await productIdsByRef(t.tx, { storeId, mode: t.mode }, productRefs));
    let id: string;
    if (existing) {
      id = existing.id;
      await updateCollection(t, storeId, id, fields);
    } else {
      id = (await createCollection(t, storeId, fields as Parameters<typeof createCollection>[2])).id;
    }
    for (const [locale, text] of Object.entries((r.translations ?? {}) as Record<string, { title?: string | null; description?: string | null } | null>)) {
      const [c] = await collectionRows(t.tx, [id]);
      const stored = c.translations.find((x) => x.locale === locale);
      const same = text ? (stored?.title ?? null) === (text.title ?? null) && (stored?.description ?? null) === (text.description ?? null) : !stored;
      if (same) continue;
      const input = text && (text.title != null || text.description != null) ? { title: text.title ?? null, description: text.description ?? null } : null;
      await setCollectionTranslation(t, storeId, id, locale, input).catch((e: unknown) => {
        // The locale's errors named as the file names its text: title:de (CSV), translations.de (JSON Lines).
        if (!(e instanceof AppError) || !e.errors) throw e;
        const at = (field: string) => (format === 'csv' ? `${field === 'description' ? 'description' : 'title'}:${locale}` : `translations.${locale}${field === 'locale' ? '' : `.${field}`}`);
        throw new AppError(e.code, e.message, { errors: e.errors.map((x) => ({ ...x, field: at(x.field) })) });
      });
    }
    if (productIds && (fields.kind ?? (await t.tx.collection.findUniqueOrThrow({ where: { id }, select: { kind: true } })).kind) === 'manual') await syncMembers(t, storeId, id, productIds);
    if (!existing) return 'created';
    const after = await t.tx.collection.findUniqueOrThrow({ where: { id }, select: { version: true } });
    return after.version === existing.version ? 'unchanged' : 'updated';
  });
}

/**
 * Imports a file of collections into the request's catalog: a record whose `id` or `slug` names a collection of the
 * catalog updates it (kind cannot change), any other creates one. Each record is its own transaction: a record that
 * fails is reported with every problem it has and left out; the others are kept.
 */
export async function importCollections(ctx: RequestContext, storeId: string, text: string, format: TransferFormat): Promise<CollectionImportSummary> {
  const summary: CollectionImportSummary = { rows: 0, created: 0, updated: 0, unchanged: 0, rejected: 0, errors: [] };
  for (const item of readRecords(text, format)) {
    summary.rows++;
    if ('error' in item) {
      summary.rejected++;
      summary.errors.push({ row: item.row, ...item.error });
      continue;
    }
    try {
      summary[await importRecord(ctx, storeId, item.record, format)]++;
    } catch (e) {
      summary.rejected++;
      summary.errors.push(...errorsOf(e).map((x) => ({ row: item.row, ...x })));
    }
  }
  return summary;
}
