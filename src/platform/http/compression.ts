/** Compressed responses: every compressible one on the fly, and fixed bodies compressed once with strong validators. */

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip as gzipCallback } from 'node:zlib';
import compressible from 'compressible';
import compression from 'compression';
import Negotiator from 'negotiator';

/** Below this many bytes a body goes out as it is: compressing it saves less than the encoding costs. */
const COMPRESSION_THRESHOLD_BYTES = 1024;

type Encoding = 'br' | 'gzip' | 'identity';

/** Responses the on-the-fly compression leaves alone: those sendAsset answered (already encoded, with a validator of their bytes). */
const servedAsAssets = new WeakSet<ServerResponse>();

/** Streams whose every piece must reach the client at once: a compressor would hold them back until its buffer fills. */
const STREAMED_TYPES = /^(text\/event-stream|multipart\/mixed)\b/i;

/** JSON Lines (exports) is text that mime-db does not know. */
const isCompressible = (type: string) => compressible(type) ?? /^application\/x-ndjson\b/i.test(type);

/**
 * Compresses every response whose type is compressible and whose body reaches COMPRESSION_THRESHOLD_BYTES, as the
 * client accepts (Brotli, else gzip), at Brotli quality 4 (compression's default, a few milliseconds per
 * hundred kilobytes). Left alone: server-sent events and incremental delivery (multipart/mixed), which stream;
 * HEAD, 204 and 304; bodies already encoded; Cache-Control: no-transform. Call it first thing for every request.
 */
export function createResponseCompression(): (req: IncomingMessage, res: ServerResponse) => void {
  const middleware = compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: (_req, res) => {
      const type = String(res.getHeader('Content-Type') ?? '');
      return !servedAsAssets.has(res) && isCompressible(type) && !STREAMED_TYPES.test(type);
    },
  });
  return (req, res) => middleware(req as Parameters<typeof middleware>[0], res as Parameters<typeof middleware>[1], () => {});
}

/** One stored representation: its bytes and their strong validator. */
interface Representation {
  body: Buffer;
  etag: string;
}

/** A fixed body (a page, a bundle, a document) with the encodings made of it. */
export interface StaticAsset {
  type: string;
  encodings: Partial<Record<Encoding, Representation>> & { identity: Representation };
}

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/**
 * Makes the representations of a body: as it is, and Brotli and gzip when its type is compressible and it is
 * worth it. Each has its own strong ETag (the digest of the body, with the encoding), as its bytes differ. Brotli
 * quality 5: a 9 MB page compresses in under a second (11 takes most of a minute for a few percent more), off the
 * event loop.
 */
export async function prepareAsset(content: Buffer | string, type: string): Promise<StaticAsset> {
  const body = typeof content === 'string' ? Buffer.from(content) : content;
  const tag = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const asset: StaticAsset = { type, encodings: { identity: { body, etag: `"${tag}"` } } };
  if (body.length < COMPRESSION_THRESHOLD_BYTES || !isCompressible(type)) return asset;
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzip(body),
  ]);
  asset.encodings.br = { body: br, etag: `"${tag}-br"` };
  asset.encodings.gzip = { body: gz, etag: `"${tag}-gzip"` };
  return asset;
}

/** negotiator 1.x takes the server's preference among equally acceptable encodings; its type declarations predate that. */
type EncodingNegotiator = { encodings(available: string[], opts: { preferred: string[] }): string[] };

/** The encoding the client accepts best (Brotli over gzip when it takes both alike); identity when it takes neither. */
function chooseEncoding(req: IncomingMessage, asset: StaticAsset): Encoding {
  const available = (['br', 'gzip', 'identity'] as const).filter((e) => asset.encodings[e]);
  const [best] = (new Negotiator(req) as unknown as EncodingNegotiator).encodings(available, { preferred: ['br', 'gzip'] });
  return (best as Encoding | undefined) ?? 'identity';
}

/**
 * If-None-Match (RFC 9110 13.1.2): `*`, or a list of entity tags compared weakly. A request's Cache-Control does
 * not change the answer: fetch() sends `no-cache` with every conditional request, and a 304 is still right.
 */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.replace(/^W\//, '');
  return (header.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => opaque(tag) === opaque(etag));
}

/** Adds names to the Vary header, keeping what is there. */
function addVary(res: ServerResponse, ...names: string[]): void {
  const current = String(res.getHeader('Vary') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const merged = [...current, ...names.filter((n) => !current.some((c) => c.toLowerCase() === n.toLowerCase()))];
  res.setHeader('Vary', merged.join(', '));
}

/**
 * Answers GET or HEAD with the representation the client accepts best: 304 when its If-None-Match names that
 * representation's ETag, else the stored bytes with their encoding and length. `headers` are set on both.
 */
export function sendAsset(req: IncomingMessage, res: ServerResponse, asset: StaticAsset, opts: { cacheControl: string; status?: number; headers?: Record<string, string> }): void {
  const encoding = chooseEncoding(req, asset);
  const { body, etag } = asset.encodings[encoding]!;
  servedAsAssets.add(res);
  for (const [k, v] of Object.entries(opts.headers ?? {})) res.setHeader(k, v);
  addVary(res, 'Accept-Encoding');
  res.setHeader('Cache-Control', opts.cacheControl);
  res.setHeader('ETag', etag);
  const status = opts.status ?? 200;
  if (status === 200 && noneMatch(req.headers['if-none-match'], etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Content-Length', body.length);
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.end(req.method === 'HEAD' ? undefined : body);
}
