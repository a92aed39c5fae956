import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { db } from '../../src/platform/db/client';
import { describeInBrowser, launchBrowser, screenshot, watchPage } from '../helpers/browser';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { root } from '../helpers/serverProcess';
import { authorizationServer, loadOAuthLib, type OAuthLib, registerApp, type RegisteredApp } from './helpers';

/**
 * A partner's OAuth flow as its user meets it in a real browser: the partner
 * (oauth4webapi, with a callback server on loopback) sends the browser to
 * /authorize; signed out, the service sends it to the dashboard's sign-in page
 * and back; the user clicks Allow on the consent page; the partner's callback
 * gets the code and exchanges it for a token the public API accepts. No
 * request leaves this machine.
 */
let t: TestServer;
let store: StoreFixture;
let oauth: OAuthLib;
let app: RegisteredApp;
let browser: Browser;
let partner: Server;
let callbackUrl: string;
let email: string;
const callbacks: URL[] = [];

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dashboard', 'dist', 'index.html'))) execFileSync('npm', ['run', '-s', 'dashboard:build'], { cwd: root, stdio: 'ignore' });
  oauth = await loadOAuthLib();
  partner = createServer((req, res) => {
    const url = new URL(req.url ?? '/', callbackUrl);
    // The browser also asks the partner's site for its icon.
    if (url.pathname === '/oauth/callback') callbacks.push(url);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end('<!doctype html><html lang="en"><title>Partner</title><h1>Connected</h1></html>');
  });
  await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
  callbackUrl = `http://127.0.0.1:${(partner.address() as AddressInfo).port}/oauth/callback`;
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
  email = (await db().user.findUniqueOrThrow({ where: { id: store.ownerId } })).email;
  app = await registerApp(t, store.ownerToken, { name: 'Stock sync', redirectUris: [callbackUrl], allowedScopes: ['public:read', 'products:read'] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
  await new Promise((r) => partner?.close(r));
});

describeInBrowser('OAuth consent in a browser', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });

  it('signed out: sign in on the dashboard, come back to the consent page, click Allow; the partner gets a code that buys a working token', async () => {
    const as = authorizationServer(t);
    const client = { client_id: app.clientId };
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: callbackUrl,
      scope: 'public:read',
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      store_id: store.storeId,
    })) {
      authorizationUrl.searchParams.set(k, v);
    }

    const page = await browser.newPage();
    const watch = watchPage(page, t.url);
    await page.goto(authorizationUrl.toString());
    // Signed out: the dashboard's sign-in page, which knows where to come back to.
    await page.waitForURL(/\/dashboard\/sign-in\?return_to=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Back on the authorization request, now as the signed-in user: the consent page.
    await page.waitForURL((u) => u.pathname === '/api/public/v1/oauth/authorize');
    await page.getByRole('heading', { name: /Stock sync wants to access your store/ }).waitFor();
    await screenshot(page, 'oauth-consent.png');
    // The page is a person's: no serious or critical accessibility violation (axe-core).
    // Evaluated through the browser's debugging protocol: the page's policy (rightly) refuses an injected script tag.
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const axe = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run(): Promise<{ passes: unknown[]; violations: { id: string; impact: string | null }[] }> } }).axe.run();
      return { checked: result.passes.length, serious: result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id) };
    });
    expect(axe.checked).toBeGreaterThan(5);
    expect(axe.serious).toEqual([]);
    await page.getByRole('button', { name: 'Allow' }).click();

    await page.waitForURL((u) => u.toString().startsWith(callbackUrl));
    expect(callbacks).toHaveLength(1);
    const params = oauth.validateAuthResponse(as, client, callbacks[0], state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.ClientSecretBasic(app.clientSecret), params, callbackUrl, verifier, {
      [oauth.allowInsecureRequests]: true,
    });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
    const res = await t.request('GET', '/api/public/v1/payments/supported-countries', { token: tokens.access_token });
    expect(res.status).toBe(200);

    // Every request went to the service or to the partner's callback, both on this machine; nothing failed.
    const elsewhere = watch.external().filter((u) => !u.startsWith(callbackUrl));
    expect(elsewhere).toEqual([]);
    expect(watch.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
