/** CSRF and CORS rules of /graphql. */

import { getOperationAST, GraphQLError, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { safeEqual } from '../../access/auth/secrets';
import { AppError, type ErrorCode } from '../../platform/errors';
import type { GraphQLContext } from './builder';

/**
 * Cross-site request forgery on /graphql. A browser sends a cross-origin POST
 * without asking first (no CORS preflight) only when its Content-Type is
 * text/plain, application/x-www-form-urlencoded or multipart/form-data (or
 * absent) and it carries no custom header. So:
 *
 * - application/x-www-form-urlencoded is not a GraphQL transport here: 415;
 * - multipart/form-data (uploads), text/plain and a POST without a type run
 *   only with one of CSRF_HEADERS (any value), which no page can add to a
 *   cross-origin request without a preflight the CORS policy refuses;
 * - application/json (what clients send) is preflighted and needs nothing more;
 * - GET runs queries only (Yoga answers 405 to a mutation over GET).
 */
const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'apollo-require-preflight'] as const;

const FORM_URLENCODED = 'application/x-www-form-urlencoded';
const NOT_PREFLIGHTED = new Set(['', FORM_URLENCODED, 'multipart/form-data', 'text/plain']);

interface CsrfRefusal {
  status: number;
  code: ErrorCode;
  message: string;
}

/** Why a request may not run as GraphQL, or null when it may. */
export function csrfRefusal(method: string | undefined, contentType: string | null | undefined, hasHeader: (name: string) => boolean): CsrfRefusal | null {
  if ((method ?? 'GET').toUpperCase() !== 'POST') return null;
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === FORM_URLENCODED) {
    return { status: 415, code: 'unsupported_media_type', message: 'GraphQL requests are application/json (uploads: multipart/form-data with an X-GraphQL-Yoga-CSRF header)' };
  }
  if (!NOT_PREFLIGHTED.has(mediaType) || CSRF_HEADERS.some(hasHeader)) return null;
  return {
    status: 403,
    code: 'csrf_header_required',
    message: `A ${mediaType || 'untyped'} POST to /graphql needs an X-GraphQL-Yoga-CSRF header (any value), or send application/json`,
  };
}

/** The body Yoga would give a refused request: GraphQL's error shape. */
export const refusalBody = (r: CsrfRefusal) => JSON.stringify({ errors: [{ message: r.message, extensions: { code: r.code } }] });

/** csrfRefusal for every request Yoga parses itself (all but multipart, which src/app.ts checks before it reads the body). */
export function csrfPreventionPlugin(): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const refusal = csrfRefusal(request.method, request.headers.get('content-type'), (h) => request.headers.has(h));
      if (!refusal) return;
      endResponse(new fetchAPI.Response(refusalBody(refusal), { status: refusal.status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } }));
    },
  };
}

/**
 * A mutation sent with the dashboard's session cookie (src/access/auth/sessionCookie.ts) runs only
 * with the session's X-CSRF-Token header: the cookie would go with a request another site's
 * page makes, the token cannot. `signIn` alone is exempt (it starts a session; a stale
 * cookie must not keep a user from signing in again). Queries change nothing and need none.
 */
function sessionCsrfProblem(session: GraphQLContext['session']): AppError | null {
  if (!session) return null;
  if (session.sentCsrfToken && safeEqual(session.sentCsrfToken, session.csrfToken)) return null;
  return new AppError(
    'csrf_token_invalid',
    session.sentCsrfToken
      ? 'The X-CSRF-Token header does not belong to this session; read it again from dashboardSession'
      : 'A mutation sent with the dashboard session cookie needs the X-CSRF-Token header (its value comes with signIn and dashboardSession)',
  );
}

export function sessionCsrfPlugin(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (operation?.operation !== 'mutation') return;
      if (operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && (s.name.value === 'signIn' || s.name.value === '__typename'))) return;
      const problem = sessionCsrfProblem((args.contextValue as unknown as GraphQLContext).session);
      if (problem) setResultAndStopExecution({ errors: [new GraphQLError(problem.message, { extensions: { code: problem.code } })] });
    },
  };
}

/** For a multipart request (an upload), checked before its body is read: with the session cookie, the X-CSRF-Token header must be the session's. */
export function sessionCsrfRefusal(ctx: GraphQLContext): CsrfRefusal | null {
  const problem = sessionCsrfProblem(ctx.session);
  return problem && { status: 403, code: problem.code, message: problem.message };
}

/**
 * CORS for /graphql: only the origins in GRAPHQL_CORS_ORIGINS, and never with
 * credentials: another origin's page sends a bearer token, never the dashboard's
 * session cookie (which is SameSite=Lax and needs its CSRF token besides).
 * Without the setting no other origin is let in: GraphiQL is served from
 * /graphql itself.
 */
export function graphqlCors(allowedOrigins: readonly string[]) {
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (!origin || !allowedOrigins.includes(origin)) return false as const;
    return {
      origin,
      credentials: false,
      methods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Service-Mode', 'X-Request-Id', ...CSRF_HEADERS],
      exposedHeaders: ['X-Request-Id', 'X-Service-Mode', 'Retry-After', 'WWW-Authenticate'],
      maxAge: 600,
    };
  };
}
