import type { Mode } from '../context';

export const SCOPES = ['public:read', 'products:read', 'products:write', 'payments:read'] as const;
export type Scope = (typeof SCOPES)[number];

/** A public API credential resolved from an API key or an OAuth access token. */
export interface PublicCredential {
  kind: 'system' | 'secret' | 'publishable' | 'oauth';
  /** ApiKey id or OAuthToken id: the audit identity. */
  id: string;
  /** What the rate limit counts against: the key, or the OAuth grant (so a refreshed token does not get a fresh bucket). */
  bucket: string;
  storeId: string;
  mode: Mode;
  scopes: string[];
}

export function hasScope(credential: PublicCredential | null | undefined, scope: Scope): boolean {
  return !!credential && credential.scopes.includes(scope);
}
