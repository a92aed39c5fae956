import { db } from '../../src/platform/db/client';
import type { StoreFixture } from '../helpers/fixtures';
import type { TestResponse, TestServer } from '../helpers/harness';

export const productsPath = (storeId: string) => `/api/v1/merchant/stores/${storeId}/products`;
export const productPath = (storeId: string, id: string) => `${productsPath(storeId)}/${id}`;

/** A UUID no product has. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** The GraphQL product selection mirroring the REST shape. */
export const GQL_PRODUCT = `id name description price currency inventoryQuantity lowStockThreshold status isActive publishedAt
  categorySlugs tags variantsCount version createdAt updatedAt`;

/** Creates a product over REST as the store owner and returns its REST body. */
export async function createProduct(t: TestServer, s: StoreFixture, fields: Record<string, unknown> = {}) {
  const res = await t.request('POST', productsPath(s.storeId), {
    token: s.ownerToken,
    body: { name: 'Trail Shoe', price: 89.9, inventory_quantity: 10, category_slugs: [s.categories[0]], ...fields },
  });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body.data as Record<string, any>;
}

/** The stored product row (with its category slugs), or null. */
export async function storedProduct(id: string) {
  const row = await db().product.findUnique({ where: { id }, include: { categories: { include: { category: true } } } });
  if (!row) return null;
  const { categories, ...rest } = row;
  return { ...rest, price: rest.price.toFixed(2), slugs: categories.map((c) => c.category.slug).sort() };
}

export const productCount = (storeId: string) => db().product.count({ where: { storeId } });

/** Asserts an RFC 9457 problem with the given status and code. */
export function expectProblem(res: TestResponse, status: number, code: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  expect(res.body.status).toBe(status);
  return res.body as { detail: string; errors?: { field: string; code: string; message: string }[]; [k: string]: unknown };
}

/** Asserts a GraphQL response failed with the given extensions.code and returns the first error. */
export function expectGqlError(res: TestResponse, code: string) {
  expect(res.body.errors?.[0]?.extensions?.code).toBe(code);
  return res.body.errors[0] as { message: string; extensions: Record<string, any> };
}

export function gqlData(res: TestResponse) {
  expect(res.body.errors).toBeUndefined();
  return res.body.data as Record<string, any>;
}
