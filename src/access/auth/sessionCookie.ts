/** The dashboard's session cookie and the CSRF token that goes with it. */

import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parseCookie, stringifySetCookie } from 'cookie';
import { DASHBOARD_TOKEN_PREFIX } from './dashboardTokens';

/**
 * The dashboard's session cookie: a dashboard token (issued by signIn) in an
 * HttpOnly, SameSite=Lax cookie, Secure except on loopback over plain HTTP. Only
 * /graphql and the OAuth consent pages accept it on its own; of the merchant REST
 * API only the exports (GET …/products/export, …/collections/export, which the
 * dashboard downloads) read it, and only with the X-CSRF-Token header; the rest
 * takes bearer tokens only.
 *
 * The cookie goes with every request the browser makes to the service, so a
 * mutation sent with it must also prove it comes from the dashboard's own page:
 * the X-CSRF-Token header carries a value derived from the session token, which
 * a page of another site can neither read (HttpOnly) nor compute.
 */
const SESSION_COOKIE = 'svc_session';
export const CSRF_HEADER = 'x-csrf-token';

/** The session token the request's cookie carries, or null (no cookie, or not a dashboard token). */
export function sessionCookieToken(headers: IncomingHttpHeaders): string | null {
  const raw = headers.cookie;
  if (!raw) return null;
  let value: string | undefined;
  try {
    value = parseCookie(raw)[SESSION_COOKIE];
  } catch {
    return null;
  }
  return value?.startsWith(DASHBOARD_TOKEN_PREFIX) ? value : null;
}

/** The CSRF token of a session: not guessable without the session token, the same for the session's whole life. */
export function csrfTokenFor(sessionToken: string): string {
  return createHash('sha256').update(`csrf\0${sessionToken}`).digest('base64url');
}

/**
 * Secure unless the service is reached over plain HTTP on a loopback address (development):
 * from PUBLIC_BASE_URL when set, else from the request's Host.
 */
export function cookieIsSecure(publicBaseUrl: string | undefined, host: string | undefined): boolean {
  const url = new URL(publicBaseUrl ?? `http://${host ?? 'localhost'}`);
  if (url.protocol === 'https:') return true;
  return !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

export function sessionSetCookie(token: string, expiresAt: Date, now: Date, secure: boolean): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value: token,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: Math.max(0, Math.round((expiresAt.getTime() - now.getTime()) / 1000)),
  });
}

export function clearedSessionCookie(secure: boolean): string {
  return stringifySetCookie({ name: SESSION_COOKIE, value: '', httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 0 });
}
