import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createApp, type App } from '../../src/app';
import { sha256Hex } from '../../src/access/auth/secrets';
import { loadConfig } from '../../src/platform/config';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { newTempDir } from '../helpers/templates';
import { createKey, publicGet, TestClock } from './helpers';

const COUNTRIES = '/payments/supported-countries';
const REDIS_URL = 'redis://127.0.0.1:6379';

/** A second instance of the service on the same database (the process-wide client), as a second server behind a load balancer. */
async function startSecondInstance(env: Record<string, string>): Promise<{ url: string; app: App; close: () => Promise<void> }> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: newTempDir('catalog-data-'), SEED_DEMO: 'false', ...env });
  const app = createApp(config, { log: pino({ level: 'silent' }) });
  const server: Server = createServer((req, res) => void app.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    app,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}

const countries = (url: string, key: string) => fetch(`${url}/api/public/v1${COUNTRIES}`, { headers: { authorization: `Bearer ${key}` } });

describe('in-memory token bucket (one instance)', () => {
  const clock = new TestClock();
  let t: TestServer;
  let store: StoreFixture;

  beforeAll(async () => {
    // Burst 3, one token a second; the clock only moves when the test moves it.
    t = await startTestServer(
      { RATE_LIMIT_TEST_PER_SECOND: '1', RATE_LIMIT_TEST_BURST: '3', RATE_LIMIT_LIVE_PER_SECOND: '100' },
      { now: clock.now },
    );
    store = await createStoreFixture();
  });
  afterAll(() => t.close());

  it('allows the burst, then answers 429 with Retry-After until a token is back', async () => {
    const { secret } = await createKey(t, store, { type: 'publishable', mode: 'test' });
    for (const remaining of [2, 1, 0]) {
      const res = await publicGet(t, COUNTRIES, { key: secret });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"test";q=3;w=3');
      expect(res.headers.get('ratelimit')).toBe(`"test";r=${remaining};t=${3 - remaining}`);
    }
    const limited = await publicGet(t, COUNTRIES, { key: secret });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited', retry_after: 1, livemode: false });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('ratelimit')).toBe('"test";r=0;t=3');
    expect(limited.headers.get('x-service-mode')).toBe('test');

    clock.advance(999);
    expect((await publicGet(t, COUNTRIES, { key: secret })).status).toBe(429);
    clock.advance(1);
    const again = await publicGet(t, COUNTRIES, { key: secret });
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit')).toBe('"test";r=0;t=3');
  });

  it('keeps one bucket per credential and applies the live policy to live keys', async () => {
    const a = await createKey(t, store, { type: 'secret', mode: 'test', scopes: ['products:read'] });
    const b = await createKey(t, store, { type: 'system', mode: 'test' });
    const live = await createKey(t, store, { type: 'system', mode: 'live' });
    // Errors after authentication (here 403 insufficient_scope) count and carry the headers too.
    for (let i = 0; i < 3; i++) {
      const res = await publicGet(t, COUNTRIES, { key: a.secret });
      expect(res.status).toBe(403);
      expect(res.headers.get('ratelimit')).toBe(`"test";r=${2 - i};t=${i + 1}`);
    }
    expect((await publicGet(t, COUNTRIES, { key: a.secret })).status).toBe(429);
    expect((await publicGet(t, COUNTRIES, { key: b.secret })).status).toBe(200);
    const l = await publicGet(t, COUNTRIES, { key: live.secret });
    expect(l.status).toBe(200);
    expect(l.headers.get('ratelimit-policy')).toBe('"live";q=100;w=1');
    expect(l.headers.get('ratelimit')).toBe('"live";r=99;t=1');
  });

  it('counts a mode_mismatch against the credential', async () => {
    const { secret } = await createKey(t, store, { type: 'publishable', mode: 'test' });
    const res = await publicGet(t, COUNTRIES, { key: secret, modeHeader: 'live' });
    expect(res.status).toBe(403);
    expect(res.headers.get('ratelimit')).toBe('"test";r=2;t=1');
  });
});

describe('Redis token bucket shared by two instances', () => {
  // A prefix of its own, so parallel runs and other suites on the same Redis never share buckets.
  const prefix = `test:ratelimit:${randomBytes(8).toString('hex')}:`;
  const env = { REDIS_URL, RATE_LIMIT_REDIS_PREFIX: prefix, RATE_LIMIT_TEST_PER_SECOND: '0.001', RATE_LIMIT_TEST_BURST: '4' };
  let a: TestServer;
  let b: Awaited<ReturnType<typeof startSecondInstance>>;
  let store: StoreFixture;
  const redis = new Redis(REDIS_URL);

  beforeAll(async () => {
    a = await startTestServer(env);
    b = await startSecondInstance(env);
    store = await createStoreFixture();
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await b.close();
    await a.close();
  });

  it('enforces one limit across both instances', async () => {
    const { secret } = await createKey(a, store, { type: 'publishable', mode: 'test' });
    const statuses: number[] = [];
    const remaining: (string | null)[] = [];
    for (const url of [a.url, b.url, a.url, b.url, a.url, b.url]) {
      const res = await countries(url, secret);
      statuses.push(res.status);
      remaining.push(res.headers.get('ratelimit'));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    // The bucket refills one token in 1000 s, so the remaining count is exact whatever the pace of the test.
    expect(remaining.map((h) => h?.replace(/;t=\d+$/, ''))).toEqual(['"test";r=3', '"test";r=2', '"test";r=1', '"test";r=0', '"test";r=0', '"test";r=0']);
    const id = (await db().apiKey.findUniqueOrThrow({ where: { tokenHash: sha256Hex(secret) } })).id;
    expect(await redis.exists(`${prefix}key:${id}:test`)).toBe(1);
  });

  it('keeps separate limits per instance without Redis (why the shared store matters)', async () => {
    const local = { RATE_LIMIT_TEST_PER_SECOND: '0.001', RATE_LIMIT_TEST_BURST: '1' };
    const c = await startSecondInstance(local);
    const d = await startSecondInstance(local);
    try {
      const { secret } = await createKey(a, store, { type: 'publishable', mode: 'test' });
      expect([(await countries(c.url, secret)).status, (await countries(d.url, secret)).status]).toEqual([200, 200]);
      expect([(await countries(c.url, secret)).status, (await countries(d.url, secret)).status]).toEqual([429, 429]);
    } finally {
      await c.close();
      await d.close();
    }
  });

});
