import { db } from '../../src/platform/db/client';
import { createStoreFixture, memberToken, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { API_KEY_FIELDS, CREATE_KEY, createKey, publicGet, TestClock } from './helpers';

let t: TestServer;
let store: StoreFixture;
let other: StoreFixture;
const clock = new TestClock();
const secrets: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000' }, { now: clock.now });
  store = await createStoreFixture();
  other = await createStoreFixture();
});
afterAll(() => t.close());
beforeEach(() => clock.set(Date.now()));

const COUNTRIES = '/payments/supported-countries';
const LIST = `query($storeId: ID!, $mode: ServiceMode) { apiKeys(storeId: $storeId, mode: $mode) { ${API_KEY_FIELDS} } }`;
const ROLL = `mutation($storeId: ID!, $id: ID!, $s: Int) {
  rollApiKey(storeId: $storeId, id: $id, expiresInSeconds: $s) { secret apiKey { ${API_KEY_FIELDS} } previous { ${API_KEY_FIELDS} } }
}`;
const REVOKE = `mutation($storeId: ID!, $id: ID!) { revokeApiKey(storeId: $storeId, id: $id) { ${API_KEY_FIELDS} } }`;

async function newKey(input: Parameters<typeof createKey>[2], token?: string) {
  const k = await createKey(t, store, input, token);
  secrets.push(k.secret);
  return k;
}

describe('creating keys', () => {
  it.each([
    ['system', 'test', 'svc_test_ck_'],
    ['system', 'live', 'svc_live_ck_'],
    ['secret', 'test', 'svc_test_sk_'],
    ['secret', 'live', 'svc_live_sk_'],
    ['publishable', 'test', 'svc_test_pk_'],
    ['publishable', 'live', 'svc_live_pk_'],
  ] as const)('a %s key in %s mode starts with %s and carries 192 random bits and a checksum', async (type, mode, prefix) => {
    const { secret, apiKey } = await newKey({ type, mode, scopes: type === 'secret' ? ['products:read'] : undefined });
    expect(secret.startsWith(prefix)).toBe(true);
    expect(secret.slice(prefix.length)).toMatch(/^[0-9A-Za-z]{39}$/); // 33 random + 6 checksum
    expect(apiKey).toMatchObject({ type, mode, redactedKey: `${prefix}…${secret.slice(-4)}`, createdBy: { id: store.ownerId }, lastUsedAt: null, revokedAt: null });
  });

  it('gives publishable keys public:read, and only that', async () => {
    expect((await newKey({ type: 'publishable', mode: 'live' })).apiKey.scopes).toEqual(['public:read']);
    expect((await newKey({ type: 'publishable', mode: 'live', scopes: ['public:read'] })).apiKey.scopes).toEqual(['public:read']);
    const res = await t.graphql(CREATE_KEY, { storeId: store.storeId, input: { name: 'p', type: 'publishable', mode: 'live', scopes: ['products:write'] } }, { token: store.ownerToken });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ field: 'scopes', code: 'scope_not_allowed' }] });
  });

  it('requires a secret key to name its scopes and gives a system key all of them by default', async () => {
    const res = await t.graphql(CREATE_KEY, { storeId: store.storeId, input: { name: 's', type: 'secret', mode: 'test' } }, { token: store.ownerToken });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'validation_failed', errors: [{ field: 'scopes', code: 'required' }] });
    const system = await newKey({ type: 'system', mode: 'test' });
    expect(system.apiKey.scopes).toEqual(['public:read', 'products:read', 'products:write', 'payments:read']);
    const secret = await newKey({ type: 'secret', mode: 'test', scopes: ['payments:read', 'products:write', 'payments:read'] });
    expect(secret.apiKey.scopes).toEqual(['products:write', 'payments:read']);
  });

  it('rejects unknown scopes, empty names and past expiry dates without creating anything', async () => {
    const before = await db().apiKey.count();
    for (const input of [
      { name: 'x', type: 'secret', mode: 'test', scopes: ['admin:all'] },
      { name: '  ', type: 'secret', mode: 'test', scopes: ['public:read'] },
      { name: 'x', type: 'secret', mode: 'test', scopes: ['public:read'], expiresAt: new Date(Date.now() - 1000).toISOString() },
    ]) {
      const res = await t.graphql(CREATE_KEY, { storeId: store.storeId, input }, { token: store.ownerToken });
      expect(res.body.errors[0].extensions.code).toBe('validation_failed');
    }
    expect(await db().apiKey.count()).toBe(before);
  });
});

