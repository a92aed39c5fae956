import { loadConfig } from '../../src/platform/config';
import { describeEmbeddedProcesses, startServer, type ServerProcess } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';
import { RawConnection } from './rawHttp';

/**
 * A client that sends its request a byte at a time holds a connection; node would wait 300 s for
 * it. The real service process (src/server.ts), started with short limits, closes such
 * connections once the limit has passed.
 */
let server: ServerProcess;
const open: RawConnection[] = [];

beforeAll(async () => {
  server = await startServer(migratedDataDir('catalog-timeouts-'), { env: { HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1500', SEED_DEMO: 'false', WORKER: 'false' } });
}, 60_000);
afterEach(() => {
  for (const c of open.splice(0)) c.destroy();
});
afterAll(() => server?.stop());

async function connection() {
  const c = await RawConnection.open(server.url);
  open.push(c);
  return c;
}

/** Reads what the server sends until it closes: its answer (408) or nothing. Times out (fails) past `ms`. */
async function closedWithin(c: RawConnection, ms: number) {
  const started = Date.now();
  const answer = await c.readResponse(ms).catch(() => 'hang' as const);
  expect(answer).not.toBe('hang');
  if (answer && answer !== 'hang') expect(answer.status).toBe(408);
  expect(await c.waitClosed(Math.max(100, ms - (Date.now() - started)))).toBe(true);
  return Date.now() - started;
}

describeEmbeddedProcesses('slow clients', () => {
  it('headers not finished within HEADERS_TIMEOUT_MS: 408 and the connection closed', async () => {
    const c = await connection();
    await c.write('GET /healthz HTTP/1.1\r\nHost: test\r\n');
    const drip = setInterval(() => void c.write('X-Drip: 1\r\n'), 100);
    try {
      expect(await closedWithin(c, 4000)).toBeLessThan(4000);
    } finally {
      clearInterval(drip);
    }
  });

  it('a body not finished within REQUEST_TIMEOUT_MS: 408 and the connection closed', async () => {
    const c = await connection();
    await c.write('POST /api/v1/merchant/stores/x/products HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":');
    const drip = setInterval(() => void c.write(' '), 100);
    try {
      expect(await closedWithin(c, 6000)).toBeLessThan(6000);
    } finally {
      clearInterval(drip);
    }
  });

  it('a request sent in time is answered as usual', async () => {
    const c = await connection();
    await c.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
    expect(await c.readResponse()).toMatchObject({ status: 200 });
  });
});

describeEmbeddedProcesses('the limits', () => {
  it('default to well under node 300 s: 60 s for a whole request, 15 s for its headers', () => {
    const config = loadConfig({});
    expect(config.http).toEqual({ requestTimeoutMs: 60_000, headersTimeoutMs: 15_000 });
  });

  it('refuse a headers timeout longer than the request timeout, naming the variable', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toThrow(/HEADERS_TIMEOUT_MS/);
  });
});
