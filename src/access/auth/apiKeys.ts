/** Public API keys: their format (prefix, mode, checksum), issuing, and authenticating a request's key. */

import type { Logger } from 'pino';
import { cacheBound, registerCache } from '../../platform/caches';
import type { RequestContext } from '../../platform/context';
import type { PrismaClient } from '../../platform/db/client';
import type { Mode } from '../../kernel/access';
import type { ApiKeyPrincipal } from '../../kernel/principal';
import { invalidToken } from './challenges';
import { hasValidChecksum, newCredential, safeEqual, sha256Hex } from './secrets';

export const API_KEY_TYPES = ['system', 'secret', 'publishable'] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];

const TYPE_CODE: Record<ApiKeyType, string> = { system: 'ck', secret: 'sk', publishable: 'pk' };
const KEY_PREFIX = /^svc_(test|live)_(ck|sk|pk)_/;
/** 192 bits of CSPRNG output (33 base62 characters) after the prefix, then a 6-character checksum. */
const RANDOM_BYTES = 24;
/** Longer input than any key this service issues is not worth hashing. */
const MAX_KEY_LENGTH = 128;

const apiKeyPrefix = (type: ApiKeyType, mode: Mode) => `svc_${mode}_${TYPE_CODE[type]}_`;

/** A new key: the plaintext (shown once) and what is stored about it. */
export function generateApiKey(type: ApiKeyType, mode: Mode) {
  const prefix = apiKeyPrefix(type, mode);
  const key = newCredential(prefix, RANDOM_BYTES);
  return { key, prefix, tokenHash: sha256Hex(key), last4: key.slice(-4) };
}

/** What lists show instead of the key: `svc_live_sk_…abcd`. */
export const redactApiKey = (k: { prefix: string; last4: string }) => `${k.prefix}…${k.last4}`;

export const looksLikeApiKey = (token: string) => KEY_PREFIX.test(token);

const credentialError = (code: 'invalid_api_key' | 'api_key_revoked' | 'api_key_expired', message: string) => invalidToken('public-api', message, code);

/**
 * Resolves an API key to its credential. The prefix and checksum are checked
 * first, so a mistyped or made-up key never reaches the database.
 */
export async function authenticateApiKey(ctx: RequestContext, key: string): Promise<ApiKeyPrincipal> {
  const now = ctx.now();
  const prefix = KEY_PREFIX.exec(key)?.[0];
  if (!prefix || key.length > MAX_KEY_LENGTH || !hasValidChecksum(key, prefix)) {
    throw credentialError('invalid_api_key', 'The API key is malformed; check it was copied completely');
  }
  const digest = sha256Hex(key);
  const row = await ctx.db.apiKey.findUnique({
    where: { tokenHash: digest },
    select: { id: true, storeId: true, mode: true, type: true, scopes: true, tokenHash: true, prefix: true, last4: true, expiresAt: true, revokedAt: true },
  });
  // The index lookup is by digest; the explicit constant-time comparison keeps that property independent of the database.
  if (!row || !safeEqual(row.tokenHash, digest)) throw credentialError('invalid_api_key', 'The API key is not valid');
  if (row.revokedAt) throw credentialError('api_key_revoked', 'The API key has been revoked');
  if (row.expiresAt && row.expiresAt <= now) throw credentialError('api_key_expired', 'The API key has expired');
  return {
    kind: 'api_key',
    keyType: row.type,
    redactedKey: redactApiKey(row),
    id: row.id,
    bucket: `key:${row.id}`,
    storeId: row.storeId,
    mode: row.mode,
    // Publishable keys are read-only whatever the row says.
    scopes: row.type === 'publishable' ? ['public:read'] : row.scopes,
  };
}

const MINUTE = 60_000;

/**
 * Records last_used_at at most once a minute per key, off the request path:
 * the write is started, never awaited by the request. The in-memory map saves
 * the write traffic; the conditional UPDATE keeps the once-a-minute rule
 * across several instances too.
 */
export class LastUsedRecorder {
  private readonly lastWrite = new Map<string, number>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly db: () => PrismaClient,
    private readonly log: Logger,
  ) {
    // Keys remembered at once (`api_key_last_used`); past the bound the oldest is forgotten (its next use may write last_used_at once more).
    registerCache('api_key_last_used', () => this.lastWrite.size);
  }

  record(keyId: string, now: Date): void {
    const t = now.getTime();
    const prev = this.lastWrite.get(keyId);
    if (prev !== undefined && t - prev < MINUTE) return;
    const max = cacheBound('api_key_last_used');
    if (this.lastWrite.size >= max) this.prune(t);
    // Still full of keys used within the minute: the oldest goes (the map's order is the order of writes).
    if (this.lastWrite.size >= max) this.lastWrite.delete(this.lastWrite.keys().next().value!);
    this.lastWrite.delete(keyId);
    this.lastWrite.set(keyId, t);
    const write = this.db()
      .apiKey.updateMany({
        where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(t - MINUTE) } }] },
        data: { lastUsedAt: now },
      })
      .catch((err) => this.log.warn({ err, keyId }, 'could not record api key last_used_at'))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
  }

  /** Resolves once every started write has finished (shutdown, tests). */
  async settle(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private prune(t: number) {
    for (const [id, at] of this.lastWrite) if (t - at >= MINUTE) this.lastWrite.delete(id);
  }
}
