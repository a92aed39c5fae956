-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "store_id" UUID,
    "mode" "Mode" NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "actor_kind" TEXT NOT NULL,
    "actor_id" TEXT,
    "actor_name" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "resource_type" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "resource_version" INTEGER,
    "data" JSON NOT NULL,
    "changes" JSON,

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "events_store_id_id_idx" ON "events"("store_id", "id" DESC);

-- CreateIndex
CREATE INDEX "events_store_id_resource_type_resource_id_id_idx" ON "events"("store_id", "resource_type", "resource_id", "id" DESC);

-- CreateIndex
CREATE INDEX "events_store_id_type_id_idx" ON "events"("store_id", "type", "id" DESC);

-- CreateIndex
CREATE INDEX "events_store_id_actor_id_id_idx" ON "events"("store_id", "actor_id", "id" DESC);

-- CreateIndex
CREATE INDEX "events_occurred_at_idx" ON "events"("occurred_at");
