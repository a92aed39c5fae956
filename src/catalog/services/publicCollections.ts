/**
 * What the public API reads of collections: the catalog's published collections (an unpublished one does not exist
 * for a storefront: 404), their title and description in the request's language (the products' fallback chain,
 * localizedReads.ts), and a collection's active products with the storefront list's filters, sorts and facets.
 */

import type { RequestContext } from '../../platform/context';
import { isUuid } from '../../kernel/ids';
import { parseInput } from '../../platform/validation';
import type { Facet } from './attributeFilters';
import { listCollectionProductIds } from './collectionList';
import { collectionNotFound, type CollectionSort } from './collections';
import { PageInput, type PageResult } from './productList';
import { type PublicProductFilter, type PublicProductSort, publicListFilter } from './publicCatalog';
import { translatedLocales } from './localizedReads';

/** A published collection with what its localization needs: its translations in every locale. */
export interface PublicCollectionRow {
  id: string;
  title: string;
  slug: string;
  description: string;
  sort: CollectionSort;
  publishedAt: Date | null;
  updatedAt: Date;
  translations: { locale: string; title: string | null; description: string | null }[];
}

/** A collection's title and description in the best locale of the chain, each field on its own (as products' fields). */
export interface LocalizedCollection extends PublicCollectionRow {
  /** The first locale of the chain that gave a field; the default when none did. */
  locale: string;
}

const PUBLIC_SELECT = {
  id: true,
  title: true,
  slug: true,
  description: true,
  sort: true,
  publishedAt: true,
  updatedAt: true,
  translations: { select: { locale: true, title: true, description: true } },
} as const;

/** Picks title and description from the chain's translated locales, falling back field by field to the collection's own. */
export function localizeCollection(c: PublicCollectionRow, chain: readonly string[]): LocalizedCollection {
  const rows = translatedLocales(chain).flatMap((l) => c.translations.filter((t) => t.locale === l));
  const used = new Set<string>();
  const pick = (field: 'title' | 'description') => {
    const t = rows.find((r) => r[field] != null);
    if (!t) return c[field];
    used.add(t.locale);
    return t[field]!;
  };
  const title = pick('title');
  const description = pick('description');
  return { ...c, title, description, locale: chain.find((l) => used.has(l)) ?? chain.at(-1)! };
}

/** A page of the catalog's published collections, newest published first (ties: newest id). */
export async function listPublishedCollections(ctx: RequestContext, storeId: string, paging: { page?: number; perPage?: number }) {
  const { page, perPage } = parseInput(PageInput, paging);
  const where = { storeId, mode: ctx.mode, published: true };
  const [rows, total] = await Promise.all([
    ctx.readDb.collection.findMany({ where, select: PUBLIC_SELECT, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: (page - 1) * perPage, take: perPage }),
    ctx.readDb.collection.count({ where }),
  ]);
  return { rows: rows as PublicCollectionRow[], page, perPage, total };
}

/** A published collection of the catalog by id or slug, with its store's currencies (one statement); else 404. */
export async function findPublishedCollection(ctx: RequestContext, storeId: string, ref: string) {
  if (!isUuid(storeId)) throw collectionNotFound();
  const row = await ctx.readDb.collection.findFirst({
    where: { storeId, mode: ctx.mode, published: true, ...(isUuid(ref) ? { id: ref } : { slug: ref.toLowerCase() }) },
    select: { ...PUBLIC_SELECT, store: { select: { currency: true, currencies: true } } },
  });
  if (!row) throw collectionNotFound();
  const { store, ...collection } = row;
  return { collection: collection as PublicCollectionRow, store };
}

/**
 * A page of a published collection's active products: the storefront list's filters and facets (public attributes
 * only), in `sort` when given, else in the collection's own sort. `currency` is the further currency the caller
 * checked against the store's (null: the default).
 */
export function listPublicCollectionProducts(
  ctx: RequestContext,
  storeId: string,
  collection: { id: string; sort: CollectionSort },
  filter: PublicProductFilter,
  paging: { page?: number; perPage?: number },
  sort: PublicProductSort | undefined,
  facets: string[] | undefined,
  currency: string | null,
): Promise<PageResult & { facets?: Facet[] }> {
  return listCollectionProductIds(ctx, storeId, collection, publicListFilter(filter, currency), paging, { facets, audience: 'public', sort });
}
