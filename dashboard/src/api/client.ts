import { Client, CombinedError, fetchExchange, stringifyDocument, type TypedDocumentNode } from '@urql/core';

/**
 * The dashboard's connection to the service: same-origin POSTs to /graphql with the session cookie,
 * the CSRF token on every mutation, and the catalog mode (test or live) on every request.
 */

export type Mode = 'live' | 'test';

const MODE_KEY = 'dashboard.mode';
const GRAPHQL_URL = '/graphql';

let csrfToken: string | null = null;
let mode: Mode = readStoredMode();
let onUnauthenticated: () => void = () => {};

function readStoredMode(): Mode {
  try {
    return localStorage.getItem(MODE_KEY) === 'test' ? 'test' : 'live';
  } catch {
    return 'live';
  }
}

export function getMode(): Mode {
  return mode;
}

export function setMode(next: Mode): void {
  mode = next;
  try {
    localStorage.setItem(MODE_KEY, next);
  } catch {
    // Storage may be unavailable (private windows); the mode still holds for this page.
  }
}

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the service says the session is gone (expired, revoked, signed out elsewhere). */
export function setUnauthenticatedHandler(handler: () => void): void {
  onUnauthenticated = handler;
}

interface GraphQLErrorBody {
  message?: string;
  extensions?: { code?: string; [key: string]: unknown };
}

function requestHeaders(extra: HeadersInit | undefined): Headers {
  const headers = new Headers(extra);
  headers.set('X-Service-Mode', mode);
  if (csrfToken) headers.set('X-CSRF-Token', csrfToken);
  return headers;
}

async function errorCodes(response: Response): Promise<string[]> {
  if (!(response.headers.get('content-type') ?? '').includes('json')) return [];
  try {
    const body = (await response.clone().json()) as { errors?: GraphQLErrorBody[] };
    return (body.errors ?? []).map((e) => e.extensions?.code ?? '').filter(Boolean);
  } catch {
    return [];
  }
}

/** Re-reads the session's CSRF token (after the service refused the one held). */
async function refreshCsrfToken(): Promise<boolean> {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    credentials: 'same-origin',
    headers: requestHeaders({ 'Content-Type': 'application/json', Accept: 'application/json' }),
    body: JSON.stringify({ query: 'query DashboardCsrf { dashboardSession { csrfToken } }' }),
  });
  if (!response.ok) return false;
  const body = (await response.json()) as { data?: { dashboardSession?: { csrfToken: string } | null } };
  const token = body.data?.dashboardSession?.csrfToken ?? null;
  setCsrfToken(token);
  return token !== null;
}

/**
 * fetch for /graphql: adds the headers, retries once with a fresh CSRF token when the service refused
 * the token, and reports a lost session.
 */
export async function dashboardFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const send = () => fetch(input, { ...init, credentials: 'same-origin', headers: requestHeaders(init.headers) });
  let response = await send();
  let codes = await errorCodes(response);
  if (codes.includes('csrf_token_invalid') && (await refreshCsrfToken())) {
    response = await send();
    codes = await errorCodes(response);
  }
  if (codes.includes('unauthenticated') || codes.includes('invalid_token')) onUnauthenticated();
  return response;
}

export function createDashboardClient(): Client {
  return new Client({
    url: GRAPHQL_URL,
    exchanges: [fetchExchange],
    fetch: dashboardFetch,
    fetchOptions: { credentials: 'same-origin' },
    preferGetMethod: false,
    requestPolicy: 'network-only',
  });
}

export const client = createDashboardClient();

/** One problem of a refused request, in the service's words. */
export interface ApiError {
  code: string;
  message: string;
  /** Field errors of validation_failed, by field path as sent (name, variants.0.sku, tags.1). */
  fields: Record<string, string>;
  retryAfter?: number;
  /** What the service tells beside the code (e.g. the product types that use an attribute). */
  details?: Record<string, unknown>;
}

