/**
 * Product options: the ordered `{name, values}` that define a product's variants (Shopify's options), the rules a
 * variant's option map keeps to them, and setting them (renames carried to the variants in the same write).
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { transaction } from '../../platform/outbox/outbox';
import { AppError, type FieldError, notFound, validationError } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { CATALOG_LIMITS } from '../limits';
import { PRODUCT_VIEW_INCLUDE, variantView } from './views';
import { deleteVariants, insertVariants, VARIANT_WRITE_TIMEOUT_MS } from './variantRows';
import { emitProductEvent, isUuid, productBeforeWrite, requireVersion, searchText, writeProductVersion } from './products';
import { fold, type ProductOption, OptionsInput, planRenames, TOO_MANY_OPTIONS, TOO_MANY_VALUES, uniquenessErrors } from './optionRules';

const { optionsPerProduct, valuesPerOption } = CATALOG_LIMITS;

export { OptionInput, OptionName, OptionsInput, OptionValue, type ProductOption, TOO_MANY_OPTIONS, TOO_MANY_VALUES } from './optionRules';

/** A product's stored options (the jsonb column). */
export const optionsOf = (json: Prisma.JsonValue | undefined): ProductOption[] => (Array.isArray(json) ? (json as unknown as ProductOption[]) : []);

/** Options as a whole-set write gives them (a file's `options`): checked as PUT …/options checks them, without renames. */
export function parseOptions(input: unknown): ProductOption[] {
  const { options } = parseInput(z.object({ options: OptionsInput }), { options: input });
  const errors = uniquenessErrors(options, 'options');
  if (errors.length) throw validationError(errors);
  return options.map((o) => ({ name: o.name, values: o.values }));
}

const listed = (values: string[]) => (values.length > 10 ? `${values.slice(0, 10).join(', ')}, …` : values.join(', '));

/**
 * The errors of one variant's option map against the product's options: it names exactly one value of each
 * option (names and values as the product spells them), all under the variant's `options` field.
 */
export function variantOptionErrors(options: ProductOption[], map: Record<string, string>, field: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(map)) {
    if (!options.some((o) => o.name === key)) {
      const known = options.length ? `the product's options are ${options.map((o) => o.name).join(', ')}` : 'the product has no options';
      errors.push({ field, code: 'unknown_option', message: `"${key}" is not an option of the product (${known})` });
    }
  }
  for (const o of options) {
    const value = map[o.name];
    if (value === undefined) errors.push({ field, code: 'missing_option', message: `names no value of option "${o.name}" (every variant names one value of each option)` });
    else if (!o.values.includes(value)) errors.push({ field, code: 'unknown_option_value', message: `"${value}" is not a value of option "${o.name}" (${listed(o.values)})` });
  }
  return errors;
}

/**
 * The product's options grown by the names and values a whole-set variant write uses that it does not declare
 * yet, appended in the order the variants (by position) first use them: clients written before options existed
 * keep replacing variants as they did, and the product's options still define its variants afterwards. Growing
 * past a limit, or a name that differs from a declared one only in case, is the variant's field error.
 */
export function extendOptions(declared: ProductOption[], variants: { options: Record<string, string>; field: string }[]) {
  const options = declared.map((o) => ({ name: o.name, values: [...o.values] }));
  const errors: FieldError[] = [];
  for (const v of variants) {
    for (const [name, value] of Object.entries(v.options)) {
      let option = options.find((o) => o.name === name);
      if (!option) {
        const sameButCase = options.find((o) => fold(o.name) === fold(name));
        if (sameButCase) {
          errors.push({ field: v.field, code: 'unknown_option', message: `"${name}" differs from the product's option "${sameButCase.name}" only in case` });
          continue;
        }
        if (options.length >= optionsPerProduct) {
          errors.push({ field: v.field, code: 'too_big', message: `"${name}" would be a further option: ${TOO_MANY_OPTIONS}` });
          continue;
        }
        options.push((option = { name, values: [] }));
      }
      if (option.values.includes(value)) continue;
      const sameButCase = option.values.find((x) => fold(x) === fold(value));
      if (sameButCase) errors.push({ field: v.field, code: 'unknown_option_value', message: `"${value}" differs from the value "${sameButCase}" of option "${name}" only in case` });
      else if (option.values.length >= valuesPerOption) errors.push({ field: v.field, code: 'too_big', message: `"${value}" would be a further value of option "${name}": ${TOO_MANY_VALUES}` });
      else option.values.push(value);
    }
  }
  return { options, errors };
}

export const sameOptions = (a: ProductOption[], b: ProductOption[]) => JSON.stringify(a) === JSON.stringify(b);

/** Canonical JSON of an option map (keys sorted by code point), the value of the (product, options) uniqueness. */
export function optionsKey(options: Record<string, string>): string {
  const keys = Object.keys(options).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, options[k]])));
}

