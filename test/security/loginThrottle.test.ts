import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/platform/config';
import { createUser } from '../../src/access/services/stores';
import { testContext } from '../helpers/context';
import { startTestServer, type TestServer } from '../helpers/harness';
import { newTempDir } from '../helpers/templates';
import { TestClock } from '../public/helpers';

const LOGIN = 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }';
const PASSWORD = 'correct horse battery';
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

let counter = 0;
async function newUser(): Promise<string> {
  const email = `login-${Date.now().toString(36)}${counter++}${randomBytes(3).toString('hex')}@example.test`;
  await createUser(testContext(), { email, name: 'Login', password: PASSWORD });
  return email;
}

interface Outcome {
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  body: any;
}

async function login(url: string, email: string, password: string, headers: Record<string, string> = {}): Promise<Outcome> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: LOGIN, variables: { e: email, p: password } }),
  });
  const body = await res.json();
  return { status: res.status, code: body.errors?.[0]?.extensions?.code, retryAfter: res.headers.get('retry-after'), body };
}

describe('login throttling in one instance (memory)', () => {
  const clock = new TestClock();
  let t: TestServer;

  beforeAll(async () => {
    // One proxy in front, so a test can speak for several client addresses.
    t = await startTestServer({ TRUST_PROXY_HOPS: '1' }, { now: clock.now });
  });
  afterAll(() => t?.close());

  const from = (address: string) => ({ 'x-forwarded-for': address });

  it('answers 429 too_many_login_attempts with Retry-After after 5 failures for an account, even to the right password; the window ends after 15 minutes', async () => {
    const email = await newUser();
    for (let i = 0; i < 5; i++) expect((await login(t.url, email, 'wrong password', from('10.0.0.1'))).status).toBe(401);
    const blocked = await login(t.url, email, PASSWORD, from('10.0.0.2'));
    expect(blocked.status).toBe(429);
    expect(blocked.code).toBe('too_many_login_attempts');
    expect(Number(blocked.retryAfter)).toBeGreaterThan(890);
    expect(Number(blocked.retryAfter)).toBeLessThanOrEqual(900);
    expect(blocked.body.errors[0].extensions.retry_after).toBe(Number(blocked.retryAfter));
    expect(blocked.body.data).toBeNull();

    clock.advance(15 * 60 * 1000 + 1000);
    const after = await login(t.url, email, PASSWORD, from('10.0.0.2'));
    expect(after.status).toBe(200);
    expect(after.body.data.login.token).toMatch(/^svc_dash_/);
  });

  it('starts an account afresh after a successful login', async () => {
    const email = await newUser();
    for (let i = 0; i < 4; i++) expect((await login(t.url, email, 'wrong password', from('10.0.1.1'))).status).toBe(401);
    expect((await login(t.url, email, PASSWORD, from('10.0.1.1'))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await login(t.url, email, 'wrong password', from('10.0.1.1'))).status).toBe(401);
    expect((await login(t.url, email, 'wrong password', from('10.0.1.1'))).status).toBe(429);
  });

  it('answers 429 to an address after 20 failures across accounts; other addresses and the accounts from elsewhere still log in', async () => {
    const emails = await Promise.all(Array.from({ length: 5 }, () => newUser()));
    for (let i = 0; i < 20; i++) expect((await login(t.url, emails[i % 5], `wrong ${i}`, from('10.0.2.1'))).status).toBe(401);
    const fresh = await newUser();
    const blocked = await login(t.url, fresh, PASSWORD, from('10.0.2.1'));
    expect({ status: blocked.status, code: blocked.code }).toEqual({ status: 429, code: 'too_many_login_attempts' });
    expect(blocked.retryAfter).toMatch(/^\d+$/);
    expect((await login(t.url, fresh, PASSWORD, from('10.0.2.2'))).status).toBe(200);
    // Each of those accounts failed 4 times: one more chance, from another address.
    expect((await login(t.url, emails[0], PASSWORD, from('10.0.2.3'))).status).toBe(200);
  });

  it('lets no more than 5 of 30 concurrent wrong passwords for one account be checked', async () => {
    const email = await newUser();
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => login(t.url, email, `wrong ${i}`, from(`10.0.3.${i}`))));
    const statuses = outcomes.map((o) => o.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });

  it('counts unknown emails like known ones (no way to tell them apart by the throttle)', async () => {
    const nobody = `nobody-${randomBytes(4).toString('hex')}@example.test`;
    for (let i = 0; i < 5; i++) expect((await login(t.url, nobody, 'x', from('10.0.4.1'))).code).toBe('invalid_credentials');
    expect((await login(t.url, nobody.toUpperCase(), 'x', from('10.0.4.2'))).code).toBe('too_many_login_attempts');
  });
});

