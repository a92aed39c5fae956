import fc from 'fast-check';
import {
  getNamedType,
  type GraphQLArgument,
  type GraphQLField,
  GraphQLEnumType,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  isLeafType,
} from 'graphql';

/**
 * Generators for the fuzz tests (test/reliability/fuzz.test.ts): requests for
 * every REST operation of the OpenAPI document and documents for every root
 * field of the GraphQL schema. Values mix the valid (known ids, enum values,
 * numbers in range) with the hostile (NUL, huge numbers, wrong types, deep or
 * odd JSON), so both the happy path and the edges are reached.
 */

type Json = Record<string, any>;

export interface FuzzIds {
  storeId: string;
  productIds: string[];
  categories: string[];
}

/** Strings a client might send, printable or not. */
export const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '%00', '💥', '\uD800', 'null', 'true', '-1', '0', '1e309', 'NaN', '9'.repeat(40), "'; DROP TABLE products;--", '<script>', '../../etc/passwd'),
  fc.string({ maxLength: 3 }).map((s) => s.repeat(2000)),
);

const anyScalar = fc.oneof(hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((b) => Number(b)));

/** A JSON value for a schema (an OpenAPI schema object), sometimes of the wrong type. */
function valueFor(schema: Json | undefined, components: Json, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return anyScalar;
  if (schema.$ref) return valueFor(components.schemas?.[String(schema.$ref).split('/').pop()!], components, depth + 1);
  const alternatives: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) alternatives.push(fc.constantFrom(...schema.enum));
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (type === 'string') alternatives.push(hostileString, fc.constantFrom(...(schema.format === 'date-time' ? ['2030-01-01T00:00:00Z', '2000-01-01T00:00:00Z', 'yesterday'] : ['x'])));
  if (type === 'integer' || type === 'number') {
    alternatives.push(fc.integer({ min: -5, max: 1000 }), fc.double(), fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, 1e308));
  }
  if (type === 'boolean') alternatives.push(fc.boolean());
  if (type === 'array' || schema.items) alternatives.push(fc.array(valueFor(schema.items, components, depth + 1), { maxLength: 5 }));
  if (type === 'object' || schema.properties) alternatives.push(objectFor(schema, components, depth + 1));
  alternatives.push(anyScalar);
  return fc.oneof({ depthSize: 'small' }, ...alternatives);
}

function objectFor(schema: Json, components: Json, depth: number): fc.Arbitrary<Json> {
  const properties = Object.entries((schema.properties ?? {}) as Json);
  const known = fc.record(Object.fromEntries(properties.map(([k, v]) => [k, valueFor(v, components, depth)])), { requiredKeys: [] });
  return fc.tuple(known, fc.dictionary(fc.string({ maxLength: 12 }), anyScalar, { maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a }));
}

export interface RestCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
  operationId: string;
}

const HEADER_SAFE = /^[\t\x20-\x7e]*$/;

/** Percent-encodes every byte of the UTF-8 form (a lone surrogate becomes U+FFFD, as a browser would send it). */
const encodePathSegment = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');

