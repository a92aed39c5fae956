/**
 * GraphQL types User, Membership, Store and Category, and the operations on users and members: viewer,
 * the member list and its changes, login.
 */

import { allows, requireCapability } from '../auth/authorization';
import { type Permission, PERMISSIONS } from '../../kernel/access';
import { isUuid } from '../../kernel/ids';
import { userOf } from '../../kernel/principal';
import { AppError, notFound } from '../../platform/errors';
import { addMember, login, removeMember } from '../services/stores';
import { acceptInvitation, INVITATION_DAYS, invitationStatus, inviteMember, previewInvitation, revokeInvitation } from '../services/invitations';
import { sha256Hex } from '../auth/secrets';
import { builder, type GraphQLContext, nothingToLoad } from '../../api/graphql/builder';

function visibleMemberships(ctx: GraphQLContext) {
  const viewer = userOf(ctx.principal);
  if (viewer) {
    const stores = viewer.memberships.filter((m) => allows(viewer, 'seeTeam', m.storeId)).map((m) => m.storeId);
    return { OR: [{ userId: viewer.userId }, { storeId: { in: stores } }] };
  }
  // A public credential sees its own store only; the operator and the system see everything; nobody else sees anything.
  if (ctx.storeId) return { storeId: ctx.storeId };
  return ctx.principal.kind === 'operator' || ctx.principal.kind === 'system' ? {} : { storeId: { in: [] } };
}

builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    memberships: t.relation('memberships', {
      description:
        "The viewer's own memberships: all of them. Another user's (an API key's creator): only those in stores where the viewer holds manage_api_keys.",
      query: (_args, ctx) => ({ where: visibleMemberships(ctx) }),
    }),
  }),
});

builder.prismaObject('Membership', {
  fields: (t) => ({
    role: t.exposeString('role', { description: 'owner or staff' }),
    permissions: t.exposeStringList('permissions'),
    store: t.relation('store'),
    user: t.relation('user', { description: 'The member (reached through the member list, which only the store\'s owner reads, or through the user itself).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the user joined the store.' }),
  }),
});

const PERMISSION_LIST = PERMISSIONS.join(', ');
const memberWhere = (storeId: string, userId: string) => ({ storeId_userId: { storeId, userId } });

builder.queryField('storeMembers', (t) =>
  t.prismaField({
    type: ['Membership'],
    description: "The store's team: the owner first, then staff by when they joined. Only the store's owner may read it.",
    args: { storeId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      requireCapability(ctx, 'manageTeam', args.storeId);
      return ctx.db.membership.findMany({ ...query, where: { storeId: args.storeId }, orderBy: [{ role: 'asc' }, { createdAt: 'asc' }] });
    },
  }),
);

builder.mutationField('addStoreMember', (t) =>
  t.prismaField({
    type: 'Membership',
    description:
      `Adds an existing user (accounts are made with the CLI: \`user create\`) to the store as staff with these permissions (${PERMISSION_LIST}). ` +
      'Unknown email: not_found; already a member: conflict. Only the store\'s owner may.',
    args: { storeId: t.arg.id({ required: true }), email: t.arg.string({ required: true }), permissions: t.arg.stringList({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      requireCapability(ctx, 'manageTeam', args.storeId);
      const user = await ctx.db.user.findUnique({ where: { email: args.email.trim().toLowerCase() }, select: { id: true } });
      if (!user) throw new AppError('not_found', 'No account with this email', { errors: [{ field: 'email', code: 'not_found', message: 'no account with this email' }] });
      const added = await addMember(ctx, { storeId: args.storeId, userId: user.id, permissions: args.permissions as Permission[] }, { existing: 'refuse' });
      return ctx.db.membership.findUniqueOrThrow({ ...query, where: memberWhere(added.storeId, added.userId) });
    },
  }),
);

builder.mutationField('updateStoreMember', (t) =>
  t.prismaField({
    type: 'Membership',
    description: `Replaces a staff member's permissions (${PERMISSION_LIST}); the owner's cannot change (conflict). Only the store's owner may.`,
    args: { storeId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }), permissions: t.arg.stringList({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      requireCapability(ctx, 'manageTeam', args.storeId);
      if (!isUuid(args.userId)) throw notFound('Member');
      const updated = await addMember(ctx, { storeId: args.storeId, userId: args.userId, permissions: args.permissions as Permission[] }, { existing: 'required' });
      return ctx.db.membership.findUniqueOrThrow({ ...query, where: memberWhere(updated.storeId, updated.userId) });
    },
  }),
);

builder.mutationField('removeStoreMember', (t) =>
  t.field({
    type: 'Boolean',
    description: "Removes a staff member from the store (their access ends at once); the owner cannot be removed (conflict). Only the store's owner may.",
    args: { storeId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      requireCapability(ctx, 'manageTeam', args.storeId);
      await removeMember(ctx, args.storeId, args.userId);
      return true;
    },
  }),
);

builder.prismaObject('Store', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    currency: t.exposeString('currency'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    categories: t.relation('categories', { query: { orderBy: { slug: 'asc' } } }),
  }),
});

