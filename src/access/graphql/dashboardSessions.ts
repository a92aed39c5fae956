/** GraphQL operations of the dashboard's cookie sign-in: signIn, dashboardSession, signOut. */

import { csrfTokenFor } from '../auth/sessionCookie';
import { authenticateDashboardToken, revokeDashboardToken } from '../auth/dashboardTokens';
import { builder, type GraphQLContext } from '../../api/graphql/builder';
import { throttledLogin } from './users';

/**
 * The dashboard's sign-in (docs/dashboard.md): `signIn` checks email and
 * password and sets the session cookie (HttpOnly: the page never sees the
 * token); `dashboardSession` tells a page that loads whether it is signed in
 * and gives it the CSRF token its mutations send in X-CSRF-Token; `signOut`
 * ends the session. Clients other than a browser use `login` and a bearer
 * token instead.
 */

interface DashboardSessionShape {
  csrfToken: string;
  expiresAt: Date | null;
  userId: string;
}

const DashboardSession = builder.objectRef<DashboardSessionShape>('DashboardSession').implement({
  description: 'A signed-in dashboard session (its token travels in an HttpOnly cookie).',
  fields: (t) => ({
    csrfToken: t.exposeString('csrfToken', {
      description: 'Send it as the X-CSRF-Token header with every mutation made with the session cookie; it stays the same for the whole session.',
    }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, description: 'When the session ends (DASHBOARD_SESSION_HOURS after sign-in).', resolve: (s) => s.expiresAt }),
    user: t.prismaField({ type: 'User', description: 'The signed-in user.', resolve: (query, s, _args, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: s.userId } }) }),
  }),
});

function sessionCookieOf(ctx: GraphQLContext) {
  if (!ctx.sessionCookie) throw new Error('dashboard sessions exist only on the /graphql endpoint');
  return ctx.sessionCookie;
}

builder.mutationField('signIn', (t) =>
  t.field({
    type: DashboardSession,
    description:
      'Signs in to the dashboard: checks email and password (throttled as `login` is) and sets the HttpOnly session cookie. A session this browser already had ends. ' +
      'Mutations made with the cookie then need the X-CSRF-Token header with the returned csrfToken.',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const cookie = sessionCookieOf(ctx);
      const expiresAt = new Date(ctx.now().getTime() + ctx.config.dashboardSessionMs);
      const { token, user } = await throttledLogin(ctx, args.email, args.password, { name: 'dashboard session', expiresAt });
      if (ctx.session) await revokeDashboardToken(ctx, ctx.session.tokenId);
      cookie.set(token, expiresAt);
      // The rest of this request acts as the user who signed in: the selection under signIn (the user's
      // memberships, say) is resolved as their next request would be.
      ctx.principal = await authenticateDashboardToken(ctx, token);
      return { csrfToken: csrfTokenFor(token), expiresAt, userId: user.id };
    },
  }),
);

builder.queryField('dashboardSession', (t) =>
  t.field({
    type: DashboardSession,
    nullable: true,
    description: 'The session of the request\'s cookie; null when it has none (signed out, expired or revoked). A bearer token is not a session.',
    resolve: async (_root, _args, ctx) => {
      if (!ctx.session) return null;
      const row = await ctx.db.dashboardToken.findUnique({ where: { id: ctx.session.tokenId }, select: { userId: true, expiresAt: true } });
      return row && { csrfToken: ctx.session.csrfToken, expiresAt: row.expiresAt, userId: row.userId };
    },
  }),
);

builder.mutationField('signOut', (t) =>
  t.field({
    type: 'Boolean',
    description: 'Ends the cookie\'s session (its token stops working at once) and clears the cookie. False when the request had no session.',
    resolve: async (_root, _args, ctx) => {
      const cookie = sessionCookieOf(ctx);
      cookie.clear();
      if (!ctx.session) return false;
      await revokeDashboardToken(ctx, ctx.session.tokenId);
      return true;
    },
  }),
);
