-- DropIndex
DROP INDEX "products_store_id_mode_status_created_at_idx";

-- CreateIndex
CREATE INDEX "products_store_id_mode_status_created_at_idx" ON "products"("store_id", "mode", "status", "created_at" DESC, "id" DESC);
