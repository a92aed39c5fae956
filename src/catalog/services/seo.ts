/** The SEO service: a product's SEO record, its rules and its writes. */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { transaction } from '../../platform/outbox/outbox';
import { AppError, notFound } from '../../platform/errors';
import { violatedUniqueIndex } from '../../platform/db/uniqueIndex';
import { emitProductEvent, isUuid, productBeforeWrite, requireVersion, writeProductVersion } from './products';
import { SEO_LIMITS, slug } from './slugs';
import { parseInput } from '../../platform/validation';

type SeoQuery = { include?: Prisma.SeoInclude; select?: Prisma.SeoSelect };

export { SEO_LIMITS };

/** Characters as a reader counts them (code points), so an emoji or an accented letter is one. */
const chars = (s: string) => [...s].length;

/** Blank strings and null both mean "no value". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullish());

const text = (max: number) =>
  optional(z.string().trim().refine((s) => chars(s) <= max, { message: `must be at most ${max} characters`, params: { code: 'too_big' } }));

const httpUrl = optional(
  z
    .string()
    .trim()
    .max(SEO_LIMITS.url)
    .refine((s) => {
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, 'must be an absolute http(s) URL'),
);

export const SeoInput = z.object({
  title: text(SEO_LIMITS.title),
  description: text(SEO_LIMITS.description),
  slug: optional(slug(SEO_LIMITS.slug)),
  canonicalUrl: httpUrl,
  ogImageUrl: httpUrl,
  noindex: z.boolean().nullish(),
});

type SeoWrite = z.input<typeof SeoInput>;

type SeoFields = { title?: string | null; description?: string | null; slug?: string | null; canonicalUrl?: string | null; ogImageUrl?: string | null; noindex?: boolean | null };

/** The whole SEO record a set of fields stands for: a field left out or null is cleared (noindex: false). */
export function seoRecord(f: SeoFields | null | undefined) {
  return {
    title: f?.title ?? null,
    description: f?.description ?? null,
    slug: f?.slug ?? null,
    canonicalUrl: f?.canonicalUrl ?? null,
    ogImageUrl: f?.ogImageUrl ?? null,
    noindex: f?.noindex ?? false,
  };
}

/** Whether the product's SEO record (null: none yet) already is this one: no record is the same as one of nulls. */
export function sameSeo(current: SeoFields | null, fields: ReturnType<typeof seoRecord>): boolean {
  const now = seoRecord(current);
  return (Object.keys(fields) as (keyof typeof fields)[]).every((k) => now[k] === fields[k]);
}

/**
 * Sets the product's SEO record with PUT (replace) semantics: a field that is
 * absent, null or blank is cleared (noindex becomes false). The record is
 * created on first use.
 */
export async function setSeo(ctx: RequestContext, storeId: string, productId: string, input: SeoWrite, query: SeoQuery = {}, opts: { expectedVersion?: number | null } = {}) {
  const data = parseInput(SeoInput, input);
  if (!isUuid(productId)) throw notFound('Product');
  const fields = seoRecord(data);
  try {
    return await transaction(ctx, async (t) => {
      const before = await productBeforeWrite(t, storeId, productId, { seo: true });
      requireVersion(before, opts.expectedVersion);
      // The same record again changes nothing: no new product version, no event.
      // (A first write of nulls does make the record: the caller asked for one and is answered with it.)
      if (before.seo && sameSeo(before.seo, fields)) {
        return t.tx.seo.findUniqueOrThrow({ ...query, where: { productId } });
      }
      let seo: Awaited<ReturnType<typeof t.tx.seo.upsert>> | undefined;
      const after = await writeProductVersion(t, before, {}, {}, async () => {
        seo = await t.tx.seo.upsert({ ...query, where: { productId }, create: { storeId, productId, mode: t.mode, ...fields }, update: fields });
      });
      emitProductEvent(t, 'product.seo_updated', after, { before });
      return seo!;
    });
  } catch (e) {
    const index = violatedUniqueIndex(e);
    // Two first-time upserts of one product racing: the loser may simply retry.
    if (index === 'product_seo_product_id_key') throw new AppError('conflict', 'The SEO record was created concurrently; retry the request');
    if (index === 'product_seo_store_id_mode_slug_key') {
      throw new AppError('slug_taken', `The slug "${fields.slug}" is already used by another product of this store`, {
        errors: [{ field: 'slug', code: 'slug_taken', message: 'already used by another product of this store' }],
        details: { slug: fields.slug },
      });
    }
    throw e;
  }
}
