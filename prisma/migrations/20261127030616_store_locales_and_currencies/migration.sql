-- AlterTable
ALTER TABLE "stores" ADD COLUMN     "currencies" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "default_locale" TEXT NOT NULL DEFAULT 'en',
ADD COLUMN     "locales" TEXT[] DEFAULT ARRAY[]::TEXT[];
