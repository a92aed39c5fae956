/**
 * Translations of a store's configuration shared by both catalogs (and the read of any resource's translations): a category's name, an attribute's name and
 * its value labels (dropdown, multiselect, swatch; by value code). One locale is set whole or removed at a time;
 * each write records translation.updated or translation.deleted (live events, as the resources' own) with a
 * change per locale and field. Outdated marks come from the resources' updates (translationMarks.ts).
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { type FieldError, notFound, validationError } from '../../platform/errors';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { fieldErrorsOf } from '../../platform/validation';
import { isUuid } from '../../kernel/ids';
import { attributeNotFound } from './attributes';
import { categoryNotFound } from './categories';
import { lockedStoreLocales, storeLocalesOf, translationChanges, translationLocale } from './translations';
import { attributeTranslationsView, attributeView, BY_LOCALE, categoryTranslationsView, categoryView, productTranslationsView } from './views';
import { catalogOf } from './catalogScope';

const label = z.string().trim().min(1, 'must not be empty; null removes it').max(255).nullable().optional();
/** A GET's read-only fields sent back are ignored. */
const READ_ONLY = { outdated: z.unknown().optional(), outdated_fields: z.unknown().optional(), updated_at: z.unknown().optional() };

export const CategoryTranslationInput = z.object({ name: label, ...READ_ONLY }).strict();
export const AttributeTranslationInput = z.object({ name: label, values: z.record(z.string(), z.string().trim().min(1).max(255).nullable()).nullable().optional(), ...READ_ONLY }).strict();
export type CategoryTranslationWrite = z.input<typeof CategoryTranslationInput>;
export type AttributeTranslationWrite = z.input<typeof AttributeTranslationInput>;

/** The locale as sent, checked (422 naming `locale`), and the input's own errors, all at once. */
function checked<S extends z.ZodType>(store: { defaultLocale: string; locales: string[] }, locale: string, schema: S, input: unknown, more: (parsed: z.output<S>) => FieldError[]) {
  const r = translationLocale(store, locale, 'locale');
  const errors = [...('error' in r ? [r.error] : []), ...fieldErrorsOf(schema, input)];
  const parsed = errors.length ? undefined : (schema.parse(input) as z.output<S>);
  if (parsed) errors.push(...more(parsed));
  if (errors.length || !parsed || 'error' in r) throw validationError(errors);
  return { locale: r.locale, input: parsed };
}

const ORDER = BY_LOCALE.translations;

async function lockedCategory(t: TransactionContext, storeId: string, slugOrId: string) {
  const where = { storeId, ...(isUuid(slugOrId) ? { id: slugOrId } : { slug: { equals: slugOrId, mode: 'insensitive' as const } }) };
  const found = await t.tx.category.findFirst({ where, select: { id: true } });
  const held = found && (await t.tx.$queryRaw<unknown[]>`SELECT 1 FROM categories WHERE id = ${found.id}::uuid FOR UPDATE`).length;
  if (!found || !held) throw categoryNotFound(slugOrId);
  return t.tx.category.findUniqueOrThrow({ where: { id: found.id }, include: { translations: ORDER } });
}

async function lockedAttribute(t: TransactionContext, storeId: string, idOrCode: string) {
  const found = await t.tx.attribute.findFirst({ where: { storeId, ...(isUuid(idOrCode) ? { id: idOrCode } : { code: idOrCode }) }, select: { id: true } });
  const held = found && (await t.tx.$queryRaw<unknown[]>`SELECT 1 FROM attributes WHERE id = ${found.id}::uuid FOR UPDATE`).length;
  if (!found || !held) throw attributeNotFound(idOrCode);
  return t.tx.attribute.findUniqueOrThrow({ where: { id: found.id }, include: { translations: ORDER } });
}

const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const emitted = (t: TransactionContext, type: 'translation.updated' | 'translation.deleted', resource: { type: 'category' | 'attribute'; id: string; version?: number }, storeId: string, data: Record<string, unknown>, before: Record<string, Record<string, unknown>>, after: Record<string, Record<string, unknown>>) =>
  // Store configuration: live events, as the resources' own.
  emit(t, { type, storeId, mode: 'live', resource, data, changes: translationChanges(json(before), json(after)) });

/** Sets a category's name in one of the store's further locales. */
export async function setCategoryTranslation(ctx: RequestContext, storeId: string, slugOrId: string, locale: string, input: CategoryTranslationWrite) {
  return transaction(ctx, async (t) => {
    const c = checked(await lockedStoreLocales(t, storeId), locale, CategoryTranslationInput, input, () => []);
    const before = await lockedCategory(t, storeId, slugOrId);
    const id = { categoryId_locale: { categoryId: before.id, locale: c.locale } };
    if (c.input.name == null) await t.tx.categoryTranslation.deleteMany({ where: { categoryId: before.id, locale: c.locale } });
    else await t.tx.categoryTranslation.upsert({ where: id, create: { categoryId: before.id, storeId, locale: c.locale, name: c.input.name }, update: { name: c.input.name, outdatedFields: [] } });
    const after = await t.tx.category.findUniqueOrThrow({ where: { id: before.id }, include: { translations: ORDER } });
    const [was, now] = [categoryTranslationsView(before.translations), categoryTranslationsView(after.translations)];
    if (JSON.stringify(was) !== JSON.stringify(now)) emitted(t, 'translation.updated', { type: 'category', id: after.id }, storeId, categoryView(after), was, now);
    return after;
  });
}

