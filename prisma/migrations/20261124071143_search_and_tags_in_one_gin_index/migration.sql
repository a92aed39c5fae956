-- Search text and tags in one GIN index (store, mode, search_text, tags): a search
-- combined with tags intersects both inside the index. Two GIN indexes that share
-- the store and mode columns are never combined by a BitmapAnd (the planner treats
-- their shared clauses as redundant), so such a list read the heap rows of every
-- search match (bench/modeCost.ts: 640 buffers, 158 with this index).

-- DropIndex
DROP INDEX "products_store_mode_search_text_idx";

-- DropIndex
DROP INDEX "products_store_mode_tags_idx";

-- CreateIndex
CREATE INDEX "products_store_mode_text_tags_idx" ON "products" USING GIN ("store_id" uuid_ops, "mode" enum_ops, "search_text" gin_trgm_ops, "tags" array_ops);
