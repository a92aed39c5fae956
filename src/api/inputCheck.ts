/** Checking an operation's variables against its input types and their rules, every problem at once, for /graphql and REST alike. */

import {
  type GraphQLEnumType,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLScalarType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type OperationDefinitionNode,
  type GraphQLSchema,
  typeFromAST,
} from 'graphql';
import type { FieldError } from '../platform/errors';

/** A variable of an operation and its GraphQL input type. */
export interface VariableType {
  name: string;
  type: GraphQLInputType;
  hasDefault: boolean;
}

/** The variables an operation declares, with their types resolved against the schema. */
export function variableTypesOf(schema: GraphQLSchema, operation: OperationDefinitionNode): VariableType[] {
  return (operation.variableDefinitions ?? []).map((d) => ({
    name: d.variable.name.value,
    type: typeFromAST(schema, d.type as never) as GraphQLInputType,
    hasDefault: !!d.defaultValue,
  }));
}

/** How a surface names fields: REST as the body sent them (snake_case), /graphql by the schema's names. */
export interface FieldNaming {
  /** The path a variable's value starts at: none for the variable that carries the input (`$input`), so its fields are top-level fields. */
  variable: (name: string) => string[];
  /** An input object's field as the client named it (`obj` may be empty, for a field the client did not send). */
  field: (obj: object, name: string) => string;
}

/**
 * The service's rules of an input object type (its zod schema, usually): the field errors of a value whose
 * fields have their GraphQL types, named by the schema's field names relative to the value
 * (`variants.0.sku`). Set on a Pothos input type with `extensions: inputRules(...)`.
 */
type InputRules = (value: Record<string, unknown>) => FieldError[];

const RULES = 'inputRules';

/** The `extensions` of an input type whose values the service checks with `rules` (so type and rule errors come together). */
export const inputRules = (rules: InputRules) => ({ [RULES]: rules });

/**
 * Every problem of an operation's variables, or none when they will coerce (execution then runs, and the
 * services report their rules themselves). graphql-js's coercion stops the request before any resolver
 * runs, so a type error (1.5 for an Int) alone would hide the rule errors of the same input (an empty
 * name, a negative price) until it is fixed: when a variable does not fit its type, the rules of each
 * input object (inputRules) are run over what was sent, with the values that coerce coerced, and their
 * errors come with the type errors, one per field (a field's type error stands for it).
 *
 * The checks are GraphQL's own coercion rules, said in the service's words and field-error codes
 * (unknown_field, required, invalid_type, invalid_value; the rules' own), so neither REST nor /graphql
 * clients see graphql-js's wording ("Variable "$input" got invalid value …").
 */
export function inputErrors(variables: readonly VariableType[], values: Record<string, unknown>, naming: FieldNaming): FieldError[] {
  // REST checks its variables at its edge (naming fields as its client sent them), then runs them through the
  // pipeline, whose check would walk the same values again: values found clean once are not walked twice.
  if (cleanValues.has(values)) return [];
  const walk: Walk = { naming, typeErrors: [], ruled: [] };
  for (const v of variables) {
    const value = values[v.name];
    const path = naming.variable(v.name);
    if (value === undefined) {
      if (isNonNullType(v.type) && !v.hasDefault) walk.typeErrors.push(fieldError(path, 'required', 'is required'));
    } else coerce(value, v.type, path, walk);
  }
  if (!walk.typeErrors.length) {
    cleanValues.add(values);
    return [];
  }
  const errors = [...walk.typeErrors];
  const typed = new Set(walk.typeErrors.map((e) => e.field));
  for (const { value, type, path, rules } of walk.ruled) {
    for (const e of rules(value)) {
      const field = sentPath(e.field, value, type, path, naming);
      // A field with a type error is reported once, by it (the rule saw the value that did not coerce).
      if (!isUnder(field, typed)) errors.push({ ...e, field });
    }
  }
  return errors;
}

/** Variable values that fit their operation's types (each request's own object, so it goes with the request). */
const cleanValues = new WeakSet<object>();

interface Walk {
  naming: FieldNaming;
  typeErrors: FieldError[];
  /** The input objects with rules, with their values as far as they coerce. */
  ruled: { value: Record<string, unknown>; type: GraphQLInputObjectType; path: string[]; rules: InputRules }[];
}

const fieldError = (path: string[], code: string, message: string): FieldError => ({ field: path.join('.') || '(body)', code, message });

/** Whether a field is one of `fields` or lies under one of them. */
function isUnder(field: string, fields: ReadonlySet<string>): boolean {
  if (fields.has(field) || fields.has('(body)')) return true;
  const parts = field.split('.');
  return parts.some((_, i) => i > 0 && fields.has(parts.slice(0, i).join('.')));
}

