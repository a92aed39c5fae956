import { userOf } from '../domain/principal';
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
    description: 'Exchanges email and password for a dashboard bearer token.',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { token, user } = await login(ctx, args.email, args.password);
      return { token, userId: user.id };
    },
  }),
);
