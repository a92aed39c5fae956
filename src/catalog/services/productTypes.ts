/**
 * The product type service: which of the store's attributes apply to a kind of product and which to its
 * variants, each required or not (create, update, delete, list). A change of the attributes is carried to the
 * products of the type (both catalogs) in the same write: values of removed attributes are dropped, and a newly
 * required attribute gets the default the request gives (or the write is refused while products lack it).
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { isUuid } from '../../kernel/ids';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, type FieldError, notFound, validationError } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { parseInput } from '../../platform/validation';
import { CATALOG_LIMITS, limitExceeded } from '../limits';
import { lockStoreConfiguration } from './attributes';
import { definitionOf, unknownReferenceErrors } from './attributeDefinitions';
import { type AttributeDefinition, checkAttributeValues } from './attributeValues';
import { emitProductEvent, writeProductVersion } from './products';
import { PageInput } from './productList';
import { PRODUCT_TYPE_INCLUDE, type ProductTypeRow, productTypeView, variantView } from './views';

const Assignment = z
  .object({
    attributeId: z.string().optional(),
    code: z.string().optional(),
    required: z.boolean().default(false),
    /** Set on the type's products (or variants) that lack a value when the attribute becomes required. */
    defaultValue: z.unknown().optional(),
  })
  .strict();
const Assignments = z.array(Assignment);
const Name = z.string().trim().min(1).max(255);

export const ProductTypeCreateInput = z.object({ name: Name, productAttributes: Assignments.default([]), variantAttributes: Assignments.default([]) });
export const ProductTypeUpdateInput = z.object({ name: Name, productAttributes: Assignments, variantAttributes: Assignments }).partial();
export type ProductTypeCreate = z.input<typeof ProductTypeCreateInput>;
export type ProductTypeUpdate = z.input<typeof ProductTypeUpdateInput>;

type Level = 'product' | 'variant';
const LIST_FIELD: Record<Level, string> = { product: 'productAttributes', variant: 'variantAttributes' };

/** A resolved assignment: the attribute's definition at its level, its position and the default sent. */
interface Resolved {
  level: Level;
  position: number;
  definition: AttributeDefinition;
  default?: unknown;
}

async function requireStore(ctx: RequestContext, storeId: string) {
  const store = isUuid(storeId) ? await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }) : null;
  if (!store) throw notFound('Store');
}

export const productTypeNotFound = (idOrName: string) => new AppError('not_found', `No product type "${idOrName}" in this store`);

const nameTaken = (name: string) =>
  new AppError('name_taken', `The name "${name}" is already used by another product type of this store`, {
    errors: [{ field: 'name', code: 'name_taken', message: 'already used by another product type of this store' }],
    details: { product_type_name: name },
  });

const emitTypeEvent = (t: TransactionContext, type: 'product_type.created' | 'product_type.updated' | 'product_type.deleted', row: ProductTypeRow, before?: ProductTypeRow) =>
  emit(t, { type, storeId: row.storeId, mode: 'live', resource: { type: 'product_type', id: row.id, version: row.version }, data: productTypeView(row), before: before && productTypeView(before) });

/**
 * The attributes both lists name (by attribute_id or code), each held (FOR KEY SHARE) so a concurrent
 * deleteAttribute waits and then finds it in use; every error at once: an unknown attribute, one named twice
 * (an attribute applies at one level), more than the attributesPerProductType limit, a default that is no
 * value of its attribute.
 */
