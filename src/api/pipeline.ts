/** The one pipeline every operation runs through, /graphql's and every REST route's: Yoga with the project's plugins. */

import type { IncomingMessage } from 'node:http';
import { type DocumentNode, type ExecutionResult, type FieldNode, GraphQLError, type GraphQLSchema, Kind, locatedError, type OperationDefinitionNode } from 'graphql';
import { createYoga, maskError as defaultMaskError, type Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { clientAddress, type LoginThrottle } from '../access/auth/loginThrottle';
import type { Config } from '../platform/config';
import { cacheBound, registerCache } from '../platform/caches';
import { databaseUnavailable, isConnectionLost } from '../platform/db/errors';
import { AppError } from '../platform/errors';
import { requestLog } from '../platform/logger';
import type { GraphQLContext } from './graphql/builder';
import { csrfPreventionPlugin, graphqlCors, sessionCsrfPlugin } from './graphql/csrf';
import { idempotentMutations } from './graphql/idempotency';
import { refuseNulCharacters } from './graphql/inputText';
import { everyInputError } from './graphql/inputErrors';
import { graphqlRequestErrors } from './graphql/requestErrors';
import { graphqlLimitPlugins } from './graphql/limits';
import { operationTelemetry } from './graphql/operationTelemetry';
import { retryReadsOnLostConnection } from './graphql/readRetry';
import { readsFromReplicas } from './graphql/replicaReads';
import type { WritePositions } from '../platform/db/writePositions';
import { graphiqlOptions, renderExplorerPage } from './explorer';

/**
 * Each plugin is a cross-cutting rule written once: the document limits, CSRF, NUL refusal, operation
 * telemetry, reads from streaming replicas, read retry on a lost connection, idempotency keys and error masking (the one mapping from an
 * error to its code). /graphql reaches it through Yoga's HTTP handler; REST routes run their
 * documents, parsed and validated through it at start, through the same enveloped `execute`, so every
 * plugin applies to them as well (the architecture's envelop pattern, chosen over a second executor).
 *
 * A document with a compiled plan (a REST route's hot read) is executed by that plan instead of graphql-js,
 * inside the same pipeline: the plugins wrap it as they wrap execution.
 */

/** Computes an operation's data without graphql-js: what executing its one document would give. */
export type CompiledPlan = (variables: Record<string, any>, ctx: GraphQLContext) => Promise<Record<string, unknown>>;

export interface Pipeline {
  schema: GraphQLSchema;
  /** /graphql's HTTP handler. */
  graphqlListener: (req: IncomingMessage, res: unknown, serverContext: { ctx: GraphQLContext }) => Promise<void>;
  /** Parses and validates a fixed document through the pipeline (the limits and validation rules apply); throws when invalid. */
  compile: (source: string) => DocumentNode;
  /** Registers the compiled plan of a document `compile` returned. */
  registerPlan: (document: DocumentNode, plan: CompiledPlan) => void;
  /** Executes a compiled document: its data, or the first of its errors thrown (masked as /graphql masks them). */
  run: (document: DocumentNode, variableValues: Record<string, unknown>, contextValue: GraphQLContext) => Promise<Record<string, any>>;
}

/** The errors of one execution; `errors[0]` decides a REST answer. */
export class ExecutionErrors extends Error {
  constructor(readonly errors: readonly GraphQLError[]) {
    super(errors[0]?.message ?? 'GraphQL execution errors');
  }
}

export function createPipeline(opts: { schema: GraphQLSchema; config: Config; log: Logger; loginThrottle: LoginThrottle; writePositions?: WritePositions }): Pipeline {
  const { schema, config, log, loginThrottle, writePositions } = opts;
  const plans = new WeakMap<DocumentNode, CompiledPlan>();
  const yoga = createYoga<{ ctx: GraphQLContext }>({
    schema,
    parserAndValidationCache: parsedDocumentCaches(),
    graphqlEndpoint: '/graphql',
    multipart: false, // graphql-upload-minimal streams uploads instead (src/app.ts)
    renderGraphiQL: renderExplorerPage,
    graphiql: graphiqlOptions,
    landingPage: false,
    logging: false,
    context: ({ ctx, req }: { ctx: GraphQLContext; req?: IncomingMessage }) => ({
      ...ctx,
      loginThrottle,
      clientAddress: req ? clientAddress(req, config.trustProxyHops) : undefined,
    }),
    // Compiled plans come first, so the plugins after them wrap a plan as they wrap execution. Limits run at parse
    // (tokens) and validation (depth, aliases, directives, one login) and, with the variables known, before execution (cost).
    plugins: [
      compiledPlans(plans),
      graphqlRequestErrors(log),
      csrfPreventionPlugin(),
      sessionCsrfPlugin(),
      ...graphqlLimitPlugins(config.graphqlLimits),
      refuseNulCharacters(),
      everyInputError(),
      operationTelemetry(),
      readsFromReplicas(writePositions, log),
      retryReadsOnLostConnection(),
      idempotentMutations(),
    ],
    cors: graphqlCors(config.graphqlCorsOrigins),
    maskedErrors: { maskError: (error, message) => maskError(error, message, log) },
  });
  const enveloped = yoga.getEnveloped({});
  return {
    schema,
    graphqlListener: yoga.requestListener as unknown as Pipeline['graphqlListener'],
    compile(source) {
      const document = enveloped.parse(source);
      const errors: readonly GraphQLError[] = enveloped.validate(schema, document);
      if (errors.length) throw new Error(errors.map((e) => e.message).join('; '));
      return document;
    },
    registerPlan: (document, plan) => void plans.set(document, plan),
    async run(document, variableValues, contextValue) {
      const result = (await enveloped.execute({ schema, document, variableValues, contextValue })) as ExecutionResult;
      if (result.errors?.length) throw new ExecutionErrors(result.errors);
      return result.data as Record<string, any>;
    },
  };
}

/** The texts of the documents kept, together: a parsed document is some tens of times its text, so 1 MB of text is tens of MB of heap. */
const DOCUMENT_CACHE_TEXT_BYTES = 1024 * 1024;

/**
 * Yoga's parser caches with the service's bounds and in /metrics: parsed documents and parse errors by their text,
 * least recently used dropped first, at most their bounds (CACHE_MAX_ENTRIES) and their texts under
 * DOCUMENT_CACHE_TEXT_BYTES (Yoga's own keep 1,024 of any size for an hour). Validation results are kept per parsed
 * document (a WeakMap), so they go with it; so do the per-document caches of the plugins (costs, labels, NUL
 * findings, variable types).
 */
function parsedDocumentCaches() {
  const cache = <T extends {}>(name: string) => {
    const lru = new LRUCache<string, T>({ max: cacheBound(name), maxSize: DOCUMENT_CACHE_TEXT_BYTES, sizeCalculation: (_v, key) => key.length + 1 });
    registerCache(name, () => lru.size);
    return lru;
  };
  return { documentCache: cache<DocumentNode>('graphql_documents'), errorCache: cache<object>('graphql_parse_errors') };
}

/**
 * The one mapping from an error to what a client sees, for every operation: the service's own errors keep their
 * code (AppError), a lost database connection is 503 service_unavailable, GraphQL's request errors (syntax,
 * validation, variable coercion: no resolver path) are the client's and shown, and anything else is logged
 * and masked as internal_error. REST renders the result as a problem document (src/api/rest/problem.ts).
 */
function maskError(error: unknown, message: string, log: Logger): Error {
  const known = knownError(error);
  if (known) return appErrorToGraphQL(known, error as GraphQLError);
  // Syntax, validation and variable-coercion errors (no resolver path) are the client's and safe to show; graphqlRequestErrors gives them the service's codes.
  if (error instanceof GraphQLError && (!error.originalError || !error.path)) return error;
  // Masking runs without the GraphQL context; the request's logger (request_id) comes with the request's async scope.
  requestLog(log).error({ err: error instanceof GraphQLError ? error.originalError : error }, 'unexpected GraphQL error');
  const masked = defaultMaskError(error, message, false) as GraphQLError;
  return new GraphQLError(masked.message, { nodes: masked.nodes, path: masked.path, extensions: { ...masked.extensions, code: 'internal_error' } });
}

/**
 * The service's own error an error is, or stands for: an AppError (thrown, or wrapped by GraphQL execution), or a
 * lost database connection (503 service_unavailable); null for anything else, which is unexpected. The one
 * classification both surfaces use: maskError here, REST's problems for errors outside an operation.
 */
export function knownError(err: unknown): AppError | null {
  const original = err instanceof GraphQLError && err.originalError ? err.originalError : err;
  if (original instanceof AppError) return original;
  return isConnectionLost(original) ? databaseUnavailable() : null;
}

function appErrorToGraphQL(e: AppError, gqlError?: GraphQLError) {
  // GraphQL answers 200 for most errors; authentication failures, throttled logins and a lost database keep their HTTP meaning (401, 429, 503 with Retry-After).
  const http = e.status === 401 || e.code === 'too_many_login_attempts' || e.code === 'service_unavailable' ? { status: e.status, headers: e.headers } : undefined;
  return new GraphQLError(e.message, {
    nodes: gqlError?.nodes,
    path: gqlError?.path,
    originalError: e,
    extensions: { code: e.code, ...(e.errors ? { errors: e.errors } : {}), ...(e.details ?? {}), ...(http ? { http } : {}) },
  });
}

/**
 * Executes a document that has a compiled plan by the plan. Its errors come back as execution would report a
 * failed root field (located at that field, data null), so masking, read retry and REST see the same result.
 */
function compiledPlans(plans: WeakMap<DocumentNode, CompiledPlan>): Plugin {
  return {
    onExecute({ args, setExecuteFn }) {
      const plan = plans.get(args.document);
      if (!plan) return;
      setExecuteFn(async (a) => {
        try {
          return { data: await plan((a.variableValues ?? {}) as Record<string, unknown>, a.contextValue as GraphQLContext) };
        } catch (err) {
          const field = rootFieldOf(a.document);
          return { data: null, errors: [locatedError(err, field ? [field] : undefined, field ? [field.alias?.value ?? field.name.value] : undefined)] };
        }
      });
    },
  };
}

function rootFieldOf(document: DocumentNode): FieldNode | undefined {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operation?.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD);
}
