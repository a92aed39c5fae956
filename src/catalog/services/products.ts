/** The product service: input rules, create, read, update, delete, publish and unpublish, with their events. */

import { NewOptionsInput } from './optionRules';
import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import type { EventType } from '../../kernel/events';
import { isUuid } from '../../kernel/ids';
import { parseRfc3339 } from '../../kernel/time';
import { ConcurrentWrite, emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound, validationError } from '../../platform/errors';
import { withIncludes } from '../../platform/db/queryMerge';
import { catalogOf } from './catalogScope';
import { coveredByFullRow, fullProductRow } from './productRows';
import { PRODUCT_VIEW_INCLUDE, type ProductPartsRow, productParts, productView, type ProductViewRow } from './views';
import { parseInput } from '../../platform/validation';
import { productTypeForWrite, unknownReferenceErrors } from './attributeDefinitions';
import { attributesWithoutType, checkAttributeValues } from './attributeValues';
import { markProductTranslations, productSourceIfTranslated } from './translationMarks';
import { emitProductTranslationEvent, IN_PRODUCT_WRITE, writeProductTranslations } from './productTranslationWrites';
import { lockedStoreLocales } from './translations';
import { fieldChanges } from '../../platform/outbox/fieldChanges';
import { parseWithPrices, PricesInput, samePrices, withPriceChangesPerCurrency } from './prices';
import { syncSmartMembership } from './collectionMembership';

export const PRODUCT_STATUSES = ['active', 'draft', 'archived'] as const;
type Tx = Prisma.TransactionClient;
type ProductQuery = { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect };

const MAX_INT = 2_147_483_647;

export const Price = z
  .union([z.number(), z.string()])
  .transform((v) => (typeof v === 'number' ? String(v) : v.trim()))
  .refine((v) => /^\d{1,10}(\.\d{1,2})?$/.test(v), 'must be a number >= 0 with at most 2 decimals and below 10,000,000,000');

const Tag = z.string().trim().min(1).max(64);

/** A schedule time: RFC 3339 with offset; null clears it. Whether it is in the future is checked against the request's clock. */
const ScheduleTime = z
  .string()
  .transform((s, c) => {
    const d = parseRfc3339(s.trim());
    if (!d) c.addIssue({ code: 'custom', message: 'must be an RFC 3339 timestamp with an offset, e.g. 2026-05-01T09:00:00+02:00 or 2026-05-01T07:00:00Z' });
    return d ?? z.NEVER;
  })
  .nullable();

/** A product's name; categories follow the same rules. */
export const ProductName = z.string().trim().min(1, 'must not be empty').max(255);

const ProductFields = {
  name: ProductName,
  description: z.string().max(20_000),
  price: Price,
  /** Prices in the store's further currencies; a list sent replaces the stored one ([] removes them all). */
  prices: PricesInput,
  inventoryQuantity: z.number().int().min(0).max(MAX_INT),
  lowStockThreshold: z.number().int().min(0).max(MAX_INT),
  status: z.enum(PRODUCT_STATUSES),
  tags: z.array(Tag).max(100).transform((t) => [...new Set(t)]),
  categorySlugs: z.array(z.string().trim().min(1).max(128)),
  publishAt: ScheduleTime,
  unpublishAt: ScheduleTime,
  /** null: no type (and so no attribute values). Checked against the store's types in the write. */
  productTypeId: z.string().nullable(),
  /** {code: value}; null clears a value. Checked against the product type in the write (attributesAfterWrite). */
  attributes: z.record(z.string(), z.unknown()),
  /** {locale: translation}; merged per locale, null removes a locale's. Checked in the write (writeProductTranslations). */
  translations: z.record(z.string(), z.unknown()),
};

