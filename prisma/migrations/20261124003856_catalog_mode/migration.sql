-- Test data is separate from live data: every product (and the variants and SEO
-- record under it) belongs to one mode. Existing rows become live.

-- DropIndex
DROP INDEX "product_seo_store_id_slug_key";

-- DropIndex
DROP INDEX "products_store_id_created_at_id_idx";

-- DropIndex
DROP INDEX "products_store_id_inventory_quantity_idx";

-- DropIndex
DROP INDEX "products_store_id_low_stock_created_at_idx";

-- DropIndex
DROP INDEX "products_store_id_name_idx";

-- DropIndex
DROP INDEX "products_store_id_price_idx";

-- DropIndex
DROP INDEX "products_store_id_status_created_at_idx";

-- DropIndex
DROP INDEX "variants_store_id_sku_key";

-- AlterTable
ALTER TABLE "product_seo" ADD COLUMN     "mode" "Mode" NOT NULL DEFAULT 'live';

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "mode" "Mode" NOT NULL DEFAULT 'live';

-- AlterTable
ALTER TABLE "variants" ADD COLUMN     "mode" "Mode" NOT NULL DEFAULT 'live';

-- CreateIndex
CREATE UNIQUE INDEX "product_seo_store_id_mode_slug_key" ON "product_seo"("store_id", "mode", "slug");

-- CreateIndex
CREATE INDEX "products_store_id_mode_created_at_id_idx" ON "products"("store_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "products_store_id_mode_status_created_at_idx" ON "products"("store_id", "mode", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "products_store_id_mode_name_idx" ON "products"("store_id", "mode", "name");

-- CreateIndex
CREATE INDEX "products_store_id_mode_price_idx" ON "products"("store_id", "mode", "price");

-- CreateIndex
CREATE INDEX "products_store_id_mode_inventory_quantity_idx" ON "products"("store_id", "mode", "inventory_quantity");

-- CreateIndex
CREATE INDEX "products_store_id_mode_low_stock_created_at_idx" ON "products"("store_id", "mode", "low_stock", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "variants_store_id_mode_sku_key" ON "variants"("store_id", "mode", "sku");
