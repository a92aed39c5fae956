/** Writing a product's variant rows in bulk: one statement each, whatever the number of variants. */

import type { Prisma } from '../../platform/db/client';
import type { TransactionContext } from '../../platform/outbox/outbox';

type Money = { toString(): string } | string | null | undefined;

/**
 * How long a transaction writing a product's variants may stay open: up to 2,048 rows (and the attribute value rows
 * their triggers keep) take longer than the 5 s default on a busy database, and a cut-off write would answer 500.
 */
export const VARIANT_WRITE_TIMEOUT_MS = 60_000;

/** The columns of a variant row to insert (a new variant, or one written anew with its id and created_at). */
export interface VariantWrite {
  id?: string | null;
  createdAt?: Date | null;
  sku: string;
  title: string;
  options: Record<string, string> | Prisma.JsonValue;
  optionsKey: string;
  price: Money;
  /** Prices in further currencies, stored as services/prices.ts keeps them. */
  prices: unknown;
  inventoryQuantity: number;
  position: number;
  barcode: string | null;
  compareAtPrice: Money;
  cost: Money;
  weightValue: Money;
  weightUnit: string | null;
  imageId: string | null;
  attributes: unknown;
}

const text = (v: Money) => (v == null ? null : v.toString());

/**
 * Inserts a product's variant rows in one statement with one array parameter per column. Prisma's createMany
 * binds every value of every row, which took seconds for the thousands of variants one product may have.
 */
export async function insertVariants(t: TransactionContext, storeId: string, productId: string, rows: VariantWrite[]) {
  if (!rows.length) return;
  const now = t.now();
  const col = <T>(f: (r: VariantWrite) => T) => rows.map(f);
  await t.tx.$executeRaw`
    INSERT INTO variants (id, store_id, product_id, mode, sku, title, options, options_key, price, inventory_quantity, position,
      barcode, compare_at_price, cost, weight_value, weight_unit, image_id, attributes, prices, created_at, updated_at)
    SELECT coalesce(v.id, gen_random_uuid()), ${storeId}::uuid, ${productId}::uuid, ${t.mode}::"Mode", v.sku, v.title, v.options::jsonb, v.options_key,
      v.price, v.inventory_quantity, v.position, v.barcode, v.compare_at_price, v.cost, v.weight_value, v.weight_unit::"WeightUnit", v.image_id,
      v.attributes::jsonb, v.prices::jsonb, coalesce(v.created_at, ${now}::timestamptz), ${now}::timestamptz
    FROM unnest(
      ${col((r) => r.id ?? null)}::uuid[], ${col((r) => r.sku)}::text[], ${col((r) => r.title)}::text[], ${col((r) => JSON.stringify(r.options))}::text[],
      ${col((r) => r.optionsKey)}::text[], ${col((r) => text(r.price))}::numeric[], ${col((r) => r.inventoryQuantity)}::int[], ${col((r) => r.position)}::int[],
      ${col((r) => r.barcode)}::text[], ${col((r) => text(r.compareAtPrice))}::numeric[], ${col((r) => text(r.cost))}::numeric[],
      ${col((r) => text(r.weightValue))}::numeric[], ${col((r) => r.weightUnit)}::text[], ${col((r) => r.imageId)}::uuid[],
      ${col((r) => JSON.stringify(r.attributes ?? {}))}::text[], ${col((r) => JSON.stringify(r.prices ?? {}))}::text[], ${col((r) => r.createdAt?.toISOString() ?? null)}::timestamptz[]
    ) AS v(id, sku, title, options, options_key, price, inventory_quantity, position, barcode, compare_at_price, cost, weight_value, weight_unit, image_id, attributes, prices, created_at)`;
}

/** Deletes these variants (one array parameter, as insertVariants). */
export const deleteVariants = (t: TransactionContext, ids: string[]) => (ids.length ? t.tx.$executeRaw`DELETE FROM variants WHERE id = ANY(${ids}::uuid[])` : Promise.resolve(0));

