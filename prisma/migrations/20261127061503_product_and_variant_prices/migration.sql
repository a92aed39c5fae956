-- AlterTable
ALTER TABLE "products" ADD COLUMN     "prices" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "variants" ADD COLUMN     "prices" JSONB NOT NULL DEFAULT '{}';
