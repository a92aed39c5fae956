/** Refusing the NUL character in client input, before it reaches PostgreSQL. */

import { GraphQLError, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * PostgreSQL text cannot hold U+0000, so a NUL character in anything a client
 * sends would fail deep in a write or a query. Every surface refuses it at the
 * edge instead, naming where it was: the REST handler checks query parameters
 * and JSON bodies (422 validation_failed, code invalid_character), and the
 * GraphQL plugin below checks variables and the document's string literals.
 */

const NUL_CODE = 'invalid_character';
const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';

interface NulFinding {
  field: string;
  code: typeof NUL_CODE;
  message: string;
}

const finding = (field: string, key = false): NulFinding => ({ field, code: NUL_CODE, message: key ? `a key ${NUL_MESSAGE}` : NUL_MESSAGE });

/**
 * Where a NUL character occurs in a parsed JSON value: dotted paths
 * (`variants.0.sku`), as the services name fields. Iterative, so any nesting
 * the body parser let through is safe; stops after 20 findings.
 */
export function nulCharacterPaths(value: unknown, root: string): NulFinding[] {
  const out: NulFinding[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length && out.length < 20) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) out.push(finding(path));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, String(i))]);
    } else if (isPlainObject(v)) {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i];
        if (k.includes('\0')) out.push(finding(path, true));
        stack.push([child, join(path, k.replaceAll('\0', '\\u0000'))]);
      }
    }
  }
  return out;
}

/** Only data: an upload's stream or a Date is not walked. */
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** NUL characters in query parameters, by parameter name (a name holding one is reported as such). */
export function nulInQuery(params: URLSearchParams): NulFinding[] {
  const out: NulFinding[] = [];
  for (const [k, v] of params) {
    if (k.includes('\0')) out.push(finding(k.replaceAll('\0', '\\u0000'), true));
    else if (v.includes('\0')) out.push(finding(k));
  }
  return out;
}

/** Documents are parsed once and cached (Yoga's parser cache): so is what they hold. */
const documentFindings = new WeakMap<DocumentNode, NulFinding[]>();

/** NUL characters in a document's string literals, named by the argument path (`createProduct.input.name`). */
function nulInDocument(document: DocumentNode): NulFinding[] {
  const known = documentFindings.get(document);
  if (known) return known;
  const out: NulFinding[] = [];
  const path: string[] = [];
  visit(document, {
    Field: { enter: (n) => void path.push(n.alias?.value ?? n.name.value), leave: () => void path.pop() },
    Argument: { enter: (n) => void path.push(n.name.value), leave: () => void path.pop() },
    ObjectField: { enter: (n) => void path.push(n.name.value), leave: () => void path.pop() },
    StringValue: (n) => {
      if (n.value.includes('\0')) out.push(finding(path.join('.')));
    },
  });
  documentFindings.set(document, out);
  return out;
}

/**
 * Refuses a GraphQL operation whose variables or string literals hold a NUL
 * character, before it runs: one error with `extensions.code:
 * validation_failed` and `errors` naming each place.
 */
export function refuseNulCharacters(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const findings = [
        ...nulCharacterPaths(args.variableValues ?? {}, '').map((f) => ({ ...f, field: `$${f.field}` })),
        ...nulInDocument(args.document),
      ];
      if (!findings.length) return;
      setResultAndStopExecution({
        errors: [
          new GraphQLError(`${findings.map((f) => `${f.field}: ${f.message}`).join('; ')}`, {
            extensions: { code: 'validation_failed', errors: findings },
          }),
        ],
      });
    },
  };
}
