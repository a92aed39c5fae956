/**
 * Writing a product's translations inside a product write: the rules of one locale's translation, checked against
 * the product as it is (its options and its type's text attributes), and the rows they leave. The product's create
 * and update (`translations: {"de": {…}}`) and the translation routes (productTranslations.ts) share it; it imports
 * nothing of products.ts, which calls it.
 */

import { z } from 'zod';
import type { Prisma } from '../../platform/db/client';
import { AppError, type FieldError, validationError } from '../../platform/errors';
import { emit, type TransactionContext } from '../../platform/outbox/outbox';
import { fieldErrorsOf } from '../../platform/validation';
import type { EventType } from '../../kernel/events';
import { type AttributeDefinition, checkAttributeValues } from './attributeValues';
import { OptionName, OptionValue, type ProductOption } from './optionRules';
import { SEO_LIMITS, slug } from './slugs';
import { marksAfterWriting, translationChanges, translationLocale } from './translations';
import type { ProductTranslation } from './translationRows';
import { productTranslationsView, productView, type ProductViewRow } from './views';

const text = (max: number) => z.string().trim().min(1, 'must not be empty; null removes it').max(max).nullable().optional();

/** One locale's translation of a product, as written. A GET's read-only fields sent back are ignored. */
export const ProductTranslationInput = z
  .object({
    name: text(255),
    description: z.string().max(20_000).nullable().optional(),
    seo: z.object({ title: text(SEO_LIMITS.title), description: text(SEO_LIMITS.description), slug: slug(SEO_LIMITS.slug).nullable().optional() }).strict().nullable().optional(),
    /** By the option's name in the default locale: its translated name and values (by the default locale's value). */
    options: z
      .record(z.string(), z.object({ name: OptionName.nullable().optional(), values: z.record(z.string(), OptionValue.nullable()).nullable().optional() }).strict().nullable())
      .nullable()
      .optional(),
    /** plain_text and rich_text values by attribute code. */
    attributes: z.record(z.string(), z.string().nullable()).nullable().optional(),
    outdated: z.unknown().optional(),
    outdated_fields: z.unknown().optional(),
    updated_at: z.unknown().optional(),
  })
  .strict();
export type ProductTranslationWrite = z.input<typeof ProductTranslationInput>;

type OptionTexts = Record<string, { name?: string; values?: Record<string, string> }>;

/** A translation's text fields, as stored. */
interface Texts {
  name: string | null;
  description: string | null;
  seoTitle: string | null;
  seoDescription: string | null;
  slug: string | null;
  options: OptionTexts;
  attributes: Record<string, string>;
}

const EMPTY: Texts = { name: null, description: null, seoTitle: null, seoDescription: null, slug: null, options: {}, attributes: {} };

const isEmpty = (x: Texts) =>
  x.name == null && x.description == null && x.seoTitle == null && x.seoDescription == null && x.slug == null && !Object.keys(x.options).length && !Object.keys(x.attributes).length;

/** The product as the rules read it. */
export interface TranslatedProduct {
  id: string;
  storeId: string;
  mode: 'live' | 'test';
  options: unknown;
  productTypeId: string | null;
}

type Parsed = z.output<typeof ProductTranslationInput>;

/** The translation after writing `input` over `current` (null fields clear), and the paths written (whose marks clear). */
function merged(current: Texts, input: Parsed, textAttributes: Record<string, unknown>): { next: Texts; written: string[] } {
  const next: Texts = { ...current, options: structuredClone(current.options), attributes: { ...current.attributes } };
  const written: string[] = [];
  const set = <K extends 'name' | 'description' | 'seoTitle' | 'seoDescription' | 'slug'>(key: K, value: string | null | undefined, path: string) => {
    if (value === undefined) return;
    next[key] = value;
    written.push(path);
  };
  set('name', input.name, 'name');
  set('description', input.description === '' ? null : input.description, 'description');
  if (input.seo === null) input = { ...input, seo: { title: null, description: null, slug: null } };
  set('seoTitle', input.seo?.title, 'seo.title');
  set('seoDescription', input.seo?.description, 'seo.description');
  set('slug', input.seo?.slug, 'seo.slug');
  if (input.options === null) {
    next.options = {};
    written.push('options');
  }
  for (const [option, sent] of Object.entries(input.options ?? {})) {
    written.push(`options.${option}`);
    if (sent === null) {
      delete next.options[option];
      continue;
    }
    const entry = next.options[option] ?? {};
    if (sent.name === null) delete entry.name;
    else if (sent.name !== undefined) entry.name = sent.name;
    if (sent.values === null) delete entry.values;
    for (const [value, label] of Object.entries(sent.values ?? {})) {
      entry.values ??= {};
      if (label === null) delete entry.values[value];
      else entry.values[value] = label;
    }
    if (entry.values && !Object.keys(entry.values).length) delete entry.values;
    if (Object.keys(entry).length) next.options[option] = entry;
    else delete next.options[option];
  }
  if (input.attributes === null) {
    next.attributes = {};
    written.push('attributes');
  }
  for (const [code, value] of Object.entries(input.attributes ?? {})) {
    written.push(`attributes.${code}`);
    if (value === null) delete next.attributes[code];
    else next.attributes[code] = textAttributes[code] as string;
  }
  return { next, written };
}