builder.prismaObject('Category', {
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
  }),
});

builder.queryField('viewer', (t) =>
  t.prismaField({
    type: 'User',
    nullable: true,
    description: 'The dashboard user the bearer token belongs to; null without a token.',
    resolve: (query, _root, _args, ctx) => {
      const viewer = userOf(ctx.principal);
      return viewer ? ctx.db.user.findUnique({ ...query, where: { id: viewer.userId } }) : nothingToLoad(query, null);
    },
  }),
);

const LoginPayload = builder.simpleObject('LoginPayload', {
  fields: (t) => ({ token: t.string({ description: 'Dashboard bearer token; shown once.' }), userId: t.id() }),
});

/**
 * Checks email and password under the login throttle (per account and per address) and issues a dashboard token.
 * A wrong email or password keeps its place in the counts; any other failure was not the client's guess.
 */
export async function throttledLogin(ctx: GraphQLContext, email: string, password: string, opts: { name?: string; expiresAt?: Date } = {}) {
  if (!ctx.loginThrottle) throw new Error('logins run only where failed logins are throttled (the /graphql endpoint)');
  const attempt = await ctx.loginThrottle.begin(email, ctx.clientAddress ?? 'unknown');
  try {
    const issued = await login(ctx, email, password, opts);
    await attempt.succeeded();
    return issued;
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'invalid_credentials')) await attempt.abandoned();
    throw err;
  }
}

builder.mutationField('login', (t) =>
  t.field({
    type: LoginPayload,
    description:
      'Exchanges email and password for a dashboard bearer token. One login per request; after repeated failures for an account or from an address: too_many_login_attempts (HTTP 429, Retry-After).',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { token, user } = await throttledLogin(ctx, args.email, args.password);
      return { token, userId: user.id };
    },
  }),
);

// --- Invitations by a one-time link ----------------------------------------------------------------------

const InvitationStatusEnum = builder.enumType('StoreInvitationStatus', {
  description: 'pending: the link works; accepted: used; revoked: withdrawn by the owner (or replaced by a newer invitation); expired',
  values: ['pending', 'accepted', 'revoked', 'expired'] as const,
});

