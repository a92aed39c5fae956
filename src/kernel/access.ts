/**
 * The vocabulary of access shared by every layer: modes, API scopes and store
 * permissions. A leaf module: it imports nothing from the project, so anything
 * (services, auth, surfaces, the CLI) may import it.
 */

export const MODES = ['test', 'live'] as const;
/** Test or live: the public API serves and records each mode apart. */
export type Mode = (typeof MODES)[number];

export const SCOPES = ['public:read', 'products:read', 'products:write', 'payments:read'] as const;
/** What a public API credential (API key, OAuth token) may do. */
export type Scope = (typeof SCOPES)[number];

/** Permissions a store membership can hold. Owners hold all of them implicitly. */
export const PERMISSIONS = ['manage_products', 'manage_api_keys', 'manage_oauth_apps', 'view_changes', 'manage_webhooks'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const isMode = (m: string): m is Mode => (MODES as readonly string[]).includes(m);
