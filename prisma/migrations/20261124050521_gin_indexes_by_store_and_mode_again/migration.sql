-- Back to GIN indexes that lead with the store and mode (btree_gin, loaded by
-- 20261124030809): with one partial GIN index per mode, the planner scanned the
-- live one as a list of every live product for unfiltered and status counts,
-- which a 100k test catalog made 2-3x slower (bench/modeCost.ts).

-- DropIndex
DROP INDEX "products_live_search_text_idx";

-- DropIndex
DROP INDEX "products_live_tags_idx";

-- DropIndex
DROP INDEX "products_test_search_text_idx";

-- DropIndex
DROP INDEX "products_test_tags_idx";

-- CreateIndex
CREATE INDEX "products_store_mode_tags_idx" ON "products" USING GIN ("store_id" uuid_ops, "mode" enum_ops, "tags");

-- CreateIndex
CREATE INDEX "products_store_mode_search_text_idx" ON "products" USING GIN ("store_id" uuid_ops, "mode" enum_ops, "search_text" gin_trgm_ops);