export const ProductCreateInput = z.object({
  ...ProductFields,
  description: ProductFields.description.default(''),
  inventoryQuantity: ProductFields.inventoryQuantity.default(0),
  lowStockThreshold: ProductFields.lowStockThreshold.default(5),
  status: ProductFields.status.default('draft'),
  prices: ProductFields.prices.optional(),
  tags: ProductFields.tags.default([]),
  categorySlugs: ProductFields.categorySlugs.optional(),
  publishAt: ProductFields.publishAt.optional(),
  unpublishAt: ProductFields.unpublishAt.optional(),
  productTypeId: ProductFields.productTypeId.optional(),
  attributes: ProductFields.attributes.optional(),
  translations: ProductFields.translations.optional(),
  /** The options, in order, checked as PUT …/options checks them; the product starts without variants (generate makes them). */
  options: NewOptionsInput.optional(),
});
export const ProductUpdateInput = z.object(ProductFields).partial();
export type ProductCreate = z.input<typeof ProductCreateInput>;
export type ProductUpdate = z.input<typeof ProductUpdateInput>;
/** What callers may pass to an update: a null is rejected (except publishAt/unpublishAt, where it clears), not taken as "keep". */
type ProductUpdateArgs = { [K in keyof ProductUpdate]?: ProductUpdate[K] | null };

export function searchText(p: { name: string; description: string; tags: string[] }, skus: string[] = []): string {
  return [p.name, p.description, ...p.tags, ...skus].join(' ').toLowerCase();
}

/**
 * The store's categories with these slugs, for a write about to link products to them: each found is held
 * (FOR KEY SHARE) until the transaction ends, so deleteCategory, which locks the category before counting its
 * products, waits and then finds it in use; a category deleted meanwhile is not found (the write's 422, never
 * a foreign-key failure or a product whose only category vanished with it).
 */
export function categoriesToLink(tx: Tx, storeId: string, slugs: string[]) {
  return tx.$queryRaw<{ id: string; slug: string }[]>`
    SELECT id::text AS id, slug FROM categories WHERE store_id = ${storeId}::uuid AND slug = ANY(${slugs}::text[]) FOR KEY SHARE`;
}

/** A product write without any category slug (the create, the bulk import). */
export const categoryRequired = () =>
  validationError([{ field: 'categorySlugs', code: 'category_required', message: 'at least one category slug is required' }], 'category_required', 'A product needs at least one category slug');

/** A product write naming slugs no category of the store has (the create and update, the bulk import). */
export const unknownCategories = (unknown: string[]) =>
  new AppError('unknown_category', `Unknown category slug(s): ${unknown.join(', ')}`, {
    errors: unknown.map((s) => ({ field: 'categorySlugs', code: 'unknown_category', message: `no category with slug "${s}" in this store` })),
    details: { unknown_slugs: unknown },
  });

/** Category ids for the slugs, or a 422 naming the slugs that are missing or unknown. */
export async function resolveCategories(tx: Tx, storeId: string, slugs: string[] | undefined): Promise<string[]> {
  const wanted = [...new Set(slugs ?? [])];
  if (wanted.length === 0) throw categoryRequired();
  const found = await categoriesToLink(tx, storeId, wanted);
  const unknown = wanted.filter((s) => !found.some((c) => c.slug === s));
  if (unknown.length) throw unknownCategories(unknown);
  return found.map((c) => c.id);
}

/**
 * The product's type and attribute values after a write that sends either (undefined when it sends neither),
 * checked against the type: unknown codes, wrong types, values outside a list, missing required values and
 * references to products or categories the store lacks, every error at once (422). Values sent merge into
 * the stored ones (null clears one); values the (new) type lacks are dropped, the variants' too
 * (`variants`: their new values by id, when the type changed).
 */
