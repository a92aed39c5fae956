import { useId } from 'react';
import type { ApiError } from '../../api/client';
import { Link } from '../../lib/router';
import { useWorkspace } from '../../session';

/** The categories' problem in the merchant's words (the service speaks of slugs). */
export function categoryError(error: ApiError | null): string | undefined {
  if (!error) return undefined;
  const message = error.code === 'category_required' || error.code === 'unknown_category' ? error.message : (error.fields.categorySlugs ?? error.fields.category_slugs);
  if (!message) return undefined;
  if (/at least one category/i.test(message)) return 'choose at least one category';
  if (/no category with slug|unknown category/i.test(message)) return 'a chosen category no longer exists: reload the page and choose again';
  return message;
}

export function firstIndexed(error: ApiError | null, field: string): string | undefined {
  if (!error) return undefined;
  const key = Object.keys(error.fields).find((k) => k.startsWith(`${field}.`));
  return key ? `${key.slice(field.length + 1) ? `item ${Number(key.split('.')[1]) + 1}: ` : ''}${error.fields[key]}` : undefined;
}

export function CategoryPicker({ selected, onChange, error }: { selected: string[]; onChange: (slugs: string[]) => void; error?: string }) {
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
