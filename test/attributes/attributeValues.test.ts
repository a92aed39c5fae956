import { checkAttributeValues, sanitizeRichText, variantAttributeErrors, type AttributeDefinition, type ProductTypeDefinition } from '../../src/catalog/services/attributeValues';

// The pure checks the product, variant and product type writes share: definitions in, errors and stored values out.

const def = (code: string, type: AttributeDefinition['type'], extra: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  id: `id-${code}`,
  code,
  type,
  values: [],
  referenceType: null,
  required: false,
  ...extra,
});

const size = def('size', 'dropdown', { values: [{ value: 's', name: 'S' }, { value: 'm', name: 'M' }], required: true });
const shade = def('shade', 'swatch', { values: [{ value: 'red', name: 'Red', hex: '#ff0000' }] });
const type: ProductTypeDefinition = { id: 't', productAttributes: [def('material', 'plain_text')], variantAttributes: [size, shade] };

describe('variantAttributeErrors', () => {
  it('checks one variant against the variant-level attributes, naming fields under the prefix', () => {
    expect(variantAttributeErrors(type, { size: 'm', shade: 'red' }, 'variants.2.attributes')).toEqual({ errors: [], values: { size: 'm', shade: 'red' }, references: [] });
    expect(variantAttributeErrors(type, { shade: 'blue', material: 'x' }, 'variants.0.attributes').errors).toEqual([
      { field: 'variants.0.attributes.shade', code: 'invalid_value', message: 'must be one of: red' },
      { field: 'variants.0.attributes.material', code: 'unknown_attribute', message: 'is not an attribute of the product type at this level' },
      { field: 'variants.0.attributes.size', code: 'required', message: 'is required by the product type' },
    ]);
  });

  it('refuses values without a product type, and accepts none', () => {
    expect(variantAttributeErrors(null, { size: 'm' }, 'attributes').errors).toEqual([{ field: 'attributes', code: 'product_type_required', message: expect.any(String) }]);
    expect(variantAttributeErrors(null, {}, 'attributes').errors).toEqual([]);
  });
});

describe('checkAttributeValues', () => {
  it('merges into current values, clears with null, and drops codes the definitions lack', () => {
    const defs = [def('a', 'numeric'), def('b', 'boolean'), def('c', 'multiselect', { values: ['x', 'y', 'z'].map((v) => ({ value: v, name: v })) })];
    const r = checkAttributeValues(defs, { a: 1, b: true, gone: 'old' }, { b: null, c: ['z', 'x', 'z'] }, 'attributes');
    expect(r).toEqual({ errors: [], values: { a: 1, c: ['x', 'z'] }, references: [] });
    expect(checkAttributeValues(defs, { c: ['x'] }, { c: [] }, 'attributes').values).toEqual({});
  });

  it('normalises dates and times, and returns references to look up', () => {
    const defs = [def('d', 'date'), def('t', 'date_time'), def('r', 'reference', { referenceType: 'product' })];
    const id = '3f8e2a4c-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
    const r = checkAttributeValues(defs, {}, { d: '2024-02-29', t: '2026-01-01T00:30:00-01:00', r: id }, 'attributes');
    expect(r.values).toEqual({ d: '2024-02-29', t: '2026-01-01T01:30:00.000Z', r: id });
    expect(r.references).toEqual([{ field: 'attributes.r', type: 'product', id }]);
    expect(checkAttributeValues(defs, {}, { d: '2023-02-29', t: '2026-01-01', r: 'x' }, 'attributes').errors.map((e) => e.code)).toEqual(['invalid_value', 'invalid_value', 'unknown_reference']);
  });
});

describe('sanitizeRichText', () => {
  it('keeps formatting and safe links, removes scripts, handlers and javascript: URLs', () => {
    expect(sanitizeRichText('<h2 style="x">Care</h2><ul><li onmouseover="x()">Cold <em>wash</em></li></ul><img src=x onerror=alert(1)><iframe src="https://e.test"></iframe>')).toBe(
      '<h2>Care</h2><ul><li>Cold <em>wash</em></li></ul>',
    );
    expect(sanitizeRichText('<a href="javascript:alert(1)" onclick="x">a</a><a href="mailto:a@b.test">m</a>')).toBe('<a rel="noopener noreferrer">a</a><a href="mailto:a@b.test" rel="noopener noreferrer">m</a>');
  });
});
