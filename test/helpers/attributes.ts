/**
 * Attributes and attribute values for list tests, written straight to the database: the one place to switch to the
 * attributes API (POST /attributes, product writes with `attributes`) once it exists.
 */
import { db } from '../../src/platform/db/client';

export interface AttributeSpec {
  code: string;
  name?: string;
  type: 'plain_text' | 'rich_text' | 'numeric' | 'boolean' | 'date' | 'date_time' | 'dropdown' | 'multiselect' | 'swatch' | 'reference';
  unit?: string;
  values?: { value: string; name: string; hex?: string }[];
  filterable?: boolean;
  public?: boolean;
}

/** Defines a store attribute (filterable and public unless told otherwise). */
export async function defineAttribute(storeId: string, a: AttributeSpec) {
  return db().attribute.create({
    data: { storeId, code: a.code, name: a.name ?? a.code, type: a.type, unit: a.unit, values: a.values ?? [], filterable: a.filterable ?? true, public: a.public ?? true },
  });
}

/** Sets a product's attribute values ({code: value}, encoded as the product write stores them). */
export async function setProductAttributes(productId: string, attributes: Record<string, unknown>) {
  await db().product.update({ where: { id: productId }, data: { attributes: attributes as object } });
}

/** Adds a variant with attribute values to a product. */
export async function addVariant(productId: string, sku: string, attributes: Record<string, unknown>) {
  const p = await db().product.findUniqueOrThrow({ where: { id: productId }, select: { storeId: true, mode: true } });
  return db().variant.create({
    data: { storeId: p.storeId, productId, mode: p.mode, sku, options: { Sku: sku }, optionsKey: JSON.stringify({ Sku: sku }), attributes: attributes as object },
  });
}

/** A product type of the store, assigned to these products. */
export async function assignProductType(storeId: string, name: string, productIds: string[]) {
  const type = await db().productType.create({ data: { storeId, name } });
  await db().product.updateMany({ where: { id: { in: productIds } }, data: { productTypeId: type.id } });
  return type;
}
