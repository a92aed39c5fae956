import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createProduct } from '../../src/catalog/services/productCreate';
import { testContext } from '../helpers/context';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { root } from '../helpers/serverProcess';

/**
 * What a browser or an HTTP client gets on the wire: the bytes as sent (no client decompressing for us), their
 * encoding, their validators and 304s. fetch would decompress and hide all of this, so these requests are raw.
 */
let t: TestServer;
let store: StoreFixture;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dashboard', 'dist', 'index.html'))) execFileSync('npm', ['run', '-s', 'dashboard:build'], { cwd: root, stdio: 'ignore' });
  t = await startTestServer();
  store = await createStoreFixture();
  for (let i = 0; i < 30; i++) await createProduct(testContext(), store.storeId, { name: `Compressible product ${i}`, price: '10', categorySlugs: ['shoes'], status: 'active' });
}, 120_000);
afterAll(() => t.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(method: string, urlPath: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${t.url}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const decoded = (r: Raw) => (r.headers['content-encoding'] === 'br' ? brotliDecompressSync(r.body) : r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body);
const vary = (r: Raw) => String(r.headers.vary ?? '').split(/,\s*/).map((s) => s.toLowerCase());
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const auth = () => ({ authorization: `Bearer ${store.ownerToken}` });

describe("GraphiQL's page", () => {
  let plain: Raw;
  beforeAll(async () => {
    plain = await raw('GET', '/graphql', HTML);
  }, 60_000);

  it('is some megabytes as it is, for a client that accepts no encoding', () => {
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(5_000_000);
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(plain.body.toString()).toContain('renderYogaGraphiQL');
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
  ])('Accept-Encoding: %s gets %s, under a third of the size, the same page once decoded', async (accept, encoding) => {
    const res = await raw('GET', '/graphql', { ...HTML, 'accept-encoding': accept });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.body.length).toBeLessThan(plain.body.length / 3);
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(decoded(res).equals(plain.body)).toBe(true);
    // Its policy still names the page's one script: the bytes decode to the page it was computed from.
    expect(res.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
  });

  it('is cacheable: a strong ETag per encoding, revalidated (no-cache), Vary on Accept and Accept-Encoding; 304 on If-None-Match', async () => {
    const br = await raw('GET', '/graphql', { ...HTML, 'accept-encoding': 'br' });
    const etag = String(br.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/); // strong: no W/
    expect(etag).not.toBe(plain.headers.etag);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(vary(br)).toEqual(expect.arrayContaining(['accept', 'accept-encoding']));

    const again = await raw('GET', '/graphql', { ...HTML, 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // The validator of the Brotli bytes does not stand for the gzip ones.
    expect((await raw('GET', '/graphql', { ...HTML, 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(200);
    expect((await raw('GET', '/graphql', { ...HTML, 'if-none-match': String(plain.headers.etag) })).status).toBe(304);
    // A list, weak forms and a client that adds Cache-Control: no-cache to conditional requests (fetch) all revalidate.
    expect((await raw('GET', '/graphql', { ...HTML, 'accept-encoding': 'br', 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await fetch(`${t.url}/graphql`, { headers: { ...HTML, 'accept-encoding': 'br', 'if-none-match': etag } })).status).toBe(304);
  });

  it('HEAD tells the length and encoding without the body', async () => {
    const res = await raw('HEAD', '/graphql', { ...HTML, 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100_000);
    expect(res.body.length).toBe(0);
  });
});

describe('the other pages and documents', () => {
  it('the OpenAPI document: Brotli or gzip, a strong ETag, 304', async () => {
    const plain = await raw('GET', '/api/openapi.json');
    const br = await raw('GET', '/api/openapi.json', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    expect(JSON.parse(decoded(br).toString())).toEqual(JSON.parse(plain.body.toString()));
    expect(br.headers['cache-control']).toBe('no-cache');
    expect((await raw('GET', '/api/openapi.json', { 'accept-encoding': 'gzip, br', 'if-none-match': String(br.headers.etag) })).status).toBe(304);
  });

  it("the API reference's bundle and the dashboard's assets: Brotli, cached a year as immutable, 304 on their ETag", async () => {
    const reference = (await raw('GET', '/docs')).body.toString();
    const bundle = /src="(\/docs\/assets\/[^"]+)"/.exec(reference)![1];
    const dashboard = (await raw('GET', '/dashboard/')).body.toString();
    const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(dashboard)![1];
    for (const asset of [bundle, script]) {
      const plain = await raw('GET', asset);
      const br = await raw('GET', asset, { 'accept-encoding': 'gzip, deflate, br' });
      expect({ asset, encoding: br.headers['content-encoding'], cache: br.headers['cache-control'] }).toEqual({ asset, encoding: 'br', cache: 'public, max-age=31536000, immutable' });
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
      expect(decoded(br).equals(plain.body)).toBe(true);
      expect((await raw('GET', asset, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) })).status).toBe(304);
    }
  });

  it('the API reference page and the dashboard page are compressed too', async () => {
    for (const page of ['/docs', '/dashboard/']) {
      const res = await raw('GET', page, { ...HTML, 'accept-encoding': 'br' });
      // The dashboard's page is smaller than the threshold once built small; it is encoded when it reaches it.
      expect({ page, status: res.status, encodedOrSmall: res.headers['content-encoding'] === 'br' || decoded(res).length < 1024 }).toEqual({ page, status: 200, encodedOrSmall: true });
    }
  });
});

describe('every compressible response above the threshold', () => {
  const list = `/api/v1/merchant/stores/:store/products?per_page=30`;

  it('a REST list is compressed as the client accepts, and identical once decoded', async () => {
    const url = list.replace(':store', store.storeId);
    const plain = await raw('GET', url, auth());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip']) {
      const res = await raw('GET', url, { ...auth(), 'accept-encoding': encoding });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.body.length).toBeLessThan(plain.body.length / 3);
      expect(JSON.parse(decoded(res).toString())).toEqual(JSON.parse(plain.body.toString()));
      expect(vary(res)).toContain('accept-encoding');
    }
  });

  it('a GraphQL answer is compressed; a small answer is not', async () => {
    const query = JSON.stringify({ query: `{ products(storeId: "${store.storeId}", perPage: 30) { items { id name price } } }` });
    const big = await raw('POST', '/graphql', { ...auth(), 'content-type': 'application/json', 'accept-encoding': 'br' }, query);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(big).toString()).data.products.items).toHaveLength(30);
    const small = await raw('GET', '/healthz', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ status: 'ok' });
  });

  it('a streamed export still streams, compressed, and decodes to the whole file', async () => {
    const res = await raw('GET', `/api/v1/merchant/stores/${store.storeId}/products/export?format=jsonl`, { ...auth(), 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(decoded(res).toString().trim().split('\n')).toHaveLength(30);
  });

  it('server-sent events are never compressed: each event reaches the client as it is sent', async () => {
    const res = await raw(
      'POST',
      '/graphql',
      { ...auth(), 'content-type': 'application/json', accept: 'text/event-stream', 'accept-encoding': 'gzip, br' },
      JSON.stringify({ query: `{ products(storeId: "${store.storeId}", perPage: 30) { items { id name } } }` }),
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    // Yoga marks the stream `Content-Encoding: none`; nothing encodes it.
    expect(['none', undefined]).toContain(res.headers['content-encoding']);
    const text = res.body.toString();
    expect(text).toContain('event: next');
    expect(text).toContain('event: complete');
  });
});
