/** Examples for the OpenAPI document, built from schemas and the error catalogue. */

import { exampleProblem } from '../docs/problemExamples';
import { type ErrorCode, STATUS_BY_CODE } from '../../platform/errors';

/**
 * Examples for the OpenAPI document, so that every operation shows what goes in and comes out:
 *
 * - Error responses become problem+json responses whose examples are real problem documents, one per code the
 *   response can carry: the codes its description names (with the response's status), or the usual ones of
 *   that status and surface. Their `type` is the page that explains the code.
 * - A request or response body that declares no example gets one built from its schema: a schema's own
 *   `example`/`examples`/`default`/`const`/first `enum` value wins, then a value that suits the property's name
 *   and format. Hand-written examples in a route's fragment are kept as they are.
 */

type Json = Record<string, any>;

const DEFAULT_CODES: Record<string, ErrorCode[]> = {
  '400': ['bad_request'],
  '401': ['unauthenticated', 'invalid_token'],
  '403': ['forbidden'],
  '404': ['not_found'],
  '405': ['method_not_allowed'],
  '409': ['conflict'],
  '412': ['precondition_failed'],
  '413': ['payload_too_large'],
  '415': ['unsupported_media_type'],
  '422': ['validation_failed'],
  '429': ['rate_limited'],
  '500': ['internal_error'],
  '502': ['provider_error'],
  '503': ['service_unavailable'],
  '504': ['provider_timeout'],
};

/** The usual client errors of a surface, for a 4XX response that names none. */
const SURFACE_CODES: Record<string, ErrorCode[]> = {
  dashboard: ['unauthenticated', 'invalid_token', 'forbidden', 'not_found', 'validation_failed'],
  public: ['unauthenticated', 'invalid_api_key', 'insufficient_scope', 'mode_mismatch', 'not_found', 'validation_failed', 'rate_limited'],
  oauth: ['oauth_not_enabled', 'method_not_allowed', 'unsupported_media_type'],
  none: ['not_found', 'validation_failed'],
};

const matchesStatus = (key: string, status: number) => (/^\dXX$/.test(key) ? Math.floor(status / 100) === Number(key[0]) : status === Number(key));

/** The error codes a response with this status key and description carries. */
function codesOf(key: string, description: string, surface: string): ErrorCode[] {
  const named = [...new Set(description.match(/[a-z]+(?:_[a-z]+)*/g) ?? [])].filter(
    (w): w is ErrorCode => Object.hasOwn(STATUS_BY_CODE, w) && matchesStatus(key, STATUS_BY_CODE[w as ErrorCode]),
  );
  if (named.length) return named;
  if (key === '4XX') return SURFACE_CODES[surface] ?? SURFACE_CODES.none;
  if (key === '5XX') return ['internal_error', 'service_unavailable'];
  return DEFAULT_CODES[key] ?? [];
}

function problemContent(baseUrl: string, codes: ErrorCode[]) {
  return {
    'application/problem+json': {
      schema: { $ref: '#/components/schemas/Problem' },
      examples: Object.fromEntries(codes.map((code) => [code, { summary: `${STATUS_BY_CODE[code]} ${code}`, value: exampleProblem(baseUrl, code) }])),
    },
  };
}

const isError = (key: string) => /^[45]/.test(key);

/** Fills in the examples of every operation of `doc` (in place). */
export function completeExamples(doc: Json, baseUrl: string, surfaceOf: (path: string, op: Json) => string): void {
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const op of Object.values(item as Json) as Json[]) {
      const surface = surfaceOf(path, op);
      for (const [key, response] of Object.entries(op.responses as Json)) {
        const description: string = response.description ?? '';
        if (isError(key) && (response.$ref === '#/components/responses/Problem' || !response.content)) {
          // A problem reference may name other media types beside it (an error page for a browser): they are kept.
          const content = { ...problemContent(baseUrl, codesOf(key, description, surface)), ...(response.$ref ? (response.content ?? {}) : {}) };
          op.responses[key] = { description, ...(response.headers ? { headers: response.headers } : {}), content };
          continue;
        }
        for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
          if (type === 'application/problem+json') absoluteProblemTypes(media, baseUrl);
          fillExample(media, doc, 'read');
        }
      }
      for (const media of Object.values((op.requestBody?.content ?? {}) as Json)) fillExample(media, doc, 'write');
    }
  }
}

