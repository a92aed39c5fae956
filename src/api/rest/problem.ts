/** REST error responses: errors as RFC 9457 problem documents. */

import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { AppError, type ErrorCode, type FieldError, STATUS_BY_CODE } from '../../platform/errors';
import { camelToSnake } from '../../platform/naming';
import { errorTypeUri } from '../docs/errorCatalog';
import { RestInputError } from './body';
import { ExecutionErrors, knownError } from '../pipeline';

const TITLES: Partial<Record<number, string>> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 409: 'Conflict', 412: 'Precondition Failed', 413: 'Content Too Large', 415: 'Unsupported Media Type',
  422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway',
  503: 'Service Unavailable', 504: 'Gateway Timeout',
};

interface Problem {
  status: number;
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
}

/**
 * Any error as a problem. An operation's errors arrive masked by the pipeline (src/api/pipeline.ts), which
 * decided their code; REST only renders them. Errors of REST's own steps (routing, the body, the variables)
 * are AppErrors or input errors; anything else is unexpected, masked as a 500 (`unexpected`: not yet logged).
 */
export function toProblem(err: unknown): Problem & { unexpected?: boolean } {
  if (err instanceof ExecutionErrors) return fromExecution(err.errors[0]);
  if (err instanceof RestInputError) return { status: 422, code: 'validation_failed', detail: err.message, errors: err.errors };
  const known = knownError(err);
  return known ? fromAppError(known) : { ...INTERNAL, unexpected: true };
}

const INTERNAL = { status: 500, code: 'internal_error', detail: 'An unexpected error occurred; quote the request id when reporting it' } as const;

/**
 * REST names fields in snake_case; a field the pipeline named by its variable (`$input.name`) is named as the body
 * field. Only GraphQL's own names (lower camelCase) are renamed: a client's key in a path (an option "Size", a
 * locale "de-AT") is named as sent.
 */
const restField = (field: string) =>
  field
    .replace(/^\$(?:input(?:\.|$))?/, '')
    .split('.')
    .map((segment) => (/^[a-z][A-Za-z0-9]*$/.test(segment) ? camelToSnake(segment) : segment))
    .join('.') || '(body)';

function fromAppError(e: AppError): Problem {
  const errors = e.errors?.map((f) => ({ ...f, field: restField(f.field) }));
  return {
    status: e.status,
    code: e.code,
    detail: restDetail(e, errors),
    errors,
    headers: e.headers,
    extra: e.details,
  };
}

/** A detail made of the field errors (validationError's) names them as REST does; another is kept as written. */
function restDetail(e: { message: string; errors?: FieldError[] }, renamed: FieldError[] | undefined): string {
  const listed = (errors: FieldError[]) => errors.map((f) => `${f.field}: ${f.message}`).join('; ');
  return e.errors?.length && renamed && e.message === listed(e.errors) ? listed(renamed) : e.message;
}

/** A masked execution error: the service's own (its AppError), one a plugin coded, a coercion error, or internal_error. */
function fromExecution(e: GraphQLError): Problem {
  if (e.originalError instanceof AppError) return fromAppError(e.originalError);
  const { code, errors, http, ...extra } = e.extensions as { code?: string; errors?: FieldError[]; http?: { headers?: Record<string, string> } };
  if (code === 'internal_error') return INTERNAL;
  if (code && code in STATUS_BY_CODE) {
    const known = code as ErrorCode;
    const renamed = errors?.map((f) => ({ ...f, field: restField(f.field) }));
    return { status: STATUS_BY_CODE[known], code: known, detail: restDetail({ message: e.message, errors }, renamed), errors: renamed, headers: http?.headers, extra };
  }
  return fromGraphQLError(e);
}

/**
 * A GraphQL error that is not the service's own. REST checks its variables before executing
 * (src/api/inputCheck.ts), so input errors end there; should a coercion error still arrive, it is a 422
 * naming the variable, never graphql-js's wording. Anything else is unexpected: masked as a 500.
 */
function fromGraphQLError(err: GraphQLError): Problem {
  const variable = /^Variable "\$(\w+)"/.exec(err.message);
  if (variable) {
    const field = variable[1] === 'input' ? '(body)' : camelToSnake(variable[1]);
    return { status: 422, code: 'validation_failed', detail: `${field}: is not valid`, errors: [{ field, code: 'invalid_value', message: 'is not valid' }] };
  }
  return INTERNAL;
}

/** The `title` of a problem with this status. */
export const problemTitle = (status: number): string => TITLES[status] ?? STATUS_CODES[status] ?? 'Error';

/** Writes an RFC 9457 problem document; its `type` is the page on this service (under `baseUrl`) that explains the code. */
export function sendProblem(res: ServerResponse, p: Problem, requestId: string, baseUrl: string): void {
  const body = {
    type: errorTypeUri(baseUrl, p.code),
    title: problemTitle(p.status),
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
