import { type FormEvent, useState } from 'react';
import { ConfirmButton, Loading } from '../../components/ui';
import type { BulkAction } from './bulkActions';

type Kind = BulkAction['kind'];

const MORE: { kind: Exclude<Kind, 'publish' | 'unpublish'>; label: string }[] = [
  { kind: 'archive', label: 'Archive' },
  { kind: 'addTags', label: 'Add tags' },
  { kind: 'removeTags', label: 'Remove tags' },
  { kind: 'addCategory', label: 'Add to a category' },
  { kind: 'removeCategory', label: 'Remove from a category' },
  { kind: 'priceAmount', label: 'Change prices by an amount' },
  { kind: 'pricePercent', label: 'Change prices by a percentage' },
  { kind: 'delete', label: 'Delete' },
];

/** The bulk actions over the selected products: publish and unpublish at hand, the others chosen with their value. */
export function BulkBar({
  count,
  busy,
  currency,
  categories,
  onRun,
}: {
  count: number;
  busy: boolean;
  currency: string;
  categories: { slug: string; name: string }[];
  onRun: (action: BulkAction) => void;
}) {
  const [kind, setKind] = useState<(typeof MORE)[number]['kind']>('archive');
  const [value, setValue] = useState('');
  const [slug, setSlug] = useState(categories[0]?.slug ?? '');
  const none = count === 0 || busy;

  const action = (): BulkAction => {
    switch (kind) {
      case 'addTags':
      case 'removeTags':
        return { kind, tags: value };
      case 'addCategory':
      case 'removeCategory':
        return { kind, slug };
      case 'priceAmount':
        return { kind, amount: value };
      case 'pricePercent':
        return { kind, percent: value };
      default:
        return { kind };
    }
  };
  const needsValue = kind === 'addTags' || kind === 'removeTags' || kind === 'priceAmount' || kind === 'pricePercent';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (kind !== 'delete') onRun(action());
  };
  const plural = `${count} product${count === 1 ? '' : 's'}`;

  return (
    <>
      <div className="bulk-bar" role="group" aria-label="Bulk actions">
        <span>{count ? `${count} selected` : 'Select products to change them together.'}</span>
        <button type="button" disabled={none} onClick={() => onRun({ kind: 'publish' })}>
          Publish selected
        </button>
        <button type="button" className="button-secondary" disabled={none} onClick={() => onRun({ kind: 'unpublish' })}>
          Unpublish selected
        </button>
        {busy ? <Loading label="Working…" /> : null}
      </div>
      <form className="bulk-panel" aria-label="More bulk actions" onSubmit={submit}>
        <div className="field">
          <label htmlFor="bulk-action">Bulk action</label>
          <select id="bulk-action" value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
            {MORE.map((m) => (
              <option key={m.kind} value={m.kind}>
                {m.label}
              </option>
            ))}
          </select>
        </div>
        {kind === 'addCategory' || kind === 'removeCategory' ? (
          <div className="field">
            <label htmlFor="bulk-category">Category</label>
            <select id="bulk-category" value={slug} onChange={(e) => setSlug(e.target.value)}>
              {categories.map((c) => (
                <option key={c.slug} value={c.slug}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {needsValue ? (
          <div className="field">
            <label htmlFor="bulk-value">
              {kind === 'priceAmount' ? `Amount (${currency}, e.g. -5 or 2.50)` : kind === 'pricePercent' ? 'Percentage (e.g. -10 or 15)' : 'Tags (comma-separated)'}
            </label>
            <input id="bulk-value" value={value} onChange={(e) => setValue(e.target.value)} inputMode={kind.startsWith('price') ? 'decimal' : undefined} />
          </div>
        ) : null}
        {kind === 'delete' ? (
          <ConfirmButton confirmLabel="Delete for good" question={`Delete ${plural}?`} onConfirm={() => onRun({ kind: 'delete' })} disabled={none}>
            Delete {plural}
          </ConfirmButton>
        ) : (
          <button type="submit" disabled={none || (needsValue && !value.trim())}>
            Apply to {plural}
          </button>
        )}
      </form>
    </>
  );
}
