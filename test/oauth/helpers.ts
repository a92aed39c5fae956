import { createHash, randomBytes } from 'node:crypto';
import type { TestServer } from '../helpers/harness';

export type OAuthLib = typeof import('oauth4webapi', { with: { 'resolution-mode': 'import' } });

/** oauth4webapi is ESM only: load it with a real dynamic import. */
export const loadOAuthLib = (): Promise<OAuthLib> => import('oauth4webapi');

export const OAUTH = '/api/public/v1/oauth';
export const REDIRECT_URI = 'https://partner.example.test/oauth/callback';

const CREATE_APP = `mutation($input: OAuthAppCreateInput!) {
  createOAuthApp(input: $input) { clientSecret app { id name clientId redirectUris allowedScopes status } }
}`;

export interface RegisteredApp {
  id: string;
  clientId: string;
  clientSecret: string;
}

/** Registers an OAuth app through GraphQL as the given dashboard user. */
export async function registerApp(
  t: TestServer,
  token: string,
  input: { name?: string; redirectUris?: string[]; allowedScopes?: string[] } = {},
): Promise<RegisteredApp> {
  const res = await t.graphql(
    CREATE_APP,
    { input: { name: 'Partner app', redirectUris: [REDIRECT_URI], allowedScopes: ['public:read', 'products:read'], ...input } },
    { token },
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  const { app, clientSecret } = res.body.data.createOAuthApp;
  return { id: app.id, clientId: app.clientId, clientSecret };
}

/** The authorization server as oauth4webapi sees it (test/oauth/discovery.test.ts discovers it from the metadata instead). */
export function authorizationServer(t: TestServer) {
  return {
    issuer: t.url,
    authorization_endpoint: `${t.url}${OAUTH}/authorize`,
    token_endpoint: `${t.url}${OAUTH}/token`,
    revocation_endpoint: `${t.url}${OAUTH}/revoke`,
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
  };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  location: string | null;
  text: string;
  body: any;
}

async function raw(res: Response): Promise<RawResponse> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, location: res.headers.get('location'), text, body };
}

/** GET /authorize as the dashboard would, without following redirects. */
export async function getAuthorize(t: TestServer, params: Record<string, string | undefined>, token?: string): Promise<RawResponse> {
  const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return raw(await fetch(`${t.url}${OAUTH}/authorize?${query}`, { headers, redirect: 'manual' }));
}

/** POSTs a form (consent, token, revoke) without following redirects. */
export async function postForm(t: TestServer, path: string, form: URLSearchParams | Record<string, string>, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(
    await fetch(`${t.url}${OAUTH}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form),
      redirect: 'manual',
    }),
  );
}

const unescapeHtml = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

/** What a browser would submit from the consent page: the hidden fields and the first store of the picker. */
export function consentForm(html: string): URLSearchParams {
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form.append(m[1], unescapeHtml(m[2]));
  const option = /<select [^>]*name="store_id"[^>]*><option value="([^"]+)"/.exec(html);
  if (option) form.append('store_id', unescapeHtml(option[1]));
  return form;
}

/** Opens the consent page as `token`'s user and answers it; returns the redirect the client receives. */
export async function authorizeAndDecide(
  t: TestServer,
  token: string,
  params: Record<string, string | undefined>,
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  const page = await getAuthorize(t, params, token);
  if (page.status !== 200) throw new Error(`authorize answered ${page.status}: ${page.location ?? page.text}`);
  const form = consentForm(page.text);
  form.set('decision', decision);
  const res = await postForm(t, '/authorize/consent', form, { authorization: `Bearer ${token}` });
  if (res.status !== 303 || !res.location) throw new Error(`consent answered ${res.status}: ${res.text}`);
  return new URL(res.location);
}

export function basicAuth(clientId: string, clientSecret: string): Record<string, string> {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return { authorization: `Basic ${Buffer.from(`${enc(clientId)}:${enc(clientSecret)}`).toString('base64')}` };
}

/** The whole flow without a client library (for tests about something else): consent as `token`'s user, then the code exchange. */
export async function connectApp(t: TestServer, token: string, app: RegisteredApp, storeId: string, opts: { scope?: string; mode?: 'test' | 'live' } = {}) {
  const verifier = randomBytes(32).toString('base64url');
  const callback = await authorizeAndDecide(t, token, {
    response_type: 'code',
    client_id: app.clientId,
    redirect_uri: REDIRECT_URI,
    scope: opts.scope ?? 'public:read',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    mode: opts.mode,
    store_id: storeId,
  });
  const res = await postForm(
    t,
    '/token',
    { grant_type: 'authorization_code', code: callback.searchParams.get('code')!, redirect_uri: REDIRECT_URI, code_verifier: verifier },
    basicAuth(app.clientId, app.clientSecret),
  );
  if (res.status !== 200) throw new Error(`token answered ${res.status}: ${res.text}`);
  return res.body as { access_token: string; refresh_token: string; scope: string };
}