describe('who may manage keys', () => {
  it.each([
    ['the owner', true, () => store.ownerToken],
    ['a member with manage_api_keys', true, () => memberToken(store.storeId, ['manage_api_keys'])],
    ['a member with manage_products only', false, () => store.staffToken],
    ['a member without permissions', false, () => store.viewerToken],
    ["another store's owner", false, () => other.ownerToken],
  ] as const)('%s: allowed=%s', async (_who, allowed, tokenOf) => {
    const token = await tokenOf();
    const create = await t.graphql(CREATE_KEY, { storeId: store.storeId, input: { name: 'm', type: 'publishable', mode: 'test' } }, { token });
    const list = await t.graphql(LIST, { storeId: store.storeId }, { token });
    if (allowed) {
      expect(create.body.errors).toBeUndefined();
      secrets.push(create.body.data.createApiKey.secret);
      expect(list.body.data.apiKeys.length).toBeGreaterThan(0);
    } else {
      expect(create.body.errors[0].extensions.code).toBe('forbidden');
      expect(list.body.errors[0].extensions.code).toBe('forbidden');
    }
  });

  it('cannot roll or revoke a key of another store by id', async () => {
    const { apiKey } = await newKey({ type: 'publishable', mode: 'test' });
    for (const [q, vars] of [[ROLL, {}], [REVOKE, {}]] as const) {
      const res = await t.graphql(q, { storeId: other.storeId, id: apiKey.id, ...vars }, { token: other.ownerToken });
      expect(res.body.errors[0].extensions.code).toBe('not_found');
    }
  });
});

describe('listing keys', () => {
  it('never shows a key, only its redacted form, and filters by mode', async () => {
    const { secret } = await newKey({ type: 'secret', mode: 'live', scopes: ['public:read'] });
    const res = await t.graphql(LIST, { storeId: store.storeId, mode: 'live' }, { token: store.ownerToken });
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toMatch(/svc_(test|live)_(ck|sk|pk)_[0-9A-Za-z]{10}/);
    const keys = res.body.data.apiKeys;
    expect(keys.every((k: { mode: string }) => k.mode === 'live')).toBe(true);
    expect(keys[0].redactedKey).toBe(`svc_live_sk_…${secret.slice(-4)}`);
  });
});

describe('revoking', () => {
  it('stops a key at once, with 401 api_key_revoked', async () => {
    const { secret, apiKey } = await newKey({ type: 'secret', mode: 'test', scopes: ['payments:read'] });
    expect((await publicGet(t, COUNTRIES, { key: secret })).status).toBe(200);
    const res = await t.graphql(REVOKE, { storeId: store.storeId, id: apiKey.id }, { token: store.ownerToken });
    expect(res.body.data.revokeApiKey.revokedAt).not.toBeNull();
    const after = await publicGet(t, COUNTRIES, { key: secret });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('api_key_revoked');
    expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // Revoking again is harmless and keeps the first revocation time.
    const again = await t.graphql(REVOKE, { storeId: store.storeId, id: apiKey.id }, { token: store.ownerToken });
    expect(again.body.data.revokeApiKey.revokedAt).toBe(res.body.data.revokeApiKey.revokedAt);
  });
});

