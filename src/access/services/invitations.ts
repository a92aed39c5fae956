/**
 * Invitations to join a store as staff, by a one-time link: the owner invites an email with permissions; the link's
 * token is shown once (only its SHA-256 digest is kept), works for INVITATION_DAYS and once. Accepting it adds the
 * account with that email as a member, creating the account first when the email has none.
 */

import { z } from 'zod';
import type { RequestContext } from '../../platform/context';
import { PERMISSIONS } from '../../kernel/access';
import { userOf } from '../../kernel/principal';
import { emit, transaction, type TransactionContext } from '../../platform/outbox/outbox';
import { AppError, notFound } from '../../platform/errors';
import { parseInput } from '../../platform/validation';
import { hasValidChecksum, newCredential, sha256Hex } from '../auth/secrets';
import { forgetVerifiedUser } from '../auth/dashboardTokens';
import { hashPassword } from '../auth/passwords';
import { memberView } from './views';

export const INVITATION_TOKEN_PREFIX = 'svc_inv_';
export const INVITATION_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

type InvitationRow = {
  id: string;
  storeId: string;
  email: string;
  permissions: string[];
  createdAt: Date;
  expiresAt: Date;
  acceptedAt: Date | null;
  acceptedById: string | null;
  revokedAt: Date | null;
  invitedById: string | null;
};

export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

