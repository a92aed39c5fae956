/** The OAuth 2.0 protocol endpoints under /api/public/v1/oauth, and the authorization server's metadata. */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticateDashboardOrSession } from '../auth/authenticate';
import { safeEqual } from '../auth/secrets';
import { CLIENT_CHALLENGE, missingCredential } from '../auth/challenges';
import { SCOPE_DESCRIPTIONS } from '../auth/credentials';
import { SCOPES } from '../../kernel/access';
import type { Config } from '../../platform/config';
import type { RequestContext } from '../../platform/context';
import { AppError } from '../../platform/errors';
import { type ClientCredentials, exchangeToken, OAuthError, revokeToken } from '../services/oauth';
import { AUTHORIZATION_PARAMS, checkAuthorizationRequest, type ConsentRequest, decideConsent, SIGN_IN_FIRST } from '../services/oauthAuthorize';
import { DASHBOARD_SIGN_IN_PATH, dashboardStylesheet } from '../../api/dashboard';
import { escapeHtml, htmlPage, sendHtml } from '../../api/docs/html';
import { readBodyLimited, RestInputError } from '../../api/rest/body';
import { nulInQuery } from '../../api/graphql/inputText';
import { sendProblem, toProblem } from '../../api/rest/problem';

/**
 * OAuth 2.0 protocol endpoints (RFC 6749, 7636, 7009). They speak form-encoded
 * bodies and OAuth error objects rather than JSON and problems, so they are plain
 * handlers over the OAuth service instead of routes running GraphQL operations.
 */
export const OAUTH_BASE_PATH = '/api/public/v1/oauth';

/** The authorization server's metadata (RFC 8414), for an issuer without a path; an issuer with one has it appended. */
export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';

export const isOAuthPath = (path: string) =>
  path === OAUTH_BASE_PATH || path.startsWith(OAUTH_BASE_PATH + '/') || path === OAUTH_METADATA_PATH || path.startsWith(OAUTH_METADATA_PATH + '/');

/**
 * The authorization server's issuer (RFC 8414 2, RFC 9207): PUBLIC_BASE_URL; without it (development, where
 * production refuses to start with OAuth on), the address this instance listens on, `localhost` when it listens
 * on every interface. Never the Host a browser used: a client checks `iss` against one value, however the user
 * reached the service.
 */
function oauthIssuer(config: Config, req: IncomingMessage): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${req.socket.localPort ?? config.port}`;
}

/** What a client library discovers (RFC 8414): where each endpoint is and what the server supports. */
export function authorizationServerMetadata(issuer: string) {
  const endpoint = (p: string) => `${issuer}${OAUTH_BASE_PATH}${p}`;
  const clientAuthentication = ['client_secret_basic', 'client_secret_post'];
  return {
    issuer,
    authorization_endpoint: endpoint('/authorize'),
    token_endpoint: endpoint('/token'),
    revocation_endpoint: endpoint('/revoke'),
    scopes_supported: [...SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: clientAuthentication,
    revocation_endpoint_auth_methods_supported: clientAuthentication,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/docs`,
  };
}

type Endpoint = (ctx: RequestContext, req: IncomingMessage, res: ServerResponse, url: URL, issuer: string) => Promise<void>;

/** `readsQuery`: the endpoint's parameters come in the query string; the others ignore it (RFC 6749 3.2, RFC 7009 2.1). */
const ENDPOINTS: Record<string, { method: string; run: Endpoint; readsQuery?: true }> = {
  '/authorize': { method: 'GET', run: authorize, readsQuery: true },
  '/authorize/consent': { method: 'POST', run: consent },
  '/token': { method: 'POST', run: token },
  '/revoke': { method: 'POST', run: revoke },
};

/** The OAuth endpoints' paths, the metadata's included. */
export const OAUTH_PATHS = [...Object.keys(ENDPOINTS).map((p) => OAUTH_BASE_PATH + p), OAUTH_METADATA_PATH];

