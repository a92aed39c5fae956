import { type FormEvent, useEffect, useRef, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../../api/client';
import { LoadedPage } from '../../components/loadedPage';
import { Badge, ConfirmButton, ErrorMessage, ErrorSummary, Field, PageTitle } from '../../components/ui';
import { useToast } from '../../components/toasts';
import {
  CollectionDocument,
  CollectionMembershipDocument,
  CreateCollectionDocument,
  DeleteCollectionDocument,
  UpdateCollectionDocument,
  type CollectionDetailFragment,
  type CollectionKind,
  type CollectionMatch,
  type CollectionSort,
  type CollectionUpdateInput,
} from '../../generated/graphql';
import { formatDateTime } from '../../lib/format';
import { Link, navigate, useLeaveGuard, useLocation } from '../../lib/router';
import { useWorkspace } from '../../session';
import { slugify } from '../productForm';
import { ManualProducts } from './ManualProducts';
import { MatchCount, RuleBuilder } from './RuleBuilder';
import { newRule, type RuleRow, ruleErrorText, rulesFromCollection, rulesInput, rulesSnapshot } from './rules';

const SORT_LABELS: Record<CollectionSort, string> = {
  manual: 'Manual order',
  newest: 'Newest first',
  name: 'Name',
  price_asc: 'Price, lowest first',
  price_desc: 'Price, highest first',
};

interface Form {
  kind: CollectionKind;
  title: string;
  slug: string;
  description: string;
  sort: CollectionSort;
  published: boolean;
  match: CollectionMatch;
  rules: RuleRow[];
}

const emptyForm = (kind: CollectionKind): Form => ({ kind, title: '', slug: '', description: '', sort: kind === 'manual' ? 'manual' : 'newest', published: false, match: 'all', rules: kind === 'smart' ? [newRule()] : [] });

const formFrom = (c: CollectionDetailFragment): Form => ({
  kind: c.kind,
  title: c.title,
  slug: c.slug,
  description: c.description,
  sort: c.sort,
  published: c.published,
  match: c.match,
  rules: rulesFromCollection(c),
});

const snapshotOf = (f: Form) => JSON.stringify({ ...f, rules: rulesSnapshot(f.rules) });

/** A field's name as the form labels it, for the error summary. */
function fieldLabel(path: string): string {
  const rule = /^rules\.(\d+)\.(\w+)$/.exec(path);
  if (rule) {
    const part = rule[2] === 'field' ? 'what it looks at' : rule[2] === 'operator' ? 'condition' : rule[2] === 'attribute' ? 'attribute' : 'value';
    return `Rule ${Number(rule[1]) + 1}, ${part}`;
  }
  return { title: 'Title', slug: 'Web address', description: 'Description', sort: 'Sort products by', published: 'Show on the storefront', match: 'Products must match', rules: 'Rules', kind: 'Type' }[path] ?? path;
}

export function CollectionEditorPage({ collectionId }: { collectionId: string | null }) {
  const { storeId, mode } = useWorkspace();
  return (
    <LoadedPage
      id={collectionId}
      fetch={async (collection) => (await query(CollectionDocument, { storeId, mode, collection })).collection}
      words={{ noun: 'collection', back: { to: 'collections', label: 'the collections' } }}
      render={(collection, reload) => <Editor loaded={collection} reload={reload} />}
    />
  );
}

function Editor({ loaded, reload }: { loaded: CollectionDetailFragment | null; reload: () => Promise<CollectionDetailFragment | undefined> }) {
  const { storeId, mode } = useWorkspace();
  const { search } = useLocation();
  const toast = useToast();
  const creating = loaded === null;
  const [current, setCurrent] = useState<CollectionDetailFragment | null>(loaded);
  const [form, setForm] = useState<Form>(() => (loaded ? formFrom(loaded) : emptyForm(search.get('kind') === 'smart' ? 'smart' : 'manual')));
  const [baseline, setBaseline] = useState(() => snapshotOf(form));
  const [slugTouched, setSlugTouched] = useState(!creating);
  const [saveError, setSaveError] = useState<ApiError | null>(null);
  const [previewError, setPreviewError] = useState<ApiError | null>(null);
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const conflictToast = useRef<number | null>(null);
  // A refused save's notice stays until closed; a later save that works closes it.
  const refusedToast = useRef<number | null>(null);
  const closeRefused = () => {
    if (refusedToast.current !== null) toast.dismiss(refusedToast.current);
    refusedToast.current = null;
  };

  const dirty = snapshotOf(form) !== baseline;
  useLeaveGuard(dirty && !saving);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  /** Edited rules: a refused save's marks on rules no longer apply (their numbers may have moved). */
  const setRules = (rows: RuleRow[]) => {
    set('rules', rows);
    setSaveError((error) => {
      if (!error) return error;
      const fields = Object.fromEntries(Object.entries(error.fields).filter(([field]) => !field.startsWith('rules')));
      return Object.keys(fields).length || error.code !== 'validation_failed' ? { ...error, fields } : null;
    });
  };

  const resetFrom = (fresh: CollectionDetailFragment) => {
    const next = formFrom(fresh);
    setCurrent(fresh);
    setForm(next);
    setBaseline(snapshotOf(next));
    setSaveError(null);
    setPreviewError(null);
    setConflict(false);
  };

  /** A field's error in the merchant's words: the save's, else (for rules) the live preview's. */
  const errorAt = (path: string): string | undefined => {
    const raw = saveError?.fields[path] ?? (path.startsWith('rules') ? previewError?.fields[path] : undefined);
    if (path === 'slug' && !raw && saveError?.code === 'slug_taken') return 'Another collection already has this web address: choose another.';
    if (!raw) return undefined;
    const rule = /^rules\.(\d+)\.(\w+)$/.exec(path);
    if (rule) return ruleErrorText(form.rules[Number(rule[1])], rule[2]!, raw);
    if (path === 'slug') return /already used/.test(raw) ? 'Another collection already has this web address: choose another.' : 'Use lowercase letters, digits and single hyphens.';
    if (path === 'rules') return 'Add at least one rule.';
    if (path === 'title' && /empty|required/.test(raw)) return 'Enter a title.';
    return raw;
  };
  const summary = saveError ? Object.keys(saveError.fields).map((field) => ({ field, label: fieldLabel(field), message: errorAt(field) ?? saveError.fields[field]! })) : [];
  if (saveError?.code === 'slug_taken' && !saveError.fields.slug) summary.push({ field: 'slug', label: fieldLabel('slug'), message: errorAt('slug')! });

  const onReload = async () => {
    const fresh = await reload();
    if (!fresh) return;
    if (conflictToast.current !== null) toast.dismiss(conflictToast.current);
    conflictToast.current = null;
    resetFrom(fresh);
    toast.show({ tone: 'info', message: 'Reloaded the latest version of the collection.' });
  };

  const showConflict = () => {
    setConflict(true);
    conflictToast.current = toast.show({
      tone: 'error',
      message: 'This collection changed since you opened it: your change was not saved.',
      action: { label: 'Reload the latest version', onAction: () => void onReload() },
    });
  };

  const refused = (error: ApiError) => {
    setSaveError(error);
    const count = Object.keys(error.fields).length + (error.code === 'slug_taken' && !error.fields.slug ? 1 : 0);
    closeRefused();
    refusedToast.current = toast.show({
      tone: 'error',
      message: count ? `The collection was not saved: ${count === 1 ? 'one field needs' : `${count} fields need`} correcting.` : 'The collection was not saved.',
      details: count ? undefined : error.message,
    });
    requestAnimationFrame(() => summaryRef.current?.focus());
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaveError(null);
    const rulesChanged = rulesSnapshot(form.rules) !== rulesSnapshot(current ? rulesFromCollection(current) : []);
    setSaving(true);
    try {
      if (creating) {
        const created = (
          await mutate(CreateCollectionDocument, {
            storeId,
            mode,
            input: {
              kind: form.kind,
              title: form.title.trim(),
              ...(form.slug.trim() ? { slug: form.slug.trim() } : {}),
              description: form.description,
              sort: form.sort,
              published: form.published,
              ...(form.kind === 'smart' ? { rules: rulesInput(form.rules), match: form.match } : {}),
            },
          })
        ).createCollection;
        closeRefused();
        toast.show({ message: `Created “${created.title}”.` });
        navigate(`collections/${created.id}`, { replace: true, force: true });
        return;
      }
      if (!current) return;
      const input: CollectionUpdateInput = {};
      if (form.title !== current.title) input.title = form.title.trim();
      if (form.slug !== current.slug) input.slug = form.slug.trim();
      if (form.description !== current.description) input.description = form.description;
      if (form.sort !== current.sort) input.sort = form.sort;
      if (form.published !== current.published) input.published = form.published;
      if (current.kind === 'smart' && form.match !== current.match) input.match = form.match;
      if (current.kind === 'smart' && rulesChanged) input.rules = rulesInput(form.rules);
      if (!Object.keys(input).length) {
        toast.show({ tone: 'info', message: 'Nothing to save: no changes.' });
        return;
      }
      const updated = (await mutate(UpdateCollectionDocument, { storeId, mode, collection: current.id, expectedVersion: current.version, input })).updateCollection;
      resetFrom(updated);
      closeRefused();
      toast.show({ message: updated.membership.state === 'recomputing' ? 'Saved. The products are being brought up to date with the new rules.' : 'Saved.' });
    } catch (caught) {
      const error = toApiError(caught);
      if (error.code === 'precondition_failed') showConflict();
      else refused(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!current) return;
    try {
      await mutate(DeleteCollectionDocument, { storeId, mode, collection: current.id });
      toast.show({ message: `Deleted “${current.title}”. Its products were not changed.` });
      navigate('collections', { force: true });
    } catch (caught) {
      toast.show({ tone: 'error', message: `“${current.title}” was not deleted.`, details: toApiError(caught).message });
    }
  };

  const title = creating ? 'New collection' : current?.title || 'Collection';
  const sorts = (Object.keys(SORT_LABELS) as CollectionSort[]).filter((s) => form.kind === 'manual' || s !== 'manual');
  const smart = form.kind === 'smart';

  return (
    <>
      <PageTitle
        actions={
          current ? (
            <>
              <Badge tone={current.kind === 'smart' ? 'blue' : 'grey'}>{current.kind === 'smart' ? 'Smart' : 'Manual'}</Badge>
              {current.published ? <Badge tone="green">Published</Badge> : <Badge tone="grey">Hidden</Badge>}
            </>
          ) : null
        }
      >
        {title}
      </PageTitle>
      <p className="breadcrumb">
        <Link to="collections">← All collections</Link>
        {current ? (
          <span className="muted">
            {' '}
            · {current.productsCount.toLocaleString()} product{current.productsCount === 1 ? '' : 's'} · updated {formatDateTime(current.updatedAt)}
          </span>
        ) : null}
      </p>

      {conflict ? (
        <div className="alert alert-warning" role="alert">
          <p className="alert-title">This collection changed since you opened it.</p>
          <p>Someone else (or you, in another window) changed it, so your change was not saved, to avoid overwriting theirs. Reload to see the latest version, then make your change again.</p>
          <button type="button" onClick={() => void onReload()}>
            Reload
          </button>
        </div>
      ) : null}
      {current?.kind === 'smart' && current.membership.state === 'recomputing' ? (
        <MembershipProgress
          collection={current}
          onDone={async () => {
            const fresh = await reload();
            if (!fresh) return;
            setCurrent((c) => (c ? { ...c, productsCount: fresh.productsCount, membership: fresh.membership } : c));
            toast.show({ message: `The collection is up to date: ${fresh.productsCount.toLocaleString()} product${fresh.productsCount === 1 ? '' : 's'}.` });
          }}
        />
      ) : null}

      <form className="editor-layout" onSubmit={save} noValidate aria-label={title}>
        <ErrorSummary what="The collection" items={saving ? [] : summary} ref={summaryRef} />
        {saveError && summary.length === 0 && !saving ? <ErrorMessage error={saveError} title="The collection was not saved." /> : null}
        <div className="editor-main">
          <section className="panel" aria-labelledby="collection-details">
            <h2 id="collection-details">Details</h2>
            {creating ? (
              <fieldset className="field collection-kind">
                <legend>Type</legend>
                {(['manual', 'smart'] as const).map((kind) => (
                  <label key={kind} className="checkbox">
                    <input
                      type="radio"
                      name="collection-kind"
                      checked={form.kind === kind}
                      onChange={() =>
                        setForm((f) => ({
                          ...f,
                          kind,
                          sort: kind === 'smart' && f.sort === 'manual' ? 'newest' : kind === 'manual' && f.sort === 'newest' ? 'manual' : f.sort,
                          rules: kind === 'smart' && f.rules.length === 0 ? [newRule()] : f.rules,
                        }))
                      }
                    />
                    {kind === 'manual' ? 'Manual: you choose the products and their order' : 'Smart: the products that match rules you set'}
                  </label>
                ))}
              </fieldset>
            ) : null}
            <Field label="Title" error={errorAt('title')}>
              {(p) => (
                <input
                  {...p}
                  value={form.title}
                  maxLength={255}
                  required
                  onChange={(e) => {
                    const value = e.target.value;
                    setForm((f) => ({ ...f, title: value, slug: slugTouched ? f.slug : slugify(value) }));
                  }}
                />
              )}
            </Field>
            <Field label="Web address" hint={creating ? 'Made from the title; lowercase letters, digits and hyphens.' : 'Changing it changes the collection’s address on the storefront.'} error={errorAt('slug')}>
              {(p) => (
                <input
                  {...p}
                  value={form.slug}
                  maxLength={200}
                  onChange={(e) => {
                    set('slug', e.target.value);
                    setSlugTouched(true);
                  }}
                />
              )}
            </Field>
            <Field label="Description" error={errorAt('description')}>
              {(p) => <textarea {...p} rows={3} value={form.description} onChange={(e) => set('description', e.target.value)} />}
            </Field>
          </section>

          {smart ? (
            <section className="panel" aria-labelledby="collection-rules">
              <h2 id="collection-rules">Rules</h2>
              <p className="hint">Products that match join the collection, and leave it when they no longer match, as soon as they are saved.</p>
              <RuleBuilder rows={form.rules} setRows={setRules} match={form.match} setMatch={(m) => set('match', m)} errorAt={errorAt} />
              <MatchCount rows={form.rules} match={form.match} sort={form.sort} onErrors={setPreviewError} />
            </section>
          ) : (
            <section className="panel" aria-labelledby="collection-products">
              <h2 id="collection-products">Products</h2>
              {current ? <ManualProducts collection={current} onCollection={(c) => setCurrent((before) => (before ? { ...before, version: c.version, productsCount: c.productsCount, updatedAt: c.updatedAt } : c))} onConflict={showConflict} /> : <p className="muted">Create the collection, then add its products here.</p>}
            </section>
          )}
        </div>
        <div className="editor-side">
          <section className="panel" aria-labelledby="collection-visibility">
            <h2 id="collection-visibility">Storefront</h2>
            <div className="field field-check">
              <input id="collection-published" type="checkbox" checked={form.published} onChange={(e) => set('published', e.target.checked)} />
              <label htmlFor="collection-published">Show on the storefront</label>
            </div>
            <Field label="Sort products by" error={errorAt('sort')}>
              {(p) => (
                <select {...p} value={form.sort} onChange={(e) => set('sort', e.target.value as CollectionSort)}>
                  {sorts.map((s) => (
                    <option key={s} value={s}>
                      {SORT_LABELS[s]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </section>
          {current ? (
            <section className="panel danger-zone" aria-labelledby="collection-delete">
              <h2 id="collection-delete">Delete</h2>
              <p>Deleting removes the collection from the storefront and the dashboard. Its products stay as they are.</p>
              <ConfirmButton confirmLabel="Delete for good" question={`Delete “${current.title}”?`} onConfirm={remove}>
                Delete collection
              </ConfirmButton>
            </section>
          ) : null}
        </div>
        <div className="save-bar">
          {dirty ? <span className="save-bar-note">Unsaved changes</span> : null}
          <button type="submit" className="button-primary" disabled={saving}>
            {saving ? 'Saving…' : creating ? 'Create collection' : 'Save changes'}
          </button>
          {creating ? (
            <Link to="collections" className="button button-secondary">
              Cancel
            </Link>
          ) : null}
        </div>
      </form>
    </>
  );
}

/** A rule change in a large catalog is applied by a background job: its progress, read again every few seconds. */
function MembershipProgress({ collection, onDone }: { collection: CollectionDetailFragment; onDone: () => Promise<void> }) {
  const { storeId, mode } = useWorkspace();
  const [progress, setProgress] = useState(collection.membership);
  const doneRef = useRef(onDone);
  doneRef.current = onDone;
  useEffect(() => {
    let live = true;
    const timer = setInterval(() => {
      query(CollectionMembershipDocument, { storeId, mode, collection: collection.id })
        .then((d) => {
          if (!live) return;
          setProgress(d.collection.membership);
          if (d.collection.membership.state === 'current') {
            clearInterval(timer);
            void doneRef.current();
          }
        })
        .catch(() => undefined);
    }, 1500);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [storeId, mode, collection.id]);
  return (
    <div className="alert alert-info membership-progress" role="status">
      <p className="alert-title">Updating the products of this collection to its new rules…</p>
      <progress max={Math.max(1, progress.total)} value={progress.done} aria-label="Products checked" />
      <p>
        {progress.done.toLocaleString()} of {progress.total.toLocaleString()} products checked. You can leave this page: the update goes on.
      </p>
    </div>
  );
}