export async function attributesAfterWrite(
  t: TransactionContext,
  storeId: string,
  before: { id?: string; productTypeId: string | null; attributes: unknown },
  data: { productTypeId?: string | null; attributes?: Record<string, unknown> },
) {
  if (data.productTypeId === undefined && data.attributes === undefined) return undefined;
  const productTypeId = data.productTypeId === undefined ? before.productTypeId : data.productTypeId;
  const input = data.attributes ?? {};
  const typeChanged = productTypeId !== before.productTypeId;
  const current = typeChanged && !productTypeId ? {} : (before.attributes as Record<string, unknown>);
  const type = productTypeId ? await productTypeForWrite(t.tx, storeId, productTypeId) : null;
  if (productTypeId && !type) {
    throw validationError([{ field: 'productTypeId', code: 'unknown_product_type', message: `no product type with id ${JSON.stringify(productTypeId)} in this store` }]);
  }
  const check = type ? checkAttributeValues(type.productAttributes, current, input, 'attributes') : { errors: attributesWithoutType(input, 'attributes'), values: {}, references: [] };
  const errors = [...check.errors, ...(await unknownReferenceErrors(t.tx, storeId, check.references))];
  const variants: { id: string; attributes: Record<string, unknown> }[] = [];
  if (typeChanged && before.id) {
    let lacking = 0;
    for (const v of await t.tx.variant.findMany({ where: { productId: before.id }, select: { id: true, attributes: true } })) {
      const next = checkAttributeValues(type?.variantAttributes ?? [], v.attributes as Record<string, unknown>, {}, '');
      if (next.errors.length) lacking++;
      if (JSON.stringify(next.values) !== JSON.stringify(v.attributes)) variants.push({ id: v.id, attributes: next.values });
    }
    if (lacking) {
      errors.push({ field: 'productTypeId', code: 'attribute_values_missing', message: `${lacking} variant(s) lack values the type requires of variants; set them first or choose another type` });
    }
  }
  if (errors.length) throw validationError(errors);
  return { productTypeId, attributes: check.values, variants };
}

/**
 * Records a product event whose data is the product as REST shows it. With
 * `before` (the parts the write read before changing them), `changes` lists
 * the fields that differ; parts it did not read are the same after as before.
 */
export function emitProductEvent(
  t: TransactionContext,
  type: EventType,
  product: ProductViewRow,
  opts: { before?: ProductPartsRow; version?: number; extra?: Record<string, unknown>; previousExtra?: Record<string, unknown> } = {},
) {
  const data = { ...productView(product, t.baseUrl), ...opts.extra };
  const before = opts.before && { ...data, ...productParts(opts.before, t.baseUrl), ...opts.previousExtra };
  const changes = before ? withPriceChangesPerCurrency(fieldChanges(before, data)) : undefined;
  emit(t, { type, storeId: product.storeId, mode: product.mode, resource: { type: 'product', id: product.id, version: opts.version ?? product.version }, data, before, changes });
}

/** The columns of a new product from its checked create input (createProduct, the bulk import); a schedule comes on top. */
export function newProductRow(storeId: string, mode: Mode, data: z.output<typeof ProductCreateInput>, now: Date, skus: string[] = []) {
  return {
    storeId,
    mode,
    name: data.name,
    description: data.description,
    price: data.price,
    prices: data.prices ?? {},
    inventoryQuantity: data.inventoryQuantity,
    lowStockThreshold: data.lowStockThreshold,
    lowStock: data.inventoryQuantity <= data.lowStockThreshold,
    status: data.status,
    publishedAt: data.status === 'active' ? now : null,
    tags: data.tags,
    searchText: searchText(data, skus),
  };
}

/** Where a product write's prices are, for the store's check. */
export const productPrices = (input: { prices?: unknown }) => [{ input: input.prices, field: 'prices' }];

export async function getProduct(ctx: RequestContext, storeId: string, id: string, query: ProductQuery = {}) {
  if (!isUuid(id)) throw notFound('Product');
  const product = coveredByFullRow(query)
    ? ((await fullProductRow(storeId, ctx.mode, id)) as unknown as Prisma.ProductGetPayload<typeof query> | null)
    : await ctx.readDb.product.findFirst({ ...query, where: { id, ...catalogOf(ctx, storeId) } });
  if (!product) throw notFound('Product');
  return product;
}

/**
 * The start of every write on a product, in its transaction: locks the
 * product's row until the commit, then reads it with the parts the write may
 * change; 404 when it is not the store's or no longer exists. Whatever the
 * write reads or writes after this sees the same product: a concurrent delete
 * (or another write) waits for this transaction, and a write that waited for a
 * delete finds no row here and answers 404 before writing anything.
 */