async function resolveAssignments(t: TransactionContext, storeId: string, lists: Record<Level, z.output<typeof Assignments>>): Promise<Resolved[]> {
  const errors: FieldError[] = [];
  const items = (['product', 'variant'] as const).flatMap((level) => lists[level].map((item, i) => ({ level, i, item, field: `${LIST_FIELD[level]}.${i}` })));
  const ids = items.map((x) => x.item.attributeId).filter((id): id is string => !!id && isUuid(id));
  const codes = items.map((x) => x.item.code).filter((c): c is string => !!c);
  const rows = await t.tx.$queryRaw<{ id: string; code: string; type: string; values: unknown; reference_type: string | null }[]>`
    SELECT id::text AS id, code, type::text AS type, "values", reference_type::text AS reference_type FROM attributes
    WHERE store_id = ${storeId}::uuid AND (id::text = ANY(${ids}::text[]) OR code = ANY(${codes}::text[])) FOR KEY SHARE`;
  const seen = new Map<string, string>();
  const resolved: Resolved[] = [];
  for (const { level, i, item, field } of items) {
    if (!item.attributeId && !item.code) {
      errors.push({ field: `${field}.attributeId`, code: 'required', message: 'name the attribute by attribute_id or by code' });
      continue;
    }
    const row = rows.find((r) => (item.attributeId ? r.id === item.attributeId : r.code === item.code));
    if (!row) {
      const which = item.attributeId ? 'attributeId' : 'code';
      errors.push({ field: `${field}.${which}`, code: 'unknown_attribute', message: `no attribute ${JSON.stringify(item.attributeId ?? item.code)} in this store` });
      continue;
    }
    // Both, as a read shows them: they must name the same attribute.
    if (item.code && row.code !== item.code) {
      errors.push({ field: `${field}.code`, code: 'invalid_value', message: `the attribute ${item.attributeId} has the code "${row.code}"` });
      continue;
    }
    if (seen.has(row.id)) {
      errors.push({ field, code: 'duplicate_attribute', message: `"${row.code}" is assigned already (${seen.get(row.id)}); an attribute applies at one level, once` });
      continue;
    }
    seen.set(row.id, field);
    const definition = definitionOf({ level, required: item.required, attribute: { id: row.id, code: row.code, type: row.type, values: row.values, referenceType: row.reference_type } });
    resolved.push({ level, position: i, definition, default: item.defaultValue });
  }
  if (items.length > CATALOG_LIMITS.attributesPerProductType) {
    errors.push({ field: LIST_FIELD.product, code: 'too_big', message: `a product type has at most ${CATALOG_LIMITS.attributesPerProductType} attributes, product and variant level together (the attributesPerProductType limit)` });
  }
  for (const r of resolved) {
    if (r.default === undefined || r.default === null) continue;
    const field = `${LIST_FIELD[r.level]}.${r.position}.defaultValue`;
    const check = checkAttributeValues([{ ...r.definition, required: false }], {}, { [r.definition.code]: r.default }, field);
    errors.push(...check.errors.map((e) => ({ ...e, field })));
    errors.push(...(await unknownReferenceErrors(t.tx, storeId, check.references.map((ref) => ({ ...ref, field })))));
    r.default = check.values[r.definition.code];
  }
  if (errors.length) throw validationError(errors);
  return resolved;
}

const assignmentRows = (resolved: Resolved[]) =>
  resolved.map((r) => ({ attributeId: r.definition.id, level: r.level, required: r.definition.required, position: r.position }));

/** Creates a product type; its name is unique in the store (409 name_taken). */
export async function createProductType(ctx: RequestContext, storeId: string, input: ProductTypeCreate) {
  const data = parseInput(ProductTypeCreateInput, input);
  await requireStore(ctx, storeId);
  try {
    return await transaction(ctx, async (t) => {
      const resolved = await resolveAssignments(t, storeId, { product: data.productAttributes, variant: data.variantAttributes });
      await lockStoreConfiguration(t, storeId);
      if ((await t.tx.productType.count({ where: { storeId } })) >= CATALOG_LIMITS.productTypesPerStore) {
        throw limitExceeded('productTypesPerStore', `A store has at most ${CATALOG_LIMITS.productTypesPerStore} product types; delete an unused one first`);
      }
      const row = await t.tx.productType.create({ data: { storeId, name: data.name, attributes: { create: assignmentRows(resolved) } }, include: PRODUCT_TYPE_INCLUDE });
      emitTypeEvent(t, 'product_type.created', row);
      return row;
    });
  } catch (e) {
    if (violatedUniqueIndex(e) !== 'product_types_store_id_name_key') throw e;
    throw nameTaken(data.name);
  }
}

