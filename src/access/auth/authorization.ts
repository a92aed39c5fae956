/** The authorization rules: each named capability and who has it; every surface asks here. */

import type { RequestContext } from '../../platform/context';
import { type Permission, PERMISSIONS, type Scope, SCOPES } from '../../kernel/access';
import { credentialOf, hasScope, hasStorePermission, type Principal, userOf } from '../../kernel/principal';
import { AppError } from '../../platform/errors';
import { insufficientScope, missingCredential } from './challenges';

/**
 * What a request may do, each capability named and decided once. GraphQL fields declare the capability they
 * need (`authScopes: capability(…)`, see src/api/graphql/builder.ts), and REST, compiled plans and services ask
 * `allows` / `requireCapability` for the same one, so no surface holds a copy of a rule.
 *
 * A dashboard user passes with any of `permissions` in the store (owners hold every permission), or, where
 * `owner` is set, only as the store's owner. A public credential (API key, OAuth token) passes with any of
 * `scopes`, in its own store only. The operator (the CLI) and the service itself are trusted with every store.
 */
interface Capability {
  permissions: readonly Permission[];
  scopes: readonly Scope[];
  owner?: true;
}

export const CAPABILITIES = {
  /** Every product of the catalog, drafts and archived ones too, in the merchant representation. */
  readCatalog: { permissions: ['manage_products'], scopes: ['products:read', 'products:write'] },
  /** Creating, changing and deleting products and their variants, images and SEO records. */
  changeCatalog: { permissions: ['manage_products'], scopes: ['products:write'] },
  /**
   * A variant's cost (what the merchant pays): the store's staff who manage products, never a public credential
   * (API key, OAuth token, publishable key), whatever its scopes.
   */
  readCost: { permissions: ['manage_products'], scopes: [] },
  /** The catalog's settings and tools, for the dashboard only: categories, description generation, the test catalog. */
  manageCatalog: { permissions: ['manage_products'], scopes: [] },
  /** The storefront view: active products without inventory counts. */
  readStorefront: { permissions: [], scopes: ['public:read', 'products:read'] },
  readPayments: { permissions: [], scopes: ['public:read', 'payments:read'] },
  manageApiKeys: { permissions: ['manage_api_keys'], scopes: [] },
  manageOAuthApps: { permissions: ['manage_oauth_apps'], scopes: [] },
  manageWebhooks: { permissions: ['manage_webhooks'], scopes: [] },
  /** The store's change history. */
  viewChanges: { permissions: ['view_changes'], scopes: [] },
  /** One product's history: whoever may manage products may read it too. */
  viewProductChanges: { permissions: ['view_changes', 'manage_products'], scopes: [] },
  /** Adding, changing and removing members: the owner only (Shopify's rule for staff accounts). */
  manageTeam: { permissions: [], scopes: [], owner: true },
  /**
   * Seeing other users' memberships of the store: another user is reached only as the creator of one of
   * its API keys, which takes manage_api_keys there.
   */
  seeTeam: { permissions: ['manage_api_keys'], scopes: [] },
} as const satisfies Record<string, Capability>;

export type CapabilityName = keyof typeof CAPABILITIES;

/**
 * What each store permission lets a dashboard user do, in the words the docs show (the OpenAPI document's
 * dashboard token, the CLI's help). A Record over Permission: a permission added to the vocabulary does not
 * compile until it is described here.
 */
const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  manage_products: "read and change the store's catalog: products, variants, images, SEO, categories, descriptions, imports and exports, the test catalog; one product's history",
  manage_api_keys: "create, roll and revoke the store's public API keys",
  manage_oauth_apps: "see and disconnect the OAuth apps the store is connected to",
  view_changes: "read the store's change history",
  manage_webhooks: "create, change and delete the store's webhook endpoints, and read and resend their deliveries",
};

/** "manage_products: …. manage_api_keys: …" for descriptions that list the permissions; the owner holds every one. */
export const describePermissions = (): string => PERMISSIONS.map((p) => `${p}: ${PERMISSION_DESCRIPTIONS[p]}`).join('. ');

/**
 * Whether the principal may do `name` in the store. `storeId` undefined: a credential's own store (the
 * public API names no store; the credential is confined to its own).
 */
export function allows(principal: Principal, name: CapabilityName, storeId: string | undefined): boolean {
  const capability: Capability = CAPABILITIES[name];
  const user = userOf(principal);
  if (user) {
    if (storeId === undefined) return false;
    if (capability.owner) return user.memberships.some((m) => m.storeId === storeId && m.role === 'owner');
    return capability.permissions.some((p) => hasStorePermission(user, storeId, p));
  }
  const credential = credentialOf(principal);
  if (credential) return (storeId === undefined || credential.storeId === storeId) && capability.scopes.some((s) => hasScope(credential, s));
  return principal.kind === 'operator' || principal.kind === 'system';
}

/** Throws accessDenied unless the request may do `name` in the store (see allows). */
export function requireCapability(ctx: RequestContext, name: CapabilityName, storeId: string | undefined): void {
  if (!allows(ctx.principal, name, storeId)) throw accessDenied(ctx.principal, [name]);
}

/**
 * The answer to an operation the principal may not perform, for the capabilities it lacks (any of them would
 * pass): 401 without a principal; 403 forbidden for a dashboard user, naming the permissions (or the
 * ownership) that would pass, in the message and as `required_permission` / `required_permissions`; 403
 * insufficient_scope for a public credential, naming the scopes that would pass (`required_scope`).
 */
export function accessDenied(principal: Principal, lacking: readonly CapabilityName[]): AppError {
  const wanted = lacking.map((name): Capability => CAPABILITIES[name]);
  if (principal.kind === 'user') {
    const permissions = PERMISSIONS.filter((p) => wanted.some((c) => c.permissions.includes(p)));
    if (permissions.length) {
      const named = permissions.length === 1 ? `the ${permissions[0]} permission` : `one of the permissions ${permissions.join(', ')}`;
      return new AppError('forbidden', `This action requires ${named} on this store`, { details: { required_permission: permissions[0], required_permissions: permissions } });
    }
    if (wanted.some((c) => c.owner)) return new AppError('forbidden', "This action requires being the store's owner", { details: { required_role: 'owner' } });
  }
  if (principal.kind === 'user' || principal.kind === 'operator' || principal.kind === 'system') {
    return new AppError('forbidden', 'You do not have permission to perform this action');
  }
  if (principal.kind === 'api_key' || principal.kind === 'oauth_app') {
    const scopes = SCOPES.filter((s) => wanted.some((c) => c.scopes.includes(s)));
    return insufficientScope(scopes, `This credential lacks the required scope: ${scopes.join(' or ') || 'none matches'}`);
  }
  return missingCredential('dashboard', 'Authentication required: send Authorization: Bearer <token>');
}
