/** multipart/form-data requests: file parts spooled to disk, and the Content-Type of each part. */

import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, openSync, type ReadStream, unlinkSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { AppError } from '../../platform/errors';

export interface SpooledFile {
  fieldName: string;
  filename: string;
  /** The part's Content-Type as sent (lowercase, without parameters); null when the part had none. */
  mimetype: string | null;
  encoding: string;
  /** The file is larger than maxFileBytes; only its beginning was kept. */
  truncated: boolean;
  /** A stream of the spooled bytes (once); the spool file is removed from the directory at once. */
  createReadStream(): ReadStream;
  /** Removes the spool file without reading it. */
  discard(): Promise<void>;
}

interface MultipartForm {
  fields: Record<string, string>;
  file: SpooledFile | null;
}

export function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '');
}

/**
 * Reads a multipart/form-data body as a stream. Text fields are kept (they are
 * small and limited); the first file part named in `fileFields` is spooled to a
 * temp file, so fields may come before or after it. Other file parts are skipped.
 */
export async function readMultipartForm(
  req: IncomingMessage,
  opts: { fileFields: string[]; maxFileBytes: number; tmpDir: string; maxFieldBytes?: number },
): Promise<MultipartForm> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // busboy flags a file that merely reaches fileSize as truncated, so allow one byte more.
      limits: { fileSize: opts.maxFileBytes + 1, fieldSize: opts.maxFieldBytes ?? 16 * 1024, fields: 20, files: 5, parts: 30 },
    });
  } catch (e) {
    throw new AppError('bad_request', `Malformed multipart request: ${(e as Error).message}`);
  }
  await mkdir(opts.tmpDir, { recursive: true });

  return new Promise((resolve, reject) => {
    const sentTypes = watchPartTypes(req);
    const fields: Record<string, string> = {};
    let file: SpooledFile | null = null;
    let spooling: Promise<unknown> = Promise.resolve();
    let failed = false;

    const fail = (err: AppError) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      parser.destroy(); // also ends a file part mid-way, so its spool write settles
      req.resume();
      void spooling.finally(() => file?.discard()).finally(() => reject(err));
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new AppError('payload_too_large', `The form field "${name}" is too long`));
      fields[name] ??= value;
    });
    parser.on('file', (name, stream, info) => {
      if (file || failed || !opts.fileFields.includes(name)) return void stream.resume();
      const spoolPath = path.join(opts.tmpDir, `spool-${randomBytes(8).toString('hex')}`);
      const discard = () => rm(spoolPath, { force: true });
      const spooled: SpooledFile = {
        fieldName: name,
        filename: info.filename ?? '',
        mimetype: sentTypes.fileType(name, info.mimeType),
        encoding: info.encoding,
        truncated: false,
        createReadStream: () => {
          // Unlinked as soon as it is open: the bytes live until the stream closes, and no path is left behind.
          const fd = openSync(spoolPath, 'r');
          unlinkSync(spoolPath);
          return createReadStream('', { fd });
        },
        discard,
      };
      file = spooled;
      spooling = pipeline(stream, createWriteStream(spoolPath, { flags: 'wx' })).then(
        () => void (spooled.truncated = !!stream.truncated),
        (e) => fail(new AppError('internal_error', 'Could not buffer the upload', { cause: e })),
      );
    });
    parser.on('partsLimit', () => fail(new AppError('payload_too_large', 'Too many parts in the form')));
    parser.on('fieldsLimit', () => fail(new AppError('payload_too_large', 'Too many fields in the form')));
    parser.on('error', (e) => fail(new AppError('bad_request', `Malformed multipart request: ${(e as Error).message}`)));
    parser.on('close', () => {
      void spooling.then(() => {
        if (!failed) resolve({ fields, file });
      });
    });
    req.once('close', () => {
      if (!req.complete) fail(new AppError('bad_request', 'The request ended before the form was complete'));
    });
    req.pipe(parser);
  });
}

/** Part headers longer than this are not read (busboy refuses parts with larger headers). */
const MAX_PART_HEADER_BYTES = 16 * 1024;