/** Sets an attribute's name and value labels in one of the store's further locales (values by code; others are 422). */
export async function setAttributeTranslation(ctx: RequestContext, storeId: string, idOrCode: string, locale: string, input: AttributeTranslationWrite) {
  return transaction(ctx, async (t) => {
    const store = await lockedStoreLocales(t, storeId);
    const before = await lockedAttribute(t, storeId, idOrCode);
    const codes = (before.values as { value: string }[]).map((v) => v.value);
    const c = checked(store, locale, AttributeTranslationInput, input, (parsed) =>
      Object.entries(parsed.values ?? {})
        .filter(([code, v]) => v !== null && !codes.includes(code))
        .map(([code]) => ({ field: `values.${code}`, code: 'unknown_value', message: `the attribute has no value "${code}"` })),
    );
    const values = Object.fromEntries(Object.entries(c.input.values ?? {}).filter((e): e is [string, string] => e[1] !== null));
    const name = c.input.name ?? null;
    if (name == null && !Object.keys(values).length) await t.tx.attributeTranslation.deleteMany({ where: { attributeId: before.id, locale: c.locale } });
    else {
      const data = { name, values: values as Prisma.InputJsonObject, outdatedFields: [] };
      await t.tx.attributeTranslation.upsert({ where: { attributeId_locale: { attributeId: before.id, locale: c.locale } }, create: { attributeId: before.id, storeId, locale: c.locale, ...data }, update: data });
    }
    return afterAttributeWrite(t, storeId, before, 'translation.updated');
  });
}

/** The attribute after a translation write: a new version (its translations are part of it), and the event. */
async function afterAttributeWrite(t: TransactionContext, storeId: string, before: Awaited<ReturnType<typeof lockedAttribute>>, type: 'translation.updated' | 'translation.deleted') {
  const current = await t.tx.attribute.findUniqueOrThrow({ where: { id: before.id }, include: { translations: ORDER } });
  const [was, now] = [attributeTranslationsView(before.translations), attributeTranslationsView(current.translations)];
  if (JSON.stringify(was) === JSON.stringify(now)) return current;
  const after = await t.tx.attribute.update({ where: { id: before.id }, data: { version: { increment: 1 } }, include: { translations: ORDER } });
  emitted(t, type, { type: 'attribute', id: after.id, version: after.version }, storeId, attributeView(after), was, now);
  return after;
}

/** Removes a category's translation in a locale; one it lacks is 404. */
export async function removeCategoryTranslation(ctx: RequestContext, storeId: string, slugOrId: string, locale: string) {
  return transaction(ctx, async (t) => {
    const c = checked(await lockedStoreLocales(t, storeId), locale, CategoryTranslationInput, {}, () => []);
    const before = await lockedCategory(t, storeId, slugOrId);
    if (!before.translations.some((x) => x.locale === c.locale)) throw notFound(`Translation in ${c.locale}`);
    await t.tx.categoryTranslation.delete({ where: { categoryId_locale: { categoryId: before.id, locale: c.locale } } });
    const after = await t.tx.category.findUniqueOrThrow({ where: { id: before.id }, include: { translations: ORDER } });
    emitted(t, 'translation.deleted', { type: 'category', id: after.id }, storeId, categoryView(after), categoryTranslationsView(before.translations), categoryTranslationsView(after.translations));
    return after;
  });
}

/** Removes an attribute's translation in a locale; one it lacks is 404. */
export async function removeAttributeTranslation(ctx: RequestContext, storeId: string, idOrCode: string, locale: string) {
  return transaction(ctx, async (t) => {
    const c = checked(await lockedStoreLocales(t, storeId), locale, AttributeTranslationInput, {}, () => []);
    const before = await lockedAttribute(t, storeId, idOrCode);
    if (!before.translations.some((x) => x.locale === c.locale)) throw notFound(`Translation in ${c.locale}`);
    await t.tx.attributeTranslation.delete({ where: { attributeId_locale: { attributeId: before.id, locale: c.locale } } });
    return afterAttributeWrite(t, storeId, before, 'translation.deleted');
  });
}

/** What a translation names: a product of the request's catalog (by id), a category (id or slug) or an attribute (id or code). */
export type TranslationTarget = { kind: 'product' | 'category' | 'attribute'; ref: string };

/** A resource's translations by locale, as the merchant API shows them on it. */
export async function readTranslations(ctx: RequestContext, storeId: string, target: TranslationTarget): Promise<Record<string, Record<string, unknown>>> {
  await storeLocalesOf(ctx.db, storeId);
  const byRef = (ref: string, key: 'slug' | 'code') => (isUuid(ref) ? { id: ref } : { [key]: ref });
  if (target.kind === 'product') {
    const p = isUuid(target.ref) ? await ctx.db.product.findFirst({ where: { id: target.ref, ...catalogOf(ctx, storeId) }, select: { translations: ORDER } }) : null;
    if (!p) throw notFound('Product');
    return productTranslationsView(p.translations);
  }
  if (target.kind === 'category') {
    const c = await ctx.db.category.findFirst({ where: { storeId, ...byRef(target.ref, 'slug') }, select: { translations: ORDER } });
    if (!c) throw categoryNotFound(target.ref);
    return categoryTranslationsView(c.translations);
  }
  const a = await ctx.db.attribute.findFirst({ where: { storeId, ...byRef(target.ref, 'code') }, select: { translations: ORDER } });
  if (!a) throw attributeNotFound(target.ref);
  return attributeTranslationsView(a.translations);
}
