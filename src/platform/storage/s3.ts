/** Image file storage in an S3-compatible bucket (STORAGE_DRIVER=s3). */

import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { hashFile } from './contentHash';
import { CONTENT_KEY, type FileStorage, MIME_BY_EXT } from './fileStorage';

interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  keyPrefix: string;
  publicUrl?: string;
}

/**
 * Content-addressed files in an S3-compatible bucket, at `<S3_KEY_PREFIX><sha256>.<ext>`, shared by
 * every instance of the service. Objects are written once and never change, so they carry an
 * immutable Cache-Control for a CDN or a redirected client.
 */
export class S3Storage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      // Checksums only where S3 requires them: many S3-compatible servers refuse the
      // aws-chunked uploads with trailing checksums that the SDK otherwise sends.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    if (!CONTENT_KEY.test(key)) throw new Error(`invalid storage key: ${key}`);
    return this.settings.keyPrefix + key;
  }

  async putFile(localPath: string, ext: string) {
    const { sha256, size } = await hashFile(localPath);
    const key = `${sha256}.${ext}`;
    if (await this.exists(key)) return { key, sha256, size };
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(localPath),
        ContentLength: size,
        ContentType: MIME_BY_EXT[ext],
        CacheControl: 'public, max-age=31536000, immutable',
      }),
    );
    return { key, sha256, size };
  }

  async get(key: string) {
    if (!CONTENT_KEY.test(key)) return null;
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return { size: out.ContentLength ?? 0, stream: out.Body as Readable };
    } catch (e) {
      if (isMissing(e)) return null;
      throw e;
    }
  }

  async exists(key: string) {
    if (!CONTENT_KEY.test(key)) return false;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (e) {
      if (isMissing(e)) return false;
      throw e;
    }
  }

  async *list() {
    const prefix = this.settings.keyPrefix;
    for await (const page of paginateListObjectsV2({ client: this.client, pageSize: 1000 }, { Bucket: this.settings.bucket, Prefix: prefix || undefined })) {
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(prefix.length);
        // Objects under the prefix that this service did not write (no content key) are none of its business.
        if (key && CONTENT_KEY.test(key) && object.LastModified) yield { key, modifiedAt: object.LastModified };
      }
    }
  }

  async delete(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  urlOf(key: string): string {
    const objectKey = this.objectKey(key);
    const { publicUrl, endpoint, bucket, region, forcePathStyle } = this.settings;
    if (publicUrl) return `${publicUrl}/${objectKey}`;
    if (!endpoint) return `https://${bucket}.s3.${region}.amazonaws.com/${objectKey}`;
    if (forcePathStyle) return `${endpoint}/${bucket}/${objectKey}`;
    const url = new URL(endpoint);
    url.hostname = `${bucket}.${url.hostname}`;
    return `${url.origin}/${objectKey}`;
  }

  async problem(): Promise<string | null> {
    const { bucket, endpoint, region } = this.settings;
    const where = `S3 bucket "${bucket}" at ${endpoint ?? `AWS ${region}`}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      return null;
    } catch (e) {
      const status = e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined;
      if (status === 404) return `${where} does not exist: create it, or fix S3_BUCKET`;
      if (status === 401 || status === 403) return `${where} refused the credentials (HTTP ${status}): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that they may list the bucket`;
      const err = e as { code?: string; name?: string; message?: string };
      const reason = err.name === 'TimeoutError' || err.name === 'AbortError' ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : (err.code ?? err.message ?? String(e)).split('\n')[0];
      return `${where} cannot be reached: ${reason} (check S3_ENDPOINT and S3_REGION)`;
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/** How long the start-up check waits for the bucket to answer. */
const PROBE_TIMEOUT_MS = 10_000;

function isMissing(e: unknown): boolean {
  return e instanceof S3ServiceException && (e.$metadata.httpStatusCode === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound');
}
