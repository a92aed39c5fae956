import fc from 'fast-check';
import { db } from '../../src/platform/db/client';
import { schema } from '../../src/schema';
import { makeImage } from '../images/images';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct } from '../products/helpers';
import { createKey } from '../public/helpers';
import { type FuzzIds, graphqlCase, restCase, variablesForTransport } from './fuzzInputs';
import { takeContractViolations } from '../helpers/contractViolations';

/**
 * Property tests over every REST operation of the OpenAPI document and every
 * root field of the GraphQL schema, with generated paths, query strings,
 * headers, JSON bodies, multipart parts, arguments and variables: no answer is
 * a 5xx, every answer is JSON of the documented shape (a problem document, or
 * GraphQL's {data, errors}), the service keeps answering, and the database
 * holds nothing half-written. `npm test` runs a sample (150 cases per
 * surface, fixed seed); `npm run test:fuzz` runs 10,000 cases in all.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
// The sample in `npm test` uses a fixed seed, so CI is repeatable; `npm run test:fuzz` explores with a new seed each run (printed on failure; FUZZ_SEED replays one).
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : process.env.FUZZ_RUNS ? undefined : 20261124;

let t: TestServer;
let a: StoreFixture;
let ids: FuzzIds;
let openapi: Record<string, any>;
let publicKeys: string[];
let image: Buffer;
const seen = { rest: 0, graphql: 0, statuses: new Map<number, number>() };

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_LIVE_PER_SECOND: '100000', RATE_LIMIT_TEST_PER_SECOND: '100000', LOGIN_MAX_FAILURES_PER_ADDRESS: '100000', OAUTH_ENABLED: 'true' });
  a = await createStoreFixture();
  const products = [];
  for (let i = 0; i < 3; i++) products.push(await createProduct(t, a, { name: `Fuzz ${i}`, tags: ['fuzz'] }));
  ids = { storeId: a.storeId, productIds: products.map((p) => p.id), categories: a.categories };
  openapi = (await t.request('GET', '/api/openapi.json')).body;
  publicKeys = [
    (await createKey(t, a, { type: 'secret', mode: 'live', scopes: ['products:read', 'products:write', 'public:read'] })).secret,
    (await createKey(t, a, { type: 'secret', mode: 'test', scopes: ['products:read', 'products:write', 'public:read'] })).secret,
    (await createKey(t, a, { type: 'publishable', mode: 'live' })).secret,
  ];
  image = await makeImage('png', 8, 8);
}, 120_000);

afterAll(async () => {
  // The process never died: it still answers.
  expect((await t.request('GET', '/healthz')).status).toBe(200);
  await t.close();
});

const count = (status: number) => seen.statuses.set(status, (seen.statuses.get(status) ?? 0) + 1);

function expectProblemShape(status: number, contentType: string | null, text: string) {
  expect(contentType).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(text);
  expect(body).toEqual(expect.objectContaining({ type: expect.any(String), title: expect.any(String), status, code: expect.any(String), detail: expect.any(String) }));
}

/** The media types the OpenAPI document gives for an operation's answer of this status (none listed: a problem document). */
function documentedTypes(operationId: string, status: number): string[] {
  for (const item of Object.values(openapi.paths) as Record<string, any>[]) {
    for (const op of Object.values(item)) {
      if (op?.operationId !== operationId) continue;
      const response = op.responses?.[String(status)] ?? op.responses?.default;
      return Object.keys(response?.content ?? {});
    }
  }
  return [];
}

/** An error answer is what the document says for its status: the OAuth endpoints' RFC 6749 JSON ({error, error_description}) where it says so, else a problem document. */
function expectDocumentedError(operationId: string, status: number, contentType: string | null, text: string) {
  const types = documentedTypes(operationId, status);
  if (types.length && !types.includes('application/problem+json')) {
    expect(types.some((t) => contentType?.startsWith(t))).toBe(true);
    if (contentType?.startsWith('application/json')) expect(JSON.parse(text)).toEqual(expect.objectContaining({ error: expect.any(String) }));
    return;
  }
  expectProblemShape(status, contentType, text);
}

