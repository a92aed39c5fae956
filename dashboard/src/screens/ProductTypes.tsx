import { type FormEvent, useId, useState } from 'react';
import { mutate, toApiError, type ApiError } from '../api/client';
import { EmptyState, ErrorMessage, Field, PageTitle } from '../components/ui';
import { useToast } from '../components/toasts';
import { CreateProductTypeDocument, DeleteProductTypeDocument, UpdateProductTypeDocument, type ProductTypeAttributeInput } from '../generated/graphql';
import { Link, navigate, useLeaveGuard } from '../lib/router';
import { useWorkspace } from '../session';
import { products, quotedList, TYPE_LABELS, useAttributeCatalog, valueMessage, type AttributeCatalog, type AttributeDef, type ProductTypeDef } from './attributes/catalog';
import { AttributeValueField } from './editor/AttributeValueField';
import { ListTitle, LoadState, moved, notSaved, OrderButtons, RowActions, useDelete } from './attributes/pieces';
import './attributes/attributes.css';

/** The store's product types: which attributes a product of each type has, and which each of its variants has. */
export function ProductTypesPage() {
  const { storeId } = useWorkspace();
  const catalog = useAttributeCatalog(storeId);
  const data = catalog.data;
  const remove = useDelete((t: ProductTypeDef) => mutate(DeleteProductTypeDocument, { storeId, productType: t.id }), catalog.reload, (error) => {
    const count = Number(error.details?.products ?? 0);
    return error.code === 'product_type_in_use'
      ? `${count ? products(count) : 'Products'} (test catalog included) ${count === 1 ? 'has' : 'have'} this type: give ${count === 1 ? 'it' : 'them'} another type, or none, in the product editor first.`
      : error.message;
  });

  const names = (items: ProductTypeDef['productAttributes']) =>
    items.length
      ? items.map((item) => `${data?.attributes.find((a) => a.id === item.attributeId)?.name ?? item.code}${item.required ? ' (required)' : ''}`).join(', ')
      : '—';

  return (
    <>
      <ListTitle title="Product types" newTo="product-types/new" newLabel="New product type" />
      <p className="muted">
        A product type lists the <Link to="attributes">attributes</Link> its products have (a shirt: material, fit) and those each variant has
        (colour, size). Choose a product&apos;s type in the product editor.
      </p>
      {!data ? <LoadState error={catalog.error} title="The product types could not be loaded." loading="Loading the product types…" onRetry={() => void catalog.reload()} /> : null}
      {data && data.productTypes.length === 0 ? <EmptyState title="No product types yet." /> : null}
      {data && data.productTypes.length > 0 ? (
        <div className="table-wrap">
          <table className="table table-cards">
            <caption className="visually-hidden">Product types</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Product attributes</th>
                <th scope="col">Variant attributes</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.productTypes.map((t) => (
                <tr key={t.id}>
                  <td data-label="Name">
                    <Link to={`product-types/${t.id}`}>{t.name}</Link>
                  </td>
                  <td data-label="Product attributes" className="small">
                    {names(t.productAttributes)}
                  </td>
                  <td data-label="Variant attributes" className="small">
                    {names(t.variantAttributes)}
                  </td>
                  <td>
                    <RowActions
                      name={t.name}
                      to={`product-types/${t.id}`}
                      question={`Delete “${t.name}”? Only a type no product has can be deleted; its attributes stay.`}
                      onDelete={() => remove(t)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}

interface Item {
  attributeId: string;
  required: boolean;
}

type Level = 'productAttributes' | 'variantAttributes';

const LEVELS: { level: Level; title: string; hint: string }[] = [
  { level: 'productAttributes', title: 'Product attributes', hint: 'What the product itself has, in the order the editor and storefront show them.' },
  { level: 'variantAttributes', title: 'Variant attributes', hint: 'What each variant has (colour, size).' },
];

/** One product type: created at product-types/new, changed at product-types/<id>. */
export function ProductTypeEditorPage({ productTypeId }: { productTypeId: string | null }) {
  const { storeId } = useWorkspace();
  const catalog = useAttributeCatalog(storeId);
  if (!catalog.data) {
    return (
      <>
        <PageTitle>Product type</PageTitle>
        <LoadState error={catalog.error} title="The product type could not be loaded." loading="Loading the product type…" onRetry={() => void catalog.reload()} />
      </>
    );
  }
  const type = productTypeId ? catalog.data.productTypes.find((t) => t.id === productTypeId) : null;
  if (productTypeId && !type) {
    return (
      <>
        <PageTitle>Product type not found</PageTitle>
        <p>
          This store has no such product type. <Link to="product-types">Back to the product types</Link>.
        </p>
      </>
    );
  }
  return <ProductTypeEditor type={type ?? null} catalog={catalog.data} />;
}

const itemsOf = (list: ProductTypeDef['productAttributes']): Item[] => list.map((i) => ({ attributeId: i.attributeId, required: i.required }));

function ProductTypeEditor({ type, catalog }: { type: ProductTypeDef | null; catalog: AttributeCatalog }) {
  const { storeId } = useWorkspace();
  const toast = useToast();
  const creating = type === null;
  const initial = { name: type?.name ?? '', productAttributes: itemsOf(type?.productAttributes ?? []), variantAttributes: itemsOf(type?.variantAttributes ?? []) };
  const [form, setForm] = useState(initial);
  const [baseline] = useState(() => JSON.stringify(initial));
  const [defaults, setDefaults] = useState<Record<string, unknown>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const dirty = JSON.stringify(form) !== baseline;
  useLeaveGuard(dirty && !busy);
  const byId = new Map(catalog.attributes.map((a) => [a.id, a]));
  const used = new Set([...form.productAttributes, ...form.variantAttributes].map((i) => i.attributeId));
  // The attributes made required that products lack (the service's answer), each needing a value to give them.
  const missingCodes = error?.code === 'attribute_values_missing' ? ((error.details?.attributes as string[] | undefined) ?? []) : [];
  const missing = missingCodes.flatMap((code) => catalog.attributes.filter((a) => a.code === code));

  const setLevel = (level: Level, items: Item[]) => setForm((f) => ({ ...f, [level]: items }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const level = (items: Item[]): ProductTypeAttributeInput[] =>
      items.map((i) => {
        const code = byId.get(i.attributeId)?.code;
        const fallback = code !== undefined ? defaults[code] : undefined;
        return { attributeId: i.attributeId, required: i.required, ...(i.required && fallback !== undefined && fallback !== null ? { defaultValue: fallback } : {}) };
      });
    const input = { name: form.name.trim(), productAttributes: level(form.productAttributes), variantAttributes: level(form.variantAttributes) };
    try {
      const saved = creating
        ? (await mutate(CreateProductTypeDocument, { storeId, input })).createProductType
        : (await mutate(UpdateProductTypeDocument, { storeId, productType: type.id, input })).updateProductType;
      toast.show({ message: creating ? `Created “${saved.name}”.` : `Saved “${saved.name}”.` });
      navigate('product-types', { force: true });
    } catch (caught) {
      const apiError = toApiError(caught);
      setError(apiError);
      const count = Object.keys(apiError.fields).length + (apiError.code === 'name_taken' ? 1 : 0);
      toast.show(notSaved('The product type', count, apiError.code === 'attribute_values_missing' ? 'Some of its products lack a value that is now required: see the form.' : apiError.message));
    } finally {
      setBusy(false);
    }
  };

  const nameError = error?.fields.name ?? (error?.code === 'name_taken' ? 'is already the name of another product type' : undefined);
  const levelError = (level: Level) => {
    const entries = Object.entries(error?.fields ?? {}).filter(([f]) => f === level || f.startsWith(`${level}.`));
    return entries.map(([f, m]) => {
      const index = /\.(\d+)/.exec(f)?.[1];
      const item = index !== undefined ? form[level][Number(index)] : undefined;
      const name = item ? byId.get(item.attributeId)?.name : undefined;
      return name ? `${name}: ${valueMessage(m)}` : (valueMessage(m) ?? m);
    });
  };
  const known = new Set(['name', ...Object.keys(error?.fields ?? {}).filter((f) => f.startsWith('productAttributes') || f.startsWith('variantAttributes'))]);
  const general = error && error.code !== 'attribute_values_missing' && error.code !== 'name_taken' && !Object.keys(error.fields).some((f) => known.has(f)) ? error : null;
  const title = creating ? 'New product type' : type.name;

  return (
    <>
      <PageTitle>{title}</PageTitle>
      <p className="breadcrumb">
        <Link to="product-types">← All product types</Link>
      </p>
      <ErrorMessage error={general} title="The product type was not saved." />
      <form className="panel" onSubmit={submit} noValidate aria-label={title}>
        <Field label="Name" hint="e.g. Shirts, Kettles." error={nameError}>
          {(p) => <input {...p} value={form.name} maxLength={255} onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} />}
        </Field>
        {LEVELS.map(({ level, title: levelTitle, hint }) => (
          <LevelEditor
            key={level}
            title={levelTitle}
            hint={hint}
            items={form[level]}
            attributes={catalog.attributes}
            used={used}
            errors={levelError(level)}
            onChange={(items) => setLevel(level, items)}
          />
        ))}
        {missing.length ? (
          <div className="alert alert-warning" role="alert">
            <p className="alert-title">
              {products(Number(error?.details?.products ?? 0))} of this type {Number(error?.details?.products ?? 0) === 1 ? 'has' : 'have'} no value for{' '}
              {quotedList(missing.map((a) => a.name))}, which you made required.
            </p>
            <p>Give the value they should get, then save again, or leave the attribute optional.</p>
            {missing.map((a) => (
              <AttributeValueField
                key={a.id}
                attribute={a}
                label={`Value for products without one: ${a.name}`}
                value={defaults[a.code] ?? null}
                onChange={(v) => setDefaults((d) => ({ ...d, [a.code]: v }))}
                error={valueMessage(Object.entries(error?.fields ?? {}).find(([f]) => f.endsWith('defaultValue') || f.endsWith('default_value'))?.[1], a)}
              />
            ))}
          </div>
        ) : null}
        <div className="button-row">
          <button type="submit" className="button-primary" disabled={busy}>
            {busy ? 'Saving…' : creating ? 'Create product type' : 'Save product type'}
          </button>
          <Link to="product-types" className="button button-secondary">
            Cancel
          </Link>
          {dirty ? <span className="muted small">Unsaved changes</span> : null}
        </div>
        {!creating ? (
          <p className="hint">Removing an attribute clears its values from the products of this type when you save.</p>
        ) : null}
      </form>
    </>
  );
}

function LevelEditor({
  title,
  hint,
  items,
  attributes,
  used,
  errors,
  onChange,
}: {
  title: string;
  hint: string;
  items: Item[];
  attributes: AttributeDef[];
  used: Set<string>;
  errors: string[];
  onChange: (items: Item[]) => void;
}) {
  const id = useId();
  const [adding, setAdding] = useState('');
  const byId = new Map(attributes.map((a) => [a.id, a]));
  const available = attributes.filter((a) => !used.has(a.id));
  const singular = title.replace(/s$/, '').toLowerCase();
  return (
    <fieldset className={`field${errors.length ? ' field-invalid' : ''}`} aria-describedby={errors.length ? `${id}-errors` : `${id}-hint`}>
      <legend>{title}</legend>
      <p className="hint" id={`${id}-hint`}>
        {hint}
      </p>
      {errors.length ? (
        <ul className="field-error" id={`${id}-errors`}>
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
      {items.length === 0 ? <p className="muted">None yet.</p> : null}
      <ol className="type-attribute-rows">
        {items.map((item, index) => {
          const a = byId.get(item.attributeId);
          const name = a?.name ?? 'An attribute that no longer exists';
          return (
            <li key={item.attributeId} className="type-attribute-row">
              <span className="type-attribute-name">
                <strong>{name}</strong> <span className="muted small">{a ? TYPE_LABELS[a.type] : ''}</span>
              </span>
              <label className="checkbox">
                <input type="checkbox" checked={item.required} onChange={(e) => onChange(items.map((x, i) => (i === index ? { ...x, required: e.target.checked } : x)))} />
                Required<span className="visually-hidden"> {name}</span>
              </label>
              <OrderButtons
                name={name}
                index={index}
                count={items.length}
                onMove={(by) => onChange(moved(items, index, by))}
                onRemove={() => onChange(items.filter((_, i) => i !== index))}
              />
            </li>
          );
        })}
      </ol>
      {available.length ? (
        <div className="inline-form">
          <label htmlFor={`${id}-add`}>Add a {singular}</label>
          <select id={`${id}-add`} value={adding} onChange={(e) => setAdding(e.target.value)}>
            <option value="">Choose…</option>
            {available.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({TYPE_LABELS[a.type]})
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button-secondary"
            disabled={!adding}
            onClick={() => {
              onChange([...items, { attributeId: adding, required: false }]);
              setAdding('');
            }}
          >
            Add<span className="visually-hidden"> to {title.toLowerCase()}</span>
          </button>
        </div>
      ) : attributes.length === 0 ? (
        <p className="muted">
          The store has no attributes yet: <Link to="attributes/new">create one</Link>.
        </p>
      ) : null}
    </fieldset>
  );
}
