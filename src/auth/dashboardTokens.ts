import { db } from '../db/client';
import { AppError } from '../errors';
import type { Viewer } from './permissions';
import { hasValidChecksum, newCredential, sha256Hex } from './secrets';

export const DASHBOARD_TOKEN_PREFIX = 'svc_dash_';

const invalid = (message: string) =>
  new AppError('invalid_token', message, { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });

/** Issues a dashboard bearer token; the plaintext is returned once and only its SHA-256 is stored. */
export async function issueDashboardToken(userId: string, opts: { name?: string; expiresAt?: Date } = {}) {
  const token = newCredential(DASHBOARD_TOKEN_PREFIX, 32);
  const row = await db().dashboardToken.create({
    data: { userId, name: opts.name ?? '', tokenHash: sha256Hex(token), last4: token.slice(-4), expiresAt: opts.expiresAt },
  });
  return { token, id: row.id };
}

export async function revokeDashboardToken(tokenId: string) {
  await db().dashboardToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Resolves a bearer token to its viewer (with store memberships) in one query, or throws 401 invalid_token. */
export async function authenticateDashboardToken(token: string, now = new Date()): Promise<Viewer> {
  if (!hasValidChecksum(token, DASHBOARD_TOKEN_PREFIX)) throw invalid('The bearer token is malformed');
  const row = await db().dashboardToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: {
      id: true,
      revokedAt: true,
      expiresAt: true,
      user: { select: { id: true, email: true, memberships: { select: { storeId: true, role: true, permissions: true } } } },
    },
  });
  if (!row) throw invalid('The bearer token is not valid');
  if (row.revokedAt) throw invalid('The bearer token has been revoked');
  if (row.expiresAt && row.expiresAt <= now) throw invalid('The bearer token has expired');
  return { userId: row.user.id, email: row.user.email, tokenId: row.id, memberships: row.user.memberships };
}
