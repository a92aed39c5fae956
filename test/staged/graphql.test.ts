import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, expectGqlError, gqlData } from '../products/helpers';
import { filePart, makeImage, restUpload } from '../images/images';

let t: TestServer;
let a: StoreFixture;

beforeAll(async () => {
  t = await startTestServer();
  a = await createStoreFixture();
});
afterAll(() => t.close());

const gql = (query: string, variables: Record<string, unknown>) => t.graphql(query, { storeId: a.storeId, ...variables }, { token: a.ownerToken });

const UPDATE = `mutation($storeId: ID!, $id: ID!, $input: ProductUpdateInput!, $staged: Boolean, $applyTo: StagedApplyTo, $expectedVersion: Int) {
  updateProduct(storeId: $storeId, id: $id, input: $input, staged: $staged, applyTo: $applyTo, expectedVersion: $expectedVersion) { id name price hasStagedChanges version } }`;
const STAGED = `query($storeId: ID!, $id: ID!) {
  stagedProduct(storeId: $storeId, id: $id) { hasStagedChanges publishAt publishScope updatedBy product { name price hasStagedChanges version } changes { field previous next } } }`;
const CURRENT = `query($storeId: ID!, $id: ID!) { product(storeId: $storeId, id: $id) { name price hasStagedChanges version } }`;
const PUBLISH = `mutation($storeId: ID!, $id: ID!, $scope: StagedPublishScope, $publishAt: String) {
  publishStagedProduct(storeId: $storeId, id: $id, scope: $scope, publishAt: $publishAt) { name price hasStagedChanges version } }`;
const DISCARD = `mutation($storeId: ID!, $id: ID!) { discardStagedProduct(storeId: $storeId, id: $id) { name price hasStagedChanges } }`;
const VARIANTS = `mutation($storeId: ID!, $productId: ID!, $variants: [VariantPatchInput!]!, $staged: Boolean) {
  updateProductVariants(storeId: $storeId, productId: $productId, variants: $variants, staged: $staged) { id price compareAtPrice } }`;

