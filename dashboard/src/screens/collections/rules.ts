import type { CollectionDetailFragment, CollectionRuleChoicesQuery } from '../../generated/graphql';
import { fromDateTimeLocal, toDateTimeLocal } from '../../lib/format';

/** A smart collection's rules as the rule builder edits them, in the merchant's words. */

export const RULE_FIELDS = ['tag', 'category', 'product_type', 'attribute', 'price', 'inventory', 'status', 'created_at'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

export const FIELD_LABELS: Record<RuleField, string> = {
  tag: 'Tag',
  category: 'Category',
  product_type: 'Product type',
  attribute: 'Attribute',
  price: 'Price',
  inventory: 'Inventory',
  status: 'Status',
  created_at: 'Date created',
};

const EQUALITY = ['equals', 'not_equals'];
const ORDERING = ['equals', 'not_equals', 'greater_than', 'less_than', 'at_least', 'at_most'];

export const OPERATOR_LABELS: Record<string, string> = {
  equals: 'is',
  not_equals: 'is not',
  greater_than: 'is greater than',
  less_than: 'is less than',
  at_least: 'is at least',
  at_most: 'is at most',
  after: 'is after',
  before: 'is before',
};

export const STATUS_LABELS: Record<string, string> = { active: 'Active', draft: 'Draft', archived: 'Archived' };

export type Attribute = CollectionRuleChoicesQuery['attributes']['items'][number];

/** The conditions a field offers (an attribute's ordering ones only when it holds numbers). */
export function operatorsFor(field: RuleField, attribute?: Attribute): string[] {
  if (field === 'price' || field === 'inventory') return ORDERING;
  if (field === 'created_at') return ['after', 'before'];
  if (field === 'attribute') return attribute?.type === 'numeric' ? ORDERING : EQUALITY;
  return EQUALITY;
}

/** A rule being edited: every part as the inputs hold it (a date as the local date-time input's value). */
export interface RuleRow {
  key: string;
  field: RuleField;
  operator: string;
  value: string;
  attribute: string;
}

let nextKey = 0;
const key = () => `rule-${++nextKey}`;

export const newRule = (field: RuleField = 'tag'): RuleRow => ({ key: key(), field, operator: operatorsFor(field)[0]!, value: field === 'status' ? 'active' : '', attribute: '' });

export function rulesFromCollection(c: Pick<CollectionDetailFragment, 'rules'>): RuleRow[] {
  return c.rules.map((r) => ({
    key: key(),
    field: r.field as RuleField,
    operator: r.operator,
    value: r.field === 'created_at' ? toDateTimeLocal(r.value) : r.value,
    attribute: r.attribute ?? '',
  }));
}

/** The rules as the API takes them. */
export function rulesInput(rows: RuleRow[]) {
  return rows.map((r) => ({
    field: r.field,
    operator: r.operator,
    value: r.field === 'created_at' ? (fromDateTimeLocal(r.value) ?? r.value) : r.value.trim(),
    ...(r.field === 'attribute' ? { attribute: r.attribute } : {}),
  }));
}

/** The rules' content without the keys, to tell whether they changed. */
export const rulesSnapshot = (rows: RuleRow[]) => JSON.stringify(rows.map(({ key: _key, ...rest }) => rest));

/** Whether every rule is filled in (an incomplete one is not counted yet). */
export const rulesComplete = (rows: RuleRow[]) => rows.length > 0 && rows.every((r) => r.value.trim() !== '' && (r.field !== 'attribute' || r.attribute !== ''));

/** A refused rule part in the merchant's words: the service's message names codes and formats. */
export function ruleErrorText(row: RuleRow | undefined, part: string, message: string): string {
  if (!row) return message;
  if (part === 'field') return 'Choose what the rule looks at.';
  if (part === 'operator') return 'Choose one of the conditions offered.';
  if (part === 'attribute') return /numeric|takes a/.test(message) ? 'This condition needs an attribute that holds numbers.' : 'Choose an attribute.';
  if (/must not be empty/.test(message)) return row.field === 'created_at' ? 'Choose a date and time.' : 'Enter a value.';
  switch (row.field) {
    case 'price':
      return 'Enter an amount such as 49.99.';
    case 'inventory':
      return 'Enter a whole number.';
    case 'created_at':
      return 'Choose a date and time.';
    case 'category':
      return 'Choose a category: the one chosen no longer exists.';
    case 'product_type':
      return 'Choose a product type: the one chosen no longer exists.';
    case 'status':
      return 'Choose a status.';
    case 'attribute':
      return 'Enter a number.';
    case 'tag':
      return /64/.test(message) ? 'A tag has at most 64 characters.' : message;
  }
}

/** "No products match", "1 product matches", "37 products match" (or "Over 80 …" for a bound). */
export function matchCountText(count: number, exact = true): string {
  if (count === 0) return 'No products match';
  if (count === 1 && exact) return '1 product matches';
  return `${exact ? '' : 'Over '}${count.toLocaleString()} products match`;
}
