import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/platform/config';
import { db } from '../../src/platform/db/client';
import { keepStoredFile, sweepUnusedFiles } from '../../src/catalog/services/storedFiles';
import { storageFor } from '../../src/platform/storage';
import { S3Storage } from '../../src/platform/storage/s3';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { type LocalS3, startLocalS3 } from '../helpers/s3';
import { newTempDir, testDatabaseUrl } from '../helpers/templates';
import { fetchServed, filePart, makeImage, restUpload } from './images';

/**
 * Image storage drivers through the real handler: the disk default and an S3-compatible
 * bucket on a real server (s3rver). Uploads land in the storage, /uploads serves them
 * (through the service or, for S3, as a redirect to the object), and the sweep removes
 * files no image uses any more, and only those.
 */
jest.setTimeout(60_000);

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const HOUR = 3_600_000;

describe.each(['disk', 's3'] as const)('%s image storage', (driver) => {
  let s3: LocalS3 | undefined;
  let t: TestServer;
  let a: StoreFixture;

  beforeAll(async () => {
    if (driver === 's3') s3 = await startLocalS3();
    t = await startTestServer(s3?.env ?? {});
    a = await createStoreFixture();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const storage = () => storageFor(t.config);
  const storedKeys = async () => {
    const keys: string[] = [];
    for await (const f of storage().list()) keys.push(f.key);
    return keys.sort();
  };
  const upload = async (buf: Buffer, productId?: string) => {
    const res = await restUpload(t, a.storeId, a.ownerToken, [...(productId ? [{ name: 'product_id', value: productId }] : []), filePart(buf, 'x.png', 'image/png')]);
    expect(res.status).toBe(201);
    return res.body.data as { id: string; url: string; sha256: string };
  };
  const newProduct = async (name: string) => {
    const res = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/products`, { token: a.ownerToken, body: { name, price: 10, category_slugs: ['shoes'] } });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  it('stores an upload once under its content address and serves the same bytes', async () => {
    const buf = await makeImage('png', 40, 30);
    const first = await upload(buf);
    const second = await upload(buf);
    expect(second.sha256).toBe(first.sha256);
    expect((await storedKeys()).filter((k) => k.startsWith(first.sha256))).toEqual([`${first.sha256}.png`]);
    if (driver === 's3') {
      // The object is in the bucket itself, where another instance (or another client) finds it.
      const other = new S3Storage({ ...(t.config.storage as Extract<typeof t.config.storage, { driver: 's3' }>) });
      expect(await other.exists(`${first.sha256}.png`)).toBe(true);
      other.close();
    }
    const served = await fetchServed(first.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(sha256(served.bytes)).toBe(first.sha256);
    expect(Number(served.headers.get('content-length'))).toBe(served.bytes.length);

    const head = await fetch(first.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(served.bytes.length);
    expect((await fetchServed(first.url, { 'if-none-match': `"${first.sha256}"` })).status).toBe(304);
  });

  it('answers 404 problem+json for a file that is not stored', async () => {
    const res = await t.request('GET', `/uploads/${'0'.repeat(64)}.png`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.code).toBe('not_found');
  });

  it('the sweep removes a file no image uses once it is old enough, and nothing else; a dry run removes nothing', async () => {
    const product = await newProduct('Sweep subject');
    const kept = await upload(await makeImage('png', 41, 30), product);
    const unattached = await upload(await makeImage('png', 42, 30));
    const removedBuf = await makeImage('png', 43, 30);
    const removed = await upload(removedBuf, product);
    expect((await t.request('DELETE', `/api/v1/merchant/stores/${a.storeId}/products/${product}/images/${removed.id}`, { token: a.ownerToken })).status).toBe(204);
    // Removing the image leaves its file until the sweep.
    expect((await fetchServed(removed.url)).status).toBe(200);

    const young = await sweepUnusedFiles(db(), storage(), { minAgeMs: HOUR, now: new Date() });
    expect(young.unused).not.toContain(`${removed.sha256}.png`);
    expect(young.removed).toBe(0);

    const later = new Date(Date.now() + 2 * HOUR);
    const dry = await sweepUnusedFiles(db(), storage(), { minAgeMs: HOUR, now: later, dryRun: true });
    expect(dry.unused).toEqual([`${removed.sha256}.png`]);
    expect(dry.removed).toBe(0);
    expect((await fetchServed(removed.url)).status).toBe(200);

    const swept = await sweepUnusedFiles(db(), storage(), { minAgeMs: HOUR, now: later });
    expect(swept).toMatchObject({ removed: 1, unused: [`${removed.sha256}.png`] });
    expect(swept.examined).toBeGreaterThanOrEqual(3);
    expect((await fetchServed(removed.url)).status).toBe(404);
    expect((await fetchServed(kept.url)).status).toBe(200);
    expect((await fetchServed(unattached.url)).status).toBe(200);

    // The same bytes uploaded again are stored again.
    const again = await upload(removedBuf, product);
    expect(again.sha256).toBe(removed.sha256);
    expect((await fetchServed(again.url)).status).toBe(200);
    expect((await sweepUnusedFiles(db(), storage(), { minAgeMs: HOUR, now: later })).removed).toBe(0);
  });

  it('an image recorded after its file was swept stores the file again (the upload side of the race)', async () => {
    const local = path.join(newTempDir('catalog-keep-'), 'img.png');
    writeFileSync(local, await makeImage('png', 44, 30));
    const stored = await storage().putFile(local, 'png');
    // A sweep removes the file between the upload's write and its row.
    await storage().delete(stored.key);
    expect(await storage().exists(stored.key)).toBe(false);
    await db().$transaction((tx) => keepStoredFile(tx, storage(), stored, local));
    expect(await storage().exists(stored.key)).toBe(true);
    await storage().delete(stored.key);
  });
});

(testDatabaseUrl() ? describe : describe.skip)('the sweep and an upload of the same bytes at once (PostgreSQL)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('leaves a file alone while an upload holds it, and removes it after the upload gave it up unused', async () => {
    const storage = storageFor(t.config);
    const local = path.join(newTempDir('catalog-race-'), 'img.png');
    writeFileSync(local, await makeImage('png', 45, 30));
    const stored = await storage.putFile(local, 'png');
    const later = new Date(Date.now() + 2 * HOUR);

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // The upload's transaction: it holds the file's lock (and would insert its row) until it commits.
    const upload = db().$transaction(
      async (tx) => {
        await keepStoredFile(tx, storage, stored, local);
        held();
        await released;
      },
      { timeout: 30_000 },
    );
    await holding;
    const during = await sweepUnusedFiles(db(), storage, { minAgeMs: HOUR, now: later });
    expect(during.unused).toContain(stored.key);
    expect(during.removed).toBe(0);
    expect(await storage.exists(stored.key)).toBe(true);
    release();
    await upload;
    // That upload recorded nothing (in this test), so the file is now unused and goes.
    expect((await sweepUnusedFiles(db(), storage, { minAgeMs: HOUR, now: later })).removed).toBeGreaterThanOrEqual(1);
    expect(await storage.exists(stored.key)).toBe(false);
  });
});

describe('S3 redirects', () => {
  let s3: LocalS3;
  let t: TestServer;
  let a: StoreFixture;
  beforeAll(async () => {
    s3 = await startLocalS3();
    t = await startTestServer({ ...s3.env, IMAGE_DELIVERY: 'redirect' });
    a = await createStoreFixture();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('answers /uploads/… with a 302 to the object, which serves the same bytes; the API keeps the service URL', async () => {
    const res = await restUpload(t, a.storeId, a.ownerToken, [filePart(await makeImage('webp', 20, 20), 'x.webp', 'image/webp')]);
    expect(res.status).toBe(201);
    const image = res.body.data as { url: string; sha256: string };
    expect(image.url).toBe(`${t.url}/uploads/${image.sha256}.webp`);

    const redirect = await fetch(image.url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe(`${s3.endpoint}/${s3.bucket}/${image.sha256}.webp`);
    expect(redirect.headers.get('cache-control')).toBe('public, max-age=86400');
    const object = await fetchServed(redirect.headers.get('location')!);
    expect(object.status).toBe(200);
    expect(object.headers.get('content-type')).toBe('image/webp');
    expect(object.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(sha256(object.bytes)).toBe(image.sha256);

    // A client that follows redirects simply gets the image.
    expect(sha256((await fetchServed(image.url)).bytes)).toBe(image.sha256);
    // A missing file is still the service's 404, not a redirect to the bucket's error.
    const missing = await t.request('GET', `/uploads/${'1'.repeat(64)}.webp`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('builds object URLs from S3_PUBLIC_URL, or the endpoint in either addressing style, or AWS', () => {
    const key = `${'a'.repeat(64)}.jpg`;
    const urlOf = (env: Record<string, string>) => {
      const config = loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'shop-images', ...env });
      return new S3Storage(config.storage as Extract<typeof config.storage, { driver: 's3' }>).urlOf(key);
    };
    expect(urlOf({ S3_PUBLIC_URL: 'https://cdn.example.com/img/' })).toBe(`https://cdn.example.com/img/${key}`);
    expect(urlOf({ S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true', S3_KEY_PREFIX: 'prod/' })).toBe(`http://minio:9000/shop-images/prod/${key}`);
    expect(urlOf({ S3_ENDPOINT: 'https://r2.example.com' })).toBe(`https://shop-images.r2.example.com/${key}`);
    expect(urlOf({ S3_REGION: 'eu-west-1' })).toBe(`https://shop-images.s3.eu-west-1.amazonaws.com/${key}`);
  });
});

describe('storage configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as Error).message;
    }
  };

  it('names what is missing or contradictory', () => {
    expect(problems({ STORAGE_DRIVER: 's3' })).toContain('S3_BUCKET: required when STORAGE_DRIVER=s3');
    expect(problems({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'x' })).toContain('set both or neither');
    expect(problems({ IMAGE_DELIVERY: 'redirect' })).toContain('IMAGE_DELIVERY: redirect needs STORAGE_DRIVER=s3');
    expect(problems({ STORAGE_DRIVER: 'ftp' })).toContain('STORAGE_DRIVER');
    expect(problems({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' })).toBe('');
  });
});
