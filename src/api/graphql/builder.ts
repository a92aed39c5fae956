import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure, AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type { FileUpload } from 'graphql-upload-minimal';
import { accessDenied } from '../../access/auth/authorization';
import type { LoginThrottle } from '../../access/auth/loginThrottle';
import type { RequestContext } from '../../platform/context';
import type { Mode, Permission, Scope } from '../../kernel/access';
import { credentialOf, hasScope, hasStorePermission, userOf } from '../../kernel/principal';
import type PrismaTypes from '../../generated/pothos-types';
import { getDatamodel } from '../../generated/pothos-types';

export interface StorePermissionScope {
  storeId: string;
  permission: Permission;
}

/** A public API credential of this store holding this scope. */
export interface StoreApiScope {
  storeId: string;
  scope: Scope;
}

/** The request context, plus what only a GraphQL multipart request knows: the Content-Type each file part was sent with. */
export interface GraphQLContext extends RequestContext {
  /** The type the first file part named `name` was sent with; null when none, `fallback` when no such part was seen. */
  uploadPartTypes?: { fileType(name: string, fallback: string): string | null };
  /** The mode the request named (X-Service-Mode or `?mode=`), null when it named none: a field's `mode` argument may not contradict it. */
  requestedMode?: Mode | null;
  /** Counts failed logins (dashboard /graphql only; the login mutation refuses to run without it). */
  loginThrottle?: LoginThrottle;
  /** The client's address, as the login throttle counts it. */
  clientAddress?: string;
  /** The dashboard session the request was authenticated by (its cookie; /graphql only), with the X-CSRF-Token header it sent. */
  session?: { tokenId: string; csrfToken: string; sentCsrfToken: string | null };
  /** Sets or clears the session cookie on this request's response (/graphql only). */
  sessionCookie?: { set(token: string, expiresAt: Date): void; clear(): void };
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean; storePermission: StorePermissionScope; apiScope: Scope; storeApiScope: StoreApiScope };
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
    // Relations Pothos loads itself go through the request's database too.
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
  relay: { clientMutationId: 'omit', cursorType: 'String' },
  scopeAuth: {
    treatErrorsAsUnauthorized: false,
    authScopes: (ctx) => {
      const viewer = userOf(ctx.principal);
      const credential = credentialOf(ctx.principal);
      return {
        authenticated: !!viewer,
        storePermission: ({ storeId, permission }) => hasStorePermission(viewer, storeId, permission),
        apiScope: (scope) => hasScope(credential, scope),
        storeApiScope: ({ storeId, scope }) => credential?.storeId === storeId && hasScope(credential, scope),
      };
    },
    unauthorizedError: (_parent, ctx, _info, result) => accessDenied(ctx.principal, apiScopesOf(result.failure)),
  },
});

/** The apiScope parameters a failed check asked for (any of them would have passed). */
function apiScopesOf(f: AuthFailure): string[] {
  if (f.kind === AuthScopeFailureType.AuthScope) {
    if (f.scope === 'apiScope') return [String(f.parameter)];
    if (f.scope === 'storeApiScope') return [(f.parameter as StoreApiScope).scope];
    return [];
  }
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
