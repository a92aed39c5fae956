/**
 * Idempotency keys in the pipeline: the idempotencyKey argument of every mutation, and the plugin that keeps
 * and replays results.
 */

import {
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  getOperationAST,
  GraphQLError,
  type GraphQLFieldConfig,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  print,
  type SelectionSetNode,
} from 'graphql';
import { Upload } from 'graphql-upload-minimal';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../platform/errors';
import { checkIdempotencyKey, fingerprintOf, IDEMPOTENCY_KEY_MAX_LENGTH, idempotent, type IdempotentAnswer } from '../idempotency';
import type { GraphQLContext } from './builder';

/**
 * Idempotency keys on every write, /graphql and REST alike (the rules are src/api/idempotency.ts).
 * idempotentMutations() wraps the execution of a mutation that carries a key: the `idempotencyKey`
 * argument every Mutation field takes (added here in one place to the built schema), or the
 * Idempotency-Key header a REST write sends (the context's `idempotencyKey`). It reserves the key
 * before the operation runs and keeps its result; a replay is that result, which REST renders as it
 * rendered the first answer.
 *
 * An operation that passes a key holds exactly that one mutation field, so the
 * key stands for one write and its replay is the whole `data` of the first
 * answer. The fingerprint is the printed document, the operation name and the
 * variables: a retry must send the same operation (selection included), and a
 * REST retry the same path, parameters and body, which its variables are.
 * A result whose mutation field failed (an error at the field itself: the
 * write's transaction rolled back) is not kept and the key can be used again;
 * one whose field ran and only a nested field failed is kept, errors and all.
 */

const IDEMPOTENCY_KEY_ARGUMENT = 'idempotencyKey';

const ARGUMENT_DESCRIPTION =
  `Makes a retry safe: within 24 hours the same key with the same operation answers with the first result instead of running again ` +
  `(1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters; see "Idempotent requests" in docs/merchant-api.md).`;

/**
 * Sign-in and sign-out take no key: their answer is a fresh credential or a cookie on the response, which a
 * stored answer could neither keep safely nor set again; a client simply signs in again.
 */
const UNKEYED_MUTATIONS: ReadonlySet<string> = new Set(['login', 'signIn', 'signOut']);

/** The schema with `idempotencyKey: String` on every Mutation field but UNKEYED_MUTATIONS; resolvers never see the argument. */
export function withIdempotencyKeyArgument(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  if (!mutation) return schema;
  const config = mutation.toConfig();
  const fields: Record<string, GraphQLFieldConfig<unknown, unknown>> = {};
  for (const [name, field] of Object.entries(config.fields)) {
    if (UNKEYED_MUTATIONS.has(name)) {
      fields[name] = field;
      continue;
    }
    const resolve = field.resolve;
    fields[name] = {
      ...field,
      args: { ...field.args, [IDEMPOTENCY_KEY_ARGUMENT]: { type: GraphQLString, description: ARGUMENT_DESCRIPTION } },
      resolve: resolve && ((parent, args, ctx, info) => resolve(parent, withoutKey(args), ctx, info)),
    };
  }
  const keyed = new GraphQLObjectType({ ...config, fields });
  const schemaConfig = schema.toConfig();
  return new GraphQLSchema({ ...schemaConfig, mutation: keyed, types: schemaConfig.types.map((t) => (t === mutation ? keyed : t)) });
}

function withoutKey(args: Record<string, unknown>): Record<string, unknown> {
  if (!(IDEMPOTENCY_KEY_ARGUMENT in args)) return args;
  const { [IDEMPOTENCY_KEY_ARGUMENT]: _key, ...rest } = args;
  return rest;
}

/** Printed documents, for fingerprints: a document is parsed once per text (Yoga's cache) or per REST route. */
const printed = new WeakMap<DocumentNode, string>();
const printedOf = (document: DocumentNode) => printed.get(document) ?? (printed.set(document, print(document)), printed.get(document)!);

/** Runs a keyed mutation once per key (see the module comment). */
export function idempotentMutations(): Plugin<{ ctx?: GraphQLContext }> {
  return {
    onExecute({ args, executeFn, setExecuteFn, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'mutation') return;
      const ctx = args.contextValue as unknown as GraphQLContext;
      const fields = topLevelFields(operation.selectionSet, args.document.definitions);
      let keyed: { key: string; storeId: string | null } | null;
      try {
        keyed = keyOf(fields, args.variableValues ?? {}, ctx);
      } catch (err) {
        return setResultAndStopExecution({ errors: [asGraphQLError(err as AppError)] });
      }
      if (!keyed) return;
      // REST's request is its method, path, query and body (Stripe's rule), which its variables may not all show.
      if (fields.filter((f) => f.name.value !== '__typename').length > 1) {
        return setResultAndStopExecution({
          errors: [asGraphQLError(new AppError('invalid_idempotency_key', 'An operation with an idempotency key holds only that one mutation field'))],
        });
      }
      const fingerprint =
        ctx.idempotencyKey?.fingerprint ??
        fingerprintOf({ document: printedOf(args.document), operationName: args.operationName ?? null, variables: forFingerprint(args.variableValues ?? {}) });
      const key = keyed;
      setExecuteFn(async (executeArgs) => {
        let first: ExecutionResult | undefined;
        try {
          const outcome = await idempotent(ctx, { key: key.key, storeId: key.storeId, fingerprint }, async () => {
            first = (await executeFn(executeArgs)) as ExecutionResult;
            return answerOf(first);
          });
          if (!outcome.replayed) return first!;
          ctx.setResponseHeader?.('Idempotent-Replayed', 'true');
          return resultOf(outcome.answer);
        } catch (err) {
          if (err instanceof AppError) return { errors: [asGraphQLError(err)] };
          throw err;
        }
      });
    },
  };
}

