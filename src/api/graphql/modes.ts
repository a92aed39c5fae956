/** Test and live mode in GraphQL: the ServiceMode enum and the mode argument of catalog fields. */

import { assertModeMatches } from '../../access/auth/authenticate';
import type { Mode } from '../../kernel/access';
import { credentialOf } from '../../kernel/principal';
import { AppError } from '../../platform/errors';
import { builder, type GraphQLContext } from './builder';

export const ServiceMode = builder.enumType('ServiceMode', { values: ['test', 'live'] as const, description: 'Test or live: credentials, events, webhook endpoints and the catalog each belong to one mode' });

/**
 * Test data is separate from live data. A catalog field works on the catalog
 * of its `mode` argument when given, otherwise on the request's mode
 * (X-Service-Mode or `?mode=`; live when the request names none).
 */
export const MODE_ARG_DESCRIPTION = "The catalog to work on: test or live. Default: the request's mode (X-Service-Mode header), live when it names none.";

/** Throws conflicting_mode when a mode an argument names (`named`, e.g. "the field's mode argument") contradicts the one the request named. */
export function assertAgreesWithRequest(ctx: GraphQLContext, mode: Mode | null | undefined, named: string): void {
  if (mode && ctx.requestedMode && ctx.requestedMode !== mode) {
    throw new AppError('conflicting_mode', `The request names ${ctx.requestedMode} mode (X-Service-Mode) but ${named} is ${mode}; send one mode`);
  }
}

/** The context a catalog field runs its service with: in the mode its `mode` argument names. */
export function inCatalogMode<C extends GraphQLContext>(ctx: C, mode: Mode | null | undefined): C {
  if (!mode || mode === ctx.mode) return ctx;
  assertAgreesWithRequest(ctx, mode, "the field's mode argument");
  const credential = credentialOf(ctx.principal);
  if (credential) assertModeMatches(credential, mode);
  return { ...ctx, mode };
}