describe('expiry and rolling (controllable clock)', () => {
  it('answers 401 api_key_expired once a key passes its expiry', async () => {
    const expiresAt = new Date(Date.now() + 3600_000);
    const { secret } = await newKey({ type: 'secret', mode: 'test', scopes: ['public:read'], expiresAt: expiresAt.toISOString() });
    clock.set(expiresAt.getTime() - 1);
    expect((await publicGet(t, COUNTRIES, { key: secret })).status).toBe(200);
    clock.set(expiresAt);
    const res = await publicGet(t, COUNTRIES, { key: secret });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('api_key_expired');
  });

  it('keeps the old key working until the chosen expiry while the new one works at once', async () => {
    const { secret: oldSecret, apiKey: old } = await newKey({ type: 'secret', mode: 'live', scopes: ['payments:read', 'products:read'], name: 'checkout' });
    const res = await t.graphql(ROLL, { storeId: store.storeId, id: old.id, s: 2 * 3600 }, { token: store.ownerToken });
    expect(res.body.errors).toBeUndefined();
    const { secret: newSecret, apiKey: fresh, previous } = res.body.data.rollApiKey;
    secrets.push(newSecret);
    expect(newSecret).not.toBe(oldSecret);
    expect(fresh).toMatchObject({ name: 'checkout', type: 'secret', mode: 'live', scopes: ['products:read', 'payments:read'], rolledFromId: old.id, expiresAt: null });
    const overlapEnd = new Date(previous.expiresAt).getTime();
    expect(overlapEnd - Date.now()).toBeGreaterThan(2 * 3600_000 - 60_000);
    expect(overlapEnd - Date.now()).toBeLessThanOrEqual(2 * 3600_000);

    clock.set(overlapEnd - 1000);
    expect((await publicGet(t, COUNTRIES, { key: oldSecret })).status).toBe(200);
    expect((await publicGet(t, COUNTRIES, { key: newSecret })).status).toBe(200);
    clock.set(overlapEnd);
    const expired = await publicGet(t, COUNTRIES, { key: oldSecret });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('api_key_expired');
    clock.advance(30 * 24 * 3600_000);
    expect((await publicGet(t, COUNTRIES, { key: newSecret })).status).toBe(200);
  });

  it('with expiresInSeconds 0 the old key stops at once; the default overlap is 24 hours', async () => {
    const a = await newKey({ type: 'publishable', mode: 'test' });
    const rolled = await t.graphql(ROLL, { storeId: store.storeId, id: a.apiKey.id, s: 0 }, { token: store.ownerToken });
    secrets.push(rolled.body.data.rollApiKey.secret);
    clock.set(Date.now());
    expect((await publicGet(t, COUNTRIES, { key: a.secret })).body.code).toBe('api_key_expired');
    expect((await publicGet(t, COUNTRIES, { key: rolled.body.data.rollApiKey.secret })).status).toBe(200);

    const b = await newKey({ type: 'publishable', mode: 'test' });
    const def = await t.graphql(ROLL, { storeId: store.storeId, id: b.apiKey.id }, { token: store.ownerToken });
    secrets.push(def.body.data.rollApiKey.secret);
    const overlap = new Date(def.body.data.rollApiKey.previous.expiresAt).getTime() - Date.now();
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('refuses an overlap beyond 7 days, a second roll of the same key, and rolling a revoked key', async () => {
    const k = await newKey({ type: 'publishable', mode: 'test' });
    const tooLong = await t.graphql(ROLL, { storeId: store.storeId, id: k.apiKey.id, s: 7 * 24 * 3600 + 1 }, { token: store.ownerToken });
    expect(tooLong.body.errors[0].extensions.code).toBe('validation_failed');
    const first = await t.graphql(ROLL, { storeId: store.storeId, id: k.apiKey.id, s: 7 * 24 * 3600 }, { token: store.ownerToken });
    expect(first.body.errors).toBeUndefined();
    secrets.push(first.body.data.rollApiKey.secret);
    const second = await t.graphql(ROLL, { storeId: store.storeId, id: k.apiKey.id }, { token: store.ownerToken });
    expect(second.body.errors[0].extensions.code).toBe('conflict');

    const r = await newKey({ type: 'publishable', mode: 'test' });
    await t.graphql(REVOKE, { storeId: store.storeId, id: r.apiKey.id }, { token: store.ownerToken });
    const revoked = await t.graphql(ROLL, { storeId: store.storeId, id: r.apiKey.id }, { token: store.ownerToken });
    expect(revoked.body.errors[0].extensions.code).toBe('conflict');
  });
});

describe('last_used_at', () => {
  it('is written off the request path, at most once a minute per key', async () => {
    const { secret, apiKey } = await newKey({ type: 'publishable', mode: 'live' });
    const lastUsed = async () => {
      await t.app.settle();
      return (await db().apiKey.findUniqueOrThrow({ where: { id: apiKey.id } })).lastUsedAt?.getTime();
    };
    const t0 = Date.now();
    clock.set(t0);
    await publicGet(t, COUNTRIES, { key: secret });
    expect(await lastUsed()).toBe(t0);
    clock.set(t0 + 59_000);
    await publicGet(t, COUNTRIES, { key: secret });
    expect(await lastUsed()).toBe(t0);
    clock.set(t0 + 61_000);
    await publicGet(t, COUNTRIES, { key: secret });
    expect(await lastUsed()).toBe(t0 + 61_000);
  });
});

describe('storage', () => {
  it('keeps no plaintext key in the database: only SHA-256 digests, prefix and last 4', async () => {
    expect(secrets.length).toBeGreaterThan(10);
    const rows = await db().$queryRawUnsafe<Record<string, unknown>[]>('SELECT * FROM api_keys');
    const dump = JSON.stringify(rows);
    for (const secret of secrets) {
      expect(dump).not.toContain(secret);
      // Not even the random part without its prefix.
      expect(dump).not.toContain(secret.slice(12, 30));
    }
    for (const row of rows) {
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(String(row.last4)).toHaveLength(4);
    }
  });
});