export async function handleOAuth(req: IncomingMessage, res: ServerResponse, url: URL, ctx: RequestContext): Promise<void> {
  try {
    // The spec ships the flow switched off: every OAuth path answers the same 404 until enabled.
    if (!ctx.config.oauthEnabled) throw new AppError('oauth_not_enabled', 'The OAuth authorization flow is not enabled on this service');
    const issuer = oauthIssuer(ctx.config, req);
    if (url.pathname.startsWith(OAUTH_METADATA_PATH)) return sendMetadata(req, res, url, issuer);
    const endpoint = ENDPOINTS[url.pathname.slice(OAUTH_BASE_PATH.length)];
    if (!endpoint) throw new AppError('route_not_found', `No endpoint ${req.method} ${url.pathname}`);
    if (req.method !== endpoint.method) {
      throw new AppError('method_not_allowed', `${req.method} is not supported on ${url.pathname}`, { headers: { Allow: endpoint.method } });
    }
    if (endpoint.readsQuery) {
      const nul = nulInQuery(url.searchParams);
      if (nul.length) throw new RestInputError(nul);
    }
    await endpoint.run(ctx, req, res, url, issuer);
  } catch (err) {
    const problem = toProblem(err);
    if (problem.status >= 500) ctx.log.error({ err }, 'OAuth request failed');
    // The authorization pages are a person's: a browser gets the error as a page, other clients as a problem.
    if (wantsHtml(req) && url.pathname.startsWith(OAUTH_BASE_PATH + '/authorize')) sendErrorPage(req, res, problem, ctx.requestId);
    else sendProblem(res, problem, ctx.requestId, ctx.baseUrl);
    if (!req.complete) req.resume();
  }
}

/** GET/HEAD of the metadata: at the well-known path, with the issuer's path after it when it has one (RFC 8414 3.1). */
function sendMetadata(req: IncomingMessage, res: ServerResponse, url: URL, issuer: string) {
  const issuerPath = new URL(issuer).pathname.replace(/\/$/, '');
  if (url.pathname !== OAUTH_METADATA_PATH + issuerPath) throw new AppError('route_not_found', `No endpoint ${req.method} ${url.pathname}; the metadata is at ${OAUTH_METADATA_PATH}${issuerPath}`);
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new AppError('method_not_allowed', `${req.method} is not supported on ${url.pathname}`, { headers: { Allow: 'GET, HEAD' } });
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  // Public and the same for everyone: any origin may read it (a browser-based client discovers too), caches may keep it an hour.
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(authorizationServerMetadata(issuer)));
}

function sendErrorPage(req: IncomingMessage, res: ServerResponse, problem: ReturnType<typeof toProblem>, requestId: string) {
  for (const [k, v] of Object.entries(problem.headers ?? {})) res.setHeader(k, v);
  const signIn = problem.status === 401 ? `<p><a href="${DASHBOARD_SIGN_IN_PATH}">Sign in to the dashboard</a>, then open the app's authorization link again.</p>` : '';
  const body =
    `<main><h1>This authorization request cannot go on</h1>` +
    `<p>${escapeHtml(problem.detail)}</p>${signIn}` +
    `<p class="status">Error <a href="/docs/errors/${escapeHtml(problem.code)}"><code>${escapeHtml(problem.code)}</code></a> (HTTP ${problem.status}), request ${escapeHtml(requestId)}. ` +
    `If an app sent you here, tell its developer.</p></main>`;
  sendHtml(res, req.method ?? 'GET', problem.status, htmlPage('Authorization error', body), { cacheControl: 'no-store' });
}

/**
 * The consent screen and the consent POST act for the signed-in dashboard user: by the bearer header, or in a
 * browser by the dashboard's session cookie, whose CSRF token the consent form then carries.
 */
async function asDashboardUser(ctx: RequestContext, req: IncomingMessage): Promise<{ userCtx: RequestContext; csrfToken?: string }> {
  const { principal, session } = await authenticateDashboardOrSession(ctx, req.headers);
  return { userCtx: { ...ctx, principal }, csrfToken: session?.csrfToken };
}

