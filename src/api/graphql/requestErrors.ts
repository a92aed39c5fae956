/** The errors /graphql answers with before a resolver runs, in the service's vocabulary: documented error codes. */

import { type ExecutionResult, GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin, processRegularResult } from 'graphql-yoga';
import type { Logger } from 'pino';
import { AppError, type ErrorCode, type FieldError, STATUS_BY_CODE } from '../../platform/errors';
import { requestLog } from '../../platform/logger';
import { refusalBody } from './csrf';

/**
 * Yoga and graphql-js name their request errors in their own terms (BAD_REQUEST,
 * GRAPHQL_PARSE_FAILED, no code at all for a variable that does not coerce) and
 * Yoga adds the JSON parser's exception (`originalError: {name: "SyntaxError"}`)
 * to a malformed body. graphqlRequestErrors() rewrites every error of every
 * answer into a code of STATUS_BY_CODE, each explained at /docs/errors/{code},
 * and answers what Yoga would answer without a body (415, 406) with one.
 *
 * HTTP status, following GraphQL over HTTP:
 * - a request that is not a well-formed GraphQL request (malformed_json,
 *   bad_request, method_not_allowed, unsupported_media_type, not_acceptable)
 *   answers its code's status whatever the client accepts;
 * - a well-formed request whose document fails (DOCUMENT_ERROR_CODES) answers
 *   400 to application/graphql-response+json clients and 200 to clients that
 *   accept only application/json, for which a non-200 answer could as well come
 *   from a proxy. The limits of src/graphql/limits.ts answer 400 to both.
 */

/** Codes of a well-formed request whose document cannot run: HTTP 200 for application/json clients. */
export const DOCUMENT_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['graphql_parse_failed', 'graphql_validation_failed', 'unknown_operation', 'invalid_variables']);

const isDocumented = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(STATUS_BY_CODE, code);

/** What the rewriting needs to know of the request beyond the error itself. */
interface RequestFacts {
  emptyBody?: boolean;
  operationName?: unknown;
  persistedQuery?: boolean;
}

/** A GraphQL error with a documented code, its HTTP status, and the location of the original when there is one. */
function requestError(code: ErrorCode, message: string, opts: { from?: GraphQLError; headers?: Record<string, string>; errors?: FieldError[] } = {}): GraphQLError {
  const { from, headers, errors } = opts;
  return new GraphQLError(message, {
    nodes: from?.nodes,
    source: from?.source,
    positions: from?.positions,
    path: from?.path,
    extensions: { code, ...(errors ? { errors } : {}), http: { status: STATUS_BY_CODE[code], spec: DOCUMENT_ERROR_CODES.has(code), ...(headers ? { headers } : {}) } },
  });
}

/** Variables that do not fit the operation: one invalid_variables error listing every field problem in `extensions.errors`. */
export const invalidVariables = (errors: FieldError[]): GraphQLError =>
  requestError('invalid_variables', `The variables are not valid: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`, { errors });

/** The JSON parser's complaint as a position, never its wording. */
function malformedBody(parserMessage: unknown, facts: RequestFacts): GraphQLError {
  if (facts.emptyBody) return requestError('malformed_json', 'The request body is empty: send a JSON object with the GraphQL document in query');
  const text = typeof parserMessage === 'string' ? parserMessage : '';
  const at = /\(line (\d+) column (\d+)\)/.exec(text);
  if (at) return requestError('malformed_json', `The request body is not valid JSON (line ${at[1]}, column ${at[2]})`);
  if (/end of (JSON )?input/i.test(text)) return requestError('malformed_json', 'The request body is not valid JSON: it ends before the JSON value is complete');
  return requestError('malformed_json', 'The request body is not valid JSON');
}

const typeName = (word: string) => (word === 'array' ? 'an array' : word === 'object' ? 'an object' : word === 'null' ? 'null' : `a ${word}`);

