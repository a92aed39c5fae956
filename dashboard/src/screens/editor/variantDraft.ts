import type { ApiError } from '../../api/client';
import type { ProductDetailFragment, ProductOptionInput, VariantInput, VariantPatchInput, WeightUnit } from '../../generated/graphql';
import { attributeFieldLabel, tidyValues } from '../attributes/productValues';
import { slugify } from '../productForm';

/**
 * The variants section's state: the options being built, the merchant's edits of the grid's cells, and the
 * combinations left out; and from them the grid (one row per combination), the variants that go away, and the
 * fewest writes that save it (the options first, then the variants).
 */

export const LIMITS = { options: 5, values: 100, variants: 2048 } as const;

export interface OptionDraft {
  id: string;
  name: string;
  /** The option's saved name; null for an option added here. */
  original: string | null;
  values: string[];
  /** For each value, the saved value it was (renamed or not); null for a value added here. */
  origins: (string | null)[];
}

export interface VariantCells {
  sku: string;
  price: string;
  compareAtPrice: string;
  barcode: string;
  weight: string;
  weightUnit: WeightUnit;
  inventoryQuantity: string;
  imageId: string;
  /** The amount in each further currency (by code; empty: the product's price there). */
  prices: Record<string, string>;
  /** The variant attributes' values by code, in the API's encoding. */
  attributes: Record<string, unknown>;
}

/** The cells that hold text; a further currency's price is `prices.JPY`, an attribute's value `attributes.color`. */
export type CellField = Exclude<keyof VariantCells, 'prices' | 'attributes'>;
export type CellKey = CellField | 'row' | `prices.${string}` | `attributes.${string}`;

export interface VariantsDraft {
  options: OptionDraft[];
  /** The merchant's edits by row (a saved variant's id, or `new:` and the combination). */
  edits: Record<string, Partial<VariantCells>>;
  /** Combinations without a variant, and saved variants the merchant removed. */
  excluded: string[];
}

export type SavedVariant = ProductDetailFragment['variants'][number];

export interface GridRow {
  rowId: string;
  comboKey: string;
  /** The values, one per option in order ("Red / M"); "Default" for a product without options. */
  label: string;
  values: string[];
  variant: SavedVariant | null;
  included: boolean;
  cells: VariantCells;
}

export interface RemovedVariant {
  variant: SavedVariant;
  label: string;
  reason: string;
}

export interface GridPlan {
  rows: GridRow[];
  removed: RemovedVariant[];
}

let counter = 0;
export const newOptionId = () => `option-${++counter}`;

const lower = (text: string) => text.trim().toLocaleLowerCase();
const comboKeyOf = (options: OptionDraft[], values: string[]) => options.map((o, i) => `${o.id}=${lower(values[i] ?? '')}`).join('&');
export const labelOf = (values: string[]) => (values.length ? values.join(' / ') : 'Default');

function savedOptions(variant: SavedVariant): Record<string, string> {
  return (variant.options ?? {}) as Record<string, string>;
}

/** The saved value of an option on a variant, found without case. */
function savedValue(variant: SavedVariant, name: string): string | undefined {
  const entry = Object.entries(savedOptions(variant)).find(([key]) => lower(key) === lower(name));
  return entry?.[1];
}

export function draftFromProduct(product: ProductDetailFragment | null): VariantsDraft {
  const options: OptionDraft[] = (product?.options ?? []).map((o) => ({ id: newOptionId(), name: o.name, original: o.name, values: [...o.values], origins: [...o.values] }));
  const draft: VariantsDraft = { options, edits: {}, excluded: [] };
  // Combinations the product has no variant for stay without one until the merchant adds them.
  const plan = planGrid(draft, product, '');
  draft.excluded = plan.rows.filter((r) => !r.variant).map((r) => r.comboKey);
  return draft;
}

function savedCells(v: SavedVariant): VariantCells {
  return {
    sku: v.sku,
    price: v.price ?? '',
    compareAtPrice: v.compareAtPrice ?? '',
    barcode: v.barcode ?? '',
    weight: v.weight ? String(v.weight.value) : '',
    weightUnit: v.weight?.unit ?? 'kg',
    inventoryQuantity: String(v.inventoryQuantity),
    imageId: v.imageId ?? '',
    prices: Object.fromEntries(v.prices.map((p) => [p.currency, p.amount])),
    attributes: tidyValues((v.attributes ?? {}) as Record<string, unknown>),
  };
}

