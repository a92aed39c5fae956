-- btree_gin lets a GIN index hold the store and mode beside the tags and the trigrams,
-- so a search or tag filter reads only its own catalog (a 100k test catalog adds nothing to the live one).
CREATE EXTENSION IF NOT EXISTS btree_gin;

-- DropIndex
DROP INDEX "products_search_text_idx";

-- DropIndex
DROP INDEX "products_tags_idx";

-- CreateIndex
CREATE INDEX "products_store_id_mode_tags_idx" ON "products" USING GIN ("store_id" uuid_ops, "mode" enum_ops, "tags");

-- CreateIndex
CREATE INDEX "products_store_id_mode_search_text_idx" ON "products" USING GIN ("store_id" uuid_ops, "mode" enum_ops, "search_text" gin_trgm_ops);
