-- Sandbox tools: jobs that copy live products into the test catalog or delete
-- a store's test catalog, run by the worker in batches (src/services/testCatalog.ts).

-- CreateEnum
CREATE TYPE "TestCatalogJobKind" AS ENUM ('copy_live', 'delete_test_data');

-- CreateEnum
CREATE TYPE "TestCatalogJobStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "test_catalog_jobs" (
    "id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "kind" "TestCatalogJobKind" NOT NULL,
    "status" "TestCatalogJobStatus" NOT NULL DEFAULT 'queued',
    "filter" JSONB NOT NULL DEFAULT '{}',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "cursor" TEXT,
    "error" TEXT,
    "locked_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "requested_by" TEXT NOT NULL,

    CONSTRAINT "test_catalog_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "test_catalog_jobs_store_id_created_at_idx" ON "test_catalog_jobs"("store_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "test_catalog_jobs_status_created_at_idx" ON "test_catalog_jobs"("status", "created_at");

-- AddForeignKey
ALTER TABLE "test_catalog_jobs" ADD CONSTRAINT "test_catalog_jobs_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;
