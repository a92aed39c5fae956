/**
 * Stores, users, members, tokens, API keys and OAuth apps as clients see them: snake_case fields named as the
 * REST API names them, never a secret or a secret's digest. The CLI prints these, and events carry them as their `data`.
 */
import { redactApiKey } from '../auth/apiKeys';
import { redactDashboardToken } from './dashboardTokens';

export const userView = (u: { id: string; email: string; name: string; createdAt: Date; hasPassword?: boolean; passwordHash?: string | null }) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  has_password: u.hasPassword ?? (u.passwordHash !== null && u.passwordHash !== undefined),
  created_at: u.createdAt,
});

export const storeView = (s: { id: string; name: string; currency: string; currencies: string[]; defaultLocale: string; locales: string[]; ownerId: string; createdAt: Date }) => ({
  id: s.id,
  name: s.name,
  currency: s.currency,
  currencies: s.currencies,
  default_locale: s.defaultLocale,
  locales: s.locales,
  owner_id: s.ownerId,
  created_at: s.createdAt,
});

export const memberView = (m: {
  storeId: string;
  userId: string;
  role: string;
  permissions: string[];
  createdAt: Date;
  user: { email: string; name: string };
}) => ({
  store_id: m.storeId,
  user_id: m.userId,
  email: m.user.email,
  name: m.user.name,
  role: m.role,
  permissions: m.permissions,
  created_at: m.createdAt,
});

export const dashboardTokenView = (t: {
  id: string;
  userId: string;
  name: string;
  last4: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}) => ({
  id: t.id,
  user_id: t.userId,
  name: t.name,
  redacted_token: redactDashboardToken(t),
  created_at: t.createdAt,
  expires_at: t.expiresAt,
  revoked_at: t.revokedAt,
});

export const apiKeyView = (k: {
  id: string;
  storeId: string;
  name: string;
  type: string;
  mode: string;
  scopes: string[];
  prefix: string;
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rolledFromId: string | null;
}) => ({
  id: k.id,
  store_id: k.storeId,
  name: k.name,
  type: k.type,
  mode: k.mode,
  scopes: k.scopes,
  redacted_key: redactApiKey(k),
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
  expires_at: k.expiresAt,
  revoked_at: k.revokedAt,
  rolled_from_id: k.rolledFromId,
});

export const oauthAppView = (a: {
  id: string;
  ownerId: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  allowedScopes: string[];
  status: string;
  createdAt: Date;
}) => ({
  id: a.id,
  owner_id: a.ownerId,
  name: a.name,
  client_id: a.clientId,
  redirect_uris: a.redirectUris,
  allowed_scopes: a.allowedScopes,
  status: a.status,
  created_at: a.createdAt,
});

export const oauthGrantView = (g: {
  id: string;
  appId: string;
  storeId: string;
  userId: string;
  mode: string;
  scopes: string[];
  createdAt: Date;
  revokedAt: Date | null;
}) => ({
  id: g.id,
  app_id: g.appId,
  store_id: g.storeId,
  granted_by: g.userId,
  mode: g.mode,
  scopes: g.scopes,
  created_at: g.createdAt,
  revoked_at: g.revokedAt,
});

