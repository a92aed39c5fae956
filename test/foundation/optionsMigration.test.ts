import { cpSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { applyMigrations, MIGRATIONS_DIR } from '../../src/platform/db/migrate';
import { newTempDir, openEmptyDatabase } from '../helpers/templates';

/**
 * The migration that gave products their options derives them from the variants that existed: a database at the
 * migration before it, holding products whose variants carry option maps, comes out with each product's options
 * naming every option its variants use and every value, none lost and none invented.
 */
const MIGRATION = readdirSync(MIGRATIONS_DIR).find((m) => m.endsWith('_product_options_variant_fields_attributes'))!;

it('derives existing products\' options from their variants\' option maps, losslessly', async () => {
  const d = await openEmptyDatabase();
  const dir = newTempDir('catalog-migrations-');
  for (const m of readdirSync(MIGRATIONS_DIR)) if (m < MIGRATION) cpSync(path.join(MIGRATIONS_DIR, m), path.join(dir, m), { recursive: true });
  try {
    await applyMigrations(d.factory(), { migrationsDir: dir });
    const ids = { user: '10000000-0000-4000-8000-000000000001', store: '20000000-0000-4000-8000-000000000001' };
    const product = (i: number) => `30000000-0000-4000-8000-00000000000${i}`;
    await d.query(`INSERT INTO users (id, email, name) VALUES ('${ids.user}', 'owner@example.com', 'Owner')`);
    await d.query(`INSERT INTO stores (id, name, currency, owner_id) VALUES ('${ids.store}', 'Shop', 'EUR', '${ids.user}')`);
    for (const i of [1, 2, 3]) {
      await d.query(`INSERT INTO products (id, store_id, name, price, updated_at) VALUES ('${product(i)}', '${ids.store}', 'P${i}', 10, now())`);
    }
    const variant = (p: number, n: number, position: number, options: Record<string, string>) =>
      d.query(
        `INSERT INTO variants (id, store_id, product_id, sku, options, options_key, position, updated_at)
         VALUES ('40000000-0000-4000-8000-0000000${p}${String(n).padStart(4, '0')}', '${ids.store}', '${product(p)}', 'SKU-${p}-${n}', '${JSON.stringify(options)}', '${JSON.stringify(options)}-${n}', ${position}, now())`,
      );
    // Product 1: two options; values in the order of the first variant (by position) using them, not the insert order.
    await variant(1, 1, 2, { Size: 'L', Color: 'Red' });
    await variant(1, 2, 0, { Size: 'M', Color: 'Blue' });
    await variant(1, 3, 1, { Size: 'S', Color: 'Red' });
    await variant(1, 4, 3, { Size: 'M', Color: 'Green' });
    // Product 2: one variant with an empty map (no options); product 3: no variants.
    await variant(2, 1, 0, {});

    const applied = await applyMigrations(d.factory(), { migrationsDir: MIGRATIONS_DIR });
    expect(applied).toContain(MIGRATION);
    const rows = await d.query(`SELECT id::text AS id, options FROM products ORDER BY id`);
    expect(rows).toEqual([
      {
        id: product(1),
        options: [
          { name: 'Color', values: ['Blue', 'Red', 'Green'] },
          { name: 'Size', values: ['M', 'S', 'L'] },
        ],
      },
      { id: product(2), options: [] },
      { id: product(3), options: [] },
    ]);
    // Lossless: every variant's map names one value of each option, a value its option has.
    const variants = await d.query(`SELECT v.options AS map, p.options FROM variants v JOIN products p ON p.id = v.product_id`);
    for (const v of variants as { map: Record<string, string>; options: { name: string; values: string[] }[] }[]) {
      expect(Object.keys(v.map).sort()).toEqual(v.options.map((o) => o.name).sort());
      for (const o of v.options) expect(o.values).toContain(v.map[o.name]);
    }
  } finally {
    await d.close();
  }
}, 120_000);
