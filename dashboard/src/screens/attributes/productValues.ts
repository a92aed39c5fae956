import type { ProductCreateInput, ProductUpdateInput } from '../../generated/graphql';
import type { AttributeDef, ProductTypeDef } from './catalog';

/**
 * A product's type and attribute values in the editor's form, and what a save sends of them. The form holds
 * values in the API's encoding ({code: value}); a value cleared is a key removed. The definitions the editor
 * loaded are kept here too, so that a save (and the error summary) knows the chosen type's attributes.
 */

export type AttributeValues = Record<string, unknown>;

const known = { attributes: new Map<string, AttributeDef>(), types: new Map<string, ProductTypeDef>() };

export function rememberDefinitions(attributes: AttributeDef[], types: ProductTypeDef[]): void {
  known.attributes = new Map(attributes.map((a) => [a.id, a]));
  known.types = new Map(types.map((t) => [t.id, t]));
}

/** The product-level attributes of a type, in order, with their definitions. */
export function productLevel(typeId: string): { attribute: AttributeDef; required: boolean }[] {
  const type = known.types.get(typeId);
  if (!type) return [];
  return type.productAttributes.flatMap((item) => {
    const attribute = known.attributes.get(item.attributeId);
    return attribute ? [{ attribute, required: item.required }] : [];
  });
}

/** An error's field (attributes.material) as the merchant reads it: the attribute's name. */
export function attributeFieldLabel(field: string): string | undefined {
  if (field === 'productTypeId') return 'Product type';
  if (field === 'attributes') return 'Attributes';
  const code = /^attributes\.(.+)$/.exec(field)?.[1];
  if (!code) return undefined;
  for (const a of known.attributes.values()) if (a.code === code) return a.name;
  return code;
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** The values with keys in order and empty ones left out, so that equal values read as unchanged. */
export function tidyValues(values: AttributeValues): AttributeValues {
  const tidy: AttributeValues = {};
  for (const key of Object.keys(values).sort()) if (!isEmpty(values[key])) tidy[key] = values[key];
  return tidy;
}

export function withValue(values: AttributeValues, code: string, value: unknown): AttributeValues {
  return tidyValues({ ...values, [code]: value });
}

/** The values a change of type keeps (the new type's), with its required yes/no attributes starting at "no". */
export function valuesForType(values: AttributeValues, typeId: string): AttributeValues {
  const next: AttributeValues = {};
  for (const { attribute, required } of productLevel(typeId)) {
    if (attribute.code in values) next[attribute.code] = values[attribute.code];
    else if (required && attribute.type === 'boolean') next[attribute.code] = false;
  }
  return tidyValues(next);
}

/** Required attributes of the chosen type left without a value, in the form's words (shown with the service's answer). */
export function missingRequired(typeId: string, values: AttributeValues): Record<string, string> {
  const missing: Record<string, string> = {};
  for (const { attribute, required } of productLevel(typeId)) {
    if (required && isEmpty(values[attribute.code])) missing[`attributes.${attribute.code}`] = 'is required for this product type';
  }
  return missing;
}

/** The type and values of a new product. */
export function attributesCreateInput(typeId: string, values: AttributeValues): Pick<ProductCreateInput, 'productTypeId' | 'attributes'> {
  if (!typeId) return {};
  const tidy = tidyValues(values);
  return { productTypeId: typeId, ...(Object.keys(tidy).length ? { attributes: tidy } : {}) };
}

/**
 * What an update sends: the type when it changed, and the values that differ from the stored ones (null clears
 * one: the service merges values into what it has).
 */
export function attributesUpdateInput(
  typeId: string,
  values: AttributeValues,
  product: { productTypeId?: string | null; attributes?: unknown },
): Pick<ProductUpdateInput, 'productTypeId' | 'attributes'> {
  const before = (product.attributes && typeof product.attributes === 'object' ? product.attributes : {}) as AttributeValues;
  const typeBefore = product.productTypeId ?? '';
  const input: Pick<ProductUpdateInput, 'productTypeId' | 'attributes'> = {};
  if (typeId !== typeBefore) input.productTypeId = typeId || null;
  if (!typeId) return input;
  // Only codes of the chosen type may be sent: the service drops the others' values itself on a change of type.
  const codes = typeId !== typeBefore ? productLevel(typeId).map((p) => p.attribute.code) : [...new Set([...Object.keys(before), ...Object.keys(values)])];
  const changes: AttributeValues = {};
  for (const code of codes) {
    const next = isEmpty(values[code]) ? null : values[code];
    const previous = isEmpty(before[code]) ? null : before[code];
    if (JSON.stringify(next) !== JSON.stringify(previous)) changes[code] = next;
  }
  if (Object.keys(changes).length) input.attributes = changes;
  return input;
}