/** A browser's navigation (it asks for HTML): it gets pages, not JSON. */
const wantsHtml = (req: IncomingMessage) => /\btext\/html\b/.test(String(req.headers.accept ?? ''));

async function authorize(ctx: RequestContext, req: IncomingMessage, res: ServerResponse, url: URL, issuer: string) {
  const { userCtx, csrfToken } = await asDashboardUser(ctx, req);
  const outcome = await checkAuthorizationRequest(userCtx, url.searchParams, issuer);
  if (outcome.kind === 'redirect') return redirect(res, 302, outcome.location);
  if (outcome.kind === 'sign_in') {
    // A browser signs in to the dashboard and comes back here; another client is told to send its token.
    if (wantsHtml(req)) return redirect(res, 302, `${DASHBOARD_SIGN_IN_PATH}?return_to=${encodeURIComponent(url.pathname + url.search)}`);
    throw missingCredential('dashboard', SIGN_IN_FIRST);
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  // The consent page must never be framed (clickjacking) nor leak the request through Referer.
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.end(consentPage(outcome, csrfToken, await dashboardStylesheet()));
}

async function consent(ctx: RequestContext, req: IncomingMessage, res: ServerResponse, _url: URL, issuer: string) {
  // By the bearer header, or by the session cookie with the session's CSRF token in the form: a cross-site
  // form post has neither (the cookie is SameSite=Lax, and another site cannot know the token).
  const { userCtx, csrfToken } = await asDashboardUser(ctx, req);
  if (userCtx.principal.kind !== 'user') throw missingCredential('dashboard', SIGN_IN_FIRST);
  const form = await readForm(req);
  if (csrfToken) {
    const sent = form.get('csrf_token');
    if (!sent || !safeEqual(sent, csrfToken)) throw new AppError('csrf_token_invalid', 'This consent form does not belong to your dashboard session: open the authorization link again');
  }
  const { location } = await decideConsent(userCtx, form, issuer);
  // 303 so the browser follows with a GET, never re-posting the form to the client (RFC 9700 4.12).
  redirect(res, 303, location);
}

async function token(ctx: RequestContext, req: IncomingMessage, res: ServerResponse) {
  await oauthJson(res, async () => {
    const form = await readForm(req);
    return exchangeToken(ctx, clientCredentials(req, form), form);
  });
}

async function revoke(ctx: RequestContext, req: IncomingMessage, res: ServerResponse) {
  await oauthJson(res, async () => {
    const form = await readForm(req);
    await revokeToken(ctx, clientCredentials(req, form), form);
    return undefined;
  });
}

/** Token and revoke answer in RFC 6749 5.2 form: JSON {error, error_description}, never cached. */
async function oauthJson(res: ServerResponse, run: () => Promise<unknown>) {
  let status = 200;
  let body: unknown;
  try {
    body = await run();
  } catch (err) {
    const e = (err instanceof AppError && err.status < 500) || err instanceof RestInputError ? new OAuthError('invalid_request', (err as Error).message) : err;
    if (!(e instanceof OAuthError)) throw e;
    // An oversize form is still an OAuth error object, with the status that says what happened.
    status = err instanceof AppError && err.code === 'payload_too_large' ? err.status : e.status;
    body = { error: e.error, error_description: e.message };
    if (e.error === 'invalid_client') res.setHeader('WWW-Authenticate', CLIENT_CHALLENGE);
  }
  res.statusCode = status;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  if (body === undefined) return void res.end();
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

function redirect(res: ServerResponse, status: number, location: string) {
  res.statusCode = status;
  res.setHeader('Location', location);
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

const MAX_FORM_BYTES = 64 * 1024;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new AppError('unsupported_media_type', 'Send the body as application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams((await readBodyLimited(req, MAX_FORM_BYTES, 'Form')).toString('utf8'));
  const nul = nulInQuery(form);
  if (nul.length) throw new RestInputError(nul);
  return form;
}

/** client_secret_basic (RFC 6749 2.3.1: form-encoded, then base64) or client_secret_post; never both. */
function clientCredentials(req: IncomingMessage, form: URLSearchParams): ClientCredentials | null {
  const ids = form.getAll('client_id');
  const secrets = form.getAll('client_secret');
  if (ids.length > 1 || secrets.length > 1) throw new OAuthError('invalid_request', 'client_id and client_secret must not be sent more than once');
  const header = req.headers.authorization;
  if (header) {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = m ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'Authorization must be "Basic base64(client_id:client_secret)"');
    const clientId = formDecode(decoded.slice(0, colon));
    if (secrets.length) throw new OAuthError('invalid_request', 'Use one client authentication method, not both Basic and client_secret');
    if (ids.length && ids[0] !== clientId) throw new OAuthError('invalid_request', 'client_id differs from the Authorization header');
    return { clientId, clientSecret: formDecode(decoded.slice(colon + 1)) };
  }
  return ids[0] && secrets[0] ? { clientId: ids[0], clientSecret: secrets[0] } : null;
}

function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are not form-encoded');
  }
}