/** A SKU for a new combination: the product's name and the values, in capitals (the merchant may change it). */
export function suggestedSku(productName: string, values: string[]): string {
  const part = (text: string) => slugify(text).toUpperCase();
  const base = part(productName).slice(0, 40).replace(/-+$/, '') || 'SKU';
  return [base, ...values.map(part)].filter(Boolean).join('-').slice(0, 100);
}

const newCells = (productName: string, values: string[]): VariantCells => ({
  sku: suggestedSku(productName, values),
  price: '',
  compareAtPrice: '',
  barcode: '',
  weight: '',
  weightUnit: 'kg',
  inventoryQuantity: '0',
  imageId: '',
  prices: {},
  attributes: {},
});

/** Every combination of the options' values, the first option varying slowest (as the service generates them). */
function combinations(options: OptionDraft[]): string[][] {
  let combos: string[][] = [[]];
  for (const option of options) {
    const values = option.values.filter((v) => v.trim() !== '');
    combos = combos.flatMap((combo) => values.map((value) => [...combo, value]));
  }
  return combos;
}

export function combinationCount(options: OptionDraft[]): number {
  return options.reduce((n, o) => n * o.values.length, 1);
}

/**
 * Where each saved variant lands under the options as edited, as the service carries it on an options write:
 * renames follow, an added option gives it the option's first value, a removed value removes it, and when a
 * removed option makes two variants one combination the first by position stays.
 */
export function planGrid(draft: VariantsDraft, product: ProductDetailFragment | null, productName: string): GridPlan {
  const saved = [...(product?.variants ?? [])].sort((a, b) => a.position - b.position);
  const byCombo = new Map<string, SavedVariant>();
  const removed: RemovedVariant[] = [];
  const usable = draft.options.length > 0 && draft.options.every((o) => o.values.length > 0);
  for (const variant of saved) {
    // Its values in the saved options' order (the variant's own map has no order).
    const oldLabel = labelOf(
      product?.options.length ? product.options.map((o) => savedValue(variant, o.name)).filter((v): v is string => v !== undefined) : Object.values(savedOptions(variant)),
    );
    if (draft.options.length > 0 && !usable) {
      removed.push({ variant, label: oldLabel, reason: 'an option has no values' });
      continue;
    }
    const values: string[] = [];
    let gone: string | null = null;
    for (const option of draft.options) {
      if (option.original === null) {
        values.push(option.values[0]!);
        continue;
      }
      const value = savedValue(variant, option.original);
      // A renamed value carries its variants; else the same value, without case, does.
      const renamed = value === undefined ? -1 : option.origins.findIndex((o) => o !== null && lower(o) === lower(value));
      const now = value === undefined ? undefined : renamed >= 0 ? option.values[renamed] : option.values.find((v) => lower(v) === lower(value));
      if (now === undefined) {
        gone = `${option.name || option.original} “${value ?? ''}” is removed`;
        break;
      }
      values.push(now);
    }
    if (gone) {
      removed.push({ variant, label: oldLabel, reason: gone });
      continue;
    }
    const key = comboKeyOf(draft.options, values);
    if (byCombo.has(key)) removed.push({ variant, label: oldLabel, reason: `it would repeat ${labelOf(values)}` });
    else byCombo.set(key, variant);
  }
  const excluded = new Set(draft.excluded);
  const combos = draft.options.length === 0 ? (saved.length || byCombo.size ? [[]] : []) : usable ? combinations(draft.options) : [];
  const rows = combos.map((values) => {
    const comboKey = comboKeyOf(draft.options, values);
    const variant = byCombo.get(comboKey) ?? null;
    const rowId = variant ? variant.id : `new:${comboKey}`;
    const base = variant ? savedCells(variant) : newCells(productName, values);
    return { rowId, comboKey, label: labelOf(values), values, variant, included: !excluded.has(comboKey), cells: { ...base, ...draft.edits[rowId] } };
  });
  return { rows, removed };
}

/** The options as the service takes them: each saved one named by its former name when renamed. */
export function optionInputs(options: OptionDraft[]): ProductOptionInput[] {
  return options.map((o) => {
    const input: ProductOptionInput = { name: o.name.trim(), values: o.values.map((v) => v.trim()) };
    if (o.original !== null && o.original !== o.name.trim()) input.renamedFrom = o.original;
    const renamedValues = Object.fromEntries(
      o.values.flatMap((v, i) => {
        const origin = o.origins[i];
        return origin != null && origin !== v.trim() ? [[origin, v.trim()]] : [];
      }),
    );
    if (o.original !== null && Object.keys(renamedValues).length) input.renamedValues = renamedValues;
    return input;
  });
}

