import type { Config } from '../config';
import { DiskStorage } from './disk';
import type { FileStorage } from './fileStorage';

export { CONTENT_KEY, type FileStorage } from './fileStorage';

const byDir = new Map<string, FileStorage>();

/** The storage configured for this process (disk under config.uploadsDir), one instance per directory. */
export function storageFor(config: Pick<Config, 'uploadsDir'>): FileStorage {
  let s = byDir.get(config.uploadsDir);
  if (!s) byDir.set(config.uploadsDir, (s = new DiskStorage(config.uploadsDir)));
  return s;
}
