/**
 * Categories, products and variants as clients see them: snake_case fields named as the REST API names them.
 * REST, the CLI, exports and events (their `data`) all show these.
 */
import type { Prisma } from '../../platform/db/client';
import { imageUrl } from './imageTypes';

export const categoryView = (c: { id: string; storeId: string; slug: string; name: string; createdAt: Date }) => ({
  id: c.id,
  store_id: c.storeId,
  slug: c.slug,
  name: c.name,
  created_at: c.createdAt,
});

/** What a product row must include for productView: the relations the REST product shows. */
export const PRODUCT_VIEW_INCLUDE = {
  store: { select: { currency: true } },
  categories: { select: { category: { select: { slug: true } } } },
  images: { orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] },
  seo: true,
  _count: { select: { variants: true } },
} as const satisfies Prisma.ProductInclude;

export type ProductViewRow = Prisma.ProductGetPayload<{ include: typeof PRODUCT_VIEW_INCLUDE }>;

/** The product exactly as GET /api/v1/merchant/stores/{storeID}/products/{productID} shows it (its `data`). */
export function productView(p: ProductViewRow, baseUrl: string) {
  const parts = productParts(p, baseUrl);
  return {
    id: parts.id,
    name: parts.name,
    description: parts.description,
    price: parts.price,
    currency: p.store.currency,
    inventory_quantity: parts.inventory_quantity,
    low_stock_threshold: parts.low_stock_threshold,
    status: parts.status,
    is_active: parts.is_active,
    published_at: parts.published_at,
    publish_at: parts.publish_at,
    unpublish_at: parts.unpublish_at,
    category_slugs: parts.category_slugs!,
    tags: parts.tags,
    variants_count: parts.variants_count!,
    version: parts.version,
    created_at: parts.created_at,
    updated_at: parts.updated_at,
    images: parts.images!,
    seo: parts.seo!,
  };
}

/** A product row with its own columns and any of the relations its representation shows. */
export type ProductPartsRow = Omit<ProductViewRow, 'store' | 'categories' | 'images' | 'seo' | '_count'> & Partial<Pick<ProductViewRow, 'categories' | 'images' | 'seo' | '_count'>>;

/**
 * What of the REST product a row holds: its own fields always, a relation's
 * field only when the row was read with it. A write reads only the parts it
 * may change, and compares those.
 */
export function productParts(p: ProductPartsRow, baseUrl: string) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: Number(p.price),
    inventory_quantity: p.inventoryQuantity,
    low_stock_threshold: p.lowStockThreshold,
    status: p.status,
    is_active: p.status === 'active',
    published_at: p.publishedAt,
    publish_at: p.publishAt,
    unpublish_at: p.unpublishAt,
    ...(p.categories ? { category_slugs: p.categories.map((c) => c.category.slug).sort() } : {}),
    tags: p.tags,
    ...(p._count ? { variants_count: p._count.variants } : {}),
    version: p.version,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    ...(p.images
      ? {
          images: p.images.map((i) => ({
            id: i.id,
            url: imageUrl(baseUrl, i),
            width: i.width,
            height: i.height,
            mime_type: i.mimeType,
            size_bytes: i.sizeBytes,
            sha256: i.sha256,
            alt: i.alt,
            position: i.position,
          })),
        }
      : {}),
    ...(p.seo !== undefined
      ? {
          seo: p.seo
            ? {
                title: p.seo.title,
                description: p.seo.description,
                slug: p.seo.slug,
                canonical_url: p.seo.canonicalUrl,
                og_image_url: p.seo.ogImageUrl,
                noindex: p.seo.noindex,
                updated_at: p.seo.updatedAt,
              }
            : null,
        }
      : {}),
  } as {
    id: string; name: string; description: string; price: number; inventory_quantity: number; low_stock_threshold: number;
    status: string; is_active: boolean; published_at: Date | null; publish_at: Date | null; unpublish_at: Date | null; category_slugs?: string[]; tags: string[]; variants_count?: number;
    version: number; created_at: Date; updated_at: Date; images?: Record<string, unknown>[]; seo?: Record<string, unknown> | null;
  };
}

/** A variant as GET …/products/{productID}/variants shows it. */
export const variantView = (v: {
  id: string;
  sku: string;
  title: string;
  options: unknown;
  price: { toString(): string } | null;
  inventoryQuantity: number;
  position: number;
  createdAt: Date;
  updatedAt: Date;
}) => ({
  id: v.id,
  sku: v.sku,
  title: v.title,
  options: v.options,
  price: v.price == null ? null : Number(v.price.toString()),
  inventory_quantity: v.inventoryQuantity,
  position: v.position,
  created_at: v.createdAt,
  updated_at: v.updatedAt,
});

