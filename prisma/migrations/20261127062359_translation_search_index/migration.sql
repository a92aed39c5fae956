-- CreateIndex
CREATE INDEX "product_translations_search_idx" ON "product_translations" USING GIN ("store_id" uuid_ops, "mode" enum_ops, "search_text" gin_trgm_ops);
