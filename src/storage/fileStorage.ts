import type { Readable } from 'node:stream';

/** Where uploaded files live. Keys are content addresses: `<sha256 hex>.<ext>`. */
export interface FileStorage {
  /**
   * Stores a copy of a local file under its content address and returns it.
   * Storing the same bytes twice is a no-op that returns the same key.
   */
  putFile(localPath: string, ext: string): Promise<{ key: string; sha256: string; size: number }>;
  /** The stored file, or null when no file has this key. */
  get(key: string): Promise<{ size: number; stream: Readable } | null>;
  exists(key: string): Promise<boolean>;
}

export const CONTENT_KEY = /^([0-9a-f]{64})\.(jpg|png|webp)$/;
