/** Principals: who acts in a request (a user, an API credential, the operator, the system, nobody), and their checks. */

import type { Mode, Permission, Scope } from './access';

/**
 * Who is acting in a request: a dashboard user, a public API credential (an API
 * key, or an OAuth app acting through its grant), the operator at the CLI, the
 * service itself (scheduled jobs), or nobody. A leaf module.
 */
export type Principal = UserPrincipal | ApiKeyPrincipal | OAuthPrincipal | OperatorPrincipal | SystemPrincipal | AnonymousPrincipal;

interface ViewerMembership {
  storeId: string;
  role: 'owner' | 'staff';
  permissions: string[];
}

/** A dashboard user, signed in with a dashboard token. */
export interface UserPrincipal {
  kind: 'user';
  userId: string;
  email: string;
  name: string;
  tokenId: string;
  memberships: ViewerMembership[];
}

/** What public API credentials (API keys and OAuth access tokens) have in common. */
interface CredentialPrincipal {
  /** ApiKey id or OAuthToken id: the audit identity of the credential itself. */
  id: string;
  /** What the rate limit counts against: the key, or the OAuth grant (so a refreshed token does not get a fresh bucket). */
  bucket: string;
  storeId: string;
  mode: Mode;
  scopes: string[];
}

export interface ApiKeyPrincipal extends CredentialPrincipal {
  kind: 'api_key';
  keyType: 'system' | 'secret' | 'publishable';
  /** The key as lists show it: `svc_live_sk_…abcd`. */
  redactedKey: string;
}

export interface OAuthPrincipal extends CredentialPrincipal {
  kind: 'oauth_app';
  appId: string;
  appName: string;
  grantId: string;
}

/** Whoever runs the CLI on the service's machine: trusted with every store. */
interface OperatorPrincipal {
  kind: 'operator';
  /** The operating-system user running the command. */
  username: string;
}

/** The service itself: scheduled jobs and work no request started. */
interface SystemPrincipal {
  kind: 'system';
}

export interface AnonymousPrincipal {
  kind: 'anonymous';
}

/** A public API credential: an API key or an OAuth app's access token. */
export type PublicCredential = ApiKeyPrincipal | OAuthPrincipal;

export const ANONYMOUS: AnonymousPrincipal = { kind: 'anonymous' };
export const SYSTEM: SystemPrincipal = { kind: 'system' };

export const userOf = (p: Principal): UserPrincipal | null => (p.kind === 'user' ? p : null);
export const credentialOf = (p: Principal): PublicCredential | null => (p.kind === 'api_key' || p.kind === 'oauth_app' ? p : null);

/** Whether a dashboard user may do `permission` in the store: owners may do everything. */
export function hasStorePermission(viewer: UserPrincipal | null | undefined, storeId: string, permission: Permission): boolean {
  const m = viewer?.memberships.find((x) => x.storeId === storeId);
  return !!m && (m.role === 'owner' || m.permissions.includes(permission));
}

export function hasScope(credential: PublicCredential | null | undefined, scope: Scope): boolean {
  return !!credential && credential.scopes.includes(scope);
}