describe('staged changes over GraphQL', () => {
  it('stages with staged: true, reads stagedProduct with its changes, and publishes with scope PRICES', async () => {
    const p = await createProduct(t, a, { price: 10 });
    const staged = gqlData(await gql(UPDATE, { id: p.id, input: { price: '12.50', name: 'Staged' }, staged: true }));
    expect(staged.updateProduct).toMatchObject({ name: 'Staged', price: '12.50', hasStagedChanges: true, version: p.version + 1 });
    expect(gqlData(await gql(CURRENT, { id: p.id })).product).toEqual({ name: 'Trail Shoe', price: '10.00', hasStagedChanges: true, version: p.version + 1 });

    const read = gqlData(await gql(STAGED, { id: p.id })).stagedProduct;
    expect(read).toMatchObject({ hasStagedChanges: true, publishAt: null, publishScope: null, updatedBy: expect.any(String) });
    expect(read.product).toEqual({ name: 'Staged', price: '12.50', hasStagedChanges: true, version: p.version + 1 });
    expect(read.changes).toEqual([
      { field: 'name', previous: 'Trail Shoe', next: 'Staged' },
      { field: 'price', previous: 10, next: 12.5 },
    ]);

    const published = gqlData(await gql(PUBLISH, { id: p.id, scope: 'PRICES' })).publishStagedProduct;
    expect(published).toEqual({ name: 'Trail Shoe', price: '12.50', hasStagedChanges: true, version: p.version + 2 });
    expect(gqlData(await gql(STAGED, { id: p.id })).stagedProduct.changes).toEqual([{ field: 'name', previous: 'Trail Shoe', next: 'Staged' }]);
    expect(gqlData(await gql(DISCARD, { id: p.id })).discardStagedProduct).toEqual({ name: 'Trail Shoe', price: '12.50', hasStagedChanges: false });
  });

  it('stages variant prices, and answers staged_changes_pending to a live write, BOTH applying it to both versions', async () => {
    const p = await createProduct(t, a, { price: 10 });
    const put = await t.request('PUT', `/api/v1/merchant/stores/${a.storeId}/products/${p.id}/variants`, { token: a.ownerToken, body: { variants: [{ sku: `G-${p.id.slice(0, 8)}` }] } });
    const variantId = put.body.data[0].id;
    const staged = gqlData(await gql(VARIANTS, { productId: p.id, variants: [{ id: variantId, price: '8.00', compareAtPrice: '9.00' }], staged: true }));
    expect(staged.updateProductVariants).toEqual([{ id: variantId, price: '8.00', compareAtPrice: '9.00' }]);

    expectGqlError(await gql(UPDATE, { id: p.id, input: { price: '11' } }), 'staged_changes_pending');
    const both = gqlData(await gql(UPDATE, { id: p.id, input: { price: '11' }, applyTo: 'BOTH' }));
    expect(both.updateProduct).toMatchObject({ price: '11.00', hasStagedChanges: true });
    const changes = gqlData(await gql(STAGED, { id: p.id })).stagedProduct.changes;
    expect(changes).toEqual([
      { field: `variants.${variantId}.price`, previous: null, next: 8 },
      { field: `variants.${variantId}.compare_at_price`, previous: null, next: 9 },
    ]);
  });

  it('reports not_stageable for fields a staged version does not hold, and keeps every check of the live write', async () => {
    const p = await createProduct(t, a);
    const err = expectGqlError(await gql(UPDATE, { id: p.id, input: { inventoryQuantity: 3 }, staged: true }), 'not_stageable');
    expect(err.extensions.errors).toEqual([expect.objectContaining({ field: 'inventoryQuantity', code: 'not_stageable' })]);
    expectGqlError(await gql(UPDATE, { id: p.id, input: { categorySlugs: ['missing'] }, staged: true }), 'unknown_category');
    expectGqlError(await gql(UPDATE, { id: p.id, input: { name: 'x' }, staged: true, expectedVersion: p.version + 5 }), 'precondition_failed');
    expect(gqlData(await gql(CURRENT, { id: p.id })).product.hasStagedChanges).toBe(false);
  });

  it('records product.staged, never product.updated, for staged writes', async () => {
    const p = await createProduct(t, a);
    await gql(UPDATE, { id: p.id, input: { name: 'One' }, staged: true });
    await gql(UPDATE, { id: p.id, input: { name: 'Two' }, staged: true });
    const res = await gql(`query($storeId: ID!, $id: ID!) { changes(storeId: $storeId, filter: { resourceType: product, resourceId: $id }) { edges { node { type staged changes { field previous next } } } } }`, { id: p.id });
    const types = gqlData(res).changes.edges.map((e: any) => e.node);
    expect(types.map((n: any) => [n.type, n.staged])).toEqual([
      ['product.staged', true],
      ['product.staged', true],
      ['product.created', false],
    ]);
    expect(types[0].changes).toEqual([{ field: 'name', previous: 'One', next: 'Two' }]);
  });
});

describe('staged image order and alt texts', () => {
  const ARRANGE = `mutation($storeId: ID!, $productId: ID!, $images: [ProductImageArrangement!]!, $staged: Boolean) {
    arrangeProductImages(storeId: $storeId, productId: $productId, images: $images, staged: $staged) { id alt position } }`;
  const IMAGES = `query($storeId: ID!, $id: ID!) { product(storeId: $storeId, id: $id) { images { id alt } } stagedProduct(storeId: $storeId, id: $id) { product { images { id alt } } changes { field } } }`;

  it('arranges the staged version only, until published', async () => {
    const p = await createProduct(t, a, { name: 'Pictured' });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await restUpload(t, a.storeId, a.ownerToken, [{ name: 'product_id', value: p.id }, filePart(await makeImage('png', 10 + i, 10), `p${i}.png`, 'image/png')]);
      ids.push(res.body.data.id);
    }
    const staged = gqlData(await gql(ARRANGE, { productId: p.id, images: [{ id: ids[1], alt: 'Back' }, { id: ids[0] }], staged: true }));
    expect(staged.arrangeProductImages).toEqual([
      { id: ids[1], alt: 'Back', position: 0 },
      { id: ids[0], alt: null, position: 1 },
    ]);
    const read = gqlData(await gql(IMAGES, { id: p.id }));
    expect(read.product.images).toEqual([{ id: ids[0], alt: null }, { id: ids[1], alt: null }]);
    expect(read.stagedProduct.product.images).toEqual([{ id: ids[1], alt: 'Back' }, { id: ids[0], alt: null }]);
    expect(read.stagedProduct.changes).toEqual([{ field: 'images' }]);
    gqlData(await gql(PUBLISH, { id: p.id }));
    expect(gqlData(await gql(IMAGES, { id: p.id })).product.images).toEqual([{ id: ids[1], alt: 'Back' }, { id: ids[0], alt: null }]);
  });
});
