import { newCredential } from '../../src/access/auth/secrets';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createKey, createOAuthAccessToken, publicGet } from './helpers';

let t: TestServer;
let store: StoreFixture;
type Mode = 'test' | 'live';
type Kind = 'system' | 'secret' | 'publishable' | 'oauth';
const credentials = new Map<string, string>();
const other = (m: Mode): Mode => (m === 'test' ? 'live' : 'test');

beforeAll(async () => {
  // Generous limits: this file is about authentication, rate limits have their own tests.
  t = await startTestServer({ RATE_LIMIT_TEST_PER_SECOND: '1000', RATE_LIMIT_LIVE_PER_SECOND: '1000', OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  for (const mode of ['test', 'live'] as Mode[]) {
    credentials.set(`system ${mode}`, (await createKey(t, store, { type: 'system', mode })).secret);
    credentials.set(`secret ${mode}`, (await createKey(t, store, { type: 'secret', mode, scopes: ['payments:read'] })).secret);
    credentials.set(`publishable ${mode}`, (await createKey(t, store, { type: 'publishable', mode })).secret);
    credentials.set(`oauth ${mode}`, (await createOAuthAccessToken(store, mode, ['public:read'])).token);
  }
});
afterAll(() => t.close());

const COUNTRIES = '/payments/supported-countries';

describe('every credential type x every mode source', () => {
  const kinds: Kind[] = ['system', 'secret', 'publishable', 'oauth'];
  const modes: Mode[] = ['test', 'live'];
  // [case, header, query, expected status, expected code] as functions of the credential's mode.
  const cases: [string, (m: Mode) => string | undefined, (m: Mode) => string | undefined, number, string?][] = [
    ['no mode sent: the credential decides', () => undefined, () => undefined, 200],
    ['header, same mode', (m) => m, () => undefined, 200],
    ['header, other mode', (m) => other(m), () => undefined, 403, 'mode_mismatch'],
    ['query, same mode', () => undefined, (m) => m, 200],
    ['query, other mode', () => undefined, (m) => other(m), 403, 'mode_mismatch'],
    ['header and query, both the same mode', (m) => m, (m) => m, 200],
    ['header and query, both the other mode', (m) => other(m), (m) => other(m), 403, 'mode_mismatch'],
    ['header and query differ', (m) => m, (m) => other(m), 400, 'conflicting_mode'],
    ['header and query differ (other way round)', (m) => other(m), (m) => m, 400, 'conflicting_mode'],
    ['invalid header value', () => 'production', () => undefined, 400, 'invalid_mode'],
    ['invalid query value', () => undefined, () => 'LIVE', 400, 'invalid_mode'],
    ['empty header value', () => '', () => undefined, 400, 'invalid_mode'],
  ];
  // Every row has the same length: jest treats a test function with more parameters than the row as callback-style.
  const table = kinds.flatMap((kind) => modes.flatMap((mode) => cases.map(([name, header, query, status, code]) => [kind, mode, name, header, query, status, code ?? null] as const)));

  it.each(table)('%s key in %s mode, %s', async (kind, mode, _case, header, query, status, code) => {
    const res = await publicGet(t, COUNTRIES, { key: credentials.get(`${kind} ${mode}`), modeHeader: header(mode), modeQuery: query(mode) });
    expect(res.status).toBe(status);
    if (status === 200) {
      expect(res.headers.get('x-service-mode')).toBe(mode);
      expect(res.body.livemode).toBe(mode === 'live');
      expect(res.body.data.length).toBeGreaterThan(30);
    } else {
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body).toMatchObject({ status, code });
    }
    if (code === 'mode_mismatch') {
      const requested = other(mode);
      expect(res.body).toMatchObject({ request_mode: requested, credential_mode: mode, livemode: requested === 'live' });
      expect(res.headers.get('x-service-mode')).toBe(requested);
    }
  });
});

describe('how the credential is sent', () => {
  it.each(['system', 'secret', 'publishable', 'oauth'] as Kind[])('accepts a %s credential in X-API-Key', async (kind) => {
    const res = await publicGet(t, COUNTRIES, { key: credentials.get(`${kind} live`), via: 'x-api-key' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-mode')).toBe('live');
  });

  it('accepts the same key in both headers', async () => {
    const key = credentials.get('secret test')!;
    const res = await publicGet(t, COUNTRIES, { key, headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
  });

  it('answers 400 conflicting_credentials for two different credentials', async () => {
    const res = await publicGet(t, COUNTRIES, { key: credentials.get('secret test'), headers: { 'x-api-key': credentials.get('publishable test')! } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('conflicting_credentials');
  });

  it('answers 401 unauthenticated with a bare challenge when nothing is sent', async () => {
    const res = await publicGet(t, COUNTRIES);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="public-api"');
    expect(res.headers.get('x-service-mode')).toBeNull();
  });

  it('checks the request syntax (400) before the credential (401)', async () => {
    const res = await publicGet(t, COUNTRIES, { modeHeader: 'staging' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_mode');
  });

  it('names the mode of a request that fails authentication when the request stated one', async () => {
    const res = await publicGet(t, COUNTRIES, { modeQuery: 'live' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-service-mode')).toBe('live');
    expect(res.body.livemode).toBe(true);
  });

  it.each([
    ['an unknown well-formed key', () => replaceRandomPart(credentials.get('secret live')!)],
    ['a key with a wrong checksum', () => flipLastChar(credentials.get('secret live')!)],
    ['a truncated key', () => credentials.get('secret live')!.slice(0, -3)],
    ['a dashboard token', () => store.ownerToken],
    ['something else entirely', () => 'hunter2'],
  ])('answers 401 invalid_api_key with WWW-Authenticate for %s', async (_what, key) => {
    const res = await publicGet(t, COUNTRIES, { key: key() });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_key');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="public-api", error="invalid_token"/);
  });

  it('rejects a key with a bad checksum without querying the database', async () => {
    await t.app.settle();
    const before = t.database.queryCount();
    const res = await publicGet(t, COUNTRIES, { key: flipLastChar(credentials.get('system live')!) });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/malformed/);
    expect(t.database.queryCount()).toBe(before);
    // A well-formed unknown key does take one lookup: the difference is the checksum.
    await publicGet(t, COUNTRIES, { key: replaceRandomPart(credentials.get('system live')!) });
    expect(t.database.queryCount()).toBe(before + 1);
  });

  it('answers 401 for an Authorization header that is not Bearer', async () => {
    const res = await t.request('GET', `/api/public/v1${COUNTRIES}`, { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_key');
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_request"');
  });

  it('answers 403 app_suspended for a token of a suspended OAuth app, in every mode', async () => {
    const { token, appId } = await createOAuthAccessToken(store, 'test');
    expect((await publicGet(t, COUNTRIES, { key: token })).status).toBe(200);
    await db().oAuthApp.update({ where: { id: appId }, data: { status: 'suspended' } });
    const res = await publicGet(t, COUNTRIES, { key: token });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('app_suspended');
    expect((await publicGet(t, COUNTRIES, { key: token, modeHeader: 'live' })).body.code).toBe('app_suspended');
  });

  it('answers CORS preflights without a credential so browsers can use publishable keys', async () => {
    const res = await t.request('OPTIONS', `/api/public/v1/products`, { headers: { origin: 'https://shop.example', 'access-control-request-headers': 'authorization' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('X-API-Key');
    const get = await publicGet(t, COUNTRIES, { key: credentials.get('publishable live') });
    expect(get.headers.get('access-control-expose-headers')).toContain('RateLimit');
  });
});

/** Same prefix, new random part, valid checksum: a key that could exist but does not. */
function replaceRandomPart(key: string): string {
  return newCredential(key.slice(0, 12), 24);
}

function flipLastChar(key: string): string {
  return key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
}
