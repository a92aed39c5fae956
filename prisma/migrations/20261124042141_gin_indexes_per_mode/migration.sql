-- The search and tag GIN indexes become one partial index per mode instead of
-- (store_id, mode, …) btree_gin indexes: a live search reads an index of live
-- products only, exactly as before test mode existed (the store and mode
-- columns inside a GIN index cost every search of a one-catalog store the
-- store's whole posting list), and a test catalog of any size adds nothing.

-- DropIndex
DROP INDEX "products_store_id_mode_search_text_idx";

-- DropIndex
DROP INDEX "products_store_id_mode_tags_idx";

-- CreateIndex
CREATE INDEX "products_live_tags_idx" ON "products" USING GIN ("tags") WHERE (mode = 'live');

-- CreateIndex
CREATE INDEX "products_test_tags_idx" ON "products" USING GIN ("tags") WHERE (mode = 'test');

-- CreateIndex
CREATE INDEX "products_live_search_text_idx" ON "products" USING GIN ("search_text" gin_trgm_ops) WHERE (mode = 'live');

-- CreateIndex
CREATE INDEX "products_test_search_text_idx" ON "products" USING GIN ("search_text" gin_trgm_ops) WHERE (mode = 'test');
