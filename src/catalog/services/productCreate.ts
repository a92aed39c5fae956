/** Creating a product, with its variants in the same write when the input carries them (all or nothing). */

import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { transaction } from '../../platform/outbox/outbox';
import { AppError, type FieldError, validationError } from '../../platform/errors';
import { withIncludes } from '../../platform/db/queryMerge';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { fieldErrorsOf } from '../../platform/validation';
import { PRODUCT_VIEW_INCLUDE } from './views';
import { IN_PRODUCT_WRITE, writeProductTranslations } from './productTranslationWrites';
import { lockedStoreLocales } from './translations';
import { storePriceErrors } from './prices';
import {
  attributesAfterWrite,
  emitProductEvent,
  NEW_PRODUCT,
  newProductRow,
  type ProductCreate,
  ProductCreateInput,
  productPrices,
  resolveCategories,
  scheduleAfterWrite,
} from './products';
import { VARIANT_WRITE_TIMEOUT_MS } from './variantRows';
import { syncSmartMembership } from './collectionMembership';
import { insertNewProductVariants, newProductSkuConflict, newProductVariantPlan, newVariantList } from './variants';

type ProductQuery = { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect };

/** A create's input: the product's fields and, optionally, its variants as replaceVariants takes them. */
export type ProductCreateWithVariants = ProductCreate & { variants?: unknown };

/** The field errors of a part of the write that throws them (a schedule, the categories, the attributes), or rethrows. */
async function errorsOf<T>(run: () => T | Promise<T>, into: AppError[]): Promise<T | undefined> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AppError && e.errors) {
      into.push(e);
      return undefined;
    }
    throw e;
  }
}

/**
 * Creates a product. With `variants`, the product and its variant set are one write: every error of either is
 * reported at once (422 validation_failed, fields such as `name` and `variants.2.sku`; a SKU another product
 * holds is sku_taken), and nothing is written unless all of it is. The one event is product.created, whose data
 * counts the variants (variants_count) as any later read does.
 */
export async function createProduct(ctx: RequestContext, storeId: string, input: ProductCreateWithVariants, query: ProductQuery = {}) {
  const { variants: variantsInput, ...productInput } = input;
  const withVariants = variantsInput !== undefined;
  const productErrors = [...fieldErrorsOf(ProductCreateInput, productInput), ...(await storePriceErrors(ctx, storeId, productPrices(productInput)))];
  const list = withVariants ? await newVariantList(ctx, storeId, variantsInput) : { errors: [], rows: [] };
  if (productErrors.length || list.errors.length) throw validationError([...productErrors, ...list.errors]);
  const data = ProductCreateInput.parse(productInput);
  const skus = list.rows.map((v) => v.sku);
  try {
    return await transaction(
      ctx,
      async (t) => {
        const thrown: AppError[] = [];
        const schedule = await errorsOf(() => scheduleAfterWrite(t, NEW_PRODUCT, data.status, data), thrown);
        const categoryIds = await errorsOf(() => resolveCategories(t.tx, storeId, data.categorySlugs), thrown);
        const attributes = await errorsOf(() => attributesAfterWrite(t, storeId, { productTypeId: null, attributes: {} }, data), thrown);
        const id = randomUUID();
        const declared = (data.options ?? []).map((o) => ({ name: o.name, values: o.values }));
        const plan = withVariants
          ? await newProductVariantPlan(t, { id, storeId, price: data.price, productTypeId: attributes?.productTypeId ?? data.productTypeId ?? null, options: declared }, list.rows)
          : undefined;
        // Without variant errors, the product's own error is answered as it always was; with some, all come together.
        if (thrown.length && !plan?.errors.length) throw thrown[0];
        if (plan?.errors.length) {
          const all: FieldError[] = [...thrown.flatMap((e) => e.errors ?? []), ...plan.errors];
          throw validationError(all);
        }
        const product = await t.tx.product.create({
          ...withIncludes(query, PRODUCT_VIEW_INCLUDE),
          data: {
            ...newProductRow(storeId, ctx.mode, data, t.now(), skus),
            id,
            productTypeId: attributes?.productTypeId ?? null,
            attributes: (attributes?.attributes ?? {}) as Prisma.InputJsonObject,
            options: plan ? plan.options : declared,
            publishAt: schedule!.publishAt,
            unpublishAt: schedule!.unpublishAt,
            categories: { create: categoryIds!.map((categoryId) => ({ categoryId, mode: ctx.mode })) },
          },
        });
        if (plan?.rows.length) await insertNewProductVariants(t, storeId, id, plan.rows);
        // Smart collections see the product as created, its variants' attribute values included.
        await syncSmartMembership(t, storeId, [id]);
        const translated = data.translations && (await writeProductTranslations(t, await lockedStoreLocales(t, storeId), product, data.translations, { replace: false, names: IN_PRODUCT_WRITE }));
        if (!translated && !plan?.rows.length) {
          emitProductEvent(t, 'product.created', product);
          return product;
        }
        // Its translations and variants are part of it: the created product's event and answer carry them.
        const created = await t.tx.product.findUniqueOrThrow({ ...withIncludes(query, PRODUCT_VIEW_INCLUDE), where: { id } });
        emitProductEvent(t, 'product.created', created);
        return created;
      },
      withVariants ? { timeoutMs: VARIANT_WRITE_TIMEOUT_MS } : undefined,
    );
  } catch (e) {
    if (violatedUniqueIndex(e) === 'variants_store_id_mode_sku_key') throw await newProductSkuConflict(ctx, storeId, skus);
    throw e;
  }
}