describe('fuzzing', () => {
  it(`REST: ${RUNS} generated requests over every operation answer < 500 with documented JSON`, async () => {
    await fc.assert(
      fc.asyncProperty(restCase(openapi, ids, { dashboard: a.ownerToken, publicKeys }, image), async (c) => {
        const res = await fetch(t.url + c.path, { method: c.method, headers: c.headers, body: c.body });
        const text = await res.text();
        seen.rest++;
        count(res.status);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expectDocumentedError(c.operationId, res.status, res.headers.get('content-type'), text);
        else if (text && /^application\/([\w.-]+\+)?json\b/.test(res.headers.get('content-type') ?? '')) expect(() => JSON.parse(text)).not.toThrow();
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The generator adds query parameters no route names, which the service ignores: those are the fuzzer's, not
    // the document's fault. Every other disagreement with the document (status, type, body) still fails.
    const undocumentedParameter = /accepted a request that .* documents as invalid: query parameter \S+ is not documented(; query parameter \S+ is not documented)*$/;
    expect(takeContractViolations().filter((v) => !undocumentedParameter.test(v))).toEqual([]);
  }, 600_000);

  it(`GraphQL: ${RUNS} generated documents over every root field answer < 500 and never internal_error`, async () => {
    await fc.assert(
      fc.asyncProperty(graphqlCase(schema, ids), fc.boolean(), async (c, signedIn) => {
        const res = await fetch(`${t.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(signedIn ? { authorization: `Bearer ${a.ownerToken}` } : {}) },
          body: JSON.stringify({ query: c.query, variables: variablesForTransport(c.variables) }),
        });
        const text = await res.text();
        seen.graphql++;
        count(res.status);
        expect(res.status).toBeLessThan(500);
        const body = JSON.parse(text);
        expect('data' in body || 'errors' in body).toBe(true);
        for (const e of body.errors ?? []) {
          expect(e.extensions?.code).not.toBe('internal_error');
          expect(typeof e.message).toBe('string');
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }, 600_000);

  it('leaves nothing half-written: every stored product is whole and consistent', async () => {
    const broken = await db().$queryRaw<{ id: string; why: string }[]>`
      SELECT p.id::text, 'variant of another mode or store' AS why FROM products p JOIN variants v ON v.product_id = p.id WHERE v.mode <> p.mode OR v.store_id <> p.store_id
      UNION ALL SELECT p.id::text, 'SEO of another mode or store' FROM products p JOIN product_seo s ON s.product_id = p.id WHERE s.mode <> p.mode OR s.store_id <> p.store_id
      UNION ALL SELECT p.id::text, 'low_stock out of step' FROM products p WHERE p.low_stock <> (p.inventory_quantity <= p.low_stock_threshold)
      UNION ALL SELECT p.id::text, 'search text out of step' FROM products p WHERE position(lower(p.name) IN p.search_text) = 0
      UNION ALL SELECT p.id::text, 'no creation event' FROM products p WHERE NOT EXISTS (SELECT 1 FROM events e WHERE e.resource_id = p.id::text AND e.type = 'product.created')
      UNION ALL SELECT p.id::text, 'version without its event' FROM products p WHERE p.version > 1 AND NOT EXISTS (SELECT 1 FROM events e WHERE e.resource_id = p.id::text AND e.resource_version = p.version)`;
    expect(broken).toEqual([]);
    const summary = [...seen.statuses.entries()].sort(([x], [y]) => x - y).map(([s, n]) => `${s}×${n}`).join(' ');
    console.log(`fuzz: ${seen.rest} REST requests, ${seen.graphql} GraphQL documents; statuses ${summary}`);
  });
});