/** Yoga's BAD_REQUEST errors, told apart by its messages (test/foundation/graphqlRequestErrors.test.ts sends each). */
function badRequest(error: GraphQLError, facts: RequestFacts): GraphQLError {
  const message = error.message;
  let m: RegExpExecArray | null;
  if (message.startsWith('POST body sent invalid JSON')) {
    return malformedBody((error.extensions?.originalError as { message?: unknown } | undefined)?.message, facts);
  }
  if ((m = /^POST body is expected to be object but received (\w+)/.exec(message)) || message.startsWith('Invalid "params"')) {
    return requestError('bad_request', `A GraphQL request body is a JSON object holding query (and optionally operationName, variables, extensions), not ${typeName(m?.[1] ?? 'value')}`);
  }
  if (message.startsWith('Batching is')) return requestError('bad_request', 'Batched requests (a JSON array of operations) are not accepted: send one operation per request');
  if ((m = /^Unexpected parameter "(.*)" in the request body/.exec(message))) {
    return requestError('bad_request', `Unexpected parameter "${m[1].slice(0, 100)}": a GraphQL request holds query, operationName, variables and extensions`);
  }
  if (message.startsWith('Must provide query string')) {
    return requestError(
      'bad_request',
      facts.persistedQuery ? 'Persisted queries are not supported: send the GraphQL document itself in query' : 'The request has no query: send the GraphQL document as a string in query',
    );
  }
  if ((m = /^Expected "(\w+)" param to be .*, but given (\w+)/.exec(message))) {
    return requestError('bad_request', m[1] === 'query' ? `query must be a string (the GraphQL document), not ${typeName(m[2])}` : `${m[1]} must be a JSON object, not ${typeName(m[2])}`);
  }
  if (message.startsWith('GraphQL only supports GET and POST')) return requestError('method_not_allowed', '/graphql answers GET (queries) and POST', { headers: { Allow: 'GET, POST' } });
  if (message.startsWith('Can only perform a mutation operation from a POST')) {
    return requestError('method_not_allowed', 'A mutation is sent with POST: GET runs queries only', { headers: { Allow: 'POST' } });
  }
  if (message.startsWith('Content-Length header is invalid')) return requestError('bad_request', 'The Content-Length header is not a valid length');
  // Another of Yoga's refusals of the request's shape: its message is written for clients.
  return requestError('bad_request', message);
}

/** The operation GetOperation() could not pick, said in terms of what was sent. */
function unknownOperation(from: GraphQLError, facts: RequestFacts): GraphQLError {
  const name = facts.operationName;
  const message =
    typeof name === 'string' && name
      ? `The document has no operation named "${name.slice(0, 100)}"`
      : 'The document holds several operations: name the one to run in operationName';
  return requestError('unknown_operation', message, { from });
}

/**
 * The documented error for one of Yoga's or graphql-js's, or null for an error
 * no rule knows (the caller masks it). An error already carrying a documented
 * code keeps it, without anything internal.
 */
export function documentedError(error: GraphQLError, facts: RequestFacts = {}): GraphQLError | null {
  const code = error.extensions?.code;
  if (isDocumented(code)) return withoutInternals(error);
  switch (code) {
    case 'BAD_REQUEST':
      return badRequest(error, facts);
    case 'REQUEST_ENTITY_TOO_LARGE':
      return requestError('payload_too_large', 'The request body is too large');
    case 'GRAPHQL_PARSE_FAILED':
      return requestError('graphql_parse_failed', error.message, { from: error });
    case 'GRAPHQL_VALIDATION_FAILED':
      return requestError('graphql_validation_failed', error.message, { from: error });
    case 'OPERATION_RESOLUTION_FAILURE':
      return unknownOperation(error, facts);
  }
  if ((code === undefined || code === 'BAD_USER_INPUT') && !error.path) {
    // graphql-js's own request errors from execution, which carry no code.
    if (/^Variable "\$\w+"|^Too many errors processing variables/.test(error.message)) return requestError('invalid_variables', error.message, { from: error });
    if (/^Unknown operation named|^Must provide (an operation|operation name)/.test(error.message)) return unknownOperation(error, facts);
    if (/^Schema is not configured to execute \w+ operation/.test(error.message)) return requestError('graphql_validation_failed', error.message, { from: error });
  }
  return null;
}

