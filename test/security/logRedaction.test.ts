import '../helpers/developmentEnv'; // Yoga's development mode is where stacks used to reach responses
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/platform/config';
import { createLogger, redactUrl, scrubCredentials } from '../../src/platform/logger';
import { db } from '../../src/platform/db/client';
import { createUser } from '../../src/access/services/stores';
import { testContext } from '../helpers/context';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { openTestDatabase, type RequestOptions, type TestResponse, type TestServer } from '../helpers/harness';
import { newTempDir } from '../helpers/templates';
import { connectApp, postForm, registerApp, basicAuth } from '../oauth/helpers';
import { createKey } from '../public/helpers';

/**
 * The service's own logger, as `npm start` builds it (trace level, JSON lines), captured line by
 * line while the test creates every kind of credential and sends each one where a careless client
 * would: query strings, headers, form bodies, a GraphQL document over GET. No line may hold one.
 */
const lines: string[] = [];
let t: TestServer;
let app: App;
let server: Server;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let a: StoreFixture;
const secrets: Record<string, string> = {};

beforeAll(async () => {
  database = await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'trace',
    LOG_FORMAT: 'json',
    DATA_DIR: newTempDir('catalog-data-'),
    SEED_DEMO: 'false',
    OAUTH_ENABLED: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  app = createApp(config, { log: createLogger(config, { isTTY: false }, { write: (line: string) => void lines.push(line) }) });
  server = createServer((req, res) => void app.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  t = {
    url,
    app,
    config,
    database,
    request,
    graphql: (query, variables, opts = {}) => request('POST', '/graphql', { ...opts, body: { query, variables } }),
    close: async () => {},
  };
  a = await createStoreFixture();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await app.close();
  await database.close().catch(() => {});
  await database.dropDatabase();
});

const requestLines = () => lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');

describe('no credential reaches the log', () => {
  beforeAll(async () => {
    // Every kind of secret the service hands out, and a password.
    secrets.dashboardToken = a.ownerToken;
    const email = `logs-${randomBytes(4).toString('hex')}@example.test`;
    secrets.password = `pw-${randomBytes(12).toString('hex')}`;
    await createUser(testContext(), { email, name: 'Log reader', password: secrets.password });
    const login = await t.graphql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: email, p: secrets.password });
    secrets.loginToken = login.body.data.login.token;
    secrets.apiKey = (await createKey(t, a, { type: 'secret', mode: 'test', scopes: ['products:read'] })).secret;
    const oauthApp = await registerApp(t, a.ownerToken);
    secrets.clientSecret = oauthApp.clientSecret;
    const tokens = await connectApp(t, a.ownerToken, oauthApp, a.storeId);
    secrets.accessToken = tokens.access_token;
    secrets.refreshToken = tokens.refresh_token;
    const hook = await t.request('POST', `/api/v1/merchant/stores/${a.storeId}/webhook-endpoints`, {
      token: a.ownerToken,
      body: { url: 'http://127.0.0.1:9/hooks', event_types: ['product.created'] },
    });
    secrets.webhookSecret = hook.body.data.secret;
    for (const [name, value] of Object.entries(secrets)) expect([name, value]).toEqual([name, expect.stringMatching(/.{12,}/)]);

    // ...and each one sent where it does not belong.
    const q = encodeURIComponent;
    await t.request('GET', `/api/public/v1/products?api_key=${q(secrets.apiKey)}`);
    await t.request('GET', `/api/public/v1/products?access_token=${q(secrets.accessToken)}&page=1`);
    await t.request('GET', `/api/public/v1/products?search=x&token=${q(secrets.refreshToken)}`);
    await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products?password=${q(secrets.password)}&client_secret=${q(secrets.clientSecret)}`);
    await t.request('GET', `/api/v1/merchant/stores/${a.storeId}/products?x=${q(secrets.webhookSecret)}&y=${q(secrets.loginToken)}`);
    // A mutation over GET is refused, its URL still logged.
    await t.request('GET', `/graphql?query=${q(`mutation { login(email: "${email}", password: "${secrets.password}") { token } }`)}`, { headers: { accept: 'application/json' } });
    await t.request('GET', `/graphql?query=${q('mutation($p: String!) { login(email: "x@example.test", password: $p) { token } }')}&variables=${q(JSON.stringify({ p: secrets.password }))}`);
    await t.request('GET', `/api/public/v1/products`, { headers: { authorization: `Bearer ${secrets.apiKey}`, 'x-api-key': secrets.apiKey } });
    await postForm(t, '/token', { grant_type: 'refresh_token', refresh_token: secrets.refreshToken }, basicAuth(oauthApp.clientId, secrets.clientSecret));
    await postForm(t, '/revoke', { token: secrets.accessToken, client_id: oauthApp.clientId, client_secret: secrets.clientSecret });
  });

  it('captured the request lines (the check below looks at real output)', () => {
    expect(requestLines().length).toBeGreaterThan(10);
    expect(requestLines().some((l) => l.url.includes('api_key=[REDACTED]'))).toBe(true);
  });

  it.each(['dashboardToken', 'password', 'loginToken', 'apiKey', 'clientSecret', 'accessToken', 'refreshToken', 'webhookSecret'])('%s: in no log line', (name) => {
    const forms = [secrets[name], encodeURIComponent(secrets[name])];
    const leaks = lines.filter((l) => forms.some((f) => l.includes(f)));
    expect(leaks).toEqual([]);
  });

  it('recognises a webhook secret however it is encoded (base64 with / and + escaped in a URL)', () => {
    const secret = 'whsec_ab/c+d/efghijklmnopqrstuvwxyz0123456789ABCDEF=';
    expect(redactUrl(`/x?a=${encodeURIComponent(secret)}&b=1`)).toBe('/x?a=whsec_%5BREDACTED%5D&b=1');
    expect(scrubCredentials(`"url":"/x?a=${encodeURIComponent(secret)}"`)).toBe('"url":"/x?a=whsec_[REDACTED]"');
  });

  it('keeps what is not a credential: path, other parameters, their order', () => {
    const line = requestLines().find((l) => l.url.includes('access_token='));
    expect(line.url).toBe('/api/public/v1/products?access_token=[REDACTED]&page=1');
  });
});

describe('an unexpected GraphQL error', () => {
  it('is logged with the request id and answered without stack or original error, in development too', async () => {
    expect(process.env.NODE_ENV).toBe('development');
    // A real fault inside a resolver: the products table is gone (authentication, which reads other tables, still works).
    await db().$executeRawUnsafe('ALTER TABLE products RENAME TO products_gone');
    const res = await t.graphql(`query($s: ID!) { products(storeId: $s) { items { id } } }`, { s: a.storeId }, { token: a.ownerToken, headers: { 'x-request-id': 'req-unexpected-1' } });
    const error = res.body.errors[0];
    expect(error.extensions.code).toBe('internal_error');
    expect(JSON.stringify(res.body)).not.toMatch(/stack|originalError|at .*\.ts:\d+/);
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'unexpected GraphQL error');
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.at(-1).request_id).toBe('req-unexpected-1');
  });
});
