/** A translation field's path (name, seo.slug, options.Size, attributes.care, values.cotton) in the editor's words. */
export function translationFieldLabel(field: string): string {
  const fixed: Record<string, string> = {
    name: 'Name',
    description: 'Description',
    'seo.title': 'Page title',
    'seo.description': 'Meta description',
    'seo.slug': 'URL slug',
  };
  if (fixed[field]) return fixed[field];
  const [head, ...rest] = field.split('.');
  const name = rest.join('.');
  if (head === 'options') return `Option “${name}”`;
  if (head === 'attributes') return `Attribute “${name}”`;
  if (head === 'values') return `Value “${name}”`;
  return field;
}

export const KIND_WORDS: Record<string, { one: string; many: string }> = {
  product: { one: 'Product', many: 'Products' },
  category: { one: 'Category', many: 'Categories' },
  attribute: { one: 'Attribute', many: 'Attributes' },
};
