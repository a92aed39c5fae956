-- A product's category links carry its mode, so the category filter of one
-- catalog reads that catalog's products of the category only: a test catalog
-- in the same categories adds nothing to a live list (and the reverse).
-- DropIndex
DROP INDEX "product_categories_category_id_product_id_idx";

-- AlterTable
ALTER TABLE "product_categories" ADD COLUMN     "mode" "Mode" NOT NULL DEFAULT 'live';

-- Links of test-mode products (created since test mode exists) take their product's mode.
UPDATE "product_categories" AS pc SET "mode" = p."mode" FROM "products" AS p WHERE p."id" = pc."product_id" AND p."mode" <> 'live';

-- CreateIndex
CREATE INDEX "product_categories_category_id_mode_product_id_idx" ON "product_categories"("category_id", "mode", "product_id");
