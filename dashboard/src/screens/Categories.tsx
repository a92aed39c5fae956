import { type FormEvent, useState } from 'react';
import { mutate, toApiError, type ApiError } from '../api/client';
import { ConfirmButton, EmptyState, ErrorMessage, Field, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import { CreateCategoryDocument, DeleteCategoryDocument, UpdateCategoryDocument } from '../generated/graphql';
import { useWorkspace } from '../session';
import { slugify } from './productForm';

/** The store's categories (shared by the test and live catalogs). */
export function CategoriesPage() {
  const { store, storeId, reloadSession } = useWorkspace();
  const toast = useToast();
  const setNotice = (message: string) => toast.show({ message });

  return (
    <>
      <PageTitle>Categories</PageTitle>
      <p className="muted">Categories belong to the store: the test and live catalogs share them. Every product needs at least one.</p>
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
                  try {
                    await mutate(DeleteCategoryDocument, { storeId, category: category.id });
                    await reloadSession();
                    setNotice(`Deleted “${category.name}”.`);
                  } catch (caught) {
                    toast.show({ tone: 'error', message: `“${category.name}” was not deleted.`, details: deleteRefusal(toApiError(caught)) });
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

/** Why a category could not be deleted, in the merchant's words (the service names the slug and its code). */
function deleteRefusal(error: ApiError): string {
  if (error.code === 'category_in_use') {
    const used = /used by (\d+) product/.exec(error.message)?.[1];
    return `${used ? `${used} product${used === '1' ? ' is' : 's are'}` : 'Products are'} still in it: move ${used === '1' ? 'it' : 'them'} to another category first.`;
  }
  return error.message;
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
