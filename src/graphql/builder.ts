import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure, AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type { FileUpload } from 'graphql-upload-minimal';
import { bearerChallenge } from '../auth/apiKeys';
import { hasScope, type Scope, SCOPES } from '../auth/credentials';
import { hasStorePermission, type Permission } from '../auth/permissions';
import type { Context } from '../context';
import { db } from '../db/client';
import { AppError } from '../errors';
import type PrismaTypes from '../generated/pothos-types';
import { getDatamodel } from '../generated/pothos-types';

export interface StorePermissionScope {
  storeId: string;
  permission: Permission;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean; storePermission: StorePermissionScope; apiScope: Scope };
  Scalars: {
    ID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date };
    Decimal: { Input: string; Output: string | { toFixed(n: number): string } };
    JSON: { Input: unknown; Output: unknown };
    Upload: { Input: Promise<FileUpload>; Output: never };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin, SimpleObjectsPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: () => db(),
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
  relay: { clientMutationId: 'omit', cursorType: 'String' },
  scopeAuth: {
    treatErrorsAsUnauthorized: false,
    authScopes: (ctx) => ({
      authenticated: !!ctx.viewer,
      storePermission: ({ storeId, permission }) => hasStorePermission(ctx.viewer, storeId, permission),
      apiScope: (scope) => hasScope(ctx.credential, scope),
    }),
    unauthorizedError: (_parent, ctx, _info, result) => {
      if (ctx.viewer) return new AppError('forbidden', 'You do not have permission to perform this action');
      if (ctx.credential) {
        const failed = apiScopesOf(result.failure);
        const scopes = SCOPES.filter((s) => failed.includes(s));
        return new AppError('insufficient_scope', `This credential lacks the required scope: ${scopes.join(' or ') || result.message}`, {
          details: { required_scope: scopes[0], required_scopes: scopes },
          headers: { 'WWW-Authenticate': bearerChallenge('insufficient_scope', undefined, scopes.join(' ')) },
        });
      }
      return new AppError('unauthenticated', 'Authentication required: send Authorization: Bearer <token>', {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
    },
  },
});

/** The apiScope parameters a failed check asked for (any of them would have passed). */
function apiScopesOf(f: AuthFailure): string[] {
  if (f.kind === AuthScopeFailureType.AuthScope) return f.scope === 'apiScope' ? [String(f.parameter)] : [];
  if (f.kind === AuthScopeFailureType.AnyAuthScopes || f.kind === AuthScopeFailureType.AllAuthScopes) return f.failures.flatMap(apiScopesOf);
  return [];
}

/**
 * The result of a prismaField resolver that deliberately loads nothing (`viewer` without a token).
 * onUnusedQuery ('error' outside production) fails a resolver that returns without reading the
 * planned `query`, which is how a forgotten `...query` spread is caught; such a resolver says
 * "nothing to load" here instead: reading the planned selection marks it used, and the check stays
 * on for every other path.
 */
export function nothingToLoad<T>(query: object, value: T): T {
  for (const key of Object.keys(query)) void (query as Record<string, unknown>)[key];
  return value;
}

builder.queryType({});
builder.mutationType({});
