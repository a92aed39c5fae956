import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';
import { db } from '../../src/platform/db/client';
import { pruneEvents } from '../../src/events/services/retention';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { form, filePart, makeImage, uploadPath } from '../images/images';
import { basicAuth, connectApp, postForm, registerApp } from '../oauth/helpers';

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  a = await createStoreFixture();
});
afterAll(() => t.close());

const products = (s: StoreFixture) => `/api/v1/merchant/stores/${s.storeId}/products`;
const history = (s: StoreFixture, query = '') => `/api/v1/merchant/stores/${s.storeId}/changes${query}`;
const productHistory = (s: StoreFixture, id: string, query = '') => `${products(s)}/${id}/changes${query}`;

/** Every event stored for a resource, oldest first, straight from the outbox table. */
const stored = (resourceId: string) => db().event.findMany({ where: { resourceId }, orderBy: { id: 'asc' } });

const ownerOf = async (s: StoreFixture) => db().user.findUniqueOrThrow({ where: { id: s.ownerId } });

async function createRest(s: StoreFixture, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', products(s), { token: s.ownerToken, body: { name: 'Trail runner', price: 89.5, category_slugs: ['shoes'], ...body } });
  expect(res.status).toBe(201);
  return res;
}

describe('a product created, edited twice, published and deleted', () => {
  it('reads back newest first on REST, with actor, source, request id, versions, data and field changes', async () => {
    const owner = await ownerOf(a);
    const created = await createRest(a, { tags: ['trail'] });
    const id = created.body.data.id;
    const edit1 = await t.request('PUT', `${products(a)}/${id}`, { token: a.ownerToken, body: { name: 'Trail runner 2', price: 99 } });
    const edit2 = await t.request('PUT', `${products(a)}/${id}`, { token: a.ownerToken, body: { tags: ['trail', 'sale'], inventory_quantity: 3 } });
    const published = await t.request('POST', `${products(a)}/${id}/publish`, { token: a.ownerToken });
    const lastRead = await t.request('GET', `${products(a)}/${id}`, { token: a.ownerToken });
    const deleted = await t.request('DELETE', `${products(a)}/${id}`, { token: a.ownerToken });
    expect([edit1.status, edit2.status, published.status, deleted.status]).toEqual([200, 200, 200, 204]);

    const res = await t.request('GET', productHistory(a, id), { token: a.ownerToken });
    expect(res.status).toBe(200);
    const events = res.body.data;
    expect(events.map((e: any) => e.type)).toEqual(['product.deleted', 'product.published', 'product.updated', 'product.updated', 'product.created']);
    expect(events.map((e: any) => e.resource)).toEqual([5, 4, 3, 2, 1].map((version) => ({ type: 'product', id, version })));
    expect(res.body.meta).toEqual({ limit: 20, has_more: false, next_cursor: null });
    for (const e of events) {
      expect(e).toMatchObject({ store_id: a.storeId, mode: 'live', source: 'merchant_rest', actor: { kind: 'user', id: a.ownerId, name: owner.name } });
      expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
    }
    const [del, pub, up2, up1, cre] = events;
    // Each event names the request that made it, and carries the product exactly as REST answered it.
    expect(cre.request_id).toBe(created.headers.get('x-request-id'));
    expect(cre.data).toEqual(created.body.data);
    // Stored as written: the fields in the order the REST API writes them.
    expect(Object.keys(cre.data)).toEqual(Object.keys(created.body.data));
    expect(cre.changes).toBeNull();
    expect(up1.data).toEqual(edit1.body.data);
    expect(up1.changes).toEqual([
      { field: 'name', previous: 'Trail runner', next: 'Trail runner 2' },
      { field: 'price', previous: 89.5, next: 99 },
    ]);
    expect(up2.data).toEqual(edit2.body.data);
    expect(up2.changes).toEqual([
      { field: 'inventory_quantity', previous: 0, next: 3 },
      { field: 'tags', previous: ['trail'], next: ['trail', 'sale'] },
      // 3 is at or below the default threshold of 5: the product is now low on stock.
    ]);
    expect(pub.data).toEqual(published.body.data);
    expect(pub.changes.map((c: any) => c.field)).toEqual(['status', 'is_active', 'published_at']);
    // A deletion carries the product as it last was.
    expect(del.data).toEqual(lastRead.body.data);
    expect(del.request_id).toBe(deleted.headers.get('x-request-id'));
  });

  it('reads back alike on GraphQL, recorded as dashboard_graphql', async () => {
    const m = (q: string, v: Record<string, unknown>) => t.graphql(q, { storeId: a.storeId, ...v }, { token: a.ownerToken });
    const created = await m(`mutation($storeId: ID!) { createProduct(storeId: $storeId, input: {name: "Mug", price: "12.00", categorySlugs: ["hats"]}) { id } }`, {});
    const id = created.body.data.createProduct.id;
    await m(`mutation($storeId: ID!, $id: ID!) { updateProduct(storeId: $storeId, id: $id, input: {name: "Big mug"}) { id } }`, { id });
    await m(`mutation($storeId: ID!, $id: ID!) { updateProduct(storeId: $storeId, id: $id, input: {price: "14.00"}) { id } }`, { id });
    await m(`mutation($storeId: ID!, $id: ID!) { publishProduct(storeId: $storeId, id: $id) { id } }`, { id });
    await m(`mutation($storeId: ID!, $id: ID!) { deleteProduct(storeId: $storeId, id: $id) { id } }`, { id });
    const res = await m(
      `query($storeId: ID!, $id: ID!) { changes(storeId: $storeId, filter: {resourceType: product, resourceId: $id}) {
        edges { cursor node { type source actor { kind id } resource { id version } changes { field previous next } data } }
        pageInfo { hasNextPage endCursor } } }`,
      { id },
    );
    expect(res.body.errors).toBeUndefined();
    const nodes = res.body.data.changes.edges.map((e: any) => e.node);
    expect(nodes.map((n: any) => [n.type, n.resource.version])).toEqual([
      ['product.deleted', 5],
      ['product.published', 4],
      ['product.updated', 3],
      ['product.updated', 2],
      ['product.created', 1],
    ]);
    expect(nodes.every((n: any) => n.source === 'dashboard_graphql' && n.actor.kind === 'user' && n.actor.id === a.ownerId)).toBe(true);
    expect(nodes[3].changes).toEqual([{ field: 'name', previous: 'Mug', next: 'Big mug' }]);
    expect(nodes[2].changes).toEqual([{ field: 'price', previous: 12, next: 14 }]);
    expect(nodes[4].data).toMatchObject({ id, name: 'Mug', price: 12, category_slugs: ['hats'], status: 'draft', version: 1 });
  });
});

