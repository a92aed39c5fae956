import { useEffect, useId, useRef, useState } from 'react';
import { query, toApiError, type ApiError } from '../../api/client';
import { CollectionRuleChoicesDocument, CollectionRulesPreviewDocument, type CollectionMatch, type CollectionRulesPreviewQuery, type CollectionSort } from '../../generated/graphql';
import { useWorkspace } from '../../session';
import { MemberLine } from './MemberLine';
import { type Attribute, FIELD_LABELS, newRule, OPERATOR_LABELS, operatorsFor, RULE_FIELDS, type RuleField, type RuleRow, matchCountText, rulesComplete, rulesInput, rulesSnapshot, STATUS_LABELS } from './rules';

type Choices = { attributes: Attribute[]; productTypes: { id: string; name: string }[] };

/** The store's attributes and product types, which rules may name (categories come with the session). */
function useRuleChoices(): Choices | null {
  const { storeId } = useWorkspace();
  const [choices, setChoices] = useState<Choices | null>(null);
  useEffect(() => {
    let live = true;
    query(CollectionRuleChoicesDocument, { storeId })
      .then((d) => live && setChoices({ attributes: d.attributes.items, productTypes: d.productTypes.items }))
      .catch(() => live && setChoices({ attributes: [], productTypes: [] }));
    return () => {
      live = false;
    };
  }, [storeId]);
  return choices;
}

/**
 * A smart collection's rules: what each looks at, its condition and a value input that fits (a category or product
 * type picker, an attribute and its values, an amount, a number, a status, a date), and whether products must match
 * all or any of them. Errors show at the rule's part.
 */
export function RuleBuilder({
  rows,
  setRows,
  match,
  setMatch,
  errorAt,
}: {
  rows: RuleRow[];
  setRows: (rows: RuleRow[]) => void;
  match: CollectionMatch;
  setMatch: (match: CollectionMatch) => void;
  errorAt: (path: string) => string | undefined;
}) {
  const choices = useRuleChoices();
  const baseId = useId();
  const [focusRule, setFocusRule] = useState<string | null>(null);
  useEffect(() => {
    if (!focusRule) return;
    document.getElementById(focusRule)?.focus();
    setFocusRule(null);
  }, [focusRule]);

  const update = (index: number, change: Partial<RuleRow>) => setRows(rows.map((r, i) => (i === index ? { ...r, ...change } : r)));
  const listError = errorAt('rules');
  return (
    <div className="rule-builder">
      <fieldset className="rule-match">
        <legend>Products must match</legend>
        <div className="checkbox-list">
          {(['all', 'any'] as const).map((m) => (
            <label key={m} className="checkbox">
              <input type="radio" name={`${baseId}-match`} value={m} checked={match === m} onChange={() => setMatch(m)} />
              {m === 'all' ? 'all rules' : 'any rule'}
            </label>
          ))}
        </div>
      </fieldset>
      <ol className="rule-list">
        {rows.map((row, index) => (
          <RuleEditor
            key={row.key}
            id={`${baseId}-${row.key}`}
            n={index + 1}
            row={row}
            choices={choices}
            onChange={(change) => update(index, change)}
            onRemove={() => {
              setRows(rows.filter((_, i) => i !== index));
              setFocusRule(`${baseId}-add`);
            }}
            errorAt={(part) => errorAt(`rules.${index}.${part}`)}
          />
        ))}
      </ol>
      {listError ? <p className="field-error">{rows.length ? listError : 'Add at least one rule.'}</p> : null}
      <button
        type="button"
        id={`${baseId}-add`}
        className="button-secondary"
        onClick={() => {
          const rule = newRule();
          setRows([...rows, rule]);
          setFocusRule(`${baseId}-${rule.key}-field`);
        }}
      >
        Add rule
      </button>
    </div>
  );
}

