/** The field-by-field changes an event records between a resource's before and after. */

import { isDeepStrictEqual } from 'node:util';
import type { FieldChange } from '../../kernel/events';

/**
 * The fields that differ between two representations of a resource, in the
 * order of `after`'s keys, with their values before and after (the shape of
 * commercetools' Change History). Bookkeeping fields (`ignore`) are left out.
 */
export function fieldChanges(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  ignore: readonly string[] = ['version', 'updated_at'],
): FieldChange[] {
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return keys
    .filter((k) => !ignore.includes(k) && !isDeepStrictEqual(before[k], after[k]))
    .map((field) => ({ field, previous: before[field] ?? null, next: after[field] ?? null }));
}