export function optionsChanged(options: OptionDraft[], product: ProductDetailFragment | null): boolean {
  const shape = (list: { name: string; values: string[] }[]) => JSON.stringify(list.map((o) => [o.name.trim(), o.values.map((v) => v.trim())]));
  return shape(options) !== shape(product?.options ?? []) || options.some((o) => o.original !== null && o.original !== o.name.trim());
}

/** A cell's text as the API value (as the product's own fields: text that is no number goes as typed, for the service to judge). */
function decimal(text: string): string | null {
  return text.trim() === '' ? null : text.trim();
}
function integer(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  return (/^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed) as number;
}
function weightOf(cells: VariantCells): { value: number; unit: WeightUnit } | null {
  const trimmed = cells.weight.trim();
  if (trimmed === '') return null;
  return { value: (/^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed) as number, unit: cells.weightUnit };
}

type PriceList = NonNullable<VariantInput['prices']>;

/**
 * The variant's prices in further currencies as sent: the amounts of the grid's cells, and the saved prices of
 * currencies the grid does not show (with their compare-at amounts), in the order of the codes.
 */
function pricesOf(row: GridRow): PriceList {
  const saved = new Map((row.variant?.prices ?? []).map((p) => [p.currency, p]));
  const codes = [...new Set([...saved.keys(), ...Object.keys(row.cells.prices)])].sort();
  return codes.flatMap((currency) => {
    const amount = (row.cells.prices[currency] ?? saved.get(currency)?.amount ?? '').trim();
    if (amount === '') return [];
    return [{ currency, amount, compareAtAmount: saved.get(currency)?.compareAtAmount ?? null }];
  });
}

const savedPrices = (v: SavedVariant): PriceList =>
  [...v.prices].sort((a, b) => a.currency.localeCompare(b.currency)).map((p) => ({ currency: p.currency, amount: p.amount, compareAtAmount: p.compareAtAmount ?? null }));

function variantInput(row: GridRow, options: OptionDraft[], position: number): VariantInput {
  const c = row.cells;
  const input: VariantInput = {
    sku: c.sku.trim(),
    title: row.variant?.title || (options.length ? row.label : ''),
    options: Object.fromEntries(options.map((o, i) => [o.name.trim(), row.values[i]!.trim()])),
    price: decimal(c.price),
    compareAtPrice: decimal(c.compareAtPrice),
    barcode: decimal(c.barcode),
    weight: weightOf(c),
    inventoryQuantity: integer(c.inventoryQuantity),
    imageId: c.imageId || null,
    position,
  };
  // A whole-set write keeps what the grid does not show: the cost, and (in pricesOf) other currencies' prices.
  if (row.variant) input.cost = row.variant.cost ?? null;
  const prices = pricesOf(row);
  if (row.variant || prices.length) input.prices = prices;
  const attributes = tidyValues(c.attributes);
  if (row.variant || Object.keys(attributes).length) input.attributes = attributes;
  return input;
}

/** The fields of a saved variant's row that differ from the variant, as a patch; null when none do. */
function variantPatch(row: GridRow): VariantPatchInput | null {
  const v = row.variant!;
  const before = savedCells(v);
  const c = row.cells;
  const patch: VariantPatchInput = { id: v.id };
  if (c.sku.trim() !== before.sku) patch.sku = c.sku.trim();
  if (c.price.trim() !== before.price) patch.price = decimal(c.price);
  if (c.compareAtPrice.trim() !== before.compareAtPrice) patch.compareAtPrice = decimal(c.compareAtPrice);
  if (c.barcode.trim() !== before.barcode) patch.barcode = decimal(c.barcode);
  if (c.weight.trim() !== before.weight || (c.weight.trim() !== '' && c.weightUnit !== before.weightUnit)) patch.weight = weightOf(c);
  if (c.inventoryQuantity.trim() !== before.inventoryQuantity) patch.inventoryQuantity = integer(c.inventoryQuantity);
  if (c.imageId !== before.imageId) patch.imageId = c.imageId || null;
  const prices = pricesOf(row);
  if (JSON.stringify(prices) !== JSON.stringify(savedPrices(v))) patch.prices = prices;
  const attributes = tidyValues(c.attributes);
  if (JSON.stringify(attributes) !== JSON.stringify(before.attributes)) patch.attributes = attributes;
  return Object.keys(patch).length > 1 ? patch : null;
}