/** Without a built dashboard the consent page still reads well: a few rules in the dashboard's colours. */
const FALLBACK_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1c2330}' +
  'button{font:inherit;padding:.45rem .9rem;border-radius:6px;border:1px solid #1f5fbf;background:#1f5fbf;color:#fff;cursor:pointer}' +
  '.button-secondary{background:#fff;color:#174a96;border-color:#9aa6b8}.button-row{display:flex;gap:.5rem}';

/**
 * The consent page, in the dashboard's look: its stylesheet, its sign-in card, its primary and secondary buttons.
 * Each scope is described in the words of SCOPE_DESCRIPTIONS, the table the docs show (test/docs/scopeTable.test.ts).
 */
function consentPage(r: ConsentRequest, csrfToken: string | undefined, stylesheet: string | null): string {
  const hidden = AUTHORIZATION_PARAMS.filter((k) => k !== 'store_id' && r.params[k] !== undefined)
    .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(r.params[k])}">`)
    .concat(csrfToken ? [`<input type="hidden" name="csrf_token" value="${escapeHtml(csrfToken)}">`] : [])
    .join('\n        ');
  const named = r.stores.find((s) => s.id === r.storeId);
  const store = named
    ? `<input type="hidden" name="store_id" value="${escapeHtml(named.id)}"><p>Store: <strong>${escapeHtml(named.name)}</strong></p>`
    : `<div class="field"><label for="store">Store</label><select id="store" name="store_id" required>${r.stores
        .map((s) => `<option value="${escapeHtml(s.id)}">${escapeHtml(s.name)}</option>`)
        .join('')}</select></div>`;
  const scopes = r.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_DESCRIPTIONS[s])}</li>`).join('\n          ');
  const style = stylesheet ? `<link rel="stylesheet" href="${escapeHtml(stylesheet)}">` : `<style>${FALLBACK_STYLE}</style>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Authorize ${escapeHtml(r.app.name)}</title>
  ${style}
</head>
<body>
  <main id="main" class="signin-page">
    <div class="signin-card">
      <h1><span id="app-name">${escapeHtml(r.app.name)}</span> wants to access your store</h1>
      <p class="hint">Signed in as ${escapeHtml(r.user.email)}. Mode: <strong id="mode">${escapeHtml(r.mode)}</strong>.</p>
      <form method="post" action="${OAUTH_BASE_PATH}/authorize/consent">
        ${hidden}
        ${store}
        <p>It will be able to:</p>
        <ul id="scopes">
          ${scopes}
        </ul>
        <div class="button-row">
          <button type="submit" class="button button-primary" name="decision" value="approve">Allow</button>
          <button type="submit" class="button button-secondary" name="decision" value="deny">Deny</button>
        </div>
      </form>
    </div>
  </main>
</body>
</html>
`;
}
