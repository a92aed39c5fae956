import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { expectProblem } from '../products/helpers';

// Collections exported and imported through the real HTTP handler: JSON Lines and CSV round trips (an export
// imports unchanged), a manual list rewritten by a file naming products by id and SEO slug, smart rules, translations,
// and a bad record reported with every problem while the others are kept.

let t: TestServer;
let s: StoreFixture;
const P: Record<string, string> = {};
const base = () => `/api/v1/merchant/stores/${s.storeId}`;
const req = (method: string, path: string, body?: unknown) => t.request(method, `${base()}${path}`, { token: s.ownerToken, body });
const ok = async (method: string, path: string, body?: unknown) => {
  const res = await req(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body?.data;
};
const exportText = async (format: 'jsonl' | 'csv') => {
  const res = await t.request('GET', `${base()}/collections/export?format=${format}`, { token: s.ownerToken });
  expect(res.status).toBe(200);
  return res;
};
const importFile = async (text: string, name: string) => {
  const form = new FormData();
  form.append('file', new Blob([text]), name);
  return t.request('POST', `${base()}/collections/import`, { token: s.ownerToken, rawBody: form });
};
const members = async (slug: string) => ((await ok('GET', `/collections/${slug}/products?per_page=100`)) as { id: string }[]).map((p) => p.id);
const byName = (ids: string[]) => ids.map((id) => Object.keys(P).find((k) => P[k] === id));

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture({ currency: 'EUR' });
  await ok('POST', '/locales', { locale: 'de' });
  for (const [name, price] of [['alpha', 10], ['beta', 60], ['gamma', 30]] as const) {
    P[name] = (await ok('POST', '/products', { name, price, category_slugs: ['shoes'], status: 'active' })).id;
  }
  await ok('PUT', `/products/${P.gamma}/seo`, { slug: 'gamma-shoe' });
  const picks = await ok('POST', '/collections', { title: 'Picks', slug: 'picks', kind: 'manual', description: 'Ours, "quoted"', published: true });
  await ok('POST', `/collections/${picks.id}/products`, { product_ids: [P.beta, P.alpha, P.gamma] });
  await ok('PUT', `/collections/${picks.id}/translations/de`, { title: 'Auswahl' });
  await ok('POST', '/collections', { title: 'Cheap', slug: 'cheap', kind: 'smart', rules: [{ field: 'price', operator: 'less_than', value: 50 }], sort: 'price_desc' });
});
afterAll(() => t.close());

describe('collections export and import', () => {
  it('exports JSON Lines, oldest first: a manual list in order, smart rules, translations; importing it unchanged changes nothing', async () => {
    const res = await exportText('jsonl');
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="collections-live.jsonl"');
    const records = res.text.trim().split('\n').map((l) => JSON.parse(l));
    expect(records).toEqual([
      expect.objectContaining({ slug: 'picks', kind: 'manual', description: 'Ours, "quoted"', published: true, products: [P.beta, P.alpha, P.gamma], translations: { de: { title: 'Auswahl', description: null } } }),
      expect.objectContaining({ slug: 'cheap', kind: 'smart', rules: [{ field: 'price', operator: 'less_than', value: expect.anything() }], sort: 'price_desc', published: false }),
    ]);
    expect(records[1]).not.toHaveProperty('products');
    const versions = (await ok('GET', '/collections')).map((c: any) => c.version);
    const again = await importFile(res.text, 'collections.jsonl');
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ rows: 2, created: 0, updated: 0, unchanged: 2, rejected: 0, errors: [] });
    expect((await ok('GET', '/collections')).map((c: any) => c.version)).toEqual(versions);
  });

  it('rewrites a manual list from a file naming products by id and SEO slug, creates new collections, and reports a bad record while keeping the others', async () => {
    const lines = [
      { slug: 'picks', products: ['gamma-shoe', P.beta] },
      { title: 'Fresh', slug: 'fresh', kind: 'manual', products: [P.alpha, 'gamma-shoe'], published: true },
      { title: 'Broken', kind: 'smart', rules: [{ field: 'colour', operator: 'equals', value: 'x' }] },
      { title: 'Unknown products', kind: 'manual', products: ['no-such-slug', P.alpha] },
      { slug: 'cheap', kind: 'manual' },
      { title: 'Italian', kind: 'manual', translations: { it: { title: 'Italiano', description: null } } },
    ];
    const res = await importFile(lines.map((l) => JSON.stringify(l)).join('\n') + '\nnot json\n', 'changes.jsonl');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ rows: 7, created: 1, updated: 1, unchanged: 0, rejected: 5 });
    expect(res.body.data.errors).toEqual([
      expect.objectContaining({ row: 3, field: 'rules.0.field' }),
      { row: 4, field: 'products.0', code: 'unknown_product', message: 'no product of this catalog has the slug "no-such-slug"' },
      expect.objectContaining({ row: 5, field: 'kind', code: 'immutable' }),
      expect.objectContaining({ row: 6, field: 'translations.it', code: 'locale_not_enabled' }),
      { row: 7, field: 'line', code: 'invalid_json', message: 'not a JSON object' },
    ]);
    expect(byName(await members('picks'))).toEqual(['gamma', 'beta']);
    expect(byName(await members('fresh'))).toEqual(['alpha', 'gamma']);
    expect((await ok('GET', '/collections')).map((c: any) => c.slug)).toEqual(['fresh', 'cheap', 'picks']);
    // Nothing of the rejected records was written.
    expectProblem(await req('GET', '/collections/broken'), 404, 'not_found');
    expectProblem(await req('GET', '/collections/italian'), 404, 'not_found');
  });

  it('round-trips CSV: deleted collections come back from their export with their lists, rules and translations', async () => {
    const csv = (await exportText('csv')).text;
    expect(csv.split('\n')[0]).toBe('id,title,slug,description,kind,rules,match,sort,published,products,title:de,description:de');
    const before = await ok('GET', '/collections');
    for (const c of before) expect((await req('DELETE', `/collections/${c.id}`)).status).toBe(204);
    const res = await importFile(csv, 'collections.csv');
    expect(res.body.data).toEqual({ rows: 3, created: 3, updated: 0, unchanged: 0, rejected: 0, errors: [] });
    const after = await ok('GET', '/collections');
    const shape = (c: any) => ({ slug: c.slug, title: c.title, description: c.description, kind: c.kind, rules: c.rules, match: c.match, sort: c.sort, published: c.published, products_count: c.products_count, de: c.translations.de?.title ?? null });
    expect(after.map(shape).sort((a: any, b: any) => a.slug.localeCompare(b.slug))).toEqual(before.map(shape).sort((a: any, b: any) => a.slug.localeCompare(b.slug)));
    expect(byName(await members('picks'))).toEqual(['gamma', 'beta']);
    expect(byName(await members('cheap'))).toEqual(['gamma', 'alpha']);
    // And the new export imports unchanged.
    expect((await importFile((await exportText('csv')).text, 'again.csv')).body.data).toMatchObject({ rows: 3, unchanged: 3, rejected: 0 });
  });

  it('refuses a CSV with an unknown column, and a request that is not multipart', async () => {
    const bad = expectProblem(await importFile('id,title,colour\n,x,red\n', 'bad.csv'), 422, 'validation_failed');
    expect(bad.errors).toEqual([expect.objectContaining({ field: 'file', code: 'unknown_column' })]);
    expectProblem(await req('POST', '/collections/import', { title: 'x' }), 415, 'unsupported_media_type');
  });
});
