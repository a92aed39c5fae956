import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/** Hostile request bodies answer 4xx with a stable code, never 500. */
let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

const products = () => `/api/v1/merchant/stores/${a.storeId}/products`;
const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('deeply nested REST JSON', () => {
  it.each([
    ['arrays', nested(100_000)],
    ['objects', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)],
  ])('100,000 levels of %s: 400 bad_request naming the limit, before any recursion', async (_kind, deep) => {
    const res = await t.request('POST', products(), { token: a.ownerToken, rawBody: `{"name": "x", "tags": ${deep}}`, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', max_depth: 32 });
    expect(res.body.detail).toMatch(/nest/i);
  });

  it('a body just past the limit is refused; one at the limit reaches validation', async () => {
    const over = await t.request('PUT', `${products()}/00000000-0000-0000-0000-000000000000/seo`, {
      token: a.ownerToken,
      rawBody: `{"title": ${nested(32)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(over).toMatchObject({ status: 400, body: { code: 'bad_request' } });
    const within = await t.request('POST', products(), { token: a.ownerToken, rawBody: `{"name": "x", "tags": ${nested(31)}}`, headers: { 'content-type': 'application/json' } });
    expect(within.status).toBe(422);
  });

  it('brackets inside strings do not count', async () => {
    const res = await t.request('POST', products(), { token: a.ownerToken, body: { name: '['.repeat(5000), price: 1, category_slugs: [] } });
    expect(res.status).toBe(422);
  });
});

describe('malformed GraphQL multipart bodies', () => {
  const boundary = 'XyZb0undary';
  const post = (body: string, contentType = `multipart/form-data; boundary=${boundary}`) =>
    t.request('POST', '/graphql', { token: a.ownerToken, rawBody: body, headers: { 'content-type': contentType, 'x-graphql-yoga-csrf': '1' } });
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

  it.each([
    ['no boundary', () => post('garbage', 'multipart/form-data')],
    ['garbage instead of parts', () => post('this is not multipart at all')],
    ['a body cut off mid-part', () => post(`--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":`)],
    ['operations that are not JSON', () => post(part('operations', '{not json') + part('map', '{}') + `--${boundary}--\r\n`)],
    ['a map that is not JSON', () => post(part('operations', '{"query":"{ __typename }"}') + part('map', '[[[') + `--${boundary}--\r\n`)],
    ['a part header without a name', () => post(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--\r\n`)],
  ])('%s: 400 with a stable code, never 500', async (_what, send) => {
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body.code ?? res.body.errors?.[0]?.extensions?.code).toMatch(/^(bad_request|malformed_json)$/);
  });
});
