import { type FormEvent, useEffect, useRef, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../api/client';
import { LoadedPage } from '../components/loadedPage';
import { ConfirmButton, ErrorMessage, ErrorSummary, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import {
  CreateProductDocument,
  DeleteProductDocument,
  ProductDocument,
  ProductVersionDocument,
  PublishProductDetailDocument,
  SetProductSeoDocument,
  UnpublishProductDetailDocument,
  UpdateProductDocument,
  type ProductDetailFragment,
} from '../generated/graphql';
import { formatDateTime } from '../lib/format';
import { listPath } from '../lib/listState';
import { Link, navigate, useLeaveGuard } from '../lib/router';
import { useWorkspace } from '../session';
import { categoryError } from './editor/CategoryPicker';
import { CurrencyPrices } from './editor/CurrencyPrices';
import { EditorMain, EditorSide, errorSummary } from './editor/EditorSections';
import {
  createInput,
  emptyForm,
  emptySeo,
  formFromProduct,
  seoChanged,
  seoFromProduct,
  seoInput,
  updateInput,
  type FieldErrors,
  type ProductForm,
  type SeoForm,
} from './productForm';
import { createParts, draftFromProduct, optionsSaved, noVariantErrors, planGrid, savePlan, variantErrorsOf, variantSummary, variantsDirty, type VariantErrors, type VariantsDraft } from './editor/variantDraft';
import { writeVariants } from './editor/variantSave';
import { isPending, StageButton, StagedBadge, stagedErrorInWords, StagedPanel, StagedPendingAlert, targetArgs, type SaveTarget } from './editor/StagedChanges';
import { StatusBadge } from './ProductList';

/** What a just-created product's page should show: a search listing that was refused after the product was created. */
interface Handoff {
  seo?: { form: SeoForm; error: ApiError };
}
const handoffs = new Map<string, Handoff>();

/** The editable state as text, to tell whether anything was edited since the last load or save (the variants tell by their save plan). */
/** The toast group of a save's outcome: the latest save's word replaces the one before. */
const saveOutcome = 'product-save';

const snapshotOf = (form: ProductForm, seo: SeoForm) => JSON.stringify([form, null, seo]);

export function ProductEditorPage({ productId }: { productId: string | null }) {
  const { storeId, mode } = useWorkspace();
  return (
    <LoadedPage
      id={productId}
      fetch={async (id) => (await query(ProductDocument, { storeId, mode, id })).product}
      words={{ noun: 'product', back: { to: 'products', label: 'the products' } }}
      render={(product, reload) => <Editor product={product} reload={reload} />}
    />
  );
}

function Editor({ product: loaded, reload }: { product: ProductDetailFragment | null; reload: () => Promise<ProductDetailFragment | undefined> }) {
  const { storeId, mode, store } = useWorkspace();
  const toast = useToast();
  const creating = loaded === null;
  const [handoff] = useState(() => (loaded ? handoffs.get(loaded.id) : undefined));
  useEffect(() => {
    if (loaded) handoffs.delete(loaded.id);
  }, [loaded]);

  const [current, setCurrent] = useState<ProductDetailFragment | null>(loaded);
  const [form, setForm] = useState<ProductForm>(() => (loaded ? formFromProduct(loaded) : emptyForm()));
  const [variants, setVariants] = useState<VariantsDraft>(() => draftFromProduct(loaded));
  const [seo, setSeo] = useState<SeoForm>(() => handoff?.seo?.form ?? (loaded ? seoFromProduct(loaded) : emptySeo()));
  const [baseline, setBaseline] = useState(() => snapshotOf(form, loaded ? seoFromProduct(loaded) : emptySeo()));
  const [coreError, setCoreError] = useState<ApiError | null>(null);
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});
  const [variantErrors, setVariantErrors] = useState<VariantErrors>(noVariantErrors);
  const [seoError, setSeoError] = useState<ApiError | null>(handoff?.seo?.error ?? null);
  const [conflict, setConflict] = useState(false);
  // A live save refused because the product has staged changes: the editor offers the ways on.
  const [pending, setPending] = useState(false);
  const [saving, setSaving] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  // The conflict's toast, closed once the latest version is loaded (from it or from the page's own button).
  const conflictToast = useRef<number | null>(null);

  const dirty = snapshotOf(form, seo) !== baseline || variantsDirty(variants, current, form.name);
  useLeaveGuard(dirty && !saving);

  const fieldError = (field: string) => localErrors[field] ?? (field === 'categorySlugs' ? categoryError(coreError) : coreError?.fields[field]);

  const resetFrom = (fresh: ProductDetailFragment) => {
    const nextForm = formFromProduct(fresh);
    const nextSeo = seoFromProduct(fresh);
    setCurrent(fresh);
    setForm(nextForm);
    setVariants(draftFromProduct(fresh));
    setSeo(nextSeo);
    setBaseline(snapshotOf(nextForm, nextSeo));
    setCoreError(null);
    setVariantErrors(noVariantErrors());
    setSeoError(null);
    setLocalErrors({});
    setConflict(false);
    setPending(false);
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
      if (conflictToast.current !== null) toast.dismiss(conflictToast.current);
      conflictToast.current = null;
      resetFrom(fresh);
      toast.show({ tone: 'info', message: 'Reloaded the latest version of the product.' });
    }
  };

  const showPending = () => {
    setPending(true);
    toast.show({ group: saveOutcome, tone: 'warning', message: 'Not saved: this product has staged changes. Choose how to save at the top of the page.' });
  };

  const showConflict = () => {
    setConflict(true);
    conflictToast.current = toast.show({
      group: saveOutcome,
      tone: 'error',
      message: 'This product changed since you opened it: your changes were not saved.',
      action: { label: 'Reload the latest version', onAction: () => void onReload() },
    });
  };

  /** Shows a refused save: the summary at the top of the form, focused, and a toast where the eye is. */
  const refused = (errors: FieldErrors, error: ApiError | null, what: string) => {
    const count = new Set([...Object.keys(errors), ...Object.keys(error?.fields ?? {})]).size + (categoryError(error) && !error?.fields.categorySlugs ? 1 : 0);
    toast.show({
      group: saveOutcome,
      tone: 'error',
      message: count ? `${what} was not saved: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.` : `${what} was not saved.`,
      details: count ? undefined : error?.message,
    });
    requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const save = async (event?: FormEvent, target: SaveTarget = 'live') => {
    event?.preventDefault();
    setCoreError(null);
    setVariantErrors(noVariantErrors());
    setSeoError(null);
    setPending(false);
    const needsVariants = variantsDirty(variants, current, form.name);
    const needsSeo = seoChanged(seo, current);
    if (creating) {
      const { input, errors, shown } = createInput(form);
      setLocalErrors({ ...shown, ...errors });
      if (Object.keys(errors).length) {
        refused(errors, null, 'The product');
        return;
      }
      setSaving(true);
      let created: ProductDetailFragment;
      const { rowIds, ...parts } = createParts(variants, form.name);
      try {
        // The product, its options and its variants are one write: all are created, or nothing is.
        created = (await mutate(CreateProductDocument, { storeId, mode, input: { ...input, ...parts } })).createProduct;
      } catch (caught) {
        const apiError = toApiError(caught);
        setCoreError(apiError);
        if (Object.keys(apiError.fields).some((f) => /^(variants|options)\b/.test(f))) setVariantErrors(variantErrorsOf(apiError, variants.options, rowIds, parts.variants));
        setSaving(false);
        refused(shown, apiError, 'The product');
        return;
      }
      const next: Handoff = {};
      if (needsSeo) {
        try {
          await mutate(SetProductSeoDocument, { storeId, mode, productId: created.id, input: seoInput(seo) });
        } catch (caught) {
          next.seo = { form: seo, error: toApiError(caught) };
        }
      }
      handoffs.set(created.id, next);
      toast.show(
        next.seo
          ? { tone: 'warning', message: `Created “${created.name}”, but its search engine listing was not saved: see that section.` }
          : { message: `Created “${created.name}”.` },
      );
      navigate(`products/${created.id}`, { replace: true, force: true });
      return;
    }

    if (!current) return;
    const { input, errors, shown } = updateInput(form, current);
    setLocalErrors({ ...shown, ...errors });
    if (Object.keys(errors).length) {
      refused(errors, null, 'The product');
      return;
    }
    const needsCore = Object.keys(input).length > 0;
    if (!needsCore && !needsVariants && !needsSeo) {
      toast.show({ group: saveOutcome, tone: 'info', message: 'Nothing to save: no changes.' });
      return;
    }
    setSaving(true);
    let version = current.version;
    try {
      if (needsCore) {
        try {
          const updated = (await mutate(UpdateProductDocument, { storeId, mode, id: current.id, expectedVersion: current.version, input, ...targetArgs(target) })).updateProduct;
          // A staged write answers the staged version: the editor keeps showing the live product.
          if (target !== 'staged') setCurrent(updated);
          version = updated.version;
        } catch (caught) {
          const apiError = toApiError(caught);
          if (apiError.code === 'precondition_failed') showConflict();
          else if (isPending(apiError)) showPending();
          else {
            setCoreError(stagedErrorInWords(apiError));
            refused(shown, stagedErrorInWords(apiError), 'The product');
          }
          return;
        }
      } else {
        // Variants and SEO take no expected version: check it first, so that a newer change is not overwritten.
        const latest = (await query(ProductVersionDocument, { storeId, mode, id: current.id })).product;
        if (latest.version !== current.version) {
          showConflict();
          return;
        }
      }
      const failed: string[] = [];
      let refusedAsPending = false;
      if (needsVariants) {
        // The options first, then one variant write, each on the version the previous write left.
        const result = await writeVariants({ storeId, mode, productId: current.id, version }, savePlan(variants, current, form.name), variants, target);
        if (result.conflict) {
          showConflict();
          return;
        }
        if (result.pending) {
          refusedAsPending = true;
          failed.push('variants');
        } else if (result.errors) {
          setVariantErrors(result.errors);
          failed.push(result.failed === 'options' ? 'options' : 'variants');
          // The options were saved: they are the product's now, whatever the variants' write said.
          if (result.optionsSaved) setVariants(optionsSaved);
        }
      }
      if (needsSeo) {
        try {
          await mutate(SetProductSeoDocument, { storeId, mode, productId: current.id, input: seoInput(seo), ...targetArgs(target) });
        } catch (caught) {
          if (isPending(toApiError(caught))) refusedAsPending = true;
          else setSeoError(stagedErrorInWords(toApiError(caught)));
          failed.push('search engine listing');
        }
      }
      const fresh = (await query(ProductDocument, { storeId, mode, id: current.id })).product;
      if (refusedAsPending) showPending();
      if (refusedAsPending && !needsCore && failed.length === Number(needsVariants) + Number(needsSeo)) {
        // Nothing was written: the whole save waits for the merchant's choice.
        adopt(fresh, 0);
      } else if (failed.length) {
        const verb = failed.length > 1 || /s$/.test(failed[0]!) ? 'were' : 'was';
        setCurrent(fresh);
        setForm(formFromProduct(fresh));
        toast.show({
          group: saveOutcome,
          tone: 'error',
          message: needsCore
            ? `The product details were saved, but its ${failed.join(' and ')} ${verb} not: see the sections marked.`
            : `The product's ${failed.join(' and ')} ${verb} not saved: see the sections marked.`,
        });
        requestAnimationFrame(() => summaryRef.current?.focus());
      } else {
        resetFrom(fresh);
        toast.show({ group: saveOutcome, message: target === 'staged' ? 'Staged: these changes are not live until you publish them.' : 'Saved.' });
      }
    } catch (caught) {
      const apiError = toApiError(caught);
      setCoreError(apiError);
      refused({}, apiError, 'The product');
    } finally {
      setSaving(false);
    }
  };

  const publishToggle = async (action: 'publish' | 'unpublish') => {
    if (!current) return;
    try {
      const variables = { storeId, mode, id: current.id };
      const fresh =
        action === 'publish'
          ? (await mutate(PublishProductDetailDocument, variables)).publishProduct
          : (await mutate(UnpublishProductDetailDocument, variables)).unpublishProduct;
      const changed = fresh.status !== current.status;
      // The list's shape of the product: its images lack the editor's sizes, so the editor keeps its own.
      const { images: _listImages, ...published } = fresh;
      adopt(published, changed ? 1 : 0);
      setForm((f) => ({ ...f, status: fresh.status }));
      // The status shown in the form follows, without counting as an edit.
      setBaseline((b) => {
        const parsed = JSON.parse(b) as [ProductForm, unknown, unknown];
        return JSON.stringify([{ ...parsed[0], status: fresh.status }, parsed[1], parsed[2]]);
      });
      toast.show({ message: action === 'publish' ? 'Published: the product is active.' : 'Unpublished: the product is a draft again.' });
    } catch (caught) {
      toast.show({ tone: 'error', message: action === 'publish' ? 'The product was not published.' : 'The product was not unpublished.', details: toApiError(caught).message });
    }
  };

  const remove = async () => {
    if (!current) return;
    try {
      await mutate(DeleteProductDocument, { storeId, mode, id: current.id });
      toast.show({ message: `Deleted “${current.name}”.` });
      navigate(listPath(), { force: true });
    } catch (caught) {
      toast.show({ tone: 'error', message: `“${current.name}” was not deleted.`, details: toApiError(caught).message });
    }
  };

  const refreshImages = async () => {
    if (!current) return;
    const fresh = (await query(ProductDocument, { storeId, mode, id: current.id })).product;
    adopt({ images: fresh.images, version: fresh.version, updatedAt: fresh.updatedAt });
  };

  const set = <K extends keyof ProductForm>(key: K, value: ProductForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const title = creating ? 'New product' : current?.name || 'Product';
  const summary = [
    ...errorSummary({ local: localErrors, error: coreError, seoError, currency: store.currency }),
    ...variantSummary(variantErrors, variants, planGrid(variants, current, form.name)),
  ];

  return (
    <>
      <PageTitle
        actions={
          current ? (
            <>
              <StatusBadge status={current.status} />
              {current.hasStagedChanges ? <StagedBadge /> : null}
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
              <Link to={`products/${current.id}/translate`} className="button button-secondary">
                Translate
              </Link>
            </>
          ) : null
        }
      >
        {title}
      </PageTitle>
      <p className="breadcrumb">
        <Link to={listPath()}>← All products</Link>
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
      {pending ? <StagedPendingAlert busy={saving} onBoth={() => void save(undefined, 'both')} onStage={() => void save(undefined, 'staged')} /> : null}
      {current ? (
        <StagedPanel
          product={current}
          dirty={dirty}
          onChanged={async () => {
            const fresh = await reload();
            if (fresh) resetFrom(fresh);
          }}
        />
      ) : null}
      {coreError && summary.length === 0 ? <ErrorMessage error={coreError} title="The product was not saved." /> : null}

      <form className="editor-layout" onSubmit={save} noValidate aria-label={title}>
        <ErrorSummary what="The product" items={saving ? [] : summary} ref={summaryRef} />
        <EditorMain
          form={form}
          set={set}
          fieldError={fieldError}
          coreError={coreError}
          current={current}
          variants={variants}
          setVariants={setVariants}
          variantErrors={variantErrors}
          seo={seo}
          setSeo={setSeo}
          seoError={seoError}
          onImagesChanged={refreshImages}
          onConflict={showConflict}
          pricing={current ? <CurrencyPrices productId={current.id} version={current.version} onSaved={(written) => adopt(written)} onConflict={showConflict} /> : null}
        />
        <EditorSide form={form} set={set} fieldError={fieldError} coreError={coreError} current={current} onPublish={publishToggle}>
          {current ? (
            <section className="panel danger-zone" aria-labelledby="section-delete">
              <h2 id="section-delete">Delete</h2>
              <p>Deleting removes the product with its variants, search listing and images. It cannot be undone.</p>
              <ConfirmButton confirmLabel="Delete for good" question={`Delete “${current.name}”?`} onConfirm={remove}>
                Delete product
              </ConfirmButton>
            </section>
          ) : null}
        </EditorSide>
        <div className="save-bar">
          {dirty ? <span className="save-bar-note">Unsaved changes</span> : null}
          <button type="submit" className="button-primary" disabled={saving}>
            {saving ? 'Saving…' : creating ? 'Create product' : 'Save changes'}
          </button>
          {creating ? null : <StageButton disabled={saving} onStage={() => void save(undefined, 'staged')} />}
          {creating ? (
            <Link to={listPath()} className="button button-secondary">
              Cancel
            </Link>
          ) : null}
        </div>
      </form>
    </>
  );
}
