/** The file storage this process is configured with: disk or S3. */

import type { Config } from '../config';
import { DiskStorage } from './disk';
import type { FileStorage } from './fileStorage';
import type { S3Storage } from './s3';

export type { FileStorage } from './fileStorage';

const byPlace = new Map<string, FileStorage>();

/** The storage configured for this process (a directory or a bucket), one instance (and one S3 client) per place. */
export function storageFor(config: Pick<Config, 'storage'>): FileStorage {
  const settings = config.storage;
  const place = settings.driver === 'disk' ? `disk:${settings.root}` : `s3:${settings.endpoint ?? settings.region}/${settings.bucket}/${settings.keyPrefix}`;
  let storage = byPlace.get(place);
  if (!storage) byPlace.set(place, (storage = settings.driver === 'disk' ? new DiskStorage(settings.root) : new (s3Storage())(settings)));
  return storage;
}

/**
 * The S3 driver, loaded when a bucket is first configured: the AWS SDK's S3 client adds about 20 MB of resident
 * memory to a Node 24 process that has loaded pg (33 MB to an empty one), which a service storing on disk never needs.
 */
function s3Storage(): typeof S3Storage {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./s3') as typeof import('./s3')).S3Storage;
}
