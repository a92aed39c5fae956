/**
 * Smart collection rules: their shape, their check against the store (every error at once, as `rules.2.value`), and
 * their translation to one SQL predicate per collection over a product row (membershipRowsSql), which both the
 * membership statement of a product write and a rule change's recompute evaluate.
 */

import { z } from 'zod';
import type { Prisma as PrismaTypes } from '../../platform/db/client';
import { Prisma } from '../../platform/db/client';
import type { FieldError } from '../../platform/errors';
import type { Mode } from '../../kernel/access';
import { parseRfc3339 } from '../../kernel/time';
import { isUuid } from '../../kernel/ids';
import { CATALOG_LIMITS } from '../limits';

type Tx = Pick<PrismaTypes.TransactionClient, '$queryRaw'>;

export const RULE_FIELDS = ['tag', 'category', 'product_type', 'attribute', 'price', 'inventory', 'status', 'created_at'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

const EQUALITY = ['equals', 'not_equals'] as const;
const NUMERIC = ['equals', 'not_equals', 'greater_than', 'less_than', 'at_least', 'at_most'] as const;
const DATE = ['after', 'before'] as const;

/** Which operators each field takes (an attribute's numeric ones only for numeric attributes). */
export const RULE_OPERATORS: Record<RuleField, readonly string[]> = {
  tag: EQUALITY,
  category: EQUALITY,
  product_type: EQUALITY,
  status: EQUALITY,
  attribute: ['equals', 'not_equals', 'greater_than', 'less_than', 'at_least', 'at_most'],
  price: NUMERIC,
  inventory: NUMERIC,
  created_at: DATE,
};
export const ALL_OPERATORS = [...new Set(Object.values(RULE_OPERATORS).flat())];

/** A rule as stored and shown: `attribute` (the code) only for attribute rules; `value` always a string. */
export interface CollectionRule {
  field: RuleField;
  operator: string;
  value: string;
  attribute?: string;
}

const RuleShape = z.object({
  field: z.enum(RULE_FIELDS),
  operator: z.enum(ALL_OPERATORS as [string, ...string[]]),
  value: z.union([z.string(), z.number(), z.boolean()]).transform((v) => String(v).trim()),
  attribute: z.string().trim().min(1).max(64).optional().nullable(),
});
export const RulesInput = z.array(z.unknown()).max(CATALOG_LIMITS.rulesPerCollection);

/** A product's statuses (products.ts has them too; importing it would make a cycle: product writes call the membership). */
const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;

const DECIMAL = /^-?\d{1,12}(\.\d{1,3})?$/;
const INTEGER = /^-?\d{1,10}$/;

/** What the store has that rules name: categories by slug, product types by id, attributes by code. */
interface StoreVocabulary {
  /** Category ids by slug, and by id. */
  categories: Map<string, string>;
  productTypes: Set<string>;
  attributes: Map<string, string>;
}

async function storeVocabulary(tx: Tx, storeId: string): Promise<StoreVocabulary> {
  const [rows] = await tx.$queryRaw<{ categories: { id: string; slug: string }[] | null; product_types: string[]; attributes: { code: string; type: string }[] | null }[]>`
    SELECT (SELECT json_agg(json_build_object('id', id, 'slug', slug)) FROM categories WHERE store_id = ${storeId}::uuid) AS categories,
      ARRAY(SELECT id::text FROM product_types WHERE store_id = ${storeId}::uuid) AS product_types,
      (SELECT json_agg(json_build_object('code', code, 'type', type)) FROM attributes WHERE store_id = ${storeId}::uuid) AS attributes`;
  const categories = new Map((rows.categories ?? []).flatMap((c) => [[c.slug, c.id] as const, [c.id, c.id] as const]));
  return { categories, productTypes: new Set(rows.product_types), attributes: new Map((rows.attributes ?? []).map((a) => [a.code, a.type])) };
}

/**
 * The rules checked, every error at once with its path (`rules.2.operator`): shape, the field's operators, values of
 * the right kind, and names the store has (category slugs, product type ids, attribute codes).
 */
export async function checkRules(tx: Tx, storeId: string, input: unknown[], field = 'rules'): Promise<{ rules: CollectionRule[]; errors: FieldError[] }> {
  const errors: FieldError[] = [];
  const rules: CollectionRule[] = [];
  const vocabulary = input.length ? await storeVocabulary(tx, storeId) : null;
  input.forEach((raw, i) => {
    const at = (name: string) => `${field}.${i}.${name}`;
    const parsed = RuleShape.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const name = String(issue.path[0] ?? '');
        errors.push({ field: name ? at(name) : `${field}.${i}`, code: issue.code === 'invalid_value' ? 'invalid_choice' : 'invalid', message: name ? ruleMessage(name) : 'must be an object {field, operator, value}' });
      }
      return;
    }
    const r = parsed.data;
    const fail = (name: string, code: string, message: string) => errors.push({ field: at(name), code, message });
    if (!RULE_OPERATORS[r.field].includes(r.operator)) {
      fail('operator', 'invalid_choice', `${r.field} takes ${RULE_OPERATORS[r.field].join(', ')}`);
      return;
    }
    if (r.field === 'attribute' ? !r.attribute : r.attribute != null) {
      fail('attribute', r.field === 'attribute' ? 'required' : 'not_allowed', r.field === 'attribute' ? 'the attribute code the rule tests' : 'only attribute rules name an attribute');
    }
    if (!r.value) fail('value', 'required', 'must not be empty');
    else valueErrors(r, vocabulary!).forEach((message) => fail(message.startsWith('attribute:') ? 'attribute' : 'value', message.split(':')[0] === 'unknown' ? 'unknown_reference' : 'invalid', message.replace(/^\w+:/, '')));
    // A category is kept by id, so renaming its slug leaves the rule as it was meant.
    const value = r.field === 'category' ? (vocabulary!.categories.get(r.value) ?? r.value) : r.value;
    rules.push({ field: r.field, operator: r.operator, value, ...(r.field === 'attribute' && r.attribute ? { attribute: r.attribute } : {}) });
  });
  return { rules, errors };
}