interface PartTypes {
  /**
   * The Content-Type the first file part named `name` was sent with (lowercase, without parameters),
   * null when it had none, or `fallback` when no such part was seen.
   */
  fileType(name: string, fallback: string): string | null;
}

interface PartHead {
  name: string | undefined;
  isFile: boolean;
  type: string | null;
}

/**
 * Watches a multipart/form-data request for the Content-Type each part was sent with. busboy (and
 * graphql-upload-minimal on it) reports a part without a Content-Type as text/plain, RFC 7578's
 * default, so "no type" and "declared text/plain" look alike; the image rule needs them apart.
 *
 * It only reads the bytes as they pass: call it in the same tick as the request is piped into the
 * parser, so it sees each chunk before the parser does and a part's headers are known by the time
 * the parser announces the part.
 */
export function watchPartTypes(req: IncomingMessage): PartTypes {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.headers['content-type'] ?? '');
  const heads: PartHead[] = [];
  if (boundary) {
    const scanner = new PartHeadScanner(Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`, 'latin1'), heads);
    const onData = (chunk: Buffer) => {
      if (!scanner.write(chunk)) req.off('data', onData);
    };
    req.on('data', onData);
  }
  return {
    fileType(name, fallback) {
      const head = heads.find((h) => h.isFile && h.name === name);
      return head ? head.type : fallback;
    },
  };
}

/** Finds the header block of each part in a multipart body given chunk by chunk; the part bodies are skipped. */
class PartHeadScanner {
  /** The body starts with the first delimiter, without the CRLF that precedes every later one. */
  private pending = Buffer.from('\r\n');
  private state: 'body' | 'headers' | 'done' = 'body';

  constructor(
    private readonly delimiter: Buffer,
    private readonly heads: PartHead[],
  ) {}

  /** Reads a chunk; false once nothing more is to be found (the closing delimiter, or headers too long). */
  write(chunk: Buffer): boolean {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (this.state !== 'done') {
      if (this.state === 'body') {
        const at = data.indexOf(this.delimiter);
        if (at < 0) {
          // Keep what could be the start of a delimiter split across chunks (copied: the chunk itself may be large).
          this.pending = Buffer.from(data.subarray(Math.max(0, data.length - this.delimiter.length + 1)));
          return true;
        }
        data = data.subarray(at + this.delimiter.length);
        this.state = 'headers';
      } else {
        if (data.length < 2) {
          this.pending = Buffer.from(data);
          return true;
        }
        if (data[0] === 0x2d && data[1] === 0x2d) break; // "--": the closing delimiter
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) {
          if (data.length > MAX_PART_HEADER_BYTES) this.state = 'done';
          else this.pending = Buffer.from(data);
          return this.state !== 'done';
        }
        this.heads.push(parsePartHead(data.subarray(0, end).toString('latin1')));
        data = data.subarray(end + 4);
        this.state = 'body';
      }
    }
    this.state = 'done';
    return false;
  }
}

/** The name, file-ness (busboy's rule: a filename, or application/octet-stream) and Content-Type of a part's header block. */
function parsePartHead(block: string): PartHead {
  const headers = new Map<string, string>();
  // The first line is the rest of the delimiter line (transport padding).
  for (const line of block.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const key = line.slice(0, colon).trim().toLowerCase();
      if (!headers.has(key)) headers.set(key, line.slice(colon + 1).trim());
    }
  }
  const disposition = headers.get('content-disposition') ?? '';
  const name = /(?:^|;)\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  const hasFilename = /(?:^|;)\s*filename\*?\s*=/i.test(disposition);
  const rawType = headers.get('content-type')?.split(';')[0].trim().toLowerCase();
  const type = rawType ? rawType : null;
  return {
    name: name ? Buffer.from((name[1] ?? name[2]).replace(/\\(.)/g, '$1'), 'latin1').toString('utf8') : undefined,
    isFile: hasFilename || type === 'application/octet-stream',
    type,
  };
}
