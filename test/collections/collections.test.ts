import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, expectProblem, gqlData } from '../products/helpers';
import { collectionsPath, createCollection, memberIds } from './helpers';

// Collections through the real HTTP handler: create, read, list, update under If-Match, delete; their events and
// history; translations; and the same operations over GraphQL.

let t: TestServer;
let a: StoreFixture;
const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, token = a.ownerToken) => t.request(method, path, { token, body, headers });

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

describe('collection CRUD', () => {
  it('creates a manual collection with a slug from its title, and reads it back by id and by slug with its ETag', async () => {
    const res = await req('POST', collectionsPath(a), { title: 'Summer Sale!', kind: 'manual', description: 'Hot deals' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(new RegExp(`/collections/${res.body.data.id}$`));
    expect(res.body.data).toEqual({
      id: expect.any(String),
      title: 'Summer Sale!',
      slug: 'summer-sale',
      description: 'Hot deals',
      kind: 'manual',
      rules: [],
      match: 'all',
      sort: 'manual',
      published: false,
      published_at: null,
      products_count: 0,
      membership: { state: 'current', done: 0, total: 0 },
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      translations: {},
    });
    expect(res.headers.get('etag')).toBe('"v1"');
    const bySlug = await req('GET', `${collectionsPath(a)}/summer-sale`);
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data.id).toBe(res.body.data.id);
    expect((await req('GET', `${collectionsPath(a)}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
  });

  it('refuses a taken slug (409), bad fields all at once (422), and rules on a manual collection', async () => {
    await createCollection(t, a, { title: 'Taken', kind: 'manual' });
    expectProblem(await req('POST', collectionsPath(a), { title: 'Other', slug: 'taken', kind: 'manual' }), 409, 'slug_taken');
    const bad = expectProblem(await req('POST', collectionsPath(a), { title: '', kind: 'weird', slug: 'Not A Slug' }), 422, 'validation_failed');
    expect(bad.errors!.map((e) => e.field).sort()).toEqual(['kind', 'slug', 'title']);
    const manualRules = expectProblem(await req('POST', collectionsPath(a), { title: 'M', kind: 'manual', rules: [{ field: 'tag', operator: 'equals', value: 'x' }] }), 422, 'validation_failed');
    expect(manualRules.errors).toEqual([expect.objectContaining({ field: 'rules', code: 'not_allowed' })]);
    const smartManualSort = expectProblem(await req('POST', collectionsPath(a), { title: 'S', kind: 'smart', sort: 'manual', rules: [] }), 422, 'validation_failed');
    expect(smartManualSort.errors!.map((e) => e.field).sort()).toEqual(['rules', 'sort']);
  });

  it('lists collections newest first, paged', async () => {
    const s = await createStoreFixture();
    for (const title of ['One', 'Two', 'Three']) await createCollection(t, s, { title, kind: 'manual' });
    const page1 = await t.request('GET', `${collectionsPath(s)}?per_page=2`, { token: s.ownerToken });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((c: any) => c.title)).toEqual(['Three', 'Two']);
    expect(page1.body.meta).toMatchObject({ page: 1, per_page: 2, total: 3, has_more: true });
    const page2 = await t.request('GET', `${collectionsPath(s)}?per_page=2&page=2`, { token: s.ownerToken });
    expect(page2.body.data.map((c: any) => c.title)).toEqual(['One']);
  });

  it('updates under If-Match: a stale version is 412 and writes nothing; kind is immutable; an unchanged body keeps the version', async () => {
    const c = await createCollection(t, a, { title: 'Versioned', kind: 'manual' });
    const url = `${collectionsPath(a)}/${c.id}`;
    const ok = await req('PATCH', url, { title: 'Versioned 2', published: true }, { 'If-Match': '"v1"' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ title: 'Versioned 2', published: true, version: 2, published_at: expect.any(String) });
    expect(ok.headers.get('etag')).toBe('"v2"');
    const stale = expectProblem(await req('PATCH', url, { title: 'Lost' }, { 'If-Match': '"v1"' }), 412, 'precondition_failed');
    expect(stale.current_version).toBe(2);
    expect((await req('GET', url)).body.data.title).toBe('Versioned 2');
    const kind = expectProblem(await req('PATCH', url, { kind: 'smart' }), 422, 'validation_failed');
    expect(kind.errors).toEqual([expect.objectContaining({ field: 'kind', code: 'immutable' })]);
    // A GET body sent back: read-only fields are ignored, nothing changes, no new version.
    const echoed = await req('PATCH', url, ok.body.data);
    expect(echoed.status).toBe(200);
    expect(echoed.body.data.version).toBe(2);
    const del412 = await req('DELETE', url, undefined, { 'If-Match': '"v1"' });
    expectProblem(del412, 412, 'precondition_failed');
    expect((await req('DELETE', url, undefined, { 'If-Match': '"v2"' })).status).toBe(204);
    expect((await req('GET', url)).status).toBe(404);
  });

  it('records collection events and the collection history: field changes, publishing, membership, deletion', async () => {
    const c = await createCollection(t, a, { title: 'Evented', kind: 'manual' });
    const url = `${collectionsPath(a)}/${c.id}`;
    const p = await createProduct(t, a);
    await req('PATCH', url, { title: 'Evented 2' });
    await req('PATCH', url, { published: true });
    expect((await req('POST', `${url}/products`, { product_ids: [p.id] })).status).toBe(200);
    expect((await req('POST', `${url}/products/remove`, { product_ids: [p.id] })).status).toBe(200);
    await req('PATCH', url, { published: false });
    expect((await req('DELETE', url)).status).toBe(204);
    const history = await req('GET', `${url}/changes?limit=50`);
    expect(history.status).toBe(200);
    const types = history.body.data.map((e: any) => e.type).reverse();
    expect(types).toEqual([
      'collection.created',
      'collection.updated',
      'collection.updated',
      'collection.published',
      'collection.products_added',
      'collection.products_removed',
      'collection.updated',
      'collection.unpublished',
      'collection.deleted',
    ]);
    const [renamed] = history.body.data.filter((e: any) => e.type === 'collection.updated').reverse();
    expect(renamed.changes).toEqual(expect.arrayContaining([{ field: 'title', previous: 'Evented', next: 'Evented 2' }]));
    const added = history.body.data.find((e: any) => e.type === 'collection.products_added');
    expect(added).toMatchObject({ resource: { type: 'collection', id: c.id }, data: { id: c.id, product_ids: [p.id], position: 0 } });
    // The store history filters by the resource type too.
    const storeHistory = await req('GET', `/api/v1/merchant/stores/${a.storeId}/changes?resource_type=collection&resource_id=${c.id}&limit=50`);
    expect(storeHistory.body.data).toHaveLength(types.length);
  });

  it('translates title and description per locale; a title change marks the translation outdated', async () => {
    const s = await createStoreFixture();
    expect((await t.request('POST', `/api/v1/merchant/stores/${s.storeId}/locales`, { token: s.ownerToken, body: { locale: 'de' } })).status).toBe(201);
    const c = await createCollection(t, s, { title: 'Summer', kind: 'manual' });
    const url = `${collectionsPath(s)}/${c.id}`;
    const put = await t.request('PUT', `${url}/translations/de`, { token: s.ownerToken, body: { title: 'Sommer', description: 'Heiß' } });
    expect(put.status).toBe(200);
    expect(put.body.data.translations.de).toMatchObject({ title: 'Sommer', description: 'Heiß', outdated: false });
    expect(put.body.data.version).toBe(2);
    const renamed = await t.request('PATCH', url, { token: s.ownerToken, body: { title: 'Summer 2026' } });
    expect(renamed.body.data.translations.de).toMatchObject({ outdated: true, outdated_fields: ['title'] });
    expectProblem(await t.request('PUT', `${url}/translations/fr`, { token: s.ownerToken, body: { title: 'Été' } }), 422, 'validation_failed');
    expect((await t.request('DELETE', `${url}/translations/de`, { token: s.ownerToken })).status).toBe(204);
    expect((await t.request('GET', url, { token: s.ownerToken })).body.data.translations).toEqual({});
  });

  it('needs a credential that may change the catalog', async () => {
    expectProblem(await req('POST', collectionsPath(a), { title: 'No', kind: 'manual' }, {}, a.viewerToken), 403, 'forbidden');
    expect((await req('POST', collectionsPath(a), { title: 'Staff', kind: 'manual' }, {}, a.staffToken)).status).toBe(201);
  });
});

describe('collections over GraphQL', () => {
  const FIELDS = 'id title slug kind match sort published productsCount version rules { field operator value attribute } membership { state }';

  it('creates, updates with expectedVersion, adds, moves and lists members, and deletes', async () => {
    const [p1, p2] = [await createProduct(t, a, { name: 'G1' }), await createProduct(t, a, { name: 'G2' })];
    const created = gqlData(
      await t.graphql(`mutation($s: ID!, $i: CollectionCreateInput!) { createCollection(storeId: $s, input: $i) { ${FIELDS} } }`, { s: a.storeId, i: { title: 'Gql', kind: 'manual' } }, { token: a.ownerToken }),
    ).createCollection;
    expect(created).toMatchObject({ title: 'Gql', slug: 'gql', kind: 'manual', sort: 'manual', productsCount: 0, version: 1 });
    const stale = await t.graphql(
      `mutation($s: ID!, $c: String!) { updateCollection(storeId: $s, collection: $c, input: { title: "x" }, expectedVersion: 7) { id } }`,
      { s: a.storeId, c: created.id },
      { token: a.ownerToken },
    );
    expectGqlError(stale, 'precondition_failed');
    const added = gqlData(
      await t.graphql(`mutation($s: ID!, $c: String!, $p: [ID!]!) { addCollectionProducts(storeId: $s, collection: $c, productIds: $p) { ${FIELDS} } }`, { s: a.storeId, c: created.id, p: [p1.id, p2.id] }, { token: a.ownerToken }),
    ).addCollectionProducts;
    expect(added).toMatchObject({ productsCount: 2, version: 2 });
    gqlData(
      await t.graphql(
        `mutation($s: ID!, $c: String!, $m: [CollectionMoveInput!]!) { moveCollectionProducts(storeId: $s, collection: $c, moves: $m) { version } }`,
        { s: a.storeId, c: created.id, m: [{ productId: p2.id, position: 0 }] },
        { token: a.ownerToken },
      ),
    );
    const members = gqlData(
      await t.graphql(`query($s: ID!, $c: String!) { collectionProducts(storeId: $s, collection: $c) { items { id name } meta { total } } }`, { s: a.storeId, c: 'gql' }, { token: a.ownerToken }),
    ).collectionProducts;
    expect(members.items.map((p: any) => p.name)).toEqual(['G2', 'G1']);
    expect(members.meta.total).toBe(2);
    const listed = gqlData(await t.graphql(`query($s: ID!) { collections(storeId: $s, perPage: 100) { items { id } meta { total } } }`, { s: a.storeId }, { token: a.ownerToken })).collections;
    expect(listed.items.map((c: any) => c.id)).toContain(created.id);
    expect(gqlData(await t.graphql(`mutation($s: ID!, $c: String!) { deleteCollection(storeId: $s, collection: $c) { id } }`, { s: a.storeId, c: created.id }, { token: a.ownerToken })).deleteCollection.id).toBe(
      created.id,
    );
    expect(await memberIds(t, a, 'summer-sale')).toEqual([]);
  });
});