export type VariantWrite = { kind: 'replace'; variants: VariantInput[]; rowIds: string[] } | { kind: 'update'; variants: VariantPatchInput[]; rowIds: string[] };

export interface SavePlan {
  options: ProductOptionInput[] | null;
  /** Saved variants the options write deletes (removed values, repeated combinations). */
  deleteVariants: boolean;
  /** In order; at most two (new SKUs of saved variants, then the whole set), usually one or none. */
  variants: VariantWrite[];
}

/**
 * The fewest writes for a saved product: the options when they changed (deleting the variants they leave
 * without a place), then one variant write: the whole set when combinations are added or removed, else the
 * changed fields of the changed variants only. A whole-set write keeps a variant's id by its SKU, so saved
 * variants given a new SKU get it by id first.
 */
export function savePlan(draft: VariantsDraft, product: ProductDetailFragment, productName: string): SavePlan {
  const grid = planGrid(draft, product, productName);
  const options = optionsChanged(draft.options, product) ? optionInputs(draft.options) : null;
  const kept = grid.rows.filter((r) => r.included);
  const added = kept.some((r) => !r.variant);
  const dropped = grid.rows.some((r) => !r.included && r.variant);
  const variants: VariantWrite[] = [];
  if (added || dropped) {
    const renamed = kept.filter((r) => r.variant && r.cells.sku.trim() !== r.variant.sku);
    if (renamed.length) variants.push({ kind: 'update', variants: renamed.map((r) => ({ id: r.variant!.id, sku: r.cells.sku.trim() })), rowIds: renamed.map((r) => r.rowId) });
    variants.push({ kind: 'replace', variants: kept.map((r, i) => variantInput(r, draft.options, i)), rowIds: kept.map((r) => r.rowId) });
  } else {
    const patches: VariantPatchInput[] = [];
    const rowIds: string[] = [];
    // When the options were reordered, the variants follow the grid's order.
    const savedOrder = kept.map((r) => r.variant!.position);
    const reorder = options !== null && savedOrder.some((p, i) => i > 0 && p < savedOrder[i - 1]!);
    kept.forEach((row, index) => {
      const patch = variantPatch(row) ?? (reorder ? { id: row.variant!.id } : null);
      if (!patch) return;
      if (reorder) patch.position = index;
      if (Object.keys(patch).length > 1) {
        patches.push(patch);
        rowIds.push(row.rowId);
      }
    });
    if (patches.length) variants.push({ kind: 'update', variants: patches, rowIds });
  }
  return { options, deleteVariants: grid.removed.length > 0, variants };
}

/** The create input's options and variants: every combination kept, in the grid's order. */
export function createParts(draft: VariantsDraft, productName: string): { options?: ProductOptionInput[]; variants?: VariantInput[]; rowIds: string[] } {
  const kept = planGrid(draft, null, productName).rows.filter((r) => r.included);
  return {
    ...(draft.options.length ? { options: optionInputs(draft.options) } : {}),
    ...(kept.length ? { variants: kept.map((r, i) => variantInput(r, draft.options, i)) } : {}),
    rowIds: kept.map((r) => r.rowId),
  };
}

/** Whether the section says something else than the product: the same test as the save's. */
export function variantsDirty(draft: VariantsDraft, product: ProductDetailFragment | null, productName: string): boolean {
  if (!product) return draft.options.length > 0;
  const plan = savePlan(draft, product, productName);
  return plan.options !== null || plan.variants.length > 0;
}

/** A refused options or variants write, by where its problems show: options by option, cells by row and field. */
export interface VariantErrors {
  options: Record<string, string>;
  cells: Record<string, Partial<Record<CellKey, string>>>;
  general: string | null;
}

export const noVariantErrors = (): VariantErrors => ({ options: {}, cells: {}, general: null });

const CELL_OF: Partial<Record<string, CellField>> = {
  sku: 'sku',
  price: 'price',
  compareAtPrice: 'compareAtPrice',
  compare_at_price: 'compareAtPrice',
  barcode: 'barcode',
  weight: 'weight',
  inventoryQuantity: 'inventoryQuantity',
  inventory_quantity: 'inventoryQuantity',
  imageId: 'imageId',
  image_id: 'imageId',
};

/** A variant's fields that have no cell of their own, in the merchant's words. */
const ROW_FIELDS: Partial<Record<string, string>> = { prices: 'Prices in other currencies', attributes: 'Attributes', options: 'Options', title: 'Title', cost: 'Cost', position: 'Position' };

