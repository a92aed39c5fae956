/**
 * The attribute service: a store's typed attributes (create, update, delete, list). Attributes are store
 * configuration shared by the live and test catalogs, like categories; product types apply them to products.
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { isUuid } from '../../kernel/ids';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, type FieldError, notFound, validationError } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { parseInput } from '../../platform/validation';
import type { Prisma } from '../../platform/db/client';
import { CATALOG_LIMITS, limitExceeded } from '../limits';
import { PageInput } from './productList';
import { ATTRIBUTE_CODE, ATTRIBUTE_TYPES, type AttributeType, type AttributeValueOption, LISTED_TYPES, REFERENCE_TYPES, type ReferenceType } from './attributeValues';
import { attributeView, BY_LOCALE } from './views';
import { markAttributeTranslations } from './translationMarks';

const Name = z.string().trim().min(1).max(255);
const Unit = z.string().trim().min(1).max(32);
const HEX = /^#[0-9a-f]{6}$/i;
const ValueOption = z.object({
  value: z.string().regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'must be lower-case letters, digits and single hyphens or underscores').max(64),
  name: Name,
  hex: z.string().regex(HEX, 'must be a colour as #rrggbb').optional(),
}).strict();
const Values = z.array(ValueOption).max(CATALOG_LIMITS.valuesPerAttribute, `must have at most ${CATALOG_LIMITS.valuesPerAttribute} items (the valuesPerAttribute limit)`);

const AttributeFields = {
  name: Name,
  unit: Unit.nullable(),
  values: Values,
  referenceType: z.enum(REFERENCE_TYPES).nullable(),
  filterable: z.boolean(),
  public: z.boolean(),
};

export const AttributeCreateInput = z.object({
  code: z.string().regex(ATTRIBUTE_CODE, 'must start with a lower-case letter, then lower-case letters, digits or underscores, at most 64 characters'),
  type: z.enum(ATTRIBUTE_TYPES),
  ...AttributeFields,
  unit: AttributeFields.unit.optional(),
  values: AttributeFields.values.optional(),
  referenceType: AttributeFields.referenceType.optional(),
  filterable: AttributeFields.filterable.default(false),
  public: AttributeFields.public.default(false),
});
/** Code and type are accepted only unchanged (a GET body sent back): see immutableFields. */
export const AttributeUpdateInput = z.object({ ...AttributeFields, code: z.string(), type: z.string() }).partial();
export type AttributeCreate = z.input<typeof AttributeCreateInput>;
export type AttributeUpdate = { [K in keyof z.input<typeof AttributeUpdateInput>]?: z.input<typeof AttributeUpdateInput>[K] | null };

type AttributeRow = Parameters<typeof attributeView>[0];
type Shape = { type: AttributeType; unit?: string | null; values?: AttributeValueOption[]; referenceType?: ReferenceType | null };

/** What each type allows beside its values: every mismatch at once, named by field. */
function shapeErrors(a: Shape): FieldError[] {
  const errors: FieldError[] = [];
  const listedType = LISTED_TYPES.includes(a.type);
  const values = a.values ?? [];
  if (listedType && values.length === 0) errors.push({ field: 'values', code: 'required', message: `a ${a.type} attribute needs at least one value` });
  if (!listedType && values.length > 0) errors.push({ field: 'values', code: 'not_allowed', message: 'only dropdown, multiselect and swatch attributes have values' });
  const seen = new Set<string>();
  values.forEach((v, i) => {
    if (seen.has(v.value)) errors.push({ field: `values.${i}.value`, code: 'duplicate_value', message: `"${v.value}" is listed twice` });
    seen.add(v.value);
    if (a.type === 'swatch' && !v.hex) errors.push({ field: `values.${i}.hex`, code: 'required', message: 'a swatch value needs a colour (#rrggbb)' });
    if (a.type !== 'swatch' && v.hex) errors.push({ field: `values.${i}.hex`, code: 'not_allowed', message: 'only swatch values have a colour' });
  });
  if (a.unit != null && a.type !== 'numeric') errors.push({ field: 'unit', code: 'not_allowed', message: 'only numeric attributes have a unit' });
  if (a.type === 'reference' && !a.referenceType) errors.push({ field: 'referenceType', code: 'required', message: 'a reference attribute points at product or category' });
  if (a.type !== 'reference' && a.referenceType) errors.push({ field: 'referenceType', code: 'not_allowed', message: 'only reference attributes have a reference type' });
  return errors;
}

/** Colours are stored as sent in lower case, so two spellings of one colour are one. */
const storedValues = (values: AttributeValueOption[] | undefined) => (values ?? []).map((v) => (v.hex ? { ...v, hex: v.hex.toLowerCase() } : v));

async function requireStore(ctx: RequestContext, storeId: string) {
  const store = isUuid(storeId) ? await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }) : null;
  if (!store) throw notFound('Store');
}

