import type { Plugin } from 'graphql-yoga';

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
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'apollo-require-preflight'] as const;

const FORM_URLENCODED = 'application/x-www-form-urlencoded';
const NOT_PREFLIGHTED = new Set(['', FORM_URLENCODED, 'multipart/form-data', 'text/plain']);

export interface CsrfRefusal {
  status: number;
  code: string;
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
 * CORS for /graphql: only the origins in GRAPHQL_CORS_ORIGINS, and never with
 * credentials (dashboard tokens travel in the Authorization header, never in
 * cookies). Without the setting no other origin is let in: GraphiQL is served
 * from /graphql itself.
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
