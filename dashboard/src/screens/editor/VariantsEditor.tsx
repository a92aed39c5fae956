import { useMemo, useState } from 'react';
import type { ProductDetailFragment, WeightUnit } from '../../generated/graphql';
import { useToast } from '../../components/toasts';
import { FieldError } from '../../components/ui';
import { formatMoney } from '../../lib/format';
import { OptionsBuilder } from './OptionsBuilder';
import { ExtraBulkValue, ExtraCells, ExtraHeaders, extraBulkFields, extraChange, extraColumnCount, useVariantColumns, type VariantColumns } from './VariantExtras';
import { CELL_LABELS, LIMITS, combinationCount, planGrid, type CellField, type CellKey, type GridRow, type VariantCells, type VariantErrors, type VariantsDraft } from './variantDraft';
import './variants.css';

/**
 * The variants section: the options builder, then the grid of their combinations (a row per variant, existing
 * ones kept by their values, new ones added, those that go away listed before saving), with a bulk edit of the
 * selected rows. Everything is saved with the product, by the editor's Save.
 */

const UNITS: WeightUnit[] = ['g', 'kg', 'oz', 'lb'];
type BulkField = 'price' | 'compareAtPrice' | 'weight' | 'inventoryQuantity' | 'imageId';
const BULK_FIELDS: { field: BulkField; label: string }[] = [
  { field: 'price', label: 'Price' },
  { field: 'compareAtPrice', label: 'Compare-at price' },
  { field: 'weight', label: 'Weight' },
  { field: 'inventoryQuantity', label: 'Inventory' },
  { field: 'imageId', label: 'Image' },
];