const ruleMessage = (name: string) =>
  name === 'field' ? `must be one of ${RULE_FIELDS.join(', ')}` : name === 'operator' ? `must be one of ${ALL_OPERATORS.join(', ')}` : name === 'value' ? 'must be a string or number' : 'must be an attribute code';

/** The value's errors for its field, as "kind:message" (unknown: a name the store lacks; attribute: about the attribute). */
function valueErrors(r: { field: RuleField; operator: string; value: string; attribute?: string | null }, v: StoreVocabulary): string[] {
  switch (r.field) {
    case 'tag':
      return r.value.length > 64 ? ['invalid:at most 64 characters'] : [];
    case 'category':
      return v.categories.has(r.value) ? [] : [`unknown:no category with slug or id "${r.value}" in this store`];
    case 'product_type':
      return isUuid(r.value) && v.productTypes.has(r.value) ? [] : [`unknown:no product type with id "${r.value}" in this store`];
    case 'status':
      return (PRODUCT_STATUSES as readonly string[]).includes(r.value) ? [] : [`invalid:must be one of ${PRODUCT_STATUSES.join(', ')}`];
    case 'price':
      return DECIMAL.test(r.value) ? [] : ['invalid:must be a decimal number such as 49.99'];
    case 'inventory':
      return INTEGER.test(r.value) ? [] : ['invalid:must be a whole number'];
    case 'created_at':
      return parseRfc3339(r.value) ? [] : ['invalid:must be an RFC 3339 timestamp with an offset, e.g. 2026-05-01T00:00:00Z'];
    case 'attribute': {
      if (!r.attribute) return [];
      const type = v.attributes.get(r.attribute);
      if (!type) return [`attribute:no attribute with code "${r.attribute}" in this store`];
      if (EQUALITY.includes(r.operator as never)) return [];
      if (type !== 'numeric') return [`attribute:${r.operator} takes a numeric attribute; "${r.attribute}" is ${type}`];
      return DECIMAL.test(r.value) ? [] : ['invalid:must be a number'];
    }
  }
}