describe('login throttling shared by two instances (Redis)', () => {
  const prefix = `test:login:${randomBytes(8).toString('hex')}:`;
  const env = { REDIS_URL, LOGIN_THROTTLE_REDIS_PREFIX: prefix, TRUST_PROXY_HOPS: '1' };
  let a: TestServer;
  let b: { url: string; close: () => Promise<void> };
  const redis = new Redis(REDIS_URL);

  beforeAll(async () => {
    a = await startTestServer(env);
    const app = createApp(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: newTempDir('catalog-data-'), SEED_DEMO: 'false', ...env }), { log: pino({ level: 'silent' }) });
    const server: Server = createServer((req, res) => void app.handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    b = {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await app.close();
      },
    };
  });
  /**
   * An instance's Redis connection refuses commands until it is ready (no offline queue), and
   * the circuit breaker then keeps it on its own counts for a while: wait until a probe's
   * failure is counted in Redis.
   */
  async function untilCountedInRedis(url: string) {
    for (let i = 0; i < 100; i++) {
      const probe = `probe-${randomBytes(6).toString('hex')}@example.test`;
      await login(url, probe, 'x', { 'x-forwarded-for': `10.9.${i}.1` });
      if (await redis.exists(`${prefix}account:${createHash('sha256').update(probe).digest('hex')}`)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${url} never counted in Redis`);
  }

  beforeEach(async () => {
    await untilCountedInRedis(a.url);
    await untilCountedInRedis(b.url);
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await b?.close();
    await a?.close();
  });

  it('counts failures on either instance against one account limit, and a success on either resets it', async () => {
    const email = await newUser();
    const xff = { 'x-forwarded-for': '10.1.0.1' };
    const urls = [a.url, b.url, a.url, b.url];
    for (const url of urls) expect((await login(url, email, 'wrong password', xff)).status).toBe(401);
    expect((await login(b.url, email, PASSWORD, xff)).status).toBe(200);
    for (const url of [...urls, a.url]) expect((await login(url, email, 'wrong password', xff)).status).toBe(401);
    const blocked = await login(b.url, email, PASSWORD, xff);
    expect({ status: blocked.status, code: blocked.code }).toEqual({ status: 429, code: 'too_many_login_attempts' });
    expect(Number(blocked.retryAfter)).toBeGreaterThan(800);
    expect((await redis.keys(`${prefix}account:*`)).length).toBeGreaterThan(0);
    // The email itself is not what Redis holds.
    expect((await redis.keys(`${prefix}*`)).join(' ')).not.toContain('example.test');
  });

  it('lets no more than 5 of 30 concurrent wrong passwords through, split over both instances', async () => {
    const email = await newUser();
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => login(i % 2 ? a.url : b.url, email, `wrong ${i}`, { 'x-forwarded-for': `10.1.1.${i}` })));
    expect(outcomes.filter((o) => o.status === 401)).toHaveLength(5);
    expect(outcomes.filter((o) => o.status === 429)).toHaveLength(25);
  });
});
