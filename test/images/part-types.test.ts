import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { watchPartTypes } from '../../src/api/rest/multipart';
import { rawMultipart } from './images';

/** A request stand-in that delivers `body` in the given chunks. */
async function watch(body: Uint8Array, contentType: string, chunkSizes: (i: number) => number) {
  const req = Object.assign(new PassThrough(), { headers: { 'content-type': contentType } }) as unknown as IncomingMessage & PassThrough;
  const types = watchPartTypes(req);
  req.resume(); // the parser's reading, which the watcher rides along
  for (let at = 0, i = 0; at < body.length; i++) {
    const size = Math.max(1, chunkSizes(i));
    req.write(Buffer.from(body.subarray(at, at + size)));
    at += size;
  }
  req.end();
  await new Promise((resolve) => req.on('end', resolve));
  return types;
}

const body = rawMultipart([
  { name: 'alt', value: 'a field first, with a look-alike line:\r\n--not-the-boundary\r\n' },
  { name: 'image', file: Buffer.from('first file bytes'), filename: 'a.png', type: 'Image/GIF; q=1' },
  { name: 'untyped', file: Buffer.from('\r\n\r\nbytes with blank lines'), filename: 'b.bin' },
  { name: 'octet', file: Buffer.from(''), filename: 'c', type: 'application/octet-stream' },
  { name: 'image', file: Buffer.from('a second image part'), filename: 'd.png', type: 'image/png' },
]);

describe('watchPartTypes (the Content-Type each file part was sent with)', () => {
  it.each([
    ['in one chunk', () => body.body.length],
    ['byte by byte', () => 1],
    ['in 3-byte chunks', () => 3],
    ['in uneven chunks', (i: number) => (i * 7) % 13],
  ])('finds every part %s', async (_how, sizes) => {
    const types = await watch(body.body, body.contentType, sizes);
    expect(types.fileType('image', 'text/plain')).toBe('image/gif'); // the first file part of that name
    expect(types.fileType('untyped', 'text/plain')).toBeNull();
    expect(types.fileType('octet', 'text/plain')).toBe('application/octet-stream');
    expect(types.fileType('alt', 'text/plain')).toBe('text/plain'); // a field, not a file: the parser's value stands
    expect(types.fileType('missing', 'x/y')).toBe('x/y');
  });

  it('splits at every position of the header block without losing it', async () => {
    const small = rawMultipart([{ name: 'image', file: Buffer.from('xyz'), filename: 'a' }]);
    for (let first = 1; first < small.body.length; first++) {
      const types = await watch(small.body, small.contentType, (i) => (i === 0 ? first : small.body.length));
      expect(types.fileType('image', 'text/plain')).toBeNull();
    }
  });

  it('answers the fallback without a boundary', async () => {
    const types = await watch(body.body, 'multipart/form-data', () => 10);
    expect(types.fileType('image', 'text/plain')).toBe('text/plain');
  });
});
