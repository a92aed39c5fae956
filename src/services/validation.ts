import type { z } from 'zod';
import { type ErrorCode, type FieldError, validationError } from '../errors';

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
