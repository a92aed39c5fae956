import { type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { ConfirmButton } from '../../components/ui';
import type { ProductDetailFragment } from '../../generated/graphql';
import { LIMITS, newOptionId, planGrid, type OptionDraft, type VariantErrors, type VariantsDraft } from './variantDraft';

/**
 * The options that make the variants (Size, Color): a name each, and its values as chips: type a value and press
 * Enter (or a comma) to add it, move it earlier or later, remove it. Removing an option asks first and says which
 * variants go away.
 */
export function OptionsBuilder({
  draft,
  onChange,
  product,
  productName,
  errors,
}: {
  draft: VariantsDraft;
  onChange: (draft: VariantsDraft) => void;
  product: ProductDetailFragment | null;
  productName: string;
  errors: VariantErrors;
}) {
  const [focusNew, setFocusNew] = useState<string | null>(null);
  const setOptions = (options: OptionDraft[]) => onChange({ ...draft, options });
  const update = (id: string, change: Partial<OptionDraft>) => setOptions(draft.options.map((o) => (o.id === id ? { ...o, ...change } : o)));
  const add = () => {
    const id = newOptionId();
    setOptions([...draft.options, { id, name: '', original: null, values: [], origins: [] }]);
    setFocusNew(id);
  };
  /** The variants that removing this option would delete (two that become one combination: the later goes). */
  const goneWithout = (id: string) => {
    const before = new Set(planGrid(draft, product, productName).removed.map((r) => r.variant.id));
    return planGrid({ ...draft, options: draft.options.filter((o) => o.id !== id) }, product, productName).removed.filter((r) => !before.has(r.variant.id));
  };

  return (
    <div className="options-builder">
      <h3 id="options-heading">Options</h3>
      <p className="muted small">
        Options such as Size or Color make the variants: one for each combination of their values. Up to {LIMITS.options} options of {LIMITS.values} values
        each.
      </p>
      {errors.options.all ? (
        <p className="field-error" role="alert">
          {errors.options.all}
        </p>
      ) : null}
      {draft.options.map((option, index) => {
        const gone = goneWithout(option.id);
        const label = option.name.trim() || `option ${index + 1}`;
        return (
          <OptionEditor
            key={option.id}
            option={option}
            index={index}
            autoFocus={focusNew === option.id}
            nameError={errors.options[`${option.id}.name`]}
            valuesError={errors.options[`${option.id}.values`]}
            onChange={(change) => update(option.id, change)}
            otherNames={draft.options.filter((o) => o.id !== option.id).map((o) => o.name.trim().toLocaleLowerCase())}
            remove={
              <ConfirmButton
                className="button-secondary button-small"
                confirmLabel={`Remove ${label}`}
                question={
                  gone.length
                    ? `Remove ${label}? ${gone.length === 1 ? 'This variant goes' : `These ${gone.length} variants go`} away when you save: ${gone.map((g) => g.label).join(', ')}.`
                    : `Remove ${label}? ${product?.variants.length ? `The variants lose their ${label}; none goes away.` : 'No variant goes away.'}`
                }
                onConfirm={() => setOptions(draft.options.filter((o) => o.id !== option.id))}
              >
                Remove option<span className="visually-hidden"> {label}</span>
              </ConfirmButton>
            }
          />
        );
      })}
      <button type="button" className="button-secondary" onClick={add} disabled={draft.options.length >= LIMITS.options}>
        Add option
      </button>
      {draft.options.length >= LIMITS.options ? <p className="hint">A product has at most {LIMITS.options} options.</p> : null}
    </div>
  );
}

function OptionEditor({
  option,
  index,
  autoFocus,
  nameError,
  valuesError,
  onChange,
  otherNames,
  remove,
}: {
  option: OptionDraft;
  index: number;
  autoFocus: boolean;
  nameError?: string;
  valuesError?: string;
  onChange: (change: Partial<OptionDraft>) => void;
  otherNames: string[];
  remove: ReactNode;
}) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const valueRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (autoFocus) nameRef.current?.focus();
  }, [autoFocus]);
  const base = `option-${option.id}`;
  const label = option.name.trim() || `option ${index + 1}`;
  const duplicateName = option.name.trim() !== '' && otherNames.includes(option.name.trim().toLocaleLowerCase());
  const shownNameError = nameError ?? (duplicateName ? 'another option has this name' : undefined);

  const [editing, setEditing] = useState<{ index: number; text: string } | null>(null);
  const addValues = (raw: string) => {
    const values = [...option.values];
    const origins = [...option.origins];
    for (const part of raw.split(',')) {
      const value = part.trim();
      if (!value) continue;
      if (values.some((v) => v.toLocaleLowerCase() === value.toLocaleLowerCase())) {
        setProblem(`“${value}” is already a value of ${label}.`);
        return;
      }
      if (values.length >= LIMITS.values) {
        setProblem(`An option has at most ${LIMITS.values} values.`);
        return;
      }
      values.push(value);
      origins.push(null);
    }
    setProblem(null);
    setText('');
    onChange({ values, origins });
  };
  /** Renames a value in place: its variants keep their place and take the new name. */
  const rename = () => {
    if (!editing) return;
    const value = editing.text.trim();
    const old = option.values[editing.index]!;
    if (value && value !== old) {
      if (option.values.some((v, i) => i !== editing.index && v.toLocaleLowerCase() === value.toLocaleLowerCase())) {
        setProblem(`“${value}” is already a value of ${label}.`);
        return;
      }
      onChange({ values: option.values.map((v, i) => (i === editing.index ? value : v)) });
    }
    setProblem(null);
    setEditing(null);
  };
  const removeAt = (index: number) => onChange({ values: option.values.filter((_, j) => j !== index), origins: option.origins.filter((_, j) => j !== index) });
  const onKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',') {
      // Enter adds the value; it must not submit the product form.
      event.preventDefault();
      addValues(text);
    } else if (event.key === 'Backspace' && text === '' && option.values.length) {
      removeAt(option.values.length - 1);
    }
  };
  const move = (from: number, to: number) => {
    const values = [...option.values];
    const origins = [...option.origins];
    values.splice(to, 0, values.splice(from, 1)[0]!);
    origins.splice(to, 0, origins.splice(from, 1)[0]!);
    onChange({ values, origins });
  };

  return (
    <fieldset className={`option-card${shownNameError || valuesError ? ' option-invalid' : ''}`}>
      <legend>Option {index + 1}</legend>
      <div className="option-row">
        <div className={`field${shownNameError ? ' field-invalid' : ''}`}>
          <label htmlFor={`${base}-name`}>Name of option {index + 1}</label>
          <input
            id={`${base}-name`}
            ref={nameRef}
            value={option.name}
            maxLength={64}
            placeholder="Size, Color, Material…"
            onChange={(e) => onChange({ name: e.target.value })}
            onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), valueRef.current?.focus())}
            aria-invalid={shownNameError ? true : undefined}
            aria-describedby={shownNameError ? `${base}-name-error` : option.original && option.original !== option.name.trim() ? `${base}-renamed` : undefined}
          />
          {option.original && option.name.trim() && option.original !== option.name.trim() ? (
            <p className="hint" id={`${base}-renamed`}>
              Renamed from {option.original}: the variants follow.
            </p>
          ) : null}
          {shownNameError ? (
            <p className="field-error" id={`${base}-name-error`}>
              {shownNameError}
            </p>
          ) : null}
        </div>
        <div className="option-remove">{remove}</div>
      </div>
      <ul className="chips" aria-label={`Values of ${label}`}>
        {option.values.map((value, i) => (
          <li key={option.origins[i] ?? `new-${value}`} className="chip">
            {editing?.index === i ? (
              <input
                className="chip-edit"
                aria-label={`New name for ${value}`}
                value={editing.text}
                maxLength={255}
                autoFocus
                onChange={(e) => setEditing({ index: i, text: e.target.value })}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    rename();
                  } else if (e.key === 'Escape') {
                    setEditing(null);
                    setProblem(null);
                  }
                }}
                onBlur={rename}
              />
            ) : (
              <button type="button" className="chip-text" onClick={() => setEditing({ index: i, text: value })} aria-label={`Rename ${value}`} title="Rename">
                {value}
              </button>
            )}
            {option.origins[i] && option.origins[i] !== value ? <span className="visually-hidden"> (was {option.origins[i]})</span> : null}
            <button type="button" className="chip-button" onClick={() => move(i, i - 1)} disabled={i === 0} aria-label={`Move ${value} earlier`} title="Earlier">
              ‹
            </button>
            <button
              type="button"
              className="chip-button"
              onClick={() => move(i, i + 1)}
              disabled={i === option.values.length - 1}
              aria-label={`Move ${value} later`}
              title="Later"
            >
              ›
            </button>
            <button type="button" className="chip-button" onClick={() => removeAt(i)} aria-label={`Remove ${value}`} title="Remove">
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className={`field${problem || valuesError ? ' field-invalid' : ''}`}>
        <label htmlFor={`${base}-value`}>Add a value to {label}</label>
        <div className="chip-input-row">
          <input
            id={`${base}-value`}
            ref={valueRef}
            value={text}
            maxLength={255}
            onChange={(e) => {
              setText(e.target.value);
              setProblem(null);
            }}
            onKeyDown={onKey}
            aria-describedby={`${base}-value-hint${problem || valuesError ? ` ${base}-value-error` : ''}`}
            aria-invalid={problem || valuesError ? true : undefined}
            disabled={option.values.length >= LIMITS.values}
          />
          <button type="button" className="button-secondary" onClick={() => addValues(text)} disabled={!text.trim()}>
            Add<span className="visually-hidden"> value to {label}</span>
          </button>
        </div>
        <p className="hint" id={`${base}-value-hint`}>
          Press Enter after each value; select a value to rename it. {option.values.length} of {LIMITS.values}.
        </p>
        {problem || valuesError ? (
          <p className="field-error" id={`${base}-value-error`} role={problem ? 'alert' : undefined}>
            {problem ?? valuesError}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}