/** What a search in the locale matches: the translated name, description and option values, lower-cased. */
export const translationSearchText = (x: Pick<Texts, 'name' | 'description' | 'options'>) =>
  [x.name ?? '', x.description ?? '', ...Object.values(x.options).flatMap((o) => [o.name ?? '', ...Object.values(o.values ?? {})])]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();

/** The option and attribute keys a translation names that the product lacks (or cannot translate), by path as sent. */
function sourceErrors(product: TranslatedProduct, types: Map<string, AttributeDefinition>, input: Parsed, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  const options = product.options as ProductOption[];
  for (const [name, sent] of Object.entries(input.options ?? {})) {
    const option = options.find((o) => o.name === name);
    if (!option) {
      if (sent !== null) errors.push({ field: `${prefix}options.${name}`, code: 'unknown_option', message: `the product has no option "${name}" (options are named by their default-locale name)` });
      continue;
    }
    for (const [value, label] of Object.entries(sent?.values ?? {})) {
      if (label !== null && !option.values.includes(value)) {
        errors.push({ field: `${prefix}options.${name}.values.${value}`, code: 'unknown_option_value', message: `"${name}" has no value "${value}"` });
      }
    }
  }
  for (const [code, value] of Object.entries(input.attributes ?? {})) {
    if (value === null) continue;
    const a = types.get(code);
    if (!a) errors.push({ field: `${prefix}attributes.${code}`, code: 'unknown_attribute', message: "is not an attribute of the product's type" });
    else if (a.type !== 'plain_text' && a.type !== 'rich_text') {
      errors.push({ field: `${prefix}attributes.${code}`, code: 'not_translatable', message: `is a ${a.type} attribute: only plain_text and rich_text values are translated (a dropdown's labels are the attribute's translations)` });
    }
  }
  return errors;
}

/** The product type's product-level attributes by code. */
async function productAttributeTypes(t: TransactionContext, productTypeId: string | null): Promise<Map<string, AttributeDefinition>> {
  if (!productTypeId) return new Map();
  const rows = await t.tx.productTypeAttribute.findMany({ where: { productTypeId, level: 'product' }, select: { attribute: { select: { id: true, code: true, type: true } } } });
  return new Map(rows.map((r) => [r.attribute.code, { id: r.attribute.id, code: r.attribute.code, type: r.attribute.type, values: [], referenceType: null, required: false }]));
}

const textsOf = (r: ProductTranslation | undefined): Texts =>
  r
    ? { name: r.name, description: r.description, seoTitle: r.seoTitle, seoDescription: r.seoDescription, slug: r.slug, options: r.options as OptionTexts, attributes: r.attributes as Record<string, string> }
    : EMPTY;

/** How the locales and fields are named in errors: `translations.de.name` in a product write, `locale` and `name` in PUT …/translations/{locale}. */
export interface TranslationFieldNames {
  locale: (sent: string) => string;
  prefix: (sent: string) => string;
}

export const IN_PRODUCT_WRITE: TranslationFieldNames = { locale: (l) => `translations.${l}`, prefix: (l) => `translations.${l}.` };

/**
 * The rules of writeProductTranslations, checked without writing (every error at once, 422): the locales, the
 * fields, and the options and attributes they name on the product. A translated slug's uniqueness is the write's.
 */
export async function checkProductTranslations(
  t: TransactionContext,
  store: { defaultLocale: string; locales: string[] },
  product: TranslatedProduct,
  inputs: Record<string, unknown>,
  names: TranslationFieldNames,
) {
  const errors: FieldError[] = [];
  const writes: { locale: string; input: Parsed | null; prefix: string }[] = [];
  for (const [sent, raw] of Object.entries(inputs)) {
    const r = translationLocale(store, sent, names.locale(sent));
    if ('error' in r) errors.push(r.error);
    const prefix = names.prefix(sent);
    if (raw === null) {
      if ('locale' in r) writes.push({ locale: r.locale, input: null, prefix });
      continue;
    }
    const fieldErrors = fieldErrorsOf(ProductTranslationInput, raw);
    errors.push(...fieldErrors.map((e) => ({ ...e, field: e.field === '(body)' ? names.locale(sent) : `${prefix}${e.field}` })));
    if (!fieldErrors.length && 'locale' in r) writes.push({ locale: r.locale, input: ProductTranslationInput.parse(raw), prefix });
  }
  const types = await productAttributeTypes(t, product.productTypeId);
  const texts = types.size ? [...types.values()].filter((a) => a.type === 'plain_text' || a.type === 'rich_text') : [];
  const normalised = new Map<string, Record<string, unknown>>();
  for (const w of writes) {
    if (!w.input) continue;
    errors.push(...sourceErrors(product, types, w.input, w.prefix));
    const sentTexts = Object.fromEntries(Object.entries(w.input.attributes ?? {}).filter(([code, v]) => v !== null && texts.some((a) => a.code === code)));
    const check = checkAttributeValues(texts, {}, sentTexts, `${w.prefix}attributes`);
    errors.push(...check.errors.filter((e) => e.code !== 'unknown_attribute'));
    normalised.set(w.locale, check.values);
  }
  if (errors.length) throw validationError(errors);
  return { writes, normalised };
}