/** One request for one operation of the OpenAPI document. */
export function restCase(openapi: Json, ids: FuzzIds, credentials: { dashboard: string; publicKeys: string[] }, image: Buffer): fc.Arbitrary<RestCase> {
  const operations: fc.Arbitrary<RestCase>[] = [];
  for (const [template, item] of Object.entries(openapi.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      const params = (op.parameters ?? []) as Json[];
      const isPublic = template.startsWith('/api/public/');
      const pathValue = (name: string) =>
        name === 'storeID' || name === 'storeId'
          ? fc.constantFrom(ids.storeId, ids.storeId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid')
          : fc.oneof(fc.constantFrom(...ids.productIds), fc.uuid(), hostileString.filter((s) => s.length > 0 && s.length < 200));
      const pathArb = fc.record(Object.fromEntries(params.filter((p) => p.in === 'path').map((p) => [p.name, pathValue(p.name)]))).map((values) =>
        template.replace(/\{(\w+)\}/g, (_, name: string) => encodePathSegment(String((values as Record<string, unknown>)[name]))),
      );
      const queryArb = fc
        .tuple(
          fc.record(Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, valueFor(p.schema, openapi.components).map(String)])), { requiredKeys: [] }),
          fc.dictionary(fc.constantFrom('page', 'per_page', 'sort', 'mode', 'cursor', 'x', 'search'), hostileString.map(String), { maxKeys: 2 }),
        )
        .map(([declared, extra]) => {
          const q = new URLSearchParams();
          for (const [k, v] of Object.entries({ ...extra, ...declared })) q.append(k, String(v));
          const s = q.toString();
          return s ? `?${s}` : '';
        });
      const credential = isPublic
        ? fc.oneof(fc.constantFrom(...credentials.publicKeys).map((k) => `Bearer ${k}`), fc.constantFrom('', 'Bearer nope', 'Basic eA=='))
        : fc.oneof(fc.constant(`Bearer ${credentials.dashboard}`), fc.constant(`Bearer ${credentials.dashboard}`), fc.constantFrom('', 'Bearer x'));
      const headersArb = fc
        .record(
          {
            authorization: credential,
            'if-match': fc.oneof(fc.constantFrom('"v1"', '"v2"', '*', 'W/"v1"'), hostileString),
            'x-service-mode': fc.oneof(fc.constantFrom('test', 'live'), hostileString),
            'idempotency-key': hostileString,
          },
          { requiredKeys: ['authorization'] },
        )
        .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== '' && HEADER_SAFE.test(v)) as [string, string][]));
      const jsonSchema = op.requestBody?.content?.['application/json']?.schema;
      const multipart = op.requestBody?.content?.['multipart/form-data'];
      let bodyArb: fc.Arbitrary<{ body?: string | FormData; type?: string }> = fc.constant({});
      if (jsonSchema) {
        bodyArb = fc.oneof(
          { weight: 4, arbitrary: valueFor(jsonSchema, openapi.components).map((v) => ({ body: JSON.stringify(v), type: 'application/json' })) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => ({ body: JSON.stringify(v), type: 'application/json' })) },
          { weight: 1, arbitrary: fc.oneof(fc.string(), fc.constantFrom('{', '[1,', '{"a":1}}', '\u0000', 'null')).map((s) => ({ body: s, type: fc.sample(fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'), 1)[0] })) },
        );
      } else if (multipart) {
        bodyArb = fc
          .record(
            {
              file: fc.oneof(fc.constant(image), fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a))),
              fileType: fc.constantFrom('image/png', 'image/jpeg', 'application/octet-stream', 'text/plain', ''),
              fieldName: fc.constantFrom('image', 'file', 'x'),
              alt: fc.option(hostileString.map(String)),
              productId: fc.option(fc.oneof(fc.constantFrom(...ids.productIds), hostileString.map(String))),
            },
            { requiredKeys: ['file', 'fileType', 'fieldName'] },
          )
          .map((p) => {
            const form = new FormData();
            form.append(p.fieldName, new Blob([new Uint8Array(p.file)], p.fileType ? { type: p.fileType } : {}), 'upload.png');
            if (p.alt !== undefined && p.alt !== null) form.append('alt', p.alt);
            if (p.productId !== undefined && p.productId !== null) form.append('product_id', p.productId);
            return { body: form };
          });
      } else if (method !== 'get' && method !== 'delete') {
        bodyArb = fc.option(fc.jsonValue({ maxDepth: 3 }).map((v) => ({ body: JSON.stringify(v), type: 'application/json' })), { nil: {} }) as fc.Arbitrary<{ body?: string; type?: string }>;
      }
      operations.push(
        fc.tuple(pathArb, queryArb, headersArb, bodyArb).map(([path, query, headers, body]) => ({
          operationId: String(op.operationId ?? `${method} ${template}`),
          method: method.toUpperCase(),
          path: path + query,
          headers: { ...headers, ...(body.type ? { 'content-type': body.type } : {}) },
          body: method === 'get' || method === 'head' ? undefined : body.body,
        })),
      );
    }
  }
  return fc.oneof(...operations);
}

/** A GraphQL document (and variables) for one root field of the schema, with arguments of the right type or not. */
export function graphqlCase(schema: GraphQLSchema, ids: FuzzIds): fc.Arbitrary<{ query: string; variables: Json }> {
  const roots: [string, GraphQLObjectType][] = [
    ['query', schema.getQueryType()!],
    ['mutation', schema.getMutationType()!],
  ];
  const cases: fc.Arbitrary<{ query: string; variables: Json }>[] = [];
  for (const [kind, type] of roots) {
    for (const field of Object.values(type.getFields())) {
      cases.push(
        fc
          .tuple(fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: field.args.length, maxLength: field.args.length }), fc.tuple(...field.args.map((a) => inputValue(a.type, ids, 0))))
          .map(([choices, values]) => {
            const defs: string[] = [];
            const args: string[] = [];
            const variables: Json = {};
            field.args.forEach((arg: GraphQLArgument, i: number) => {
              const [include, asVariable] = choices[i];
              if (!include && !(arg.type instanceof GraphQLNonNull)) return;
              if (asVariable || values[i] === undefined) {
                defs.push(`$${arg.name}: ${String(arg.type)}`);
                args.push(`${arg.name}: $${arg.name}`);
                variables[arg.name] = values[i];
              } else {
                args.push(`${arg.name}: ${literal(values[i])}`);
              }
            });
            const selection = selectionOf(field);
            return {
              query: `${kind}${defs.length ? `(${defs.join(', ')})` : ''} { ${field.name}${args.length ? `(${args.join(', ')})` : ''}${selection} }`,
              variables,
            };
          }),
      );
    }
  }
  return fc.oneof(...cases);
}

