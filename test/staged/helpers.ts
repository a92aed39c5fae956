import type { StoreFixture } from '../helpers/fixtures';
import type { TestServer } from '../helpers/harness';
import { productPath } from '../products/helpers';

/** REST calls on one product as the store owner. */
export function productCalls(t: TestServer, a: StoreFixture) {
  const path = (id: string, tail = '') => `${productPath(a.storeId, id)}${tail}`;
  return {
    path,
    put: (id: string, body: Record<string, unknown>, query = '', headers: Record<string, string> = {}) =>
      t.request('PUT', `${path(id)}${query}`, { token: a.ownerToken, body, headers }),
    get: (id: string, tail = '') => t.request('GET', path(id, tail), { token: a.ownerToken }),
    post: (id: string, tail: string, body?: unknown, headers: Record<string, string> = {}) => t.request('POST', path(id, tail), { token: a.ownerToken, body, headers }),
    /** The product's change history, oldest first. */
    history: async (id: string, query = '') => {
      const res = await t.request('GET', `${path(id, '/changes')}${query}`, { token: a.ownerToken });
      if (res.status !== 200) throw new Error(`history: ${res.status} ${res.text}`);
      return (res.body.data as any[]).reverse();
    },
  };
}
