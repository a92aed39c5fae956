import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct } from './helpers';

/**
 * Lost updates on a product's parts: replaceProductVariants and setProductSeo
 * take the version the client read, as updateProduct does; a stale one is
 * precondition_failed with the current version, and nothing is written.
 */
let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t?.close());

const VERSION = 'query($storeId: ID!, $id: ID!) { product(storeId: $storeId, id: $id) { version seo { title } variants { sku } } }';
const VARIANTS = 'mutation($storeId: ID!, $id: ID!, $v: Int) { replaceProductVariants(storeId: $storeId, productId: $id, variants: [{ sku: "PV-1" }], expectedVersion: $v) { sku } }';
const SEO = 'mutation($storeId: ID!, $id: ID!, $v: Int) { setProductSeo(storeId: $storeId, productId: $id, input: { title: "Read me" }, expectedVersion: $v) { title } }';

it.each([
  ['replaceProductVariants', VARIANTS],
  ['setProductSeo', SEO],
])('%s: the version read writes; a stale one is precondition_failed and writes nothing', async (_name, mutation) => {
  const p = await createProduct(t, a, { name: 'Versioned' });
  const read = async () => (await t.graphql(VERSION, { storeId: a.storeId, id: p.id }, { token: a.ownerToken })).body.data.product;
  const v1 = (await read()).version;
  const stale = await t.graphql(mutation, { storeId: a.storeId, id: p.id, v: v1 - 1 }, { token: a.ownerToken });
  expect(stale.body.errors[0].extensions).toMatchObject({ code: 'precondition_failed', current_version: v1 });
  expect(await read()).toEqual({ version: v1, seo: null, variants: [] });
  const ok = await t.graphql(mutation, { storeId: a.storeId, id: p.id, v: v1 }, { token: a.ownerToken });
  expect(ok.body.errors).toBeUndefined();
  expect((await read()).version).toBe(v1 + 1);
});
