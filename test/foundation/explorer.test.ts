import { Script } from 'node:vm';
import { testContext } from '../helpers/context';
import { seedDemo } from '../../src/catalog/services/demoSeed';
import {
  explorerTabs,
  HEADERS_WITH_TOKEN,
  HEADERS_WITHOUT_TOKEN,
  LOGIN_EXAMPLE,
  PRODUCTS_EXAMPLE,
  PRODUCTS_VARIABLES,
  STORE_ID_PLACEHOLDER,
  TOKEN_PLACEHOLDER,
  VIEWER_EXAMPLE,
} from '../../src/api/explorer';
import { startTestServer, type TestServer } from '../helpers/harness';

let t: TestServer;
let demo: NonNullable<Awaited<ReturnType<typeof seedDemo>>>;

beforeAll(async () => {
  t = await startTestServer();
  demo = (await seedDemo(testContext()))!;
});
afterAll(() => t.close());

/** GraphiQL's editors read JSON with `//` comments; these texts only use whole-line comments. */
const jsonc = (text: string) => JSON.parse(text.split('\n').filter((l) => !l.trim().startsWith('//')).join('\n'));

describe('GraphiQL opens with working examples', () => {
  let page: string;
  beforeAll(async () => {
    const res = await t.request('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    page = res.text;
  });

  it('embeds the three example tabs and the prepared Authorization header', () => {
    // The options reach the page as one JSON literal, so each text appears JSON-encoded.
    for (const text of [VIEWER_EXAMPLE, LOGIN_EXAMPLE, PRODUCTS_EXAMPLE, PRODUCTS_VARIABLES, HEADERS_WITH_TOKEN, HEADERS_WITHOUT_TOKEN]) {
      expect(page).toContain(JSON.stringify(text));
    }
    expect(page).toContain(`\\"Authorization\\": \\"Bearer ${TOKEN_PLACEHOLDER}\\"`);
    expect(page).toContain('npm run cli -- token issue');
    expect(page).toContain('`npm start`');
    expect(page).toContain('the `login` mutation');
  });

  it('renders a page whose script compiles (the texts cannot break out of it)', () => {
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(() => new Script(scripts[0])).not.toThrow();
    expect(scripts[0]).toContain('renderYogaGraphiQL');
    expect(scripts[0]).toContain('"defaultTabs"');
  });

  it('has header and variable editors that parse as GraphiQL reads them', () => {
    expect(jsonc(HEADERS_WITHOUT_TOKEN)).toEqual({});
    expect(jsonc(HEADERS_WITH_TOKEN)).toEqual({ Authorization: `Bearer ${TOKEN_PLACEHOLDER}` });
    expect(jsonc(PRODUCTS_VARIABLES)).toEqual({ storeId: STORE_ID_PLACEHOLDER });
    expect(explorerTabs.map((tab) => tab.headers)).toEqual([HEADERS_WITHOUT_TOKEN, HEADERS_WITHOUT_TOKEN, HEADERS_WITH_TOKEN]);
  });

  it('the Viewer tab runs as it opens (no token): viewer is null, no errors; with a token it lists the stores', async () => {
    const anonymous = await t.request('POST', '/graphql', { headers: jsonc(HEADERS_WITHOUT_TOKEN), body: { query: VIEWER_EXAMPLE } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ data: { viewer: null } });
    const signedIn = await t.graphql(VIEWER_EXAMPLE, undefined, { token: demo.token });
    expect(signedIn.body.errors).toBeUndefined();
    expect(signedIn.body.data.viewer).toMatchObject({ email: demo.email, memberships: [{ role: 'owner', store: { id: demo.storeId, name: 'Demo Store' } }] });
  });

  it('the Login tab runs as it opens and returns a token that works', async () => {
    const res = await t.request('POST', '/graphql', { headers: jsonc(HEADERS_WITHOUT_TOKEN), body: { query: LOGIN_EXAMPLE } });
    expect(res.body.errors).toBeUndefined();
    const { token } = res.body.data.login;
    expect(token).toMatch(/^svc_dash_/);
    const viewer = await t.graphql('{ viewer { email } }', undefined, { token });
    expect(viewer.body.data.viewer.email).toBe(demo.email);
  });

  it('the Products tab lists products once the placeholders are replaced; as it opens it answers 401 with a clear code', async () => {
    const headers = jsonc(HEADERS_WITH_TOKEN.replace(TOKEN_PLACEHOLDER, demo.token));
    const variables = jsonc(PRODUCTS_VARIABLES.replace(STORE_ID_PLACEHOLDER, demo.storeId));
    const res = await t.request('POST', '/graphql', { headers, body: { query: PRODUCTS_EXAMPLE, variables } });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.products.meta).toMatchObject({ page: 1, total: 3 });
    expect(res.body.data.products.items.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Organic Cotton T-Shirt', 'Wool Beanie', 'Ceramic Mug']));

    const untouched = await t.request('POST', '/graphql', { headers: jsonc(HEADERS_WITH_TOKEN), body: { query: PRODUCTS_EXAMPLE, variables: jsonc(PRODUCTS_VARIABLES) } });
    expect(untouched.status).toBe(401);
    expect(untouched.body.errors[0].extensions.code).toBe('invalid_token');
  });
});

describe('viewer without a token', () => {
  it('is null without errors for any selection (the prisma query it does not need is not an error)', async () => {
    for (const query of ['{ viewer { id } }', '{ viewer { id email memberships { role store { id name categories { slug } } } } }']) {
      const res = await t.graphql(query);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { viewer: null } });
    }
  });
});
