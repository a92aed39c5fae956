import { GraphQLError } from 'graphql';
import { db } from '../../src/platform/db/client';
import { ERROR_CATALOG } from '../../src/api/docs/errorCatalog';
import { type ErrorCode, STATUS_BY_CODE } from '../../src/platform/errors';
import { DOCUMENT_ERROR_CODES, documentedError } from '../../src/api/graphql/requestErrors';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * Every error /graphql answers with before (or instead of) a resolver's own: each request kind
 * goes through the real handler and must answer a documented code with the status its page
 * gives, in the service's words, with nothing of the server in the body.
 */
let t: TestServer;
let a: StoreFixture;
let email: string;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  email = (await db().user.findUniqueOrThrow({ where: { id: a.ownerId } })).email;
});
afterAll(() => t?.close());

const JSON_ONLY = 'application/json';
const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const BOUNDARY = 'reqErrBoundary';
const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nxx\r\n`;
const END = `--${BOUNDARY}--\r\n`;
const q = (document: string) => encodeURIComponent(document);

interface Sent {
  method?: string;
  path?: string;
  /** A raw body (sent as is) or a value sent as JSON. */
  raw?: string;
  json?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** Send the owner's token. */
  auth?: boolean;
  /** The error comes from a resolver: HTTP 200 with the code, as for any field error. */
  resolver?: boolean;
}

/** What a client sends that GraphQL or HTTP itself refuses, and the documented code it answers. */
const CASES: [string, Sent, ErrorCode][] = [
  ['malformed JSON body', { raw: '{"query":' }, 'malformed_json'],
  ['a body that is not JSON at all', { raw: 'query { __typename }' }, 'malformed_json'],
  ['JSON with a syntax error in the middle', { raw: '{"query": "{ __typename }",, }' }, 'malformed_json'],
  ['an empty JSON body', { raw: '' }, 'malformed_json'],
  ['a body that is null', { raw: 'null' }, 'bad_request'],
  ['a body that is a number', { raw: '42' }, 'bad_request'],
  ['a body that is a string', { raw: '"{ __typename }"' }, 'bad_request'],
  ['a batch (JSON array of operations)', { json: [{ query: '{ __typename }' }, { query: '{ __typename }' }] }, 'bad_request'],
  ['an empty batch', { json: [] }, 'bad_request'],
  ['no query', { json: { variables: {} } }, 'bad_request'],
  ['query not a string', { json: { query: 1 } }, 'bad_request'],
  ['query an object', { json: { query: { kind: 'Document' } } }, 'bad_request'],
  ['variables not an object', { json: { query: '{ __typename }', variables: 'x' } }, 'bad_request'],
  ['variables an array', { json: { query: '{ __typename }', variables: [1] } }, 'bad_request'],
  ['extensions not an object', { json: { query: '{ __typename }', extensions: 'x' } }, 'bad_request'],
  ['operationName not a string', { json: { query: '{ __typename }', operationName: 1 } }, 'bad_request'],
  ['an unknown parameter', { json: { query: '{ __typename }', qeury: 1 } }, 'bad_request'],
  ['a persisted query (hash only)', { json: { extensions: { persistedQuery: { version: 1, sha256Hash: 'ab'.repeat(32) } } } }, 'bad_request'],
  ['a persisted document id', { json: { documentId: 'abc' } }, 'bad_request'],
  ['a syntax error in the document', { json: { query: '{' } }, 'graphql_parse_failed'],
  ['an unknown field', { json: { query: '{ nope }' } }, 'graphql_validation_failed'],
  ['a literal of the wrong type', { json: { query: '{ products(storeId: 1, perPage: "ten") { __typename } }' } }, 'graphql_validation_failed'],
  ['a subscription (the schema has none)', { json: { query: 'subscription { x }' } }, 'graphql_validation_failed'],
  ['an unknown operationName', { json: { query: 'query A { __typename }', operationName: 'B' } }, 'unknown_operation'],
  ['several operations without operationName', { json: { query: 'query A { __typename } query B { __typename }' } }, 'unknown_operation'],
  ['a variable of the wrong type', { json: { query: 'query($b: Boolean!) { __typename @include(if: $b) }', variables: { b: 'yes' } } }, 'invalid_variables'],
  ['a required variable left out', { json: { query: 'query($b: Boolean!) { __typename @include(if: $b) }' } }, 'invalid_variables'],
  ['a file variable that is a string', { json: { query: 'mutation($s: ID!, $f: Upload!) { startProductImport(storeId: $s, file: $f) { id } }', variables: { s: 'x', f: 'x' } } }, 'invalid_variables'],
  ['GET without a query', { method: 'GET' }, 'bad_request'],
  ['GET with variables that are not JSON', { method: 'GET', path: `/graphql?query=${q('{ __typename }')}&variables=%7Bx` }, 'malformed_json'],
  ['GET with extensions that are not JSON', { method: 'GET', path: `/graphql?query=${q('{ __typename }')}&extensions=nope` }, 'malformed_json'],
  ['GET with a syntax error', { method: 'GET', path: `/graphql?query=${q('{')}` }, 'graphql_parse_failed'],
  ['a mutation over GET', { method: 'GET', path: `/graphql?query=${q('mutation { signOut }')}` }, 'method_not_allowed'],
  ['PUT', { method: 'PUT', json: { query: '{ __typename }' } }, 'method_not_allowed'],
  ['DELETE', { method: 'DELETE' }, 'method_not_allowed'],
  ['PATCH', { method: 'PATCH', json: { query: '{ __typename }' } }, 'method_not_allowed'],
  ['a type Yoga reads no GraphQL from (text/plain, CSRF header sent)', { raw: '{"query":"{ __typename }"}', contentType: 'text/plain', headers: { 'x-graphql-yoga-csrf': '1' } }, 'unsupported_media_type'],
  ['application/xml', { raw: '<query/>', contentType: 'application/xml' }, 'unsupported_media_type'],
  ['a form (a browser could send it cross-site)', { raw: 'query=%7B__typename%7D', contentType: 'application/x-www-form-urlencoded' }, 'unsupported_media_type'],
  ['text/plain without the CSRF header', { raw: '{"query":"{ __typename }"}', contentType: 'text/plain' }, 'csrf_header_required'],
  ['an Accept GraphQL cannot answer', { json: { query: '{ __typename }' }, headers: { accept: 'application/xml' } }, 'not_acceptable'],
  ['an Accept charset other than UTF-8', { json: { query: '{ __typename }' }, headers: { accept: 'application/json; charset=latin1' } }, 'not_acceptable'],
  ['a document over the token limit', { json: { query: `{ ${'__typename '.repeat(3000)}}` } }, 'query_too_large'],
  ['a body over 1 MiB', { json: { query: '{ __typename }', variables: { pad: 'x'.repeat(1_100_000) } } }, 'payload_too_large'],
  ['a malformed token', { json: { query: '{ __typename }' }, headers: { authorization: 'Bearer svc_dash_nope' } }, 'invalid_token'],
  ['a mode that does not exist', { json: { query: '{ __typename }' }, headers: { 'x-service-mode': 'staging' } }, 'invalid_mode'],
];

const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;
const upload = (body: string, extra: Partial<Sent> = {}): Sent => ({ raw: body, contentType: MULTIPART, headers: { 'x-graphql-yoga-csrf': '1' }, ...extra });
const IMPORT = 'mutation($s: ID!, $f: Upload!) { startProductImport(storeId: $s, file: $f) { id } }';
const IMAGE = 'mutation($s: ID!, $f: Upload!) { uploadProductImage(storeId: $s, file: $f) { id } }';

/** Upload requests (graphql-multipart-request-spec), read before Yoga sees them. */
const UPLOAD_CASES: [string, () => Sent, ErrorCode][] = [
  ['garbage instead of parts', () => upload('this is not multipart'), 'bad_request'],
  ['no boundary', () => upload('x', { contentType: 'multipart/form-data' }), 'bad_request'],
  ['only the closing boundary', () => upload(END), 'bad_request'],
  ['operations that are not JSON', () => upload(part('operations', '{not json') + part('map', '{}') + END), 'bad_request'],
  ['operations that are not an object', () => upload(part('operations', '"x"') + part('map', '{}') + END), 'bad_request'],
  ['operations that are a batch', () => upload(part('operations', '[{"query":"{ __typename }"}]') + part('map', '{}') + END), 'bad_request'],
  ['a map that is not JSON', () => upload(part('operations', '{"query":"{ __typename }"}') + part('map', '[[[') + END), 'bad_request'],
  ['a map before operations', () => upload(part('map', '{}') + part('operations', '{"query":"{ __typename }"}') + END), 'bad_request'],
  ['no map', () => upload(part('operations', '{"query":"{ __typename }"}') + END), 'bad_request'],
  ['a map entry that is not an array', () => upload(part('operations', '{"query":"{ __typename }"}') + part('map', '{"0":"x"}') + filePart('0') + END), 'bad_request'],
  ['a map path operations does not have', () => upload(part('operations', '{"query":"{ __typename }"}') + part('map', '{"0":["variables.no.where"]}') + filePart('0') + END), 'bad_request'],
  ['a file before the map', () => upload(part('operations', '{"query":"{ __typename }"}') + filePart('0') + part('map', '{}') + END), 'bad_request'],
  [
    'more than 10 files',
    () =>
      upload(
        part('operations', JSON.stringify({ query: '{ __typename }', variables: { f: Array(11).fill(null) } })) +
          part('map', JSON.stringify(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(i), [`variables.f.${i}`]])))) +
          Array.from({ length: 11 }, (_, i) => filePart(String(i))).join('') +
          END,
      ),
    'payload_too_large',
  ],
  [
    'an import file the map names but the request lacks',
    () => upload(part('operations', JSON.stringify({ query: IMPORT, variables: { s: a.storeId, f: null } })) + part('map', '{"0":["variables.f"]}') + END, { auth: true, resolver: true }),
    'bad_request',
  ],
  [
    'an image the map names but the request lacks',
    () => upload(part('operations', JSON.stringify({ query: IMAGE, variables: { s: a.storeId, f: null } })) + part('map', '{"0":["variables.f"]}') + END, { auth: true, resolver: true }),
    'bad_request',
  ],
];

async function send(s: Sent, accept: string) {
  const headers: Record<string, string> = { accept, ...(s.headers ?? {}) };
  if (s.auth) headers.authorization = `Bearer ${a.ownerToken}`;
  const body = s.json !== undefined ? JSON.stringify(s.json) : s.raw;
  if (body !== undefined) headers['content-type'] ??= s.contentType ?? 'application/json';
  return t.request(s.method ?? 'POST', s.path ?? '/graphql', { rawBody: body, headers });
}

/** The codes of an answer: a GraphQL response's every error, or a problem document's code. */
function codesOf(res: { headers: Headers; body: any }): unknown[] {
  if (res.headers.get('content-type') === 'application/problem+json') return [res.body?.code];
  return (res.body?.errors ?? []).map((e: any) => e?.extensions?.code);
}

/** Anything of the server: an exception, its class or stack, a library's name or a parser's own wording. */
const INTERNALS =
  /originalError|"stack"|\bat [\w.<>]+ \(|(?:Syntax|Type|Range|Reference)Error|HttpError|AppError|graphql-upload|busboy|jaydenseric|README|[Yy]oga(?!-CSRF)|Unexpected token|Unexpected end of JSON|in JSON at position|Expected property name|"[A-Z]+(?:_[A-Z]+)+"/;

/** The status the code's page gives, and for a request error of a well-formed request the 200 GraphQL over HTTP asks of application/json. */
const expectedStatus = (code: ErrorCode, accept: string) => (accept === JSON_ONLY && DOCUMENT_ERROR_CODES.has(code) ? 200 : STATUS_BY_CODE[code]);

const seen = new Set<string>();

describe.each([JSON_ONLY, GRAPHQL_RESPONSE])('/graphql request errors, Accept: %s', (accept) => {
  it.each(CASES.map(([what, sent, code]) => [what, code, sent] as const))('%s: answers %s', async (_what, code, sent) => {
    await expectDocumented(await send(sent, accept), code, expectedStatus(code, accept));
  });

  it.each(UPLOAD_CASES.map(([what, sent, code]) => [what, code, sent] as const))('upload, %s: answers %s', async (_what, code, sent) => {
    const s = sent();
    await expectDocumented(await send(s, accept), code, s.resolver ? 200 : expectedStatus(code, accept));
  });
});

async function expectDocumented(res: Awaited<ReturnType<typeof send>>, code: ErrorCode, status: number) {
  const codes = codesOf(res);
  expect(codes.length).toBeGreaterThan(0);
  for (const c of codes) {
    expect(Object.hasOwn(ERROR_CATALOG, c as string) ? c : `undocumented ${String(c)}`).toBe(c);
    seen.add(c as string);
  }
  expect({ code: codes[0], status: res.status }).toEqual({ code, status });
  expect(res.headers.get('content-type')).toMatch(/^application\/(json|graphql-response\+json|problem\+json)\b/);
  expect(res.text).not.toMatch(INTERNALS);
  if (code === 'method_not_allowed') expect(res.headers.get('allow')).toMatch(/POST/);
}

describe('/graphql request errors', () => {
  it('a malformed JSON body says where, in the service’s words', async () => {
    const res = await send({ raw: '{"query": "{ __typename }",, }' }, JSON_ONLY);
    expect(res.body).toEqual({ errors: [{ message: 'The request body is not valid JSON (line 1, column 28)', extensions: { code: 'malformed_json' } }] });
  });

  it('a syntax or validation error keeps graphql-js’s message and its location', async () => {
    const parse = await send({ json: { query: '{' } }, GRAPHQL_RESPONSE);
    expect(parse.body.errors[0]).toEqual({ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 2 }], extensions: { code: 'graphql_parse_failed' } });
    const unknown = await send({ json: { query: '{ nope }' } }, GRAPHQL_RESPONSE);
    expect(unknown.body.errors[0]).toMatchObject({ message: 'Cannot query field "nope" on type "Query".', locations: [{ line: 1, column: 3 }] });
  });

  it('an Accept it cannot answer is refused before the operation runs', async () => {
    const tokens = () => db().dashboardToken.count({ where: { userId: a.ownerId, name: 'login' } });
    const before = await tokens();
    const res = await send({ json: { query: `mutation { login(email: "${email}", password: "correct horse battery") { token } }` } }, 'text/csv');
    expect(res.status).toBe(406);
    expect(await tokens()).toBe(before);
  });

  it('an error of no known kind is masked as internal_error', () => {
    expect(documentedError(new GraphQLError('Some library said something', { extensions: { code: 'SOME_LIBRARY_CODE' } }))).toBeNull();
    expect(documentedError(new GraphQLError('x', { extensions: { code: 'forbidden', originalError: { name: 'TypeError' } } }))?.extensions).toEqual({ code: 'forbidden' });
  });

  it('every code seen has its page, which gives the status it was answered with', async () => {
    expect(seen.size).toBeGreaterThan(10);
    for (const code of seen) {
      const page = await t.request('GET', `/docs/errors/${code}`);
      expect({ code, status: page.status }).toEqual({ code, status: 200 });
      expect(page.text).toContain(`<strong id="status">${STATUS_BY_CODE[code as ErrorCode]}</strong>`);
      if (DOCUMENT_ERROR_CODES.has(code as ErrorCode)) expect(page.text).toMatch(/application\/json gets 200/);
    }
  });
});
