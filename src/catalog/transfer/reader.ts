/**
 * Reads an import file as a stream of records, never the whole file at once: UTF-8 only (a byte order mark is
 * skipped), CSV through csv-parse, JSON Lines split into lines. What makes the whole file unreadable is an
 * ImportFileError with a stable code; a bad record is a row error, and reading goes on.
 */

import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { COLUMNS, IGNORED_COLUMNS, PRICE_COLUMN, PRICES_KEY, type RowError, type TransferFormat } from './format';
import { headerKey, translationColumn, TRANSLATIONS_KEY } from './translations';

/** File errors: the file as a whole cannot be read (or is over a limit). */
const FILE_ERROR_CODES = ['invalid_encoding', 'empty_file', 'missing_header', 'unknown_column', 'duplicate_column', 'malformed_csv', 'line_too_long', 'too_many_rows'] as const;
type FileErrorCode = (typeof FILE_ERROR_CODES)[number];

export class ImportFileError extends Error {
  constructor(
    readonly code: FileErrorCode,
    message: string,
    /** Where reading stopped (as rows are numbered in the report), when it is known. */
    readonly row?: number,
  ) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export type ReadItem = { row: number; record: Record<string, unknown> } | { row: number; error: RowError };

interface ReadOptions {
  format: TransferFormat;
  maxRows: number;
  /** Told the bytes read so far, as they are read (a progress bar of the file). */
  onBytes?: (bytesRead: number) => void;
  /** Told once, about columns it ignores. */
  onWarning?: (warning: RowError) => void;
}

/** UTF-8 text of the byte chunks; throws invalid_encoding at the first byte sequence that is not UTF-8. */
async function* utf8(chunks: AsyncIterable<Uint8Array>, onBytes?: (n: number) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let read = 0;
  for await (const chunk of chunks) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new ImportFileError('invalid_encoding', `The file is not UTF-8 text (an invalid byte sequence within bytes ${read}–${read + chunk.length}); save it as UTF-8 (CSV UTF-8 in a spreadsheet)`);
    }
    read += chunk.length;
    onBytes?.(read);
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new ImportFileError('invalid_encoding', 'The file ends inside a UTF-8 character; save it as UTF-8');
  }
}

const KNOWN = new Set<string>([...COLUMNS, ...IGNORED_COLUMNS]);

function ignoredWarning(column: string): RowError {
  return { row: 1, field: column, code: 'column_ignored', message: 'images are not imported: upload them with POST …/products/images; this column was ignored' };
}

export async function* readRecords(chunks: AsyncIterable<Uint8Array>, opts: ReadOptions): AsyncGenerator<ReadItem> {
  const text = utf8(chunks, opts.onBytes);
  if (opts.format === 'csv') yield* csvRecords(text, opts);
  else yield* jsonlRecords(text, opts);
}

async function* csvRecords(text: AsyncIterable<string>, opts: ReadOptions): AsyncGenerator<ReadItem> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024, info: true });
  const source = Readable.from(text);
  // pipe() does not pass errors on: the decoder's (invalid_encoding) must reach the loop below, not an unhandled 'error'.
  source.on('error', (e) => parser.destroy(e));
  source.pipe(parser);
  let header: string[] | null = null;
  let row = 1;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const cells = item.record;
      if (!header) {
        header = checkHeader(cells.map((c) => c.trim()), opts);
        continue;
      }
      row++;
      if (row - 1 > opts.maxRows) throw new ImportFileError('too_many_rows', `The file has more than ${opts.maxRows} rows; split it`, row);
      if (cells.length !== header.length) {
        yield { row, error: { row, field: '(row)', code: 'wrong_column_count', message: `has ${cells.length} cells; the header has ${header.length} columns` } };
        continue;
      }
      const record: Record<string, unknown> = {};
      header.forEach((c, i) => {
        if (!IGNORED_COLUMNS.includes(c as never)) record[c] = cells[i];
      });
      yield { row, record };
    }
  } catch (e) {
    if (e instanceof ImportFileError) throw e;
    const err = e as { code?: string; message?: string; lines?: number };
    if (typeof err.code === 'string' && err.code.startsWith('CSV_')) {
      throw new ImportFileError('malformed_csv', `The CSV cannot be read after row ${row}: ${err.message}`, row + 1);
    }
    throw e;
  }
  if (!header) throw new ImportFileError('empty_file', 'The file is empty: a CSV needs a header row naming its columns (e.g. name,price,category_slugs)');
}

function checkHeader(header: string[], opts: ReadOptions): string[] {
  const seen = new Set<string>();
  for (const c of header) {
    if (c === '') throw new ImportFileError('missing_header', 'The header row has an empty column name; the first row must name the columns (e.g. name,price,category_slugs)', 1);
    if (!KNOWN.has(c) && !PRICE_COLUMN.test(c) && !translationColumn(c)) {
      throw new ImportFileError(
        'unknown_column',
        `Unknown column "${c}" in the header; the columns are ${COLUMNS.join(', ')}, price:XXX and compare_at_price:XXX for a further currency XXX, and translations as name:de (docs/import-export.md)`,
        1,
      );
    }
    // A currency's columns in any case, a locale's in any spelling of its tag, are one column.
    const key = translationColumn(c) ? headerKey(c) : c.toUpperCase();
    if (seen.has(key)) throw new ImportFileError('duplicate_column', `The column "${c}" appears twice in the header`, 1);
    seen.add(key);
  }
  for (const c of IGNORED_COLUMNS) if (seen.has(c)) opts.onWarning?.(ignoredWarning(c));
  return header;
}

async function* jsonlRecords(text: AsyncIterable<string>, opts: ReadOptions): AsyncGenerator<ReadItem> {
  let line = 0;
  let rows = 0;
  let pending = '';
  let warned = false;
  const one = function* (raw: string): Generator<ReadItem> {
    line++;
    const s = line === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (s.trim() === '') return;
    rows++;
    if (rows > opts.maxRows) throw new ImportFileError('too_many_rows', `The file has more than ${opts.maxRows} rows; split it`, line);
    let value: unknown;
    try {
      value = JSON.parse(s);
    } catch (e) {
      yield { row: line, error: { row: line, field: '(row)', code: 'invalid_json', message: `not a JSON object: ${(e as Error).message}` } };
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      yield { row: line, error: { row: line, field: '(row)', code: 'invalid_json', message: 'each line must be one JSON object' } };
      return;
    }
    const record: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if ((IGNORED_COLUMNS as readonly string[]).includes(k)) {
        if (!warned) opts.onWarning?.({ ...ignoredWarning(k), row: line });
        warned = true;
      } else if (!KNOWN.has(k) && k !== PRICES_KEY && k !== TRANSLATIONS_KEY) {
        yield { row: line, error: { row: line, field: k, code: 'unknown_field', message: `unknown field; the fields are ${COLUMNS.join(', ')}, ${PRICES_KEY}, ${TRANSLATIONS_KEY}` } };
        return;
      } else record[k] = v;
    }
    yield { row: line, record };
  };
  for await (const chunk of text) {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      yield* one(pending.slice(0, nl).replace(/\r$/, ''));
      pending = pending.slice(nl + 1);
    }
    if (pending.length > 1024 * 1024) throw new ImportFileError('line_too_long', `Line ${line + 1} is longer than 1 MiB`, line + 1);
  }
  if (pending) yield* one(pending.replace(/\r$/, ''));
  if (rows === 0) throw new ImportFileError('empty_file', 'The file has no JSON object lines');
}