export function invitationStatus(i: Pick<InvitationRow, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now: Date): InvitationStatus {
  if (i.acceptedAt) return 'accepted';
  if (i.revokedAt) return 'revoked';
  return i.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

/** An invitation as events carry it: never the token or its digest. */
export const invitationView = (i: InvitationRow, now: Date) => ({
  id: i.id,
  store_id: i.storeId,
  email: i.email,
  permissions: i.permissions,
  status: invitationStatus(i, now),
  created_at: i.createdAt,
  expires_at: i.expiresAt,
  accepted_at: i.acceptedAt,
  revoked_at: i.revokedAt,
});

const emitInvitationEvent = (t: TransactionContext, type: 'member.invited' | 'member.invitation_revoked' | 'member.invitation_accepted', i: InvitationRow, before?: InvitationRow) =>
  emit(t, {
    type,
    storeId: i.storeId,
    mode: 'live',
    resource: { type: 'invitation', id: i.id },
    data: invitationView(i, t.now()),
    before: before && invitationView(before, t.now()),
  });

const Invite = z.object({
  storeId: z.string().uuid(),
  email: z.string().trim().toLowerCase().email(),
  // Canonical order, no duplicates, as a member's permissions are kept.
  permissions: z
    .array(z.enum(PERMISSIONS))
    .default([])
    .transform((ps) => PERMISSIONS.filter((p) => ps.includes(p))),
});

/**
 * Invites an email to the store as staff. Refused (conflict on `email`) when that account is already a member;
 * a pending invitation of the same email is replaced (revoked), so only the newest link works.
 */
export async function inviteMember(ctx: RequestContext, input: z.input<typeof Invite>) {
  const data = parseInput(Invite, input);
  const store = await ctx.db.store.findUnique({ where: { id: data.storeId }, select: { id: true } });
  if (!store) throw notFound('Store');
  const member = await ctx.db.membership.findFirst({ where: { storeId: data.storeId, user: { email: data.email } }, select: { id: true } });
  if (member) {
    throw new AppError('conflict', `${data.email} is already a member of this store`, {
      errors: [{ field: 'email', code: 'conflict', message: 'is already a member of this store' }],
    });
  }
  const token = newCredential(INVITATION_TOKEN_PREFIX, 32);
  const invitation = await transaction(ctx, async (t) => {
    const now = t.now();
    const pending = await t.tx.storeInvitation.findMany({
      where: { storeId: data.storeId, email: data.email, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
    });
    for (const old of pending) {
      const revoked = await t.tx.storeInvitation.update({ where: { id: old.id }, data: { revokedAt: now } });
      emitInvitationEvent(t, 'member.invitation_revoked', revoked, old);
    }
    const created = await t.tx.storeInvitation.create({
      data: {
        storeId: data.storeId,
        email: data.email,
        permissions: data.permissions,
        tokenHash: sha256Hex(token),
        invitedById: userOf(t.principal)?.userId ?? null,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
      },
    });
    emitInvitationEvent(t, 'member.invited', created);
    return created;
  });
  return { invitation, token };
}

/** Revokes a pending invitation: its link stops working at once. One already accepted or revoked: conflict. */
export async function revokeInvitation(ctx: RequestContext, storeId: string, id: string) {
  return transaction(ctx, async (t) => {
    const before = z.string().uuid().safeParse(id).success ? await t.tx.storeInvitation.findFirst({ where: { id, storeId } }) : null;
    if (!before) throw notFound('Invitation');
    const status = invitationStatus(before, t.now());
    if (status === 'accepted') throw new AppError('conflict', 'This invitation has already been accepted; remove the member instead');
    if (status === 'revoked') return before;
    const revoked = await t.tx.storeInvitation.update({ where: { id }, data: { revokedAt: t.now() } });
    emitInvitationEvent(t, 'member.invitation_revoked', revoked, before);
    return revoked;
  });
}

const unusable = (reason: 'expired' | 'used' | 'revoked') =>
  new AppError(
    'invitation_unusable',
    {
      expired: 'This invitation has expired; ask the store owner for a new one',
      used: 'This invitation has already been used',
      revoked: 'This invitation was withdrawn by the store owner',
    }[reason],
    { details: { invitation_state: reason } },
  );

/** The pending invitation a token names, or 404 (unknown, mistyped) / 410 (expired, used, revoked). */
async function pendingInvitation(ctx: RequestContext, token: string) {
  const trimmed = token.trim();
  const invitation = hasValidChecksum(trimmed, INVITATION_TOKEN_PREFIX)
    ? await ctx.db.storeInvitation.findUnique({ where: { tokenHash: sha256Hex(trimmed) }, include: { store: { select: { name: true } } } })
    : null;
  if (!invitation) throw new AppError('not_found', 'This invitation link is not valid: check that it was copied whole');
  const status = invitationStatus(invitation, ctx.now());
  if (status === 'accepted') throw unusable('used');
  if (status === 'revoked') throw unusable('revoked');
  if (status === 'expired') throw unusable('expired');
  return invitation;
}

/** What an invitation's page shows before it is accepted: the store, the email, the permissions, whether the email has an account. */
export async function previewInvitation(ctx: RequestContext, token: string) {
  const invitation = await pendingInvitation(ctx, token);
  const account = await ctx.db.user.findUnique({ where: { email: invitation.email }, select: { id: true } });
  return { invitation, storeName: invitation.store.name, accountExists: account !== null };
}

const NewAccount = z.object({
  name: z.string().trim().min(1).max(255),
  // As `createUser` takes them (src/access/services/stores.ts).
  password: z.string().min(8).max(1024),
});

/**
 * Accepts an invitation. The email has an account: the request must be signed in as it (unauthenticated without a
 * session, forbidden as another account), and it joins. The email has none: `name` and `password` create it (every
 * field error at once), and it joins. Either way the invitation is used up, in the same transaction.
 */
export async function acceptInvitation(ctx: RequestContext, input: { token: string; name?: string | null; password?: string | null }) {
  const invitation = await pendingInvitation(ctx, input.token);
  const account = await ctx.db.user.findUnique({ where: { email: invitation.email } });
  const viewer = userOf(ctx.principal);
  if (account) {
    if (!viewer) throw new AppError('unauthenticated', `Sign in as ${invitation.email} to accept this invitation`);
    if (viewer.userId !== account.id) throw new AppError('forbidden', `This invitation is for ${invitation.email}; sign in with that account to accept it`);
  }
  const fresh = account ? null : parseInput(NewAccount, { name: input.name ?? '', password: input.password ?? '' });
  const passwordHash = fresh ? await hashPassword(fresh.password) : null;
  const result = await transaction(ctx, async (t) => {
    const now = t.now();
    // The token is used once: of two concurrent acceptances only one updates the row.
    const used = await t.tx.storeInvitation.updateMany({ where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } }, data: { acceptedAt: now } });
    if (used.count !== 1) throw unusable('used');
    let user = account;
    if (!user) {
      const taken = await t.tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } });
      if (taken) throw new AppError('conflict', `An account with ${invitation.email} was just created; sign in to accept the invitation`);
      user = await t.tx.user.create({ data: { email: invitation.email, name: fresh!.name, passwordHash } });
    }
    const actor = { kind: 'user' as const, id: user.id, name: user.name || user.email };
    const accepted = await t.tx.storeInvitation.update({ where: { id: invitation.id }, data: { acceptedById: user.id } });
    emit(t, {
      type: 'member.invitation_accepted',
      storeId: accepted.storeId,
      mode: 'live',
      resource: { type: 'invitation', id: accepted.id },
      data: invitationView(accepted, now),
      before: invitationView(invitation, now),
      actor,
    });
    const existing = await t.tx.membership.findUnique({ where: { storeId_userId: { storeId: invitation.storeId, userId: user.id } }, include: { user: { select: { email: true, name: true } } } });
    if (existing) throw new AppError('conflict', `${invitation.email} is already a member of this store`);
    const member = await t.tx.membership.create({
      data: { storeId: invitation.storeId, userId: user.id, role: 'staff', permissions: invitation.permissions },
      include: { user: { select: { email: true, name: true } } },
    });
    emit(t, { type: 'member.added', storeId: member.storeId, mode: 'live', resource: { type: 'member', id: member.userId }, data: memberView(member), actor });
    return { member, user, created: !account };
  });
  forgetVerifiedUser(result.user.id);
  return { ...result, storeName: invitation.store.name };
}
