/**
 * The outdated marks (Shopify's rule): when a resource's text in the default locale changes, the translations of
 * that field in every locale are marked outdated, in the transaction of the source write. One function per
 * resource kind, called by the one write path of its source: a product's by writeProductVersion (every product
 * write moves its version there), a category's by updateCategory, an attribute's by updateAttribute. A field a
 * translation leaves out has nothing to mark: it is missing, not outdated (the status endpoint says so).
 * Marking leaves `updated_at` alone: it says when the translation was written.
 */

import type { TransactionContext } from '../../platform/outbox/outbox';
import { withMarks } from './translations';

/** The default-locale texts of a product that translations translate. */
export interface ProductSource {
  name: string;
  description: string;
  options: { name: string; values: string[] }[];
  attributes: Record<string, unknown>;
  seoTitle: string | null;
  seoDescription: string | null;
  seoSlug: string | null;
}

/**
 * The product's source texts, or null when it has no translation (then nothing can become outdated, and a write
 * pays for this one probe only).
 */
export async function productSourceIfTranslated(t: TransactionContext, productId: string): Promise<ProductSource | null> {
  const [row] = await t.tx.$queryRaw<ProductSource[]>`
    SELECT p.name, p.description, p.options, p.attributes, s.title AS "seoTitle", s.description AS "seoDescription", s.slug AS "seoSlug"
    FROM products p LEFT JOIN product_seo s ON s.product_id = p.id
    WHERE p.id = ${productId}::uuid AND EXISTS (SELECT 1 FROM product_translations t WHERE t.product_id = p.id)`;
  return row ?? null;
}

/** The source paths whose text differs: `name`, `seo.slug`, `options.Size` (the option's name or values), `attributes.care`. */
function changedProductPaths(before: ProductSource, after: ProductSource): string[] {
  const paths: string[] = [];
  if (before.name !== after.name) paths.push('name');
  if (before.description !== after.description) paths.push('description');
  if (before.seoTitle !== after.seoTitle) paths.push('seo.title');
  if (before.seoDescription !== after.seoDescription) paths.push('seo.description');
  if (before.seoSlug !== after.seoSlug) paths.push('seo.slug');
  for (const option of before.options) {
    const now = after.options.find((o) => o.name === option.name);
    if (!now || JSON.stringify(now.values) !== JSON.stringify(option.values)) paths.push(`options.${option.name}`);
  }
  for (const code of Object.keys(before.attributes)) {
    if (JSON.stringify(before.attributes[code]) !== JSON.stringify(after.attributes[code])) paths.push(`attributes.${code}`);
  }
  return paths;
}

/** Whether a product translation holds a text for the path (only those can be outdated). */
function translates(row: { name: string | null; description: string | null; seoTitle: string | null; seoDescription: string | null; slug: string | null; options: unknown; attributes: unknown }, path: string) {
  switch (path) {
    case 'name':
      return row.name != null;
    case 'description':
      return row.description != null;
    case 'seo.title':
      return row.seoTitle != null;
    case 'seo.description':
      return row.seoDescription != null;
    case 'seo.slug':
      return row.slug != null;
  }
  const dot = path.indexOf('.');
  const held = (path.startsWith('options.') ? row.options : row.attributes) as Record<string, unknown>;
  return Object.hasOwn(held, path.slice(dot + 1));
}

/** Marks the product's translations of the fields whose source changed since `before` (productSourceIfTranslated). */
export async function markProductTranslations(t: TransactionContext, productId: string, before: ProductSource): Promise<void> {
  const [after] = await t.tx.$queryRaw<ProductSource[]>`
    SELECT p.name, p.description, p.options, p.attributes, s.title AS "seoTitle", s.description AS "seoDescription", s.slug AS "seoSlug"
    FROM products p LEFT JOIN product_seo s ON s.product_id = p.id WHERE p.id = ${productId}::uuid`;
  const changed = after ? changedProductPaths(before, after) : [];
  if (changed.length === 0) return;
  for (const row of await t.tx.productTranslation.findMany({ where: { productId } })) {
    await setMarks(t, 'product_translations', 'product_id', productId, row, changed.filter((p) => translates(row, p)));
  }
}

type Table = 'product_translations' | 'category_translations' | 'attribute_translations';
type IdColumn = 'product_id' | 'category_id' | 'attribute_id';

/** Adds the marks to one translation, without touching updated_at. */
async function setMarks(t: TransactionContext, table: Table, idColumn: IdColumn, id: string, row: { locale: string; outdatedFields: string[] }, paths: string[]) {
  const marks = withMarks(row.outdatedFields, paths);
  if (marks.length === row.outdatedFields.length) return;
  // Table and column names come from the two unions above, never from input.
  await t.tx.$executeRawUnsafe(`UPDATE ${table} SET outdated_fields = $1::text[] WHERE ${idColumn} = $2::uuid AND locale = $3`, marks, id, row.locale);
}

/** A category's name changed: its translated names are outdated. */
export async function markCategoryTranslations(t: TransactionContext, categoryId: string, before: { name: string }, after: { name: string }): Promise<void> {
  if (before.name === after.name) return;
  for (const row of await t.tx.categoryTranslation.findMany({ where: { categoryId, name: { not: null } } })) {
    await setMarks(t, 'category_translations', 'category_id', categoryId, row, ['name']);
  }
}

type AttributeSource = { name: string; values: unknown };

/** An attribute's name or value labels changed: the translations of each (`name`, `values.cotton`) are outdated. */
export async function markAttributeTranslations(t: TransactionContext, attributeId: string, before: AttributeSource, after: AttributeSource): Promise<void> {
  const labels = (a: AttributeSource) => new Map((a.values as { value: string; name: string }[]).map((v) => [v.value, v.name]));
  const [was, now] = [labels(before), labels(after)];
  const changed = [...(before.name !== after.name ? ['name'] : []), ...[...was].filter(([code, name]) => now.get(code) !== name).map(([code]) => `values.${code}`)];
  if (changed.length === 0) return;
  for (const row of await t.tx.attributeTranslation.findMany({ where: { attributeId } })) {
    const values = row.values as Record<string, unknown>;
    await setMarks(t, 'attribute_translations', 'attribute_id', attributeId, row, changed.filter((p) => (p === 'name' ? row.name != null : Object.hasOwn(values, p.slice('values.'.length)))));
  }
}
