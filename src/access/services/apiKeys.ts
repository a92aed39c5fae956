/** The API key service: create, list, roll and revoke a store's public API keys. */

import { z } from 'zod';
import { API_KEY_TYPES, type ApiKeyType, generateApiKey } from '../auth/apiKeys';
import type { RequestContext } from '../../platform/context';
import type { Prisma } from '../../platform/db/client';
import { type Mode, type Scope, SCOPES } from '../../kernel/access';
import { userOf } from '../../kernel/principal';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound, validationError } from '../../platform/errors';
import { apiKeyView } from './views';
import { parseInput } from '../../platform/validation';

/**
 * Scopes per key type. Publishable keys go to browsers and apps, so they are
 * fixed to public:read. Secret and system keys may carry any scope; a secret
 * key must name its scopes (least privilege by default), a system key created
 * without scopes gets all of them (it is the trusted backend-to-backend key).
 */
const SCOPE_RULES: Record<ApiKeyType, { allowed: readonly Scope[]; default: readonly Scope[] | null }> = {
  publishable: { allowed: ['public:read'], default: ['public:read'] },
  secret: { allowed: SCOPES, default: null },
  system: { allowed: SCOPES, default: SCOPES },
};

/** Rows leave this service without their digest: nothing above it needs it. */
const SAFE = { omit: { tokenHash: true } } as const;

export const MAX_ROLL_OVERLAP_SECONDS = 7 * 24 * 3600;
export const DEFAULT_ROLL_OVERLAP_SECONDS = 24 * 3600;

const Id = z.string().uuid();

export const CreateApiKey = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100),
  type: z.enum(API_KEY_TYPES),
  mode: z.enum(['test', 'live']),
  scopes: z.array(z.enum(SCOPES)).max(20).optional(),
  expiresAt: z.date().optional(),
});
/** Plain strings from GraphQL and the CLI; CreateApiKey rejects unknown types, modes and scopes. */
interface ApiKeyCreate {
  name: string;
  type: string;
  mode: string;
  scopes?: string[];
  expiresAt?: Date;
}

function scopesFor(type: ApiKeyType, requested: Scope[] | undefined): string[] {
  const rule = SCOPE_RULES[type];
  const scopes = requested?.length ? requested : rule.default;
  if (!scopes) {
    throw validationError([{ field: 'scopes', code: 'required', message: `a ${type} key needs at least one scope (${rule.allowed.join(', ')})` }]);
  }
  const refused = scopes.filter((s) => !rule.allowed.includes(s));
  if (refused.length) {
    throw validationError([{ field: 'scopes', code: 'scope_not_allowed', message: `a ${type} key may only carry ${rule.allowed.join(', ')}` }]);
  }
  // Canonical order, no duplicates.
  return SCOPES.filter((s) => scopes.includes(s));
}

type SafeApiKey = Parameters<typeof apiKeyView>[0];

/** An API key event: the key as lists show it (redacted), in the key's own mode. */
const emitApiKeyEvent = (t: TransactionContext, type: 'api_key.created' | 'api_key.rolled' | 'api_key.revoked', key: SafeApiKey, before?: SafeApiKey) =>
  emit(t, { type, storeId: key.storeId, mode: key.mode as Mode, resource: { type: 'api_key', id: key.id }, data: apiKeyView(key), before: before && apiKeyView(before) });

/** Creates a key; the plaintext `secret` is returned here and never again. The key records the dashboard user who made it. */
export async function createApiKey(ctx: RequestContext, storeId: string, input: ApiKeyCreate) {
  const data = parseInput(CreateApiKey, input);
  const scopes = scopesFor(data.type, data.scopes);
  if (data.expiresAt && data.expiresAt <= ctx.now()) {
    throw validationError([{ field: 'expiresAt', code: 'in_the_past', message: 'must be in the future' }]);
  }
  const { key, prefix, tokenHash, last4 } = generateApiKey(data.type, data.mode);
  const createdById = userOf(ctx.principal)?.userId ?? null;
  return transaction(ctx, async (t) => {
    const apiKey = await t.tx.apiKey.create({
      ...SAFE,
      data: { storeId, name: data.name, type: data.type, mode: data.mode, scopes, tokenHash, prefix, last4, createdById, expiresAt: data.expiresAt },
    });
    emitApiKeyEvent(t, 'api_key.created', apiKey);
    return { apiKey, secret: key };
  });
}

