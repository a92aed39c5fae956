import { servedDataDir } from '../helpers/cli';
import { describeEmbeddedProcesses } from '../helpers/serverProcess';
import { migratedDataDir } from '../helpers/templates';

// Attributes, product types and a product's values, administered through the real CLI process: each write goes
// through the services (the change history records it, actor the operator), and the API then serves what the
// CLI wrote. Each data directory is served from the start: the commands go through the service's socket.

const problems = (stderr: string) => stderr.trim().replace(/^error: validation_failed: /, '').split('; ').sort();

describeEmbeddedProcesses('npm run cli: attributes and product types', () => {
  it('creates, shows, updates and deletes attributes; every flag problem at once, named by its flag', async () => {
    const { outcome, json: cli } = (await servedDataDir(migratedDataDir('catalog-cli-attributes-'))).cli;
    await cli('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--password', 'a long password');
    const store = await cli('store', 'create', '--name', 'Threads', '--currency', 'EUR', '--owner', 'owner@example.test');

    const material = await cli(
      'attributes', 'create', '--store', 'Threads', '--code', 'material', '--name', 'Material', '--type', 'dropdown', '--values', 'cotton:Cotton,linen:Linen', '--filterable', '--public',
    );
    expect(material).toMatchObject({
      code: 'material', name: 'Material', type: 'dropdown', unit: null, filterable: true, public: true, version: 1,
      values: [{ value: 'cotton', name: 'Cotton', hex: null }, { value: 'linen', name: 'Linen', hex: null }],
    });
    // A swatch value carries its colour after the name; a name may hold a colon; JSON takes a name with a comma.
    const color = await cli('attributes', 'create', '--store', store.id, '--code', 'color', '--name', 'Colour', '--type', 'swatch', '--values', 'red:Red:#FF0000,navy:Navy: deep:#000080');
    expect(color.values).toEqual([{ value: 'red', name: 'Red', hex: '#ff0000' }, { value: 'navy', name: 'Navy: deep', hex: '#000080' }]);
    const fit = await cli('attributes', 'create', '--store', store.id, '--code', 'fit', '--name', 'Fit', '--type', 'dropdown', '--values', '[{"value":"regular","name":"Regular, classic"},{"value":"slim","name":"Slim"}]');
    expect(fit.values.map((v: { name: string }) => v.name)).toEqual(['Regular, classic', 'Slim']);
    expect(await cli('attributes', 'create', '--store', store.id, '--code', 'capacity', '--name', 'Capacity', '--type', 'numeric', '--unit', 'ml')).toMatchObject({ type: 'numeric', unit: 'ml', filterable: false, public: false });

    // The service's problems, all at once, each named by the flag that gave it.
    const bad = await outcome('attributes', 'create', '--store', store.id, '--code', 'size', '--name', 'Size', '--type', 'swatch', '--values', 'small:Small', '--unit', 'cm');
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(problems(bad.stderr)).toEqual(
      [
        '--unit: only numeric attributes have a unit',
        '--values.0.hex: a swatch value needs a colour (#rrggbb)',
      ].sort(),
    );
    const reference = await outcome('attributes', 'create', '--store', store.id, '--code', 'related', '--name', 'Related', '--type', 'reference');
    expect(reference.stderr).toBe('error: validation_failed: --reference-type: a reference attribute points at product or category\n');
    // Mistakes in the flags themselves are usage errors (exit 2), before the database is opened.
    const unnamed = await outcome('attributes', 'create', '--store', store.id, '--code', 'size', '--name', 'Size', '--type', 'dropdown', '--values', 's:Small,m');
    expect(unnamed).toMatchObject({ code: 2, stdout: '' });
    expect(unnamed.stderr).toContain('"m" needs a display name after the value (value:Name)');
    const badType = await outcome('attributes', 'create', '--store', store.id, '--code', 'size', '--name', 'Size', '--type', 'dropdwn');
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('Allowed choices are plain_text, rich_text, numeric, boolean, date, date_time, dropdown, multiselect, swatch, reference');
    const typo = await outcome('attributes', 'create', '--store', store.id, '--cod', 'size');
    expect(typo).toMatchObject({ code: 2 });
    expect(typo.stderr).toContain('(Did you mean --code?)');
    const taken = await outcome('attributes', 'create', '--store', store.id, '--code', 'material', '--name', 'Again', '--type', 'plain_text');
    expect(taken).toMatchObject({ code: 1, stderr: 'error: code_taken: The code "material" is already used by another attribute of this store\n' });

    expect((await cli('attributes', 'list', '--store', store.id)).map((a: { code: string }) => a.code)).toEqual(['capacity', 'color', 'fit', 'material']);
    expect(await cli('attributes', 'show', '--store', store.id, '--attribute', material.id)).toEqual(material);
    expect(await cli('attributes', 'show', '--store', store.id, '--attribute', 'material')).toEqual(material);
    expect(await outcome('attributes', 'show', '--store', store.id, '--attribute', 'nope')).toMatchObject({ code: 1, stderr: 'error: not_found: No attribute "nope" in this store\n' });

    // Update: --no-public and --no-filterable turn a flag off; a flag not given leaves it unchanged; "" removes the unit.
    const renamed = await cli('attributes', 'update', '--store', store.id, '--attribute', 'material', '--name', 'Fabric', '--no-public', '--values', 'cotton:Cotton,linen:Linen,wool:Wool');
    expect(renamed).toMatchObject({ name: 'Fabric', public: false, filterable: true, version: 2 });
    expect(renamed.values.map((v: { value: string }) => v.value)).toEqual(['cotton', 'linen', 'wool']);
    expect(await cli('attributes', 'update', '--store', store.id, '--attribute', 'capacity', '--unit', '', '--filterable')).toMatchObject({ unit: null, filterable: true, public: false });
    const nothing = await outcome('attributes', 'update', '--store', store.id, '--attribute', 'material');
    expect(nothing).toMatchObject({ code: 2, stderr: 'error: give at least one of --name, --unit, --values, --reference-type, --filterable, --no-filterable, --public or --no-public (see --help)\n' });

    expect(await cli('attributes', 'delete', '--store', store.id, '--attribute', 'capacity')).toMatchObject({ code: 'capacity' });
    expect((await cli('attributes', 'list', '--store', store.id)).map((a: { code: string }) => a.code)).toEqual(['color', 'fit', 'material']);

    // Each write is in the store's history, made by the operator through the CLI.
    const history = await cli('changes', 'list', '--store', store.id, '--resource-type', 'attribute', '--limit', '10');
    expect(history.data.map((c: { type: string }) => c.type)).toEqual([
      'attribute.deleted', 'attribute.updated', 'attribute.updated', 'attribute.created', 'attribute.created', 'attribute.created', 'attribute.created',
    ]);
    expect(history.data[0]).toMatchObject({ source: 'cli', actor: { kind: 'operator' }, resource: { type: 'attribute' } });
  }, 600_000);

  it('product types with product and variant attributes; a product given its type and values; the API serves them', async () => {
    const server = await servedDataDir(migratedDataDir('catalog-cli-product-types-'));
    const { outcome, json: cli } = server.cli;
    await cli('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--password', 'a long password');
    const store = await cli('store', 'create', '--name', 'Threads', '--currency', 'EUR', '--owner', 'owner@example.test');
    await cli('category', 'create', '--store', store.id, '--slug', 'tees', '--name', 'Tees');
    const material = await cli('attributes', 'create', '--store', store.id, '--code', 'material', '--name', 'Material', '--type', 'dropdown', '--values', 'cotton:Cotton,linen:Linen');
    await cli('attributes', 'create', '--store', store.id, '--code', 'care', '--name', 'Care', '--type', 'plain_text');
    await cli('attributes', 'create', '--store', store.id, '--code', 'fit', '--name', 'Fit', '--type', 'dropdown', '--values', 'regular:Regular,slim:Slim');
    await cli('attributes', 'create', '--store', store.id, '--code', 'size', '--name', 'Size', '--type', 'dropdown', '--values', 's:S,m:M');

    // An attribute by id or code, each optionally :required (or :optional), in order.
    const tee = await cli('product-types', 'create', '--store', store.id, '--name', 'T-shirt', '--product-attributes', `${material.id}:required,care:optional`, '--variant-attributes', 'size');
    expect(tee).toMatchObject({
      name: 'T-shirt',
      product_attributes: [{ attribute_id: material.id, code: 'material', required: true }, { code: 'care', required: false }],
      variant_attributes: [{ code: 'size', required: false }],
      version: 1,
    });
    const unknown = await outcome('product-types', 'create', '--store', store.id, '--name', 'Hat', '--product-attributes', 'material,nope', '--variant-attributes', 'material');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: validation_failed: [^\n]+\n$/);
    expect(unknown.stderr).toContain('--product-attributes.1.code: no attribute "nope" in this store');
    expect(unknown.stderr).toContain('--variant-attributes.0: "material" is assigned already');
    const badSuffix = await outcome('product-types', 'create', '--store', store.id, '--name', 'Hat', '--product-attributes', 'material:mandatory');
    expect(badSuffix).toMatchObject({ code: 2, stdout: '' });
    expect(badSuffix.stderr).toContain('"material:mandatory": give an attribute code or id, optionally followed by :required or :optional.');

    // A product of the type, with its values checked against it, each problem named by flag and attribute.
    const wrong = await outcome('products', 'create', '--store', store.id, '--name', 'Tee', '--price', '25', '--category-slugs', 'tees', '--product-type', 'T-shirt', '--attributes', '{"material":"silk","colour":"red"}');
    expect(wrong.code).toBe(1);
    expect(problems(wrong.stderr)).toEqual(['--attributes.colour: is not an attribute of the product type at this level', '--attributes.material: must be one of: cotton, linen'].sort());
    const missingType = await outcome('products', 'create', '--store', store.id, '--name', 'Tee', '--price', '25', '--category-slugs', 'tees', '--product-type', 'Hoodie');
    expect(missingType).toMatchObject({ code: 1, stderr: 'error: not_found: No product type "Hoodie" in this store\n' });
    const notJson = await outcome('products', 'create', '--store', store.id, '--name', 'Tee', '--price', '25', '--category-slugs', 'tees', '--attributes', 'material=linen');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('must be a JSON object');
    const product = await cli('products', 'create', '--store', store.id, '--name', 'Tee', '--price', '25', '--category-slugs', 'tees', '--product-type', 'T-shirt', '--attributes', '{"material":"linen","care":"30 °C"}');
    expect(product).toMatchObject({ product_type_id: tee.id, attributes: { material: 'linen', care: '30 °C' } });

    // Values merge into the product's; null removes one; "" removes the type and every value.
    const merged = await cli('products', 'set-attributes', '--store', store.id, '--product', product.id, '--attributes', '{"material":"cotton","care":null}');
    expect(merged).toMatchObject({ product_type_id: tee.id, attributes: { material: 'cotton' }, version: 2 });
    expect(merged.attributes).not.toHaveProperty('care');
    const required = await outcome('products', 'set-attributes', '--store', store.id, '--product', product.id, '--attributes', '{"material":null}');
    expect(required.code).toBe(1);
    expect(problems(required.stderr)).toEqual([expect.stringMatching(/^--attributes\.material: /)]);
    expect(await outcome('products', 'set-attributes', '--store', store.id, '--product', product.id)).toMatchObject({ code: 2, stderr: 'error: give --product-type, --attributes or both (see --help)\n' });

    // A newly required attribute needs a default for the products lacking it; with one, they get it in the same write.
    const lacking = await outcome('product-types', 'update', '--store', store.id, '--product-type', 'T-shirt', '--product-attributes', 'material:required,care,fit:required');
    expect(lacking).toMatchObject({ code: 1 });
    expect(lacking.stderr).toMatch(/^error: attribute_values_missing: 1 product\(s\) of the type lack a value of the required attribute\(s\) fit/);
    const strayDefault = await outcome('product-types', 'update', '--store', store.id, '--product-type', 'T-shirt', '--product-attributes', 'material:required', '--defaults', '{"fit":"slim"}');
    expect(strayDefault).toMatchObject({ code: 2, stdout: '' });
    expect(strayDefault.stderr).toContain('--defaults names fit');
    const updated = await cli('product-types', 'update', '--store', store.id, '--product-type', 'T-shirt', '--name', 'Tee', '--product-attributes', 'material:required,fit:required', '--defaults', '{"fit":"slim"}');
    expect(updated).toMatchObject({ name: 'Tee', product_attributes: [{ code: 'material', required: true }, { code: 'fit', required: true }], variant_attributes: [{ code: 'size' }], version: 2 });
    expect((await cli('product-types', 'list', '--store', store.id)).map((t: { name: string }) => t.name)).toEqual(['Tee']);
    expect(await cli('product-types', 'show', '--store', store.id, '--product-type', tee.id)).toEqual(updated);

    // The API serves what the CLI wrote: the product followed its type's change.
    const { token } = await cli('token', 'issue', '--user', 'owner@example.test');
    const read = await fetch(`${server.url}/api/v1/merchant/stores/${store.id}/products/${product.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status).toBe(200);
    expect((await read.json()).data).toMatchObject({ product_type_id: tee.id, attributes: { material: 'cotton', fit: 'slim' } });

    expect(await outcome('product-types', 'delete', '--store', store.id, '--product-type', 'Tee')).toMatchObject({
      code: 1,
      stderr: 'error: product_type_in_use: The product type "Tee" is the type of 1 product(s) (test catalog included); give them another type or none first\n',
    });
    expect(await outcome('attributes', 'delete', '--store', store.id, '--attribute', 'material')).toMatchObject({
      code: 1,
      stderr: 'error: attribute_in_use: The attribute "material" is used by the product type(s) "Tee"; remove it from them first\n',
    });
    const untyped = await cli('products', 'set-attributes', '--store', store.id, '--product', product.id, '--product-type', '');
    expect(untyped).toMatchObject({ product_type_id: null, attributes: {} });
    expect(await cli('product-types', 'delete', '--store', store.id, '--product-type', 'Tee')).toMatchObject({ id: tee.id, name: 'Tee' });
    expect(await cli('product-types', 'list', '--store', store.id)).toEqual([]);
    const history = await cli('changes', 'list', '--store', store.id, '--resource-type', 'product_type', '--limit', '10');
    expect(history.data.map((c: { type: string }) => c.type)).toEqual(['product_type.deleted', 'product_type.updated', 'product_type.created']);
  }, 600_000);
});
