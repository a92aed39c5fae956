/**
 * A product's translation in one locale as a resource of its own: PUT …/products/{id}/translations/{locale} sets
 * it whole, DELETE removes it. Each moves the product's version (its translations are part of it, and of its
 * ETag) and records translation.updated or translation.deleted, whose changes name each field per locale.
 */

import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { notFound, validationError } from '../../platform/errors';
import { transaction } from '../../platform/outbox/outbox';
import { productBeforeWrite, writeProductVersion } from './products';
import { emitProductTranslationEvent, type ProductTranslationWrite, type TranslationFieldNames, writeProductTranslations } from './productTranslationWrites';
import { lockedStoreLocales, translationLocale } from './translations';
import { BY_LOCALE } from './views';

type ProductQuery = { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect };

/** In PUT …/translations/{locale}: the locale is the path's, the fields the body's own. */
const ONE_LOCALE: TranslationFieldNames = { locale: () => 'locale', prefix: () => '' };


/** Sets the product's translation in one of the store's further locales whole (fields left out have none). */
export async function setProductTranslation(ctx: RequestContext, storeId: string, productId: string, locale: string, input: ProductTranslationWrite, query: ProductQuery = {}) {
  return transaction(ctx, async (t) => {
    const store = await lockedStoreLocales(t, storeId);
    const before = await productBeforeWrite(t, storeId, productId, BY_LOCALE);
    const changed = await writeProductTranslations(t, store, before, { [locale]: input }, { replace: true, names: ONE_LOCALE });
    if (!changed) return t.tx.product.findUniqueOrThrow({ ...query, where: { id: productId } });
    const after = await writeProductVersion(t, before, {}, query);
    emitProductTranslationEvent(t, 'translation.updated', after, before.translations);
    return after;
  });
}

/** Removes the product's translation in a locale; one it lacks is 404. */
export async function removeProductTranslation(ctx: RequestContext, storeId: string, productId: string, locale: string, query: ProductQuery = {}) {
  return transaction(ctx, async (t) => {
    const store = await lockedStoreLocales(t, storeId);
    const r = translationLocale(store, locale, 'locale');
    if ('error' in r) throw validationError([r.error]);
    const before = await productBeforeWrite(t, storeId, productId, BY_LOCALE);
    if (!before.translations.some((x) => x.locale === r.locale)) throw notFound(`Translation in ${r.locale}`);
    await writeProductTranslations(t, store, before, { [r.locale]: null }, { replace: true, names: ONE_LOCALE });
    const after = await writeProductVersion(t, before, {}, query);
    emitProductTranslationEvent(t, 'translation.deleted', after, before.translations);
    return after;
  });
}
