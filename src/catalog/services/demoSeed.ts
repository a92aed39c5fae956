/** The demo store seeded on the first start. */

import { issueDashboardToken } from '../../access/auth/dashboardTokens';
import type { RequestContext } from '../../platform/context';
import { createCategory } from './categories';
import { createProduct } from './productCreate';
import { createStore, createUser } from '../../access/services/stores';

const DEMO_EMAIL = 'owner@demo.store';
const DEMO_PASSWORD = 'demo-password';

/** Seeds a demo store on first start (when there are no users). Returns the demo credentials, or null if already seeded. */
export async function seedDemo(ctx: RequestContext) {
  if ((await ctx.db.user.count()) > 0) return null;
  const owner = await createUser(ctx, { email: DEMO_EMAIL, name: 'Demo Owner', password: DEMO_PASSWORD });
  const store = await createStore(ctx, { name: 'Demo Store', currency: 'USD', ownerId: owner.id });
  for (const [slug, name] of [['apparel', 'Apparel'], ['accessories', 'Accessories'], ['home', 'Home']]) {
    await createCategory(ctx, { storeId: store.id, slug, name });
  }
  const samples = [
    { name: 'Organic Cotton T-Shirt', price: '24.00', inventoryQuantity: 120, tags: ['cotton', 'summer'], categorySlugs: ['apparel'], status: 'active' as const },
    { name: 'Wool Beanie', price: '18.50', inventoryQuantity: 3, tags: ['wool', 'winter'], categorySlugs: ['accessories', 'apparel'], status: 'active' as const },
    { name: 'Ceramic Mug', price: '12.00', inventoryQuantity: 40, tags: ['kitchen'], categorySlugs: ['home'], status: 'draft' as const },
  ];
  for (const s of samples) await createProduct(ctx, store.id, { ...s, description: `${s.name} from the demo store.` });
  const { token } = await issueDashboardToken(ctx, owner.id, { name: 'demo' });
  return { token, storeId: store.id, email: DEMO_EMAIL, password: DEMO_PASSWORD };
}
