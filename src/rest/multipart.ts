import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, openSync, type ReadStream, unlinkSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { AppError } from '../errors';

export interface SpooledFile {
  fieldName: string;
  filename: string;
  mimetype: string;
  encoding: string;
  /** The file is larger than maxFileBytes; only its beginning was kept. */
  truncated: boolean;
  /** A stream of the spooled bytes (once); the spool file is removed from the directory at once. */
  createReadStream(): ReadStream;
  /** Removes the spool file without reading it. */
  discard(): Promise<void>;
}

export interface MultipartForm {
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
        mimetype: info.mimeType,
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
