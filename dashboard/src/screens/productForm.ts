import type { ProductCreateInput, ProductDetailFragment, ProductStatus, ProductUpdateInput, SeoInput, VariantInput } from '../generated/graphql';
import { fromDateTimeLocal, splitList, toDateTimeLocal } from '../lib/format';

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
}

export interface VariantRow {
  key: string;
  sku: string;
  title: string;
  options: string;
  price: string;
  inventoryQuantity: string;
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
});

export const emptySeo = (): SeoForm => ({ title: '', description: '', slug: '', canonicalUrl: '', ogImageUrl: '', noindex: false });

let rowCounter = 0;
export const newRowKey = () => `row-${++rowCounter}`;
export const emptyVariant = (): VariantRow => ({ key: newRowKey(), sku: '', title: '', options: '', price: '', inventoryQuantity: '0' });

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
  };
}

export function optionsText(options: unknown): string {
  if (!options || typeof options !== 'object') return '';
  return Object.entries(options as Record<string, unknown>)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ');
}

export function variantsFromProduct(p: ProductDetailFragment): VariantRow[] {
  return p.variants.map((v) => ({
    key: newRowKey(),
    sku: v.sku,
    title: v.title,
    options: optionsText(v.options),
    price: v.price ?? '',
    inventoryQuantity: String(v.inventoryQuantity),
  }));
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

function wholeNumber(text: string, field: string, errors: FieldErrors): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^-?\d+$/.test(trimmed)) {
    errors[field] = 'must be a whole number';
    return undefined;
  }
  return Number(trimmed);
}

function schedule(text: string, field: string, errors: FieldErrors): string | null {
  if (!text) return null;
  const value = fromDateTimeLocal(text);
  if (!value) errors[field] = 'is not a valid date and time';
  return value;
}

/** The create input, or the client-side problems found before sending. */
export function createInput(form: ProductForm): { input: ProductCreateInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const input: ProductCreateInput = {
    name: form.name.trim(),
    description: form.description,
    price: form.price.trim(),
    status: form.status,
    categorySlugs: form.categorySlugs,
    tags: splitList(form.tags),
  };
  const inventory = wholeNumber(form.inventoryQuantity, 'inventoryQuantity', errors);
  if (inventory !== undefined) input.inventoryQuantity = inventory;
  const threshold = wholeNumber(form.lowStockThreshold, 'lowStockThreshold', errors);
  if (threshold !== undefined) input.lowStockThreshold = threshold;
  const publishAt = schedule(form.publishAt, 'publishAt', errors);
  if (publishAt) input.publishAt = publishAt;
  const unpublishAt = schedule(form.unpublishAt, 'unpublishAt', errors);
  if (unpublishAt) input.unpublishAt = unpublishAt;
  if (!input.price) errors.price = 'is required';
  return { input, errors };
}

/** The fields of the form that differ from the product, as a partial update. */
export function updateInput(form: ProductForm, product: ProductDetailFragment): { input: ProductUpdateInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const before = formFromProduct(product);
  const input: ProductUpdateInput = {};
  if (form.name !== before.name) input.name = form.name.trim();
  if (form.description !== before.description) input.description = form.description;
  if (form.price.trim() !== before.price) input.price = form.price.trim();
  if (form.inventoryQuantity.trim() !== before.inventoryQuantity) {
    const value = wholeNumber(form.inventoryQuantity, 'inventoryQuantity', errors);
    if (value === undefined && !errors.inventoryQuantity) errors.inventoryQuantity = 'is required';
    else if (value !== undefined) input.inventoryQuantity = value;
  }
  if (form.lowStockThreshold.trim() !== before.lowStockThreshold) {
    const value = wholeNumber(form.lowStockThreshold, 'lowStockThreshold', errors);
    if (value === undefined && !errors.lowStockThreshold) errors.lowStockThreshold = 'is required';
    else if (value !== undefined) input.lowStockThreshold = value;
  }
  if (form.status !== before.status) input.status = form.status;
  if ([...form.categorySlugs].sort().join('\n') !== [...before.categorySlugs].sort().join('\n')) input.categorySlugs = form.categorySlugs;
  if (splitList(form.tags).join('\n') !== product.tags.join('\n')) input.tags = splitList(form.tags);
  if (form.publishAt !== before.publishAt) input.publishAt = schedule(form.publishAt, 'publishAt', errors);
  if (form.unpublishAt !== before.unpublishAt) input.unpublishAt = schedule(form.unpublishAt, 'unpublishAt', errors);
  return { input, errors };
}

export function parseOptions(text: string): Record<string, string> | null {
  const options: Record<string, string> = {};
  for (const part of text.split(/[,\n]/)) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const at = trimmed.indexOf('=');
    if (at <= 0) return null;
    options[trimmed.slice(0, at).trim()] = trimmed.slice(at + 1).trim();
  }
  return options;
}

export function variantInputs(rows: VariantRow[]): { variants: VariantInput[]; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const variants = rows.map((row, index) => {
    const options = parseOptions(row.options);
    if (!options) errors[`variants.${index}.options`] = 'write options as name=value, separated by commas';
    const variant: VariantInput = {
      sku: row.sku.trim(),
      title: row.title.trim(),
      options: options ?? {},
      price: row.price.trim() === '' ? null : row.price.trim(),
      position: index,
    };
    const inventory = wholeNumber(row.inventoryQuantity, `variants.${index}.inventoryQuantity`, errors);
    variant.inventoryQuantity = inventory ?? 0;
    return variant;
  });
  return { variants, errors };
}

/** Whether the variant rows say something else than the product's variants. */
export function variantsChanged(rows: VariantRow[], product: ProductDetailFragment | null): boolean {
  const shape = (list: { sku: string; title: string; options: string; price: string; inventoryQuantity: string }[]) =>
    JSON.stringify(list.map((v) => [v.sku.trim(), v.title.trim(), v.options.replace(/\s+/g, ''), v.price.trim(), v.inventoryQuantity.trim()]));
  return shape(rows) !== shape(product ? variantsFromProduct(product) : []);
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
