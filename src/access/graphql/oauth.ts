/** GraphQL types and operations for OAuth apps and the grants stores gave them. */

import { describeScopes } from '../auth/credentials';
import { userOf } from '../../kernel/principal';
import { revokeStoreGrant } from '../services/oauth';
import { createOAuthApp, rotateOAuthAppSecret, setOAuthAppStatus } from '../services/oauthApps';
import { ServiceMode } from '../../api/graphql/modes';
import { builder, capability, type GraphQLContext } from '../../api/graphql/builder';

// Any signed-in dashboard user may register OAuth apps; each app is managed only by the user who created it.
// A store's connections to apps (grants) are managed by its owner and members with manage_oauth_apps.

/** The signed-in user's id; the fields using it require `authenticated`, so there is one. */
const signedIn = (ctx: GraphQLContext) => userOf(ctx.principal)!.userId;


const OAuthAppStatus = builder.enumType('OAuthAppStatus', { values: ['active', 'suspended'] as const });

const OAuthApp = builder.prismaObject('OAuthApp', {
  description: 'A third-party app that may ask stores for access through the OAuth authorization code flow.',
  // Never load the client secret digest into the API layer.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    clientId: t.exposeString('clientId'),
    redirectUris: t.exposeStringList('redirectUris', { description: 'Matched exactly against redirect_uri.' }),
    allowedScopes: t.exposeStringList('allowedScopes'),
    status: t.expose('status', { type: OAuthAppStatus, description: "A suspended app's tokens answer 403 app_suspended." }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const OAuthAppWithSecret = builder.simpleObject('OAuthAppWithSecret', {
  fields: (t) => ({
    app: t.field({ type: OAuthApp }),
    clientSecret: t.string({ description: 'Shown once: only its SHA-256 digest is kept.' }),
  }),
});

const OAuthAppCreateInput = builder.inputType('OAuthAppCreateInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    redirectUris: t.stringList({ required: true, description: 'https URLs (http only on loopback hosts), at most 10.' }),
    allowedScopes: t.stringList({ required: true, description: `The scopes the app may ask for. ${describeScopes()}.` }),
  }),
});

builder.queryField('oauthApps', (t) =>
  t.prismaField({
    type: ['OAuthApp'],
    description: 'The OAuth apps the signed-in user registered.',
    authScopes: { authenticated: true },
    resolve: (query, _root, _args, ctx) => ctx.db.oAuthApp.findMany({ ...query, where: { ownerId: signedIn(ctx) }, orderBy: { createdAt: 'asc' } }),
  }),
);

builder.mutationFields((t) => ({
  createOAuthApp: t.field({
    type: OAuthAppWithSecret,
    description: 'Registers an OAuth app owned by the signed-in user; returns its client secret once.',
    authScopes: { authenticated: true },
    args: { input: t.arg({ type: OAuthAppCreateInput, required: true }) },
    resolve: (_root, { input }, ctx) => createOAuthApp(ctx, { ...input, ownerId: signedIn(ctx) }),
  }),
  rotateOAuthAppSecret: t.field({
    type: OAuthAppWithSecret,
    description: 'Issues a new client secret; the old one stops working at once.',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => rotateOAuthAppSecret(ctx, { id }, signedIn(ctx)),
  }),
  suspendOAuthApp: t.field({
    type: OAuthApp,
    description: 'Suspends the app: its tokens answer 403 app_suspended and it cannot obtain new ones until reactivated.',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => setOAuthAppStatus(ctx, { id }, 'suspended', signedIn(ctx)),
  }),
  activateOAuthApp: t.field({
    type: OAuthApp,
    description: 'Reactivates a suspended app; grants and unexpired tokens work again.',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => setOAuthAppStatus(ctx, { id }, 'active', signedIn(ctx)),
  }),
}));

builder.prismaObject('OAuthGrant', {
  description: "A store's consent to an OAuth app, given by one of its users, in one mode.",
  fields: (t) => ({
    id: t.exposeID('id'),
    app: t.relation('app'),
    grantedBy: t.string({ select: { user: { select: { email: true } } }, resolve: (g) => g.user.email }),
    mode: t.expose('mode', { type: ServiceMode }),
    scopes: t.exposeStringList('scopes'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.queryField('oauthGrants', (t) =>
  t.prismaField({
    type: ['OAuthGrant'],
    description: "The store's OAuth grants, newest first, revoked ones included. Needs manage_oauth_apps.",
    args: { storeId: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageOAuthApps', args.storeId),
    resolve: (query, _root, args, ctx) => ctx.db.oAuthGrant.findMany({ ...query, where: { storeId: args.storeId }, orderBy: { createdAt: 'desc' } }),
  }),
);

builder.mutationField('revokeOAuthGrant', (t) =>
  t.prismaField({
    type: 'OAuthGrant',
    description: "Disconnects an app from the store: the grant's access and refresh tokens stop working at once. Needs manage_oauth_apps.",
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageOAuthApps', args.storeId),
    resolve: async (query, _root, args, ctx) => {
      const { id } = await revokeStoreGrant(ctx, args.storeId, args.id);
      return ctx.db.oAuthGrant.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