const FRIENDLY: Record<string, string> = {
  network_error: 'The service could not be reached. Check your connection and try again.',
  unauthenticated: 'Your session has ended. Please sign in again.',
  invalid_token: 'Your session has ended. Please sign in again.',
  internal_error: 'Something went wrong on the server. Please try again.',
  service_unavailable: 'The service is briefly unavailable. Please try again in a moment.',
};

function fromGraphQLError(error: GraphQLErrorBody | undefined): ApiError {
  const extensions = error?.extensions ?? {};
  const code = typeof extensions.code === 'string' ? extensions.code : 'error';
  const fields: Record<string, string> = {};
  if (Array.isArray(extensions.errors)) {
    for (const item of extensions.errors as { field?: string; message?: string }[]) {
      if (item.field && !fields[item.field]) fields[item.field] = item.message ?? 'is not valid';
    }
  }
  const retryAfter = typeof extensions.retry_after === 'number' ? extensions.retry_after : undefined;
  const message = FRIENDLY[code] ?? (error?.message || 'The request failed.');
  const { code: _code, errors: _errors, http: _http, ...details } = extensions;
  return { code, message, fields, retryAfter, ...(Object.keys(details).length ? { details } : {}) };
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof CombinedError) {
    if (error.graphQLErrors.length > 0) return fromGraphQLError(error.graphQLErrors[0] as GraphQLErrorBody);
    const status = (error.response as Response | undefined)?.status;
    if (status === 401) return { code: 'unauthenticated', message: FRIENDLY.unauthenticated!, fields: {} };
    return { code: 'network_error', message: FRIENDLY.network_error!, fields: {} };
  }
  if (error && typeof error === 'object' && 'code' in error && 'message' in error && 'fields' in error) return error as ApiError;
  if (error instanceof Error) return { code: 'error', message: error.message, fields: {} };
  return { code: 'error', message: 'The request failed.', fields: {} };
}

/** Runs a mutation and returns its data, or throws an ApiError. */
export async function mutate<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<TData> {
  const result = await client.mutation(document, variables).toPromise();
  if (result.error || !result.data) throw toApiError(result.error ?? new Error('The service returned no data.'));
  return result.data;
}

/** Runs a query (always from the network) and returns its data, or throws an ApiError. */
export async function query<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<TData> {
  const result = await client.query(document, variables).toPromise();
  if (result.error || !result.data) throw toApiError(result.error ?? new Error('The service returned no data.'));
  return result.data;
}

/**
 * A mutation with one file, as a GraphQL multipart request (urql's fetch exchange sends JSON only).
 * The service runs multipart requests only with the X-GraphQL-Yoga-CSRF header.
 */
export async function uploadMutation<TData, TVariables extends Record<string, unknown>>(
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  fileVariable: keyof TVariables & string,
  file: File,
): Promise<TData> {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query: stringifyDocument(document), variables: { ...variables, [fileVariable]: null } }));
  form.append('map', JSON.stringify({ 0: [`variables.${fileVariable}`] }));
  form.append('0', file, file.name);
  let response: Response;
  try {
    response = await dashboardFetch(GRAPHQL_URL, {
      method: 'POST',
      headers: { 'X-GraphQL-Yoga-CSRF': '1', Accept: 'application/json' },
      body: form,
    });
  } catch {
    throw toApiError(new CombinedError({ networkError: new Error('network') }));
  }
  let body: { data?: TData | null; errors?: GraphQLErrorBody[] };
  try {
    body = (await response.json()) as typeof body;
  } catch {
    if (response.status === 413) throw { code: 'payload_too_large', message: 'The file is too large.', fields: {} } satisfies ApiError;
    throw { code: 'error', message: `The upload failed (HTTP ${response.status}).`, fields: {} } satisfies ApiError;
  }
  if (body.errors?.length) throw fromGraphQLError(body.errors[0]);
  if (!body.data) throw { code: 'error', message: 'The service returned no data.', fields: {} } satisfies ApiError;
  return body.data;
}
