import type { ApiError } from '../../api/client';
import { ErrorMessage } from '../../components/ui';
import { formatMoney } from '../../lib/format';
import { emptyVariant, type FieldErrors, type VariantRow } from '../productForm';

export function VariantsEditor({
  rows,
  onChange,
  error,
  localErrors,
  currency,
  basePrice,
}: {
  rows: VariantRow[];
  onChange: (rows: VariantRow[]) => void;
  error: ApiError | null;
  localErrors: FieldErrors;
  currency: string;
  basePrice: string;
}) {
  const update = (index: number, key: keyof VariantRow, value: string) => onChange(rows.map((r, i) => (i === index ? { ...r, [key]: value } : r)));
  const rowError = (index: number, field: string) => localErrors[`variants.${index}.${field}`] ?? error?.fields[`variants.${index}.${field}`];
  /** Problems of a row that no cell shows (the row as a whole, or a field without a column). */
  const rowErrors = (index: number) =>
    Object.entries({ ...(error?.fields ?? {}), ...localErrors })
      .filter(([key]) => key === `variants.${index}` || (key.startsWith(`variants.${index}.`) && !VARIANT_COLUMNS.includes(key.split('.')[2] ?? '')))
      .map(([key, message]) => (key.split('.')[2] ? `${key.split('.').slice(2).join('.')}: ${message}` : message));
  const general = error && Object.keys(error.fields).length === 0 ? error : null;
  return (
    <section className="panel" aria-labelledby="section-variants">
      <h2 id="section-variants">Variants</h2>
      {error && !general ? (
        <p className="field-error" role="alert">
          The variants were not saved: correct the rows marked below.
        </p>
      ) : null}
      <ErrorMessage error={general} title="The variants were not saved." />
      {rows.length === 0 ? <p className="muted">No variants: the product is sold as it is. Add variants for sizes, colours and the like.</p> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table className="table variants-table">
            <caption className="visually-hidden">Variants</caption>
            <thead>
              <tr>
                <th scope="col">SKU</th>
                <th scope="col">Title</th>
                <th scope="col">Options (name=value, …)</th>
                <th scope="col">Price ({currency})</th>
                <th scope="col">Inventory</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const n = index + 1;
                const messages = rowErrors(index);
                const cell = (field: keyof VariantRow & string, label: string, extra: Record<string, unknown> = {}) => {
                  const message = rowError(index, field);
                  const errorId = `${row.key}-${field}-error`;
                  return (
                    <td>
                      <input
                        aria-label={`${label} of variant ${n}`}
                        value={row[field]}
                        onChange={(e) => update(index, field, e.target.value)}
                        aria-invalid={message ? true : undefined}
                        aria-describedby={message ? errorId : undefined}
                        {...extra}
                      />
                      {message ? (
                        <p className="field-error" id={errorId}>
                          {message}
                        </p>
                      ) : null}
                    </td>
                  );
                };
                return [
                  <tr key={row.key}>
                    {cell('sku', 'SKU')}
                    {cell('title', 'Title')}
                    {cell('options', 'Options', { placeholder: 'Color=Red, Size=M' })}
                    {cell('price', 'Price', { inputMode: 'decimal', placeholder: basePrice || 'product price' })}
                    {cell('inventoryQuantity', 'Inventory', { type: 'number', min: 0, step: 1 })}
                    <td>
                      <button type="button" className="button-secondary button-small" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                        Remove<span className="visually-hidden"> variant {n}</span>
                      </button>
                    </td>
                  </tr>,
                  messages.length ? (
                    <tr key={`${row.key}-errors`} className="row-errors">
                      <td colSpan={6}>
                        <ul className="field-error">
                          {messages.map((m) => (
                            <li key={m}>
                              Variant {n}: {m}
                            </li>
                          ))}
                        </ul>
                      </td>
                    </tr>
                  ) : null,
                ];
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <button type="button" className="button-secondary" onClick={() => onChange([...rows, emptyVariant()])}>
        Add variant
      </button>
      <p className="muted small">An empty price uses the product's price ({basePrice ? formatMoney(basePrice, currency) : 'not set'}). Variants are saved with the product.</p>
    </section>
  );
}

const VARIANT_COLUMNS = ['sku', 'title', 'options', 'price', 'inventoryQuantity'];
