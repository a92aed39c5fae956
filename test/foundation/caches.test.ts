import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { CACHE_DEFAULTS } from '../../src/platform/caches';
import { loadConfig } from '../../src/platform/config';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';

/**
 * Every in-process cache has a bound and shows its size in /metrics (cache_entries, cache_max_entries by cache).
 * Driven past small bounds set with CACHE_MAX_ENTRIES, through the real handler, each stays within its bound.
 */
interface Family {
  name: string;
  metrics: { value?: string; labels?: Record<string, string> }[];
}

const BOUNDS = { graphql_documents: 3, graphql_parse_errors: 2, verified_dashboard_tokens: 2, api_key_last_used: 2, rate_limit_buckets: 2, prepared_statements: 5 };

let t: TestServer;
let a: StoreFixture;

/** cache name → value of the family `name` at the last scrape. */
async function scrape(name: string): Promise<Map<string, number>> {
  const families = parsePrometheusTextFormat(await (await fetch(`${t.url}/metrics`)).text()) as Family[];
  const family = families.find((f) => f.name === name);
  return new Map((family?.metrics ?? []).map((m) => [m.labels!.cache, Number(m.value)]));
}

beforeAll(async () => {
  t = await startTestServer({ CACHE_MAX_ENTRIES: Object.entries(BOUNDS).map(([k, v]) => `${k}=${v}`).join(',') });
  a = await createStoreFixture();
});
afterAll(async () => {
  await t?.close();
});

/** Every cache's entries at most its bound, and the bounds as configured (defaults for the others). */
async function expectWithinBounds(): Promise<Map<string, number>> {
  const [entries, max] = [await scrape('cache_entries'), await scrape('cache_max_entries')];
  for (const [cache, n] of entries) {
    expect({ cache, within: n <= max.get(cache)! }).toEqual({ cache, within: true });
  }
  for (const [cache, m] of max) {
    const base = cache.split(':')[0] as keyof typeof CACHE_DEFAULTS;
    expect({ cache, max: m }).toEqual({ cache, max: (BOUNDS as Record<string, number>)[base] ?? CACHE_DEFAULTS[base] });
  }
  return entries;
}

describe('in-process caches', () => {
  it('lists every cache the handler made in /metrics with its bound', async () => {
    const max = await scrape('cache_max_entries');
    for (const name of ['graphql_documents', 'graphql_parse_errors', 'verified_dashboard_tokens', 'api_key_last_used', 'prisma_query_plans', 'collection_rules', 'openapi_documents', 'dashboard_files']) {
      expect({ name, shown: max.has(name) }).toEqual({ name, shown: true });
    }
    if (t.database.kind === 'postgres') expect(max.get('prepared_statements')).toBe(BOUNDS.prepared_statements);
  });

  it('keeps parsed GraphQL documents and parse errors within their bounds, the most recent kept', async () => {
    for (let i = 0; i < 6; i++) expect((await t.graphql(`query Q${i} { __typename }`, undefined, { token: a.ownerToken })).body.errors).toBeUndefined();
    for (let i = 0; i < 5; i++) expect((await t.graphql(`query Broken${i} {`, undefined, { token: a.ownerToken })).body.errors).toBeDefined();
    const entries = await expectWithinBounds();
    expect(entries.get('graphql_documents')).toBe(BOUNDS.graphql_documents);
    expect(entries.get('graphql_parse_errors')).toBe(BOUNDS.graphql_parse_errors);
    // The last document is still served (from the cache or parsed again): answers do not depend on the bound.
    expect((await t.graphql('query Q5 { __typename }', undefined, { token: a.ownerToken })).body.data).toEqual({ __typename: 'Query' });
  });

  it('keeps verified dashboard tokens within their bound', async () => {
    const tokens = [a.ownerToken, await memberToken(a.storeId, []), await memberToken(a.storeId, []), await memberToken(a.storeId, [])];
    for (const token of tokens) expect((await t.graphql('{ __typename }', undefined, { token })).status).toBe(200);
    const entries = await expectWithinBounds();
    expect(entries.get('verified_dashboard_tokens')).toBe(BOUNDS.verified_dashboard_tokens);
    // A token dropped from the cache is looked up again, not refused.
    expect((await t.graphql('{ __typename }', undefined, { token: tokens[0] })).status).toBe(200);
  });

  it("keeps API keys' last use and the rate-limit buckets within their bounds", async () => {
    const keys = [];
    for (let i = 0; i < 4; i++) keys.push((await createKey(t, a, { type: 'secret', mode: 'live', name: `k${i}`, scopes: ['public:read'] })).secret);
    for (const key of keys) expect((await publicGet(t, '/products', { key })).status).toBe(200);
    const entries = await expectWithinBounds();
    expect(entries.get('api_key_last_used')).toBe(BOUNDS.api_key_last_used);
    // Buckets are this process's only without Redis (with it they live there, and this process keeps none while it answers).
    if (!t.config.redisUrl) expect(entries.get('rate_limit_buckets')).toBe(BOUNDS.rate_limit_buckets);
  });

  it('names at most the bound of statement texts as prepared statements on PostgreSQL', async () => {
    for (const q of ['', '?per_page=3', '?is_active=true', '?search=x', '?tags=a', '?sort=name', '?low_stock=true']) {
      expect((await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products${q}`, { token: a.ownerToken })).status).toBe(200);
    }
    const entries = await expectWithinBounds();
    if (t.database.kind === 'postgres') expect(entries.get('prepared_statements')).toBe(BOUNDS.prepared_statements);
  });

  it('refuses a bound for a cache that does not exist, or one that is not a whole number', async () => {
    expect(() => loadConfig({ CACHE_MAX_ENTRIES: 'no_such_cache=5' })).toThrow(/no_such_cache=5/);
    expect(() => loadConfig({ CACHE_MAX_ENTRIES: 'graphql_documents=0' })).toThrow(/graphql_documents=0/);
    expect(loadConfig({ CACHE_MAX_ENTRIES: 'graphql_documents=7, dashboard_files=9' }).cacheMaxEntries).toEqual({ graphql_documents: 7, dashboard_files: 9 });
  });
});
