import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/format';

/**
 * A recorded change told in words: the field's name as the editor labels it (not its API code), the values as
 * the merchant reads them (times in their locale and zone, images as thumbnails, a search listing by its parts).
 */

const FIELD_NAMES: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  price: 'Price',
  prices: 'Prices in other currencies',
  inventory_quantity: 'Inventory',
  low_stock_threshold: 'Low-stock threshold',
  low_stock: 'Low stock',
  status: 'Status',
  is_active: 'For sale',
  published_at: 'Published on',
  publish_at: 'Scheduled to publish',
  unpublish_at: 'Scheduled to unpublish',
  category_slugs: 'Categories',
  tags: 'Tags',
  images: 'Images',
  seo: 'Search engine listing',
  variants: 'Variants',
  variants_count: 'Number of variants',
  options: 'Options',
  attributes: 'Attributes',
  product_type_id: 'Product type',
  translations: 'Translations',
  has_staged_changes: 'Staged changes',
  version: 'Version',
  updated_at: 'Last updated',
};

const SEO_PARTS: Record<string, string> = {
  title: 'page title',
  description: 'meta description',
  slug: 'URL slug',
  canonical_url: 'canonical URL',
  og_image_url: 'social image',
  noindex: 'hidden from search engines',
};

const STATUS: Record<string, string> = { active: 'Active', draft: 'Draft', archived: 'Archived' };

/** Bookkeeping a merchant does not need to read in a change (the version and time are in the entry's head). */
export const HIDDEN_FIELDS = new Set(['version', 'updated_at', 'has_staged_changes']);

export function fieldName(field: string): string {
  const [head, tail] = field.split(/\.(.+)/);
  if (head === 'prices' && tail) return `Price in ${tail}`;
  const name = FIELD_NAMES[head!] ?? head!.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return tail ? `${name}: ${tail.replace(/_/g, ' ')}` : name;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function valueInWords(field: string, value: unknown): ReactNode {
  const v = value as Json | undefined;
  if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) return <span className="muted">none</span>;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    if (field === 'status') return STATUS[v] ?? v;
    if (ISO.test(v)) return formatDateTime(v);
    return clip(v);
  }
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'string')) return v.join(', ');
    if (field === 'images' || v.every((x) => x && typeof x === 'object' && 'url' in x)) return <Thumbnails images={v as { url?: Json; alt?: Json }[]} />;
    if (field === 'variants') return `${v.length} variant${v.length === 1 ? '' : 's'}: ${clip(v.map((x) => (x && typeof x === 'object' && !Array.isArray(x) ? String(x.sku ?? '') : '')).join(', '))}`;
    if (field === 'options') return v.map((o) => (o && typeof o === 'object' && !Array.isArray(o) ? `${String(o.name)} (${Array.isArray(o.values) ? o.values.join(', ') : ''})` : '')).join('; ');
    if (field === 'prices') return v.map((p) => (p && typeof p === 'object' && !Array.isArray(p) ? `${String(p.amount)} ${String(p.currency)}` : '')).join(', ');
    return `${v.length} item${v.length === 1 ? '' : 's'}`;
  }
  if (field === 'seo') {
    const parts = Object.entries(v)
      .filter(([key, part]) => key in SEO_PARTS && part !== null && part !== '' && part !== false)
      .map(([key, part]) => (part === true ? SEO_PARTS[key] : `${SEO_PARTS[key]} “${clip(String(part), 80)}”`));
    return parts.length ? parts.join('; ') : <span className="muted">none</span>;
  }
  return clip(
    Object.entries(v)
      .map(([key, part]) => `${key.replace(/_/g, ' ')}: ${typeof part === 'object' && part !== null ? '…' : String(part)}`)
      .join('; '),
  );
}

function Thumbnails({ images }: { images: { url?: Json; alt?: Json }[] }) {
  return (
    <span className="change-thumbs">
      {images.map((image, index) =>
        typeof image.url === 'string' ? (
          <img key={`${image.url}-${index}`} src={image.url} alt={typeof image.alt === 'string' && image.alt ? image.alt : `Image ${index + 1}`} width={36} height={36} loading="lazy" />
        ) : null,
      )}
    </span>
  );
}
