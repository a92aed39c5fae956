import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createLoginThrottle } from '../../src/access/auth/loginThrottle';
import { loadConfig } from '../../src/platform/config';
import { redisRateLimiter, type RateLimitPolicy } from '../../src/platform/rateLimit';
import { createStoreFixture } from '../helpers/fixtures';
import { startTestServer } from '../helpers/harness';
import { createKey, publicGet } from '../public/helpers';

/**
 * Redis gone or hung must not cost every request a command timeout: after two
 * failures the circuit opens, calls use the per-instance fallback without
 * asking Redis, one warning is logged per back-off period, and Redis is used
 * again once it answers.
 */

/** A Redis that completes the connection handshake and then never answers a command (or answers, once told to). */
class FakeRedis {
  server: Server;
  /** Script calls received (EVAL / EVALSHA), the commands the limiters send per request. */
  scriptCalls = 0;
  answer = false;
  private sockets = new Set<Socket>();
  private handshakes = 0;
  private waiting: (() => void)[] = [];

  constructor() {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {});
      let buffered = '';
      let hung = 0;
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1');
        // RESP arrays of bulk strings: *N\r\n$len\r\narg\r\n…
        for (;;) {
          const command = parseCommand(buffered);
          if (!command) break;
          buffered = buffered.slice(command.length);
          const name = command.args[0]?.toUpperCase();
          if (name === 'INFO') {
            socket.write(bulk('# Server\r\nredis_version:7.0.0\r\nloading:0\r\n'));
            this.handshakes++;
            for (const w of this.waiting.splice(0)) w();
          }
          else if (name === 'EVALSHA' || name === 'EVAL') {
            this.scriptCalls++;
            if (!this.answer) {
              hung++; // no reply, as a stalled Redis
              continue;
            }
            // A Redis that recovers answers what it was sent while stalled first, in order.
            for (; hung > 0; hung--) socket.write('*2\r\n:1\r\n$1\r\n4\r\n');
            if (name === 'EVALSHA') socket.write('-NOSCRIPT No matching script\r\n');
            else socket.write('*2\r\n:1\r\n$1\r\n4\r\n');
          } else socket.write('+OK\r\n');
        }
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `redis://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves once `n` clients have made their ready check (and had a moment to read the answer). */
  async ready(n = 1) {
    while (this.handshakes < n) await new Promise<void>((resolve) => this.waiting.push(resolve));
    await sleep(50);
  }

  async close() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function parseCommand(text: string): { args: string[]; length: number } | null {
  if (!text.startsWith('*')) return null;
  let at = text.indexOf('\r\n');
  if (at < 0) return null;
  const count = Number(text.slice(1, at));
  at += 2;
  const args: string[] = [];
  for (let i = 0; i < count; i++) {
    const end = text.indexOf('\r\n', at);
    if (end < 0) return null;
    const len = Number(text.slice(at + 1, end));
    if (text.length < end + 2 + len + 2) return null;
    args.push(text.slice(end + 2, end + 2 + len));
    at = end + 2 + len + 2;
  }
  return { args, length: at };
}

const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

const POLICY: RateLimitPolicy = { name: 'live', perSecond: 1000, burst: 1000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Redis outage: the rate limiter fails fast', () => {
  it('a hung Redis is asked twice, then skipped: one warning, every decision from the per-instance bucket', async () => {
    const redis = new FakeRedis();
    const url = await redis.listen();
    const { log, lines } = capturedLogger();
    const limiter = redisRateLimiter(url, 'test:', log);
    try {
      await redis.ready();
      const decisions = [];
      for (let i = 0; i < 40; i++) decisions.push(await limiter.consume('key', POLICY));
      expect(decisions.every((d) => d.allowed)).toBe(true);
      // Two commands timed out and opened the circuit; the other 38 never reached Redis.
      expect(redis.scriptCalls).toBe(2);
      const warnings = lines.filter((l) => l.level === 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0].msg).toContain('redis unavailable');
    } finally {
      await limiter.close();
      await redis.close();
    }
  });

  it('the per-instance fallback still limits', async () => {
    const { log } = capturedLogger();
    // Nothing listens there: commands fail at once (no offline queue).
    const limiter = redisRateLimiter('redis://127.0.0.1:1', 'test:', log);
    try {
      const policy: RateLimitPolicy = { name: 'live', perSecond: 1, burst: 3 };
      const allowed = [];
      for (let i = 0; i < 5; i++) allowed.push((await limiter.consume('key', policy)).allowed);
      expect(allowed).toEqual([true, true, true, false, false]);
    } finally {
      await limiter.close();
    }
  });

  it('uses Redis again once it answers (after the back-off period)', async () => {
    const redis = new FakeRedis();
    const url = await redis.listen();
    const { log, lines } = capturedLogger();
    const limiter = redisRateLimiter(url, 'test:', log);
    try {
      await redis.ready();
      for (let i = 0; i < 5; i++) await limiter.consume('key', POLICY);
      expect(redis.scriptCalls).toBe(2);
      redis.answer = true;
      // The first back-off period is about a second (with jitter); keep asking until Redis is used again.
      let before = redis.scriptCalls;
      for (let i = 0; i < 60 && redis.scriptCalls === before; i++) {
        await sleep(100);
        await limiter.consume('key', POLICY);
      }
      expect(redis.scriptCalls).toBeGreaterThan(before);
      before = redis.scriptCalls;
      for (let i = 0; i < 5; i++) expect((await limiter.consume('key', POLICY)).tokens).toBe(4);
      expect(redis.scriptCalls).toBeGreaterThanOrEqual(before + 5);
      expect(lines.some((l) => l.msg.includes('redis answers again'))).toBe(true);
    } finally {
      await limiter.close();
      await redis.close();
    }
  });
});

describe('Redis outage: login throttling fails fast too', () => {
  it('a hung Redis is asked at most twice per command kind, logins are still throttled per instance', async () => {
    const redis = new FakeRedis();
    const url = await redis.listen();
    const { log, lines } = capturedLogger();
    const config = loadConfig({ REDIS_URL: url, SEED_DEMO: 'false' });
    const throttle = createLoginThrottle(config, log);
    try {
      await redis.ready();
      const attempts = config.loginThrottle.maxFailuresPerAccount + 3;
      let refused = 0;
      for (let i = 0; i < attempts; i++) {
        try {
          // A wrong password: the attempt is never settled as a success, so it counts.
          await throttle.begin('someone@example.test', '203.0.113.9');
        } catch (e) {
          if ((e as { code?: string }).code === 'too_many_login_attempts') refused++;
        }
      }
      expect(refused).toBeGreaterThan(0);
      expect(redis.scriptCalls).toBeLessThanOrEqual(2);
      expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    } finally {
      await throttle.close();
      await redis.close();
    }
  });
});

describe('Redis outage: the public API', () => {
  it('answers every request, with its rate-limit headers, while Redis is hung', async () => {
    const redis = new FakeRedis();
    const url = await redis.listen();
    const t = await startTestServer({ REDIS_URL: url });
    try {
      await redis.ready(2); // the rate limiter's and the login throttle's connections
      const store = await createStoreFixture();
      const { secret } = await createKey(t, store, { type: 'secret', mode: 'live', scopes: ['products:read'] });
      const started = Date.now();
      const statuses = [];
      for (let i = 0; i < 20; i++) {
        const res = await publicGet(t, '/products', { key: secret });
        statuses.push(res.status);
        expect(res.headers.get('ratelimit-policy')).toContain('live');
      }
      expect(statuses).toEqual(Array(20).fill(200));
      // Two to open the circuit, and at most one probe per back-off period (the first is about a second).
      const periods = Math.ceil((Date.now() - started) / 1000);
      expect(redis.scriptCalls).toBeGreaterThanOrEqual(2);
      expect(redis.scriptCalls).toBeLessThanOrEqual(2 + periods);
    } finally {
      await t.close();
      await redis.close();
    }
  });
});
