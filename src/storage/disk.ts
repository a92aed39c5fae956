import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, copyFile, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FileStorage } from './fileStorage';

const KEY = /^([0-9a-f]{64})\.([a-z0-9]{1,8})$/;

/**
 * Content-addressed files on a local disk: `<root>/<first two hex digits>/<sha256>.<ext>`.
 * The two-character fan-out keeps directories small at millions of files.
 */
export class DiskStorage implements FileStorage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    const m = KEY.exec(key);
    // Keys reach the file system only after this check, so no caller can escape the root.
    if (!m) throw new Error(`invalid storage key: ${key}`);
    return path.join(this.root, m[1].slice(0, 2), key);
  }

  async putFile(localPath: string, ext: string) {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(localPath)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const sha256 = hash.digest('hex');
    const key = `${sha256}.${ext}`;
    const target = this.pathOf(key);
    if (await this.exists(key)) return { key, sha256, size };
    await mkdir(path.dirname(target), { recursive: true });
    // Copy under a private name, then rename: readers never see a half-written file.
    const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await copyFile(localPath, partial);
      await rename(partial, target);
    } finally {
      await rm(partial, { force: true });
    }
    return { key, sha256, size };
  }

  async get(key: string) {
    if (!KEY.test(key)) return null;
    let handle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    try {
      // Size and bytes come from the same open file, so they always agree.
      const { size } = await handle.stat();
      return { size, stream: handle.createReadStream() };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async exists(key: string) {
    if (!KEY.test(key)) return false;
    try {
      await access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }
}