/** A hand-written problem example may give its type as /docs/errors/<code>: it is made absolute like the service's own. */
function absoluteProblemTypes(media: Json, baseUrl: string): void {
  const values = [media.example, ...Object.values((media.examples ?? {}) as Json).map((e) => (e as Json).value)];
  for (const value of values) {
    if (value && typeof value.type === 'string' && value.type.startsWith('/')) value.type = `${baseUrl}${value.type}`;
  }
}

function fillExample(media: Json, doc: Json, direction: 'read' | 'write'): void {
  if (media.example !== undefined || media.examples !== undefined || !media.schema) return;
  media.example = exampleOf(media.schema, doc, direction);
}

const STRINGS: Record<string, string> = {
  name: 'Organic Cotton T-Shirt',
  description: 'Soft organic cotton with a regular fit.',
  currency: 'EUR',
  default_currency: 'EUR',
  sku: 'TEE-BLK-M',
  slug: 'organic-cotton-t-shirt',
  title: 'Organic Cotton T-Shirt | Demo Store',
  alt: 'Front view',
  mime_type: 'image/jpeg',
  sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  code: 'DE',
  country: 'DE',
  language: 'en',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  event_type: 'product.updated',
  mode: 'test',
  resource_type: 'product',
  provider: 'local',
  model: 'local-template',
  next_cursor: 'eyJpZCI6IjQyIn0',
  cursor: 'eyJpZCI6IjQyIn0',
  error: 'connect ECONNREFUSED',
};

const STRING_LISTS: Record<string, string[]> = {
  category_slugs: ['shirts'],
  tags: ['organic', 'summer'],
  event_types: ['product.created', 'product.updated'],
  supported_currencies: ['EUR'],
  scopes: ['products:read'],
};

/** A value that fits `schema`, preferring the schema's own example; `key` is the property's name. */
function exampleOf(schema: Json, doc: Json, direction: 'read' | 'write', key = '', depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if (schema.$ref) {
    const target = (schema.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json | undefined>((node, part) => node?.[part], doc);
    return exampleOf(target ?? {}, doc, direction, key, depth + 1);
  }
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.find((v: unknown) => v !== null) ?? schema.enum[0];
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives) && alternatives.length) return exampleOf(alternatives[0], doc, direction, key, depth + 1);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((s: Json) => exampleOf(s, doc, direction, key, depth + 1)));
  const type = Array.isArray(schema.type) ? (schema.type.find((t: string) => t !== 'null') ?? 'null') : schema.type;
  switch (type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined)) {
    case 'object': {
      const out: Json = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Json)) {
        // A request example sends what a client would: no read-only fields, and no optional field that may be null (a schedule, say).
        if (direction === 'write' && (property.readOnly || (!required.has(name) && Array.isArray(property.type) && property.type.includes('null')))) continue;
        out[name] = exampleOf(property, doc, direction, name, depth + 1);
      }
      return out;
    }
    case 'array':
      if (STRING_LISTS[key]) return STRING_LISTS[key];
      return schema.items ? [exampleOf(schema.items, doc, direction, key, depth + 1)] : [];
    case 'integer':
      return key === 'position' ? 0 : Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 42, key.endsWith('_quantity') ? 25 : key === 'version' ? 3 : 1));
    case 'number':
      return key === 'price' || key.endsWith('_price') ? 29.9 : Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return key.startsWith('is_') || key === 'has_more' ? true : false;
    case 'string':
      return stringExample(schema, key, direction);
    case 'null':
      return null;
    default:
      return null;
  }
}

function stringExample(schema: Json, key: string, direction: 'read' | 'write'): string {
  if (key === 'url') return direction === 'write' ? 'https://partner.example.com/webhooks/catalog' : 'https://catalog.example.com/uploads/9f86d081.jpg';
  switch (schema.format) {
    case 'date-time':
      return '2026-11-24T09:30:00.000Z';
    case 'date':
      return '2026-11-24';
    case 'uuid':
      return '3f8e2a4c-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
    case 'uri':
      return 'https://www.example.com/products/organic-cotton-t-shirt';
    case 'email':
      return 'ana@example.com';
    case 'binary':
      return '(the file’s bytes)';
  }
  if (STRINGS[key]) return STRINGS[key];
  if (key === 'id' || key.endsWith('_id')) return '3f8e2a4c-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
  if (key.endsWith('_at')) return '2026-11-24T09:30:00.000Z';
  return 'text';
}
