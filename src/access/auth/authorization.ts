import type { RequestContext } from '../../platform/context';
import { SCOPES } from '../../kernel/access';
import { credentialOf, hasScope, hasStorePermission, type Principal, userOf } from '../../kernel/principal';
import { AppError } from '../../platform/errors';
import { insufficientScope, missingCredential } from './challenges';

/**
 * The answer to an operation the principal may not perform: 401 without a
 * principal, 403 forbidden for a dashboard user, 403 insufficient_scope (naming
 * the scopes that would pass) for a public credential. GraphQL's scope checks
 * and the REST routes that check before reading a body answer alike.
 */
export function accessDenied(principal: Principal, wantedScopes: readonly string[] = []): AppError {
  if (principal.kind === 'user' || principal.kind === 'operator' || principal.kind === 'system') {
    return new AppError('forbidden', 'You do not have permission to perform this action');
  }
  if (principal.kind === 'api_key' || principal.kind === 'oauth_app') {
    const scopes = SCOPES.filter((s) => wantedScopes.includes(s));
    return insufficientScope(scopes, `This credential lacks the required scope: ${scopes.join(' or ') || 'none matches'}`);
  }
  return missingCredential('dashboard', 'Authentication required: send Authorization: Bearer <token>');
}

/**
 * Throws accessDenied unless the request may read the store's catalog: a
 * dashboard user with manage_products, or the store's own API credential with
 * products:read or products:write (the rule of the GraphQL product queries,
 * for the REST reads that run without GraphQL execution).
 */
export function requireCatalogRead(ctx: RequestContext, storeId: string): void {
  const credential = credentialOf(ctx.principal);
  if (hasStorePermission(userOf(ctx.principal), storeId, 'manage_products')) return;
  if (credential && credential.storeId === storeId && (hasScope(credential, 'products:read') || hasScope(credential, 'products:write'))) return;
  throw accessDenied(ctx.principal, ['products:read', 'products:write']);
}

/**
 * Throws accessDenied unless the request may change the store's catalog: a
 * dashboard user with manage_products, or the store's own API credential with
 * products:write (the rule the GraphQL product mutations apply).
 */
export function requireCatalogWrite(ctx: RequestContext, storeId: string): void {
  const credential = credentialOf(ctx.principal);
  if (credential ? credential.storeId === storeId && hasScope(credential, 'products:write') : hasStorePermission(userOf(ctx.principal), storeId, 'manage_products')) return;
  throw accessDenied(ctx.principal, ['products:write']);
}

/**
 * Throws accessDenied unless the request may manage the store's team: its owner (Shopify's rule for staff
 * accounts: no permission a member holds lets them change members), or the operator.
 */
export function requireStoreOwner(ctx: RequestContext, storeId: string): void {
  if (ctx.principal.kind === 'operator' || ctx.principal.kind === 'system') return;
  if (userOf(ctx.principal)?.memberships.some((m) => m.storeId === storeId && m.role === 'owner')) return;
  throw accessDenied(ctx.principal);
}
