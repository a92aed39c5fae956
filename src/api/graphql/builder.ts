/** The Pothos schema builder every domain's GraphQL types are added to, and the GraphQL context. */

import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure, AuthScopeFailureType } from '@pothos/plugin-scope-auth';
import SimpleObjectsPlugin from '@pothos/plugin-simple-objects';
import type { FileUpload } from 'graphql-upload-minimal';
import { accessDenied, allows, type CapabilityName } from '../../access/auth/authorization';
import type { LoginThrottle } from '../../access/auth/loginThrottle';
import type { RequestContext } from '../../platform/context';
import type { ReadTarget } from '../../platform/db/replicas';
import type { Mode } from '../../kernel/access';
import { userOf } from '../../kernel/principal';
import type PrismaTypes from '../../generated/pothos-types';
import { getDatamodel } from '../../generated/pothos-types';

/** The capability a field needs (src/access/auth/authorization.ts); `storeId` undefined: a credential's own store. */
interface CapabilityScope {
  name: CapabilityName;
  storeId?: string;
}

/** A field's `authScopes`: the one rule of that capability, as REST and compiled plans ask it too. */
export const capability = (name: CapabilityName, storeId?: string) => ({ capability: { name, storeId } });

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
  /**
   * The Idempotency-Key a REST write sent, with the REST request it stands for (method, path, query and body):
   * the operation runs once per key, as with a field's `idempotencyKey` argument.
   */
  idempotencyKey?: { key: string; fingerprint: string };
  /** The request's Accept-Language header: the storefront reads answer in the best of the store's locales by it. */
  acceptLanguage?: string;
  /** The replica a query operation read from (src/api/graphql/replicaReads.ts): a REST export streams from it too. */
  readTarget?: ReadTarget;
  /** Sets a header on this request's response (a replayed write says so). */
  setResponseHeader?: (name: string, value: string) => void;
}

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: { authenticated: boolean; capability: CapabilityScope };
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
    // Relations and lists Pothos loads itself are the request's reads: a replica in a query operation that may use one.
    client: (ctx) => ctx.readDb,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
  relay: { clientMutationId: 'omit', cursorType: 'String' },
  scopeAuth: {
    treatErrorsAsUnauthorized: false,
    authScopes: (ctx) => ({
      authenticated: !!userOf(ctx.principal),
      capability: ({ name, storeId }) => allows(ctx.principal, name, storeId),
    }),
    unauthorizedError: (_parent, ctx, _info, result) => accessDenied(ctx.principal, capabilitiesOf(result.failure)),
  },
});

/** The capabilities a failed check would have passed with (any of them). */
function capabilitiesOf(f: AuthFailure): CapabilityName[] {
  if (f.kind === AuthScopeFailureType.AuthScope) return f.scope === 'capability' ? [(f.parameter as CapabilityScope).name] : [];
  if (f.kind === AuthScopeFailureType.AnyAuthScopes || f.kind === AuthScopeFailureType.AllAuthScopes) return f.failures.flatMap(capabilitiesOf);
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
