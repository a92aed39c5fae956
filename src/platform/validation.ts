/** Input validation with zod: one 422 with every field error, in the service's field-error codes. */

import type { z } from 'zod';
import { AppError, type ErrorCode, type FieldError, validationError } from './errors';

/** Parses input with a zod schema; failures become one 422 with every field error. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, code: ErrorCode = 'validation_failed'): z.output<S> {
  const res = schema.safeParse(input, { reportInput: true });
  if (res.success) return res.data;
  throw validationError(issueErrors(res.error.issues), code);
}

/** Every field error of input against a schema (none: it passes), as parseInput would report them. */
export function fieldErrorsOf(schema: z.ZodType, input: unknown): FieldError[] {
  const res = schema.safeParse(input, { reportInput: true });
  return res.success ? [] : issueErrors(res.error.issues);
}

type Issue = z.core.$ZodIssue;

/**
 * zod's issues in the service's words. zod's own codes (`custom`, `invalid_format`, `unrecognized_keys`…)
 * and default messages ("Invalid input: expected number, received string") never reach a client: each
 * becomes a documented field-error code (FIELD_ERROR_CODES in errors.ts) with a plain message. A rule's
 * own code travels in a custom issue's `params.code` (unknown_event_type).
 */
function issueErrors(issues: readonly Issue[]): FieldError[] {
  return issues.flatMap((i): FieldError[] => {
    const field = i.path.map(String).join('.') || '(body)';
    if (i.code === 'unrecognized_keys') {
      return i.keys.map((k) => ({ field: field === '(body)' ? k : `${field}.${k}`, code: 'unknown_field', message: 'is not a known field' }));
    }
    const { code, message } = documented(i);
    return [{ field, code, message: isDefaultMessage(i.message) ? message : i.message }];
  });
}

/** zod's default messages start so; a schema's own message is kept as written. */
const isDefaultMessage = (m: string) => /^(Invalid input|Too (small|big)|Invalid (string|option|key|element|number)|Number must|String must)/.test(m);

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
  date: 'a date',
};

function documented(i: Issue): { code: string; message: string } {
  switch (i.code) {
    case 'invalid_type':
      if (i.input === undefined) return { code: 'required', message: 'is required' };
      if (i.input === null) return { code: 'invalid_type', message: 'must not be null' };
      return { code: 'invalid_type', message: `must be ${TYPE_WORDS[i.expected] ?? i.expected}` };
    case 'too_small':
    case 'too_big':
      return { code: i.code, message: sizeMessage(i) };
    case 'invalid_value':
      return { code: 'invalid_value', message: `must be one of: ${i.values.map(String).join(', ')}` };
    case 'invalid_union': {
      if (i.input === undefined) return { code: 'required', message: 'is required' };
      // Each alternative's type, when every alternative failed on its type: "must be a number or a string".
      const expected = i.errors.map((branch) => (branch.length === 1 && branch[0].code === 'invalid_type' ? TYPE_WORDS[branch[0].expected] ?? branch[0].expected : null));
      return { code: 'invalid_type', message: expected.every(Boolean) ? `must be ${expected.join(' or ')}` : 'is not of an accepted type' };
    }
    case 'custom': {
      const own = (i.params as { code?: unknown } | undefined)?.code;
      return { code: typeof own === 'string' ? own : 'invalid_value', message: 'is not valid' };
    }
    default:
      // invalid_format, not_multiple_of, invalid_key, invalid_element
      return { code: 'invalid_value', message: 'is not valid' };
  }
}

function sizeMessage(i: Extract<Issue, { code: 'too_small' | 'too_big' }>): string {
  const small = i.code === 'too_small';
  const limit = String(small ? (i as { minimum: unknown }).minimum : (i as { maximum: unknown }).maximum);
  const inclusive = i.inclusive !== false;
  const bound = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
  switch (i.origin) {
    case 'string':
      return small && limit === '1' ? 'must not be empty' : `must be ${bound} ${limit} characters`;
    case 'array':
    case 'set':
      return small && limit === '1' ? 'must not be empty' : `must have ${bound} ${limit} items`;
    default:
      return `must be ${bound} ${limit}`;
  }
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
