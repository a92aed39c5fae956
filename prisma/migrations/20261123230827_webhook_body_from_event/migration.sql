-- AlterTable
ALTER TABLE "webhook_messages" ALTER COLUMN "payload" DROP NOT NULL;
