/** Dashboard bearer tokens: issuing, revoking, and authenticating them (with a short verified-token cache). */

import { cacheBound, registerCache } from '../../platform/caches';
import type { RequestContext } from '../../platform/context';
import type { UserPrincipal } from '../../kernel/principal';
import { invalidToken } from './challenges';
import { hasValidChecksum, newCredential, sha256Hex } from './secrets';

type Viewer = UserPrincipal;

export const DASHBOARD_TOKEN_PREFIX = 'svc_dash_';

const invalid = (message: string) => invalidToken('dashboard', message);

/**
 * Issues a dashboard bearer token; the plaintext is returned once and only its
 * SHA-256 is stored. Sessions are a user's, not a store's: no store history
 * records them.
 */
export async function issueDashboardToken(ctx: RequestContext, userId: string, opts: { name?: string; expiresAt?: Date } = {}) {
  const token = newCredential(DASHBOARD_TOKEN_PREFIX, 32);
  const row = await ctx.db.dashboardToken.create({
    data: { userId, name: opts.name ?? '', tokenHash: sha256Hex(token), last4: token.slice(-4), expiresAt: opts.expiresAt },
  });
  return { token, id: row.id };
}

export async function revokeDashboardToken(ctx: RequestContext, tokenId: string) {
  await ctx.db.dashboardToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: ctx.now() } });
  verified.evict((v) => v.tokenId === tokenId);
}

/**
 * Verified tokens are kept for a few seconds (AUTH_CACHE_TTL_MS) so a request
 * spends its SQL on its own work, not on looking its token up again. Changes
 * made through this process (revocation, memberships) evict at once; another
 * instance sees them within the TTL. A TTL of 0 turns the cache off.
 */
class VerifiedTokens {
  private entries = new Map<string, { viewer: Viewer; until: number }>();
  ttlMs = 5000;
  get size(): number {
    return this.entries.size;
  }

  get(hash: string, now: number): Viewer | undefined {
    const e = this.entries.get(hash);
    if (e && e.until > now) return e.viewer;
    if (e) this.entries.delete(hash);
    return undefined;
  }

  set(hash: string, viewer: Viewer, now: number, expiresAt: Date | null) {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= cacheBound('verified_dashboard_tokens')) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { viewer, until: Math.min(now + this.ttlMs, expiresAt?.getTime() ?? Infinity) });
  }

  evict(match: (v: Viewer) => boolean) {
    for (const [hash, e] of this.entries) if (match(e.viewer)) this.entries.delete(hash);
  }
}

const verified = new VerifiedTokens();
registerCache('verified_dashboard_tokens', () => verified.size);

export function setDashboardTokenCacheTtl(ms: number) {
  verified.ttlMs = ms;
}

/** Forgets cached verifications of a user's tokens (their memberships or permissions changed). */
export function forgetVerifiedUser(userId: string) {
  verified.evict((v) => v.userId === userId);
}

/** Forgets every cached verification (another process changed tokens or memberships in the database). */
export function forgetAllVerifiedTokens() {
  verified.evict(() => true);
}

/** Resolves a bearer token to its viewer (with store memberships) in one query (none while cached), or throws 401 invalid_token. */
export async function authenticateDashboardToken(ctx: RequestContext, token: string): Promise<Viewer> {
  if (!hasValidChecksum(token, DASHBOARD_TOKEN_PREFIX)) throw invalid('The bearer token is malformed');
  const now = ctx.now();
  const hash = sha256Hex(token);
  const cached = verified.get(hash, now.getTime());
  if (cached) return cached;
  const row = await ctx.db.dashboardToken.findUnique({
    where: { tokenHash: hash },
    select: {
      id: true,
      revokedAt: true,
      expiresAt: true,
      user: { select: { id: true, email: true, name: true, memberships: { select: { storeId: true, role: true, permissions: true } } } },
    },
  });
  if (!row) throw invalid('The bearer token is not valid');
  if (row.revokedAt) throw invalid('The bearer token has been revoked');
  if (row.expiresAt && row.expiresAt <= now) throw invalid('The bearer token has expired');
  const viewer: Viewer = { kind: 'user', userId: row.user.id, email: row.user.email, name: row.user.name, tokenId: row.id, memberships: row.user.memberships };
  verified.set(hash, viewer, now.getTime(), row.expiresAt);
  return viewer;
}