/** A product type of the store by id or name, or 404. */
export async function findProductType(ctx: RequestContext, storeId: string, idOrName: string) {
  await requireStore(ctx, storeId);
  const row = await ctx.db.productType.findFirst({ where: { storeId, ...(isUuid(idOrName) ? { id: idOrName } : { name: idOrName }) }, include: PRODUCT_TYPE_INCLUDE });
  if (!row) throw productTypeNotFound(idOrName);
  return row;
}

/**
 * The products of the type brought to its new definitions, in the write that changes them: each product and
 * variant keeps only values of attributes the type still applies at its level, and one lacking a newly
 * required value gets the request's default. Without a default for it, 409 attribute_values_missing (with
 * the attributes and how many products lack them) and nothing is written. Each product changed records one
 * event: product.variants_replaced when its variants' values changed, else product.updated.
 */
async function carryToProducts(t: TransactionContext, typeId: string, resolved: Resolved[]) {
  // Every product of the type, both catalogs, held to the commit in one order (two such writes never deadlock).
  const locked = await t.tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM products WHERE product_type_id = ${typeId}::uuid ORDER BY id FOR UPDATE`;
  if (locked.length === 0) return;
  const products = await t.tx.product.findMany({
    where: { id: { in: locked.map((p) => p.id) } },
    orderBy: { id: 'asc' },
    include: { variants: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] } },
  });
  const at = (level: Level) => resolved.filter((r) => r.level === level);
  const bring = (level: Level, current: unknown) => {
    const values = { ...checkAttributeValues(at(level).map((r) => ({ ...r.definition, required: false })), current as Record<string, unknown>, {}, '').values };
    const missing: string[] = [];
    for (const r of at(level)) {
      if (!r.definition.required || r.definition.code in values) continue;
      if (r.default !== undefined && r.default !== null) values[r.definition.code] = r.default;
      else missing.push(r.definition.code);
    }
    return { values, missing };
  };
  const missing = new Set<string>();
  let lacking = 0;
  const plans = products.map((p) => {
    const product = bring('product', p.attributes);
    const variants = p.variants.map((v) => ({ v, ...bring('variant', v.attributes) }));
    const codes = [...product.missing, ...variants.flatMap((v) => v.missing)];
    if (codes.length) lacking++;
    codes.forEach((c) => missing.add(c));
    return { p, product, variants };
  });
  if (lacking > 0) {
    throw new AppError('attribute_values_missing', `${lacking} product(s) of the type lack a value of the required attribute(s) ${[...missing].join(', ')}; give a default for each`, {
      details: { attributes: [...missing], products: lacking },
    });
  }
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const { p, product, variants } of plans) {
    const changedVariants = variants.filter((x) => !same(x.values, x.v.attributes));
    const productChanged = !same(product.values, p.attributes);
    if (!productChanged && changedVariants.length === 0) continue;
    const before = await t.tx.product.findUniqueOrThrow({ where: { id: p.id } });
    const after = await writeProductVersion(t, before, productChanged ? { attributes: product.values as object } : {}, {}, async () => {
      for (const x of changedVariants) await t.tx.variant.update({ where: { id: x.v.id }, data: { attributes: x.values as object } });
    });
    if (changedVariants.length === 0) emitProductEvent(t, 'product.updated', after, { before });
    else {
      const now = await t.tx.variant.findMany({ where: { productId: p.id }, orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] });
      emitProductEvent(t, 'product.variants_replaced', after, { before, extra: { variants: now.map(variantView) }, previousExtra: { variants: p.variants.map(variantView) } });
    }
  }
}

/**
 * Renames a product type or replaces its attribute lists (a list sent replaces that level's assignments, in
 * the order sent); the products of the type follow in the same write (carryToProducts).
 */
export async function updateProductType(ctx: RequestContext, storeId: string, idOrName: string, input: ProductTypeUpdate) {
  const data = parseInput(ProductTypeUpdateInput, input);
  const found = await findProductType(ctx, storeId, idOrName);
  try {
    return await transaction(ctx, async (t) => {
      // Locked first: product writes giving values hold it (productTypeForWrite), so they finish before or read the new definitions.
      const [held] = await t.tx.$queryRaw<unknown[]>`SELECT 1 FROM product_types WHERE id = ${found.id}::uuid FOR UPDATE`;
      if (!held) throw productTypeNotFound(idOrName);
      const current = await t.tx.productType.findUniqueOrThrow({ where: { id: found.id }, include: PRODUCT_TYPE_INCLUDE });
      const listsSent = data.productAttributes !== undefined || data.variantAttributes !== undefined;
      let resolved: Resolved[] | undefined;
      if (listsSent) {
        const kept = (level: Level) =>
          current.attributes.filter((a) => a.level === level).map((a) => ({ attributeId: a.attributeId, required: a.required, code: undefined, defaultValue: undefined }));
        resolved = await resolveAssignments(t, storeId, { product: data.productAttributes ?? kept('product'), variant: data.variantAttributes ?? kept('variant') });
      }
      const nextRows = resolved && assignmentRows(resolved);
      const assignmentsChanged = nextRows !== undefined && JSON.stringify(nextRows) !== JSON.stringify(current.attributes.map((a) => ({ attributeId: a.attributeId, level: a.level, required: a.required, position: a.position })));
      const nameChanged = data.name !== undefined && data.name !== current.name;
      if (!assignmentsChanged && !nameChanged) return current;
      if (assignmentsChanged) await carryToProducts(t, current.id, resolved!);
      const row = await t.tx.productType.update({
        where: { id: current.id },
        data: {
          name: data.name,
          version: { increment: 1 },
          ...(assignmentsChanged ? { attributes: { deleteMany: {}, create: nextRows } } : {}),
        },
        include: PRODUCT_TYPE_INCLUDE,
      });
      emitTypeEvent(t, 'product_type.updated', row, current);
      return row;
    }, { timeoutMs: 60_000 });
  } catch (e) {
    if (violatedUniqueIndex(e) !== 'product_types_store_id_name_key') throw e;
    throw nameTaken(data.name!);
  }
}

/** Deletes a product type no product has; one in use answers 409 product_type_in_use with the number of products. */
export async function deleteProductType(ctx: RequestContext, storeId: string, idOrName: string) {
  const found = await findProductType(ctx, storeId, idOrName);
  return transaction(ctx, async (t) => {
    // Held to the commit: a product write giving a product this type holds it too, so the count sees that write.
    const [held] = await t.tx.$queryRaw<unknown[]>`SELECT 1 FROM product_types WHERE id = ${found.id}::uuid FOR UPDATE`;
    if (!held) throw productTypeNotFound(idOrName);
    const products = await t.tx.product.count({ where: { productTypeId: found.id } });
    if (products > 0) {
      throw new AppError('product_type_in_use', `The product type "${found.name}" is the type of ${products} product(s) (test catalog included); give them another type or none first`, {
        details: { products },
      });
    }
    await t.tx.productType.delete({ where: { id: found.id } });
    emitTypeEvent(t, 'product_type.deleted', { ...found, version: found.version + 1 });
    return found;
  });
}

/** A page of the store's product types by name, with the total. */
export async function listProductTypes(ctx: RequestContext, storeId: string, page: { page?: number; perPage?: number } = {}) {
  await requireStore(ctx, storeId);
  const { page: pageNo, perPage } = parseInput(PageInput, page);
  const where = { storeId };
  const [rows, total] = await Promise.all([
    ctx.db.productType.findMany({ where, orderBy: { name: 'asc' }, include: PRODUCT_TYPE_INCLUDE, skip: (pageNo - 1) * perPage, take: perPage }),
    ctx.db.productType.count({ where }),
  ]);
  return { rows, page: pageNo, perPage, total };
}

