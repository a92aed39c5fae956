/** Reading REST and GraphQL request bodies: size limits, JSON parsing, key casing. */

import type { IncomingMessage } from 'node:http';
import { AppError, type FieldError } from '../../platform/errors';
import { camelToSnake, snakeToCamel } from '../../platform/naming';

/** JSON bodies, REST and GraphQL alike (uploads have their own limit, UPLOAD_MAX_BYTES). */
export const MAX_JSON_BYTES = 1024 * 1024;

/**
 * Reads a whole request body of at most `maxBytes` (413 beyond, checked before and while reading).
 * Past the limit it stops reading but leaves the request stream alone (no destroy): the answer is
 * still to be written on its connection, which then drains or closes it (src/platform/http/earlyAnswer.ts).
 */
export function readBodyLimited(req: IncomingMessage, maxBytes: number, kind: string): Promise<Buffer> {
  const tooLarge = () => new AppError('payload_too_large', `${kind} bodies are limited to ${maxBytes} bytes`, { details: { max_bytes: maxBytes } });
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return settle(tooLarge());
      chunks.push(chunk);
    };
    const onEnd = () => settle();
    const onClose = () => settle(new AppError('bad_request', 'The request ended before its body was complete'));
    const settle = (err?: Error) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', settle);
      req.off('close', onClose);
      if (!err) return resolve(Buffer.concat(chunks, size));
      req.pause();
      reject(err);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', settle);
    req.once('close', onClose);
  });
}

/** Reads a JSON request body (1 MiB max). Empty body: undefined. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const body = await readBodyLimited(req, MAX_JSON_BYTES, 'JSON');
  if (body.length === 0) return undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new AppError('unsupported_media_type', 'Send JSON bodies with Content-Type: application/json');
  }
  const text = body.toString('utf8');
  // Checked before parsing: what reads the parsed body (key conversion, input checks, graphql-js) recurses.
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    throw new AppError('bad_request', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels`, { details: { max_depth: MAX_JSON_DEPTH } });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError('malformed_json', `The request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** Arrays and objects within arrays and objects; no REST body needs more than a handful. */
const MAX_JSON_DEPTH = 32;

/** Whether JSON text opens more than `max` arrays or objects at once; one pass, no recursion, strings skipped. */
function nestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Field errors the REST layer found in a request: 422 validation_failed, fields already named as the client sent them. */
export class RestInputError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  }
}

export function requireObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('bad_request', 'The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A body of exactly these optional fields (for routes whose operation takes arguments, not an input type); any other is named (unknown_field). */
export function bodyWith(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  const obj = requireObject(body);
  const errors: FieldError[] = Object.keys(obj)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ field: k, code: 'unknown_field', message: `is not a known field (known: ${allowed.join(', ')})` }));
  if (errors.length) throw new RestInputError(errors);
  return obj;
}


/** The keys of a camelized object as the client sent them (camelCase key to sent key); not enumerable, so GraphQL never sees it. */
const SENT_KEYS = Symbol('sentKeys');

/**
 * REST bodies use snake_case; the GraphQL inputs they map onto use camelCase.
 * Values under `opaque` keys (user-defined maps such as variant options) keep their keys.
 * Each object remembers the keys as sent, so errors can name a field as the client wrote it.
 */
export function camelizeKeys(value: unknown, opaque: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((v) => camelizeKeys(v, opaque));
  if (value && typeof value === 'object') {
    const sent = new Map<string, string>();
    const out = Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        const key = snakeToCamel(k);
        sent.set(key, k);
        return [key, opaque.has(k) ? v : camelizeKeys(v, opaque)];
      }),
    );
    Object.defineProperty(out, SENT_KEYS, { value: sent });
    return out;
  }
  return value;
}

/** How the client named `key` of an object built by camelizeKeys (snake_case of it otherwise). */
export function sentKey(obj: object, key: string): string {
  return (obj as { [SENT_KEYS]?: Map<string, string> })[SENT_KEYS]?.get(key) ?? camelToSnake(key);
}
