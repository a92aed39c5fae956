import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { loadConfig } from '../../src/platform/config';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { filePart, graphqlUpload, leftoverTempFiles, makeImage, restUpload } from './images';

const MAX_BYTES = 20_000;
const MAX_PIXELS = 500 * 500;

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer({ UPLOAD_MAX_BYTES: String(MAX_BYTES), UPLOAD_MAX_PIXELS: String(MAX_PIXELS) });
  a = await createStoreFixture();
});
afterAll(() => t.close());

/** Random pixels do not compress: a real PNG far above the byte limit. */
const noisyPng = () => sharp(randomBytes(200 * 200 * 3), { raw: { width: 200, height: 200, channels: 3 } }).png().toBuffer();

/** A real JPEG padded after its end marker to exactly `size` bytes (decoders ignore trailing bytes). */
async function jpegOfSize(size: number) {
  const jpeg = await makeImage('jpeg', 16, 16);
  return Buffer.concat([jpeg, Buffer.alloc(size - jpeg.length)]);
}

const imageCount = () => db().productImage.count({ where: { storeId: a.storeId } });

it('defaults to 10 MB and 40 megapixels', () => {
  expect(loadConfig({}).upload).toMatchObject({ maxBytes: 10 * 1024 * 1024, maxPixels: 40_000_000 });
});

describe('size limit (UPLOAD_MAX_BYTES)', () => {
  it('rejects a larger file with 413 payload_too_large over REST, and the connection stays usable', async () => {
    const big = await noisyPng();
    expect(big.length).toBeGreaterThan(MAX_BYTES * 5);
    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(big, 'big.png', 'image/png')]);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'payload_too_large', max_bytes: MAX_BYTES });
    const next = await restUpload(t, a.storeId, a.staffToken, [filePart(await makeImage('png', 8, 8), 'ok.png', 'image/png')]);
    expect(next.status).toBe(201);
  });

  it('rejects a larger file over GraphQL multipart (the parser truncates it; the truncation is detected)', async () => {
    const before = await imageCount();
    const res = await graphqlUpload(t, a.staffToken, { storeId: a.storeId }, { buf: await noisyPng(), filename: 'big.png', type: 'image/png' });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('payload_too_large');
    expect(await imageCount()).toBe(before);
  });

  it.each([
    ['REST', (buf: Buffer) => restUpload(t, a.storeId, a.staffToken, [filePart(buf, 'x.jpg', 'image/jpeg')]).then((r) => r.body?.data?.mime_type ?? r.body.code)],
    ['GraphQL', (buf: Buffer) => graphqlUpload(t, a.staffToken, { storeId: a.storeId }, { buf, filename: 'x.jpg', type: 'image/jpeg' }).then((r) => r.body.data?.uploadProductImage.mimeType ?? r.body.errors[0].extensions.code)],
  ])('%s: accepts exactly the limit, rejects one byte more', async (_surface, upload) => {
    expect(await upload(await jpegOfSize(MAX_BYTES))).toBe('image/jpeg');
    expect(await upload(await jpegOfSize(MAX_BYTES + 1))).toBe('payload_too_large');
  });
});

describe('pixel limit (UPLOAD_MAX_PIXELS)', () => {
  it('accepts a real image at the limit and rejects one above it with 422 image_dimensions_too_large', async () => {
    const flat = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#336699' } }).png().toBuffer();
    const atLimit = await restUpload(t, a.storeId, a.staffToken, [filePart(await flat(500, 500), 'ok.png', 'image/png')]);
    expect(atLimit.status).toBe(201);
    const over = await restUpload(t, a.storeId, a.staffToken, [filePart(await flat(501, 500), 'over.png', 'image/png')]);
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'image_dimensions_too_large', width: 501, height: 500, max_pixels: MAX_PIXELS });
    const gql = await graphqlUpload(t, a.staffToken, { storeId: a.storeId }, { buf: await flat(600, 600), filename: 'over.png', type: 'image/png' });
    expect(gql.body.errors[0].extensions.code).toBe('image_dimensions_too_large');
  });
});

describe('after all of the above', () => {
  it('leaves no temporary files behind', () => {
    expect(leftoverTempFiles(t)).toEqual([]);
  });
});
