import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { TestResponse, TestServer } from '../helpers/harness';

export type Format = 'jpeg' | 'png' | 'webp' | 'gif';

/** A real image of the given size: a gradient, so encoders have something to compress. */
export async function makeImage(format: Format, width = 64, height = 48): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set([(x * 255) / width, (y * 255) / height, 128], (y * width + x) * 3);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

/** A valid 1x1 PNG whose header claims width x height: a decompression ("pixel") bomb in a few dozen bytes. */
export async function pixelBombPng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await makeImage('png', 1, 1));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29); // IHDR CRC covers type + data
  return png;
}

export const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>');

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export type Part = { name: string; value: string } | { name: string; file: Buffer; filename: string; type: string };

export const filePart = (file: Buffer, filename: string, type: string, name = 'image'): Part => ({ name, file, filename, type });

export function form(parts: Part[]): FormData {
  const f = new FormData();
  for (const p of parts) {
    if ('file' in p) f.append(p.name, new Blob([new Uint8Array(p.file)], { type: p.type }), p.filename);
    else f.append(p.name, p.value);
  }
  return f;
}

export const uploadPath = (storeId: string) => `/api/v1/merchant/stores/${storeId}/products/images`;

export function restUpload(t: TestServer, storeId: string, token: string | undefined, parts: Part[]): Promise<TestResponse> {
  return t.request('POST', uploadPath(storeId), { token, rawBody: form(parts) });
}

export const UPLOAD_MUTATION = /* GraphQL */ `
  mutation Upload($storeId: ID!, $file: Upload!, $productId: ID, $alt: String) {
    uploadProductImage(storeId: $storeId, file: $file, productId: $productId, alt: $alt) {
      id url width height mimeType sizeBytes sha256 alt productId position
    }
  }`;

/** A GraphQL multipart request (graphql-multipart-request-spec): operations, map, then the file as part "0". */
export function graphqlUpload(
  t: TestServer,
  token: string | undefined,
  variables: { storeId: string; productId?: string; alt?: string },
  file: { buf: Buffer; filename: string; type: string },
): Promise<TestResponse> {
  return t.request('POST', '/graphql', {
    token,
    // Without it a multipart POST is refused as a possible cross-site request (csrf_header_required).
    headers: { 'x-graphql-yoga-csrf': '1' },
    rawBody: form([
      { name: 'operations', value: JSON.stringify({ query: UPLOAD_MUTATION, variables: { ...variables, file: null } }) },
      { name: 'map', value: JSON.stringify({ 0: ['variables.file'] }) },
      filePart(file.buf, file.filename, file.type, '0'),
    ]),
  });
}

/** The bytes and headers served at an image URL. */
export async function fetchServed(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Files left in the upload temp directory (should be none once requests are done). */
export function leftoverTempFiles(t: TestServer): string[] {
  try {
    return readdirSync(t.config.tmpDir);
  } catch {
    return [];
  }
}

/** A part of a hand-built multipart body: unlike FormData, a file part may go without a Content-Type. */
export type RawPart = { name: string; value: string } | { name: string; file: Buffer; filename: string; type?: string };

/** A multipart/form-data body written byte by byte, so a test controls each part's headers. */
export function rawMultipart(parts: RawPart[]): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----test-boundary-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head = ['file' in p ? `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"` : `Content-Disposition: form-data; name="${p.name}"`];
    if ('file' in p && p.type !== undefined) head.push(`Content-Type: ${p.type}`);
    chunks.push(Buffer.from(`--${boundary}\r\n${head.join('\r\n')}\r\n\r\n`), 'file' in p ? p.file : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: new Uint8Array(Buffer.concat(chunks)) as Uint8Array<ArrayBuffer>, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A file sent to both surfaces; `type` undefined sends the part without a Content-Type. */
export interface SentFile {
  buf: Buffer;
  filename: string;
  type?: string;
}

export function rawRestUpload(t: TestServer, storeId: string, token: string, file: SentFile): Promise<TestResponse> {
  const { body, contentType } = rawMultipart([{ name: 'image', file: file.buf, filename: file.filename, type: file.type }]);
  return t.request('POST', uploadPath(storeId), { token, rawBody: body, headers: { 'content-type': contentType } });
}

export function rawGraphqlUpload(t: TestServer, storeId: string, token: string, file: SentFile): Promise<TestResponse> {
  const { body, contentType } = rawMultipart([
    { name: 'operations', value: JSON.stringify({ query: UPLOAD_MUTATION, variables: { storeId, file: null } }) },
    { name: 'map', value: JSON.stringify({ 0: ['variables.file'] }) },
    { name: '0', file: file.buf, filename: file.filename, type: file.type },
  ]);
  return t.request('POST', '/graphql', { token, rawBody: body, headers: { 'content-type': contentType, 'x-graphql-yoga-csrf': '1' } });
}
