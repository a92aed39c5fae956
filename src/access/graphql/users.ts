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
