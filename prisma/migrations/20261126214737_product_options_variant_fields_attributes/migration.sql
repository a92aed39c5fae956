-- CreateEnum
CREATE TYPE "WeightUnit" AS ENUM ('g', 'kg', 'oz', 'lb');

-- CreateEnum
CREATE TYPE "AttributeType" AS ENUM ('plain_text', 'rich_text', 'numeric', 'boolean', 'date', 'date_time', 'dropdown', 'multiselect', 'swatch', 'reference');

-- CreateEnum
CREATE TYPE "AttributeReferenceType" AS ENUM ('product', 'category');

-- CreateEnum
CREATE TYPE "AttributeLevel" AS ENUM ('product', 'variant');

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "attributes" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "options" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "product_type_id" UUID;

-- AlterTable
ALTER TABLE "variants" ADD COLUMN     "attributes" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "barcode" TEXT,
ADD COLUMN     "compare_at_price" DECIMAL(12,2),
ADD COLUMN     "cost" DECIMAL(12,2),
ADD COLUMN     "image_id" UUID,
ADD COLUMN     "weight_unit" "WeightUnit",
ADD COLUMN     "weight_value" DECIMAL(12,3);

-- CreateTable
CREATE TABLE "attributes" (
    "id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "AttributeType" NOT NULL,
    "unit" TEXT,
    "values" JSONB NOT NULL DEFAULT '[]',
    "reference_type" "AttributeReferenceType",
    "filterable" BOOLEAN NOT NULL DEFAULT false,
    "public" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "attributes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_types" (
    "id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "product_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_type_attributes" (
    "product_type_id" UUID NOT NULL,
    "attribute_id" UUID NOT NULL,
    "level" "AttributeLevel" NOT NULL,
    "required" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "product_type_attributes_pkey" PRIMARY KEY ("product_type_id","attribute_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "attributes_store_id_code_key" ON "attributes"("store_id", "code");

-- CreateIndex
CREATE UNIQUE INDEX "product_types_store_id_name_key" ON "product_types"("store_id", "name");

-- CreateIndex
CREATE INDEX "product_type_attributes_attribute_id_idx" ON "product_type_attributes"("attribute_id");

-- CreateIndex
CREATE INDEX "products_product_type_id_idx" ON "products"("product_type_id");

-- CreateIndex
CREATE INDEX "variants_image_id_idx" ON "variants"("image_id");

-- AddForeignKey
ALTER TABLE "products" ADD CONSTRAINT "products_product_type_id_fkey" FOREIGN KEY ("product_type_id") REFERENCES "product_types"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "variants" ADD CONSTRAINT "variants_image_id_fkey" FOREIGN KEY ("image_id") REFERENCES "product_images"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "attributes" ADD CONSTRAINT "attributes_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_types" ADD CONSTRAINT "product_types_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_type_attributes" ADD CONSTRAINT "product_type_attributes_product_type_id_fkey" FOREIGN KEY ("product_type_id") REFERENCES "product_types"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "product_type_attributes" ADD CONSTRAINT "product_type_attributes_attribute_id_fkey" FOREIGN KEY ("attribute_id") REFERENCES "attributes"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- Existing products: their options derived from their variants' option maps. Option names in the order of their keys
-- (jsonb keeps none of the writer's own), each option's values in the order of the first variant (by position) that
-- uses them. A variant that names no value of some option keeps its map as it is; the next write of that product's
-- variants must name one.
WITH used AS (
  SELECT v.product_id, e.key AS name, e.value AS value, min(v.position) AS first_position, min(v.created_at) AS first_created
  FROM "variants" v CROSS JOIN LATERAL jsonb_each_text(v.options) e
  GROUP BY v.product_id, e.key, e.value
), option_values AS (
  SELECT product_id, name, jsonb_agg(to_jsonb(value) ORDER BY first_position, first_created, value) AS vals
  FROM used GROUP BY product_id, name
), derived AS (
  SELECT product_id, jsonb_agg(jsonb_build_object('name', name, 'values', vals) ORDER BY name) AS options
  FROM option_values GROUP BY product_id
)
UPDATE "products" p SET "options" = d.options FROM derived d WHERE p.id = d.product_id;
