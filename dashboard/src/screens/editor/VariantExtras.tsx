import { useEffect, useState } from 'react';
import { query } from '../../api/client';
import { FieldError } from '../../components/ui';
import { StoreLanguagesDocument, type StoreCurrencyFieldsFragment } from '../../generated/graphql';
import { amountProblem, exampleAmount } from '../../lib/languages';
import { useWorkspace } from '../../session';
import { useAttributeCatalog, valueMessage, type AttributeDef } from '../attributes/catalog';
import { AttributeValueField } from './AttributeValueField';
import type { CellKey, GridRow, VariantCells } from './variantDraft';
import './variantExtras.css';

/**
 * The grid's further columns: the variant's price in each of the store's further currencies, and a value per
 * variant attribute of the product's type (rich text and references are kept as saved: they do not fit a cell).
 */

export interface VariantColumns {
  currencies: StoreCurrencyFieldsFragment[];
  attributes: { attribute: AttributeDef; required: boolean }[];
}

const IN_GRID = new Set(['plain_text', 'numeric', 'date', 'date_time', 'dropdown', 'boolean', 'multiselect', 'swatch']);
/** The attributes one value can be set for several variants at once. */
const IN_BULK = new Set(['dropdown', 'swatch', 'numeric', 'boolean']);

export function useVariantColumns(productTypeId: string): VariantColumns {
  const { storeId, mode } = useWorkspace();
  const catalog = useAttributeCatalog(storeId);
  const [currencies, setCurrencies] = useState<StoreCurrencyFieldsFragment[]>([]);
  useEffect(() => {
    let live = true;
    query(StoreLanguagesDocument, { storeId })
      .then((data) => live && setCurrencies(data.storeCurrencies.filter((c) => !c.default)))
      // Without the currencies the grid shows the store's own only; the variants' other prices are kept.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [storeId, mode]);
  const type = catalog.data?.productTypes.find((t) => t.id === productTypeId);
  const attributes = (type?.variantAttributes ?? []).flatMap((item) => {
    const attribute = catalog.data!.attributes.find((a) => a.id === item.attributeId);
    return attribute && IN_GRID.has(attribute.type) ? [{ attribute, required: item.required }] : [];
  });
  return { currencies, attributes };
}

/** A value's error as a sentence about the attribute: "Fit is required for this product type". */
const sentence = (name: string, text: string | undefined) => (text && /^[a-z]/.test(text) ? `${name} ${text}` : text);

export const extraColumnCount = (columns: VariantColumns) => columns.currencies.length + columns.attributes.length;

export function ExtraHeaders({ columns }: { columns: VariantColumns }) {
  return (
    <>
      {columns.currencies.map((c) => (
        <th scope="col" key={`price-${c.currency}`}>
          Price ({c.currency})
        </th>
      ))}
      {columns.attributes.map(({ attribute }) => (
        <th scope="col" key={`attr-${attribute.id}`}>
          {attribute.name}
        </th>
      ))}
    </>
  );
}

/** What is wrong with a further currency's amount: the service's word after a save, else the check as it is typed. */
export function priceError(row: GridRow, currency: StoreCurrencyFieldsFragment, errors: Partial<Record<CellKey, string>>): string | undefined {
  const amount = row.cells.prices[currency.currency] ?? '';
  const local = amount.trim() === '' ? null : amountProblem(amount, currency.minorUnits);
  return local ?? errors[`prices.${currency.currency}`];
}

export function ExtraCells({
  row,
  name,
  idBase,
  columns,
  errors,
  edit,
}: {
  row: GridRow;
  name: string;
  idBase: string;
  columns: VariantColumns;
  errors: Partial<Record<CellKey, string>>;
  edit: (change: Partial<VariantCells>) => void;
}) {
  return (
    <>
      {columns.currencies.map((c) => {
        const message = priceError(row, c, errors);
        const errorId = `${idBase}-price-${c.currency}-error`;
        return (
          <td key={`price-${c.currency}`} className={message ? 'cell-invalid' : undefined}>
            <input
              aria-label={`Price (${c.currency}) of ${name}`}
              className="cell-number"
              inputMode="decimal"
              placeholder={exampleAmount(c.minorUnits)}
              value={row.cells.prices[c.currency] ?? ''}
              onChange={(e) => edit({ prices: { ...row.cells.prices, [c.currency]: e.target.value } })}
              aria-invalid={message ? true : undefined}
              aria-describedby={message ? errorId : undefined}
            />
            <FieldError message={message} id={errorId} />
          </td>
        );
      })}
      {columns.attributes.map(({ attribute, required }) => (
        <td key={`attr-${attribute.id}`} className="variant-attr-cell">
          <AttributeValueField
            attribute={attribute}
            label={`${attribute.name} of ${name}`}
            required={required}
            value={row.cells.attributes[attribute.code] ?? null}
            onChange={(value) => edit({ attributes: { ...row.cells.attributes, [attribute.code]: value } })}
            error={sentence(attribute.name, valueMessage(errors[`attributes.${attribute.code}`], attribute))}
          />
        </td>
      ))}
    </>
  );
}

/** The further fields bulk edit offers: a price per further currency, and the attributes with one value to choose. */
export function extraBulkFields(columns: VariantColumns): { field: string; label: string }[] {
  return [
    ...columns.currencies.map((c) => ({ field: `prices.${c.currency}`, label: `Price (${c.currency})` })),
    ...columns.attributes.filter(({ attribute }) => IN_BULK.has(attribute.type)).map(({ attribute }) => ({ field: `attributes.${attribute.code}`, label: attribute.name })),
  ];
}

/** The change of one row for a further field set in bulk. */
export function extraChange(field: string, value: unknown): (row: GridRow) => Partial<VariantCells> {
  if (field.startsWith('prices.')) {
    const currency = field.slice(7);
    return (row) => ({ prices: { ...row.cells.prices, [currency]: typeof value === 'string' ? value : '' } });
  }
  const code = field.slice(11);
  return (row) => ({ attributes: { ...row.cells.attributes, [code]: value } });
}

/** The bulk edit's value input for a further field; null for a field that is none. */
export function ExtraBulkValue({
  field,
  columns,
  value,
  onChange,
  onEnter,
}: {
  field: string;
  columns: VariantColumns;
  value: unknown;
  onChange: (value: unknown) => void;
  onEnter: () => void;
}) {
  if (field.startsWith('prices.')) {
    const currency = columns.currencies.find((c) => `prices.${c.currency}` === field);
    const text = typeof value === 'string' ? value : '';
    const problem = currency && text.trim() !== '' ? amountProblem(text, currency.minorUnits) : null;
    return (
      <span className="bulk-extra">
        <input
          aria-label={`New price (${field.slice(7)}) of the selected variants`}
          className="bulk-value"
          inputMode="decimal"
          value={text}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'variant-bulk-extra-error' : undefined}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onEnter();
            }
          }}
        />
        <FieldError message={problem ?? undefined} id="variant-bulk-extra-error" />
      </span>
    );
  }
  const item = columns.attributes.find(({ attribute }) => `attributes.${attribute.code}` === field);
  if (!item) return null;
  return (
    <span className="bulk-extra variant-attr-cell">
      <AttributeValueField attribute={item.attribute} label={`New ${item.attribute.name.toLowerCase()} of the selected variants`} value={value ?? null} onChange={onChange} />
    </span>
  );
}
