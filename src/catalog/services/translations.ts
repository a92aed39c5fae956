/**
 * What the translations of every kind (products, categories, attributes) share: the locale a translation may be
 * written in, the outdated marks (Shopify's rule: a translation of a field is outdated once the field's text in the
 * default locale changes after it was written; writing it again clears the mark) and the history of a change.
 * The marks are set by translationMarks.ts, in the write of the source text.
 */

import type { FieldChange } from '../../kernel/events';
import { canonicalLocale } from '../../kernel/locales';
import type { FieldError } from '../../platform/errors';
import { notFound } from '../../platform/errors';
import type { Prisma } from '../../platform/db/client';
import type { TransactionContext } from '../../platform/outbox/outbox';
import { isUuid } from '../../kernel/ids';

export const TRANSLATION_KINDS = ['product', 'category', 'attribute'] as const;
export type TranslationKind = (typeof TRANSLATION_KINDS)[number];

type StoreLocales = { defaultLocale: string; locales: string[] };

/**
 * The canonical locale a translation is written in, or the field error naming `field`: one of the store's further
 * locales (`locale_not_enabled` otherwise), never its default (`default_locale`: the resource's own fields hold
 * the default locale's text).
 */
export function translationLocale(store: StoreLocales, raw: string, field: string): { locale: string } | { error: FieldError } {
  const r = canonicalLocale(raw, field);
  if ('error' in r) return r;
  if (r.locale === store.defaultLocale) {
    return { error: { field, code: 'default_locale', message: `"${r.locale}" is the store's default locale, whose text is the resource's own fields; write those instead` } };
  }
  if (!store.locales.includes(r.locale)) {
    return { error: { field, code: 'locale_not_enabled', message: `"${r.locale}" is not one of the store's locales (${store.locales.join(', ') || 'it has none beside the default'}); add it first` } };
  }
  return r;
}

/**
 * The store's locales for a translation write, held (FOR SHARE) to its commit: a locale removal (which locks the
 * store's row for update) waits for the write and then finds its translations, or the write waits and finds the
 * locale gone (422). Writes of one store share the lock.
 */
export async function lockedStoreLocales(t: TransactionContext, storeId: string): Promise<StoreLocales> {
  const [store] = isUuid(storeId)
    ? await t.tx.$queryRaw<StoreLocales[]>`SELECT default_locale AS "defaultLocale", locales FROM stores WHERE id = ${storeId}::uuid FOR SHARE`
    : [];
  if (!store) throw notFound('Store');
  return store;
}

/** The store's locales, for a translation read. */
export async function storeLocalesOf(db: Pick<Prisma.TransactionClient, 'store'>, storeId: string): Promise<StoreLocales & { id: string }> {
  const store = isUuid(storeId) ? await db.store.findUnique({ where: { id: storeId }, select: { id: true, defaultLocale: true, locales: true } }) : null;
  if (!store) throw notFound('Store');
  return store;
}

/** The marks left after writing these paths: a path written (or one under it, `options.Size` under `options`) is current again. */
export const marksAfterWriting = (outdated: readonly string[], written: readonly string[]) =>
  outdated.filter((p) => !written.some((w) => p === w || p.startsWith(`${w}.`)));

/** The marks with these paths added, sorted, each once. */
export const withMarks = (outdated: readonly string[], paths: readonly string[]) => [...new Set([...outdated, ...paths])].sort();

/** A translation's fields by path (`seo.title`, `options.Size`), for the history: bookkeeping fields left out. */
function flatten(view: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(view)) {
    if (!prefix && (key === 'outdated' || key === 'outdated_fields' || key === 'updated_at')) continue;
    // Nested one level: seo's fields, each option and each attribute value are a field of their own.
    if (!prefix && value && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, flatten(value as Record<string, unknown>, `${key}.`));
    else out[`${prefix}${key}`] = value;
  }
  return out;
}

/**
 * The history's changes between two translation maps (by locale, as the merchant API shows them), one per field
 * and locale: `translations.de.name`, `translations.de.seo.slug`, `translations.de.options.Size`. A field without
 * a value is null on its side.
 */
export function translationChanges(before: Record<string, Record<string, unknown>>, after: Record<string, Record<string, unknown>>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const locale of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const b = before[locale] ? flatten(before[locale]) : {};
    const a = after[locale] ? flatten(after[locale]) : {};
    for (const path of [...new Set([...Object.keys(b), ...Object.keys(a)])]) {
      const previous = b[path] ?? null;
      const next = a[path] ?? null;
      if (JSON.stringify(previous) !== JSON.stringify(next)) changes.push({ field: `translations.${locale}.${path}`, previous, next });
    }
  }
  return changes;
}
