/** Running a matched REST route: body, variables, its GraphQL operation through the pipeline, the answer. */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { checkIdempotencyKey, fingerprintOf } from '../idempotency';
import { forFingerprint } from '../graphql/idempotency';
import type { GraphQLContext } from '../graphql/builder';
import { nulCharacterPaths, nulInQuery } from '../graphql/inputText';
import { type FieldNaming, inputErrors } from '../inputCheck';
import type { Pipeline } from '../pipeline';
import { camelToSnake } from '../../platform/naming';
import { readJsonBody, RestInputError, sentKey } from './body';
import { sendProblem, toProblem } from './problem';
import { type CompiledRoute, matchRoute, type RestRequest } from './routes';
import { sendStream } from './stream';
import { currentDatabase } from '../../platform/db/client';
import { type ReadTarget, readingFrom } from '../../platform/db/replicas';
import { databaseReads } from '../../platform/metrics';

/** The variable that carries the request body: its fields are top-level body fields, so its name is not part of a field path. */
const BODY_VARIABLE = 'input';

/** REST names a field as the body sent it (snake_case), a variable from the path or query in snake_case. */
const REST_NAMING: FieldNaming = {
  variable: (name) => (name === BODY_VARIABLE ? [] : [camelToSnake(name)]),
  field: sentKey,
};

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The canonical REST request an idempotency key stands for: method, path, query parameters (sorted) and the
 * body as parsed (so key order and whitespace do not matter). A multipart body is taken as the variables it
 * became, a file as its name and type (its bytes were streamed to disk, not kept).
 */
function restFingerprint(method: string, url: URL, r: RestRequest, variables: Record<string, unknown>, multipart: boolean): string {
  const query = [...url.searchParams].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return fingerprintOf({ method, path: url.pathname, query, body: multipart ? forFingerprint(variables) : r.body });
}

/** staged=true on a write that changes the current version only. */
const writeNotStageable = () =>
  new AppError('not_stageable', 'This write cannot be staged: send it without staged=true', {
    errors: [{ field: 'staged', code: 'not_stageable', message: 'this write changes the current version only (docs/staged-changes.md lists the writes that can be staged)' }],
  });

/**
 * Runs a matched REST route: reads the body, maps the request to the route's
 * GraphQL variables, runs the precompiled operation through the pipeline (the
 * plugins /graphql runs: limits, NUL refusal, telemetry, read retry,
 * idempotency, error masking) and shapes the result. Errors from any step
 * become one problem document. `seen.route` is set to the matched route's path
 * pattern (the metrics' label).
 */
export async function handleRest(
  pipeline: Pipeline,
  routes: CompiledRoute[],
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: RequestContext,
  seen: { route?: string } = {},
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const match = matchRoute(routes, method, url.pathname);
  if (match && 'route' in match) seen.route = match.route.path;
  try {
    if (!match) throw new AppError('route_not_found', `No endpoint ${method} ${url.pathname}`);
    if ('allowed' in match) {
      throw new AppError('method_not_allowed', `${method} is not supported on ${url.pathname}`, { headers: { Allow: match.allowed.join(', ') } });
    }
    const { params } = match;
    // Checked before the body is read: a malformed key costs the client no upload. Reads ignore the header, as Stripe's do.
    const sentKey = req.headers['idempotency-key'];
    const key = sentKey !== undefined && WRITES.has(method) ? checkIdempotencyKey(Array.isArray(sentKey) ? sentKey.join(', ') : sentKey) : null;
    const route = match.route.alternative?.when(ctx) ? match.route.alternative.route : match.route;
    if (WRITES.has(method) && !route.stageable && url.searchParams.has('staged') && url.searchParams.get('staged') !== 'false') throw writeNotStageable();
    const r: RestRequest = { req, params, query: url.searchParams, body: undefined, ctx };
    if (!route.multipart && method !== 'GET' && method !== 'HEAD' && method !== 'DELETE') r.body = await readJsonBody(req);
    // What the client sent, named as sent: query parameters, then body fields (the pipeline refuses a NUL in the
    // variables too, but could only name a field by its variable).
    const nul = [...nulInQuery(url.searchParams), ...nulCharacterPaths(r.body, '')];
    if (nul.length) throw new RestInputError(nul);
    const variableValues = await route.variables(r);
    // What else reaches the operation (multipart fields), named as its variables.
    const nulInVariables = nulCharacterPaths(variableValues, '');
    if (nulInVariables.length) throw new RestInputError(nulInVariables);
    const problems = inputErrors(route.variableTypes, variableValues, REST_NAMING);
    if (problems.length) throw new RestInputError(problems);
    const context: GraphQLContext = {
      ...ctx,
      idempotencyKey: key === null ? undefined : { key, fingerprint: restFingerprint(method, url, r, variableValues, !!route.multipart) },
      acceptLanguage: req.headers['accept-language'],
      setResponseHeader: (name, value) => void res.setHeader(name, value),
    };
    const data = await pipeline.run(route.document, variableValues, context);
    if (route.stream) return await sendReadStream(res, (readCtx) => route.stream!(data, { ...r, ctx: readCtx }), ctx, context.readTarget, method === 'HEAD');
    const out = route.respond(data, r);
    const status = out.status ?? 200;
    const hasBody = out.body !== undefined && status !== 204;
    for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
    if (hasBody) res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.statusCode = status;
    res.end(hasBody && method !== 'HEAD' ? JSON.stringify(out.body) : undefined);
  } catch (err) {
    const problem = toProblem(err);
    if (problem.status >= 500 && problem.unexpected) ctx.log.error({ err }, 'request failed');
    // Public API bodies always say which mode served them, errors included.
    if (ctx.source === 'public_api') problem.extra = { ...problem.extra, livemode: ctx.mode === 'live' };
    sendProblem(res, problem, ctx.requestId, ctx.baseUrl);
    // The rest of an unread upload is not worth receiving once we have answered.
    if (!req.complete) req.resume();
  }
}

/**
 * A streamed answer (an export) read from the replica its operation read, when it read one. A replica that fails
 * before the first chunk is reported and the primary streams it instead; once chunks are sent, a failure cuts the
 * response short wherever it read from (sendStream).
 */
async function sendReadStream(
  res: ServerResponse,
  stream: (ctx: RequestContext) => { headers: Record<string, string>; body: AsyncIterable<string | Uint8Array> },
  ctx: RequestContext,
  replica: ReadTarget | undefined,
  head: boolean,
): Promise<void> {
  if (!replica) return sendStream(res, stream(ctx), ctx, head);
  try {
    return await readingFrom(replica, () => sendStream(res, stream({ ...ctx, readDb: replica.prisma }), ctx, head));
  } catch (err) {
    if (res.headersSent || err instanceof AppError) throw err;
    currentDatabase()?.replicas?.reportFailure(replica, err);
    databaseReads.inc({ target: 'primary', reason: 'replica_failed' });
    return sendStream(res, stream(ctx), ctx, head);
  }
}
