/** Content hashing of local files, for content-addressed storage. */

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The SHA-256 (hex) and size of a local file, read as a stream. */
export async function hashFile(localPath: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(localPath)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}
