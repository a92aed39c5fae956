-- CreateEnum
CREATE TYPE "ProductImportStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "product_imports" (
    "id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "format" TEXT NOT NULL,
    "dry_run" BOOLEAN NOT NULL,
    "error_policy" TEXT NOT NULL,
    "status" "ProductImportStatus" NOT NULL DEFAULT 'queued',
    "file_name" TEXT NOT NULL,
    "file_bytes" INTEGER NOT NULL,
    "rows_total" INTEGER NOT NULL,
    "rows_processed" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "rejected" INTEGER NOT NULL DEFAULT 0,
    "error_count" INTEGER NOT NULL DEFAULT 0,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "warnings" JSONB NOT NULL DEFAULT '[]',
    "failure" JSONB,
    "committed_rows" INTEGER NOT NULL DEFAULT 0,
    "principal" JSONB NOT NULL,
    "source" TEXT NOT NULL,
    "requested_by" TEXT NOT NULL,
    "locked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "product_imports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_import_chunks" (
    "import_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "product_import_chunks_pkey" PRIMARY KEY ("import_id","seq")
);

-- CreateIndex
CREATE INDEX "product_imports_store_id_created_at_idx" ON "product_imports"("store_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "product_imports_status_created_at_idx" ON "product_imports"("status", "created_at");

-- AddForeignKey
ALTER TABLE "product_imports" ADD CONSTRAINT "product_imports_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_import_chunks" ADD CONSTRAINT "product_import_chunks_import_id_fkey" FOREIGN KEY ("import_id") REFERENCES "product_imports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
