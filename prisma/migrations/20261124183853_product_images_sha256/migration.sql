-- CreateIndex
CREATE INDEX "product_images_sha256_idx" ON "product_images"("sha256");
