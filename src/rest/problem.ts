import type { ServerResponse } from 'node:http';
import { GraphQLError } from 'graphql';
import { AppError, type ErrorCode, type FieldError, STATUS_BY_CODE } from '../errors';

const TITLES: Partial<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 409: 'Conflict', 412: 'Precondition Failed', 413: 'Content Too Large', 415: 'Unsupported Media Type',
  422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout',
};

const camelToSnake = (s: string) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

export interface Problem {
  status: number;
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
}

/** Any error (AppError, a GraphQL error wrapping one, or an unexpected one) as a problem; unexpected ones are masked. */
export function toProblem(err: unknown): Problem {
  const original = err instanceof GraphQLError && err.originalError ? err.originalError : err;
  if (original instanceof AppError) {
    return {
      status: original.status,
      code: original.code,
      detail: original.message,
      errors: original.errors?.map((e) => ({ ...e, field: e.field.split('.').map(camelToSnake).join('.') })),
      headers: original.headers,
      extra: original.details,
    };
  }
  if (err instanceof GraphQLError) return fromGraphQLValidation(err);
  return { status: 500, code: 'internal_error', detail: 'An unexpected error occurred; quote the request id when reporting it' };
}

/** Input coercion errors ("Variable "$input" got invalid value … at "input.price"; …") become 422 field errors. */
function fromGraphQLValidation(err: GraphQLError): Problem {
  const fieldError = coercionFieldError(err.message);
  if (fieldError) {
    return { status: 422, code: 'validation_failed', detail: `${fieldError.field}: ${fieldError.message}`, errors: [fieldError] };
  }
  return { status: 500, code: 'internal_error', detail: 'An unexpected error occurred; quote the request id when reporting it' };
}

function coercionFieldError(message: string): FieldError | null {
  const toField = (path: string) => {
    const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
    return (parts[0] === 'input' && parts.length > 1 ? parts.slice(1) : parts).map(camelToSnake).join('.');
  };
  let m = /^Variable "\$\w+" got invalid value .*? at "([\w.[\]]+)"; (.*)$/s.exec(message);
  if (m) return { field: toField(m[1]), code: 'invalid_value', message: m[2].replace(/\.$/, '') };
  m = /^Variable "\$(\w+)" got invalid value .*?; (.*)$/s.exec(message);
  if (m) {
    // "Field "foo" is not defined by type …" / "Field "name" of required type … was not provided."
    const named = /^Field "(\w+)" (is not defined|of required type)/.exec(m[2]);
    const field = named ? toField(named[1]) : toField(m[1]);
    return { field, code: named?.[2] === 'is not defined' ? 'unknown_field' : named ? 'required' : 'invalid_value', message: m[2].replace(/\.$/, '') };
  }
  m = /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)/.exec(message);
  if (m) return { field: toField(m[1]), code: 'required', message: 'is required' };
  return null;
}

/** Several errors of one request: all input coercion errors merge into one 422; otherwise the first decides. */
export function toProblemFromMany(errors: readonly unknown[]): Problem {
  const fieldErrors = errors.map((e) => (e instanceof GraphQLError && !(e.originalError instanceof AppError) ? coercionFieldError(e.message) : null));
  if (errors.length > 1 && fieldErrors.every(Boolean)) {
    const list = fieldErrors as FieldError[];
    return { status: 422, code: 'validation_failed', detail: list.map((e) => `${e.field}: ${e.message}`).join('; '), errors: list };
  }
  return toProblem(errors[0]);
}

export function problemStatus(code: ErrorCode) {
  return STATUS_BY_CODE[code];
}

/** Writes an RFC 9457 problem document. */
export function sendProblem(res: ServerResponse, p: Problem, requestId: string): void {
  const body = {
    type: `https://docs.store-catalog.dev/errors/${p.code}`,
    title: TITLES[p.status] ?? 'Error',
    status: p.status,
    detail: p.detail,
    code: p.code,
    ...(p.errors?.length ? { errors: p.errors } : {}),
    ...(p.extra ?? {}),
    request_id: requestId,
  };
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [k, v] of Object.entries(p.headers ?? {})) {
    try {
      res.setHeader(k, v);
    } catch {
      // An invalid header value (non-ASCII) must not leave the request unanswered; the body still explains the error.
    }
  }
  res.statusCode = p.status;
  res.setHeader('Content-Type', 'application/problem+json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}
