import { db } from '../../src/platform/db/client';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/harness';
import { fetchServed, leftoverTempFiles, makeImage, rawGraphqlUpload, rawRestUpload, type SentFile, SVG } from './images';

// Spec 4.1: an upload whose MIME type is not image/jpeg, image/png or image/webp is rejected.
// The declared part type is checked as sent; the bytes are checked always and decide what is stored.

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

const imageCount = () => db().productImage.count({ where: { storeId: a.storeId } });
const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];

/** One upload through either surface, read back in the same terms: the error code (and its members) or the stored image. */
const surfaces = {
  REST: async (file: SentFile) => {
    const res: TestResponse = await rawRestUpload(t, a.storeId, a.staffToken, file);
    if (res.status === 201) return { image: res.body.data as { mime_type: string; url: string } };
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    return { status: res.status, code: res.body.code as string, problem: res.body };
  },
  GraphQL: async (file: SentFile) => {
    const res: TestResponse = await rawGraphqlUpload(t, a.storeId, a.staffToken, file);
    expect(res.status).toBe(200);
    const error = res.body.errors?.[0];
    if (!error) return { image: { mime_type: res.body.data.uploadProductImage.mimeType as string, url: res.body.data.uploadProductImage.url as string } };
    // GraphQL errors carry no HTTP status; the code is the same one REST maps to 415.
    return { status: error.extensions.code === 'unsupported_media_type' ? 415 : undefined, code: error.extensions.code as string, problem: error.extensions };
  },
};

describe.each(Object.keys(surfaces) as (keyof typeof surfaces)[])('%s image uploads', (surface) => {
  const upload = (file: SentFile) => surfaces[surface](file);

  it.each([
    ['a PNG declared image/gif', 'png', 'image/gif'],
    ['a PNG declared text/plain', 'png', 'text/plain'],
    ['a JPEG declared image/svg+xml', 'jpeg', 'image/svg+xml'],
    ['a WebP declared image/jpg (not a registered type)', 'webp', 'image/jpg'],
    ['a PNG declared application/pdf', 'png', 'application/pdf'],
  ] as const)('refuses %s: 415 unsupported_media_type whatever the bytes, nothing stored', async (_what, format, type) => {
    const before = await imageCount();
    const res = await upload({ buf: await makeImage(format, 16, 16), filename: `x.${format}`, type });
    expect(res.status).toBe(415);
    expect(res.code).toBe('unsupported_media_type');
    expect(res.problem).toMatchObject({ accepted: ACCEPTED, declared_type: type });
    expect(await imageCount()).toBe(before);
  });

  it.each([
    ['a PNG without a Content-Type', 'png', undefined, 'image/png'],
    ['a JPEG without a Content-Type', 'jpeg', undefined, 'image/jpeg'],
    ['a WebP declared application/octet-stream', 'webp', 'application/octet-stream', 'image/webp'],
    ['a PNG declared image/jpeg (named .jpg)', 'png', 'image/jpeg', 'image/png'],
    ['a JPEG declared image/webp', 'jpeg', 'image/webp', 'image/jpeg'],
    ['a PNG declared with other casing and a parameter', 'png', 'Image/PNG; name=x', 'image/png'],
  ] as const)('accepts %s and stores it as what its bytes are', async (_what, format, type, stored) => {
    const res = await upload({ buf: await makeImage(format, 16, 16), filename: format === 'png' && type === 'image/jpeg' ? 'disguised.jpg' : 'upload', type });
    expect(res.code).toBeUndefined();
    expect(res.image!.mime_type).toBe(stored);
    const served = await fetchServed(res.image!.url);
    expect(served.headers.get('content-type')).toBe(stored);
  });

  it.each([
    ['a GIF without a Content-Type', async () => makeImage('gif'), undefined],
    ['an SVG declared application/octet-stream', async () => SVG, 'application/octet-stream'],
    ['text without a Content-Type', async () => Buffer.from('plain words, not an image at all'), undefined],
    ['a GIF declared image/png', async () => makeImage('gif'), 'image/png'],
  ])('refuses %s by its bytes: 415 unsupported_media_type', async (_what, make, type) => {
    const before = await imageCount();
    const res = await upload({ buf: await make(), filename: 'upload', type });
    expect(res.status).toBe(415);
    expect(res.code).toBe('unsupported_media_type');
    expect(res.problem).toMatchObject({ accepted: ACCEPTED });
    expect(await imageCount()).toBe(before);
  });
});

describe('REST problem for a declared type', () => {
  it('is problem+json naming the declared type', async () => {
    const res = await rawRestUpload(t, a.storeId, a.staffToken, { buf: await makeImage('png', 8, 8), filename: 'x.gif', type: 'image/gif' });
    expect(res.status).toBe(415);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 415, code: 'unsupported_media_type', declared_type: 'image/gif', detail: expect.stringContaining('image/gif') });
  });

  it('leaves no temporary files behind', () => {
    expect(leftoverTempFiles(t)).toEqual([]);
  });
});