type Definitions = readonly { kind: Kind; name?: { value: string }; selectionSet?: SelectionSetNode }[];

/** The operation's top-level fields, through inline fragments and fragment spreads. */
function topLevelFields(selectionSet: SelectionSetNode, definitions: Definitions): FieldNode[] {
  const out: FieldNode[] = [];
  for (const s of selectionSet.selections) {
    if (s.kind === Kind.FIELD) out.push(s);
    else if (s.kind === Kind.INLINE_FRAGMENT) out.push(...topLevelFields(s.selectionSet, definitions));
    else {
      const fragment = definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name?.value === s.name.value);
      if (fragment?.selectionSet) out.push(...topLevelFields(fragment.selectionSet, definitions));
    }
  }
  return out;
}

/**
 * The operation's key and the store it writes to: a field's `idempotencyKey` argument (two keyed fields
 * are refused), else the key the request sent beside the operation (REST's Idempotency-Key); null for none.
 */
function keyOf(fields: FieldNode[], variables: Record<string, unknown>, ctx: GraphQLContext) {
  let found: { key: string; storeId: string | null } | null = null;
  let storeId: string | null = null;
  for (const node of fields) {
    const store = argumentValue(node, 'storeId', variables);
    if (typeof store === 'string') storeId ??= store;
    const key = argumentValue(node, IDEMPOTENCY_KEY_ARGUMENT, variables);
    if (key === undefined || key === null) continue;
    if (found) throw new AppError('invalid_idempotency_key', 'An operation with an idempotency key holds only that one mutation field');
    found = { key: checkIdempotencyKey(String(key)), storeId: typeof store === 'string' ? store : null };
  }
  if (found || !ctx.idempotencyKey) return found;
  return { key: ctx.idempotencyKey.key, storeId: storeId ?? ctx.storeId ?? null };
}

/** A field's argument as a literal or a variable gives it (both are strings here: an ID, a key); validation has checked their types. */
function argumentValue(node: FieldNode, name: string, variables: Record<string, unknown>): unknown {
  const value = node.arguments?.find((a) => a.name.value === name)?.value;
  if (!value) return undefined;
  if (value.kind === Kind.VARIABLE) return variables[value.name.value];
  return value.kind === Kind.STRING || value.kind === Kind.INT ? value.value : null;
}

/** Uploads in the variables count by their file name and type (their bytes are streamed, not kept). */
export function forFingerprint(value: unknown): unknown {
  if (value instanceof Upload) {
    const file = (value as unknown as { file?: { filename?: string; mimetype?: string | null } }).file;
    return { upload: file?.filename ?? null, type: file?.mimetype ?? null };
  }
  if (Array.isArray(value)) return value.map(forFingerprint);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forFingerprint(v)]));
  return value;
}

/** A result to keep: 200 when the mutation field itself ran (its write committed), 400 (not kept) when it failed. */
function answerOf(result: ExecutionResult): IdempotentAnswer {
  const fieldFailed = !result.data || result.errors?.some((e) => !e.path || e.path.length <= 1);
  if (fieldFailed) return { status: 400, headers: {}, body: null };
  const errors = result.errors?.map((e) => {
    const original = e.originalError instanceof AppError ? e.originalError : null;
    return {
      message: original ? original.message : 'Unexpected error.',
      path: e.path,
      extensions: { code: original ? original.code : 'internal_error' },
    };
  });
  return { status: 200, headers: {}, body: JSON.stringify({ data: result.data, ...(errors?.length ? { errors } : {}) }) };
}

function resultOf(answer: IdempotentAnswer): ExecutionResult {
  const stored = JSON.parse(answer.body ?? '{}') as { data?: Record<string, unknown>; errors?: { message: string; path: (string | number)[]; extensions: Record<string, unknown> }[] };
  return {
    data: stored.data,
    ...(stored.errors ? { errors: stored.errors.map((e) => new GraphQLError(e.message, { path: e.path, extensions: e.extensions })) } : {}),
  };
}

/**
 * An AppError as a GraphQL error carrying its `extensions.code` itself: a result set before execution is not masked,
 * and without an `originalError` Yoga takes it for the client's error (HTTP 200, as other errors), not an unexpected one (500).
 * Its headers (Retry-After while the first request runs) go with it, for /graphql's response and REST's.
 */
function asGraphQLError(err: AppError): GraphQLError {
  return new GraphQLError(err.message, { extensions: { code: err.code, ...(err.details ?? {}), ...(err.headers ? { http: { headers: err.headers } } : {}) } });
}
