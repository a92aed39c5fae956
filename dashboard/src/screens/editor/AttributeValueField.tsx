import { lazy, Suspense, useEffect, useId, useState, type ReactNode } from 'react';
import { query } from '../../api/client';
import { Loading } from '../../components/ui';
import { ProductListDocument } from '../../generated/graphql';
import { fromDateTimeLocal, toDateTimeLocal } from '../../lib/format';
import { useWorkspace } from '../../session';
import type { AttributeDef } from '../attributes/catalog';
import '../attributes/attributes.css';

const RichTextEditor = lazy(() => import('./RichTextEditor'));

/**
 * One attribute's value, with the input its type calls for: text, a rich text editor, a number with its unit,
 * a checkbox, the native date (and date-time) picker, a select, checkboxes for several choices, colour chips
 * for a swatch, a product or category for a reference. The value is in the API's encoding (null: none).
 */
export function AttributeValueField({
  attribute,
  value,
  onChange,
  error,
  required,
  label,
}: {
  attribute: AttributeDef;
  value: unknown;
  onChange: (value: unknown) => void;
  error?: string;
  required?: boolean;
  /** The visible label (default: the attribute's name). */
  label?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const name = label ?? attribute.name;
  const title = (
    <>
      {name}
      {attribute.unit ? ` (${attribute.unit})` : ''}
      {required ? <span className="required-mark"> (required)</span> : null}
    </>
  );
  const errorText = error ? (
    <p className="field-error" id={errorId}>
      {error}
    </p>
  ) : null;
  const described = error ? errorId : undefined;
  const invalid = error ? true : undefined;
  const text = typeof value === 'string' ? value : '';

  const simple = (input: ReactNode, hint?: string) => (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{title}</label>
      {input}
      {hint ? (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {errorText}
    </div>
  );
  const describedWithHint = [hintId, described].filter(Boolean).join(' ');

  switch (attribute.type) {
    case 'plain_text':
      return simple(<input id={id} value={text} onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)} maxLength={1000} aria-describedby={described} aria-invalid={invalid} required={required} />);
    case 'numeric':
      return simple(
        <NumberInput id={id} value={typeof value === 'number' ? value : null} onChange={onChange} describedBy={described} invalid={invalid} required={required} />,
      );
    case 'date':
      return simple(<input id={id} type="date" value={text} onChange={(e) => onChange(e.target.value || null)} aria-describedby={described} aria-invalid={invalid} required={required} />);
    case 'date_time':
      return simple(
        <input
          id={id}
          type="datetime-local"
          value={toDateTimeLocal(text)}
          onChange={(e) => onChange(fromDateTimeLocal(e.target.value))}
          aria-describedby={describedWithHint}
          aria-invalid={invalid}
          required={required}
        />,
        `In your time zone (${Intl.DateTimeFormat().resolvedOptions().timeZone}).`,
      );
    case 'dropdown':
      return simple(
        <select id={id} value={text} onChange={(e) => onChange(e.target.value || null)} aria-describedby={described} aria-invalid={invalid} required={required}>
          <option value="">— Not set —</option>
          {attribute.values.map((v) => (
            <option key={v.value} value={v.value}>
              {v.name}
            </option>
          ))}
        </select>,
      );
    case 'reference':
      return simple(<ReferenceSelect id={id} attribute={attribute} value={text} onChange={onChange} describedBy={described} invalid={invalid} />);
    case 'boolean':
      return (
        <div className={`field field-check${error ? ' field-invalid' : ''}`}>
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} aria-describedby={described} aria-invalid={invalid} />
          <label htmlFor={id}>{title}</label>
          {errorText}
        </div>
      );
    case 'rich_text':
      return (
        <div className={`field${error ? ' field-invalid' : ''}`}>
          <span className="field-label" id={`${id}-label`}>
            {title}
          </span>
          <Suspense fallback={<Loading label="Loading the text editor…" />}>
            <RichTextEditor value={text} onChange={onChange} labelId={`${id}-label`} describedBy={described} invalid={Boolean(error)} />
          </Suspense>
          {errorText}
        </div>
      );
    case 'multiselect': {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      const toggle = (key: string) => {
        const next = chosen.includes(key) ? chosen.filter((k) => k !== key) : [...chosen, key];
        // In the attribute's order, as the service stores them; none is no value.
        const ordered = attribute.values.map((v) => v.value).filter((k) => next.includes(k));
        onChange(ordered.length ? ordered : null);
      };
      return (
        <fieldset className={`field checkbox-group${error ? ' field-invalid' : ''}`} aria-describedby={described} aria-invalid={invalid}>
          <legend>{title}</legend>
          <div className="checkbox-list">
            {attribute.values.map((v) => (
              <label key={v.value} className="checkbox">
                <input type="checkbox" checked={chosen.includes(v.value)} onChange={() => toggle(v.value)} />
                {v.name}
              </label>
            ))}
          </div>
          {errorText}
        </fieldset>
      );
    }
    case 'swatch':
      return (
        <fieldset className={`field swatch-group${error ? ' field-invalid' : ''}`} role="radiogroup" aria-describedby={described} aria-invalid={invalid} aria-required={required}>
          <legend>{title}</legend>
          <div className="swatch-list">
            {attribute.values.map((v) => (
              <label key={v.value} className={`swatch-choice${text === v.value ? ' swatch-chosen' : ''}`}>
                <input type="radio" name={id} value={v.value} checked={text === v.value} onChange={() => onChange(v.value)} />
                <Chip hex={v.hex} />
                {v.name}
              </label>
            ))}
            {!required || text === '' ? (
              <label className={`swatch-choice${text === '' ? ' swatch-chosen' : ''}`}>
                <input type="radio" name={id} value="" checked={text === ''} onChange={() => onChange(null)} />
                None
              </label>
            ) : null}
          </div>
          {errorText}
        </fieldset>
      );
  }
}