const COMPARE: Record<string, string> = { equals: '=', not_equals: '<>', greater_than: '>', less_than: '<', at_least: '>=', at_most: '<=', after: '>', before: '<' };

/** One rule as a predicate over a row of membershipRowsSql (alias `p`). Values are parameters, never SQL text. */
function ruleSql(r: CollectionRule): Prisma.Sql {
  const op = Prisma.raw(COMPARE[r.operator]);
  const negate = r.operator === 'not_equals';
  const has = (sql: Prisma.Sql) => (negate ? Prisma.sql`NOT (${sql})` : sql);
  switch (r.field) {
    case 'tag':
      return has(Prisma.sql`${r.value}::text = ANY(p.tags)`);
    case 'category':
      return has(Prisma.sql`${r.value}::uuid = ANY(p.category_ids)`);
    case 'product_type':
      return negate ? Prisma.sql`p.product_type_id IS DISTINCT FROM ${r.value}::uuid` : Prisma.sql`p.product_type_id = ${r.value}::uuid`;
    case 'status':
      return Prisma.sql`p.status ${op} ${r.value}::"ProductStatus"`;
    case 'price':
      return Prisma.sql`p.price ${op} ${r.value}::numeric`;
    case 'inventory':
      return Prisma.sql`p.inventory_quantity ${op} ${r.value}::int`;
    case 'created_at':
      return Prisma.sql`p.created_at ${op} ${parseRfc3339(r.value)!.toISOString()}::timestamptz`;
    case 'attribute':
      // On the product or any of its variants, as the list's attribute filter reads product_attribute_values.
      return EQUALITY.includes(r.operator as never)
        ? has(Prisma.sql`${`${r.attribute}:${r.value}`}::text = ANY(p.attribute_values)`)
        : Prisma.sql`EXISTS (SELECT 1 FROM product_attribute_values v WHERE v.product_id = p.id AND v.code = ${r.attribute!} AND v.value_num ${op} ${r.value}::numeric)`;
  }
}

/** A collection's rules as one predicate: all (AND) or any (OR) of them. */
export function collectionPredicateSql(rules: CollectionRule[], match: 'all' | 'any'): Prisma.Sql {
  if (!rules.length) return Prisma.sql`false`;
  return Prisma.sql`(${Prisma.join(rules.map(ruleSql), match === 'all' ? ' AND ' : ' OR ')})`;
}

/**
 * The products a predicate reads (alias `p`): the product's columns, and its category ids and attribute values as
 * arrays, computed once per product whatever the number of collections (only when some rule reads them).
 */
export function membershipRowsSql(storeId: string, mode: Mode, rules: CollectionRule[], where: Prisma.Sql): Prisma.Sql {
  const categories = rules.some((r) => r.field === 'category')
    ? Prisma.sql`ARRAY(SELECT pc.category_id FROM product_categories pc WHERE pc.product_id = p.id)`
    : Prisma.sql`'{}'::uuid[]`;
  const attributes = rules.some((r) => r.field === 'attribute')
    ? Prisma.sql`ARRAY(SELECT v.code || ':' || v.value FROM product_attribute_values v WHERE v.product_id = p.id)`
    : Prisma.sql`'{}'::text[]`;
  return Prisma.sql`SELECT p.id, p.tags, p.status, p.price, p.inventory_quantity, p.created_at, p.product_type_id,
      ${categories} AS category_ids, ${attributes} AS attribute_values
    FROM products p WHERE p.store_id = ${storeId}::uuid AND p.mode = ${mode}::"Mode" AND ${where}`;
}