builder.prismaObject('StoreInvitation', {
  description: 'An invitation to join a store as staff by a one-time link (only its digest is kept).',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    permissions: t.exposeStringList('permissions', { description: 'What the member will hold once they accept' }),
    status: t.field({ type: InvitationStatusEnum, resolve: (i, _args, ctx) => invitationStatus(i, ctx.now()) }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: `${INVITATION_DAYS} days after it was made` }),
    acceptedAt: t.expose('acceptedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

const InvitationLink = builder.simpleObject('StoreInvitationLink', {
  fields: (t) => ({
    token: t.string({ description: 'Shown once: only its SHA-256 digest is kept.' }),
    url: t.string({ description: 'The dashboard page that accepts it: /dashboard/invite/<token>' }),
  }),
});

const InvitationCreated = builder.objectRef<{ invitation: { id: string }; token: string; url: string }>('StoreInvitationCreated').implement({
  fields: (t) => ({
    invitation: t.prismaField({ type: 'StoreInvitation', resolve: (query, p, _args, ctx) => ctx.db.storeInvitation.findUniqueOrThrow({ ...query, where: { id: p.invitation.id } }) }),
    link: t.field({ type: InvitationLink, description: 'The one-time link, shown once', resolve: (p) => ({ token: p.token, url: p.url }) }),
  }),
});

const InvitationPreview = builder.simpleObject('StoreInvitationPreview', {
  description: 'What the invitation page shows before it is accepted.',
  fields: (t) => ({
    storeName: t.string(),
    email: t.string(),
    permissions: t.stringList(),
    expiresAt: t.field({ type: 'DateTime' }),
    accountExists: t.boolean({ description: 'Whether the email has an account (then its owner signs in to accept); else accepting creates it' }),
  }),
});

const InvitationAccepted = builder.simpleObject('StoreInvitationAccepted', {
  fields: (t) => ({
    storeId: t.id(),
    storeName: t.string(),
    email: t.string(),
    accountCreated: t.boolean({ description: 'Whether accepting created the account (sign in with its email and the password chosen)' }),
  }),
});

/**
 * Invitation tokens are 190 random bits, so guessing one is hopeless; still, each lookup takes a slot of the login
 * throttle (per token and per address), so a client that keeps sending wrong tokens, or passwords to hash, is
 * refused with too_many_login_attempts as a client that keeps guessing passwords is.
 */
async function throttledByToken<T>(ctx: GraphQLContext, token: string, work: () => Promise<T>): Promise<T> {
  if (!ctx.loginThrottle) throw new Error('invitation links are accepted only where failed logins are throttled (the /graphql endpoint)');
  const attempt = await ctx.loginThrottle.begin(`invitation:${sha256Hex(token.trim())}`, ctx.clientAddress ?? 'unknown');
  try {
    const result = await work();
    await attempt.succeeded();
    return result;
  } catch (err) {
    if (!(err instanceof AppError && (err.code === 'not_found' || err.code === 'invitation_unusable'))) await attempt.abandoned();
    throw err;
  }
}

builder.queryField('storeInvitations', (t) =>
  t.prismaField({
    type: ['StoreInvitation'],
    description: "The store's invitations, newest first (the latest 100), whatever their status. Only the store's owner may read them.",
    args: { storeId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      requireCapability(ctx, 'manageTeam', args.storeId);
      return ctx.db.storeInvitation.findMany({ ...query, where: { storeId: args.storeId }, orderBy: { createdAt: 'desc' }, take: 100 });
    },
  }),
);

builder.queryField('storeInvitation', (t) =>
  t.field({
    type: InvitationPreview,
    description:
      'The invitation an invitation link names, for its page: needs no credential (the token is the proof). Unknown token: not_found; expired, used or revoked: invitation_unusable (invitation_state).',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      throttledByToken(ctx, args.token, async () => {
        const { invitation, storeName, accountExists } = await previewInvitation(ctx, args.token);
        return { storeName, email: invitation.email, permissions: invitation.permissions, expiresAt: invitation.expiresAt, accountExists };
      }),
  }),
);

builder.mutationField('inviteStoreMember', (t) =>
  t.field({
    type: InvitationCreated,
    description:
      `Invites an email to the store as staff with these permissions (${PERMISSION_LIST}) and returns a one-time link, shown once, that works for ${INVITATION_DAYS} days. ` +
      "A pending invitation of the same email stops working. Already a member: conflict on email. Only the store's owner may.",
    args: { storeId: t.arg.id({ required: true }), email: t.arg.string({ required: true }), permissions: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, ctx) => {
      requireCapability(ctx, 'manageTeam', args.storeId);
      const { invitation, token } = await inviteMember(ctx, { storeId: args.storeId, email: args.email, permissions: args.permissions as Permission[] });
      return { invitation, token, url: `${ctx.baseUrl}/dashboard/invite/${token}` };
    },
  }),
);

builder.mutationField('revokeStoreInvitation', (t) =>
  t.prismaField({
    type: 'StoreInvitation',
    description: "Withdraws a pending invitation: its link stops working at once. An accepted one: conflict. Only the store's owner may.",
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      requireCapability(ctx, 'manageTeam', args.storeId);
      const revoked = await revokeInvitation(ctx, args.storeId, args.id);
      return ctx.db.storeInvitation.findUniqueOrThrow({ ...query, where: { id: revoked.id } });
    },
  }),
);

builder.mutationField('acceptStoreInvitation', (t) =>
  t.field({
    type: InvitationAccepted,
    description:
      'Accepts an invitation link. The email has an account: sign in as it first (unauthenticated without a session, forbidden as another account). ' +
      'It has none: name and password (at least 8 characters) create it. The account joins the store with the invited permissions; the link is used up. ' +
      'Unknown token: not_found; expired, used or revoked: invitation_unusable. Wrong tokens count toward the login throttle (too_many_login_attempts).',
    args: { token: t.arg.string({ required: true }), name: t.arg.string(), password: t.arg.string() },
    resolve: (_root, args, ctx) =>
      throttledByToken(ctx, args.token, async () => {
        const accepted = await acceptInvitation(ctx, { token: args.token, name: args.name, password: args.password });
        return { storeId: accepted.member.storeId, storeName: accepted.storeName, email: accepted.user.email, accountCreated: accepted.created };
      }),
  }),
);
