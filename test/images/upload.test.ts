import { request } from 'node:http';
import exifReader from 'exif-reader';
import sharp from 'sharp';
import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { fetchServed, filePart, graphqlUpload, leftoverTempFiles, makeImage, pixelBombPng, restUpload, SVG, sha256, uploadPath } from './images';

let t: TestServer;
let a: StoreFixture;
let b: StoreFixture;
let productA: string;
let productB: string;

async function createProduct(f: StoreFixture, name: string): Promise<string> {
  const res = await t.request('POST', `/api/v1/merchant/stores/${f.storeId}/products`, {
    token: f.ownerToken,
    body: { name, price: 10, category_slugs: ['shoes'] },
  });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

const imageCount = (storeId: string) => db().productImage.count({ where: { storeId } });

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
  b = await createStoreFixture();
  productA = await createProduct(a, 'Runner');
  productB = await createProduct(b, 'Other store shoe');
});
afterAll(() => t.close());

/** What a client checks about a stored image: the URL serves exactly the described bytes, forever cacheable. */
async function expectServed(image: { url: string; sha256: string; size_bytes?: number; sizeBytes?: number; mime_type?: string; mimeType?: string; width: number; height: number }) {
  const served = await fetchServed(image.url);
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe(image.mime_type ?? image.mimeType);
  expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(served.headers.get('etag')).toBe(`"${image.sha256}"`);
  expect(Number(served.headers.get('content-length'))).toBe(served.bytes.length);
  expect(served.bytes.length).toBe(image.size_bytes ?? image.sizeBytes);
  expect(sha256(served.bytes)).toBe(image.sha256);
  const meta = await sharp(served.bytes).metadata();
  expect({ width: meta.width, height: meta.height }).toEqual({ width: image.width, height: image.height });
  return { served, meta };
}

