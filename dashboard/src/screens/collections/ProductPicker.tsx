import { useEffect, useRef, useState } from 'react';
import { query, toApiError, type ApiError } from '../../api/client';
import { ErrorMessage } from '../../components/ui';
import { CollectionProductSearchDocument, type CollectionMemberFragment } from '../../generated/graphql';
import { useWorkspace } from '../../session';
import { MemberLine } from './MemberLine';
import { matchCountText } from './rules';

/**
 * Finds products of the catalog by name, tag or SKU as the merchant types (a moment after the last key) and adds
 * one with its Add button; products already in the collection say so instead.
 */
export function ProductPicker({ inputId, isMember, onAdd, disabled }: { inputId: string; isMember: (id: string) => boolean; onAdd: (p: CollectionMemberFragment) => void; disabled: boolean }) {
  const { storeId, mode, store } = useWorkspace();
  const [text, setText] = useState('');
  const [result, setResult] = useState<{ items: CollectionMemberFragment[]; total: number; exact: boolean; for: string } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const asked = useRef(0);
  const search = text.trim();

  useEffect(() => {
    const ask = ++asked.current;
    if (!search) {
      setResult(null);
      setError(null);
      return undefined;
    }
    const timer = setTimeout(() => {
      query(CollectionProductSearchDocument, { storeId, mode, search })
        .then((d) => {
          if (ask !== asked.current) return;
          setError(null);
          setResult({ items: d.products.items, total: d.products.meta.total, exact: d.products.meta.totalExact, for: search });
        })
        .catch((caught) => ask === asked.current && setError(toApiError(caught)));
    }, 300);
    return () => clearTimeout(timer);
  }, [search, storeId, mode]);

  return (
    <div className="product-picker" role="search" aria-label="Product search">
      <div className="field">
        <label htmlFor={inputId}>Add products</label>
        <input
          id={inputId}
          type="search"
          value={text}
          placeholder="Search by name, tag or SKU"
          aria-describedby={`${inputId}-status`}
          onChange={(e) => setText(e.target.value)}
          // The search runs as one types; Enter must not send the collection's form.
          onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
        />
      </div>
      <p className="hint" id={`${inputId}-status`} role="status">
        {!search
          ? ''
          : !result || result.for !== search
            ? 'Searching…'
            : result.total === 0
              ? `No products match “${result.for}”.`
              : `${matchCountText(result.total, result.exact)} “${result.for}”${result.total > result.items.length ? `; the first ${result.items.length} are shown` : ''}.`}
      </p>
      <ErrorMessage error={error} title="The search failed." />
      {result && result.items.length > 0 ? (
        <ul className="picker-results">
          {result.items.map((p) => {
            const member = isMember(p.id);
            return (
              <MemberLine key={p.id} product={p} currency={store.currency} plain>
                {member ? (
                  <span className="muted small">In the collection</span>
                ) : (
                  <button type="button" className="button-small" onClick={() => onAdd(p)} disabled={disabled}>
                    Add<span className="visually-hidden"> {p.name}</span>
                  </button>
                )}
              </MemberLine>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
