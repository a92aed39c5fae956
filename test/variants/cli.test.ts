import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gtin13 } from '../../src/kernel/gtin';
import { sharedCliDatabase } from '../helpers/cli';
import { createStoreFixture } from '../helpers/fixtures';
import { newTempDir } from '../helpers/templates';

// A product's options and variants administered through the real CLI process, on the database under test: each
// command calls the service REST calls (same checks, same event), and the API then serves what the CLI wrote.
// One process per command (a usage error's exits before the database is opened): each costs seconds.

const problems = (stderr: string) => stderr.trim().replace(/^error: validation_failed: /, '').split('; ').sort();

describe('npm run cli -- products set-options, generate-variants, update-variants', () => {
  it('sets options, generates the variants, updates many at once; every problem at once, named by its flag', async () => {
    const shared = await sharedCliDatabase('catalog-cli-variants-');
    const { outcome, json: cli } = shared.cli;
    const server = await shared.serve();
    try {
      const store = await createStoreFixture({ categories: ['tees'] });
      // Created with its options (set-options below changes them).
      const product = await cli('products', 'create', '--store', store.storeId, '--name', 'Tee', '--price', '25', '--category-slugs', 'tees', '--options', 'Size:S,M;Color:Red,Blue');
      expect(product).toMatchObject({ options: [{ name: 'Size', values: ['S', 'M'] }, { name: 'Color', values: ['Red', 'Blue'] }], variants_count: 0, version: 1 });
      const args = ['--store', store.storeId, '--product', product.id];

      const generated = await cli('products', 'generate-variants', ...args, '--sku-pattern', 'TEE-{Size}-{Color}', '--inventory-quantity', '4', '--price', '21.50');
      expect(generated).toMatchObject({ product_id: product.id, created: 4 });
      expect(generated.variants.map((v: Record<string, unknown>) => [v.sku, v.title, v.options, v.price, v.inventory_quantity, v.position])).toEqual([
        ['TEE-S-Red', 'S / Red', { Size: 'S', Color: 'Red' }, 21.5, 4, 0],
        ['TEE-S-Blue', 'S / Blue', { Size: 'S', Color: 'Blue' }, 21.5, 4, 1],
        ['TEE-M-Red', 'M / Red', { Size: 'M', Color: 'Red' }, 21.5, 4, 2],
        ['TEE-M-Blue', 'M / Blue', { Size: 'M', Color: 'Blue' }, 21.5, 4, 3],
      ]);

      // The options' problems, all at once, each named by --options and the place in the list.
      const duplicated = await outcome('products', 'set-options', ...args, '--options', '[{"name":"Size","values":["S","s"]},{"name":"size","values":["X"]}]');
      expect(duplicated).toMatchObject({ code: 1, stdout: '' });
      expect(problems(duplicated.stderr)).toEqual(
        [
          '--options.0.values.1: "s" is also options.0.values.0 (values are compared without case)',
          '--options.1.name: "size" is also the name of options.0 (names are compared without case)',
        ].sort(),
      );
      // A malformed flag is a usage error (exit 2), before the database is opened.
      const unnamed = await outcome('products', 'set-options', ...args, '--options', 'Size:S,M;Red,Blue');
      expect(unnamed).toMatchObject({ code: 2, stdout: '' });
      expect(unnamed.stderr).toContain('"Red,Blue" needs the option\'s name, then its values (Name:value,value).');

      // A rename (JSON, in the REST names) is carried to the variants in the same write.
      const renamed = await cli('products', 'set-options', ...args, '--options', '[{"name":"Size","values":["S","M"]},{"name":"Colour","renamed_from":"Color","values":["Crimson","Blue"],"renamed_values":{"Red":"Crimson"}}]');
      expect(renamed).toMatchObject({ options: [{ name: 'Size', values: ['S', 'M'] }, { name: 'Colour', values: ['Crimson', 'Blue'] }], variants_count: 4, version: 3 });
      const [sRed, sBlue] = generated.variants;

      // Every error of every item at once, named --variants.N.field as sent; nothing is written.
      const wrong = await outcome(
        'products', 'update-variants', ...args,
        '--variants', JSON.stringify([{ id: sRed.id, options: { Size: 'XL', Colour: 'Crimson' }, compare_at_price: 20 }, { id: product.id, inventory_quantity: 1 }]),
      );
      expect(wrong).toMatchObject({ code: 1, stdout: '' });
      expect(problems(wrong.stderr)).toEqual(
        [
          '--variants.0.compare_at_price: must be greater than the price the variant sells at (21.5)',
          '--variants.0.options: "XL" is not a value of option "Size" (S, M)',
          '--variants.1.id: is not a variant of this product',
        ].sort(),
      );

      // From a file (@path), in the names the CLI prints: a variant as printed can be sent back, its times ignored.
      const file = path.join(newTempDir('catalog-cli-variants-file-'), 'variants.json');
      const barcode = gtin13('400638133393');
      writeFileSync(file, JSON.stringify([{ ...sBlue, options: { Size: 'S', Colour: 'Blue' }, inventory_quantity: 12, compare_at_price: 29.9 }, { id: sRed.id, barcode, weight: { value: 180, unit: 'g' } }]));
      const updated = await cli('products', 'update-variants', ...args, '--variants', `@${file}`);
      expect(updated.map((v: Record<string, unknown>) => [v.sku, v.inventory_quantity, v.compare_at_price, v.barcode, v.weight])).toEqual([
        ['TEE-S-Blue', 12, 29.9, null, null],
        ['TEE-S-Red', 4, null, barcode, { value: 180, unit: 'g' }],
      ]);

      // The API serves what the CLI wrote, and the history has each write, made by the operator through the CLI.
      const get = async (rest: string) => {
        const res = await fetch(`${server.url}/api/v1/merchant/stores/${store.storeId}/products/${product.id}${rest}`, { headers: { authorization: `Bearer ${store.ownerToken}` } });
        expect(res.status).toBe(200);
        return (await res.json()).data;
      };
      const variants = await get('/variants');
      expect(variants.map((v: Record<string, unknown>) => [v.sku, v.options, v.inventory_quantity])).toEqual([
        ['TEE-S-Red', { Size: 'S', Colour: 'Crimson' }, 4],
        ['TEE-S-Blue', { Size: 'S', Colour: 'Blue' }, 12],
        ['TEE-M-Red', { Size: 'M', Colour: 'Crimson' }, 4],
        ['TEE-M-Blue', { Size: 'M', Colour: 'Blue' }, 4],
      ]);
      expect((await get('')).version).toBe(4);
      const history = await get('/changes');
      expect(history.map((c: { type: string }) => c.type)).toEqual(['product.variants_updated', 'product.options_updated', 'product.variants_updated', 'product.created']);
      for (const change of history) expect(change).toMatchObject({ source: 'cli', actor: { kind: 'operator' } });
    } finally {
      await server.close();
      await shared.drop();
    }
  }, 300_000);
});