/** A colour chip (the swatch's colour; its name stands beside it). */
export function Chip({ hex }: { hex: string | null | undefined }) {
  return <span className="swatch-chip" aria-hidden="true" style={{ backgroundColor: hex ?? 'transparent' }} />;
}

/** A number as typed (1.50 stays 1.50 while typing); the value is the number, null when empty. */
function NumberInput({
  id,
  value,
  onChange,
  describedBy,
  invalid,
  required,
}: {
  id: string;
  value: number | null;
  onChange: (value: unknown) => void;
  describedBy?: string;
  invalid?: boolean;
  required?: boolean;
}) {
  const [text, setText] = useState(value === null ? '' : String(value));
  useEffect(() => {
    setText((current) => (current !== '' && Number(current) === value ? current : value === null ? '' : String(value)));
  }, [value]);
  return (
    <input
      id={id}
      type="number"
      step="any"
      inputMode="decimal"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = e.target.value === '' ? null : Number(e.target.value);
        onChange(n === null || Number.isFinite(n) ? n : null);
      }}
      aria-describedby={describedBy}
      aria-invalid={invalid}
      required={required}
    />
  );
}

/** A category of the store, or one of the catalog's products (by name), for a reference attribute. */
function ReferenceSelect({
  id,
  attribute,
  value,
  onChange,
  describedBy,
  invalid,
}: {
  id: string;
  attribute: AttributeDef;
  value: string;
  onChange: (value: unknown) => void;
  describedBy?: string;
  invalid?: boolean;
}) {
  const { store, storeId, mode } = useWorkspace();
  const [products, setProducts] = useState<{ id: string; name: string }[] | null>(null);
  useEffect(() => {
    if (attribute.referenceType !== 'product') return;
    let live = true;
    void query(ProductListDocument, { storeId, mode, page: 1, perPage: 100, sort: 'NAME_ASC' })
      .then((data) => live && setProducts(data.products.items.map((p) => ({ id: p.id, name: p.name }))))
      .catch(() => live && setProducts([]));
    return () => {
      live = false;
    };
  }, [attribute.referenceType, storeId, mode]);
  const options = attribute.referenceType === 'category' ? store.categories.map((c) => ({ id: c.id, name: c.name })) : (products ?? []);
  const known = value === '' || options.some((o) => o.id === value);
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value || null)} aria-describedby={describedBy} aria-invalid={invalid}>
      <option value="">— Not set —</option>
      {!known ? <option value={value}>The one chosen before</option> : null}
      {options.map((o) => (
        <option key={o.id} value={o.id}>
          {o.name}
        </option>
      ))}
    </select>
  );
}
