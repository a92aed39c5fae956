import { z } from 'zod';
import { DASHBOARD_TOKEN_PREFIX, issueDashboardToken, revokeDashboardToken } from '../auth/dashboardTokens';
import { sha256Hex } from '../auth/secrets';
import { db } from '../db/client';
import { AppError } from '../errors';
import { isUuid } from './products';
import { parseInput } from './validation';

/** What may be shown of a dashboard token: never its digest. */
const tokenSelect = { id: true, userId: true, name: true, last4: true, createdAt: true, expiresAt: true, revokedAt: true } as const;

export const redactDashboardToken = (t: { last4: string }) => `${DASHBOARD_TOKEN_PREFIX}…${t.last4}`;

const IssueToken = z.object({
  userId: z.string().uuid(),
  name: z.string().trim().max(100).default(''),
  expiresAt: z
    .date()
    .refine((d) => !Number.isNaN(d.getTime()), 'must be a valid date')
    .refine((d) => d.getTime() > Date.now(), 'must be in the future')
    .optional(),
});

/** Issues a dashboard token for a user; the token itself is returned once. */
export async function createDashboardToken(input: z.input<typeof IssueToken>) {
  const data = parseInput(IssueToken, input);
  const { token, id } = await issueDashboardToken(data.userId, { name: data.name, expiresAt: data.expiresAt });
  const record = await db().dashboardToken.findUniqueOrThrow({ where: { id }, select: tokenSelect });
  return { token, record };
}

/** A user's dashboard tokens, newest first, revoked and expired ones included. */
export function listDashboardTokens(userId: string) {
  return db().dashboardToken.findMany({ where: { userId }, orderBy: { createdAt: 'desc' }, select: tokenSelect });
}

/**
 * Revokes a dashboard token named by its id or by the token itself. Idempotent:
 * revoking a revoked token returns it unchanged. Takes effect at once in this
 * process and in a service on the embedded database (whose socket the write
 * went through); other processes on PostgreSQL see it within AUTH_CACHE_TTL_MS.
 */
export async function revokeDashboardTokenBy(ref: { id: string } | { token: string }) {
  const select = { id: true, revokedAt: true } as const;
  const found =
    'id' in ref
      ? isUuid(ref.id) && (await db().dashboardToken.findUnique({ where: { id: ref.id }, select }))
      : await db().dashboardToken.findUnique({ where: { tokenHash: sha256Hex(ref.token.trim()) }, select });
  if (!found) throw new AppError('not_found', 'id' in ref ? `No dashboard token with id "${ref.id}"` : 'No dashboard token matches the given token');
  if (!found.revokedAt) await revokeDashboardToken(found.id);
  return db().dashboardToken.findUniqueOrThrow({ where: { id: found.id }, select: tokenSelect });
}
