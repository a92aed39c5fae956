/** Bulk export: a store's products streamed as CSV or JSON Lines. */

import { stringify } from 'csv-stringify/sync';
import type { RequestContext } from '../../platform/context';
import { isUuid } from '../../kernel/ids';
import { notFound } from '../../platform/errors';
import { allows } from '../../access/auth/authorization';
import { listProductIdsAfter, type ProductFilter } from '../services/productList';
import { COLUMNS, csvCells, type ExportRow, exportRecord, priceColumns, type TransferFormat } from './format';
import type { ProductTranslation } from '../services/translationRows';
import { exportedTranslations, translationCells, translationColumns, TRANSLATIONS_KEY } from './translations';

/** Products read per keyset page: memory holds one page, whatever the catalog's size. */
const EXPORT_PAGE_SIZE = 100;

const EXPORT_INCLUDE = {
  categories: { select: { category: { select: { slug: true } } } },
  productType: { select: { name: true } },
  variants: { orderBy: [{ position: 'asc' as const }, { sku: 'asc' as const }] },
  seo: true,
  translations: true,
};

/**
 * The store's catalog (ctx.mode) matching the product list's filter, as CSV
 * (header first) or JSON Lines text, one page of products per chunk, oldest
 * first (created_at, then id: a product created while the export runs comes
 * last or not at all, never twice). The format is the one importProducts reads.
 */
export async function* exportProducts(ctx: RequestContext, storeId: string, filter: ProductFilter, format: TransferFormat): AsyncGenerator<string> {
  if (!isUuid(storeId)) throw notFound('Store');
  let page = await listProductIdsAfter(ctx, storeId, filter, { first: EXPORT_PAGE_SIZE }, 'created_at');
  // CSV has a price column pair per further currency of the store and a column per translated field and further
  // locale; JSON Lines nests every price in `prices` and the translations in `translations` (when it has locales).
  const store = await ctx.readDb.store.findUnique({ where: { id: storeId }, select: { currencies: true, locales: true } });
  if (!store) throw notFound('Store');
  const { currencies, locales } = store;
  if (format === 'csv') yield stringify([[...COLUMNS, ...priceColumns(currencies), ...translationColumns(locales)]]);
  // A credential that may read the catalog but not cost (an API key) exports the variants without it.
  const withCost = allows(ctx.principal, 'readCost', storeId);
  for (;;) {
    if (page.ids.length) {
      const rows = (await ctx.readDb.product.findMany({ where: { id: { in: page.ids } }, include: EXPORT_INCLUDE })) as unknown as (ExportRow & { translations: ProductTranslation[] })[];
      const byId = new Map(rows.map((r) => [r.id, r]));
      // A product deleted between the page's ids and its rows is left out.
      const found = page.ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
      const records = found.map((p) => exportRecord(p, withCost));
      yield format === 'csv'
        ? stringify(records.map((r, i) => [...csvCells(r, currencies), ...translationCells(found[i].translations, locales)]))
        : records.map((r, i) => `${JSON.stringify(locales.length ? { ...r, [TRANSLATIONS_KEY]: exportedTranslations(found[i].translations) } : r)}\n`).join('');
    }
    if (!page.hasNextPage) return;
    page = await listProductIdsAfter(ctx, storeId, filter, { first: EXPORT_PAGE_SIZE, after: page.cursors.at(-1) }, 'created_at');
  }
}