/**
 * Writes translations of the product, by locale as sent (null removes the locale's): with `replace`, each locale
 * sent is set whole; otherwise its fields merge into the stored ones (null clears one). Every error at once (422);
 * a translated slug another product of the catalog has in the locale is 409 slug_taken. Writing a field clears
 * its outdated mark (a replaced locale is current again). Returns whether anything changed.
 */
export async function writeProductTranslations(
  t: TransactionContext,
  store: { defaultLocale: string; locales: string[] },
  product: TranslatedProduct,
  inputs: Record<string, unknown>,
  opts: { replace: boolean; names: TranslationFieldNames },
): Promise<boolean> {
  const { writes, normalised } = await checkProductTranslations(t, store, product, inputs, opts.names);
  const current = new Map((await t.tx.productTranslation.findMany({ where: { productId: product.id, locale: { in: writes.map((w) => w.locale) } } })).map((r) => [r.locale, r]));
  let changed = false;
  for (const w of writes) {
    const row = current.get(w.locale);
    if (!w.input) {
      if (row) await t.tx.productTranslation.delete({ where: { productId_locale: { productId: product.id, locale: w.locale } } });
      changed ||= !!row;
      continue;
    }
    const { next, written } = merged(opts.replace ? EMPTY : textsOf(row), w.input, normalised.get(w.locale) ?? {});
    const outdatedFields = opts.replace || !row ? [] : marksAfterWriting(row.outdatedFields, written);
    if (isEmpty(next)) {
      if (row) await t.tx.productTranslation.delete({ where: { productId_locale: { productId: product.id, locale: w.locale } } });
      changed ||= !!row;
      continue;
    }
    if (row && JSON.stringify(textsOf(row)) === JSON.stringify(next) && row.outdatedFields.length === outdatedFields.length) continue;
    if (next.slug) await requireFreeSlug(t, product, w.locale, next.slug, `${w.prefix}seo.slug`);
    const data = { ...next, options: next.options as Prisma.InputJsonObject, attributes: next.attributes, outdatedFields, searchText: translationSearchText(next) };
    await t.tx.productTranslation.upsert({
      where: { productId_locale: { productId: product.id, locale: w.locale } },
      create: { productId: product.id, storeId: product.storeId, mode: product.mode, locale: w.locale, ...data },
      update: data,
    });
    changed = true;
  }
  return changed;
}

/** A translated slug is unique per store, mode and locale, as a default slug is per store and mode. */
async function requireFreeSlug(t: TransactionContext, product: TranslatedProduct, locale: string, slug: string, field: string) {
  const holder = await t.tx.productTranslation.findFirst({ where: { storeId: product.storeId, mode: product.mode, locale, slug, productId: { not: product.id } }, select: { productId: true } });
  if (holder) throw translatedSlugTaken(slug, locale, field);
}

export const translatedSlugTaken = (slug: string, locale: string, field = 'seo.slug') =>
  new AppError('slug_taken', `The slug "${slug}" is already used by another product of this store in ${locale}`, {
    errors: [{ field, code: 'slug_taken', message: `already used by another product of this store in ${locale}` }],
    details: { slug, locale },
  });

/** The event of a translation write: the product as REST shows it after it, and a change per locale and field. */
export function emitProductTranslationEvent(t: TransactionContext, type: Extract<EventType, `translation.${string}`>, after: ProductViewRow, before: ProductTranslation[]) {
  emit(t, {
    type,
    storeId: after.storeId,
    mode: after.mode,
    resource: { type: 'product', id: after.id, version: after.version },
    data: productView(after, t.baseUrl),
    changes: translationChanges(jsonOf(productTranslationsView(before)), jsonOf(productTranslationsView(after.translations))),
  });
}

/** The views as JSON reads them back (times as text), so a change compares what clients see. */
const jsonOf = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
