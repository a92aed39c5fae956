/** Input validation with zod: one 422 with every field error. */

import type { z } from 'zod';
import { AppError, type ErrorCode, type FieldError, validationError } from './errors';

/** Parses input with a zod schema; failures become one 422 with every field error. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, code: ErrorCode = 'validation_failed'): z.output<S> {
  const res = schema.safeParse(input);
  if (res.success) return res.data;
  const errors: FieldError[] = res.error.issues.map((i) => ({
    field: i.path.map(String).join('.') || '(body)',
    code: i.code,
    message: i.message,
  }));
  throw validationError(errors, code);
}

/**
 * Field paths are renamed for REST (camelCase to snake_case), which would
 * mangle user-defined keys (option or attribute names). For errors under such
 * a map (`pattern` captures the map's path and the rest), the path stops at the
 * map and the message names the key as sent.
 */
export function withOpaqueKeysInMessages<T>(parse: () => T, pattern: RegExp): T {
  try {
    return parse();
  } catch (e) {
    if (!(e instanceof AppError) || !e.errors) throw e;
    const errors = e.errors.map((err) => {
      const m = pattern.exec(err.field);
      return m ? { ...err, field: m[1], message: `${JSON.stringify(m[2])}: ${err.message}` } : err;
    });
    throw validationError(errors, e.code);
  }
}