export async function productBeforeWrite<I extends BeforeParts>(t: TransactionContext, storeId: string, id: string, parts: I) {
  if (!isUuid(id)) throw notFound('Product');
  const locked = await t.tx.$queryRaw<unknown[]>`SELECT 1 FROM products WHERE id = ${id}::uuid AND store_id = ${storeId}::uuid AND mode = ${t.mode}::"Mode" FOR UPDATE`;
  if (locked.length === 0) throw notFound('Product');
  const product = await t.tx.product.findFirst({ where: { id, ...catalogOf(t, storeId) }, include: parts });
  if (!product) throw notFound('Product');
  (t as GuardedContext)[BEFORE_PRODUCT_WRITE]?.(product);
  return product;
}

/**
 * A check a caller puts on its context for the product writes it runs (the staged changes' 409 rule,
 * src/catalog/services/stagedChanges.ts): it sees the product as locked, before anything is written, in the write's
 * own transaction. A symbol key, so that it travels with the context into the transaction and nowhere else.
 */
export const BEFORE_PRODUCT_WRITE = Symbol('beforeProductWrite');
export type GuardedContext = RequestContext & { [BEFORE_PRODUCT_WRITE]?: (product: { id: string; hasStagedChanges: boolean }) => void };

/** The relations a write may change, to read before it: each is one of the product view's. */
type BeforeParts = { [K in keyof typeof PRODUCT_VIEW_INCLUDE]?: (typeof PRODUCT_VIEW_INCLUDE)[K] } & { variants?: { select: { sku: true } } };
/** Every part, for a write that ends the product (its event carries the whole last state). */
const WHOLE_PRODUCT = PRODUCT_VIEW_INCLUDE;

/**
 * Moves the product from the version read (by productBeforeWrite, which holds
 * its row) to the next one, with `data`, runs `alsoWrite` (its parts), and
 * reads it back with the planned query and its representation. Should the
 * version have moved all the same (a writer that did not lock the row), the
 * caller's transaction starts over.
 */
export async function writeProductVersion(
  t: TransactionContext,
  before: { id: string; version: number; storeId: string },
  data: Prisma.ProductUncheckedUpdateManyInput,
  query: ProductQuery = {},
  alsoWrite?: () => Promise<unknown>,
) {
  // Its translations' outdated marks are set here, the one place every product write passes (translationMarks.ts).
  const source = await productSourceIfTranslated(t, before.id);
  const { count } = await t.tx.product.updateMany({ where: { id: before.id, version: before.version }, data: { ...data, version: { increment: 1 } } });
  if (count === 0) throw new ConcurrentWrite();
  await alsoWrite?.();
  if (source) await markProductTranslations(t, before.id, source);
  // Smart collections follow the version just written, in its transaction (collectionMembership.ts).
  await syncSmartMembership(t, before.storeId, [before.id]);
  return t.tx.product.findUniqueOrThrow({ ...withIncludes(query, PRODUCT_VIEW_INCLUDE), where: { id: before.id } });
}

/**
 * Whether updateProduct with this input would leave the product as it is (its parts read with its categories):
 * the bulk import's unchanged rows, compared as the update compares them. Throws the update's validation errors.
 */
export function updateChangesNothing(current: ProductPartsRow, input: Omit<ProductUpdateArgs, keyof Schedule>): boolean {
  const { publishAt: _publishAt, unpublishAt: _unpublishAt, translations: _translations, ...data } = parseInput(ProductUpdateInput, input);
  return changesNothing(current, data);
}