describe('writes that fail or change nothing record nothing', () => {
  it('validation errors, unknown categories, stale versions, archived publishes and no-op writes leave no event', async () => {
    const id = (await createRest(a)).body.data.id;
    const attempts = [
      await t.request('POST', products(a), { token: a.ownerToken, body: { name: '', price: -1, category_slugs: ['shoes'] } }),
      await t.request('POST', products(a), { token: a.ownerToken, body: { name: 'X', price: 1, category_slugs: ['nope'] } }),
      await t.request('PUT', `${products(a)}/${id}`, { token: a.ownerToken, body: { category_slugs: ['shoes', 'nope'] } }),
      await t.request('PUT', `${products(a)}/${id}`, { token: a.ownerToken, body: { name: 'Stale' }, headers: { 'if-match': '"v9"' } }),
      await t.request('PUT', `${products(a)}/${id}`, { token: a.staffToken, body: { name: 'Fine' }, headers: { 'if-match': '"v1"' } }).then(async (ok) => {
        expect(ok.status).toBe(200);
        return t.request('PUT', `${products(a)}/${id}`, { token: a.ownerToken, body: { name: 'Lost update' }, headers: { 'if-match': '"v1"' } });
      }),
      await t.request('PUT', `${products(a)}/${id}`, { token: a.viewerToken, body: { name: 'No permission' } }),
      // The same values again, and unpublishing a draft: nothing changes, so nothing is recorded.
      await t.request('PUT', `${products(a)}/${id}`, { token: a.ownerToken, body: { name: 'Fine', price: 89.5 } }),
      await t.request('POST', `${products(a)}/${id}/unpublish`, { token: a.ownerToken }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([422, 422, 422, 412, 412, 403, 200, 200]);
    const events = await stored(id);
    expect(events.map((e) => [e.type, e.resourceVersion])).toEqual([
      ['product.created', 1],
      ['product.updated', 2],
    ]);
  });

  it('a variant replace that collides with another product rolls back whole: no version, no event', async () => {
    const one = (await createRest(a)).body.data.id;
    const two = (await createRest(a)).body.data.id;
    const ok = await t.request('PUT', `${products(a)}/${one}/variants`, { token: a.ownerToken, body: { variants: [{ sku: `SKU-${one}` }] } });
    expect(ok.status).toBe(200);
    const clash = await t.request('PUT', `${products(a)}/${two}/variants`, { token: a.ownerToken, body: { variants: [{ sku: `FREE-${two}`, options: { Size: 'S' } }, { sku: `SKU-${one}`, options: { Size: 'M' } }] } });
    expect(clash.status).toBe(409);
    expect((await stored(two)).map((e) => e.type)).toEqual(['product.created']);
    expect((await db().product.findUniqueOrThrow({ where: { id: two } })).version).toBe(1);
  });
});

describe("a product's parts: variants, SEO, images", () => {
  it('records variants_replaced, seo_updated, image_added and image_removed as new product versions', async () => {
    const id = (await createRest(a)).body.data.id;
    const variants = await t.request('PUT', `${products(a)}/${id}/variants`, {
      token: a.ownerToken,
      body: { variants: [{ sku: `V-${id}-1`, options: { Size: 'M' } }, { sku: `V-${id}-2`, options: { Size: 'L' }, price: 95 }] },
    });
    expect(variants.status).toBe(200);
    const seo = await t.request('PUT', `${products(a)}/${id}/seo`, { token: a.ownerToken, body: { title: 'Trail runner', slug: `trail-${id.slice(0, 8)}` } });
    expect(seo.status).toBe(200);
    // The same SEO record again is no change.
    await t.request('PUT', `${products(a)}/${id}/seo`, { token: a.ownerToken, body: { title: 'Trail runner', slug: `trail-${id.slice(0, 8)}` } });
    const upload = await fetch(t.url + uploadPath(a.storeId), {
      method: 'POST',
      headers: { authorization: `Bearer ${a.ownerToken}` },
      body: form([{ name: 'product_id', value: id }, filePart(await makeImage('png'), 'a.png', 'image/png')]),
    });
    expect(upload.status).toBe(201);
    const image = ((await upload.json()) as any).data;
    const removed = await t.request('DELETE', `${products(a)}/${id}/images/${image.id}`, { token: a.ownerToken });
    expect(removed.status).toBe(204);
    expect((await t.request('DELETE', `${products(a)}/${id}/images/${image.id}`, { token: a.ownerToken })).status).toBe(404);

    const events = (await t.request('GET', productHistory(a, id), { token: a.ownerToken })).body.data.reverse();
    expect(events.map((e: any) => [e.type, e.resource.version])).toEqual([
      ['product.created', 1],
      ['product.variants_replaced', 2],
      ['product.seo_updated', 3],
      ['product.image_added', 4],
      ['product.image_removed', 5],
    ]);
    const [, replaced, seoEvent, added, gone] = events;
    expect(replaced.data.variants.map((v: any) => v.sku)).toEqual([`V-${id}-1`, `V-${id}-2`]);
    expect(replaced.data.variants[1]).toMatchObject({ price: 95, options: { Size: 'L' } });
    // The product had no options: the replace gave it those its variants name.
    expect(replaced.changes.map((c: any) => c.field)).toEqual(['options', 'variants_count', 'variants']);
    expect(replaced.data.options).toEqual([{ name: 'Size', values: ['M', 'L'] }]);
    expect(seoEvent.changes).toEqual([{ field: 'seo', previous: null, next: expect.objectContaining({ title: 'Trail runner' }) }]);
    expect(added.data.images).toEqual([expect.objectContaining({ id: image.id, url: image.url, position: 0 })]);
    expect(gone.data.images).toEqual([]);
    expect(gone.changes).toEqual([{ field: 'images', previous: [expect.objectContaining({ id: image.id })], next: [] }]);
    // The REST product shows the version the history ends on.
    expect((await t.request('GET', `${products(a)}/${id}`, { token: a.ownerToken })).headers.get('etag')).toBe('"v5"');
  });
});

describe('concurrent writes', () => {
  it('ten simultaneous updates of one product all land, each as its own version', async () => {
    const id = (await createRest(a)).body.data.id;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => t.request('PUT', `${products(a)}/${id}`, { token: a.ownerToken, body: { inventory_quantity: 100 + i } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const versions = (await stored(id)).map((e) => e.resourceVersion);
    expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // Each update's "previous" is the value the one before it wrote: the history is one chain.
    const updates = (await stored(id)).slice(1).map((e) => (e.changes as any[]).find((c) => c.field === 'inventory_quantity'));
    for (let i = 1; i < updates.length; i++) expect(updates[i].previous).toBe(updates[i - 1].next);
  });
});

describe('credentials and members', () => {
  afterAll(async () => {
    // Nothing any of these tests sent or received as a credential is in any stored event.
    const all = JSON.stringify(await db().event.findMany());
    for (const token of [a.ownerToken, a.staffToken, a.viewerToken]) expect(all).not.toContain(token);
    expect(all).not.toMatch(/svc_(dash|oat|ort|oac|ocs)_[A-Za-z0-9]{20}/);
    expect(all).not.toMatch(/svc_(test|live)_(sk|pk|ck)_[A-Za-z0-9]{20}/);
    expect(all).not.toMatch(/"(token_hash|client_secret_hash|password_hash|tokenHash|clientSecretHash|passwordHash)"/);
  });

  it('API keys: created, rolled and revoked in the key\'s own mode, named redacted, with no secret', async () => {
    const create = await t.graphql(
      `mutation($storeId: ID!) { createApiKey(storeId: $storeId, input: {name: "backend", type: secret, mode: test, scopes: ["products:read"]}) { secret apiKey { id redactedKey } } }`,
      { storeId: a.storeId },
      { token: a.ownerToken },
    );
    const { secret, apiKey } = create.body.data.createApiKey;
    const roll = await t.graphql(
      `mutation($storeId: ID!, $id: ID!) { rollApiKey(storeId: $storeId, id: $id, expiresInSeconds: 60) { secret apiKey { id } } }`,
      { storeId: a.storeId, id: apiKey.id },
      { token: a.ownerToken },
    );
    const fresh = roll.body.data.rollApiKey;
    await t.graphql(`mutation($storeId: ID!, $id: ID!) { revokeApiKey(storeId: $storeId, id: $id) { id } }`, { storeId: a.storeId, id: fresh.apiKey.id }, { token: a.ownerToken });
    const res = await t.request('GET', history(a, '?resource_type=api_key'), { token: a.ownerToken });
    const events = res.body.data.filter((e: any) => [apiKey.id, fresh.apiKey.id].includes(e.resource.id)).reverse();
    expect(events.map((e: any) => [e.type, e.resource.id])).toEqual([
      ['api_key.created', apiKey.id],
      ['api_key.created', fresh.apiKey.id],
      ['api_key.rolled', apiKey.id],
      ['api_key.revoked', fresh.apiKey.id],
    ]);
    expect(events.every((e: any) => e.mode === 'test' && e.source === 'dashboard_graphql')).toBe(true);
    expect(events[0].data).toMatchObject({ redacted_key: apiKey.redactedKey, scopes: ['products:read'], type: 'secret' });
    expect(events[2].changes.map((c: any) => c.field)).toEqual(['expires_at']);
    expect(events[3].changes.map((c: any) => c.field)).toEqual(['revoked_at']);
    const all = JSON.stringify(await db().event.findMany());
    expect(all).not.toContain(secret);
    expect(all).not.toContain(fresh.secret);
  });

  it('OAuth grants: created by the consenting user, revoked by the partner app that asked', async () => {
    const app = await registerApp(t, a.ownerToken, { name: 'Sync app' });
    const tokens = await connectApp(t, a.ownerToken, app, a.storeId, { mode: 'live' });
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { appId: app.id } });
    // The partner revokes its refresh token: the grant ends, and the history names the app as the actor.
    const revoked = await postForm(t, '/revoke', { token: tokens.refresh_token }, basicAuth(app.clientId, app.clientSecret));
    expect(revoked.status).toBe(200);
    const events = (await stored(grant.id)).map((e) => [e.type, e.actorKind, e.actorId, e.actorName, e.source]);
    expect(events).toEqual([
      ['oauth_grant.created', 'user', a.ownerId, expect.any(String), 'public_api'],
      ['oauth_grant.revoked', 'oauth_app', app.id, 'Sync app', 'public_api'],
    ]);
    const appEvents = await stored(app.id);
    expect(appEvents.map((e) => [e.type, e.storeId])).toEqual([['oauth_app.created', null]]);
    const all = JSON.stringify(await db().event.findMany());
    for (const secret of [app.clientSecret, tokens.access_token, tokens.refresh_token]) expect(all).not.toContain(secret);
  });

  it('OAuth apps: suspended, activated and a rotated secret (named, never shown)', async () => {
    const app = await registerApp(t, a.ownerToken, { name: 'Ops app' });
    const g = (q: string) => t.graphql(q, { id: app.id }, { token: a.ownerToken });
    await g(`mutation($id: ID!) { suspendOAuthApp(id: $id) { id } }`);
    await g(`mutation($id: ID!) { suspendOAuthApp(id: $id) { id } }`);
    await g(`mutation($id: ID!) { activateOAuthApp(id: $id) { id } }`);
    const rotated = await g(`mutation($id: ID!) { rotateOAuthAppSecret(id: $id) { clientSecret } }`);
    const events = await stored(app.id);
    expect(events.map((e) => e.type)).toEqual(['oauth_app.created', 'oauth_app.suspended', 'oauth_app.activated', 'oauth_app.updated']);
    expect(events[3].changes).toEqual([{ field: 'client_secret', previous: '[redacted]', next: '[redacted]' }]);
    const all = JSON.stringify(await db().event.findMany());
    expect(all).not.toContain(rotated.body.data.rotateOAuthAppSecret.clientSecret);
    expect(all).not.toContain(app.clientSecret);
  });
});

describe('categories on the dashboard', () => {
  it('created, updated and deleted through GraphQL; one in use cannot be deleted', async () => {
    const g = (q: string, v: Record<string, unknown> = {}, token = a.staffToken) => t.graphql(q, { storeId: a.storeId, ...v }, { token });
    const created = await g(`mutation($storeId: ID!) { createCategory(storeId: $storeId, input: {slug: "socks", name: "Socks"}) { id slug name } }`);
    const id = created.body.data.createCategory.id;
    const taken = await g(`mutation($storeId: ID!) { createCategory(storeId: $storeId, input: {slug: "SOCKS", name: "Again"}) { id } }`);
    expect(taken.body.errors[0].extensions.code).toBe('validation_failed');
    const renamed = await g(`mutation($storeId: ID!) { updateCategory(storeId: $storeId, category: "socks", input: {name: "Warm socks"}) { slug name } }`);
    expect(renamed.body.data.updateCategory).toEqual({ slug: 'socks', name: 'Warm socks' });
    const product = (await createRest(a, { category_slugs: ['socks'] })).body.data.id;
    const inUse = await g(`mutation($storeId: ID!) { deleteCategory(storeId: $storeId, category: "socks") { id } }`);
    expect(inUse.body.errors[0].extensions).toMatchObject({ code: 'category_in_use', products: 1 });
    await t.request('DELETE', `${products(a)}/${product}`, { token: a.ownerToken });
    const gone = await g(`mutation($storeId: ID!) { deleteCategory(storeId: $storeId, category: "socks") { id slug } }`);
    expect(gone.body.data.deleteCategory).toEqual({ id, slug: 'socks' });
    expect((await g(`mutation($storeId: ID!) { deleteCategory(storeId: $storeId, category: "hats") { id } }`, {}, a.viewerToken)).body.errors[0].extensions.code).toBe('forbidden');
    const events = await stored(id);
    expect(events.map((e) => [e.type, e.source, e.actorKind])).toEqual([
      ['category.created', 'dashboard_graphql', 'user'],
      ['category.updated', 'dashboard_graphql', 'user'],
      ['category.deleted', 'dashboard_graphql', 'user'],
    ]);
    expect(events[1].changes).toEqual([{ field: 'name', previous: 'Socks', next: 'Warm socks' }]);
  });
});

describe('reading the history', () => {
  let s: StoreFixture;
  let ids: string[];
  beforeAll(async () => {
    s = await createStoreFixture();
    ids = [];
    for (let i = 0; i < 5; i++) ids.push((await t.request('POST', products(s), { token: s.staffToken, body: { name: `P${i}`, price: 1, category_slugs: ['shoes'] } })).body.data.id);
    await t.request('POST', `${products(s)}/${ids[0]}/publish`, { token: s.ownerToken });
  });

  it('pages newest first with opaque cursors and a next link', async () => {
    const first = await t.request('GET', history(s, '?resource_type=product&limit=4'), { token: s.ownerToken });
    expect(first.status).toBe(200);
    expect(first.body.meta).toMatchObject({ limit: 4, has_more: true });
    const link = first.headers.get('link')!;
    expect(link).toContain('rel="next"');
    const next = await t.request('GET', new URL(link.slice(1, link.indexOf('>'))).pathname + new URL(link.slice(1, link.indexOf('>'))).search, { token: s.ownerToken });
    expect(next.body.meta).toEqual({ limit: 4, has_more: false, next_cursor: null });
    const seen = [...first.body.data, ...next.body.data];
    expect(seen.map((e: any) => e.type)).toEqual(['product.published', ...Array(5).fill('product.created')]);
    expect(seen.slice(1).map((e: any) => e.resource.id)).toEqual([...ids].reverse());
    const sorted = [...seen.map((e: any) => e.id)].sort().reverse();
    expect(seen.map((e: any) => e.id)).toEqual(sorted);
  });

  it('filters by type, actor and time', async () => {
    const byType = await t.request('GET', history(s, '?type=product.published'), { token: s.ownerToken });
    expect(byType.body.data.map((e: any) => e.resource.id)).toEqual([ids[0]]);
    const staff = byType.body.data[0];
    expect(staff.actor.id).toBe(s.ownerId);
    const staffEvents = await t.request('GET', history(s, `?type=product.created,product.published&actor_id=${s.ownerId}`), { token: s.ownerToken });
    expect(staffEvents.body.data.map((e: any) => e.type)).toEqual(['product.published']);
    const future = await t.request('GET', history(s, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`), { token: s.ownerToken });
    expect(future.body.data).toEqual([]);
    const past = await t.request('GET', history(s, `?until=2020-01-01T00:00:00Z`), { token: s.ownerToken });
    expect(past.body.data).toEqual([]);
  });

  it('answers bad parameters with 422 naming them', async () => {
    const cases = ['?limit=101', '?limit=0', '?after=not-a-cursor', '?type=product.exploded', '?since=yesterday', '?resource_type=planet'];
    for (const q of cases) {
      const res = await t.request('GET', history(s, q), { token: s.ownerToken });
      expect({ q, status: res.status }).toEqual({ q, status: 422 });
      expect(res.body.errors?.length).toBeGreaterThan(0);
    }
  });

  it('needs view_changes for the store history; a product history is open to manage_products too', async () => {
    const viewChanges = await memberToken(s.storeId, ['view_changes']);
    expect((await t.request('GET', history(s), { token: viewChanges })).status).toBe(200);
    expect((await t.request('GET', history(s), { token: s.staffToken })).status).toBe(403);
    expect((await t.request('GET', history(s), { token: s.viewerToken })).status).toBe(403);
    expect((await t.request('GET', history(s))).status).toBe(401);
    expect((await t.request('GET', productHistory(s, ids[1]), { token: s.staffToken })).status).toBe(200);
    expect((await t.request('GET', productHistory(s, ids[1]), { token: viewChanges })).status).toBe(200);
    expect((await t.request('GET', productHistory(s, ids[1]), { token: s.viewerToken })).status).toBe(403);
    // Another store's owner sees nothing of this store.
    expect((await t.request('GET', history(s), { token: a.ownerToken })).status).toBe(403);
  });

  it("a product that never existed is 404; a deleted one's history stays readable", async () => {
    expect((await t.request('GET', productHistory(s, '00000000-0000-7000-8000-000000000000'), { token: s.ownerToken })).status).toBe(404);
    await t.request('DELETE', `${products(s)}/${ids[4]}`, { token: s.ownerToken });
    const res = await t.request('GET', productHistory(s, ids[4]), { token: s.ownerToken });
    expect(res.body.data.map((e: any) => e.type)).toEqual(['product.deleted', 'product.created']);
  });
});

describe('retention', () => {
  it("the service's scheduled job prunes on its own, without a request", async () => {
    const id = (await createRest(a)).body.data.id;
    await db().event.updateMany({ where: { resourceId: id }, data: { occurredAt: new Date(Date.now() - 31 * 86_400_000) } });
    // An instance configured to keep 30 days, checking every second, on the same database.
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEED_DEMO: 'false', CHANGES_RETENTION_DAYS: '30', CHANGES_PRUNE_INTERVAL_MS: '1000' });
    const instance = createApp(config, { log: pino({ level: 'silent' }) });
    const stop = instance.startJobs();
    try {
      const deadline = Date.now() + 15_000;
      while ((await stored(id)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await stored(id)).toHaveLength(0);
    } finally {
      stop();
      await instance.close();
    }
  });

  it('pruneEvents deletes events older than the retention period, and only those', async () => {
    const id = (await createRest(a)).body.data.id;
    const before = await stored(id);
    expect(before).toHaveLength(1);
    await db().event.update({ where: { id: before[0].id }, data: { occurredAt: new Date(Date.now() - 400 * 86_400_000) } });
    const recent = (await createRest(a)).body.data.id;
    const deleted = await pruneEvents(db(), { retentionDays: 365, now: new Date(), batchSize: 2 });
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await stored(id)).toHaveLength(0);
    expect(await stored(recent)).toHaveLength(1);
  });
});
