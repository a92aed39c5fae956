/** The OAuth app service: register apps, list them, suspend or activate them, rotate their secrets. */

import { z } from 'zod';
import { newCredential, sha256Hex } from '../auth/secrets';
import type { RequestContext } from '../../platform/context';
import { SCOPES } from '../../kernel/access';
import type { EventType } from '../../kernel/events';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { notFound } from '../../platform/errors';
import { oauthAppView } from './views';
import { parseInput } from '../../platform/validation';

const CLIENT_ID_PREFIX = 'svc_oci_';
const CLIENT_SECRET_PREFIX = 'svc_ocs_';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** https, or http on a loopback host (native apps and local development), no fragment: OAuth 2.0 Security BCP. */
const RedirectUri = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => {
    if (!URL.canParse(v)) return false;
    const u = new URL(v);
    if (u.hash || v.includes('#')) return false;
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname));
  }, 'must be an absolute https URL (http only on 127.0.0.1, [::1] or localhost) without a fragment');

const Scopes = z
  .array(z.enum(SCOPES))
  .min(1, 'at least one scope is required')
  .transform((s) => SCOPES.filter((x) => s.includes(x)));

const CreateApp = z.object({
  ownerId: z.string().uuid(),
  name: z.string().trim().min(1).max(100),
  redirectUris: z.array(RedirectUri).min(1, 'at least one redirect URI is required').max(10).transform((u) => [...new Set(u)]),
  allowedScopes: Scopes,
});

/** What callers may see of an app: never the secret hash. */
const oauthAppSelect = {
  id: true,
  ownerId: true,
  name: true,
  clientId: true,
  redirectUris: true,
  allowedScopes: true,
  status: true,
  createdAt: true,
} as const;

type OAuthAppRow = Parameters<typeof oauthAppView>[0];

/** OAuth apps belong to users, not stores: their events are in no store's history (mode: live). */
function emitAppEvent(t: TransactionContext, type: EventType, app: OAuthAppRow, change: { before: OAuthAppRow } | { secretRotated: true } | null = null) {
  emit(t, {
    type,
    storeId: null,
    mode: 'live',
    resource: { type: 'oauth_app', id: app.id },
    data: oauthAppView(app),
    before: change && 'before' in change ? oauthAppView(change.before) : undefined,
    // A rotated secret is named, never shown.
    changes: change && 'secretRotated' in change ? [{ field: 'client_secret', previous: '[redacted]', next: '[redacted]' }] : undefined,
  });
}

/** Registers an app owned by `ownerId`; the client secret is returned once and only its SHA-256 is kept. */
export async function createOAuthApp(ctx: RequestContext, input: { ownerId: string; name: string; redirectUris: string[]; allowedScopes: string[] }) {
  const data = parseInput(CreateApp, input);
  const clientSecret = newCredential(CLIENT_SECRET_PREFIX, 32);
  return transaction(ctx, async (t) => {
    const app = await t.tx.oAuthApp.create({
      data: { ...data, clientId: newCredential(CLIENT_ID_PREFIX, 16), clientSecretHash: sha256Hex(clientSecret) },
      select: oauthAppSelect,
    });
    emitAppEvent(t, 'oauth_app.created', app);
    return { app, clientSecret };
  });
}

export function listOAuthApps(ctx: RequestContext, ownerId?: string) {
  return ctx.db.oAuthApp.findMany({ where: ownerId ? { ownerId } : {}, orderBy: { createdAt: 'asc' }, select: oauthAppSelect });
}

/**
 * An app by id or client id. With `ownerId`, apps of other users are reported as
 * not found, so ids of other people's apps cannot be probed.
 */
async function findApp(ctx: RequestContext, ref: { id?: string; clientId?: string }, ownerId?: string) {
  if (ref.id && !z.string().uuid().safeParse(ref.id).success) throw notFound('OAuth app');
  const app = await ctx.db.oAuthApp.findFirst({
    where: { ...(ref.id ? { id: ref.id } : { clientId: ref.clientId ?? '' }), ...(ownerId ? { ownerId } : {}) },
    select: oauthAppSelect,
  });
  if (!app) throw notFound('OAuth app');
  return app;
}

/** Suspending keeps grants and tokens but makes every token answer 403 app_suspended until reactivated. Idempotent. */
export async function setOAuthAppStatus(ctx: RequestContext, ref: { id?: string; clientId?: string }, status: 'active' | 'suspended', ownerId?: string) {
  const before = await findApp(ctx, ref, ownerId);
  if (before.status === status) return before;
  return transaction(ctx, async (t) => {
    const app = await t.tx.oAuthApp.update({ where: { id: before.id }, data: { status }, select: oauthAppSelect });
    emitAppEvent(t, status === 'suspended' ? 'oauth_app.suspended' : 'oauth_app.activated', app, { before });
    return app;
  });
}

/** Replaces the client secret at once: the old one stops working for the token and revoke endpoints. */
export async function rotateOAuthAppSecret(ctx: RequestContext, ref: { id?: string; clientId?: string }, ownerId?: string) {
  const { id } = await findApp(ctx, ref, ownerId);
  const clientSecret = newCredential(CLIENT_SECRET_PREFIX, 32);
  return transaction(ctx, async (t) => {
    const app = await t.tx.oAuthApp.update({ where: { id }, data: { clientSecretHash: sha256Hex(clientSecret) }, select: oauthAppSelect });
    emitAppEvent(t, 'oauth_app.updated', app, { secretRotated: true });
    return { app, clientSecret };
  });
}
