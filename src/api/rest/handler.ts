import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../../platform/context';
import { isConnectionLost } from '../../platform/db/errors';
import { AppError } from '../../platform/errors';
import { nulCharacterPaths, nulInQuery } from '../graphql/inputText';
import { idempotent, type IdempotentAnswer } from '../idempotency';
import { readJsonBody } from './body';
import { idempotencyKeyOf, restFingerprint, sendAnswer } from './idempotency';
import { RestInputError, sendProblem, toProblem } from './problem';
import { type CompiledRoute, matchRoute, type RestRequest } from './routes';
import { sendStream } from './stream';
import { variableErrors } from './variableCheck';

/**
 * Runs a matched REST route: reads the body, maps the request to the route's
 * GraphQL variables, executes the precompiled operation on the shared schema
 * and shapes the result. Errors from any step become one problem document.
 * Returns false when no route matches the path (so the caller can 404).
 * `seen.route` is set to the matched route's path pattern (the metrics' label).
 */
export async function handleRest(
  schema: GraphQLSchema,
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
    // Checked before the body is read: a malformed key costs the client no upload.
    const idempotencyKey = idempotencyKeyOf(req, method);
    const route = match.route.alternative?.when(ctx) ? match.route.alternative.route : match.route;
    const r: RestRequest = { req, params, query: url.searchParams, body: undefined, ctx };
    if (!route.multipart && method !== 'GET' && method !== 'HEAD' && method !== 'DELETE') r.body = await readJsonBody(req);
    // Named as the client sent them: query parameters, then body fields.
    const nul = [...nulInQuery(url.searchParams), ...nulCharacterPaths(r.body, '')];
    if (nul.length) throw new RestInputError(nul);
    const variableValues = await route.variables(r);
    // What else reaches the operation (multipart fields), named as its variables.
    const nulInVariables = nulCharacterPaths(variableValues, '');
    if (nulInVariables.length) throw new RestInputError(nulInVariables);
    const inputErrors = variableErrors(route.variableTypes, variableValues);
    if (inputErrors.length) throw new RestInputError(inputErrors);
    if (route.stream) return await sendStream(res, route.stream(await operationData(schema, route, variableValues, ctx, true), r), ctx, method === 'HEAD');
    const run = async (): Promise<IdempotentAnswer> => {
      const data = await operationData(schema, route, variableValues, ctx, method === 'GET' || method === 'HEAD');
      const out = route.respond(data, r);
      const status = out.status ?? 200;
      const hasBody = out.body !== undefined && status !== 204;
      // Routes set only headers of the representation (ETag, Location, Link): a replay repeats them all.
      const headers = { ...out.headers, ...(hasBody ? { 'Content-Type': 'application/json; charset=utf-8' } : {}) };
      return { status, headers, body: hasBody ? JSON.stringify(out.body) : null };
    };
    // Input errors above were answered before the key was reserved, so they leave it free (Stripe's rules).
    const outcome = idempotencyKey
      ? await idempotent(ctx, { key: idempotencyKey, storeId: ctx.storeId ?? params.storeId ?? null, fingerprint: restFingerprint(method, url, r, variableValues, !!route.multipart) }, run)
      : { answer: await run(), replayed: false };
    sendAnswer(res, outcome, method);
  } catch (err) {
    // Several errors of one execution: the first decides.
    const problem = toProblem(err instanceof ExecutionErrors ? err.errors[0] : err);
    if (problem.status >= 500) ctx.log.error({ err }, 'request failed');
    // Public API bodies always say which mode served them, errors included.
    if (ctx.source === 'public_api') problem.extra = { ...problem.extra, livemode: ctx.mode === 'live' };
    sendProblem(res, problem, ctx.requestId, ctx.baseUrl);
    // The rest of an unread upload is not worth receiving once we have answered.
    if (!req.complete) req.resume();
  }
}

/**
 * The route's operation data: executed on the schema, or computed by the route's direct plan. A read that
 * lost its database connection runs once more, on a fresh one (the pool has dropped the dead one).
 */
async function operationData(schema: GraphQLSchema, route: CompiledRoute, variableValues: Record<string, unknown>, ctx: RequestContext, isRead: boolean) {
  const once = async () => {
    if (route.direct) return route.direct(variableValues, ctx);
    const result = await execute({ schema, document: route.document, variableValues, contextValue: ctx });
    if (result.errors?.length) throw new ExecutionErrors(result.errors);
    return result.data as Record<string, unknown>;
  };
  try {
    return await once();
  } catch (err) {
    const lost = err instanceof ExecutionErrors ? err.errors.some((e) => isConnectionLost((e as GraphQLError).originalError)) : isConnectionLost(err);
    if (!isRead || !lost) throw err;
    ctx.log.warn({ err: err instanceof ExecutionErrors ? (err.errors[0] as GraphQLError).originalError : err }, 'database connection lost during a read; retrying once');
    return once();
  }
}

class ExecutionErrors extends Error {
  constructor(readonly errors: readonly unknown[]) {
    super('GraphQL execution errors');
  }
}
