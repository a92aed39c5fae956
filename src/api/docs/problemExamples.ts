/** Example problem documents and GraphQL errors for each error code (docs pages, OpenAPI). */

import { type ErrorCode, type FieldError, STATUS_BY_CODE } from '../../platform/errors';
import { problemTitle } from '../rest/problem';
import { ERROR_CATALOG, errorTypeUri } from './errorCatalog';

/** Field errors of the examples of the codes that carry `errors[]`. */
const FIELD_ERRORS: Partial<Record<ErrorCode, FieldError[]>> = {
  validation_failed: [
    { field: 'inventory_quantity', code: 'invalid_type', message: 'must be an integer' },
    { field: 'name', code: 'too_small', message: 'must not be empty' },
    { field: 'price', code: 'invalid_value', message: 'must be a number >= 0 with at most 2 decimals and below 10,000,000,000' },
  ],
  category_required: [{ field: 'category_slugs', code: 'category_required', message: 'at least one category slug is required' }],
  unknown_category: [{ field: 'category_slugs.0', code: 'unknown_category', message: 'no category of this store has the slug "boots"' }],
  sku_taken: [{ field: 'variants.0.sku', code: 'sku_taken', message: 'is already used by another variant of this store' }],
};

/** A problem document as the service writes it for `code`, with an illustrative detail and request id. */
export function exampleProblem(baseUrl: string | undefined, code: ErrorCode) {
  const status = STATUS_BY_CODE[code];
  const errors = FIELD_ERRORS[code];
  return {
    type: errorTypeUri(baseUrl, code),
    title: problemTitle(status),
    status,
    detail: errors ? errors.map((e) => `${e.field}: ${e.message}`).join('; ') : ERROR_CATALOG[code].example,
    code,
    ...(errors ? { errors } : {}),
    request_id: '8f14e45f-ceea-4672-9f3a-6f5c2a1b0d9e',
  };
}

/** The body /graphql answers with for a code only GraphQL uses (ERROR_CATALOG's graphqlOnly). */
export function exampleGraphQLError(code: ErrorCode) {
  const errors = GRAPHQL_FIELD_ERRORS[code];
  return { errors: [{ message: ERROR_CATALOG[code].example, extensions: { code, ...(errors ? { errors } : {}) } }] };
}

/** `extensions.errors` of the GraphQL-only examples that carry them, fields named by the input's schema names. */
const GRAPHQL_FIELD_ERRORS: Partial<Record<ErrorCode, FieldError[]>> = {
  invalid_variables: [
    { field: 'inventoryQuantity', code: 'invalid_type', message: 'must be an integer' },
    { field: 'name', code: 'too_small', message: 'must not be empty' },
  ],
};
