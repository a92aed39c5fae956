/** OAuth token formats and authenticating an OAuth access token. */

import type { RequestContext } from '../../platform/context';
import type { OAuthPrincipal } from '../../kernel/principal';
import { AppError } from '../../platform/errors';
import { invalidToken } from './challenges';
import { hasValidChecksum, sha256Hex } from './secrets';

/** Prefixes of everything the OAuth flow issues; the checksum lets a mistyped token fail before any lookup. */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'svc_oat_';
export const OAUTH_REFRESH_TOKEN_PREFIX = 'svc_ort_';
export const OAUTH_CODE_PREFIX = 'svc_oac_';

const invalidAccessToken = (message: string) => invalidToken('public-api', message);

/**
 * Resolves an OAuth access token (`svc_oat_…`) to the public credential it stands for:
 * the grant's store, mode and scopes. A token only works while its app is active.
 */
export async function authenticateOAuthAccessToken(ctx: RequestContext, token: string): Promise<OAuthPrincipal> {
  if (!hasValidChecksum(token, OAUTH_ACCESS_TOKEN_PREFIX)) throw invalidAccessToken('The OAuth access token is malformed');
  const now = ctx.now();
  const row = await ctx.db.oAuthToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: {
      id: true,
      kind: true,
      expiresAt: true,
      revokedAt: true,
      grant: { select: { id: true, storeId: true, mode: true, scopes: true, revokedAt: true, app: { select: { id: true, name: true, status: true } } } },
    },
  });
  if (!row || row.kind !== 'access') throw invalidAccessToken('The OAuth access token is not valid');
  if (row.revokedAt || row.grant.revokedAt) throw invalidAccessToken('The OAuth access token has been revoked');
  if (row.expiresAt <= now) throw invalidAccessToken('The OAuth access token has expired');
  if (row.grant.app.status !== 'active') throw new AppError('app_suspended', 'The OAuth app this token belongs to is suspended');
  const { grant } = row;
  return {
    kind: 'oauth_app',
    id: row.id,
    bucket: `grant:${grant.id}`,
    storeId: grant.storeId,
    mode: grant.mode,
    scopes: grant.scopes,
    appId: grant.app.id,
    appName: grant.app.name,
    grantId: grant.id,
  };
}
