import { userOf } from '../domain/principal';
import { AppError } from '../errors';
import { login } from '../services/stores';
import { builder, nothingToLoad } from './builder';

builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    memberships: t.relation('memberships'),
  }),
});

builder.prismaObject('Membership', {
  fields: (t) => ({
    role: t.exposeString('role'),
    permissions: t.exposeStringList('permissions'),
    store: t.relation('store'),
  }),
});

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

builder.mutationField('login', (t) =>
  t.field({
    type: LoginPayload,
    description:
      'Exchanges email and password for a dashboard bearer token. One login per request; after repeated failures for an account or from an address: too_many_login_attempts (HTTP 429, Retry-After).',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      if (!ctx.loginThrottle) throw new Error('login runs only where failed logins are throttled (the /graphql endpoint)');
      const attempt = await ctx.loginThrottle.begin(args.email, ctx.clientAddress ?? 'unknown');
      try {
        const { token, user } = await login(ctx, args.email, args.password);
        await attempt.succeeded();
        return { token, userId: user.id };
      } catch (err) {
        // A wrong email or password keeps its place in the counts; any other failure was not the client's guess.
        if (!(err instanceof AppError && err.code === 'invalid_credentials')) await attempt.abandoned();
        throw err;
      }
    },
  }),
);
