import { issueDashboardToken } from '../auth/dashboardTokens';
import { createProduct } from '../services/products';
import { createStore, createUser } from '../services/stores';
import { db } from './client';

export const DEMO_EMAIL = 'owner@demo.store';
export const DEMO_PASSWORD = 'demo-password';

/** Seeds a demo store on first start (when there are no users). Returns the demo credentials, or null if already seeded. */
export async function seedDemo() {
  if ((await db().user.count()) > 0) return null;
  const owner = await createUser({ email: DEMO_EMAIL, name: 'Demo Owner', password: DEMO_PASSWORD });
  const store = await createStore({ name: 'Demo Store', currency: 'USD', ownerId: owner.id });
  await db().category.createMany({
    data: [
      { storeId: store.id, slug: 'apparel', name: 'Apparel' },
      { storeId: store.id, slug: 'accessories', name: 'Accessories' },
      { storeId: store.id, slug: 'home', name: 'Home' },
    ],
  });
  const samples = [
    { name: 'Organic Cotton T-Shirt', price: '24.00', inventoryQuantity: 120, tags: ['cotton', 'summer'], categorySlugs: ['apparel'], status: 'active' as const },
    { name: 'Wool Beanie', price: '18.50', inventoryQuantity: 3, tags: ['wool', 'winter'], categorySlugs: ['accessories', 'apparel'], status: 'active' as const },
    { name: 'Ceramic Mug', price: '12.00', inventoryQuantity: 40, tags: ['kitchen'], categorySlugs: ['home'], status: 'draft' as const },
  ];
  for (const s of samples) await createProduct(store.id, { ...s, description: `${s.name} from the demo store.` });
  const { token } = await issueDashboardToken(owner.id, { name: 'demo' });
  return { token, storeId: store.id, email: DEMO_EMAIL, password: DEMO_PASSWORD };
}