/** Whether an update would leave every field as it is (then nothing is written and no version is made). */
function changesNothing(current: ProductPartsRow, data: Omit<z.output<typeof ProductUpdateInput>, keyof Schedule | 'translations'>): boolean {
  const same: { [K in keyof typeof data]-?: (v: NonNullable<(typeof data)[K]>) => boolean } = {
    name: (v) => v === current.name,
    description: (v) => v === current.description,
    price: (v) => Number(v) === Number(current.price),
    prices: (v) => samePrices(v, current.prices),
    inventoryQuantity: (v) => v === current.inventoryQuantity,
    lowStockThreshold: (v) => v === current.lowStockThreshold,
    status: (v) => v === current.status,
    tags: (v) => v.length === current.tags.length && v.every((tag, i) => tag === current.tags[i]),
    categorySlugs: (v) => sameSet(v, (current.categories ?? []).map((c) => c.category.slug)),
    productTypeId: (v) => v === current.productTypeId,
    // Sent values merge into the stored ones, so only their check tells whether they change anything (updateProduct does).
    attributes: (v) => Object.keys(v).length === 0,
  };
  return (Object.keys(same) as (keyof typeof data)[]).every((k) => data[k] === undefined || (same[k] as (v: unknown) => boolean)(data[k]));
}

/** When the product is published and unpublished by the scheduler; null: not scheduled. */
interface Schedule {
  publishAt: Date | null;
  unpublishAt: Date | null;
}

export const NEW_PRODUCT = { status: null, publishAt: null, unpublishAt: null };
const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * The schedule a write leaves, checked against the status the write leaves:
 * - a time sent must be in the future (a time sent unchanged is kept as it is, even when due);
 * - an archived product carries no schedule (409 product_archived when one is sent; archiving cancels it);
 * - publishAt only on a product that is not active (422 product_active): the scheduler never
 *   publishes an active product, and an active product is taken off sale with unpublishAt;
 * - unpublishAt after publishAt when both are set;
 * - a status change consumes the schedule for it: becoming active (publishing by hand) clears
 *   publishAt, going from active to draft (unpublishing by hand) clears unpublishAt, unless the
 *   same write sets it again.
 */
export function scheduleAfterWrite(
  t: TransactionContext,
  before: { status: string | null; publishAt: Date | null; unpublishAt: Date | null },
  statusAfter: string,
  input: { publishAt?: Date | null; unpublishAt?: Date | null },
): Schedule {
  // A value equal to the stored one is no change (a GET body sent back edited keeps a due time).
  const sent = {
    publishAt: input.publishAt !== undefined && !sameTime(input.publishAt, before.publishAt) ? input.publishAt : undefined,
    unpublishAt: input.unpublishAt !== undefined && !sameTime(input.unpublishAt, before.unpublishAt) ? input.unpublishAt : undefined,
  };
  if (statusAfter === 'archived' && (sent.publishAt || sent.unpublishAt)) {
    throw new AppError('product_archived', 'An archived product cannot be scheduled; set its status to draft first', {
      errors: (['publishAt', 'unpublishAt'] as const)
        .filter((f) => sent[f])
        .map((field) => ({ field, code: 'product_archived', message: 'an archived product cannot be scheduled' })),
    });
  }
  const now = t.now();
  const past = (['publishAt', 'unpublishAt'] as const).filter((f) => sent[f] && sent[f].getTime() <= now.getTime());
  if (past.length) {
    throw validationError(past.map((field) => ({ field, code: 'not_in_future', message: `must be in the future (it is now ${now.toISOString()})` })));
  }
  if (statusAfter === 'active' && sent.publishAt) {
    throw validationError([
      {
        field: 'publishAt',
        code: 'product_active',
        message: 'the product is active already: unpublish it first to publish it again later, or set unpublishAt to take it off sale',
      },
    ]);
  }
  let { publishAt, unpublishAt } = before;
  if (statusAfter === 'archived') [publishAt, unpublishAt] = [null, null];
  if (statusAfter === 'active' && before.status !== 'active') publishAt = null;
  if (statusAfter !== 'active' && before.status === 'active') unpublishAt = null;
  if (sent.publishAt !== undefined) publishAt = sent.publishAt;
  if (sent.unpublishAt !== undefined) unpublishAt = sent.unpublishAt;
  if (publishAt && unpublishAt && unpublishAt.getTime() <= publishAt.getTime()) {
    const field = sent.unpublishAt ? 'unpublishAt' : 'publishAt';
    throw validationError([{ field, code: 'unpublish_not_after_publish', message: `unpublishAt (${unpublishAt.toISOString()}) must be after publishAt (${publishAt.toISOString()})` }]);
  }
  return { publishAt, unpublishAt };
}

