/** Checking a REST route's variables against its operation's input types, with errors in REST terms. */

import {
  type GraphQLEnumType,
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
import type { FieldError } from '../../platform/errors';
import { camelToSnake } from '../../platform/naming';
import { sentKey } from './body';

/** A variable of a route's operation and its GraphQL input type. */
export interface VariableType {
  name: string;
  type: GraphQLInputType;
  hasDefault: boolean;
}

/** The variables a compiled operation declares, with their types resolved against the schema. */
export function variableTypesOf(schema: GraphQLSchema, operation: OperationDefinitionNode): VariableType[] {
  return (operation.variableDefinitions ?? []).map((d) => ({
    name: d.variable.name.value,
    type: typeFromAST(schema, d.type as never) as GraphQLInputType,
    hasDefault: !!d.defaultValue,
  }));
}

/** The variable that carries the request body: its fields are top-level body fields, so its name is not part of a field path. */
const BODY_VARIABLE = 'input';

/**
 * Checks the variables a REST route built against the operation's input types, before execution,
 * with the same rules GraphQL's own coercion applies. Problems come back as field errors in REST
 * terms (the field as the client sent it, `variants.0.sku`; codes unknown_field, required,
 * invalid_type, invalid_value; plain-language messages), so no GraphQL wording ("Field "x" is not
 * defined by type …", "Variable "$input" got invalid value …") ever reaches a REST client. Once this
 * passes, execution's coercion passes too.
 */
export function variableErrors(variables: readonly VariableType[], values: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const v of variables) {
    const value = values[v.name];
    const path = v.name === BODY_VARIABLE ? [] : [camelToSnake(v.name)];
    if (value === undefined) {
      if (isNonNullType(v.type) && !v.hasDefault) errors.push(fieldError(path, 'required', 'is required'));
    } else checkValue(value, v.type, path, errors);
  }
  return errors;
}

const fieldError = (path: string[], code: string, message: string): FieldError => ({ field: path.join('.') || '(body)', code, message });

function checkValue(value: unknown, type: GraphQLInputType, path: string[], errors: FieldError[]): void {
  if (value === null) {
    if (isNonNullType(type)) errors.push(fieldError(path, 'invalid_type', 'must not be null'));
    return;
  }
  if (isNonNullType(type)) return checkValue(value, type.ofType, path, errors);
  if (isListType(type)) {
    // As in GraphQL, a single value where a list is expected is a list of one.
    if (Array.isArray(value)) value.forEach((item, i) => checkValue(item, type.ofType, [...path, String(i)], errors));
    else checkValue(value, type.ofType, path, errors);
    return;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) return void errors.push(fieldError(path, 'invalid_type', 'must be an object'));
    const fields = type.getFields();
    const obj = value as Record<string, unknown>;
    const known = Object.keys(fields).map((f) => camelToSnake(f));
    for (const key of Object.keys(obj)) {
      if (!(key in fields)) errors.push(fieldError([...path, sentKey(obj, key)], 'unknown_field', `is not a known field (known: ${known.join(', ')})`));
    }
    for (const field of Object.values(fields)) {
      const fieldPath = [...path, sentKey(obj, field.name)];
      if (obj[field.name] !== undefined) checkValue(obj[field.name], field.type, fieldPath, errors);
      else if (isNonNullType(field.type) && field.defaultValue === undefined) errors.push(fieldError(fieldPath, 'required', 'is required'));
    }
    return;
  }
  if (isEnumType(type)) {
    if (typeof value !== 'string' || !type.getValue(value)) errors.push(fieldError(path, 'invalid_value', `must be one of: ${enumNames(type).join(', ')}`));
    return;
  }
  const problem = scalarProblem(type, value);
  if (problem) errors.push(fieldError(path, problem.code, problem.message));
}

const enumNames = (type: GraphQLEnumType) => type.getValues().map((v) => v.name);

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** GraphQL's built-in scalars accept exactly these JSON values (graphql-js parseValue); said in REST words. */
const BUILT_IN: Record<string, (v: unknown) => { code: string; message: string } | null> = {
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
function scalarProblem(type: GraphQLScalarType, value: unknown): { code: string; message: string } | null {
  const builtIn = BUILT_IN[type.name];
  if (builtIn) return builtIn(value);
  try {
    type.parseValue(value);
    return null;
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).replace(new RegExp(`^${type.name}\\s+`), '').replace(/\.$/, '');
    return { code: 'invalid_value', message };
  }
}