/**
 * Sorts a refused write's field errors (options.1.values.2, variants.3.sku, as sent) to the option or the cell
 * they are about; what is about no cell (a variant's options, title, attributes) goes to the row.
 */
export function variantErrorsOf(error: ApiError, options: OptionDraft[], rowIds: string[], sent: { prices?: PriceList | null }[] = []): VariantErrors {
  const result = noVariantErrors();
  let placed = 0;
  for (const [field, message] of Object.entries(error.fields)) {
    const option = /^options\.(\d+)(?:\.(name|values)(?:\.(\d+))?)?/.exec(field);
    if (option) {
      const draft = options[Number(option[1])];
      if (draft) {
        const where = option[2] === 'values' && option[3] !== undefined ? `value “${draft.values[Number(option[3])] ?? ''}”: ` : '';
        result.options[`${draft.id}.${option[2] === 'values' ? 'values' : 'name'}`] = `${where}${message}`;
      } else result.options.all = message;
      placed++;
      continue;
    }
    if (field === 'options') {
      result.options.all = message;
      placed++;
      continue;
    }
    const variant = /^variants\.(\d+)(?:\.(\w+)(?:\.([^.]+))?)?/.exec(field);
    if (variant) {
      const rowId = rowIds[Number(variant[1])];
      if (rowId) {
        // A further currency's price (prices.0.amount, by its place in the list sent) or an attribute (attributes.color).
        const currency = variant[2] === 'prices' && variant[3] !== undefined ? sent[Number(variant[1])]?.prices?.[Number(variant[3])]?.currency : undefined;
        const cell: CellKey = currency ? `prices.${currency}` : variant[2] === 'attributes' && variant[3] ? `attributes.${variant[3]}` : (CELL_OF[variant[2] ?? ''] ?? 'row');
        const cells = (result.cells[rowId] ??= {});
        cells[cell] = cell === 'row' && variant[2] ? `${ROW_FIELDS[variant[2]] ?? variant[2]}: ${message}` : message;
        placed++;
        continue;
      }
    }
    if (field === 'variants') {
      result.general = message;
      placed++;
    }
  }
  if (placed === 0) result.general = error.message;
  return result;
}

export const CELL_LABELS: Record<CellField | 'row', string> = {
  sku: 'SKU',
  price: 'Price',
  compareAtPrice: 'Compare-at price',
  barcode: 'Barcode',
  weight: 'Weight',
  weightUnit: 'Weight unit',
  inventoryQuantity: 'Inventory',
  imageId: 'Image',
  row: 'Variant',
};

/** A cell's name for the merchant: "SKU", "Price (JPY)", the attribute's name. */
export function cellLabel(key: string): string {
  if (key.startsWith('prices.')) return `Price (${key.slice(7)})`;
  if (key.startsWith('attributes.')) return attributeFieldLabel(key) ?? key.slice(11);
  return CELL_LABELS[key as CellField | 'row'] ?? key;
}

/** The error summary's lines for the section: "Variant Red / M: SKU", "Option 2 (Size): name". */
export function variantSummary(errors: VariantErrors, draft: VariantsDraft, plan: GridPlan): { field: string; label: string; message: string }[] {
  const items: { field: string; label: string; message: string }[] = [];
  if (errors.options.all) items.push({ field: 'options', label: 'Options', message: errors.options.all });
  draft.options.forEach((o, i) => {
    for (const part of ['name', 'values'] as const) {
      const message = errors.options[`${o.id}.${part}`];
      if (message) items.push({ field: `options.${o.id}.${part}`, label: `Option ${i + 1}${o.name.trim() ? ` (${o.name.trim()})` : ''}: ${part === 'name' ? 'name' : 'values'}`, message });
    }
  });
  for (const row of plan.rows) {
    const cells = errors.cells[row.rowId];
    if (!cells) continue;
    for (const [field, message] of Object.entries(cells)) {
      items.push({ field: `variants.${row.rowId}.${field}`, label: `Variant ${row.label}${field === 'row' ? '' : `: ${cellLabel(field)}`}`, message: message! });
    }
  }
  if (errors.general) items.push({ field: 'variants', label: 'Variants', message: errors.general });
  return items;
}

/** The draft once its options were written: they are the product's saved options now (the grid's edits stay). */
export function optionsSaved(draft: VariantsDraft): VariantsDraft {
  return {
    ...draft,
    options: draft.options.map((o) => {
      const values = o.values.map((v) => v.trim());
      return { ...o, name: o.name.trim(), original: o.name.trim(), values, origins: [...values] };
    }),
  };
}
