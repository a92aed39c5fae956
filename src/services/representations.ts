/**
 * Each kind of record as clients see it: snake_case fields named as the REST
 * API names them (`id`, `store_id`, `created_at`…), never a secret or a
 * secret's digest. The CLI prints these, and events carry them as their `data`.
 */
import { redactApiKey } from '../auth/apiKeys';
import type { Prisma } from '../db/client';
import type { DomainEvent } from '../domain/events';
import { redactDashboardToken } from './dashboardTokens';
import { imageUrl } from './imageTypes';
import { secretHint } from '../webhooks/signing';

export const userView = (u: { id: string; email: string; name: string; createdAt: Date; hasPassword?: boolean; passwordHash?: string | null }) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  has_password: u.hasPassword ?? (u.passwordHash !== null && u.passwordHash !== undefined),
  created_at: u.createdAt,
});

export const storeView = (s: { id: string; name: string; currency: string; ownerId: string; createdAt: Date }) => ({
  id: s.id,
  name: s.name,
  currency: s.currency,
  owner_id: s.ownerId,
  created_at: s.createdAt,
});

export const categoryView = (c: { id: string; storeId: string; slug: string; name: string; createdAt: Date }) => ({
  id: c.id,
  store_id: c.storeId,
  slug: c.slug,
  name: c.name,
  created_at: c.createdAt,
});

export const memberView = (m: {
  storeId: string;
  userId: string;
  role: string;
  permissions: string[];
  createdAt: Date;
  user: { email: string; name: string };
}) => ({
  store_id: m.storeId,
  user_id: m.userId,
  email: m.user.email,
  name: m.user.name,
  role: m.role,
  permissions: m.permissions,
  created_at: m.createdAt,
});

export const dashboardTokenView = (t: {
  id: string;
  userId: string;
  name: string;
  last4: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}) => ({
  id: t.id,
  user_id: t.userId,
  name: t.name,
  redacted_token: redactDashboardToken(t),
  created_at: t.createdAt,
  expires_at: t.expiresAt,
  revoked_at: t.revokedAt,
});

export const apiKeyView = (k: {
  id: string;
  storeId: string;
  name: string;
  type: string;
  mode: string;
  scopes: string[];
  prefix: string;
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rolledFromId: string | null;
}) => ({
  id: k.id,
  store_id: k.storeId,
  name: k.name,
  type: k.type,
  mode: k.mode,
  scopes: k.scopes,
  redacted_key: redactApiKey(k),
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
  expires_at: k.expiresAt,
  revoked_at: k.revokedAt,
  rolled_from_id: k.rolledFromId,
});

export const oauthAppView = (a: {
  id: string;
  ownerId: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  allowedScopes: string[];
  status: string;
  createdAt: Date;
}) => ({
  id: a.id,
  owner_id: a.ownerId,
  name: a.name,
  client_id: a.clientId,
  redirect_uris: a.redirectUris,
  allowed_scopes: a.allowedScopes,
  status: a.status,
  created_at: a.createdAt,
});

export const oauthGrantView = (g: {
  id: string;
  appId: string;
  storeId: string;
  userId: string;
  mode: string;
  scopes: string[];
  createdAt: Date;
  revokedAt: Date | null;
}) => ({
  id: g.id,
  app_id: g.appId,
  store_id: g.storeId,
  granted_by: g.userId,
  mode: g.mode,
  scopes: g.scopes,
  created_at: g.createdAt,
  revoked_at: g.revokedAt,
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

/** A recorded change as the REST history shows it. */
export const changeView = (e: DomainEvent) => ({
  id: e.id,
  type: e.type,
  occurred_at: e.occurredAt,
  store_id: e.storeId,
  mode: e.mode,
  actor: e.actor,
  source: e.source,
  request_id: e.requestId,
  resource: e.resource,
  data: e.data,
  changes: e.changes,
});

/** A webhook endpoint: the secret never, only its last characters (`secret_hint`). */
export const webhookEndpointView = (e: {
  id: string;
  storeId: string;
  mode: string;
  url: string;
  description: string;
  eventTypes: string[];
  status: string;
  disabledReason: string | null;
  disabledAt: Date | null;
  secret: string;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}) => ({
  id: e.id,
  store_id: e.storeId,
  mode: e.mode,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes,
  status: e.status,
  disabled_reason: e.disabledReason,
  disabled_at: e.disabledAt,
  secret_hint: secretHint(e.secret),
  previous_secret_expires_at: e.previousSecretExpiresAt,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});
