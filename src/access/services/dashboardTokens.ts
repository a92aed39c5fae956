/** The dashboard token service: issue, list and revoke a user's dashboard tokens. */

import { z } from 'zod';
import { DASHBOARD_TOKEN_PREFIX, issueDashboardToken, revokeDashboardToken } from '../auth/dashboardTokens';
import { sha256Hex } from '../auth/secrets';
import type { RequestContext } from '../../platform/context';
import { AppError, validationError } from '../../platform/errors';
import { isUuid } from '../../kernel/ids';
import { parseInput } from '../../platform/validation';

/** What may be shown of a dashboard token: never its digest. */
const tokenSelect = { id: true, userId: true, name: true, last4: true, createdAt: true, expiresAt: true, revokedAt: true } as const;

export const redactDashboardToken = (t: { last4: string }) => `${DASHBOARD_TOKEN_PREFIX}…${t.last4}`;

const IssueToken = z.object({
  userId: z.string().uuid(),
  name: z.string().trim().max(100).default(''),
  expiresAt: z
    .date()
    .refine((d) => !Number.isNaN(d.getTime()), 'must be a valid date')
    .optional(),
});

/** Issues a dashboard token for a user; the token itself is returned once. */
export async function createDashboardToken(ctx: RequestContext, input: z.input<typeof IssueToken>) {
  const data = parseInput(IssueToken, input);
  if (data.expiresAt && data.expiresAt <= ctx.now()) throw validationError([{ field: 'expiresAt', code: 'in_the_past', message: 'must be in the future' }]);
  const { token, id } = await issueDashboardToken(ctx, data.userId, { name: data.name, expiresAt: data.expiresAt });
  const record = await ctx.db.dashboardToken.findUniqueOrThrow({ where: { id }, select: tokenSelect });
  return { token, record };
}

/** A user's dashboard tokens, newest first, revoked and expired ones included. */
export function listDashboardTokens(ctx: RequestContext, userId: string) {
  return ctx.db.dashboardToken.findMany({ where: { userId }, orderBy: { createdAt: 'desc' }, select: tokenSelect });
}

/**
 * Revokes a dashboard token named by its id or by the token itself. Idempotent:
 * revoking a revoked token returns it unchanged. Takes effect at once in this
 * process and in a service on the embedded database (whose socket the write
 * went through); other processes on PostgreSQL see it within AUTH_CACHE_TTL_MS.
 */
export async function revokeDashboardTokenBy(ctx: RequestContext, ref: { id: string } | { token: string }) {
  const select = { id: true, revokedAt: true } as const;
  const found =
    'id' in ref
      ? isUuid(ref.id) && (await ctx.db.dashboardToken.findUnique({ where: { id: ref.id }, select }))
      : await ctx.db.dashboardToken.findUnique({ where: { tokenHash: sha256Hex(ref.token.trim()) }, select });
  if (!found) throw new AppError('not_found', 'id' in ref ? `No dashboard token with id "${ref.id}"` : 'No dashboard token matches the given token');
  if (!found.revokedAt) await revokeDashboardToken(ctx, found.id);
  return ctx.db.dashboardToken.findUniqueOrThrow({ where: { id: found.id }, select: tokenSelect });
}
