/**
 * Products named the way a person or a file names them: by id, or by the slug of their SEO record (unique per
 * catalog). The CLI's collection commands and the collections import take both.
 */

import type { Prisma } from '../../platform/db/client';
import { isUuid } from '../../kernel/ids';
import { type FieldError, validationError } from '../../platform/errors';

/**
 * The ids of `refs` in order (read with `db`: the pool, or a transaction's client): an id stays as given (the service it goes to checks it is the catalog's), a slug is
 * looked up in the request's catalog (one statement for all). Unknown slugs are 422 unknown_product, all at once,
 * each naming `fieldOf(i)` (default `productIds.N`).
 */
export async function productIdsByRef(db: Pick<Prisma.TransactionClient, 'seo'>, catalog: { storeId: string; mode: 'live' | 'test' }, refs: string[], fieldOf = (i: number) => `productIds.${i}`): Promise<string[]> {
  const slugs = [...new Set(refs.filter((r) => !isUuid(r)).map((r) => r.toLowerCase()))];
  const bySlug = new Map<string, string>();
  if (slugs.length && isUuid(catalog.storeId)) {
    const rows = await db.seo.findMany({ where: { storeId: catalog.storeId, mode: catalog.mode, slug: { in: slugs } }, select: { slug: true, productId: true } });
    for (const r of rows) bySlug.set(r.slug!, r.productId);
  }
  const errors: FieldError[] = [];
  const ids = refs.map((r, i) => {
    if (isUuid(r)) return r;
    const id = bySlug.get(r.toLowerCase());
    if (!id) errors.push({ field: fieldOf(i), code: 'unknown_product', message: `no product of this catalog has the slug "${r}"` });
    return id ?? '';
  });
  if (errors.length) throw validationError(errors);
  return ids;
}