const codeTaken = (code: string) =>
  new AppError('code_taken', `The code "${code}" is already used by another attribute of this store`, {
    errors: [{ field: 'code', code: 'code_taken', message: 'already used by another attribute of this store' }],
    details: { attribute_code: code },
  });

export const attributeNotFound = (idOrCode: string) => new AppError('not_found', `No attribute "${idOrCode}" in this store`);

const emitAttributeEvent = (t: TransactionContext, type: 'attribute.created' | 'attribute.updated' | 'attribute.deleted', a: AttributeRow, before?: AttributeRow) =>
  // Store configuration, shared by both catalogs: live events, as categories'.
  emit(t, { type, storeId: a.storeId, mode: 'live', resource: { type: 'attribute', id: a.id, version: a.version }, data: attributeView(a), before: before && attributeView(before) });

/**
 * Serializes the writes that count a store's attributes or product types against a limit: two creates racing
 * past the last free place would both see it free. Held to the commit.
 */
export async function lockStoreConfiguration(t: TransactionContext, storeId: string) {
  await t.tx.$queryRaw`SELECT 1 FROM stores WHERE id = ${storeId}::uuid FOR UPDATE`;
}

/** Creates an attribute; its code is unique in the store (409 code_taken) and never changes. */
export async function createAttribute(ctx: RequestContext, storeId: string, input: AttributeCreate) {
  const data = parseInput(AttributeCreateInput, input);
  const shape = shapeErrors(data);
  if (shape.length) throw validationError(shape);
  await requireStore(ctx, storeId);
  try {
    return await transaction(ctx, async (t) => {
      await lockStoreConfiguration(t, storeId);
      if ((await t.tx.attribute.count({ where: { storeId } })) >= CATALOG_LIMITS.attributesPerStore) {
        throw limitExceeded('attributesPerStore', `A store has at most ${CATALOG_LIMITS.attributesPerStore} attributes; delete an unused one first`);
      }
      const attribute = await t.tx.attribute.create({
        data: { storeId, code: data.code, name: data.name, type: data.type, unit: data.unit ?? null, values: storedValues(data.values) as unknown as Prisma.InputJsonArray, referenceType: data.referenceType ?? null, filterable: data.filterable, public: data.public },
      });
      emitAttributeEvent(t, 'attribute.created', { ...attribute, translations: [] });
      return attribute;
    });
  } catch (e) {
    if (violatedUniqueIndex(e) !== 'attributes_store_id_code_key') throw e;
    throw codeTaken(data.code);
  }
}

/** An attribute of the store by id or code, or 404. */
export async function findAttribute(ctx: RequestContext, storeId: string, idOrCode: string) {
  await requireStore(ctx, storeId);
  const attribute = await ctx.db.attribute.findFirst({ where: { storeId, ...(isUuid(idOrCode) ? { id: idOrCode } : { code: idOrCode }) } });
  if (!attribute) throw attributeNotFound(idOrCode);
  return attribute;
}

/**
 * The code is the key of every product's and variant's values and of filter URLs (`attributes[material]=…`),
 * and the type decides how those values are encoded: changing either would silently orphan or misread stored
 * values and break saved links. Sent unchanged (a GET body edited and sent back) they are accepted.
 */
function immutableFields(current: AttributeRow, data: { code?: string; type?: string }): FieldError[] {
  return (['code', 'type'] as const)
    .filter((f) => data[f] !== undefined && data[f] !== current[f])
    .map((field) => ({ field, code: 'immutable', message: `cannot change after creation (it is "${current[field]}"); create another attribute instead` }));
}

/**
 * Which of these values of the attribute products (both catalogs) hold, themselves or in a variant, and how
 * many products hold any. `?` matches a string value and a list's item alike.
 */
async function usesOfValues(t: TransactionContext, storeId: string, code: string, removed: string[]) {
  const rows = await t.tx.$queryRaw<{ value: string; product_id: string }[]>`
    SELECT DISTINCT r.value, p.id::text AS product_id FROM unnest(${removed}::text[]) AS r(value)
    JOIN products p ON p.store_id = ${storeId}::uuid
    WHERE p.attributes -> ${code} ? r.value OR EXISTS (SELECT 1 FROM variants v WHERE v.product_id = p.id AND v.attributes -> ${code} ? r.value)`;
  return { values: removed.filter((v) => rows.some((r) => r.value === v)), products: new Set(rows.map((r) => r.product_id)).size };
}

/**
 * Renames an attribute, changes its unit, values, filterable or public. Removing a value that products or
 * variants hold is 409 attribute_value_in_use (with the values and the product count): their values would
 * silently vanish; set those products to another value first. Values may be renamed (their `name`) and
 * reordered freely, since products hold the `value` key.
 */
