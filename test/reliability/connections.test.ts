import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { chunk, LAST_CHUNK, RawConnection } from './rawHttp';

/**
 * An answer given before the request body is read to its end (413, 401, 404...) must leave the
 * connection usable or close it: a keep-alive connection whose unread body still sits in front of
 * the next request would never answer that request.
 */
let t: TestServer;
let a: StoreFixture;
const open: RawConnection[] = [];

beforeAll(async () => {
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  a = await createStoreFixture();
});
afterEach(() => {
  for (const c of open.splice(0)) c.destroy();
});
afterAll(() => t.close());

async function connection() {
  const c = await RawConnection.open(t.url);
  open.push(c);
  return c;
}

const KIB = 1024;
const MIB = 1024 * KIB;

/** Sends a chunked body of `total` bytes (complete, with its last chunk) without waiting for the server to read it. */
async function sendChunked(c: RawConnection, head: string, total: number, piece = 'x') {
  await c.write(head + 'Transfer-Encoding: chunked\r\n\r\n');
  const block = piece.repeat(Math.ceil((64 * KIB) / piece.length)).slice(0, 64 * KIB);
  for (let sent = 0; sent < total; sent += block.length) void c.write(chunk(block.slice(0, Math.min(block.length, total - sent))));
  void c.write(LAST_CHUNK);
}

/** After an early answer: the next request on the same connection is answered, or the server closed it. Never a hang. */
async function expectNextRequestAnsweredOrClosed(c: RawConnection) {
  await c.write('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
  const next = await c.readResponse(5000);
  if (next) expect(next.status).toBe(200);
  else expect(c.closed).toBe(true);
  return next;
}

const productsPath = () => `/api/v1/merchant/stores/${a.storeId}/products`;

describe('an oversize chunked body', () => {
  it('REST JSON route: 413, then the connection answers the next request (or is closed)', async () => {
    const c = await connection();
    await sendChunked(c, `POST ${productsPath()} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${a.ownerToken}\r\nContent-Type: application/json\r\n`, 1.5 * MIB);
    const first = await c.readResponse();
    expect(first).toMatchObject({ status: 413 });
    expect(JSON.parse(first!.body)).toMatchObject({ code: 'payload_too_large' });
    // 1.5 MiB is within the drain bound: the connection is kept.
    expect((await expectNextRequestAnsweredOrClosed(c))?.status).toBe(200);
  });

  it('/oauth/token: 413 above 64 KB, then the next request is answered (or the connection closed)', async () => {
    const c = await connection();
    await sendChunked(c, 'POST /api/public/v1/oauth/token HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\n', 200 * KIB, 'a=b&');
    const first = await c.readResponse();
    expect(first).toMatchObject({ status: 413 });
    expect(JSON.parse(first!.body)).toMatchObject({ error: 'invalid_request' });
    expect((await expectNextRequestAnsweredOrClosed(c))?.status).toBe(200);
  });

  it('/graphql: 413 payload_too_large above 1 MiB, then the next request is answered (or the connection closed)', async () => {
    const c = await connection();
    const filler = JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(1.5 * MIB) } });
    await c.write('POST /graphql HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    for (let i = 0; i < filler.length; i += 64 * KIB) void c.write(chunk(filler.slice(i, i + 64 * KIB)));
    void c.write(LAST_CHUNK);
    const first = await c.readResponse();
    expect(first).toMatchObject({ status: 413 });
    expect(JSON.parse(first!.body)).toMatchObject({ code: 'payload_too_large' });
    expect((await expectNextRequestAnsweredOrClosed(c))?.status).toBe(200);
  });

  it('a body that keeps coming past the drain bound: the server closes the connection instead of reading forever', async () => {
    const c = await connection();
    await c.write(`POST ${productsPath()} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const block = chunk('x'.repeat(64 * KIB));
    let sent = 0;
    const writer = (async () => {
      // Up to 64 MiB, far past any sensible drain bound; stops once the server has closed.
      while (!c.closed && sent < 64 * MIB) {
        await c.write(block);
        sent += 64 * KIB;
      }
    })();
    const first = await c.readResponse(10_000);
    expect(first).toMatchObject({ status: 413 });
    expect(await c.waitClosed(10_000)).toBe(true);
    await writer;
    expect(sent).toBeLessThan(64 * MIB);
  });
});

describe('a declared Content-Length over the limit', () => {
  it('413 at once, and the connection is closed rather than waiting for 100 MiB that will not be read', async () => {
    const c = await connection();
    await c.write(`POST ${productsPath()} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${100 * MIB}\r\n\r\n{"name":`);
    const first = await c.readResponse();
    expect(first).toMatchObject({ status: 413 });
    expect(first!.headers.connection).toBe('close');
    expect(await c.waitClosed(5000)).toBe(true);
  });

  it('a small unread body after an early answer (unknown route) is drained: the connection stays usable', async () => {
    const c = await connection();
    const body = JSON.stringify({ pad: 'y'.repeat(200 * KIB) });
    await c.write(`POST /api/v1/nothing-here HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    void c.write(body);
    expect(await c.readResponse()).toMatchObject({ status: 404 });
    const next = await expectNextRequestAnsweredOrClosed(c);
    expect(next?.status).toBe(200);
  });
});
