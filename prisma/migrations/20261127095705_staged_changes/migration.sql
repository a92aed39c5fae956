-- AlterTable
ALTER TABLE "products" ADD COLUMN     "has_staged_changes" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "product_staged" (
    "product_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "content" JSONB NOT NULL,
    "version" INTEGER NOT NULL,
    "publish_at" TIMESTAMPTZ(3),
    "publish_scope" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_by" TEXT,

    CONSTRAINT "product_staged_pkey" PRIMARY KEY ("product_id")
);

-- CreateIndex
CREATE INDEX "product_staged_publish_at_idx" ON "product_staged"("publish_at");

-- AddForeignKey
ALTER TABLE "product_staged" ADD CONSTRAINT "product_staged_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;