/** The error as it is, unless its extensions hold something of the server (an exception, a stack). */
function withoutInternals(error: GraphQLError): GraphQLError {
  const extensions = error.extensions ?? {};
  if (!('originalError' in extensions) && !('stack' in extensions) && !('exception' in extensions)) return error;
  const { originalError: _o, stack: _s, exception: _e, ...rest } = extensions;
  return new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: rest });
}

/** An error no rule knows: logged, and answered as internal_error (500 when nothing else came back). */
function masked(error: GraphQLError, log: Logger): GraphQLError {
  requestLog(log).error({ err: error, code: error.extensions?.code }, 'GraphQL error without a documented code');
  return new GraphQLError('Unexpected error.', { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path, extensions: { code: 'internal_error', unexpected: true } });
}

/** The media types Yoga answers GraphQL results in (its result processors). */
const RESPONSE_TYPES = ['application/graphql-response+json', 'application/json', 'multipart/mixed', 'text/event-stream'].map((t) => t.split('/'));

/** Whether Yoga can answer in a type the Accept header allows (as its processors match: wildcards, UTF-8 only). */
function acceptsGraphQLResponse(accept: string | null): boolean {
  return (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .some((entry) => {
      const [type, ...params] = entry.split(';');
      const charset = params.find((p) => p.includes('charset='));
      if (charset && charset !== 'charset=utf-8') return false;
      const [pre, suf] = type.split('/');
      return RESPONSE_TYPES.some(([p, s]) => (pre === '*' || pre === p) && (suf === '*' || suf === s));
    });
}

const refusal = (fetchAPI: { Response: typeof Response }, code: ErrorCode, message: string) =>
  new fetchAPI.Response(refusalBody({ status: STATUS_BY_CODE[code], code, message }), {
    status: STATUS_BY_CODE[code],
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
  });

/** The name of the GET parameter that is not JSON (Yoga's GET parser throws JSON.parse's own error). */
function malformedParameter(url: URL): GraphQLError {
  const name = ['variables', 'extensions'].find((p) => {
    const value = url.searchParams.get(p);
    if (!value) return false;
    try {
      JSON.parse(value);
      return false;
    } catch {
      return true;
    }
  });
  return requestError('malformed_json', `The ${name ?? 'variables or extensions'} parameter is not valid JSON`);
}

type AnyResult = ExecutionResult & Record<string, unknown>;

/** The Yoga plugin (see the module comment); put it first among the plugins, so that its checks come before any other work. */
export function graphqlRequestErrors(log: Logger): Plugin {
  const factsOf = new WeakMap<Request, RequestFacts>();
  const rewrite = (result: AnyResult, facts: RequestFacts): AnyResult => {
    if (!result.errors?.length) return result;
    const errors = result.errors.map((e) => {
      const error = e instanceof GraphQLError ? e : new GraphQLError(String((e as { message?: unknown }).message ?? 'Unexpected error.'), { extensions: (e as GraphQLError).extensions });
      return documentedError(error, facts) ?? masked(error, log);
    });
    return { ...result, errors };
  };
  return {
    onRequestParse({ request, requestParser, setRequestParser, endResponse, fetchAPI }) {
      // Other methods: Yoga answers 405 (rewritten with the others below).
      if (request.method !== 'GET' && request.method !== 'POST') return;
      if (!requestParser) {
        const type = (request.headers.get('content-type') ?? '').split(';')[0].trim();
        return endResponse(
          refusal(fetchAPI, 'unsupported_media_type', `GraphQL requests are application/json (uploads: multipart/form-data with an X-GraphQL-Yoga-CSRF header), not ${type || 'a body without a type'}`),
        );
      }
      // Refused before anything runs: Yoga would otherwise run the operation and then answer 406 without a body.
      if (!acceptsGraphQLResponse(request.headers.get('accept'))) {
        return endResponse(refusal(fetchAPI, 'not_acceptable', '/graphql answers application/graphql-response+json or application/json'));
      }
      factsOf.set(request, { emptyBody: request.headers.get('content-length') === '0' });
      const parse = requestParser;
      setRequestParser(async (req) => {
        try {
          return await parse(req);
        } catch (err) {
          // A GET's variables or extensions that are not JSON: JSON.parse's SyntaxError, which masking would make a 500.
          if (err instanceof SyntaxError && req.method === 'GET') throw malformedParameter(new URL(req.url, 'http://localhost'));
          throw err;
        }
      });
    },
    onParams({ request, params, setResult }) {
      const facts = factsOf.get(request) ?? {};
      factsOf.set(request, facts);
      if (!params || typeof params !== 'object') return;
      facts.operationName = params.operationName;
      facts.persistedQuery = typeof params.extensions === 'object' && params.extensions !== null && 'persistedQuery' in params.extensions;
      // Yoga does not check it: a number would only fail later, as an operation not found.
      if (params.operationName != null && typeof params.operationName !== 'string') {
        setResult({ errors: [requestError('bad_request', 'operationName must be a string')] });
      }
    },
    onResultProcess({ request, result, setResult, resultProcessor, setResultProcessor }) {
      if (isAsyncIterable(result)) return;
      const facts = factsOf.get(request) ?? {};
      setResult(Array.isArray(result) ? result.map((r) => rewrite(r as AnyResult, facts)) : rewrite(result as AnyResult, facts));
      if (!resultProcessor) {
        // Not reached while acceptsGraphQLResponse matches as Yoga does; if it ever did not, the 406 still says why.
        setResultProcessor(processRegularResult, 'application/json');
        setResult({ errors: [requestError('not_acceptable', '/graphql answers application/graphql-response+json or application/json')] });
      }
    },
  };
}

/**
 * An upload request (graphql-upload-minimal's processRequest) that cannot be
 * read, as an AppError in the service's words: the library's messages name
 * itself, its README and the spec's repository.
 */
export function uploadRequestError(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  let m: RegExpExecArray | null;
  if ((m = /^(\d+) max file uploads exceeded/.exec(message))) {
    throw new AppError('payload_too_large', `An upload request carries at most ${m[1]} files`, { details: { max_files: Number(m[1]) } });
  }
  if ((m = /^The '(.*)' multipart field value exceeds the (\d+) byte size limit/.exec(message))) {
    throw new AppError('payload_too_large', `The ${m[1]} field of an upload request is limited to ${m[2]} bytes`, { details: { max_bytes: Number(m[2]) } });
  }
  throw new AppError('bad_request', `Malformed upload request: ${uploadProblem(message)} (see the GraphQL multipart request specification)`);
}

/** What is wrong with the multipart body, from graphql-upload-minimal's or busboy's message. */
function uploadProblem(message: string): string {
  const q = (s: string) => JSON.stringify(s.slice(0, 100));
  let m: RegExpExecArray | null;
  if ((m = /^Invalid JSON in the '(\w+)' multipart field/.exec(message))) return `the ${m[1]} field is not valid JSON`;
  if (message.startsWith("Invalid type for the 'operations'")) return 'the operations field must be a JSON object';
  if ((m = /^Invalid type for the 'map' multipart field entry key '(.*)' array index '(\d+)' value/.exec(message))) return `map[${q(m[1])}][${m[2]}] must be a path such as "variables.file"`;
  if ((m = /^Invalid type for the 'map' multipart field entry key '(.*)' array/.exec(message))) return `map[${q(m[1])}] must be an array of paths`;
  if (message.startsWith("Invalid type for the 'map'")) return 'the map field must be a JSON object';
  if ((m = /^Invalid object path for the 'map' multipart field entry key '(.*)' array index '(\d+)' value '(.*)'/.exec(message))) {
    return `map[${q(m[1])}] names the path ${q(m[3])}, which operations does not have`;
  }
  if (message.startsWith("Misordered multipart fields; 'map'")) return 'the operations field comes before map';
  if (message.startsWith('Misordered multipart fields; files')) return 'files come after the map field';
  if ((m = /^Missing multipart field '(\w+)'/.exec(message))) return `the ${m[1]} field is missing`;
  if (/couldn't find any files or JSON/.test(message)) return 'the body holds neither an operations nor a map field';
  if (message.startsWith('Invalid content-type') || /boundary/i.test(message)) return 'the multipart/form-data Content-Type needs its boundary parameter';
  if (/Unexpected end of (form|file)/.test(message)) return 'the body ends before its last part does';
  if (/Malformed part header/.test(message)) return 'a part has a malformed header';
  return 'the body is not multipart/form-data';
}
