import type { Readable } from 'node:stream';
import type { Config } from '../config';
import { DiskStorage } from './disk';

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

const byDir = new Map<string, FileStorage>();

/** The storage configured for this process (disk under config.uploadsDir), one instance per directory. */
export function storageFor(config: Pick<Config, 'uploadsDir'>): FileStorage {
  let s = byDir.get(config.uploadsDir);
  if (!s) byDir.set(config.uploadsDir, (s = new DiskStorage(config.uploadsDir)));
  return s;
}
