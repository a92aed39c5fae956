import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

const products = () => `/api/v1/merchant/stores/${a.storeId}/products`;

describe('operations endpoints', () => {
  it('/healthz answers without touching the database; /readyz checks it', async () => {
    expect(await t.request('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await t.request('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('gives every response an X-Request-Id, echoing a sane incoming one', async () => {
    const own = await t.request('GET', '/healthz');
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.request('GET', '/nope', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    expect(echoed.body.request_id).toBe('trace-123');
    const unsafe = await t.request('GET', '/healthz', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(unsafe.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });
});

describe('problem+json errors', () => {
  it('unknown route: 404 problem', async () => {
    const res = await t.request('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toEqual({
      type: expect.stringContaining('route_not_found'),
      title: 'Not Found',
      status: 404,
      detail: 'No endpoint GET /api/v1/nothing-here',
      code: 'route_not_found',
      request_id: res.headers.get('x-request-id'),
    });
  });

  it('wrong method on a known path: 405 with Allow', async () => {
    const res = await t.request('PATCH', products(), { token: a.ownerToken, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.headers.get('allow')).toContain('POST');
    expect(res.body.code).toBe('method_not_allowed');
  });

  it('malformed JSON: 400 malformed_json; wrong content type: 415; non-object body: 400', async () => {
    const bad = await t.request('POST', products(), { token: a.ownerToken, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(bad).toMatchObject({ status: 400, body: { code: 'malformed_json' } });
    const form = await t.request('POST', products(), { token: a.ownerToken, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
    const arr = await t.request('POST', products(), { token: a.ownerToken, body: [1, 2] });
    expect(arr).toMatchObject({ status: 400, body: { code: 'bad_request' } });
  });

  it('a JSON body over 1 MiB: 413', async () => {
    const res = await t.request('POST', products(), { token: a.ownerToken, body: { name: 'x'.repeat(1_100_000) } });
    expect(res).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
  });

  it('validation errors: 422 with every field error in snake_case', async () => {
    const res = await t.request('POST', products(), { token: a.ownerToken, body: { name: '', price: -1, inventory_quantity: 1.5, category_slugs: ['shoes'] } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    // Every field error at once: the type error and the rules the other fields break.
    expect(res.body.errors).toEqual([
      { field: 'inventory_quantity', code: 'invalid_type', message: 'must be an integer' },
      { field: 'name', code: 'too_small', message: 'must not be empty' },
      { field: 'price', code: 'invalid_value', message: 'must be a number >= 0 with at most 2 decimals and below 10,000,000,000' },
    ]);
    const fields = await t.request('POST', products(), { token: a.ownerToken, body: { name: '', price: -1, category_slugs: ['shoes'] } });
    expect(fields.status).toBe(422);
    expect(fields.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'price']);
    const unknown = await t.request('POST', products(), { token: a.ownerToken, body: { name: 'x', price: 1, category_slugs: ['shoes'], colour: 'red' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ field: 'colour', code: 'unknown_field' })]);
  });
});

describe('GraphQL endpoint', () => {
  it('serves GraphiQL from bundled assets (no CDN)', async () => {
    const res = await t.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('GraphiQL');
    expect(res.text).not.toMatch(/<script[^>]+src="https?:\/\//);
    expect(res.text).not.toMatch(/<link[^>]+href="https?:\/\//);
  });

  it('masks unexpected errors and keeps typed ones', async () => {
    const res = await t.graphql('{ product(storeId: "not-a-uuid", id: "x") { id } }', {}, { token: a.ownerToken });
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
    const syntax = await t.graphql('{ nope }', {}, { token: a.ownerToken });
    expect(syntax.body.errors[0].message).toContain('Cannot query field "nope"');
  });
});
