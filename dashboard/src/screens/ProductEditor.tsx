import { type DragEvent, type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { mutate, query, toApiError, uploadMutation, type ApiError } from '../api/client';
import { ConfirmButton, ErrorMessage, Field, Loading, Notice, PageTitle } from '../components/ui';
import {
  ArrangeProductImagesDocument,
  CreateProductDocument,
  DeleteProductDocument,
  GenerateProductDescriptionDocument,
  ProductDocument,
  ProductVersionDocument,
  PublishProductDocument,
  RemoveProductImageDocument,
  ReplaceProductVariantsDocument,
  SetProductSeoDocument,
  UnpublishProductDocument,
  UpdateProductDocument,
  UploadProductImageDocument,
  type DescriptionTone,
  type ProductDetailFragment,
  type ProductStatus,
} from '../generated/graphql';
import { formatDateTime, formatMoney, splitList } from '../lib/format';
import { Link, navigate } from '../lib/router';
import { useWorkspace } from '../session';
import {
  createInput,
  emptyForm,
  emptySeo,
  emptyVariant,
  formFromProduct,
  seoChanged,
  seoFromProduct,
  seoInput,
  updateInput,
  variantInputs,
  variantsChanged,
  variantsFromProduct,
  type FieldErrors,
  type ProductForm,
  type SeoForm,
  type VariantRow,
} from './productForm';
import { StatusBadge } from './ProductList';

/** What a just-created product's page should show: its notice, and variants or SEO that were refused. */
interface Handoff {
  notice: string;
  variants?: { rows: VariantRow[]; error: ApiError };
  seo?: { form: SeoForm; error: ApiError };
}
const handoffs = new Map<string, Handoff>();

export function ProductEditorPage({ productId }: { productId: string | null }) {
  const { storeId, mode } = useWorkspace();
  const [state, setState] = useState<{ product?: ProductDetailFragment; error?: ApiError; loading: boolean }>({ loading: productId !== null });

  const load = useCallback(async () => {
    if (!productId) return undefined;
    setState((s) => ({ ...s, loading: true, error: undefined }));
    try {
      const data = await query(ProductDocument, { storeId, mode, id: productId });
      setState({ product: data.product, loading: false });
      return data.product;
    } catch (caught) {
      setState({ error: toApiError(caught), loading: false });
      return undefined;
    }
  }, [productId, storeId, mode]);

  useEffect(() => {
    void load();
  }, [load]);

  if (!productId) return <Editor product={null} reload={async () => undefined} />;
  if (state.loading && !state.product) {
    return (
      <>
        <PageTitle>Product</PageTitle>
        <Loading label="Loading the product…" />
      </>
    );
  }
  if (state.error || !state.product) {
    const notFound = state.error?.code === 'not_found';
    return (
      <>
        <PageTitle>{notFound ? 'Product not found' : 'Product'}</PageTitle>
        {notFound ? (
          <p>
            There is no such product in the {mode} catalog of this store. <Link to="products">Back to the products</Link>.
          </p>
        ) : (
          <ErrorMessage error={state.error} title="The product could not be loaded.">
            <button type="button" onClick={() => void load()}>
              Try again
            </button>
          </ErrorMessage>
        )}
      </>
    );
  }
  return <Editor product={state.product} reload={load} />;
}

function Editor({ product: loaded, reload }: { product: ProductDetailFragment | null; reload: () => Promise<ProductDetailFragment | undefined> }) {
  const { storeId, mode, store } = useWorkspace();
  const creating = loaded === null;
  const [handoff] = useState(() => (loaded ? handoffs.get(loaded.id) : undefined));
  useEffect(() => {
    if (loaded) handoffs.delete(loaded.id);
  }, [loaded]);

  const [current, setCurrent] = useState<ProductDetailFragment | null>(loaded);
  const [form, setForm] = useState<ProductForm>(() => (loaded ? formFromProduct(loaded) : emptyForm()));
  const [variants, setVariants] = useState<VariantRow[]>(() => handoff?.variants?.rows ?? (loaded ? variantsFromProduct(loaded) : []));
  const [seo, setSeo] = useState<SeoForm>(() => handoff?.seo?.form ?? (loaded ? seoFromProduct(loaded) : emptySeo()));
  const [coreError, setCoreError] = useState<ApiError | null>(null);
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const [variantError, setVariantError] = useState<ApiError | null>(handoff?.variants?.error ?? null);
  const [seoError, setSeoError] = useState<ApiError | null>(handoff?.seo?.error ?? null);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | null>(handoff?.notice ?? null);
  const [actionError, setActionError] = useState<ApiError | null>(null);

  const fieldError = (field: string) => localErrors[field] ?? coreError?.fields[field] ?? (field === 'categorySlugs' ? categoryError(coreError) : undefined);

  const resetFrom = (fresh: ProductDetailFragment) => {
    setCurrent(fresh);
    setForm(formFromProduct(fresh));
    setVariants(variantsFromProduct(fresh));
    setSeo(seoFromProduct(fresh));
    setCoreError(null);
    setVariantError(null);
    setSeoError(null);
    setLocalErrors({});
    setConflict(false);
  };

  /** Takes a product answer of our own action: its version becomes ours only if nobody else wrote in between. */
  const adopt = (fresh: ProductDetailFragment | { version: number; [key: string]: unknown }, steps = 1) => {
    setCurrent((before) => {
      if (!before) return before;
      const merged = { ...before, ...fresh } as ProductDetailFragment;
      if (fresh.version !== before.version + steps) merged.version = before.version;
      return merged;
    });
  };

  const onReload = async () => {
    const fresh = await reload();
    if (fresh) {
      resetFrom(fresh);
      setNotice('Reloaded the latest version of the product.');
    }
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    setCoreError(null);
    setVariantError(null);
    setSeoError(null);
    setActionError(null);
    const variantPlan = variantInputs(variants);
    const needsVariants = variantsChanged(variants, current);
    const needsSeo = seoChanged(seo, current);
    if (creating) {
      const { input, errors } = createInput(form);
      const allErrors = { ...errors, ...(needsVariants ? variantPlan.errors : {}) };
      setLocalErrors(allErrors);
      if (Object.keys(allErrors).length) return;
      setSaving(true);
      let created: ProductDetailFragment;
      try {
        created = (await mutate(CreateProductDocument, { storeId, mode, input })).createProduct;
      } catch (caught) {
        setCoreError(toApiError(caught));
        setSaving(false);
        return;
      }
      const next: Handoff = { notice: `Created “${created.name}”.` };
      if (needsVariants) {
        try {
          await mutate(ReplaceProductVariantsDocument, { storeId, mode, productId: created.id, variants: variantPlan.variants });
        } catch (caught) {
          next.variants = { rows: variants, error: toApiError(caught) };
          next.notice = `Created “${created.name}”, but its variants were not saved: see below.`;
        }
      }
      if (needsSeo) {
        try {
          await mutate(SetProductSeoDocument, { storeId, mode, productId: created.id, input: seoInput(seo) });
        } catch (caught) {
          next.seo = { form: seo, error: toApiError(caught) };
          next.notice = `Created “${created.name}”, but some of it was not saved: see below.`;
        }
      }
      handoffs.set(created.id, next);
      navigate(`products/${created.id}`, { replace: true });
      return;
    }

    if (!current) return;
    const { input, errors, shown } = updateInput(form, current);
    const allErrors = { ...errors, ...(needsVariants ? variantPlan.errors : {}) };
    setLocalErrors({ ...shown, ...allErrors });
    if (Object.keys(allErrors).length) return;
    const needsCore = Object.keys(input).length > 0;
    if (!needsCore && !needsVariants && !needsSeo) {
      setNotice('Nothing to save: no changes.');
      return;
    }
    setSaving(true);
    try {
      if (needsCore) {
        try {
          const updated = (await mutate(UpdateProductDocument, { storeId, mode, id: current.id, expectedVersion: current.version, input })).updateProduct;
          setCurrent(updated);
        } catch (caught) {
          const apiError = toApiError(caught);
          if (apiError.code === 'precondition_failed') setConflict(true);
          else setCoreError(apiError);
          return;
        }
      } else {
        // Variants and SEO take no expected version: check it first, so that a newer change is not overwritten.
        const latest = (await query(ProductVersionDocument, { storeId, mode, id: current.id })).product;
        if (latest.version !== current.version) {
          setConflict(true);
          return;
        }
      }
      let failed = false;
      if (needsVariants) {
        try {
          await mutate(ReplaceProductVariantsDocument, { storeId, mode, productId: current.id, variants: variantPlan.variants });
        } catch (caught) {
          setVariantError(toApiError(caught));
          failed = true;
        }
      }
      if (needsSeo) {
        try {
          await mutate(SetProductSeoDocument, { storeId, mode, productId: current.id, input: seoInput(seo) });
        } catch (caught) {
          setSeoError(toApiError(caught));
          failed = true;
        }
      }
      const fresh = (await query(ProductDocument, { storeId, mode, id: current.id })).product;
      if (failed) {
        setCurrent(fresh);
        setForm(formFromProduct(fresh));
        setNotice(needsCore ? 'The product details were saved; the sections marked below were not.' : null);
      } else {
        resetFrom(fresh);
        setNotice('Saved.');
      }
    } catch (caught) {
      setCoreError(toApiError(caught));
    } finally {
      setSaving(false);
    }
  };

  const publishToggle = async (action: 'publish' | 'unpublish') => {
    if (!current) return;
    setActionError(null);
    setNotice(null);
    try {
      const variables = { storeId, mode, id: current.id };
      const fresh =
        action === 'publish'
          ? (await mutate(PublishProductDocument, variables)).publishProduct
          : (await mutate(UnpublishProductDocument, variables)).unpublishProduct;
      const changed = fresh.status !== current.status;
      adopt(fresh, changed ? 1 : 0);
      setForm((f) => ({ ...f, status: fresh.status }));
      setNotice(action === 'publish' ? 'Published: the product is active.' : 'Unpublished: the product is a draft again.');
    } catch (caught) {
      setActionError(toApiError(caught));
    }
  };

  const remove = async () => {
    if (!current) return;
    try {
      await mutate(DeleteProductDocument, { storeId, mode, id: current.id });
      navigate('products');
    } catch (caught) {
      setActionError(toApiError(caught));
    }
  };

  const refreshImages = async () => {
    if (!current) return;
    const fresh = (await query(ProductDocument, { storeId, mode, id: current.id })).product;
    adopt({ images: fresh.images, version: fresh.version, updatedAt: fresh.updatedAt });
  };

  const set = <K extends keyof ProductForm>(key: K, value: ProductForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const title = creating ? 'New product' : current?.name || 'Product';

  return (
    <>
      <PageTitle
        actions={
          current ? (
            <>
              <StatusBadge status={current.status} />
              {current.status === 'active' ? (
                <button type="button" className="button-secondary" onClick={() => void publishToggle('unpublish')}>
                  Unpublish
                </button>
              ) : (
                <button type="button" onClick={() => void publishToggle('publish')} disabled={current.status === 'archived'}>
                  Publish
                </button>
              )}
              <Link to={`products/${current.id}/history`} className="button button-secondary">
                History
              </Link>
            </>
          ) : null
        }
      >
        {title}
      </PageTitle>
      <p className="breadcrumb">
        <Link to="products">← All products</Link>
        {current ? (
          <span className="muted">
            {' '}
            · version {current.version} · updated {formatDateTime(current.updatedAt)}
            {current.publishedAt ? ` · published ${formatDateTime(current.publishedAt)}` : ''}
          </span>
        ) : null}
      </p>

      {conflict ? (
        <div className="alert alert-warning" role="alert">
          <p className="alert-title">This product changed since you opened it.</p>
          <p>
            Someone else (or you, in another window) saved a newer version, so your changes were not saved, to avoid overwriting
            theirs. Reload to see the latest version, then make your changes again.
          </p>
          <button type="button" onClick={() => void onReload()}>
            Reload
          </button>
        </div>
      ) : null}
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorMessage error={actionError} />
      {coreError && Object.keys(coreError.fields).length === 0 && !categoryError(coreError) ? <ErrorMessage error={coreError} title="The product was not saved." /> : null}
      {coreError && (Object.keys(coreError.fields).length > 0 || categoryError(coreError)) ? (
        <div className="alert alert-error" role="alert">
          <p>The product was not saved: correct the fields marked below.</p>
        </div>
      ) : null}
      {Object.keys(localErrors).length > 0 && !coreError && !saving ? (
        <div className="alert alert-error" role="alert">
          <p>Correct the fields marked below.</p>
        </div>
      ) : null}

      <form className="editor" onSubmit={save} noValidate>
        <section className="panel" aria-labelledby="section-details">
          <h2 id="section-details">Details</h2>
          <Field label="Name" error={fieldError('name')}>
            {(p) => <input {...p} value={form.name} onChange={(e) => set('name', e.target.value)} required maxLength={255} />}
          </Field>
          <DescriptionField form={form} setDescription={(d) => set('description', d)} error={fieldError('description')} productId={current?.id ?? null} />
        </section>

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

        <section className="panel" aria-labelledby="section-organization">
          <h2 id="section-organization">Status and organization</h2>
          <div className="grid-2">
            <Field label="Status" error={fieldError('status')}>
              {(p) => (
                <select {...p} value={form.status} onChange={(e) => set('status', e.target.value as ProductStatus)}>
                  <option value="draft">Draft</option>
                  <option value="active">Active (published)</option>
                  <option value="archived">Archived</option>
                </select>
              )}
            </Field>
            <Field label="Tags" hint="Comma-separated, e.g. summer, sale" error={fieldError('tags') ?? firstIndexed(coreError, 'tags')}>
              {(p) => <input {...p} value={form.tags} onChange={(e) => set('tags', e.target.value)} />}
            </Field>
          </div>
          <CategoryPicker
            selected={form.categorySlugs}
            onChange={(slugs) => set('categorySlugs', slugs)}
            error={fieldError('categorySlugs') ?? firstIndexed(coreError, 'categorySlugs')}
          />
        </section>

        <section className="panel" aria-labelledby="section-schedule">
          <h2 id="section-schedule">Scheduled publishing</h2>
          <p className="muted small">
            Times are in your time zone ({Intl.DateTimeFormat().resolvedOptions().timeZone}). Leave empty for no schedule; clear a time to cancel it.
          </p>
          <div className="grid-2">
            <Field label="Publish at" hint="Only for a draft: the product becomes active then." error={fieldError('publishAt')}>
              {(p) => <input {...p} type="datetime-local" value={form.publishAt} onChange={(e) => set('publishAt', e.target.value)} />}
            </Field>
            <Field label="Unpublish at" hint="After the publish time: the product becomes a draft then." error={fieldError('unpublishAt')}>
              {(p) => <input {...p} type="datetime-local" value={form.unpublishAt} onChange={(e) => set('unpublishAt', e.target.value)} />}
            </Field>
          </div>
        </section>

        <VariantsEditor rows={variants} onChange={setVariants} error={variantError} localErrors={localErrors} currency={store.currency} basePrice={form.price} />

        <SeoEditor seo={seo} onChange={setSeo} error={seoError} productName={form.name} productDescription={form.description} />

        <div className="save-bar">
          <button type="submit" className="button-primary" disabled={saving}>
            {saving ? 'Saving…' : creating ? 'Create product' : 'Save changes'}
          </button>
          {creating ? (
            <Link to="products" className="button button-secondary">
              Cancel
            </Link>
          ) : null}
        </div>
      </form>

      {current ? (
        <ImagesEditor product={current} onChanged={refreshImages} onConflict={() => setConflict(true)} />
      ) : (
        <section className="panel" aria-labelledby="section-images">
          <h2 id="section-images">Images</h2>
          <p className="muted">Create the product first, then add its images here.</p>
        </section>
      )}

      {current ? (
        <section className="panel danger-zone" aria-labelledby="section-delete">
          <h2 id="section-delete">Delete</h2>
          <p>Deleting removes the product with its variants, SEO record and images. It cannot be undone.</p>
          <ConfirmButton confirmLabel="Delete for good" question={`Delete “${current.name}”?`} onConfirm={remove}>
            Delete product
          </ConfirmButton>
        </section>
      ) : null}
    </>
  );
}

function categoryError(error: ApiError | null): string | undefined {
  if (!error) return undefined;
  if (error.code === 'category_required' || error.code === 'unknown_category') return error.message;
  return error.fields.categorySlugs ?? error.fields.category_slugs;
}

function firstIndexed(error: ApiError | null, field: string): string | undefined {
  if (!error) return undefined;
  const key = Object.keys(error.fields).find((k) => k.startsWith(`${field}.`));
  return key ? `${key.slice(field.length + 1) ? `item ${Number(key.split('.')[1]) + 1}: ` : ''}${error.fields[key]}` : undefined;
}

function CategoryPicker({ selected, onChange, error }: { selected: string[]; onChange: (slugs: string[]) => void; error?: string }) {
  const { store } = useWorkspace();
  const errorId = useId();
  const toggle = (slug: string) => onChange(selected.includes(slug) ? selected.filter((s) => s !== slug) : [...selected, slug]);
  return (
    <fieldset className={`field checkbox-group${error ? ' field-invalid' : ''}`} aria-describedby={error ? errorId : undefined}>
      <legend>Categories</legend>
      {store.categories.length === 0 ? (
        <p className="muted">
          This store has no categories yet; a product needs at least one. <Link to="categories">Create a category</Link>.
        </p>
      ) : (
        <div className="checkbox-list">
          {store.categories.map((c) => (
            <label key={c.id} className="checkbox">
              <input type="checkbox" checked={selected.includes(c.slug)} onChange={() => toggle(c.slug)} />
              {c.name}
            </label>
          ))}
        </div>
      )}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function DescriptionField({
  form,
  setDescription,
  error,
  productId,
}: {
  form: ProductForm;
  setDescription: (text: string) => void;
  error?: string;
  productId: string | null;
}) {
  const { storeId, store } = useWorkspace();
  const [tone, setTone] = useState<DescriptionTone>('neutral');
  const [busy, setBusy] = useState(false);
  const [generated, setGenerated] = useState<string | null>(null);
  const [genError, setGenError] = useState<ApiError | null>(null);

  const generate = async () => {
    setGenError(null);
    setGenerated(null);
    if (!form.name.trim() && !productId) {
      setGenError({ code: 'error', message: 'Enter the product name first: the description is written from it.', fields: {} });
      return;
    }
    setBusy(true);
    try {
      const category = store.categories.find((c) => form.categorySlugs.includes(c.slug))?.name;
      const data = await mutate(GenerateProductDescriptionDocument, {
        storeId,
        input: {
          ...(productId ? { productId } : {}),
          ...(form.name.trim() ? { name: form.name.trim() } : {}),
          ...(category ? { category } : {}),
          tags: splitList(form.tags),
          tone,
        },
      });
      setDescription(data.generateProductDescription.description);
      setGenerated(`Written by ${data.generateProductDescription.provider} (${data.generateProductDescription.model}). Check it before saving.`);
    } catch (caught) {
      setGenError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Field label="Description" error={error}>
        {(p) => <textarea {...p} rows={6} value={form.description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <div className="generate-row">
        <label htmlFor="generate-tone">Tone</label>
        <select id="generate-tone" value={tone} onChange={(e) => setTone(e.target.value as DescriptionTone)}>
          <option value="neutral">Neutral</option>
          <option value="friendly">Friendly</option>
          <option value="luxury">Luxury</option>
          <option value="playful">Playful</option>
        </select>
        <button type="button" className="button-secondary" onClick={() => void generate()} disabled={busy}>
          {busy ? 'Writing…' : 'Generate description'}
        </button>
      </div>
      <p role="status" className="hint">
        {generated ?? ''}
      </p>
      <ErrorMessage error={genError} />
    </>
  );
}

function VariantsEditor({
  rows,
  onChange,
  error,
  localErrors,
  currency,
  basePrice,
}: {
  rows: VariantRow[];
  onChange: (rows: VariantRow[]) => void;
  error: ApiError | null;
  localErrors: FieldErrors;
  currency: string;
  basePrice: string;
}) {
  const update = (index: number, key: keyof VariantRow, value: string) => onChange(rows.map((r, i) => (i === index ? { ...r, [key]: value } : r)));
  const rowError = (index: number, field: string) => localErrors[`variants.${index}.${field}`] ?? error?.fields[`variants.${index}.${field}`];
  /** Problems of a row that no cell shows (the row as a whole, or a field without a column). */
  const rowErrors = (index: number) =>
    Object.entries({ ...(error?.fields ?? {}), ...localErrors })
      .filter(([key]) => key === `variants.${index}` || (key.startsWith(`variants.${index}.`) && !VARIANT_COLUMNS.includes(key.split('.')[2] ?? '')))
      .map(([key, message]) => (key.split('.')[2] ? `${key.split('.').slice(2).join('.')}: ${message}` : message));
  const general = error && Object.keys(error.fields).length === 0 ? error : null;
  return (
    <section className="panel" aria-labelledby="section-variants">
      <h2 id="section-variants">Variants</h2>
      {error && !general ? (
        <p className="field-error" role="alert">
          The variants were not saved: correct the rows marked below.
        </p>
      ) : null}
      <ErrorMessage error={general} title="The variants were not saved." />
      {rows.length === 0 ? <p className="muted">No variants: the product is sold as it is. Add variants for sizes, colours and the like.</p> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table variants-table">
            <caption className="visually-hidden">Variants</caption>
            <thead>
              <tr>
                <th scope="col">SKU</th>
                <th scope="col">Title</th>
                <th scope="col">Options (name=value, …)</th>
                <th scope="col">Price ({currency})</th>
                <th scope="col">Inventory</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const n = index + 1;
                const messages = rowErrors(index);
                const cell = (field: keyof VariantRow & string, label: string, extra: Record<string, unknown> = {}) => {
                  const message = rowError(index, field);
                  const errorId = `${row.key}-${field}-error`;
                  return (
                    <td>
                      <input
                        aria-label={`${label} of variant ${n}`}
                        value={row[field]}
                        onChange={(e) => update(index, field, e.target.value)}
                        aria-invalid={message ? true : undefined}
                        aria-describedby={message ? errorId : undefined}
                        {...extra}
                      />
                      {message ? (
                        <p className="field-error" id={errorId}>
                          {message}
                        </p>
                      ) : null}
                    </td>
                  );
                };
                return [
                  <tr key={row.key}>
                    {cell('sku', 'SKU')}
                    {cell('title', 'Title')}
                    {cell('options', 'Options', { placeholder: 'Color=Red, Size=M' })}
                    {cell('price', 'Price', { inputMode: 'decimal', placeholder: basePrice || 'product price' })}
                    {cell('inventoryQuantity', 'Inventory', { type: 'number', min: 0, step: 1 })}
                    <td>
                      <button type="button" className="button-secondary button-small" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                        Remove<span className="visually-hidden"> variant {n}</span>
                      </button>
                    </td>
                  </tr>,
                  messages.length ? (
                    <tr key={`${row.key}-errors`} className="row-errors">
                      <td colSpan={6}>
                        <ul className="field-error">
                          {messages.map((m) => (
                            <li key={m}>
                              Variant {n}: {m}
                            </li>
                          ))}
                        </ul>
                      </td>
                    </tr>
                  ) : null,
                ];
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <button type="button" className="button-secondary" onClick={() => onChange([...rows, emptyVariant()])}>
        Add variant
      </button>
      <p className="muted small">An empty price uses the product's price ({basePrice ? formatMoney(basePrice, currency) : 'not set'}). Variants are saved with the product.</p>
    </section>
  );
}

const VARIANT_COLUMNS = ['sku', 'title', 'options', 'price', 'inventoryQuantity'];

function SeoEditor({
  seo,
  onChange,
  error,
  productName,
  productDescription,
}: {
  seo: SeoForm;
  onChange: (seo: SeoForm) => void;
  error: ApiError | null;
  productName: string;
  productDescription: string;
}) {
  const set = <K extends keyof SeoForm>(key: K, value: SeoForm[K]) => onChange({ ...seo, [key]: value });
  const fieldError = (field: string) => error?.fields[field] ?? (error?.code === 'slug_taken' && field === 'slug' ? error.message : undefined);
  const general = error && Object.keys(error.fields).length === 0 && error.code !== 'slug_taken' ? error : null;
  const previewTitle = seo.title.trim() || productName.trim() || 'Product title';
  const previewDescription = seo.description.trim() || productDescription.trim() || 'A short description of the product appears here.';
  const slug = seo.slug.trim() || 'your-product';
  const host = window.location.host;
  return (
    <section className="panel" aria-labelledby="section-seo">
      <h2 id="section-seo">Search engine listing</h2>
      <ErrorMessage error={general} title="The search engine listing was not saved." />
      {error && !general ? (
        <p className="field-error" role="alert">
          The search engine listing was not saved: correct the fields marked below.
        </p>
      ) : null}
      <div className="seo-layout">
        <div>
          <Field label="Page title" hint={`${seo.title.length} of 70 characters; empty: the product name.`} error={fieldError('title')}>
            {(p) => <input {...p} value={seo.title} onChange={(e) => set('title', e.target.value)} />}
          </Field>
          <Field label="Meta description" hint={`${seo.description.length} of 320 characters.`} error={fieldError('description')}>
            {(p) => <textarea {...p} rows={3} value={seo.description} onChange={(e) => set('description', e.target.value)} />}
          </Field>
          <Field label="URL slug" hint="Lowercase letters, digits and hyphens; unique in the store." error={fieldError('slug')}>
            {(p) => <input {...p} value={seo.slug} onChange={(e) => set('slug', e.target.value)} />}
          </Field>
          <Field label="Canonical URL" error={fieldError('canonicalUrl')}>
            {(p) => <input {...p} type="url" value={seo.canonicalUrl} onChange={(e) => set('canonicalUrl', e.target.value)} placeholder="https://…" />}
          </Field>
          <Field label="Social image URL" error={fieldError('ogImageUrl')}>
            {(p) => <input {...p} type="url" value={seo.ogImageUrl} onChange={(e) => set('ogImageUrl', e.target.value)} placeholder="https://…" />}
          </Field>
          <div className="field field-check">
            <input id="seo-noindex" type="checkbox" checked={seo.noindex} onChange={(e) => set('noindex', e.target.checked)} />
            <label htmlFor="seo-noindex">Hide from search engines (noindex)</label>
          </div>
        </div>
        <figure className="serp">
          <figcaption>Search result preview</figcaption>
          <div className="serp-card">
            <p className="serp-url">
              {host} › products › {slug}
            </p>
            <p className="serp-title">{truncate(previewTitle, 60)}</p>
            <p className="serp-description">{truncate(previewDescription, 160)}</p>
            {seo.noindex ? <p className="serp-note">Hidden from search engines: this result would not appear.</p> : null}
          </div>
        </figure>
      </div>
    </section>
  );
}

const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];

/** An image in the order being arranged, with the alt text being typed. */
interface ArrangedImage {
  id: string;
  alt: string;
}

const byPosition = (images: ProductDetailFragment['images']) => [...images].sort((a, b) => a.position - b.position);

function ImagesEditor({ product, onChanged, onConflict }: { product: ProductDetailFragment; onChanged: () => Promise<void>; onConflict: () => void }) {
  const { storeId, mode } = useWorkspace();
  const baseId = useId();
  const [alt, setAlt] = useState('');
  const [uploading, setUploading] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [status, setStatus] = useState('');
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const saved = byPosition(product.images);
  // The order and alt texts as saved; a draft made from another saved state (an upload, a removal, a reload) is dropped.
  const savedKey = JSON.stringify(saved.map((i) => [i.id, i.alt ?? '']));
  const [draft, setDraft] = useState<{ from: string; rows: ArrangedImage[] } | null>(null);
  const rows: ArrangedImage[] = draft && draft.from === savedKey ? draft.rows : saved.map((i) => ({ id: i.id, alt: i.alt ?? '' }));
  const arrangementChanged = rows.some((row, index) => row.id !== saved[index]?.id || row.alt.trim() !== (saved[index]?.alt ?? ''));
  const [arranging, setArranging] = useState(false);
  const [arrangeError, setArrangeError] = useState<ApiError | null>(null);
  const [focusAfterMove, setFocusAfterMove] = useState<string | null>(null);
  const imagesById = new Map(product.images.map((i) => [i.id, i]));

  useEffect(() => {
    if (!focusAfterMove) return;
    document.getElementById(focusAfterMove)?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  const setRows = (next: ArrangedImage[]) => setDraft({ from: savedKey, rows: next });

  const move = (index: number, by: -1 | 1) => {
    const target = index + by;
    if (target < 0 || target >= rows.length) return;
    const next = [...rows];
    const [moved] = next.splice(index, 1);
    next.splice(target, 0, moved!);
    setRows(next);
    setStatus(`Image ${index + 1} moved to position ${target + 1}. Save to keep the new order.`);
    // Keep the focus on the moved image: on the same button, or on the other one when it reached an end.
    const atEnd = by === -1 ? target === 0 : target === next.length - 1;
    const direction = atEnd ? (by === -1 ? 'down' : 'up') : by === -1 ? 'up' : 'down';
    if (next.length > 1) setFocusAfterMove(`${baseId}-${moved!.id}-${direction}`);
  };

  const saveArrangement = async () => {
    setError(null);
    setArrangeError(null);
    setStatus('');
    setArranging(true);
    try {
      await mutate(ArrangeProductImagesDocument, {
        storeId,
        mode,
        productId: product.id,
        expectedVersion: product.version,
        images: rows.map((row) => ({ id: row.id, alt: row.alt.trim() || null })),
      });
      // The draft stays shown until the refreshed product replaces it (it is kept only for the saved state it came from).
      setStatus('Saved the image order and alt text.');
      await onChanged();
    } catch (caught) {
      const apiError = toApiError(caught);
      if (apiError.code === 'precondition_failed') {
        onConflict();
        setStatus('The image order and alt text were not saved: the product changed since you opened it (see the message at the top).');
      } else {
        setArrangeError(apiError);
      }
    } finally {
      setArranging(false);
    }
  };


  const upload = async (files: FileList | File[]) => {
    setError(null);
    setStatus('');
    for (const file of Array.from(files)) {
      setUploading(file.name);
      try {
        await uploadMutation(UploadProductImageDocument, { storeId, mode, productId: product.id, alt: alt.trim() || null, file }, 'file', file);
        setStatus(`Uploaded ${file.name}.`);
      } catch (caught) {
        const apiError = toApiError(caught);
        setError({ ...apiError, message: `${file.name}: ${uploadMessage(apiError)}` });
        break;
      } finally {
        setUploading(null);
      }
    }
    setAlt('');
    if (inputRef.current) inputRef.current.value = '';
    await onChanged();
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (event.dataTransfer.files.length) void upload(event.dataTransfer.files);
  };

  const removeImage = async (id: string) => {
    setError(null);
    try {
      await mutate(RemoveProductImageDocument, { storeId, mode, productId: product.id, id });
      setStatus('Image removed.');
      await onChanged();
    } catch (caught) {
      setError(toApiError(caught));
    }
  };

  return (
    <section className="panel" aria-labelledby="section-images">
      <h2 id="section-images">Images</h2>
      {product.images.length === 0 ? <p className="muted">No images yet.</p> : null}
      {product.images.length > 0 ? (
        <>
          <ul className="image-grid">
            {rows.map((row, index) => {
              const image = imagesById.get(row.id);
              if (!image) return null;
              const n = index + 1;
              const altId = `${baseId}-${image.id}-alt`;
              return (
                <li key={image.id} className="image-card">
                  <img src={image.url} alt={image.alt ?? `Image ${n} of ${product.name}`} width={160} height={Math.round((160 * image.height) / Math.max(1, image.width))} />
                  <p className="small">
                    {index === 0 ? 'Main image · ' : ''}
                    {image.width}×{image.height}, {Math.round(image.sizeBytes / 1024)} kB
                  </p>
                  <div className="field image-alt-field">
                    <label htmlFor={altId}>
                      Alt text<span className="visually-hidden"> of image {n}</span>
                    </label>
                    <input id={altId} value={row.alt} maxLength={500} onChange={(e) => setRows(rows.map((r, i) => (i === index ? { ...r, alt: e.target.value } : r)))} />
                  </div>
                  <div className="button-row image-card-actions">
                    <button
                      type="button"
                      id={`${baseId}-${image.id}-up`}
                      className="button-secondary button-small"
                      onClick={() => move(index, -1)}
                      disabled={index === 0 || arranging}
                    >
                      Move <span className="visually-hidden">image {n} </span>up
                    </button>
                    <button
                      type="button"
                      id={`${baseId}-${image.id}-down`}
                      className="button-secondary button-small"
                      onClick={() => move(index, 1)}
                      disabled={index === rows.length - 1 || arranging}
                    >
                      Move <span className="visually-hidden">image {n} </span>down
                    </button>
                    <ConfirmButton confirmLabel="Remove" question="Remove this image?" onConfirm={() => removeImage(image.id)} className="button-secondary button-small">
                      Remove<span className="visually-hidden"> image {n}</span>
                    </ConfirmButton>
                  </div>
                </li>
              );
            })}
          </ul>
          <div className="button-row image-arrange-actions">
            <button type="button" onClick={() => void saveArrangement()} disabled={!arrangementChanged || arranging}>
              {arranging ? 'Saving…' : 'Save image order and alt text'}
            </button>
            {arrangementChanged && !arranging ? (
              <button type="button" className="button-secondary" onClick={() => setDraft(null)}>
                Discard image changes
              </button>
            ) : null}
          </div>
          <ErrorMessage error={arrangeError} title="The image order and alt text were not saved." />
        </>
      ) : null}
      <div
        className={`dropzone${dragging ? ' dropzone-active' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="image-dropzone"
      >
        <p>Drop JPEG, PNG or WebP images here (up to 10 MB each), or choose files:</p>
        <div className="grid-2">
          <div className="field">
            <label htmlFor="image-file">Image files</label>
            <input id="image-file" ref={inputRef} type="file" accept={ACCEPTED.join(',')} multiple onChange={(e) => e.target.files && void upload(e.target.files)} />
          </div>
          <div className="field">
            <label htmlFor="image-alt">Alt text for the next upload</label>
            <input id="image-alt" value={alt} onChange={(e) => setAlt(e.target.value)} maxLength={1000} />
          </div>
        </div>
      </div>
      <p role="status" className="hint">
        {uploading ? `Uploading ${uploading}…` : status}
      </p>
      <ErrorMessage error={error} title="The image was not added." />
    </section>
  );
}

function uploadMessage(error: ApiError): string {
  switch (error.code) {
    case 'unsupported_media_type':
      return 'this file type is not accepted: upload a JPEG, PNG or WebP image.';
    case 'payload_too_large':
      return 'the file is too large (at most 10 MB).';
    case 'image_dimensions_too_large':
      return 'the image has too many pixels (at most 40 megapixels).';
    case 'invalid_image':
      return 'the file could not be read as an image.';
    default:
      return error.message;
  }
}
