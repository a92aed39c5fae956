-- CreateEnum
CREATE TYPE "WebhookEndpointStatus" AS ENUM ('enabled', 'disabled');

-- CreateEnum
CREATE TYPE "WebhookMessageStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- AlterTable
ALTER TABLE "events" ADD COLUMN     "dispatched_at" TIMESTAMPTZ(3);

-- Events recorded before webhooks existed are history, not news: no endpoint
-- could have asked for them, so the dispatcher must not pick them up.
UPDATE "events" SET "dispatched_at" = "occurred_at";

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "publish_at" TIMESTAMPTZ(3),
ADD COLUMN     "unpublish_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "event_types" TEXT[],
    "status" "WebhookEndpointStatus" NOT NULL DEFAULT 'enabled',
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMPTZ(3),
    "secret" TEXT NOT NULL,
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_messages" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "event_id" UUID,
    "event_type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" "WebhookMessageStatus" NOT NULL DEFAULT 'pending',
    "trigger" TEXT NOT NULL DEFAULT 'scheduled',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "locked_until" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "succeeded" BOOLEAN NOT NULL,
    "status_code" INTEGER,
    "response_body" TEXT,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_store_id_mode_status_idx" ON "webhook_endpoints"("store_id", "mode", "status");

-- CreateIndex
CREATE INDEX "webhook_messages_status_next_attempt_at_idx" ON "webhook_messages"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_messages_endpoint_id_created_at_idx" ON "webhook_messages"("endpoint_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "webhook_messages_store_id_created_at_idx" ON "webhook_messages"("store_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "webhook_messages_created_at_idx" ON "webhook_messages"("created_at");

-- CreateIndex
CREATE INDEX "webhook_attempts_message_id_started_at_idx" ON "webhook_attempts"("message_id", "started_at");

-- CreateIndex
CREATE INDEX "webhook_attempts_endpoint_id_started_at_idx" ON "webhook_attempts"("endpoint_id", "started_at" DESC);

-- CreateIndex
CREATE INDEX "events_dispatched_at_id_idx" ON "events"("dispatched_at", "id");

-- CreateIndex
CREATE INDEX "products_publish_at_idx" ON "products"("publish_at");

-- CreateIndex
CREATE INDEX "products_unpublish_at_idx" ON "products"("unpublish_at");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "webhook_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