/** The value as coercion would give it, a value that does not coerce left as sent (and reported). */
function coerce(value: unknown, type: GraphQLInputType, path: string[], walk: Walk): unknown {
  if (value === null) {
    if (isNonNullType(type)) walk.typeErrors.push(fieldError(path, 'invalid_type', 'must not be null'));
    return null;
  }
  if (isNonNullType(type)) return coerce(value, type.ofType, path, walk);
  if (isListType(type)) {
    // As in GraphQL, a single value where a list is expected is a list of one.
    if (Array.isArray(value)) return value.map((item, i) => coerce(item, type.ofType, [...path, String(i)], walk));
    return [coerce(value, type.ofType, path, walk)];
  }
  if (isInputObjectType(type)) return coerceObject(value, type, path, walk);
  if (isEnumType(type)) {
    const known = typeof value === 'string' ? type.getValue(value) : undefined;
    if (known) return known.value;
    walk.typeErrors.push(fieldError(path, 'invalid_value', `must be one of: ${enumNames(type).join(', ')}`));
    return value;
  }
  const parsed = parseScalar(type, value);
  if ('problem' in parsed) {
    walk.typeErrors.push(fieldError(path, parsed.problem.code, parsed.problem.message));
    return value;
  }
  return parsed.value;
}

function coerceObject(value: unknown, type: GraphQLInputObjectType, path: string[], walk: Walk): unknown {
  const { naming } = walk;
  if (typeof value !== 'object' || Array.isArray(value)) {
    walk.typeErrors.push(fieldError(path, 'invalid_type', 'must be an object'));
    return value;
  }
  const fields = type.getFields();
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  sentObjects.set(out, obj);
  for (const key of Object.keys(obj)) {
    if (!Object.hasOwn(fields, key)) {
      const known = Object.keys(fields).map((f) => naming.field({}, f));
      walk.typeErrors.push(fieldError([...path, naming.field(obj, key)], 'unknown_field', `is not a known field (known: ${known.join(', ')})`));
    }
  }
  for (const field of Object.values(fields)) {
    const fieldPath = [...path, naming.field(obj, field.name)];
    if (obj[field.name] !== undefined) out[field.name] = coerce(obj[field.name], field.type, fieldPath, walk);
    else if (field.defaultValue !== undefined) out[field.name] = field.defaultValue;
    else if (isNonNullType(field.type)) walk.typeErrors.push(fieldError(fieldPath, 'required', 'is required'));
  }
  const rules = type.extensions[RULES] as InputRules | undefined;
  if (rules) walk.ruled.push({ value: out, type, path, rules });
  return out;
}

/**
 * A rule error's field (schema names relative to the input object) as the surface names it: each input
 * object's field renamed, and under a field of another type (a JSON map of option names) the keys as sent.
 */
function sentPath(field: string, value: unknown, type: GraphQLInputType, path: string[], naming: FieldNaming): string {
  if (field === '(body)') return fieldError(path, '', '').field;
  const out = [...path];
  let v: unknown = value;
  let t: GraphQLInputType | undefined = type;
  for (const part of field.split('.')) {
    while (t && (isNonNullType(t) || (isListType(t) && !/^\d+$/.test(part)))) t = t.ofType;
    if (t && isListType(t)) {
      t = t.ofType;
      out.push(part);
      v = Array.isArray(v) ? v[Number(part)] : undefined;
      continue;
    }
    if (t && isInputObjectType(t)) {
      const obj = v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
      const sent = sentObjects.get(obj) ?? obj;
      out.push(naming.field(sent, part));
      t = t.getFields()[part]?.type;
      v = obj[part];
      continue;
    }
    t = undefined;
    out.push(part);
  }
  return out.join('.') || '(body)';
}

/** The objects as sent, for the coerced copies coerceObject makes (naming looks at what the client sent). */
const sentObjects = new WeakMap<object, object>();

const enumNames = (type: GraphQLEnumType) => type.getValues().map((v) => v.name);

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

type Problem = { code: string; message: string };

/** GraphQL's built-in scalars accept exactly these JSON values (graphql-js parseValue); said in the service's words. */
const BUILT_IN: Record<string, (v: unknown) => Problem | null> = {
  String: (v) => (typeof v === 'string' ? null : { code: 'invalid_type', message: 'must be a string' }),
  ID: (v) => (typeof v === 'string' || Number.isInteger(v) ? null : { code: 'invalid_type', message: 'must be a string' }),
  Boolean: (v) => (typeof v === 'boolean' ? null : { code: 'invalid_type', message: 'must be true or false' }),
  Float: (v) => (typeof v === 'number' && Number.isFinite(v) ? null : { code: 'invalid_type', message: 'must be a number' }),
  Int: (v) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) return { code: 'invalid_type', message: 'must be an integer' };
    return v < INT_MIN || v > INT_MAX ? { code: 'invalid_value', message: `must be an integer from ${INT_MIN} to ${INT_MAX}` } : null;
  },
};

/** A custom scalar decides with its own parseValue; its messages are the service's own ("Decimal must be a number …"). */
function parseScalar(type: GraphQLScalarType, value: unknown): { value: unknown } | { problem: Problem } {
  const builtIn = BUILT_IN[type.name];
  if (builtIn) {
    const problem = builtIn(value);
    return problem ? { problem } : { value: type.name === 'ID' ? String(value) : value };
  }
  try {
    return { value: type.parseValue(value) };
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).replace(new RegExp(`^${type.name}\\s+`), '').replace(/\.$/, '');
    return { problem: { code: 'invalid_value', message } };
  }
}
