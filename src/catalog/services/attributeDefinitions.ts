/** Reading what attribute values are checked against: a product type's definitions, and whether references exist. */

import type { Prisma } from '../../platform/db/client';
import type { FieldError } from '../../platform/errors';
import { isUuid } from '../../kernel/ids';
import type { AttributeDefinition, AttributeReference, AttributeType, AttributeValueOption, ProductTypeDefinition, ReferenceType } from './attributeValues';

type Tx = Prisma.TransactionClient;

type AssignmentRow = {
  level: string;
  required: boolean;
  attribute: { id: string; code: string; type: string; values: unknown; referenceType: string | null };
};

/** An assignment row as the value checks take it. */
export const definitionOf = (a: AssignmentRow): AttributeDefinition => ({
  id: a.attribute.id,
  code: a.attribute.code,
  type: a.attribute.type as AttributeType,
  values: a.attribute.values as AttributeValueOption[],
  referenceType: a.attribute.referenceType as ReferenceType | null,
  required: a.required,
});

/** A product type's assignments (in order) as definitions by level. */
const typeDefinition = (id: string, assignments: AssignmentRow[]): ProductTypeDefinition => ({
  id,
  productAttributes: assignments.filter((a) => a.level === 'product').map(definitionOf),
  variantAttributes: assignments.filter((a) => a.level === 'variant').map(definitionOf),
});

/** The relation to read a product type's definitions with. */
const DEFINITION_INCLUDE = {
  orderBy: { position: 'asc' },
  select: { level: true, required: true, attribute: { select: { id: true, code: true, type: true, values: true, referenceType: true } } },
} as const satisfies Prisma.ProductType$attributesArgs;

/**
 * The store's product type for a write about to give a product (or its variants) values, or null when the store
 * has none with this id. Held (FOR KEY SHARE) to the commit: a change of the type (updateProductType, which
 * locks it first) waits for this write and then sees its values, or this write waits and reads the new
 * definitions.
 */
export async function productTypeForWrite(tx: Tx, storeId: string, id: string): Promise<ProductTypeDefinition | null> {
  if (!isUuid(id)) return null;
  const held = await tx.$queryRaw<unknown[]>`SELECT 1 FROM product_types WHERE id = ${id}::uuid AND store_id = ${storeId}::uuid FOR KEY SHARE`;
  if (held.length === 0) return null;
  const type = await tx.productType.findUniqueOrThrow({ where: { id }, select: { attributes: DEFINITION_INCLUDE } });
  return typeDefinition(id, type.attributes);
}

/** A field error for each reference to a product or category the store does not have. */
export async function unknownReferenceErrors(tx: Tx, storeId: string, references: AttributeReference[]): Promise<FieldError[]> {
  if (references.length === 0) return [];
  const ids = (type: ReferenceType) => [...new Set(references.filter((r) => r.type === type).map((r) => r.id))];
  // One after the other: a transaction's statements run on its one connection anyway.
  const products = ids('product').length ? await tx.product.findMany({ where: { storeId, id: { in: ids('product') } }, select: { id: true } }) : [];
  const categories = ids('category').length ? await tx.category.findMany({ where: { storeId, id: { in: ids('category') } }, select: { id: true } }) : [];
  const found = new Set([...products, ...categories].map((r) => r.id));
  return references
    .filter((r) => !found.has(r.id))
    .map((r) => ({ field: r.field, code: 'unknown_reference', message: `no ${r.type} with id ${JSON.stringify(r.id)} in this store` }));
}
