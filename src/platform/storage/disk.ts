/** Image file storage on a local disk (STORAGE_DRIVER=disk). */

import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { hashFile } from './contentHash';
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
    const { sha256, size } = await hashFile(localPath);
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

  async *list() {
    for (const dir of await readdirIfAny(this.root)) {
      if (!/^[0-9a-f]{2}$/.test(dir)) continue;
      for (const name of await readdirIfAny(path.join(this.root, dir))) {
        // Only finished files: a `.partial` copy belongs to an upload in progress.
        const m = KEY.exec(name);
        if (!m || m[1].slice(0, 2) !== dir) continue;
        try {
          yield { key: name, modifiedAt: (await stat(path.join(this.root, dir, name))).mtime };
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        }
      }
    }
  }

  async delete(key: string) {
    await rm(this.pathOf(key), { force: true });
  }

  urlOf(): null {
    return null;
  }

  async problem(): Promise<string | null> {
    try {
      await mkdir(this.root, { recursive: true });
      await access(this.root, constants.W_OK);
      return null;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      return `the uploads directory ${this.root} cannot be written (${err.code ?? err.message}): fix its permissions, or set DATA_DIR to a writable directory`;
    }
  }
}

async function readdirIfAny(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}
