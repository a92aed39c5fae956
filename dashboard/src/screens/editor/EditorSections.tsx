import type { KeyboardEvent, ReactNode } from 'react';
import type { ApiError } from '../../api/client';
import { Field } from '../../components/ui';
import type { ProductDetailFragment, ProductStatus } from '../../generated/graphql';
import { useWorkspace } from '../../session';
import type { FieldErrors, ProductForm, SeoForm } from '../productForm';
import { attributeFieldLabel } from '../attributes/productValues';
import { AttributesSection } from './AttributesSection';
import { CategoryPicker, categoryError, firstIndexed } from './CategoryPicker';
import { DescriptionField } from './DescriptionField';
import { ImagesEditor } from './ImagesEditor';
import { SeoEditor } from './SeoEditor';
import type { VariantErrors, VariantsDraft } from './variantDraft';
import { VariantsEditor } from './VariantsEditor';

/**
 * The editor's two columns: the content on the left (details, images, price, variants, search listing), and
 * status, publishing and organisation on the right. Below 1,100 px they stack, the side column after the content.
 * Further sections (options, attributes, translations) slot into either column.
 */

type SetField = <K extends keyof ProductForm>(key: K, value: ProductForm[K]) => void;

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  inventoryQuantity: 'Inventory',
  lowStockThreshold: 'Low-stock threshold',
  status: 'Status',
  tags: 'Tags',
  categorySlugs: 'Categories',
  publishAt: 'Publish at',
  unpublishAt: 'Unpublish at',
};

const VARIANT_LABELS: Record<string, string> = {
  sku: 'SKU',
  title: 'title',
  options: 'options',
  price: 'price',
  inventoryQuantity: 'inventory',
  compareAtPrice: 'compare-at price',
};

const SEO_LABELS: Record<string, string> = {
  title: 'Page title',
  description: 'Meta description',
  slug: 'URL slug',
  canonicalUrl: 'Canonical URL',
  ogImageUrl: 'Social image URL',
};

/** A field path of the form or the service (price, variants.2.sku, tags.1) as the merchant reads its label. */
export function fieldLabel(field: string, currency: string): string {
  if (field === 'price') return `Price (${currency})`;
  const attribute = attributeFieldLabel(field);
  if (attribute) return attribute;
  const variant = /^variants\.(\d+)(?:\.(\w+))?/.exec(field);
  if (variant) return `Variant ${Number(variant[1]) + 1}${variant[2] ? ` ${VARIANT_LABELS[variant[2]] ?? variant[2]}` : ''}`;
  const [head, index] = field.split('.');
  const label = FIELD_LABELS[head!] ?? head!.replace(/([A-Z])/g, ' $1').toLowerCase();
  return index !== undefined && /^\d+$/.test(index) ? `${label} (item ${Number(index) + 1})` : label;
}

/** Every problem of a refused save, one per field, in the form's order, each with its field's name. */
export function errorSummary({ local, error, seoError, currency }: { local: FieldErrors; error: ApiError | null; seoError: ApiError | null; currency: string }) {
  const byField = new Map<string, string>();
  for (const [field, message] of Object.entries({ ...(error?.fields ?? {}), ...local })) {
    // The variants section names its own fields (its option, its variant by values).
    if (/^(variants|options)\b/.test(field)) continue;
    byField.set(field, field.startsWith('categorySlugs') ? (categoryError(error) ?? message) : message);
  }
  const category = categoryError(error);
  if (category && !byField.has('categorySlugs')) byField.set('categorySlugs', category);
  const items = [...byField].map(([field, message]) => ({ field, label: fieldLabel(field, currency), message }));
  for (const [field, message] of Object.entries(seoError?.fields ?? {})) items.push({ field: `seo.${field}`, label: SEO_LABELS[field] ?? field, message });
  return items;
}

/** Enter in an image's alt text must not submit the product form around it. */
const keepEnter = (event: KeyboardEvent) => {
  if (event.key === 'Enter' && event.target instanceof HTMLInputElement) event.preventDefault();
};

