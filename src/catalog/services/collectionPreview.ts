/**
 * What a smart collection's rules would hold, before anything is saved: the number of products they match and the
 * first of them. The rules are checked as a create or update checks them (checkRules: every error at once, with
 * its path) and evaluated by the same predicate over the same product rows as membership (collectionPredicateSql
 * over membershipRowsSql), so the count is the products_count saving them would give.
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { Prisma } from '../../platform/db/client';
import { type FieldError, notFound, validationError } from '../../platform/errors';
import { fieldErrorsOf } from '../../platform/validation';
import { isUuid } from '../../kernel/ids';
import type { Mode } from '../../kernel/access';
import { CATALOG_LIMITS } from '../limits';
import { type CollectionRule, checkRules, collectionPredicateSql, membershipRowsSql, RulesInput } from './collectionRules';
import { COLLECTION_MATCHES, COLLECTION_SORTS, type CollectionSort } from './collections';

/** How many matching products a preview may list. */
export const PREVIEW_PRODUCTS = { default: 5, max: 50 } as const;

const PreviewInput = z.object({
  rules: RulesInput,
  match: z.enum(COLLECTION_MATCHES).default('all'),
  sort: z.enum(COLLECTION_SORTS).default('newest'),
});
export type CollectionRulesPreviewInput = z.input<typeof PreviewInput>;

/** Checked rules, ready to count and list. */
export interface CollectionRulesPreview {
  storeId: string;
  mode: Mode;
  rules: CollectionRule[];
  match: 'all' | 'any';
  sort: Exclude<CollectionSort, 'manual'>;
  count: number;
}

/** The products the rules match, as a membership recompute reads them. */
function matching(p: Pick<CollectionRulesPreview, 'storeId' | 'mode' | 'rules' | 'match'>): Prisma.Sql {
  return Prisma.sql`SELECT p.id FROM (${membershipRowsSql(p.storeId, p.mode, p.rules, Prisma.sql`true`)}) p WHERE ${collectionPredicateSql(p.rules, p.match)}`;
}

/**
 * Checks the rules (all errors at once: `rules.2.value`, `match`, `sort`) and counts the products of the request's
 * catalog they match. Writes nothing.
 */
export async function previewCollectionRules(ctx: RequestContext, storeId: string, input: CollectionRulesPreviewInput): Promise<CollectionRulesPreview> {
  if (!isUuid(storeId)) throw notFound('Store');
  const errors: FieldError[] = fieldErrorsOf(PreviewInput, input);
  const parsed = PreviewInput.safeParse(input);
  const rules = Array.isArray(input.rules) ? input.rules : null;
  if (rules && !rules.length) errors.push({ field: 'rules', code: 'required', message: 'a smart collection needs at least one rule' });
  if (input.sort === 'manual') errors.push({ field: 'sort', code: 'invalid_choice', message: 'a smart collection sorts by newest, name, price_asc or price_desc' });
  // Each rule is checked unless the list itself is refused (too many rules), as a create checks them.
  const checked = rules && rules.length <= CATALOG_LIMITS.rulesPerCollection ? await checkRules(ctx.readDb, storeId, rules) : { rules: [], errors: [] };
  errors.push(...checked.errors);
  if (errors.length || !parsed.success) throw validationError(errors);
  const preview = { storeId, mode: ctx.mode, rules: checked.rules, match: parsed.data.match, sort: parsed.data.sort as Exclude<CollectionSort, 'manual'> };
  const [row] = await ctx.readDb.$queryRaw<{ n: bigint | number }[]>`SELECT count(*) AS n FROM (${matching(preview)}) m`;
  return { ...preview, count: Number(row.n) };
}

const ORDER: Record<CollectionRulesPreview['sort'], Prisma.Sql> = {
  newest: Prisma.sql`q.created_at DESC, q.id DESC`,
  name: Prisma.sql`q.name, q.id`,
  price_asc: Prisma.sql`q.price, q.id`,
  price_desc: Prisma.sql`q.price DESC, q.id`,
};

/** The first `first` matching products' ids, in the preview's sort (0 to PREVIEW_PRODUCTS.max; else 422 at `first`). */
export async function previewProductIds(ctx: RequestContext, preview: CollectionRulesPreview, first: number = PREVIEW_PRODUCTS.default): Promise<string[]> {
  if (!Number.isInteger(first) || first < 0 || first > PREVIEW_PRODUCTS.max) {
    throw validationError([{ field: 'first', code: first < 0 ? 'too_small' : 'too_big', message: `must be a whole number from 0 to ${PREVIEW_PRODUCTS.max}` }]);
  }
  if (!first || !preview.count) return [];
  const rows = await ctx.readDb.$queryRaw<{ id: string }[]>`
    SELECT q.id::text AS id FROM products q WHERE q.id IN (${matching(preview)}) ORDER BY ${ORDER[preview.sort]} LIMIT ${first}`;
  return rows.map((r) => r.id);
}
