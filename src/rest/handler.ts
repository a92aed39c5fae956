import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context';
import { isConnectionLost } from '../db/errors';
import { AppError } from '../errors';
import { nulCharacterPaths, nulInQuery } from '../graphql/inputText';
import { readJsonBody } from './body';
import { RestInputError, sendProblem, toProblem } from './problem';
import { type CompiledRoute, matchRoute, type RestRequest } from './routes';
import { variableErrors } from './variableCheck';

/**
 * Runs a matched REST route: reads the body, maps the request to the route's
 * GraphQL variables, executes the precompiled operation on the shared schema
 * and shapes the result. Errors from any step become one problem document.
 * Returns false when no route matches the path (so the caller can 404).
 */
export async function handleRest(
  schema: GraphQLSchema,
  routes: CompiledRoute[],
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: RequestContext,
): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const match = matchRoute(routes, method, url.pathname);
  try {
    if (!match) throw new AppError('route_not_found', `No endpoint ${method} ${url.pathname}`);
    if ('allowed' in match) {
      throw new AppError('method_not_allowed', `${method} is not supported on ${url.pathname}`, { headers: { Allow: match.allowed.join(', ') } });
    }
    const { params } = match;
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
    let result = await execute({ schema, document: route.document, variableValues, contextValue: ctx });
    // A read that lost its database connection runs once more, on a fresh one (the pool has dropped the dead one).
    if ((method === 'GET' || method === 'HEAD') && result.errors?.some((e) => isConnectionLost(e.originalError))) {
      ctx.log.warn({ err: result.errors[0].originalError }, 'database connection lost during a read; retrying once');
      result = await execute({ schema, document: route.document, variableValues, contextValue: ctx });
    }
    if (result.errors?.length) throw new ExecutionErrors(result.errors);
    const out = route.respond(result.data as Record<string, unknown>, r);
    const status = out.status ?? 200;
    for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
    res.statusCode = status;
    if (out.body === undefined || status === 204) return void res.end();
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.end(method === 'HEAD' ? undefined : JSON.stringify(out.body));
  } catch (err) {
    // Several errors of one execution: the first decides.
    const problem = toProblem(err instanceof ExecutionErrors ? err.errors[0] : err);
    if (problem.status >= 500) ctx.log.error({ err }, 'request failed');
    // Public API bodies always say which mode served them, errors included.
    if (ctx.source === 'public_api') problem.extra = { ...problem.extra, livemode: ctx.mode === 'live' };
    sendProblem(res, problem, ctx.requestId);
    // The rest of an unread upload is not worth receiving once we have answered.
    if (!req.complete) req.resume();
  }
}

class ExecutionErrors extends Error {
  constructor(readonly errors: readonly unknown[]) {
    super('GraphQL execution errors');
  }
}