export function VariantsEditor({
  draft,
  onChange,
  product,
  productName,
  errors,
  currency,
  basePrice,
  productTypeId = '',
}: {
  draft: VariantsDraft;
  onChange: (draft: VariantsDraft) => void;
  product: ProductDetailFragment | null;
  productName: string;
  errors: VariantErrors;
  currency: string;
  basePrice: string;
  /** The product's type as edited: its variant attributes get a column each. */
  productTypeId?: string;
}) {
  const columns = useVariantColumns(productTypeId);
  const plan = useMemo(() => planGrid(draft, product, productName), [draft, product, productName]);
  const [selected, setSelected] = useState<string[]>([]);
  const images = product?.images ?? [];
  const combos = combinationCount(draft.options);
  const tooMany = draft.options.length > 0 && combos > LIMITS.variants;
  const rows = tooMany ? [] : plan.rows;
  const selectable = rows.filter((r) => r.included);
  const selectedIds = new Set(selected);
  const chosen = selectable.filter((r) => selectedIds.has(r.rowId));
  const hasErrors = Object.keys(errors.cells).length > 0 || errors.general !== null;

  /** Sets cells of rows: the same change for each, or one made from each row (a further price among the row's). */
  const edit = (rowIds: string[], change: Partial<VariantCells> | ((row: GridRow) => Partial<VariantCells>)) =>
    onChange({
      ...draft,
      edits: {
        ...draft.edits,
        ...Object.fromEntries(
          rowIds.map((id) => {
            const row = plan.rows.find((r) => r.rowId === id);
            return [id, { ...draft.edits[id], ...(typeof change === 'function' ? (row ? change(row) : {}) : change) }];
          }),
        ),
      },
    });
  const include = (row: GridRow, included: boolean) => {
    onChange({ ...draft, excluded: included ? draft.excluded.filter((k) => k !== row.comboKey) : [...draft.excluded, row.comboKey] });
    if (!included) setSelected((s) => s.filter((id) => id !== row.rowId));
  };

  return (
    <section className="panel variants-section" aria-labelledby="section-variants">
      <h2 id="section-variants">Variants</h2>
      <OptionsBuilder draft={draft} onChange={onChange} product={product} productName={productName} errors={errors} />

      <h3 id="variant-grid-heading">Variants of these options</h3>
      {hasErrors ? (
        <p className="field-error" role="alert">
          The variants were not saved: correct the cells marked below.{errors.general ? ` ${errors.general}` : ''}
        </p>
      ) : null}
      {tooMany ? (
        <p className="field-error" role="alert">
          These options make {combos.toLocaleString()} combinations: a product has at most {LIMITS.variants.toLocaleString()} variants. Remove some values.
        </p>
      ) : null}
      {plan.removed.length ? (
        <div className="alert alert-warning variants-removed" role="status">
          <p className="alert-title">
            {plan.removed.length === 1 ? 'This variant is deleted' : `These ${plan.removed.length} variants are deleted`} when you save:
          </p>
          <ul>
            {plan.removed.map((r) => (
              <li key={r.variant.id}>
                {r.label} (SKU {r.variant.sku}): {r.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {rows.length === 0 && !tooMany ? (
        <p className="muted">
          {draft.options.length === 0
            ? 'No variants: the product is sold as it is. Add an option such as Size or Color to offer variants.'
            : 'Give every option at least one value to see its variants.'}
        </p>
      ) : null}
      {rows.length > 0 ? (
        <>
          <BulkEdit
            rows={selectable}
            chosen={chosen}
            draft={draft}
            setSelected={setSelected}
            images={images}
            currency={currency}
            columns={columns}
            apply={(change) => edit(chosen.map((r) => r.rowId), change)}
          />
          <div className="table-wrap variant-grid-wrap" role="region" aria-labelledby="variant-grid-heading" tabIndex={0}>
            <table className="table variant-grid">
              <caption className="visually-hidden">Variants, one per combination of the options</caption>
              <thead>
                <tr>
                  <th scope="col" className="col-check">
                    <input
                      type="checkbox"
                      aria-label="Select all variants"
                      checked={selectable.length > 0 && chosen.length === selectable.length}
                      ref={(el) => {
                        if (el) el.indeterminate = chosen.length > 0 && chosen.length < selectable.length;
                      }}
                      onChange={(e) => setSelected(e.target.checked ? selectable.map((r) => r.rowId) : [])}
                    />
                  </th>
                  <th scope="col">Variant</th>
                  <th scope="col">Price ({currency})</th>
                  <th scope="col">Compare-at ({currency})</th>
                  <th scope="col">SKU</th>
                  <th scope="col">Barcode</th>
                  <th scope="col">Weight</th>
                  <th scope="col">Inventory</th>
                  <th scope="col">Image</th>
                  <ExtraHeaders columns={columns} />
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <VariantRowView
                    key={row.rowId}
                    row={row}
                    selected={selectedIds.has(row.rowId)}
                    onSelect={(on) => setSelected((s) => (on ? [...s, row.rowId] : s.filter((id) => id !== row.rowId)))}
                    errors={errors.cells[row.rowId] ?? {}}
                    edit={(change) => edit([row.rowId], change)}
                    include={(on) => include(row, on)}
                    images={images}
                    basePrice={basePrice}
                    columns={columns}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <p className="muted small">
        An empty price uses the product's price ({basePrice ? formatMoney(basePrice, currency) : 'not set'}). Variants are saved with the product.
        {!product ? ' Images can be chosen once the product is created.' : ''}
      </p>
    </section>
  );
}

function VariantRowView({
  row,
  selected,
  onSelect,
  errors,
  edit,
  include,
  images,
  basePrice,
  columns,
}: {
  row: GridRow;
  selected: boolean;
  onSelect: (on: boolean) => void;
  errors: Partial<Record<CellKey, string>>;
  edit: (change: Partial<VariantCells>) => void;
  include: (on: boolean) => void;
  images: ProductDetailFragment['images'];
  basePrice: string;
  columns: VariantColumns;
}) {
  const extra = extraColumnCount(columns);
  const name = `variant ${row.label}`;
  const idBase = `cell-${row.rowId.replace(/[^a-zA-Z0-9-]/g, '_')}`;
  if (!row.included) {
    return (
      <tr className="variant-excluded">
        <td className="col-check" />
        <th scope="row">{row.label}</th>
        <td colSpan={7 + extra} className="muted">
          {row.variant ? `Deleted when you save (SKU ${row.variant.sku}).` : 'Not offered: no variant for this combination.'}
        </td>
        <td>
          <button type="button" className="button-secondary button-small" onClick={() => include(true)}>
            {row.variant ? 'Keep' : 'Add'}
            <span className="visually-hidden"> {name}</span>
          </button>
        </td>
      </tr>
    );
  }
  const cell = (field: CellField, props: Record<string, unknown> = {}) => {
    const message = errors[field];
    return (
      <td className={message ? 'cell-invalid' : undefined}>
        <input
          aria-label={`${CELL_LABELS[field]} of ${name}`}
          value={row.cells[field]}
          onChange={(e) => edit({ [field]: e.target.value })}
          aria-invalid={message ? true : undefined}
          aria-describedby={message ? `${idBase}-${field}-error` : undefined}
          {...props}
        />
        <FieldError message={message} id={`${idBase}-${field}-error`} />
      </td>
    );
  };
  return (
    <>
      <tr className={`${selected ? 'row-selected' : ''}${row.variant ? '' : ' variant-new'}`}>
        <td className="col-check">
          <input type="checkbox" aria-label={`Select ${name}`} checked={selected} onChange={(e) => onSelect(e.target.checked)} />
        </td>
        <th scope="row">
          {row.label}
          {row.variant ? null : <span className="badge badge-blue variant-new-badge">New</span>}
        </th>
        {cell('price', { inputMode: 'decimal', placeholder: basePrice || undefined, className: 'cell-number' })}
        {cell('compareAtPrice', { inputMode: 'decimal', className: 'cell-number' })}
        {cell('sku', { maxLength: 100, className: 'cell-sku' })}
        {cell('barcode', { inputMode: 'numeric', className: 'cell-barcode' })}
        <td className={errors.weight ? 'cell-invalid' : undefined}>
          <span className="weight-cell">
            <input
              aria-label={`Weight of ${name}`}
              inputMode="decimal"
              className="cell-number"
              value={row.cells.weight}
              onChange={(e) => edit({ weight: e.target.value })}
              aria-invalid={errors.weight ? true : undefined}
              aria-describedby={errors.weight ? `${idBase}-weight-error` : undefined}
            />
            <select aria-label={`Weight unit of ${name}`} value={row.cells.weightUnit} onChange={(e) => edit({ weightUnit: e.target.value as WeightUnit })}>
              {UNITS.map((u) => (
                <option key={u} value={u}>
                  {u}
                </option>
              ))}
            </select>
          </span>
          <FieldError message={errors.weight} id={`${idBase}-weight-error`} />
        </td>
        {cell('inventoryQuantity', { type: 'number', min: 0, step: 1, className: 'cell-number' })}
        <td className={errors.imageId ? 'cell-invalid' : undefined}>
          <ImageSelect
            label={`Image of ${name}`}
            value={row.cells.imageId}
            images={images}
            onChange={(imageId) => edit({ imageId })}
            errorId={errors.imageId ? `${idBase}-imageId-error` : undefined}
          />
          <FieldError message={errors.imageId} id={`${idBase}-imageId-error`} />
        </td>
        <ExtraCells row={row} name={name} idBase={idBase} columns={columns} errors={errors} edit={edit} />
        <td>
          <button type="button" className="button-secondary button-small" onClick={() => include(false)}>
            Remove<span className="visually-hidden"> {name}</span>
          </button>
        </td>
      </tr>
      {errors.row ? (
        <tr className="row-errors">
          <td colSpan={10 + extra}>
            <p className="field-error">
              Variant {row.label}: {errors.row}
            </p>
          </td>
        </tr>
      ) : null}
    </>
  );
}

function ImageSelect({
  label,
  value,
  images,
  onChange,
  errorId,
}: {
  label: string;
  value: string;
  images: ProductDetailFragment['images'];
  onChange: (imageId: string) => void;
  errorId?: string;
}) {
  const chosen = images.find((i) => i.id === value);
  return (
    <span className="image-cell">
      {chosen ? <img src={chosen.url} alt="" width={32} height={32} /> : null}
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} disabled={images.length === 0} aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
        <option value="">None</option>
        {images.map((image, i) => (
          <option key={image.id} value={image.id}>
            {`Image ${i + 1}${image.alt ? `: ${image.alt}` : ''}`}
          </option>
        ))}
      </select>
    </span>
  );
}

/** Select rows (all, or all with one value), then set one field for all of them at once. */
function BulkEdit({
  rows,
  chosen,
  draft,
  setSelected,
  images,
  currency,
  columns,
  apply,
}: {
  rows: GridRow[];
  chosen: GridRow[];
  draft: VariantsDraft;
  setSelected: (ids: string[]) => void;
  images: ProductDetailFragment['images'];
  currency: string;
  columns: VariantColumns;
  apply: (change: Partial<VariantCells> | ((row: GridRow) => Partial<VariantCells>)) => void;
}) {
  const [byValue, setByValue] = useState('');
  const [field, setField] = useState<string>('price');
  const [value, setValue] = useState('');
  // A further field's value: a price's text, or an attribute's value in the API's encoding.
  const [extraValue, setExtraValue] = useState<unknown>(null);
  const fields = [...BULK_FIELDS, ...extraBulkFields(columns)];
  const extraField = !BULK_FIELDS.some((f) => f.field === field);
  const [unit, setUnit] = useState<WeightUnit>('kg');
  const toast = useToast();
  const selectByValue = () => {
    const [index, text] = [Number(byValue.split(':')[0]), byValue.slice(byValue.indexOf(':') + 1)];
    setSelected(rows.filter((r) => r.values[index] === text).map((r) => r.rowId));
  };
  const onApply = () => {
    const label = fields.find((f) => f.field === field)?.label ?? field;
    if (extraField) apply(extraChange(field, extraValue));
    else apply(field === 'weight' ? { weight: value, weightUnit: unit } : { [field]: value });
    toast.show({ tone: 'info', message: `${label} set for ${chosen.length} ${chosen.length === 1 ? 'variant' : 'variants'}: save the product to keep it.` });
  };
  return (
    <div className="bulk-edit" role="group" aria-label="Edit several variants">
      {draft.options.length > 0 ? (
        <div className="bulk-row">
          <label htmlFor="variant-select-by">Select by value</label>
          <select id="variant-select-by" value={byValue} onChange={(e) => setByValue(e.target.value)}>
            <option value="">Choose a value…</option>
            {draft.options.map((o, i) => (
              <optgroup key={o.id} label={o.name || `Option ${i + 1}`}>
                {o.values.map((v) => (
                  <option key={v} value={`${i}:${v}`}>
                    {`All ${v}`}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <button type="button" className="button-secondary" onClick={selectByValue} disabled={!byValue}>
            Select
          </button>
        </div>
      ) : null}
      <div className="bulk-row">
        <span className="bulk-count" aria-live="polite">
          {chosen.length ? `${chosen.length} of ${rows.length} selected` : 'Select variants to edit several at once.'}
        </span>
        {chosen.length ? (
          <>
            <label htmlFor="variant-bulk-field">Set</label>
            <select
              id="variant-bulk-field"
              value={field}
              onChange={(e) => {
                setField(e.target.value);
                setValue('');
                setExtraValue(null);
              }}
            >
              {fields.map((f) => (
                <option key={f.field} value={f.field} disabled={f.field === 'imageId' && images.length === 0}>
                  {f.label}
                </option>
              ))}
            </select>
            {extraField ? (
              <ExtraBulkValue field={field} columns={columns} value={extraValue} onChange={setExtraValue} onEnter={onApply} />
            ) : field === 'imageId' ? (
              <ImageSelect label="New image of the selected variants" value={value} images={images} onChange={setValue} />
            ) : (
              <input
                aria-label={`New ${BULK_FIELDS.find((f) => f.field === field)!.label.toLowerCase()}${field === 'price' || field === 'compareAtPrice' ? ` (${currency})` : ''} of the selected variants`}
                className="bulk-value"
                value={value}
                inputMode={field === 'inventoryQuantity' ? 'numeric' : 'decimal'}
                onChange={(e) => setValue(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    onApply();
                  }
                }}
              />
            )}
            {field === 'weight' ? (
              <select aria-label="Weight unit of the selected variants" value={unit} onChange={(e) => setUnit(e.target.value as WeightUnit)}>
                {UNITS.map((u) => (
                  <option key={u} value={u}>
                    {u}
                  </option>
                ))}
              </select>
            ) : null}
            <button type="button" onClick={onApply}>
              Apply to {chosen.length} {chosen.length === 1 ? 'variant' : 'variants'}
            </button>
            <button type="button" className="button-secondary" onClick={() => setSelected([])}>
              Clear selection
            </button>
          </>
        ) : null}
      </div>
    </div>
  );
}
