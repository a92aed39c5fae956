import S3rver from 's3rver';
import { newTempDir } from './templates';

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  /** The service's environment for this bucket (path-style, the server's fixed credentials). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on an ephemeral loopback port, with one
 * empty bucket, its objects under a temp directory.
 */
export async function startLocalS3(bucket = `catalog-${Math.random().toString(36).slice(2, 10)}`): Promise<LocalS3> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: newTempDir('catalog-s3-'), configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    close: () => server.close(),
  };
}