function inputValue(type: GraphQLInputType, ids: FuzzIds, depth: number): fc.Arbitrary<unknown> {
  const wrong = anyScalar;
  if (type instanceof GraphQLNonNull) return inputValue(type.ofType, ids, depth);
  if (type instanceof GraphQLList) return fc.oneof(fc.array(inputValue(type.ofType, ids, depth + 1), { maxLength: 4 }), wrong);
  if (type instanceof GraphQLEnumType) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...type.getValues().map((v) => ({ enum: v.name }))) }, { weight: 1, arbitrary: wrong });
  if (type instanceof GraphQLInputObjectType) {
    if (depth > 3) return fc.constant({});
    const fields = Object.values(type.getFields());
    return fc.oneof(
      { weight: 5, arbitrary: fc.record(Object.fromEntries(fields.map((f) => [f.name, inputValue(f.type, ids, depth + 1)])), { requiredKeys: fields.filter((f) => f.type instanceof GraphQLNonNull).map((f) => f.name) }) },
      { weight: 1, arbitrary: wrong },
    );
  }
  const scalar = (type as GraphQLScalarType).name;
  const right: Record<string, fc.Arbitrary<unknown>> = {
    ID: fc.oneof(fc.constant(ids.storeId), fc.constantFrom(...ids.productIds), fc.uuid(), hostileString),
    String: fc.oneof(fc.constantFrom(...ids.categories), hostileString),
    Int: fc.oneof(fc.integer({ min: -3, max: 200 }), fc.constantFrom(2 ** 31 - 1, -(2 ** 31))),
    Float: fc.double({ noNaN: true, noDefaultInfinity: true }),
    Boolean: fc.boolean(),
    DateTime: fc.constantFrom('2030-01-01T00:00:00Z', '1999-01-01T00:00:00Z', 'not a date'),
    Decimal: fc.oneof(fc.constantFrom('1', '0.01', '-1', '1e9', '99999999999.999'), hostileString),
  };
  return fc.oneof({ weight: 4, arbitrary: right[scalar] ?? hostileString }, { weight: 1, arbitrary: wrong });
}

/** A value as a GraphQL literal; enum values are marked { enum } by inputValue. */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object' && v !== null && 'enum' in v && Object.keys(v).length === 1) return String((v as { enum: string }).enum);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  if (typeof v === 'object') return `{${Object.entries(v as Json).map(([k, x]) => `${/^[_A-Za-z][_0-9A-Za-z]*$/.test(k) ? k : '_bad'}: ${literal(x)}`).join(', ')}}`;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '0';
  return JSON.stringify(v);
}

/** Enum markers become plain names in variables. */
export function variablesForTransport(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(variablesForTransport);
  if (v && typeof v === 'object') {
    if ('enum' in v && Object.keys(v).length === 1) return (v as { enum: string }).enum;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, variablesForTransport(x)]));
  }
  return v;
}

/** Every scalar field of the return type (and of the objects one level down), so resolvers run. */
function selectionOf(field: GraphQLField<unknown, unknown>): string {
  const type = getNamedType(field.type);
  if (isLeafType(type)) return '';
  if (!(type instanceof GraphQLObjectType)) return ' { __typename }';
  const parts = ['__typename'];
  for (const f of Object.values(type.getFields())) {
    if (f.args.some((a) => a.type instanceof GraphQLNonNull)) continue;
    const inner = getNamedType(f.type);
    if (isLeafType(inner)) parts.push(f.name);
    else if (inner instanceof GraphQLObjectType) {
      const leaves = Object.values(inner.getFields())
        .filter((g) => isLeafType(getNamedType(g.type)) && !g.args.some((a) => a.type instanceof GraphQLNonNull))
        .slice(0, 6)
        .map((g) => g.name);
      if (leaves.length) parts.push(`${f.name} { ${leaves.join(' ')} }`);
    }
  }
  return ` { ${parts.join(' ')} }`;
}
