import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { root } from '../helpers/serverProcess';
import { getAuthorize, REDIRECT_URI, registerApp } from './helpers';

/**
 * The consent page sits between dashboard pages (sign-in, then back to the app): it looks like them. It uses the
 * dashboard's own stylesheet (the one the built dashboard links), its sign-in card, and its primary and secondary
 * buttons, and its policy lets that stylesheet load.
 */
let t: TestServer;
let store: StoreFixture;

beforeAll(async () => {
  if (!existsSync(path.join(root, 'dashboard', 'dist', 'index.html'))) execFileSync('npm', ['run', '-s', 'dashboard:build'], { cwd: root, stdio: 'ignore' });
  t = await startTestServer({ OAUTH_ENABLED: 'true' });
  store = await createStoreFixture();
}, 120_000);
afterAll(() => t.close());

it("links the dashboard's stylesheet and uses its card and button classes", async () => {
  const app = await registerApp(t, store.ownerToken);
  const page = await getAuthorize(
    t,
    {
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'public:read',
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
    },
    store.ownerToken,
  );
  expect(page.status).toBe(200);

  const dashboard = await (await fetch(`${t.url}/dashboard/`)).text();
  const dashboardCss = /<link rel="stylesheet"[^>]*href="([^"]+\.css)"/.exec(dashboard)![1];
  expect(page.text).toContain(`<link rel="stylesheet" href="${dashboardCss}">`);
  const css = await fetch(`${t.url}${dashboardCss}`);
  expect(css.status).toBe(200);
  const rules = await css.text();
  for (const cls of ['.signin-card', '.button-primary', '.button-secondary', '.button-row']) expect(rules).toContain(cls);

  expect(page.text).toMatch(/<main id="main" class="signin-page">\s*<div class="signin-card">/);
  expect(page.text).toMatch(/<button type="submit" class="button button-primary" name="decision" value="approve">Allow<\/button>/);
  expect(page.text).toMatch(/<button type="submit" class="button button-secondary" name="decision" value="deny">Deny<\/button>/);
  // The store picker is a labelled dashboard field.
  expect(page.text).toMatch(/<div class="field"><label for="store">Store<\/label><select id="store" name="store_id" required>/);
  expect(page.headers.get('content-security-policy')).toMatch(/style-src 'self'/);
});