export function EditorMain({
  form,
  set,
  fieldError,
  current,
  variants,
  setVariants,
  variantErrors,
  seo,
  setSeo,
  seoError,
  onImagesChanged,
  onConflict,
  pricing,
}: {
  form: ProductForm;
  set: SetField;
  fieldError: (field: string) => string | undefined;
  coreError: ApiError | null;
  current: ProductDetailFragment | null;
  variants: VariantsDraft;
  setVariants: (draft: VariantsDraft) => void;
  variantErrors: VariantErrors;
  seo: SeoForm;
  setSeo: (seo: SeoForm) => void;
  seoError: ApiError | null;
  onImagesChanged: () => Promise<void>;
  onConflict: () => void;
  /** Further price sections (prices in other currencies), after price and inventory. */
  pricing?: ReactNode;
}) {
  const { store } = useWorkspace();
  return (
    <div className="editor-main">
      <section className="panel" aria-labelledby="section-details">
        <h2 id="section-details">Details</h2>
        <Field label="Name" error={fieldError('name')}>
          {(p) => <input {...p} value={form.name} onChange={(e) => set('name', e.target.value)} required maxLength={255} />}
        </Field>
        <DescriptionField form={form} setDescription={(d) => set('description', d)} error={fieldError('description')} productId={current?.id ?? null} />
      </section>

      <AttributesSection form={form} set={set} fieldError={fieldError} />

      {current ? (
        <div onKeyDown={keepEnter}>
          <ImagesEditor product={current} onChanged={onImagesChanged} onConflict={onConflict} />
        </div>
      ) : (
        <section className="panel" aria-labelledby="section-images">
          <h2 id="section-images">Images</h2>
          <p className="muted">Create the product first, then add its images here.</p>
        </section>
      )}

      <section className="panel" aria-labelledby="section-pricing">
        <h2 id="section-pricing">Price and inventory</h2>
        <div className="grid-3">
          <Field label={`Price (${store.currency})`} error={fieldError('price')}>
            {(p) => <input {...p} inputMode="decimal" value={form.price} onChange={(e) => set('price', e.target.value)} required />}
          </Field>
          <Field label="Inventory" error={fieldError('inventoryQuantity')}>
            {(p) => <input {...p} type="number" min={0} step={1} value={form.inventoryQuantity} onChange={(e) => set('inventoryQuantity', e.target.value)} />}
          </Field>
          <Field label="Low-stock threshold" hint="Low stock: inventory at or below this." error={fieldError('lowStockThreshold')}>
            {(p) => <input {...p} type="number" min={0} step={1} value={form.lowStockThreshold} onChange={(e) => set('lowStockThreshold', e.target.value)} />}
          </Field>
        </div>
      </section>
      {pricing}

      <VariantsEditor
        draft={variants}
        onChange={setVariants}
        product={current}
        productName={form.name}
        errors={variantErrors}
        currency={store.currency}
        basePrice={form.price}
        productTypeId={form.productTypeId}
      />

      <SeoEditor seo={seo} onChange={setSeo} error={seoError} productName={form.name} productDescription={form.description} />
    </div>
  );
}

export function EditorSide({
  form,
  set,
  fieldError,
  coreError,
  current,
  children,
}: {
  form: ProductForm;
  set: SetField;
  fieldError: (field: string) => string | undefined;
  coreError: ApiError | null;
  current: ProductDetailFragment | null;
  onPublish: (action: 'publish' | 'unpublish') => Promise<void>;
  children?: ReactNode;
}) {
  return (
    <div className="editor-side">
      <section className="panel" aria-labelledby="section-status">
        <h2 id="section-status">Status</h2>
        <Field label="Status" error={fieldError('status')} hint={current ? undefined : 'A draft is not for sale until you publish it.'}>
          {(p) => (
            <select {...p} value={form.status} onChange={(e) => set('status', e.target.value as ProductStatus)}>
              <option value="draft">Draft</option>
              <option value="active">Active (published)</option>
              <option value="archived">Archived</option>
            </select>
          )}
        </Field>
      </section>

      <section className="panel" aria-labelledby="section-schedule">
        <h2 id="section-schedule">Scheduled publishing</h2>
        <p className="muted small">Times are in your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}). Clear a time to cancel it.</p>
        <Field label="Publish at" hint="Only for a draft: the product becomes active then." error={fieldError('publishAt')}>
          {(p) => <input {...p} type="datetime-local" value={form.publishAt} onChange={(e) => set('publishAt', e.target.value)} />}
        </Field>
        <Field label="Unpublish at" hint="After the publish time: the product becomes a draft then." error={fieldError('unpublishAt')}>
          {(p) => <input {...p} type="datetime-local" value={form.unpublishAt} onChange={(e) => set('unpublishAt', e.target.value)} />}
        </Field>
      </section>

      <section className="panel" aria-labelledby="section-organization">
        <h2 id="section-organization">Organization</h2>
        <CategoryPicker selected={form.categorySlugs} onChange={(slugs) => set('categorySlugs', slugs)} error={fieldError('categorySlugs') ?? firstIndexed(coreError, 'categorySlugs')} />
        <Field label="Tags" hint="Comma-separated, e.g. summer, sale" error={fieldError('tags') ?? firstIndexed(coreError, 'tags')}>
          {(p) => <input {...p} value={form.tags} onChange={(e) => set('tags', e.target.value)} />}
        </Field>
      </section>
      {children}
    </div>
  );
}
