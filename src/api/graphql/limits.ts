/** Limits of one /graphql document: tokens, depth, aliases, directives and estimated cost. */

import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import {
  type DocumentNode,
  type GraphQLField,
  GraphQLError,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isListType,
  isObjectType,
  Lexer,
  Source,
  TokenKind,
  type ValidationRule,
  type ValueNode,
  visit,
} from 'graphql';
import { type ComplexityEstimator, getComplexity } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';
import type { ErrorCode } from '../../platform/errors';

/** What one /graphql document may ask for (config.graphqlLimits). */
interface GraphQLLimits {
  /** Lexical tokens of the document, counted while it is parsed: deep nesting and long fragment chains stop here, before any recursion. */
  maxTokens: number;
  /** Field nesting (introspection's `__schema` excluded, fragments followed). */
  maxDepth: number;
  /** Aliased fields of one operation (fragments followed). */
  maxAliases: number;
  /** Directives of one operation. */
  maxDirectives: number;
  /** Estimated cost (see costEstimator); list fields count once per item their page size asks for. */
  maxCost: number;
}

/** The page a list field returns when its page-size argument is left out, and the most it returns. */
const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
/** Lists without a page-size argument (a product's variants, images, categories...) are counted as this many items. */
const UNPAGED_LIST_SIZE = 10;
const PAGE_SIZE_ARGS = ['perPage', 'first', 'last', 'limit'] as const;
/** The fields evaluated while costing a document; beyond it (fragment fan-out) the document is too complex. */
const MAX_COSTED_NODES = 10_000;

/**
 * An error for a document refused by a limit: HTTP 400 with a stable code. `spec: false` keeps
 * the 400 for application/json clients too (Yoga answers 200 to those for spec validation errors).
 */
function limitError(code: ErrorCode, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status: 400, spec: false } } });
}

/**
 * graphql-armor's limits, each answering with its own code. Tokens are counted
 * by the parser itself, so a document nested 10,000 levels deep or chaining
 * 20,000 fragments is refused before anything recurses over it. Armor's own
 * cost limit is off: it cannot see page sizes, which costDocument does.
 * Field suggestions stay on: the schema is public (GraphiQL, schema.graphql).
 */
export function graphqlLimitPlugins(limits: GraphQLLimits): Plugin[] {
  const rejectWith = (code: ErrorCode) => [
    (_ctx: unknown, err: GraphQLError) => {
      throw limitError(code, err.message.replace(/^Syntax Error: /, ''));
    },
  ];
  return [
    EnvelopArmorPlugin({
      blockFieldSuggestion: { enabled: false },
      costLimit: { enabled: false },
      maxTokens: { n: limits.maxTokens, onReject: rejectWith('query_too_large') },
      maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, onReject: rejectWith('query_too_deep') },
      maxAliases: { n: limits.maxAliases, onReject: rejectWith('too_many_aliases') },
      maxDirectives: { n: limits.maxDirectives, onReject: rejectWith('too_many_directives') },
    }) as Plugin,
    {
      // Yoga marks every parse error as a spec error (HTTP 200 for application/json clients), so the
      // token limit is also checked here, before parsing, where the refusal keeps its 400.
      onParams({ params, setResult }) {
        if (typeof params.query === 'string' && tokenCountExceeds(params.query, limits.maxTokens)) {
          setResult({ errors: [limitError('query_too_large', `Token limit of ${limits.maxTokens} exceeded.`)] });
        }
      },
      onValidate({ addValidationRule }) {
        addValidationRule(oneLoginPerDocument);
      },
    },
    costLimitPlugin(limits.maxCost),
  ];
}

/** Whether the document has more than `max` lexical tokens; lexing is a loop, so any document is safe to count. */
function tokenCountExceeds(query: string, max: number): boolean {
  const lexer = new Lexer(new Source(query));
  try {
    for (let n = 0; lexer.advance().kind !== TokenKind.EOF; ) if (++n > max) return true;
  } catch {
    // A syntax error: the parser reports it.
  }
  return false;
}

/** The mutations that check a password (argon2) and issue a token. */
const PASSWORD_MUTATIONS = new Set(['login', 'signIn']);

/**
 * Every login (`login`, `signIn`) runs argon2 and issues a token: a document may
 * hold one, so aliases cannot turn one request into a batch of password guesses.
 */
const oneLoginPerDocument: ValidationRule = (context) => {
  let logins = 0;
  return {
    Field(node) {
      if (!PASSWORD_MUTATIONS.has(node.name.value) || context.getParentType() !== context.getSchema().getMutationType()) return;
      if (++logins === 2) context.reportError(limitError('too_many_logins', 'A request may hold one login field (login or signIn)'));
    },
  };
};

function pageSizeOf(args: Record<string, unknown>): number | undefined {
  for (const name of PAGE_SIZE_ARGS) {
    if (!(name in args)) continue;
    const n = args[name];
    // A size out of range is the resolver's to refuse (with its validation error); the cost counts the most it could return.
    return typeof n === 'number' && Number.isFinite(n) ? Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(n))) : DEFAULT_PAGE_SIZE;
  }
  return undefined;
}

