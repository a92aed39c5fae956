import { issueDashboardToken } from '../../src/access/auth/dashboardTokens';
import type { Permission } from '../../src/kernel/access';
import { db } from '../../src/platform/db/client';
import { addMember, createStore, createUser } from '../../src/access/services/stores';
import { testContext } from './context';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export interface StoreFixture {
  storeId: string;
  ownerId: string;
  ownerToken: string;
  /** Staff member holding manage_products. */
  staffToken: string;
  /** Staff member without any permission. */
  viewerToken: string;
  categories: string[];
}

/** A store with an owner, two staff members (with and without manage_products) and three categories. */
export async function createStoreFixture(opts: { currency?: string; categories?: string[] } = {}): Promise<StoreFixture> {
  const owner = await createUser(testContext(), { email: `owner-${unique()}@example.test`, name: 'Owner', password: 'correct horse battery' });
  const store = await createStore(testContext(), { name: `Store ${unique()}`, currency: opts.currency ?? 'EUR', ownerId: owner.id });
  const categories = opts.categories ?? ['shoes', 'shirts', 'hats'];
  await db().category.createMany({ data: categories.map((slug) => ({ storeId: store.id, slug, name: slug })) });
  const staffToken = await memberToken(store.id, ['manage_products']);
  const viewerToken = await memberToken(store.id, []);
  const { token: ownerToken } = await issueDashboardToken(testContext(), owner.id);
  return { storeId: store.id, ownerId: owner.id, ownerToken, staffToken, viewerToken, categories };
}

/** A new user who is a member of the store with the given permissions; returns their token. */
export async function memberToken(storeId: string, permissions: Permission[]): Promise<string> {
  const user = await createUser(testContext(), { email: `staff-${unique()}@example.test`, name: 'Staff' });
  await addMember(testContext(), { storeId, userId: user.id, permissions });
  return (await issueDashboardToken(testContext(), user.id)).token;
}
