import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createKey } from '../public/helpers';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';

/**
 * A partner's typed client: types generated from the live document by openapi-typescript with its defaults, and
 * openapi-fetch calling the service with them. The README's tour (create with only the required fields, publish,
 * list, read with a publishable key) must compile under strict TypeScript and run.
 */

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
let dir: string;

let t: TestServer;
let s: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture();
  dir = mkdtempSync(path.join(tmpdir(), 'generated-client-'));
  // The client resolves openapi-fetch (and tsx) as a project that installed them would.
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
});
afterAll(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

const CLIENT = `
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

type Product = components['schemas']['Product'];

export async function tour(baseUrl: string, token: string, storeId: string, category: string, publishableKey: string) {
  const merchant = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token}\` } });
  // Only what a product needs: status, inventory and the low-stock threshold have defaults.
  const created = await merchant.POST('/api/v1/merchant/stores/{storeId}/products', {
    params: { path: { storeId } },
    body: { name: 'Boots', price: 89, category_slugs: [category] },
  });
  if (!created.data) throw new Error(\`create: \${created.error.code} \${created.error.detail}\`);
  const product: Product = created.data.data;
  // A field with a default is always in a response.
  const status: 'draft' | 'active' | 'archived' = product.status;
  const threshold: number = product.low_stock_threshold;

  const published = await merchant.POST('/api/v1/merchant/stores/{storeId}/products/{productId}/publish', {
    params: { path: { storeId, productId: product.id } },
  });
  if (!published.data) throw new Error(\`publish: \${published.error.code}\`);

  const list = await merchant.GET('/api/v1/merchant/stores/{storeId}/products', {
    params: { path: { storeId }, query: { is_active: 'true', sort: '-created_at' } },
  });
  if (!list.data) throw new Error(\`list: \${list.error.code}\`);

  const partner = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${publishableKey}\` } });
  const read = await partner.GET('/api/public/v1/products/{productId}', { params: { path: { productId: product.id } } });
  if (!read.data) throw new Error(\`public read: \${read.error.code}\`);
  const publicList = await partner.GET('/api/public/v1/products', { params: { query: { search: 'boots' } } });
  if (!publicList.data) throw new Error(\`public list: \${publicList.error.code}\`);
  const names = (publicList.data.data ?? []).map((p) => p.name);

  return {
    status,
    threshold,
    published: published.data.data.status,
    listed: list.data.data.map((p) => p.id),
    total: list.data.meta.total,
    publicName: read.data.data?.name,
    publicNames: names,
  };
}
`;

const RUN = `
import { tour } from './client';
const [baseUrl, token, storeId, category, key] = process.argv.slice(2);
tour(baseUrl, token, storeId, category, key).then((r) => console.log(JSON.stringify(r)));
`;

it('a client generated with openapi-typescript defaults compiles for the README tour and runs it', async () => {
  const doc = await t.request('GET', '/api/openapi.json');
  writeFileSync(path.join(dir, 'openapi.json'), doc.text);
  await run(process.execPath, [path.join(root, 'node_modules/openapi-typescript/bin/cli.js'), path.join(dir, 'openapi.json'), '-o', path.join(dir, 'schema.d.ts')], { cwd: dir });
  writeFileSync(path.join(dir, 'client.ts'), CLIENT);
  writeFileSync(path.join(dir, 'run.ts'), RUN);

  const tsc = await run(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'client.ts'],
    { cwd: dir },
  ).then(
    () => '',
    (err: { stdout: string }) => err.stdout,
  );
  expect(tsc).toBe('');

  const key = await createKey(t, s, { type: 'publishable', mode: 'live' });
  const out = await run(process.execPath, ['--import', 'tsx', 'run.ts', t.url, s.ownerToken, s.storeId, s.categories[0], key.secret], { cwd: dir });
  const result = JSON.parse(out.stdout);
  expect(result).toEqual({
    status: 'draft',
    threshold: 5,
    published: 'active',
    listed: [expect.any(String)],
    total: 1,
    publicName: 'Boots',
    publicNames: ['Boots'],
  });
}, 180_000);