describe('POST /products/images (REST, multipart)', () => {
  it.each([
    ['jpeg', 'image/jpeg', 'photo.jpg', 'image', 'jpg'],
    ['png', 'image/png', 'logo.png', 'file', 'png'],
    ['webp', 'image/webp', 'pic.webp', 'image', 'webp'],
  ] as const)('stores a real %s image (%s, sent as %s in field "%s") and serves it', async (format, type, filename, field, ext) => {
    const buf = await makeImage(format, 64, 48);
    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(buf, filename, type, field)]);
    expect(res.status).toBe(201);
    const img = res.body.data;
    expect(img).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: `${t.url}/uploads/${img.sha256}.${ext}`,
      width: 64,
      height: 48,
      mime_type: type,
      size_bytes: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      alt: null,
      product_id: null,
      position: 0,
      created_at: expect.any(String),
    });
    expect(res.headers.get('location')).toBe(img.url);
    const { meta } = await expectServed(img);
    expect(meta.format).toBe(format);
  });

  it('attaches to a product when product_id is sent, appending in order; fields may follow the file', async () => {
    const first = await restUpload(t, a.storeId, a.ownerToken, [
      { name: 'product_id', value: productA },
      { name: 'alt', value: 'Front view' },
      filePart(await makeImage('jpeg', 30, 20), 'front.jpg', 'image/jpeg'),
    ]);
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ product_id: productA, alt: 'Front view', position: 0 });

    const second = await restUpload(t, a.storeId, a.ownerToken, [
      filePart(await makeImage('png', 20, 30), 'side.png', 'image/png'),
      { name: 'alt', value: 'Side view' },
      { name: 'product_id', value: productA },
    ]);
    expect(second.status).toBe(201);
    expect(second.body.data).toMatchObject({ product_id: productA, alt: 'Side view', position: 1, width: 20, height: 30 });

    const product = await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products/${productA}`, { token: a.ownerToken });
    expect(product.status).toBe(200);
    expect(product.body.data.images).toEqual([
      { id: first.body.data.id, url: first.body.data.url, width: 30, height: 20, mime_type: 'image/jpeg', size_bytes: first.body.data.size_bytes, sha256: first.body.data.sha256, alt: 'Front view', position: 0 },
      { id: second.body.data.id, url: second.body.data.url, width: 20, height: 30, mime_type: 'image/png', size_bytes: second.body.data.size_bytes, sha256: second.body.data.sha256, alt: 'Side view', position: 1 },
    ]);
  });

  it('gives concurrent uploads to one product distinct positions', async () => {
    const product = await createProduct(a, 'Busy product');
    const results = await Promise.all(
      [1, 2, 3, 4].map(async (i) =>
        restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: product }, filePart(await makeImage('png', 10 + i, 10), `${i}.png`, 'image/png')]),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(results.map((r) => r.body.data.position).sort()).toEqual([0, 1, 2, 3]);
  });

  it('decides the type by content: a PNG named .jpg and sent as image/jpeg is stored as PNG', async () => {
    const png = await makeImage('png', 16, 16);
    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(png, 'disguised.jpg', 'image/jpeg')]);
    expect(res.status).toBe(201);
    expect(res.body.data.mime_type).toBe('image/png');
    expect(res.body.data.url).toMatch(/\.png$/);
    const { meta } = await expectServed(res.body.data);
    expect(meta.format).toBe('png');
  });

  it('stores identical content once under one address', async () => {
    const buf = await makeImage('webp', 12, 12);
    const one = await restUpload(t, a.storeId, a.staffToken, [filePart(buf, 'a.webp', 'image/webp')]);
    const two = await restUpload(t, a.storeId, a.staffToken, [filePart(buf, 'b.webp', 'image/webp')]);
    expect(one.body.data.id).not.toBe(two.body.data.id);
    expect(two.body.data.url).toBe(one.body.data.url);
  });

  it.each([
    ['a GIF declared as image/gif', async () => makeImage('gif'), 'anim.gif', 'image/gif'],
    ['a GIF declared as image/png', async () => makeImage('gif'), 'anim.png', 'image/png'],
    ['an SVG', async () => SVG, 'vector.svg', 'image/svg+xml'],
    ['an SVG declared as image/jpeg', async () => SVG, 'vector.jpg', 'image/jpeg'],
    ['a text file', async () => Buffer.from('hello world, this is not an image'), 'notes.txt', 'text/plain'],
  ])('rejects %s with 415 unsupported_media_type and records nothing', async (_what, make, filename, type) => {
    const before = await imageCount(a.storeId);
    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(await make(), filename, type)]);
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 415, code: 'unsupported_media_type', accepted: ['image/jpeg', 'image/png', 'image/webp'] });
    expect(await imageCount(a.storeId)).toBe(before);
  });

  it('rejects a pixel bomb (tiny file, huge declared dimensions) before decoding it', async () => {
    const bomb = await pixelBombPng(20_000, 20_000);
    expect(bomb.length).toBeLessThan(200);
    const before = await imageCount(a.storeId);
    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(bomb, 'bomb.png', 'image/png')]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'image_dimensions_too_large', width: 20_000, height: 20_000, max_pixels: 40_000_000 });
    expect(await imageCount(a.storeId)).toBe(before);
  });

  it('rejects a file that has image magic bytes but is not an image (422 invalid_image)', async () => {
    const png = await makeImage('png', 8, 8);
    const broken = Buffer.concat([png.subarray(0, 16), Buffer.alloc(64, 7)]);
    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(broken, 'broken.png', 'image/png')]);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_image');
  });

  it('answers 415 for a body that is not multipart and 422 when no file is sent', async () => {
    const json = await t.request('POST', uploadPath(a.storeId), { token: a.staffToken, body: { image: 'x' } });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe('unsupported_media_type');
    const noFile = await restUpload(t, a.storeId, a.staffToken, [{ name: 'alt', value: 'nothing' }]);
    expect(noFile.status).toBe(422);
    expect(noFile.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'image', code: 'required' }] });
    const wrongField = await restUpload(t, a.storeId, a.staffToken, [filePart(await makeImage('png'), 'x.png', 'image/png', 'photo')]);
    expect(wrongField.status).toBe(422);
    const empty = await restUpload(t, a.storeId, a.staffToken, [filePart(Buffer.alloc(0), 'empty.png', 'image/png')]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ field: 'file', code: 'empty' });
  });

  it('validates alt (at most 1000 characters; blank means none)', async () => {
    const png = await makeImage('png', 8, 8);
    const long = await restUpload(t, a.storeId, a.staffToken, [{ name: 'alt', value: 'x'.repeat(1001) }, filePart(png, 'x.png', 'image/png')]);
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'alt' }] });
    const blank = await restUpload(t, a.storeId, a.staffToken, [filePart(png, 'x.png', 'image/png'), { name: 'alt', value: '   ' }]);
    expect(blank.status).toBe(201);
    expect(blank.body.data.alt).toBeNull();
  });

  it('requires manage_products: 401 without a token, 403 without the permission or for another store', async () => {
    const png = await makeImage('png', 8, 8);
    const before = await imageCount(a.storeId);
    const anonymous = await restUpload(t, a.storeId, undefined, [filePart(png, 'x.png', 'image/png')]);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(anonymous.body.code).toBe('unauthenticated');
    const viewer = await restUpload(t, a.storeId, a.viewerToken, [filePart(png, 'x.png', 'image/png')]);
    expect(viewer.status).toBe(403);
    expect(viewer.body.code).toBe('forbidden');
    const otherOwner = await restUpload(t, a.storeId, b.ownerToken, [filePart(png, 'x.png', 'image/png')]);
    expect(otherOwner.status).toBe(403);
    expect(await imageCount(a.storeId)).toBe(before);
  });

  it.each([
    ['a product of another store', () => productB],
    ['an unknown product', () => '00000000-0000-4000-8000-000000000000'],
    ['a malformed product id', () => 'not-a-uuid'],
  ])('answers 404 for product_id of %s and records nothing', async (_what, id) => {
    const before = await imageCount(a.storeId);
    const res = await restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: id() }, filePart(await makeImage('png', 8, 8), 'x.png', 'image/png')]);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect(await imageCount(a.storeId)).toBe(before);
  });
});

describe('uploadProductImage (GraphQL multipart)', () => {
  it.each([
    ['jpeg', 'image/jpeg', 'g.jpg'],
    ['png', 'image/png', 'g.png'],
    ['webp', 'image/webp', 'g.webp'],
  ] as const)('stores a real %s image', async (format, type, filename) => {
    const res = await graphqlUpload(t, a.staffToken, { storeId: a.storeId, productId: productA, alt: 'from GraphQL' }, { buf: await makeImage(format, 40, 30), filename, type });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const img = res.body.data.uploadProductImage;
    expect(img).toMatchObject({ width: 40, height: 30, mimeType: type, alt: 'from GraphQL', productId: productA });
    await expectServed(img);
  });

  it('lists images on the product in position order', async () => {
    const res = await t.graphql(`query($s: ID!, $id: ID!) { product(storeId: $s, id: $id) { images { position mimeType } } }`, { s: a.storeId, id: productA }, { token: a.ownerToken });
    const positions = res.body.data.product.images.map((i: { position: number }) => i.position);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(positions.length).toBeGreaterThanOrEqual(5);
  });

  it.each([
    ['a GIF', async () => makeImage('gif'), 'x.gif', 'image/gif', 'unsupported_media_type'],
    ['an SVG', async () => SVG, 'x.svg', 'image/svg+xml', 'unsupported_media_type'],
    ['a pixel bomb', async () => pixelBombPng(10_000, 5_000), 'x.png', 'image/png', 'image_dimensions_too_large'],
  ])('rejects %s', async (_what, make, filename, type, code) => {
    const res = await graphqlUpload(t, a.staffToken, { storeId: a.storeId }, { buf: await make(), filename, type });
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe(code);
  });

  it('stores a PNG sent as image/jpeg as PNG', async () => {
    const res = await graphqlUpload(t, a.staffToken, { storeId: a.storeId }, { buf: await makeImage('png', 9, 9), filename: 'x.jpg', type: 'image/jpeg' });
    expect(res.body.data.uploadProductImage.mimeType).toBe('image/png');
  });

  it('enforces manage_products and the product\'s store', async () => {
    const file = { buf: await makeImage('png', 8, 8), filename: 'x.png', type: 'image/png' };
    const anonymous = await graphqlUpload(t, undefined, { storeId: a.storeId }, file);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].extensions.code).toBe('unauthenticated');
    const viewer = await graphqlUpload(t, a.viewerToken, { storeId: a.storeId }, file);
    expect(viewer.body.errors[0].extensions.code).toBe('forbidden');
    const crossStore = await graphqlUpload(t, a.ownerToken, { storeId: a.storeId, productId: productB }, file);
    expect(crossStore.body.errors[0].extensions.code).toBe('not_found');
    // The connection stays usable after rejected uploads.
    const next = await graphqlUpload(t, a.ownerToken, { storeId: a.storeId }, file);
    expect(next.body.data.uploadProductImage.mimeType).toBe('image/png');
  });
});

describe('EXIF', () => {
  it('removes EXIF and GPS data and applies the EXIF orientation', async () => {
    const raw = await makeImage('jpeg', 40, 20);
    const withGps = await sharp(raw)
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'TestCam', Model: 'Leaky 1' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '13/1 24/1 36/1' },
      })
      .jpeg()
      .toBuffer();
    const input = await sharp(withGps).metadata();
    expect(exifReader(input.exif!).GPSInfo).toMatchObject({ GPSLatitudeRef: 'N', GPSLatitude: [52, 31, 12] });
    expect(input.orientation).toBe(6);

    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(withGps, 'gps.jpg', 'image/jpeg')]);
    expect(res.status).toBe(201);
    // Orientation 6 is a quarter turn: the stored pixels are upright, 20 wide and 40 high.
    expect(res.body.data).toMatchObject({ width: 20, height: 40, mime_type: 'image/jpeg' });
    const { served, meta } = await expectServed(res.body.data);
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(served.bytes.includes(Buffer.from('TestCam'))).toBe(false);
    expect(served.bytes.includes(Buffer.from('Exif\0\0'))).toBe(false);
  });
});

describe('GET /uploads/<sha256>.<ext>', () => {
  let image: { url: string; sha256: string };
  beforeAll(async () => {
    const res = await restUpload(t, a.storeId, a.staffToken, [filePart(await makeImage('png', 10, 10), 'x.png', 'image/png')]);
    image = res.body.data;
  });

  it('answers 304 to a matching If-None-Match and supports HEAD', async () => {
    const cached = await fetchServed(image.url, { 'If-None-Match': `"${image.sha256}"` });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    const head = await fetch(image.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it.each([
    ['an unknown hash', () => `/uploads/${'0'.repeat(64)}.png`],
    ['a known hash with another extension', () => `/uploads/${image.sha256}.jpg`],
    ['an uppercase hash', () => `/uploads/${image.sha256.toUpperCase()}.png`],
    ['an encoded path traversal', () => '/uploads/..%2f..%2fpackage.json'],
    ['a path into the storage fan-out', () => `/uploads/${image.sha256.slice(0, 2)}/${image.sha256}.png`],
  ])('answers 404 problem for %s', async (_what, path) => {
    const res = await t.request('GET', path());
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.code).toBe('not_found');
  });

  it.each(['/uploads/../package.json', '/uploads/%2e%2e/%2e%2e/package.json', '/uploads/..\\..\\package.json'])(
    'never serves a file outside the store for the raw path %s',
    async (rawPath) => {
      // Sent byte for byte (fetch would normalise the path first).
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${t.url}${rawPath}`, (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        });
        req.path = rawPath;
        req.on('error', reject);
        req.end();
      });
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('"dependencies"');
    },
  );

  it('answers 405 to other methods', async () => {
    const res = await t.request('DELETE', new URL(image.url).pathname);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('after all of the above', () => {
  it('leaves no temporary files behind, whatever the outcome', () => {
    expect(leftoverTempFiles(t)).toEqual([]);
  });
});