const sameSet = (a: string[], b: string[]) => {
  const x = new Set(a);
  return x.size === new Set(b).size && b.every((v) => x.has(v));
};

/** Optimistic concurrency: when an expected version is given and the product's differs, 412 precondition_failed and nothing is written. */
export function requireVersion(product: { version: number }, expectedVersion: number | null | undefined): void {
  if (expectedVersion == null || expectedVersion === product.version) return;
  throw new AppError('precondition_failed', `The product was modified (version ${product.version}, expected ${expectedVersion}); reload and retry`, {
    details: { current_version: product.version },
  });
}

/**
 * Partial update guarded by optimistic concurrency: when `expectedVersion` is
 * given and the stored version differs, nothing is written and 412 is returned.
 * An update that changes nothing writes nothing: no new version, no event.
 */
export async function updateProduct(
  ctx: RequestContext,
  storeId: string,
  id: string,
  input: ProductUpdateArgs,
  opts: { expectedVersion?: number | null } = {},
  query: ProductQuery = {},
) {
  const data = await parseWithPrices(ctx, storeId, ProductUpdateInput, input, productPrices);
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    // Before the product's lock, as a locale removal takes the store's before the translations' rows.
    const locales = data.translations ? await lockedStoreLocales(t, storeId) : undefined;
    // Categories are read only when the update sets them (undefined leaves them out of the read).
    const parts = { variants: { select: { sku: true } }, categories: data.categorySlugs !== undefined ? PRODUCT_VIEW_INCLUDE.categories : undefined };
    const before = await productBeforeWrite(t, storeId, id, parts as { variants: { select: { sku: true } }; categories: typeof PRODUCT_VIEW_INCLUDE.categories });
    requireVersion(before, opts.expectedVersion);
    const schedule = scheduleAfterWrite(t, before, data.status ?? before.status, data);
    const scheduleChanged = !sameTime(schedule.publishAt, before.publishAt) || !sameTime(schedule.unpublishAt, before.unpublishAt);
    const attributes = await attributesAfterWrite(t, storeId, before, data);
    const attributesChanged =
      attributes !== undefined && (attributes.productTypeId !== before.productTypeId || JSON.stringify(attributes.attributes) !== JSON.stringify(before.attributes));
    const { productTypeId: _type, attributes: _values, translations, ...otherFields } = data;
    const productChanged = scheduleChanged || attributesChanged || !changesNothing(before, otherFields);
    if (!productChanged) {
      const translated = translations && (await translationsOfUpdate(t, locales!, before, translations, false, query));
      // Nothing to change: no new version, so the caller's ETag stays valid.
      return translated?.after ?? t.tx.product.findUniqueOrThrow({ ...query, where: { id } });
    }
    const categoryIds = data.categorySlugs !== undefined ? await resolveCategories(t.tx, storeId, data.categorySlugs) : undefined;
    const merged = { ...before, ...stripUndefined(data) };
    const after = await writeProductVersion(
      t,
      before,
      {
        name: data.name,
        description: data.description,
        price: data.price,
        prices: data.prices,
        inventoryQuantity: data.inventoryQuantity,
        lowStockThreshold: data.lowStockThreshold,
        lowStock: merged.inventoryQuantity <= merged.lowStockThreshold,
        status: data.status,
        // Like publishProduct: becoming active (again) stamps published_at.
        publishedAt: data.status === 'active' && before.status !== 'active' ? t.now() : undefined,
        publishAt: schedule.publishAt,
        unpublishAt: schedule.unpublishAt,
        tags: data.tags,
        searchText: searchText(merged, before.variants.map((v) => v.sku)),
        productTypeId: attributes?.productTypeId,
        attributes: attributes?.attributes as Prisma.InputJsonObject | undefined,
      },
      query,
      async () => {
        if (categoryIds) {
          await t.tx.productCategory.deleteMany({ where: { productId: id } });
          await t.tx.productCategory.createMany({ data: categoryIds.map((categoryId) => ({ productId: id, categoryId, mode: before.mode })) });
        }
        for (const v of attributes?.variants ?? []) await t.tx.variant.update({ where: { id: v.id }, data: { attributes: v.attributes as Prisma.InputJsonObject } });
      },
    );
    // Translated after the product's own fields, so a name changed and translated at once is not outdated.
    const typeAfter = attributes?.productTypeId === undefined ? before.productTypeId : attributes.productTypeId;
    const translated = translations && (await translationsOfUpdate(t, locales!, { ...before, productTypeId: typeAfter }, translations, true, query));
    // The answer and both events show the translations written.
    const final = translated ? await t.tx.product.findUniqueOrThrow({ ...withIncludes(query, PRODUCT_VIEW_INCLUDE), where: { id } }) : after;
    emitProductEvent(t, 'product.updated', final, { before });
    if (translated) emitProductTranslationEvent(t, 'translation.updated', final, translated.previous);
    return final;
  });
}

