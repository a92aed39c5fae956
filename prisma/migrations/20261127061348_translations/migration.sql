-- CreateTable
CREATE TABLE "product_translations" (
    "product_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "locale" TEXT NOT NULL,
    "name" TEXT,
    "description" TEXT,
    "seo_title" TEXT,
    "seo_description" TEXT,
    "slug" TEXT,
    "options" JSONB NOT NULL DEFAULT '{}',
    "attributes" JSONB NOT NULL DEFAULT '{}',
    "outdated_fields" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "search_text" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "product_translations_pkey" PRIMARY KEY ("product_id","locale")
);

-- CreateTable
CREATE TABLE "category_translations" (
    "category_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "locale" TEXT NOT NULL,
    "name" TEXT,
    "outdated_fields" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "category_translations_pkey" PRIMARY KEY ("category_id","locale")
);

-- CreateTable
CREATE TABLE "attribute_translations" (
    "attribute_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "locale" TEXT NOT NULL,
    "name" TEXT,
    "values" JSONB NOT NULL DEFAULT '{}',
    "outdated_fields" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "attribute_translations_pkey" PRIMARY KEY ("attribute_id","locale")
);

-- CreateIndex
CREATE INDEX "product_translations_store_id_locale_idx" ON "product_translations"("store_id", "locale");

-- CreateIndex
CREATE UNIQUE INDEX "product_translations_store_id_mode_locale_slug_key" ON "product_translations"("store_id", "mode", "locale", "slug");

-- CreateIndex
CREATE INDEX "category_translations_store_id_locale_idx" ON "category_translations"("store_id", "locale");

-- CreateIndex
CREATE INDEX "attribute_translations_store_id_locale_idx" ON "attribute_translations"("store_id", "locale");

-- AddForeignKey
ALTER TABLE "product_translations" ADD CONSTRAINT "product_translations_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_translations" ADD CONSTRAINT "category_translations_category_id_fkey" FOREIGN KEY ("category_id") REFERENCES "categories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attribute_translations" ADD CONSTRAINT "attribute_translations_attribute_id_fkey" FOREIGN KEY ("attribute_id") REFERENCES "attributes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
