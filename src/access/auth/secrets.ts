/** Building blocks of every credential: random base62 secrets with a checksum, digests and constant-time comparison. */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function toBase62(buf: Uint8Array): string {
  let n = BigInt('0x' + (Buffer.from(buf).toString('hex') || '0'));
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out || '0';
}

/** `bytes` of CSPRNG output in base62, left-padded to a fixed length. */
function randomBase62(bytes = 24): string {
  const len = Math.ceil((bytes * 8) / Math.log2(62));
  return toBase62(randomBytes(bytes)).padStart(len, '0');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function sha256Base64Url(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/** Constant-time string comparison (both sides are hashed first so lengths never leak). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

/** CRC32 of `body` as 6 base62 characters: lets a mistyped credential be rejected without a lookup. */
function checksum(body: string): string {
  const n = crc32(body) >>> 0;
  const buf = Buffer.alloc(4);
  buf.writeUInt32BE(n);
  return toBase62(buf).padStart(6, '0');
}

/** `prefix` + random + checksum: the shape of every credential this service issues. */
export function newCredential(prefix: string, bytes = 24): string {
  const body = prefix + randomBase62(bytes);
  return body + checksum(body);
}

export function hasValidChecksum(token: string, prefix: string): boolean {
  if (!token.startsWith(prefix) || token.length < prefix.length + 7) return false;
  if (!/^[0-9A-Za-z]+$/.test(token.slice(prefix.length))) return false;
  const body = token.slice(0, -6);
  return safeEqual(checksum(body), token.slice(-6));
}
