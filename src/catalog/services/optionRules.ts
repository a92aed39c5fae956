/**
 * The rules of product options that need no database: their shape and limits, names and values unique without
 * case, and where a new list's entries take the current options (renames). The create and PUT …/options share
 * them: products.ts takes them from here, as it cannot import options.ts (which imports products.ts).
 */

import { z } from 'zod';
import type { FieldError } from '../../platform/errors';
import { CATALOG_LIMITS } from '../limits';

export interface ProductOption {
  name: string;
  values: string[];
}

/**
 * The title a variant gets from its option values, in order ("M / Red"): generating variants writes it, and a
 * storefront read in another language rebuilds it from the translated values (a title the merchant wrote stays).
 */
export const generatedVariantTitle = (values: readonly string[]) => values.join(' / ');

/** Option names and values are told apart without case: "Size" and "size" are one option. */
export const fold = (s: string) => s.toLowerCase();

export const OptionName = z
  .string()
  .max(64)
  .regex(/^\S(.*\S)?$/s, 'option names must not be empty or start/end with whitespace');
export const OptionValue = z.string().trim().min(1, 'option values must not be empty').max(255);

const { optionsPerProduct, valuesPerOption } = CATALOG_LIMITS;
export const TOO_MANY_OPTIONS = `at most ${optionsPerProduct} options per product (limit options_per_product)`;
export const TOO_MANY_VALUES = `at most ${valuesPerOption} values per option (limit values_per_option)`;

export const OptionInput = z.object({
  name: OptionName,
  values: z.array(OptionValue).min(1, 'an option needs at least one value').max(valuesPerOption, TOO_MANY_VALUES),
  /** The option's current name when this entry renames it. */
  renamedFrom: OptionName.optional(),
  /** Current value → new value, for values this entry renames. */
  renamedValues: z.record(z.string(), OptionValue).optional(),
});
export const OptionsInput = z.array(OptionInput).max(optionsPerProduct, TOO_MANY_OPTIONS);
type OptionsInputValue = z.output<typeof OptionsInput>;

/** Names unique per product and values unique per option (both without case). */
export function uniquenessErrors(options: { name: string; values: string[] }[], field: string): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Map<string, number>();
  options.forEach((o, i) => {
    const seen = names.get(fold(o.name));
    if (seen !== undefined) errors.push({ field: `${field}.${i}.name`, code: 'duplicate_option', message: `"${o.name}" is also the name of ${field}.${seen} (names are compared without case)` });
    else names.set(fold(o.name), i);
    const values = new Map<string, number>();
    o.values.forEach((v, j) => {
      const same = values.get(fold(v));
      if (same !== undefined) errors.push({ field: `${field}.${i}.values.${j}`, code: 'duplicate_value', message: `"${v}" is also ${field}.${i}.values.${same} (values are compared without case)` });
      else values.set(fold(v), j);
    });
  });
  return errors;
}

/**
 * Where each current option and value goes: an entry with `renamedFrom` takes over the option of that name, any
 * other the option of its own name (without case, so a change of case renames); a value goes to its entry in
 * `renamedValues`, else to the same value (without case) in the new list, else it is removed.
 */
export function planRenames(current: ProductOption[], wanted: OptionsInputValue) {
  const errors: FieldError[] = [];
  const taken = new Map<string, number>();
  const sources = wanted.map((w, i) => {
    const from = w.renamedFrom ?? w.name;
    const source = current.find((o) => fold(o.name) === fold(from));
    if (w.renamedFrom !== undefined && !source) {
      errors.push({ field: `options.${i}.renamedFrom`, code: 'unknown_option', message: `the product has no option "${w.renamedFrom}" (${current.map((o) => o.name).join(', ') || 'none'})` });
    }
    if (!source) {
      for (const old of Object.keys(w.renamedValues ?? {})) {
        errors.push({ field: `options.${i}.renamedValues`, code: 'unknown_option_value', message: `"${old}": a new option has no values to rename` });
      }
      return undefined;
    }
    const other = taken.get(fold(source.name));
    if (other !== undefined) {
      errors.push({ field: `options.${i}.renamedFrom`, code: 'duplicate_option', message: `option "${source.name}" is already taken over by options.${other}` });
      return undefined;
    }
    taken.set(fold(source.name), i);
    for (const [old, next] of Object.entries(w.renamedValues ?? {})) {
      if (!source.values.includes(old)) errors.push({ field: `options.${i}.renamedValues`, code: 'unknown_option_value', message: `"${old}" is not a value of option "${source.name}"` });
      else if (!w.values.some((v) => fold(v) === fold(next))) errors.push({ field: `options.${i}.renamedValues`, code: 'invalid_value', message: `"${next}" (the new name of "${old}") is not one of the option's values` });
    }
    return source;
  });
  return { sources, errors };
}

/**
 * The options of a new product (the create): checked as PUT …/options checks them on a product without options
 * (a rename names no current option), every problem reported with the create's other field errors.
 */
export const NewOptionsInput = OptionsInput.superRefine((options, ctx) => {
  for (const e of [...uniquenessErrors(options, 'options'), ...planRenames([], options).errors]) {
    ctx.addIssue({ code: 'custom', path: e.field.split('.').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p)), message: e.message, params: { code: e.code } });
  }
});
