/** GraphQL types and operations for public API keys. */

import { API_KEY_TYPES, redactApiKey } from '../auth/apiKeys';
import { describeScopes } from '../auth/credentials';
import * as apiKeys from '../services/apiKeys';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { ServiceMode } from '../../api/graphql/modes';


const ApiKeyType = builder.enumType('ApiKeyType', {
  values: API_KEY_TYPES,
  description: 'system (svc_*_ck_, backend only, any scopes), secret (svc_*_sk_, the scopes it was given), publishable (svc_*_pk_, public:read only)',
});

const ApiKey = builder.prismaObject('ApiKey', {
  // Never load the key digest into the API layer.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    type: t.expose('type', { type: ApiKeyType }),
    mode: t.expose('mode', { type: ServiceMode }),
    scopes: t.exposeStringList('scopes'),
    redactedKey: t.string({
      description: 'Prefix and last 4 characters, e.g. svc_live_sk_…abcd; the key itself is shown only when created or rolled',
      select: { prefix: true, last4: true },
      resolve: (k) => redactApiKey(k),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Updated at most once a minute' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    rolledFromId: t.exposeID('rolledFromId', { nullable: true, description: 'The key this one replaced' }),
    createdBy: t.relation('createdBy', { nullable: true }),
  }),
});

const ApiKeyWithSecret = builder.simpleObject('ApiKeyWithSecret', {
  fields: (t) => ({
    apiKey: t.field({ type: ApiKey }),
    secret: t.string({ description: 'The API key. Shown once: only its SHA-256 digest is kept.' }),
  }),
});

const ApiKeyRollPayload = builder.simpleObject('ApiKeyRollPayload', {
  fields: (t) => ({
    apiKey: t.field({ type: ApiKey, description: 'The new key' }),
    secret: t.string({ description: 'The new API key. Shown once.' }),
    previous: t.field({ type: ApiKey, description: 'The old key, now with the expiry chosen for the switch-over' }),
  }),
});

const ApiKeyCreateInput = builder.inputType('ApiKeyCreateInput', {
  extensions: inputRules((v) => fieldErrorsOf(apiKeys.CreateApiKey, { ...v, scopes: v.scopes ?? undefined, expiresAt: v.expiresAt ?? undefined })),
  fields: (t) => ({
    name: t.string({ required: true }),
    type: t.field({ type: ApiKeyType, required: true }),
    mode: t.field({ type: ServiceMode, required: true }),
    scopes: t.stringList({
      description: `Publishable: public:read only (the default). Secret: required. System: defaults to all. ${describeScopes()}.`,
    }),
    expiresAt: t.field({ type: 'DateTime', description: 'Optional; the key stops working at this time' }),
  }),
});

builder.queryField('apiKeys', (t) =>
  t.prismaField({
    type: [ApiKey],
    description: "The store's API keys, newest first, including revoked and expired ones. Needs manage_api_keys.",
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode }) },
    authScopes: (_root, args) => capability('manageApiKeys', args.storeId),
    resolve: (query, _root, args, ctx) => apiKeys.listApiKeys(ctx, args.storeId, { mode: args.mode ?? undefined }, query),
  }),
);

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: ApiKeyWithSecret,
    description: 'Creates an API key and returns it once. Needs manage_api_keys.',
    args: { storeId: t.arg.id({ required: true }), input: t.arg({ type: ApiKeyCreateInput, required: true }) },
    authScopes: (_root, args) => capability('manageApiKeys', args.storeId),
    resolve: (_root, { storeId, input }, ctx) =>
      apiKeys.createApiKey(ctx, storeId, { ...input, scopes: input.scopes ?? undefined, expiresAt: input.expiresAt ?? undefined }),
  }),
  rollApiKey: t.field({
    type: ApiKeyRollPayload,
    description: 'Issues a replacement key now; the old key keeps working for expiresInSeconds (0 to 604800 = 7 days, default 86400). Needs manage_api_keys.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), expiresInSeconds: t.arg.int() },
    authScopes: (_root, args) => capability('manageApiKeys', args.storeId),
    resolve: (_root, args, ctx) => apiKeys.rollApiKey(ctx, args.storeId, args.id, { expiresInSeconds: args.expiresInSeconds ?? undefined }),
  }),
  revokeApiKey: t.field({
    type: ApiKey,
    description: 'Revokes a key with immediate effect. Needs manage_api_keys.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('manageApiKeys', args.storeId),
    resolve: (_root, args, ctx) => apiKeys.revokeApiKey(ctx, args.storeId, args.id),
  }),
}));
