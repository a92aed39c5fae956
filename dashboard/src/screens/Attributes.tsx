import { type FormEvent, useEffect, useState } from 'react';
import { mutate, query, toApiError, type ApiError } from '../api/client';
import { Badge, EmptyState, ErrorMessage, Field, Loading, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import {
  AttributeDocument,
  CreateAttributeDocument,
  DeleteAttributeDocument,
  UpdateAttributeDocument,
  type AttributeReferenceType,
  type AttributeType,
  type AttributeValueInput,
} from '../generated/graphql';
import { Link, navigate, useLeaveGuard } from '../lib/router';
import { useWorkspace } from '../session';
import { attributeCode, hasValues, products, quotedList, TYPE_HINTS, TYPE_LABELS, useAttributeCatalog, valueKey, type AttributeDef, type ProductTypeDef } from './attributes/catalog';
import { Chip } from './editor/AttributeValueField';
import { ListTitle, LoadState, moved, notSaved, OrderButtons, RowActions, useDelete } from './attributes/pieces';
import './attributes/attributes.css';

/** The store's attributes: what products can say about themselves (material, capacity, colour), shared by both catalogs. */
export function AttributesPage() {
  const { storeId } = useWorkspace();
  const catalog = useAttributeCatalog(storeId);
  const data = catalog.data;
  const remove = useDelete((a: AttributeDef) => mutate(DeleteAttributeDocument, { storeId, attribute: a.id }), catalog.reload, deleteRefusal);

  return (
    <>
      <ListTitle title="Attributes" newTo="attributes/new" newLabel="New attribute" />
      <p className="muted">
        Attributes describe products: material, capacity, release date, colour. A <Link to="product-types">product type</Link> says which
        of them a product has. The test and live catalogs share them.
      </p>
      {!data ? <LoadState error={catalog.error} title="The attributes could not be loaded." loading="Loading the attributes…" onRetry={() => void catalog.reload()} /> : null}
      {data && data.attributes.length === 0 ? (
        <EmptyState title="No attributes yet.">
          <p>Create one, then add it to a product type.</p>
        </EmptyState>
      ) : null}
      {data && data.attributes.length > 0 ? (
        <div className="table-wrap">
          <table className="table table-cards">
            <caption className="visually-hidden">Attributes</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Values</th>
                <th scope="col">Used by</th>
                <th scope="col">Filter</th>
                <th scope="col">Storefront</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.attributes.map((a) => {
                const usedBy = typesUsing(a, data.productTypes);
                return (
                  <tr key={a.id}>
                    <td data-label="Name">
                      <Link to={`attributes/${a.id}`}>{a.name}</Link>
                      <div className="muted small">{a.code}</div>
                    </td>
                    <td data-label="Type">
                      {TYPE_LABELS[a.type]}
                      {a.unit ? ` (${a.unit})` : ''}
                    </td>
                    <td data-label="Values" className="small">
                      <ValuesSummary attribute={a} />
                    </td>
                    <td data-label="Used by" className="small">
                      {usedBy.length ? usedBy.map((t) => t.name).join(', ') : <span className="muted">No product type</span>}
                    </td>
                    <td data-label="Filter">{a.filterable ? <Badge tone="green">Filterable</Badge> : <span className="muted">No</span>}</td>
                    <td data-label="Storefront">{a.public ? <Badge tone="blue">Shown</Badge> : <span className="muted">Hidden</span>}</td>
                    <td>
                      <RowActions
                        name={a.name}
                        to={`attributes/${a.id}`}
                        question={
                          usedBy.length
                            ? `Delete “${a.name}”? ${quotedList(usedBy.map((t) => t.name))} still ${usedBy.length === 1 ? 'uses' : 'use'} it: it cannot go until removed from ${usedBy.length === 1 ? 'that type' : 'those types'}, which clears its values from their products.`
                            : `Delete “${a.name}”? No product type uses it, so no product loses a value.`
                        }
                        onDelete={() => remove(a)}
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

function typesUsing(a: AttributeDef, types: ProductTypeDef[]): ProductTypeDef[] {
  return types.filter((t) => [...t.productAttributes, ...t.variantAttributes].some((x) => x.attributeId === a.id));
}

function ValuesSummary({ attribute }: { attribute: AttributeDef }) {
  if (!hasValues(attribute.type)) return <span className="muted">—</span>;
  const shown = attribute.values.slice(0, 6);
  const more = attribute.values.length - shown.length;
  if (attribute.type === 'swatch') {
    return (
      <span className="swatch-chips">
        {shown.map((v) => (
          <span key={v.value}>
            <Chip hex={v.hex} />
            {v.name}
          </span>
        ))}
        {more > 0 ? <span>and {more} more</span> : null}
      </span>
    );
  }
  return (
    <>
      {shown.map((v) => v.name).join(', ')}
      {more > 0 ? ` and ${more} more` : ''}
    </>
  );
}

/** Why an attribute was not deleted, with the service's own answer: the product types using it. */
function deleteRefusal(error: ApiError): string {
  if (error.code === 'attribute_in_use') {
    const types = (error.details?.product_types as { name: string }[] | undefined) ?? [];
    const names = types.map((t) => t.name);
    return `${names.length ? `The product type${names.length === 1 ? '' : 's'} ${quotedList(names)} use${names.length === 1 ? 's' : ''} it` : 'Product types use it'}. Remove it from ${names.length === 1 ? 'that type' : 'them'} first: their products then lose its values.`;
  }
  if (error.code === 'not_found') return 'It no longer exists: someone deleted it already.';
  return error.message;
}

interface ValueRow {
  key: string;
  value: string;
  name: string;
  hex: string;
  /** A value the attribute had when opened: its key stays (products hold it). */
  stored: boolean;
  keyTouched: boolean;
}

interface AttributeFormState {
  name: string;
  code: string;
  codeTouched: boolean;
  type: AttributeType;
  unit: string;
  referenceType: AttributeReferenceType | '';
  filterable: boolean;
  public: boolean;
  values: ValueRow[];
}

let rowId = 0;
const newRow = (): ValueRow => ({ key: `value-${++rowId}`, value: '', name: '', hex: '#000000', stored: false, keyTouched: false });

function formFrom(a: AttributeDef | null): AttributeFormState {
  return {
    name: a?.name ?? '',
    code: a?.code ?? '',
    codeTouched: Boolean(a),
    type: a?.type ?? 'plain_text',
    unit: a?.unit ?? '',
    referenceType: a?.referenceType ?? '',
    filterable: a?.filterable ?? false,
    public: a?.public ?? false,
    values: (a?.values ?? []).map((v) => ({ key: `value-${++rowId}`, value: v.value, name: v.name, hex: v.hex ?? '#000000', stored: true, keyTouched: true })),
  };
}

const snapshot = (f: AttributeFormState) => JSON.stringify({ ...f, codeTouched: undefined, values: f.values.map((v) => [v.value, v.name, v.hex]) });

/** One attribute: created at attributes/new, changed at attributes/<id>. */
export function AttributeEditorPage({ attributeId }: { attributeId: string | null }) {
  const { storeId } = useWorkspace();
  const [state, setState] = useState<{ attribute?: AttributeDef; error?: ApiError; loading: boolean }>({ loading: attributeId !== null });
  useEffect(() => {
    if (!attributeId) return;
    let live = true;
    query(AttributeDocument, { storeId, attribute: attributeId })
      .then((data) => live && setState({ attribute: data.attribute, loading: false }))
      .catch((caught) => live && setState({ error: toApiError(caught), loading: false }));
    return () => {
      live = false;
    };
  }, [attributeId, storeId]);
  if (attributeId && !state.attribute) {
    return (
      <>
        <PageTitle>{state.error?.code === 'not_found' ? 'Attribute not found' : 'Attribute'}</PageTitle>
        {state.loading ? <Loading label="Loading the attribute…" /> : null}
        {state.error?.code === 'not_found' ? (
          <p>
            This store has no such attribute. <Link to="attributes">Back to the attributes</Link>.
          </p>
        ) : (
          <ErrorMessage error={state.error} title="The attribute could not be loaded." />
        )}
      </>
    );
  }
  return <AttributeEditor attribute={state.attribute ?? null} />;
}

function AttributeEditor({ attribute }: { attribute: AttributeDef | null }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const [form, setForm] = useState(() => formFrom(attribute));
  const [baseline] = useState(() => snapshot(formFrom(attribute)));
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const dirty = snapshot(form) !== baseline;
  useLeaveGuard(dirty && !busy);
  const creating = attribute === null;
  const set = <K extends keyof AttributeFormState>(key: K, value: AttributeFormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const setRow = (index: number, patch: Partial<ValueRow>) => setForm((f) => ({ ...f, values: f.values.map((r, i) => (i === index ? { ...r, ...patch } : r)) }));
  const move = (index: number, by: number) => setForm((f) => ({ ...f, values: moved(f.values, index, by) }));

  // Stored values taken out of the list, each with a way back before saving.
  const removed = (attribute?.values ?? []).filter((v) => !form.values.some((r) => r.stored && r.value === v.value));
  const putBack = (v: AttributeDef['values'][number]) => {
    const values = [...form.values];
    // Back where it was, as far as the list still reaches.
    values.splice(Math.min(attribute?.values.indexOf(v) ?? values.length, values.length), 0, { key: `value-${++rowId}`, value: v.value, name: v.name, hex: v.hex ?? '#000000', stored: true, keyTouched: true });
    set('values', values);
  };

  const fieldError = (field: string) => error?.fields[field];
  const codeError = fieldError('code') ?? (error?.code === 'code_taken' ? 'is already the code of another attribute' : undefined);
  const valuesError = valuesProblem(error, attribute);
  const fieldCount = error ? Object.keys(error.fields).length + (error.code === 'code_taken' ? 1 : 0) : 0;
  const general = error && fieldCount === 0 && !valuesError ? error : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const values: AttributeValueInput[] | undefined = hasValues(form.type)
      ? form.values.map((r) => ({ value: r.value.trim(), name: r.name.trim(), ...(form.type === 'swatch' ? { hex: r.hex } : {}) }))
      : undefined;
    const common = {
      name: form.name.trim(),
      filterable: form.filterable,
      public: form.public,
      ...(form.type === 'numeric' ? { unit: form.unit.trim() || null } : {}),
      ...(form.type === 'reference' && form.referenceType ? { referenceType: form.referenceType } : {}),
      ...(values ? { values } : {}),
    };
    try {
      const saved = creating
        ? (await mutate(CreateAttributeDocument, { storeId, input: { ...common, unit: common.unit ?? undefined, code: form.code.trim(), type: form.type } })).createAttribute
        : (await mutate(UpdateAttributeDocument, { storeId, attribute: attribute.id, input: common })).updateAttribute;
      toast.show({ message: creating ? `Created “${saved.name}”.` : `Saved “${saved.name}”.` });
      navigate('attributes', { force: true });
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      const count = Object.keys(apiError.fields).length + (apiError.code === 'code_taken' ? 1 : 0);
      toast.show(notSaved('The attribute', count, valuesProblem(apiError, attribute) ?? apiError.message));
    } finally {
      setBusy(false);
    }
  };

  const title = creating ? 'New attribute' : attribute.name;
  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p className="breadcrumb">
        <Link to="attributes">← All attributes</Link>
        {creating ? null : (
          <>
            {' · '}
            <Link to={`attributes/${attribute.id}/translate`}>Translate</Link>
          </>
        )}
      </p>
      <ErrorMessage error={general} title="The attribute was not saved." />
      <form className="panel" onSubmit={submit} noValidate aria-label={title}>
        <div className="grid-2">
          <Field label="Name" hint="What the storefront shows, e.g. Material." error={fieldError('name')}>
            {(p) => (
              <input
                {...p}
                value={form.name}
                maxLength={255}
                onChange={(e) => {
                  const name = e.target.value;
                  setForm((f) => ({ ...f, name, ...(f.codeTouched ? {} : { code: attributeCode(name) }) }));
                }}
              />
            )}
          </Field>
          {creating ? (
            <Field label="Code" hint="Its key in filters and exports: lower-case letters, digits and underscores. It cannot change later." error={codeError}>
              {(p) => <input {...p} value={form.code} maxLength={64} onChange={(e) => setForm((f) => ({ ...f, code: e.target.value, codeTouched: true }))} />}
            </Field>
          ) : (
            <div className="field">
              <span className="field-label">Code</span>
              <p>
                <code>{attribute.code}</code> <span className="muted small">(never changes: products and links use it)</span>
              </p>
            </div>
          )}
        </div>
        {creating ? (
          <Field label="Type" hint={TYPE_HINTS[form.type]} error={fieldError('type')}>
            {(p) => (
              <select {...p} value={form.type} onChange={(e) => changeType(e.target.value as AttributeType)}>
                {(Object.keys(TYPE_LABELS) as AttributeType[]).map((t) => (
                  <option key={t} value={t}>
                    {TYPE_LABELS[t]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : (
          <div className="field">
            <span className="field-label">Type</span>
            <p>
              {TYPE_LABELS[attribute.type]} <span className="muted small">(never changes: it decides how products store its values)</span>
            </p>
          </div>
        )}
        {form.type === 'numeric' ? (
          <Field label="Unit" hint="Optional, e.g. cm, l or kg." error={fieldError('unit')}>
            {(p) => <input {...p} value={form.unit} maxLength={32} onChange={(e) => set('unit', e.target.value)} />}
          </Field>
        ) : null}
        {form.type === 'reference' ? (
          <Field label="Links to" error={fieldError('referenceType') ?? fieldError('reference_type')}>
            {(p) => (
              <select {...p} value={form.referenceType} onChange={(e) => set('referenceType', e.target.value as AttributeReferenceType | '')}>
                <option value="">Choose…</option>
                <option value="product">A product</option>
                <option value="category">A category</option>
              </select>
            )}
          </Field>
        ) : null}
        {hasValues(form.type) ? (
          <ValuesEditor
            rows={form.values}
            swatch={form.type === 'swatch'}
            error={valuesError}
            fieldError={fieldError}
            onAdd={() => set('values', [...form.values, newRow()])}
            onRemove={(index) => set('values', form.values.filter((_, i) => i !== index))}
            onMove={move}
            onChange={setRow}
          />
        ) : null}
        {removed.length ? (
          <div className="removed-values" role="status">
            <p>Removed when you save:</p>
            <ul>
              {removed.map((v) => (
                <li key={v.value}>
                  “{v.name}”{' '}
                  <button type="button" className="button-secondary button-small" onClick={() => putBack(v)}>
                    Put back<span className="visually-hidden"> {v.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="flag-fields">
          <label className="checkbox">
            <input type="checkbox" checked={form.filterable} onChange={(e) => set('filterable', e.target.checked)} />
            Filter product lists by it
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={form.public} onChange={(e) => set('public', e.target.checked)} />
            Show its values on the storefront
          </label>
        </div>
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Saving…' : creating ? 'Create attribute' : 'Save attribute'}
          </button>
          <Link to="attributes" className="button button-secondary">
            Cancel
          </Link>
          {dirty ? <span className="muted small">Unsaved changes</span> : null}
        </div>
      </form>
    </>
  );

  function changeType(type: AttributeType) {
    setForm((f) => ({ ...f, type, values: hasValues(type) && f.values.length === 0 ? [newRow()] : f.values }));
  }
}

/** The Values list's problem in the merchant's words: values products still hold are named with their count. */
function valuesProblem(error: ApiError | null, attribute: AttributeDef | null): string | undefined {
  if (!error) return undefined;
  if (error.code === 'attribute_value_in_use') {
    const keys = (error.details?.values as string[] | undefined) ?? [];
    const count = Number(error.details?.products ?? 0);
    const names = keys.map((k) => attribute?.values.find((v) => v.value === k)?.name ?? k);
    return `${quotedList(names)} ${names.length === 1 ? 'is' : 'are'} still set on ${count ? products(count) : 'products'}: give ${count === 1 ? 'it' : 'them'} another value before removing ${names.length === 1 ? 'it' : 'them'}.`;
  }
  return error.fields.values;
}

function ValuesEditor({
  rows,
  swatch,
  error,
  fieldError,
  onAdd,
  onRemove,
  onMove,
  onChange,
}: {
  rows: ValueRow[];
  swatch: boolean;
  error?: string;
  fieldError: (field: string) => string | undefined;
  onAdd: () => void;
  onRemove: (index: number) => void;
  onMove: (index: number, by: number) => void;
  onChange: (index: number, patch: Partial<ValueRow>) => void;
}) {
  return (
    <fieldset className={`field${error ? ' field-invalid' : ''}`} aria-describedby={error ? 'values-error' : undefined}>
      <legend>Values</legend>
      <p className="hint">In the order the storefront lists them. Renaming or reordering a value never changes the products that have it.</p>
      {error ? (
        <p className="field-error" id="values-error">
          {error}
        </p>
      ) : null}
      <ol className="value-rows">
        {rows.map((row, index) => {
          const label = row.name.trim() || `value ${index + 1}`;
          return (
            <li key={row.key} className="value-row">
              <Field label={`Name of value ${index + 1}`} error={fieldError(`values.${index}.name`)}>
                {(p) => (
                  <input
                    {...p}
                    value={row.name}
                    maxLength={255}
                    onChange={(e) => onChange(index, { name: e.target.value, ...(row.keyTouched ? {} : { value: valueKey(e.target.value) }) })}
                  />
                )}
              </Field>
              {row.stored ? (
                <div className="field">
                  <span className="field-label">Key</span>
                  <code>{row.value}</code>
                </div>
              ) : (
                <Field label={`Key of value ${index + 1}`} error={fieldError(`values.${index}.value`)}>
                  {(p) => <input {...p} value={row.value} maxLength={64} onChange={(e) => onChange(index, { value: e.target.value, keyTouched: true })} />}
                </Field>
              )}
              {swatch ? (
                <Field label={`Colour of value ${index + 1}`} error={fieldError(`values.${index}.hex`)}>
                  {(p) => (
                    <span className="color-field">
                      <input {...p} type="color" value={/^#[0-9a-f]{6}$/i.test(row.hex) ? row.hex : '#000000'} onChange={(e) => onChange(index, { hex: e.target.value })} />
                      <Chip hex={row.hex} />
                      <code>{row.hex}</code>
                    </span>
                  )}
                </Field>
              ) : null}
              <OrderButtons name={label} index={index} count={rows.length} onMove={(by) => onMove(index, by)} onRemove={() => onRemove(index)} />
            </li>
          );
        })}
      </ol>
      <button type="button" className="button-secondary button-start" onClick={onAdd}>
        Add value
      </button>
    </fieldset>
  );
}