/** The store's keys, newest first, including revoked and expired ones (their dates say so). */
export function listApiKeys<Q extends { select?: Prisma.ApiKeySelect; include?: Prisma.ApiKeyInclude }>(
  ctx: RequestContext,
  storeId: string,
  opts: { mode?: 'test' | 'live' } = {},
  query?: Q,
) {
  return ctx.db.apiKey.findMany({ ...(query ?? SAFE), where: { storeId, mode: opts.mode }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

async function findKey(ctx: RequestContext, storeId: string, id: string) {
  // A malformed id cannot name a key of this store: same answer as an unknown one.
  if (!Id.safeParse(id).success) throw notFound('API key');
  const key = await ctx.db.apiKey.findFirst({ ...SAFE, where: { id, storeId } });
  if (!key) throw notFound('API key');
  return key;
}

const RollInput = z.object({
  expiresInSeconds: z.number().int().min(0).max(MAX_ROLL_OVERLAP_SECONDS, 'must be at most 604800 (7 days)').default(DEFAULT_ROLL_OVERLAP_SECONDS),
});

/**
 * Replaces a key: the new one works at once, the old one keeps working for
 * `expiresInSeconds` (0 = stops now, at most 7 days) so deployments can switch
 * over. The new key has the old one's name, type, mode, scopes and original
 * expiry: a roll changes the secret, not what the key may do or how long.
 */
export async function rollApiKey(ctx: RequestContext, storeId: string, id: string, input: z.input<typeof RollInput>) {
  const { expiresInSeconds } = parseInput(RollInput, input);
  const now = ctx.now();
  const createdById = userOf(ctx.principal)?.userId ?? null;
  const old = await findKey(ctx, storeId, id);
  if (old.revokedAt) throw new AppError('conflict', 'A revoked key cannot be rolled; create a new key');
  if (old.expiresAt && old.expiresAt <= now) throw new AppError('conflict', 'An expired key cannot be rolled; create a new key');
  const overlapEnd = new Date(now.getTime() + expiresInSeconds * 1000);
  const oldExpiresAt = old.expiresAt && old.expiresAt < overlapEnd ? old.expiresAt : overlapEnd;
  const fresh = generateApiKey(old.type, old.mode);
  return transaction(ctx, async (t) => {
    const tx = t.tx;
    // Updating first locks the row, so of two concurrent rolls the second sees the first one's successor.
    const updated = await tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { expiresAt: oldExpiresAt } });
    if (updated.count !== 1) throw new AppError('conflict', 'The key was revoked meanwhile');
    if (await tx.apiKey.findFirst({ where: { rolledFromId: id }, select: { id: true } })) {
      throw new AppError('conflict', 'This key has already been rolled; roll its replacement instead');
    }
    const apiKey = await tx.apiKey.create({
      ...SAFE,
      data: {
        storeId, name: old.name, type: old.type, mode: old.mode, scopes: old.scopes, expiresAt: old.expiresAt,
        tokenHash: fresh.tokenHash, prefix: fresh.prefix, last4: fresh.last4, rolledFromId: old.id, createdById,
      },
    });
    const previous = await tx.apiKey.findUniqueOrThrow({ ...SAFE, where: { id } });
    // The replacement is a new key; the rolled one changed its expiry.
    emitApiKeyEvent(t, 'api_key.created', apiKey);
    emitApiKeyEvent(t, 'api_key.rolled', previous, old);
    return { apiKey, secret: fresh.key, previous };
  });
}

/** Revokes a key with immediate effect; revoking a revoked key changes nothing (and records nothing). */
export async function revokeApiKey(ctx: RequestContext, storeId: string, id: string) {
  const key = await findKey(ctx, storeId, id);
  if (key.revokedAt) return key;
  return transaction(ctx, async (t) => {
    const { count } = await t.tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: t.now() } });
    const revoked = await t.tx.apiKey.findUniqueOrThrow({ ...SAFE, where: { id } });
    if (count === 1) emitApiKeyEvent(t, 'api_key.revoked', revoked, key);
    return revoked;
  });
}
