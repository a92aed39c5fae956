/**
 * One error vocabulary for the whole service. Services throw AppError with a
 * stable code; GraphQL shows it in extensions.code, REST renders it as
 * application/problem+json with the status from STATUS_BY_CODE.
 */
export const STATUS_BY_CODE = {
  bad_request: 400,
  malformed_json: 400,
  invalid_parameter: 400,
  invalid_mode: 400,
  conflicting_credentials: 400,
  conflicting_mode: 400,
  invalid_idempotency_key: 400,
  // GraphQL request errors of a well-formed request (src/graphql/requestErrors.ts): HTTP 200 for application/json clients.
  graphql_parse_failed: 400,
  graphql_validation_failed: 400,
  unknown_operation: 400,
  invalid_variables: 400,
  // GraphQL documents refused by a limit (src/graphql/limits.ts).
  query_too_large: 400,
  query_too_deep: 400,
  too_many_aliases: 400,
  too_many_directives: 400,
  query_too_complex: 400,
  too_many_logins: 400,
  unauthenticated: 401,
  invalid_token: 401,
  invalid_credentials: 401,
  invalid_api_key: 401,
  api_key_expired: 401,
  api_key_revoked: 401,
  forbidden: 403,
  insufficient_scope: 403,
  csrf_token_invalid: 403,
  csrf_header_required: 403,
  mode_mismatch: 403,
  app_suspended: 403,
  not_found: 404,
  route_not_found: 404,
  oauth_not_enabled: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  sku_taken: 409,
  slug_taken: 409,
  category_in_use: 409,
  code_taken: 409,
  name_taken: 409,
  attribute_in_use: 409,
  attribute_value_in_use: 409,
  attribute_values_missing: 409,
  product_type_in_use: 409,
  options_in_use: 409,
  locale_taken: 409,
  currency_taken: 409,
  currency_in_use: 409,
  default_locale_not_removable: 409,
  default_currency_not_removable: 409,
  locale_has_translations: 409,
  product_archived: 409,
  staged_changes_pending: 409,
  no_staged_changes: 409,
  collection_is_smart: 409,
  endpoint_disabled: 409,
  idempotency_key_in_progress: 409,
  invitation_unusable: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  category_required: 422,
  unknown_category: 422,
  invalid_image: 422,
  webhook_url_forbidden: 422,
  image_dimensions_too_large: 422,
  too_many_products: 422,
  limit_exceeded: 422,
  not_stageable: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  too_many_login_attempts: 429,
  headers_too_large: 431,
  internal_error: 500,
  provider_error: 502,
  service_unavailable: 503,
  provider_timeout: 504,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

export interface FieldError {
  /** Field path as the caller named it, e.g. `price` or `variants.1.sku`. */
  field: string;
  code: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  /** Extra response headers the error implies (WWW-Authenticate, Retry-After...). */
  readonly headers?: Record<string, string>;
  /** Extra members for the problem document / GraphQL extensions. */
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { errors?: FieldError[]; headers?: Record<string, string>; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.errors = opts.errors;
    this.headers = opts.headers;
    this.details = opts.details;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found`);

export function validationError(errors: FieldError[], code: ErrorCode = 'validation_failed', message?: string) {
  return new AppError(code, message ?? errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });
}
