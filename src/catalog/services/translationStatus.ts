/**
 * What is left to translate in a locale: per resource kind (products of the request's catalog, categories,
 * attributes) how many items have a missing or outdated translation, and those items in pages, so a merchant or a
 * translation partner can work down the list. A field is missing when its default-locale text exists and the
 * locale has none; outdated when its mark is set (translationMarks.ts). The counts read every item of the kinds
 * asked in id order, in batches: a merchant's tool, not a storefront read.
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { AppError, validationError } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { catalogOf } from './catalogScope';
import { storeLocalesOf, TRANSLATION_KINDS, type TranslationKind, translationLocale } from './translations';

export const STATUS_PAGE = { default: 50, max: 200 } as const;
const BATCH = 1_000;

const StatusQuery = z.object({
  kind: z.enum(TRANSLATION_KINDS).optional(),
  first: z.number().int().min(1).max(STATUS_PAGE.max).default(STATUS_PAGE.default),
  after: z.string().optional(),
});

export interface StatusItem {
  kind: TranslationKind;
  id: string;
  /** In the default locale. */
  name: string;
  missingFields: string[];
  outdatedFields: string[];
}

export interface KindCount {
  kind: TranslationKind;
  /** Items of the kind. */
  total: number;
  /** Items with a field missing in the locale. */
  missing: number;
  /** Items with an outdated field. */
  outdated: number;
  /** Items with either: what the list holds. */
  todo: number;
}

/** Cursors are opaque: the kind and id of the last item, base64url-encoded. */
const encodeCursor = (item: { kind: string; id: string }) => Buffer.from(`t:${item.kind}:${item.id}`).toString('base64url');

function decodeCursor(cursor: string): { kind: TranslationKind; id: string } {
  const [tag, kind, id] = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  if (tag !== 't' || !TRANSLATION_KINDS.includes(kind as TranslationKind) || !id) {
    throw new AppError('validation_failed', 'after: is not a cursor this API returned', { errors: [{ field: 'after', code: 'invalid_cursor', message: 'is not a cursor this API returned' }] });
  }
  return { kind: kind as TranslationKind, id };
}

type Row = { id: string; name: string; missing: string[]; outdated: string[] };
/** Every item of a kind, in id order, a batch at a time, with what its translation lacks. */
type Scan = (after: string | undefined) => Promise<Row[]>;

const has = (o: unknown, key: string) => !!o && typeof o === 'object' && Object.hasOwn(o, key);

function productScan(ctx: RequestContext, storeId: string, locale: string): Scan {
  let textCodes: Promise<Map<string, string[]>> | undefined;
  return async (after) => {
    textCodes ??= ctx.db.productTypeAttribute
      .findMany({ where: { productType: { storeId }, level: 'product', attribute: { type: { in: ['plain_text', 'rich_text'] } } }, select: { productTypeId: true, attribute: { select: { code: true } } } })
      .then((rows) => rows.reduce((m, r) => m.set(r.productTypeId, [...(m.get(r.productTypeId) ?? []), r.attribute.code]), new Map<string, string[]>()));
    const codes = await textCodes;
    const products = await ctx.db.product.findMany({
      where: { ...catalogOf(ctx, storeId), ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: 'asc' },
      take: BATCH,
      select: { id: true, name: true, description: true, options: true, attributes: true, productTypeId: true, seo: { select: { title: true, description: true, slug: true } }, translations: { where: { locale } } },
    });
    return products.map((p) => {
      const tr = p.translations[0];
      const missing: string[] = [];
      if (tr?.name == null) missing.push('name');
      if (p.description && tr?.description == null) missing.push('description');
      if (p.seo?.title && tr?.seoTitle == null) missing.push('seo.title');
      if (p.seo?.description && tr?.seoDescription == null) missing.push('seo.description');
      if (p.seo?.slug && tr?.slug == null) missing.push('seo.slug');
      const options = (tr?.options ?? {}) as Record<string, { name?: string; values?: Record<string, string> }>;
      for (const o of p.options as { name: string; values: string[] }[]) {
        const t = options[o.name];
        if (!t?.name || o.values.some((v) => !has(t.values, v))) missing.push(`options.${o.name}`);
      }
      for (const code of (p.productTypeId && codes.get(p.productTypeId)) || []) {
        if (has(p.attributes, code) && !has(tr?.attributes, code)) missing.push(`attributes.${code}`);
      }
      return { id: p.id, name: p.name, missing, outdated: tr?.outdatedFields ?? [] };
    });
  };
}

