/** The REST route table: the route type, compiling routes to their GraphQL operations, matching a request. */

import type { IncomingMessage } from 'node:http';
import { type DocumentNode, Kind, type OperationDefinitionNode } from 'graphql';
import type { RequestContext } from '../../platform/context';
import type { CompiledPlan, Pipeline } from '../pipeline';
import { type VariableType, variableTypesOf } from '../inputCheck';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRequest {
  req: IncomingMessage;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body (undefined when empty), or for multipart routes the prepared variables. */
  body: unknown;
  ctx: RequestContext;
}

export interface RestResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One REST endpoint: a GraphQL operation on the shared schema plus how to feed it and shape its result. */
export interface RestRoute {
  method: HttpMethod;
  /** Path pattern with `:name` parameters. */
  path: string;
  operationId: string;
  summary: string;
  /** GraphQL document with exactly one operation, validated against the schema at startup. */
  operation: string;
  /** Request parts to operation variables; throw AppError for bad input. */
  variables: (r: RestRequest) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /**
   * For a hot read: the operation compiled by hand for this one document, giving exactly the data executing it
   * would, errors included. It runs inside the pipeline in place of graphql-js (src/api/pipeline.ts), with the
   * field's own capability check and the resource's one representation. A conformance test runs both on the
   * same requests and compares them.
   */
  compiled?: CompiledPlan;
  /** Operation data to the HTTP response. */
  respond: (data: Record<string, any>, r: RestRequest) => RestResponse;
  /**
   * For a file download: the response is streamed from `body` (chunk by chunk, with backpressure) once the
   * operation has succeeded, instead of `respond`'s JSON. The operation checks the request (permission, input);
   * GraphQL cannot stream the file itself.
   */
  stream?: (data: Record<string, any>, r: RestRequest) => { headers: Record<string, string>; body: AsyncIterable<string | Uint8Array> };
  /**
   * The write takes `staged=true` (a product's staged version, docs/staged-changes.md). Any other write sent
   * staged=true is refused (422 not_stageable) rather than applied to the current version the client meant to spare.
   */
  stageable?: boolean;
  /** Body is multipart/form-data, parsed by the route's `variables` (streamed); default JSON. */
  multipart?: boolean;
  /** OpenAPI fragments (parameters, requestBody, responses) for /api/openapi.json. */
  openapi?: Record<string, unknown>;
  /** Which credential the surface expects (affects context building and OpenAPI security). */
  auth: 'dashboard' | 'public' | 'none';
  /** Another operation on the same method and path, served instead when `when(ctx)` holds (e.g. a credential that may read drafts gets the full representation). */
  alternative?: { when: (ctx: RequestContext) => boolean; route: RestRoute };
}

export interface CompiledRoute extends Omit<RestRoute, 'alternative'> {
  alternative?: { when: (ctx: RequestContext) => boolean; route: CompiledRoute };
  document: DocumentNode;
  /** The operation's variables and their input types: REST checks the variables it builds against them before executing. */
  variableTypes: VariableType[];
  segments: string[];
}

/**
 * Parses and validates every route's document once, through the pipeline (its limits and validation rules
 * apply), and registers the routes' compiled plans; a broken route fails startup, not a request.
 * `compiledPlans: false` registers none, so every route executes its operation (a test compares the two).
 */
export function compileRoutes(pipeline: Pipeline, routes: RestRoute[], opts: { compiledPlans?: boolean } = {}): CompiledRoute[] {
  const compileRoute = (r: RestRoute): CompiledRoute => {
    let document: DocumentNode;
    try {
      document = pipeline.compile(r.operation);
    } catch (err) {
      throw new Error(`REST route ${r.method} ${r.path}: ${(err as Error).message}`);
    }
    if (r.compiled && opts.compiledPlans !== false) pipeline.registerPlan(document, r.compiled);
    const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    const alternative = r.alternative && { when: r.alternative.when, route: compileRoute(r.alternative.route) };
    return { ...r, alternative, document, variableTypes: variableTypesOf(pipeline.schema, operation), segments: r.path.split('/').filter(Boolean) };
  };
  return routes.map(compileRoute);
}

type RouteMatch = { route: CompiledRoute; params: Record<string, string> } | { allowed: string[] } | null;

/** Finds the route for a method and path; static segments win over parameters. */
export function matchRoute(routes: CompiledRoute[], method: string, pathname: string): RouteMatch {
  const parts = pathname.split('/').filter(Boolean);
  let best: { route: CompiledRoute; params: Record<string, string>; score: number } | undefined;
  const allowed = new Set<string>();
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const seg = route.segments[i];
      if (seg.startsWith(':')) {
        try {
          params[seg.slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          ok = false;
        }
      } else if (seg === parts[i]) score += 1;
      else ok = false;
    }
    if (!ok) continue;
    if (route.method !== method && !(method === 'HEAD' && route.method === 'GET')) {
      allowed.add(route.method);
      continue;
    }
    if (!best || score > best.score) best = { route, params, score };
  }
  if (best) return { route: best.route, params: best.params };
  return allowed.size ? { allowed: [...allowed] } : null;
}