function RuleEditor({
  id,
  n,
  row,
  choices,
  onChange,
  onRemove,
  errorAt,
}: {
  id: string;
  n: number;
  row: RuleRow;
  choices: Choices | null;
  onChange: (change: Partial<RuleRow>) => void;
  onRemove: () => void;
  errorAt: (part: string) => string | undefined;
}) {
  const { store } = useWorkspace();
  const attribute = choices?.attributes.find((a) => a.code === row.attribute);
  const operators = operatorsFor(row.field, attribute);
  const of = <span className="visually-hidden"> of rule {n}</span>;
  const part = (name: string) => {
    const error = errorAt(name);
    return { id: `${id}-${name}`, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-${name}-error` : undefined, error };
  };
  const fieldPart = part('field');
  const operatorPart = part('operator');
  const attributePart = part('attribute');
  const valuePart = part('value');
  const errorText = (p: { id: string; error?: string }) =>
    p.error ? (
      <p className="field-error" id={`${p.id}-error`}>
        {p.error}
      </p>
    ) : null;
  const input = ({ error: _error, ...p }: ReturnType<typeof part>) => p;

  const valueInput = () => {
    const p = input(valuePart);
    const set = (value: string) => onChange({ value });
    switch (row.field) {
      case 'category':
        return (
          <select {...p} value={row.value} onChange={(e) => set(e.target.value)}>
            <option value="">Choose a category</option>
            {store.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        );
      case 'product_type':
        return (
          <select {...p} value={row.value} onChange={(e) => set(e.target.value)}>
            <option value="">{choices?.productTypes.length === 0 ? 'This store has no product types' : 'Choose a product type'}</option>
            {choices?.productTypes.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        );
      case 'status':
        return (
          <select {...p} value={row.value} onChange={(e) => set(e.target.value)}>
            {Object.entries(STATUS_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        );
      case 'price':
        return <input {...p} type="number" inputMode="decimal" step="0.01" min="0" value={row.value} onChange={(e) => set(e.target.value)} />;
      case 'inventory':
        return <input {...p} type="number" inputMode="numeric" step="1" value={row.value} onChange={(e) => set(e.target.value)} />;
      case 'created_at':
        return <input {...p} type="datetime-local" value={row.value} onChange={(e) => set(e.target.value)} />;
      case 'attribute':
        if (attribute && attribute.values.length > 0) {
          return (
            <select {...p} value={row.value} onChange={(e) => set(e.target.value)}>
              <option value="">Choose a value</option>
              {attribute.values.map((v) => (
                <option key={v.value} value={v.value}>
                  {v.name}
                </option>
              ))}
            </select>
          );
        }
        if (attribute?.type === 'boolean') {
          return (
            <select {...p} value={row.value} onChange={(e) => set(e.target.value)}>
              <option value="">Choose</option>
              <option value="true">Yes</option>
              <option value="false">No</option>
            </select>
          );
        }
        if (attribute?.type === 'numeric') return <input {...p} type="number" inputMode="decimal" step="any" value={row.value} onChange={(e) => set(e.target.value)} />;
        return <input {...p} value={row.value} onChange={(e) => set(e.target.value)} />;
      default:
        return <input {...p} value={row.value} maxLength={64} onChange={(e) => set(e.target.value)} />;
    }
  };

  const valueLabel = row.field === 'price' ? `Amount (${store.currency})` : row.field === 'created_at' ? 'Date and time' : row.field === 'tag' ? 'Tag' : 'Value';
  return (
    <li className="rule-row" data-testid="rule">
      <div className="field">
        <label htmlFor={fieldPart.id}>Rule {n} looks at</label>
        <select
          {...input(fieldPart)}
          value={row.field}
          onChange={(e) => {
            const field = e.target.value as RuleField;
            onChange({ field, operator: operatorsFor(field)[0]!, value: field === 'status' ? 'active' : '', attribute: '' });
          }}
        >
          {RULE_FIELDS.map((f) => (
            <option key={f} value={f}>
              {FIELD_LABELS[f]}
            </option>
          ))}
        </select>
        {errorText(fieldPart)}
      </div>
      {row.field === 'attribute' ? (
        <div className="field">
          <label htmlFor={attributePart.id}>Attribute{of}</label>
          <select
            {...input(attributePart)}
            value={row.attribute}
            onChange={(e) => {
              const next = choices?.attributes.find((a) => a.code === e.target.value);
              onChange({ attribute: e.target.value, value: '', operator: operatorsFor('attribute', next).includes(row.operator) ? row.operator : 'equals' });
            }}
          >
            <option value="">{choices?.attributes.length === 0 ? 'This store has no attributes' : 'Choose an attribute'}</option>
            {choices?.attributes.map((a) => (
              <option key={a.code} value={a.code}>
                {a.name}
                {a.unit ? ` (${a.unit})` : ''}
              </option>
            ))}
          </select>
          {errorText(attributePart)}
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={operatorPart.id}>Condition{of}</label>
        <select {...input(operatorPart)} value={row.operator} onChange={(e) => onChange({ operator: e.target.value })}>
          {operators.map((o) => (
            <option key={o} value={o}>
              {OPERATOR_LABELS[o]}
            </option>
          ))}
        </select>
        {errorText(operatorPart)}
      </div>
      <div className="field">
        <label htmlFor={valuePart.id}>
          {valueLabel}
          {of}
        </label>
        {valueInput()}
        {errorText(valuePart)}
      </div>
      <div className="rule-remove">
        <button type="button" className="button-secondary button-small" onClick={onRemove}>
          Remove<span className="visually-hidden"> rule {n}</span>
        </button>
      </div>
    </li>
  );
}

type Preview = CollectionRulesPreviewQuery['collectionRulesPreview'];

/**
 * The live match count of rules being edited ("37 products match"), asked of the service a moment after the last
 * change, with the first matching products. A refused preview hands its field errors to the rules.
 */
export function MatchCount({ rows, match, sort, onErrors }: { rows: RuleRow[]; match: CollectionMatch; sort: CollectionSort; onErrors: (error: ApiError | null) => void }) {
  const { storeId, mode, store } = useWorkspace();
  const [state, setState] = useState<{ status: 'incomplete' | 'counting' | 'done' | 'failed'; preview?: Preview; error?: ApiError }>({ status: 'incomplete' });
  const asked = useRef(0);
  const onErrorsRef = useRef(onErrors);
  onErrorsRef.current = onErrors;
  const complete = rulesComplete(rows);
  const key = JSON.stringify([rulesSnapshot(rows), match, sort]);
  const smartSort = sort === 'manual' ? 'newest' : sort;

  useEffect(() => {
    const ask = ++asked.current;
    if (!complete) {
      setState((s) => ({ status: 'incomplete', preview: s.preview }));
      onErrorsRef.current(null);
      return undefined;
    }
    setState((s) => ({ status: 'counting', preview: s.preview }));
    const timer = setTimeout(() => {
      query(CollectionRulesPreviewDocument, { storeId, mode, rules: rulesInput(rows), match, sort: smartSort })
        .then((d) => {
          if (ask !== asked.current) return;
          setState({ status: 'done', preview: d.collectionRulesPreview });
          onErrorsRef.current(null);
        })
        .catch((caught) => {
          if (ask !== asked.current) return;
          const error = toApiError(caught);
          setState({ status: 'failed', error });
          onErrorsRef.current(Object.keys(error.fields).length ? error : null);
        });
    }, 400);
    return () => clearTimeout(timer);
    // The key stands for the rules, match and sort.
  }, [key, complete, storeId, mode]);

  const preview = state.preview;
  let text: string;
  if (state.status === 'incomplete') text = rows.length ? 'Fill in every rule to see how many products match.' : 'Add a rule to see how many products match.';
  else if (state.status === 'failed') text = Object.keys(state.error?.fields ?? {}).length ? 'Correct the rules marked to see how many products match.' : `The match count is not available: ${state.error?.message}`;
  else if (state.status === 'counting' && !preview) text = 'Counting the matching products…';
  else text = matchCountText(preview!.count);

  return (
    <div className="match-count">
      <p className={`match-count-text${state.status === 'counting' ? ' match-count-stale' : ''}`} role="status" data-testid="match-count">
        {text}
      </p>
      {state.status !== 'incomplete' && state.status !== 'failed' && preview && preview.products.length > 0 ? (
        <>
          <p className="hint">
            {preview.count > preview.products.length ? `The first ${preview.products.length}` : 'They are'}, {SORT_WORDS[smartSort]}:
          </p>
          <ul className="member-preview">
            {preview.products.map((p) => (
              <MemberLine key={p.id} product={p} currency={store.currency} />
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

const SORT_WORDS: Record<string, string> = { newest: 'newest first', name: 'by name', price_asc: 'cheapest first', price_desc: 'most expensive first' };
