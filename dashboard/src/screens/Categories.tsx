import { type FormEvent, useState } from 'react';
import { mutate, toApiError, type ApiError } from '../api/client';
import { ConfirmButton, EmptyState, ErrorMessage, Field, Notice, PageTitle } from '../components/ui';
import { CreateCategoryDocument, DeleteCategoryDocument, UpdateCategoryDocument } from '../generated/graphql';
import { useWorkspace } from '../session';
import { slugify } from './productForm';

/** The store's categories (shared by the test and live catalogs). */
export function CategoriesPage() {
  const { store, storeId, reloadSession } = useWorkspace();
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  return (
    <>
      <PageTitle>Categories</PageTitle>
      <p className="muted">Categories belong to the store: the test and live catalogs share them. Every product needs at least one.</p>
      {notice ? <Notice>{notice}</Notice> : null}
      <ErrorMessage error={error} />
      <CategoryForm
        title="New category"
        submitLabel="Add category"
        onSubmit={async (input) => {
          await mutate(CreateCategoryDocument, { storeId, input });
          await reloadSession();
          setNotice(`Added “${input.name}”.`);
        }}
      />
      <section aria-labelledby="categories-title">
        <h2 id="categories-title">All categories</h2>
        {store.categories.length === 0 ? (
          <EmptyState title="No categories yet." />
        ) : (
          <ul className="category-list">
            {store.categories.map((category) => (
              <CategoryItem
                key={category.id}
                category={category}
                onSaved={async (input) => {
                  await mutate(UpdateCategoryDocument, { storeId, category: category.id, input });
                  await reloadSession();
                  setNotice(`Saved “${input.name}”.`);
                }}
                onDelete={async () => {
                  setError(null);
                  try {
                    await mutate(DeleteCategoryDocument, { storeId, category: category.id });
                    await reloadSession();
                    setNotice(`Deleted “${category.name}”.`);
                  } catch (caught) {
                    setError(toApiError(caught));
                  }
                }}
              />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function CategoryItem({
  category,
  onSaved,
  onDelete,
}: {
  category: { id: string; name: string; slug: string };
  onSaved: (input: { name: string; slug: string }) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <li className="category-item">
        <CategoryForm
          title={`Edit ${category.name}`}
          initial={category}
          submitLabel="Save"
          onCancel={() => setEditing(false)}
          onSubmit={async (input) => {
            await onSaved(input);
            setEditing(false);
          }}
        />
      </li>
    );
  }
  return (
    <li className="category-item">
      <span>
        <strong>{category.name}</strong> <code className="muted">{category.slug}</code>
      </span>
      <span className="row-actions">
        <button type="button" className="button-secondary button-small" onClick={() => setEditing(true)}>
          Edit<span className="visually-hidden"> {category.name}</span>
        </button>
        <ConfirmButton confirmLabel="Delete" question={`Delete “${category.name}”?`} onConfirm={onDelete} className="button-danger button-small">
          Delete<span className="visually-hidden"> {category.name}</span>
        </ConfirmButton>
      </span>
    </li>
  );
}

function CategoryForm({
  title,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  title: string;
  initial?: { name: string; slug: string };
  submitLabel: string;
  onSubmit: (input: { name: string; slug: string }) => Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [slug, setSlug] = useState(initial?.slug ?? '');
  const [slugTouched, setSlugTouched] = useState(Boolean(initial));
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await onSubmit({ name: name.trim(), slug: slug.trim() });
      if (!initial) {
        setName('');
        setSlug('');
        setSlugTouched(false);
      }
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  const slugError = error?.fields.slug ?? (error?.code === 'slug_taken' ? error.message : undefined);
  const general = error && !error.fields.name && !slugError ? error : null;
  return (
    <form className="panel" onSubmit={submit} noValidate aria-label={title}>
      <div className="grid-3 form-row">
        <Field label="Name" error={error?.fields.name}>
          {(p) => (
            <input
              {...p}
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                if (!slugTouched) setSlug(slugify(e.target.value));
              }}
              required
            />
          )}
        </Field>
        <Field label="Slug" hint="Lowercase letters, digits and hyphens." error={slugError}>
          {(p) => (
            <input
              {...p}
              value={slug}
              onChange={(e) => {
                setSlug(e.target.value);
                setSlugTouched(true);
              }}
              required
            />
          )}
        </Field>
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy || !name.trim() || !slug.trim()}>
            {submitLabel}
          </button>
          {onCancel ? (
            <button type="button" className="button-secondary" onClick={onCancel}>
              Cancel
            </button>
          ) : null}
        </div>
      </div>
      <ErrorMessage error={general} />
    </form>
  );
}
