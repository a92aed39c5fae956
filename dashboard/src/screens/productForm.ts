import type { ProductCreateInput, ProductDetailFragment, ProductStatus, ProductUpdateInput, SeoInput } from '../generated/graphql';
import { fromDateTimeLocal, splitList, toDateTimeLocal } from '../lib/format';
import { attributesCreateInput, attributesUpdateInput, missingRequired, tidyValues, type AttributeValues } from './attributes/productValues';

/** The product editor's form state and its conversion to and from the API's shapes. */

export interface ProductForm {
  name: string;
  description: string;
  price: string;
  inventoryQuantity: string;
  lowStockThreshold: string;
  status: ProductStatus;
  categorySlugs: string[];
  tags: string;
  publishAt: string;
  unpublishAt: string;
  /** The product type's id ('' for none) and the attribute values ({code: value}). */
  productTypeId: string;
  attributes: AttributeValues;
}

export interface SeoForm {
  title: string;
  description: string;
  slug: string;
  canonicalUrl: string;
  ogImageUrl: string;
  noindex: boolean;
}

export const emptyForm = (): ProductForm => ({
  name: '',
  description: '',
  price: '',
  inventoryQuantity: '0',
  lowStockThreshold: '5',
  status: 'draft',
  categorySlugs: [],
  tags: '',
  publishAt: '',
  unpublishAt: '',
  productTypeId: '',
  attributes: {},
});

export const emptySeo = (): SeoForm => ({ title: '', description: '', slug: '', canonicalUrl: '', ogImageUrl: '', noindex: false });

export function formFromProduct(p: ProductDetailFragment): ProductForm {
  return {
    name: p.name,
    description: p.description,
    price: p.price,
    inventoryQuantity: String(p.inventoryQuantity),
    lowStockThreshold: String(p.lowStockThreshold),
    status: p.status,
    categorySlugs: [...p.categorySlugs],
    tags: p.tags.join(', '),
    publishAt: toDateTimeLocal(p.publishAt),
    unpublishAt: toDateTimeLocal(p.unpublishAt),
    productTypeId: p.productTypeId ?? '',
    attributes: tidyValues((p.attributes ?? {}) as AttributeValues),
  };
}

export function seoFromProduct(p: ProductDetailFragment): SeoForm {
  const s = p.seo;
  return {
    title: s?.title ?? '',
    description: s?.description ?? '',
    slug: s?.slug ?? '',
    canonicalUrl: s?.canonicalUrl ?? '',
    ogImageUrl: s?.ogImageUrl ?? '',
    noindex: s?.noindex ?? false,
  };
}

export type FieldErrors = Record<string, string>;

/**
 * A number field's text as the API value: a number when it reads as one, else the text itself. Either way
 * the service judges it (1.5 or "many" for a whole number), so its answer names this field's problem
 * together with every other field's, on one submit; undefined for an empty field.
 */
function numberField(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  // The generated type says number; a text that is none is sent as typed for the service to refuse.
  return (/^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed) as number;
}

function schedule(text: string, field: string, errors: FieldErrors): string | null {
  if (!text) return null;
  const value = fromDateTimeLocal(text);
  if (!value) errors[field] = 'is not a valid date and time';
  return value;
}

/**
 * The create input, and the problems found before sending that stop the submit (a schedule time the
 * browser's picker did not give). Everything else, a required field left empty included, is the
 * service's to judge: it answers every field's problem at once.
 */
export function createInput(form: ProductForm): { input: ProductCreateInput; errors: FieldErrors; shown: FieldErrors } {
  const errors: FieldErrors = {};
  const input: ProductCreateInput = {
    name: form.name.trim(),
    description: form.description,
    price: form.price.trim(),
    status: form.status,
    categorySlugs: form.categorySlugs,
    tags: splitList(form.tags),
  };
  const inventory = numberField(form.inventoryQuantity);
  if (inventory !== undefined) input.inventoryQuantity = inventory;
  const threshold = numberField(form.lowStockThreshold);
  if (threshold !== undefined) input.lowStockThreshold = threshold;
  const publishAt = schedule(form.publishAt, 'publishAt', errors);
  if (publishAt) input.publishAt = publishAt;
  const unpublishAt = schedule(form.unpublishAt, 'unpublishAt', errors);
  if (unpublishAt) input.unpublishAt = unpublishAt;
  Object.assign(input, attributesCreateInput(form.productTypeId, form.attributes));
  return { input, errors, shown: missingRequired(form.productTypeId, form.attributes) };
}

/**
 * The fields of the form that differ from the product, as a partial update, and the problems that stop the
 * submit (as createInput's). A number field emptied is sent as null, which the service refuses with the
 * other fields' problems; `shown` holds the form's own words for it.
 */
export function updateInput(form: ProductForm, product: ProductDetailFragment): { input: ProductUpdateInput; errors: FieldErrors; shown: FieldErrors } {
  const shown: FieldErrors = {};
  const errors: FieldErrors = {};
  const before = formFromProduct(product);
  const input: ProductUpdateInput = {};
  if (form.name !== before.name) input.name = form.name.trim();
  if (form.description !== before.description) input.description = form.description;
  if (form.price.trim() !== before.price) input.price = form.price.trim();
  for (const field of ['inventoryQuantity', 'lowStockThreshold'] as const) {
    if (form[field].trim() === before[field]) continue;
    const value = numberField(form[field]);
    input[field] = value ?? null;
    if (value === undefined) shown[field] = 'is required';
  }
  if (form.status !== before.status) input.status = form.status;
  if ([...form.categorySlugs].sort().join('\n') !== [...before.categorySlugs].sort().join('\n')) input.categorySlugs = form.categorySlugs;
  if (splitList(form.tags).join('\n') !== product.tags.join('\n')) input.tags = splitList(form.tags);
  if (form.publishAt !== before.publishAt) input.publishAt = schedule(form.publishAt, 'publishAt', errors);
  if (form.unpublishAt !== before.unpublishAt) input.unpublishAt = schedule(form.unpublishAt, 'unpublishAt', errors);
  Object.assign(input, attributesUpdateInput(form.productTypeId, form.attributes, product));
  Object.assign(shown, missingRequired(form.productTypeId, form.attributes));
  return { input, errors, shown };
}

export function seoInput(seo: SeoForm): SeoInput {
  const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
  return {
    title: orNull(seo.title),
    description: orNull(seo.description),
    slug: orNull(seo.slug),
    canonicalUrl: orNull(seo.canonicalUrl),
    ogImageUrl: orNull(seo.ogImageUrl),
    noindex: seo.noindex,
  };
}

export function seoChanged(seo: SeoForm, product: ProductDetailFragment | null): boolean {
  return JSON.stringify(seoInput(seo)) !== JSON.stringify(seoInput(product ? seoFromProduct(product) : emptySeo()));
}

/** A slug from a name: lowercase letters, digits and single hyphens. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 128);
}
