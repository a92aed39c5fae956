/** The storage contract for uploaded files, and the content-addressed key format every driver uses. */

import type { Readable } from 'node:stream';

/** Where uploaded files live. Keys are content addresses: `<sha256 hex>.<ext>`. */
export interface FileStorage {
  /**
   * Stores a copy of a local file under its content address and returns it.
   * Storing the same bytes twice is a no-op that returns the same key.
   */
  putFile(localPath: string, ext: string): Promise<StoredFile>;
  /** The stored file, or null when no file has this key. */
  get(key: string): Promise<{ size: number; stream: Readable } | null>;
  exists(key: string): Promise<boolean>;
  /** Every stored file with a content key, with when it was written; in no particular order. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** Removes the file; removing a file that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Where a client can fetch the file without the service, or null when the storage has no such address (a local disk). */
  urlOf(key: string): string | null;
  /** Why this storage cannot be used now (a directory that cannot be written, a bucket that cannot be reached), as one line for an operator; null when it can. */
  problem(): Promise<string | null>;
}

interface StoredFile {
  key: string;
  sha256: string;
  size: number;
}

export const CONTENT_KEY = /^([0-9a-f]{64})\.(jpg|png|webp)$/;

export const MIME_BY_EXT: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };
