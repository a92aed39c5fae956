import type { IncomingMessage, ServerResponse } from 'node:http';
import { Upload } from 'graphql-upload-minimal';
import { checkIdempotencyKey, fingerprintOf, type IdempotentOutcome } from '../idempotency';
import type { RestRequest } from './routes';

/**
 * The HTTP side of idempotency keys (the rules are src/api/idempotency.ts):
 * the `Idempotency-Key` header of a write, the fingerprint of a REST request,
 * and writing a first or replayed answer. Reads ignore the header, as Stripe's do.
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The request's idempotency key: null for a read or without the header; a malformed one is 400 invalid_idempotency_key. */
export function idempotencyKeyOf(req: IncomingMessage, method: string): string | null {
  if (!WRITES.has(method)) return null;
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  return checkIdempotencyKey(Array.isArray(raw) ? raw.join(', ') : raw);
}

/**
 * The canonical request: method, path, query parameters (sorted) and the body
 * as parsed (so key order and whitespace do not matter). A multipart body is
 * taken as the variables it became, a file as its name and type (its bytes are
 * not hashed: they were streamed to disk, not kept).
 */
export function restFingerprint(method: string, url: URL, r: RestRequest, variables: Record<string, unknown>, multipart: boolean): string {
  const query = [...url.searchParams].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  const body = multipart ? Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, v instanceof Upload ? uploadDescriptor(v) : v])) : r.body;
  return fingerprintOf({ method, path: url.pathname, query, body });
}

function uploadDescriptor(upload: Upload): unknown {
  const file = (upload as unknown as { file?: { filename?: string; mimetype?: string | null } }).file;
  return { file: file?.filename ?? null, type: file?.mimetype ?? null };
}

/** Writes an answer (first or replayed) to the response; a replay says so. */
export function sendAnswer(res: ServerResponse, outcome: IdempotentOutcome, method: string): void {
  const { answer } = outcome;
  for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
  if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.statusCode = answer.status;
  res.end(answer.body === null || method === 'HEAD' ? undefined : answer.body);
}