export async function updateAttribute(ctx: RequestContext, storeId: string, idOrCode: string, input: AttributeUpdate) {
  const data = parseInput(AttributeUpdateInput, input);
  const found = await findAttribute(ctx, storeId, idOrCode);
  return transaction(ctx, async (t) => {
    // Locked and read again, as categories are: a delete that won the race answers 404, and a concurrent update is the `before`.
    const [held] = await t.tx.$queryRaw<{ id: string }[]>`SELECT id FROM attributes WHERE id = ${found.id}::uuid FOR UPDATE`;
    if (!held) throw attributeNotFound(idOrCode);
    const current = await t.tx.attribute.findUniqueOrThrow({ where: { id: found.id }, include: BY_LOCALE });
    const values = data.values === undefined ? undefined : storedValues(data.values);
    const next: Shape = {
      type: current.type,
      unit: data.unit === undefined ? current.unit : data.unit,
      values: values ?? (current.values as unknown as AttributeValueOption[]),
      referenceType: data.referenceType === undefined ? current.referenceType : data.referenceType,
    };
    const errors = [...immutableFields(current, data), ...shapeErrors(next)];
    if (errors.length) throw validationError(errors);
    if (values) {
      const removed = (current.values as unknown as AttributeValueOption[]).map((v) => v.value).filter((v) => !values.some((n) => n.value === v));
      const held = removed.length ? await usesOfValues(t, storeId, current.code, removed) : { values: [], products: 0 };
      if (held.products > 0) {
        throw new AppError('attribute_value_in_use', `${held.products} product(s) hold the value(s) ${held.values.join(', ')} of "${current.code}"; change them first`, {
          errors: [{ field: 'values', code: 'attribute_value_in_use', message: `${held.values.join(', ')}: held by ${held.products} product(s)` }],
          details: { values: held.values, products: held.products },
        });
      }
    }
    const changed =
      (data.name !== undefined && data.name !== current.name) ||
      next.unit !== current.unit ||
      next.referenceType !== current.referenceType ||
      (data.filterable !== undefined && data.filterable !== current.filterable) ||
      (data.public !== undefined && data.public !== current.public) ||
      (values !== undefined && JSON.stringify(values) !== JSON.stringify(current.values));
    if (!changed) return current;
    const updated = await t.tx.attribute.update({
      where: { id: current.id },
      data: { name: data.name ?? undefined, unit: next.unit, values: values as unknown as Prisma.InputJsonArray | undefined, referenceType: next.referenceType, filterable: data.filterable ?? undefined, public: data.public ?? undefined, version: { increment: 1 } },
    });
    await markAttributeTranslations(t, updated.id, current, updated);
    // Read with the marks just set: the event shows the translations as REST does.
    const attribute = await t.tx.attribute.findUniqueOrThrow({ where: { id: current.id }, include: BY_LOCALE });
    emitAttributeEvent(t, 'attribute.updated', attribute, current);
    return attribute;
  });
}

/** Deletes an attribute no product type applies; one in use answers 409 attribute_in_use naming the types. */
export async function deleteAttribute(ctx: RequestContext, storeId: string, idOrCode: string) {
  const found = await findAttribute(ctx, storeId, idOrCode);
  return transaction(ctx, async (t) => {
    // Held to the commit: a product type write assigning it locks it too (attributesToAssign), so the check below sees that write.
    const [held] = await t.tx.$queryRaw<unknown[]>`SELECT 1 FROM attributes WHERE id = ${found.id}::uuid FOR UPDATE`;
    if (!held) throw attributeNotFound(idOrCode);
    const types = await t.tx.productType.findMany({ where: { attributes: { some: { attributeId: found.id } } }, select: { id: true, name: true }, orderBy: { name: 'asc' } });
    if (types.length) {
      throw new AppError('attribute_in_use', `The attribute "${found.code}" is used by the product type(s) ${types.map((x) => `"${x.name}"`).join(', ')}; remove it from them first`, {
        details: { product_types: types },
      });
    }
    const translations = await t.tx.attributeTranslation.findMany({ where: { attributeId: found.id }, ...BY_LOCALE.translations });
    await t.tx.attribute.delete({ where: { id: found.id } });
    // The deletion is the attribute's last version.
    emitAttributeEvent(t, 'attribute.deleted', { ...found, translations, version: found.version + 1 });
    return found;
  });
}

/** A page of the store's attributes by code, with the total. */
export async function listAttributes(ctx: RequestContext, storeId: string, page: { page?: number; perPage?: number } = {}) {
  await requireStore(ctx, storeId);
  const { page: pageNo, perPage } = parseInput(PageInput, page);
  const where = { storeId };
  const [rows, total] = await Promise.all([
    ctx.db.attribute.findMany({ where, orderBy: { code: 'asc' }, skip: (pageNo - 1) * perPage, take: perPage }),
    ctx.db.attribute.count({ where }),
  ]);
  return { rows, page: pageNo, perPage, total };
}