function categoryScan(ctx: RequestContext, storeId: string, locale: string): Scan {
  return async (after) => {
    const rows = await ctx.db.category.findMany({ where: { storeId, ...(after ? { id: { gt: after } } : {}) }, orderBy: { id: 'asc' }, take: BATCH, include: { translations: { where: { locale } } } });
    return rows.map((c) => ({ id: c.id, name: c.name, missing: c.translations[0]?.name == null ? ['name'] : [], outdated: c.translations[0]?.outdatedFields ?? [] }));
  };
}

function attributeScan(ctx: RequestContext, storeId: string, locale: string): Scan {
  return async (after) => {
    const rows = await ctx.db.attribute.findMany({ where: { storeId, ...(after ? { id: { gt: after } } : {}) }, orderBy: { id: 'asc' }, take: BATCH, include: { translations: { where: { locale } } } });
    return rows.map((a) => {
      const tr = a.translations[0];
      const missing = [
        ...(tr?.name == null ? ['name'] : []),
        ...(a.values as { value: string }[]).filter((v) => !has(tr?.values, v.value)).map((v) => `values.${v.value}`),
      ];
      return { id: a.id, name: a.name, missing, outdated: tr?.outdatedFields ?? [] };
    });
  };
}

/** The counts per kind and one page of the items with something to translate, kinds in TRANSLATION_KINDS order. */
export async function translationStatus(ctx: RequestContext, storeId: string, rawLocale: string, query: z.input<typeof StatusQuery> = {}) {
  const q = parseInput(StatusQuery, query);
  const r = translationLocale(await storeLocalesOf(ctx.db, storeId), rawLocale, 'locale');
  if ('error' in r) throw validationError([r.error]);
  const start = q.after ? decodeCursor(q.after) : undefined;
  const scans: Record<TranslationKind, Scan> = {
    product: productScan(ctx, storeId, r.locale),
    category: categoryScan(ctx, storeId, r.locale),
    attribute: attributeScan(ctx, storeId, r.locale),
  };
  const counts: KindCount[] = [];
  const items: StatusItem[] = [];
  for (const kind of q.kind ? [q.kind] : TRANSLATION_KINDS) {
    const count: KindCount = { kind, total: 0, missing: 0, outdated: 0, todo: 0 };
    // Items up to the cursor's are on earlier pages; kinds before its kind too.
    const listedFrom = !start ? '' : TRANSLATION_KINDS.indexOf(kind) < TRANSLATION_KINDS.indexOf(start.kind) ? null : kind === start.kind ? start.id : '';
    for (let batch = await scans[kind](undefined); batch.length; batch = batch.length < BATCH ? [] : await scans[kind](batch.at(-1)!.id)) {
      for (const row of batch) {
        count.total++;
        if (row.missing.length) count.missing++;
        if (row.outdated.length) count.outdated++;
        if (!row.missing.length && !row.outdated.length) continue;
        count.todo++;
        if (listedFrom !== null && row.id > listedFrom && items.length <= q.first) items.push({ kind, id: row.id, name: row.name, missingFields: row.missing, outdatedFields: row.outdated });
      }
    }
    counts.push(count);
  }
  const page = items.slice(0, q.first);
  return { locale: r.locale, counts, items: page, cursors: page.map(encodeCursor), hasMore: items.length > q.first };
}