/** A variant a write of the options would change or delete, as the 409 lists it. */
interface AffectedVariant {
  id: string;
  sku: string;
  options: Record<string, string>;
  reason: 'value_removed' | 'duplicate_combination';
}

export const optionsInUse = (variants: AffectedVariant[]) =>
  new AppError(
    'options_in_use',
    `${variants.length} variant(s) use option values this write removes or would share one combination: ${variants.map((v) => v.sku).join(', ')}. Send delete_variants=true to delete them in the same write`,
    { details: { variants } },
  );

type VariantRow = Prisma.VariantGetPayload<object>;
const ORDER: Prisma.VariantOrderByWithRelationInput[] = [{ position: 'asc' }, { sku: 'asc' }];

/**
 * Sets the product's options. Renames (of options and of values) are carried to every variant in the same
 * write; an option added gives every existing variant its first value. Variants that would lose their value
 * (a value removed) or share a combination with an earlier variant (an option removed) are a 409
 * options_in_use naming them, unless `deleteVariants`, which deletes them in the same write (the earlier
 * variant by position stays). Options left as they are write nothing (no version, no event).
 */
export async function setProductOptions(
  ctx: RequestContext,
  storeId: string,
  productId: string,
  input: unknown,
  opts: { deleteVariants?: boolean | null; expectedVersion?: number | null } = {},
  query: { include?: Prisma.ProductInclude; select?: Prisma.ProductSelect } = {},
) {
  const { options: wanted } = parseInput(z.object({ options: OptionsInput }), { options: input });
  const shapeErrors = uniquenessErrors(wanted, 'options');
  if (shapeErrors.length) throw validationError(shapeErrors);
  if (!isUuid(productId)) throw notFound('Product');
  return transaction(ctx, async (t) => {
    const before = await productBeforeWrite(t, storeId, productId, { _count: PRODUCT_VIEW_INCLUDE._count });
    requireVersion(before, opts.expectedVersion);
    const current = optionsOf(before.options);
    const { sources, errors } = planRenames(current, wanted);
    if (errors.length) throw validationError(errors);
    const next: ProductOption[] = wanted.map((w) => ({ name: w.name, values: w.values }));

    const variants = await t.tx.variant.findMany({ where: { productId }, orderBy: ORDER });
    const affected: AffectedVariant[] = [];
    const changed: { row: VariantRow; options: Record<string, string>; key: string }[] = [];
    const combos = new Set<string>();
    for (const v of variants) {
      const old = v.options as Record<string, string>;
      const options: Record<string, string> = {};
      let removed = false;
      wanted.forEach((w, i) => {
        const source = sources[i];
        const value = source ? old[source.name] : undefined;
        if (value === undefined) {
          options[w.name] = w.values[0];
          return;
        }
        const renamed = w.renamedValues?.[value] ?? value;
        const kept = w.values.find((x) => fold(x) === fold(renamed));
        if (kept === undefined) removed = true;
        else options[w.name] = kept;
      });
      const key = optionsKey(options);
      if (removed) affected.push({ id: v.id, sku: v.sku, options: old, reason: 'value_removed' });
      else if (combos.has(key)) affected.push({ id: v.id, sku: v.sku, options: old, reason: 'duplicate_combination' });
      else {
        combos.add(key);
        if (key !== v.optionsKey) changed.push({ row: v, options, key });
      }
    }
    if (affected.length && !opts.deleteVariants) throw optionsInUse(affected);
    if (sameOptions(current, next) && !changed.length && !affected.length) return t.tx.product.findUniqueOrThrow({ ...query, where: { id: productId } });

    const deleted = new Set(affected.map((v) => v.id));
    const remaining = variants.filter((v) => !deleted.has(v.id));
    const after = await writeProductVersion(
      t,
      before,
      { options: next as unknown as Prisma.InputJsonValue, searchText: searchText(before, remaining.map((v) => v.sku)) },
      query,
      async () => {
        // A changed variant is written anew (same id and created_at): updating rows one by one could meet the
        // (product, options) uniqueness halfway through a swap of two combinations.
        await deleteVariants(t, [...deleted, ...changed.map((c) => c.row.id)]);
        await insertVariants(t, storeId, productId, changed.map(({ row, options, key }) => ({ ...row, options, optionsKey: key })));
      },
    );
    const variantsAfter = await t.tx.variant.findMany({ where: { productId }, orderBy: ORDER });
    emitProductEvent(t, 'product.options_updated', after, {
      before,
      extra: { variants: variantsAfter.map(variantView) },
      previousExtra: { variants: variants.map(variantView) },
    });
    return after;
  }, { timeoutMs: VARIANT_WRITE_TIMEOUT_MS });
}