const isObjectList = (type: GraphQLOutputType) => isListType(getNullableType(type)) && isCompositeType(getNamedType(type));
const isPaged = (field: GraphQLField<unknown, unknown>) => field.args.some((a) => (PAGE_SIZE_ARGS as readonly string[]).includes(a.name));

/**
 * The wrapper types paged fields return (ProductPage, a connection...): their list holds the page, already counted by
 * the field's size. A paged field that returns the list itself (a product's images(first:), a preview's
 * products(first:)) is counted by its size directly; its element type stays an ordinary type, whose own lists count.
 */
const pageTypesBySchema = new WeakMap<GraphQLSchema, Set<string>>();
function pageTypesOf(schema: GraphQLSchema): Set<string> {
  let names = pageTypesBySchema.get(schema);
  if (!names) {
    names = new Set();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        if (isPaged(field) && !isListType(getNullableType(field.type))) names.add(getNamedType(field.type).name);
      }
    }
    pageTypesBySchema.set(schema, names);
  }
  return names;
}

/**
 * Each field costs 1 plus what it selects; a field with a page-size argument
 * (perPage, first, last, limit: given, or the default page) multiplies what it
 * selects by that size, and any other list of objects (or one whose page-size
 * argument is left out and then returns all: images) by UNPAGED_LIST_SIZE.
 * Introspection costs nothing (GraphiQL's schema query must always pass).
 */
function costEstimator(schema: GraphQLSchema): ComplexityEstimator {
  const pageTypes = pageTypesOf(schema);
  return ({ type, field, args, childComplexity }) => {
    if (field.name.startsWith('__')) return 0;
    if (isPaged(field)) {
      const size = pageSizeOf(args);
      // A list that is cut only when asked (a product's images(first:)) is whole without the argument: any other list's count.
      if (size === undefined && isObjectList(field.type)) return 1 + UNPAGED_LIST_SIZE * childComplexity;
      return 1 + (size ?? DEFAULT_PAGE_SIZE) * childComplexity;
    }
    if (isObjectList(field.type) && !pageTypes.has(type.name)) return 1 + UNPAGED_LIST_SIZE * childComplexity;
    return 1 + childComplexity;
  };
}

/** The operation's cost with its variables; null when the variables do not fit (execution reports that itself). */
function costDocument(args: { schema: GraphQLSchema; document: DocumentNode; variableValues?: Record<string, unknown> | null; operationName?: string | null }): number | null {
  try {
    return getComplexity({
      schema: args.schema,
      query: args.document,
      variables: args.variableValues ?? {},
      operationName: args.operationName ?? undefined,
      estimators: [costEstimator(args.schema)],
      maxQueryNodes: MAX_COSTED_NODES,
    });
  } catch (err) {
    if (err instanceof GraphQLError && /maximum allowed number of nodes/.test(err.message)) return Number.POSITIVE_INFINITY;
    return null;
  }
}

/**
 * The variables a document's cost can depend on: those given to a page-size argument and to @include or @skip.
 * Any other variable (a search text, a store id) leaves the cost as it is.
 */
function costVariablesOf(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (value: ValueNode) => visit(value, { Variable: (v) => void names.add(v.name.value) });
  visit(document, {
    Argument: (arg) => void ((PAGE_SIZE_ARGS as readonly string[]).includes(arg.name.value) && collect(arg.value)),
    Directive: (d) => void ((d.name.value === 'include' || d.name.value === 'skip') && d.arguments?.forEach((a) => collect(a.value))),
  });
  return [...names].sort();
}

/** Costs already computed, per document (Yoga's parse cache hands the same document for the same text). */
const costsByDocument = new WeakMap<DocumentNode, { variables: string[]; costs: Map<string, number> }>();
/** Costs kept per document: one per combination of page sizes and conditions its callers send. */
const COSTS_PER_DOCUMENT = 64;

/** costDocument, remembered per document, operation and the values of the variables the cost depends on. */
function cachedCost(args: Parameters<typeof costDocument>[0]): number | null {
  let entry = costsByDocument.get(args.document);
  if (!entry) costsByDocument.set(args.document, (entry = { variables: costVariablesOf(args.document), costs: new Map() }));
  const values = args.variableValues ?? {};
  const key = JSON.stringify([args.operationName ?? null, ...entry.variables.map((name) => (name in values ? [values[name]] : []))]);
  const known = entry.costs.get(key);
  if (known !== undefined) return known;
  const cost = costDocument(args);
  // Not a null: it says these variables do not fit, which other variables with the same sizes may well do.
  if (cost === null) return cost;
  if (entry.costs.size >= COSTS_PER_DOCUMENT) entry.costs.clear();
  entry.costs.set(key, cost);
  return cost;
}

/**
 * Costs the operation once its variables are known (before execution), so
 * `products(perPage: $n)` counts the page it really asks for. Validation
 * results are cached per document, which is why this is not a validation rule.
 */
function costLimitPlugin(maxCost: number): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = cachedCost(args);
      if (cost === null || cost <= maxCost) return;
      const shown = Number.isFinite(cost) ? String(cost) : `over ${maxCost}`;
      setResultAndStopExecution({ errors: [limitError('query_too_complex', `Query cost ${shown} exceeds the limit of ${maxCost}; ask for smaller pages or fewer fields`)] });
    },
  };
}
