import { COLUMNS } from '../../src/catalog/transfer/format';

/** The bytes of a text, as an import reads a file: in chunks, here of `size` bytes (a multi-byte character may be split). */
export async function* chunksOf(text: string | Buffer, size = 64 * 1024): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const cell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A CSV with the given columns and rows (cells as strings). */
export const csv = (columns: readonly string[], rows: (string | number)[][]) =>
  [columns.join(','), ...rows.map((r) => r.map((c) => cell(String(c))).join(','))].join('\n') + '\n';

/** n rows of new products: sku, name, price, inventory, category, tags, variants. */
export function generatedCsv(n: number, category = 'shoes', prefix = 'GEN') {
  const columns = ['sku', 'name', 'description', 'price', 'inventory_quantity', 'category_slugs', 'tags', 'variants', 'seo_slug'];
  const rows: string[] = [columns.join(',')];
  for (let i = 0; i < n; i++) {
    const sku = `${prefix}-${i}`;
    const variants = JSON.stringify([{ sku, options: { size: 'M' } }, { sku: `${sku}-L`, options: { size: 'L' }, price: 12.5 }]);
    rows.push([sku, `Product ${i}`, `Generated product ${i}`, (10 + (i % 90)).toFixed(2), String(i % 50), category, 'bulk|generated', cell(variants), `${prefix.toLowerCase()}-product-${i}`].join(','));
  }
  return rows.join('\n') + '\n';
}

export { COLUMNS };