/**
 * The `translations` of an update, merged per locale into the stored ones (checked against the product with the
 * update's type; its options are written by their own route). When the update changes nothing else, this is the
 * write: the version moves and translation.updated is recorded here. Returns the translations before it (and the
 * product after it, when this was the write), or null when they changed nothing.
 */
async function translationsOfUpdate(
  t: TransactionContext,
  locales: { defaultLocale: string; locales: string[] },
  before: Awaited<ReturnType<typeof productBeforeWrite>>,
  translations: Record<string, unknown>,
  productChanged: boolean,
  query: ProductQuery,
) {
  const previous = await t.tx.productTranslation.findMany({ where: { productId: before.id }, orderBy: { locale: 'asc' } });
  if (!(await writeProductTranslations(t, locales, before, translations, { replace: false, names: IN_PRODUCT_WRITE }))) return null;
  if (productChanged) return { previous, after: undefined };
  const after = await writeProductVersion(t, before, {}, query);
  emitProductTranslationEvent(t, 'translation.updated', after, previous);
  return { previous, after };
}

/** Deletes the product; variants, SEO and image links go with it (cascades). Its event carries the product as it was. */
export async function deleteProduct(ctx: RequestContext, storeId: string, id: string) {
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, id, WHOLE_PRODUCT);
    const { count } = await t.tx.product.deleteMany({ where: { id, version: before.version } });
    if (count === 0) throw new ConcurrentWrite();
    // The deletion is the product's last version.
    emitProductEvent(t, 'product.deleted', before, { version: before.version + 1 });
    return { id };
  });
}

/**
 * Sets status active and published_at (when it was not active), and clears a
 * pending publish_at. Idempotent; an archived product cannot be published.
 */
export async function publishProduct(ctx: RequestContext, storeId: string, id: string, query: ProductQuery = {}) {
  return setProductStatus(ctx, storeId, id, 'active', query);
}

/** Sets status draft, and clears a pending unpublish_at when the product was active. Idempotent. */
export async function unpublishProduct(ctx: RequestContext, storeId: string, id: string, query: ProductQuery = {}) {
  return setProductStatus(ctx, storeId, id, 'draft', query);
}

/**
 * Publishing and unpublishing, by hand or by the scheduler (src/catalog/services/productSchedules.ts):
 * a status change records product.published or product.unpublished; the schedule for that
 * change is consumed with it.
 */
export async function setProductStatus(ctx: RequestContext, storeId: string, id: string, status: 'active' | 'draft', query: ProductQuery = {}) {
  if (!isUuid(id)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, id, {});
    if (status === 'active' && before.status === 'archived') {
      throw new AppError('product_archived', 'An archived product cannot be published; set its status to draft first');
    }
    if (before.status === status) return t.tx.product.findUniqueOrThrow({ ...query, where: { id } });
    const schedule = scheduleAfterWrite(t, before, status, {});
    const after = await writeProductVersion(t, before, { status, ...schedule, ...(status === 'active' ? { publishedAt: t.now() } : {}) }, query);
    emitProductEvent(t, status === 'active' ? 'product.published' : 'product.unpublished', after, { before });
    return after;
  });
}

export { isUuid };


function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
