-- CreateEnum
CREATE TYPE "CollectionKind" AS ENUM ('manual', 'smart');

-- CreateEnum
CREATE TYPE "CollectionMatch" AS ENUM ('all', 'any');

-- CreateEnum
CREATE TYPE "CollectionSort" AS ENUM ('manual', 'newest', 'name', 'price_asc', 'price_desc');

-- CreateEnum
CREATE TYPE "CollectionMembershipState" AS ENUM ('current', 'recomputing', 'failed');

-- CreateTable
CREATE TABLE "collections" (
    "id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "kind" "CollectionKind" NOT NULL,
    "rules" JSONB NOT NULL DEFAULT '[]',
    "match" "CollectionMatch" NOT NULL DEFAULT 'all',
    "sort" "CollectionSort" NOT NULL DEFAULT 'manual',
    "published" BOOLEAN NOT NULL DEFAULT false,
    "published_at" TIMESTAMPTZ(3),
    "membership_state" "CollectionMembershipState" NOT NULL DEFAULT 'current',
    "recompute_done" INTEGER NOT NULL DEFAULT 0,
    "recompute_total" INTEGER NOT NULL DEFAULT 0,
    "recompute_cursor" UUID,
    "recompute_locked_until" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "collections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collection_products" (
    "collection_id" UUID NOT NULL,
    "product_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "collection_products_pkey" PRIMARY KEY ("collection_id","product_id")
);

-- CreateTable
CREATE TABLE "collection_product_counts" (
    "collection_id" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "collection_product_counts_pkey" PRIMARY KEY ("collection_id","slot")
);

-- CreateTable
CREATE TABLE "collection_rule_versions" (
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "collection_rule_versions_pkey" PRIMARY KEY ("store_id","mode")
);

-- CreateTable
CREATE TABLE "collection_translations" (
    "collection_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "locale" TEXT NOT NULL,
    "title" TEXT,
    "description" TEXT,
    "outdated_fields" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "collection_translations_pkey" PRIMARY KEY ("collection_id","locale")
);

-- CreateIndex
CREATE INDEX "collections_store_id_mode_created_at_id_idx" ON "collections"("store_id", "mode", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "collections_recomputing_idx" ON "collections"("membership_state") WHERE (membership_state = 'recomputing');

-- CreateIndex
CREATE UNIQUE INDEX "collections_store_id_mode_slug_key" ON "collections"("store_id", "mode", "slug");

-- CreateIndex
CREATE INDEX "collection_products_collection_id_position_product_id_idx" ON "collection_products"("collection_id", "position", "product_id");

-- CreateIndex
CREATE INDEX "collection_products_product_id_idx" ON "collection_products"("product_id");

-- CreateIndex
CREATE INDEX "collection_translations_store_id_locale_idx" ON "collection_translations"("store_id", "locale");

-- AddForeignKey
ALTER TABLE "collections" ADD CONSTRAINT "collections_store_id_fkey" FOREIGN KEY ("store_id") REFERENCES "stores"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_products" ADD CONSTRAINT "collection_products_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_products" ADD CONSTRAINT "collection_products_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "collection_translations" ADD CONSTRAINT "collection_translations_collection_id_fkey" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Products per collection, kept by triggers in the same transaction as every membership write, in slots as
-- product_counts (backend pid mod 16). Statement-level, so adding 5,000 products or a recompute batch updates each
-- counter once. Rows of a collection being deleted (its membership goes by cascade) are not written: the service
-- deletes the collection's counters with it.
CREATE FUNCTION "collection_product_counts_add_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "collection_product_counts" AS c ("collection_id", "slot", "count")
  SELECT r."collection_id", (pg_backend_pid() % 16)::smallint,
         CASE TG_OP WHEN 'INSERT' THEN count(*) ELSE -count(*) END
  FROM "changed_memberships" r
  WHERE EXISTS (SELECT 1 FROM "collections" k WHERE k."id" = r."collection_id")
  GROUP BY 1
  ORDER BY 1
  ON CONFLICT ("collection_id", "slot") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "collection_product_counts_after_insert" AFTER INSERT ON "collection_products"
  REFERENCING NEW TABLE AS "changed_memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "collection_product_counts_add_rows"();

CREATE TRIGGER "collection_product_counts_after_delete" AFTER DELETE ON "collection_products"
  REFERENCING OLD TABLE AS "changed_memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "collection_product_counts_add_rows"();

-- Every catalog has its rule version row from the start, so the first smart collection of a store locks a row that
-- product writes already read (a row made by that collection's own transaction would not hold off a product write
-- that read no row before it).
INSERT INTO "collection_rule_versions" ("store_id", "mode", "version")
SELECT s."id", m."mode", 0 FROM "stores" s CROSS JOIN (VALUES ('live'::"Mode"), ('test'::"Mode")) m("mode");

CREATE FUNCTION "collection_rule_versions_for_store"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "collection_rule_versions" ("store_id", "mode", "version")
  VALUES (NEW."id", 'live', 0), (NEW."id", 'test', 0) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER "collection_rule_versions_after_store_insert" AFTER INSERT ON "stores"
  FOR EACH ROW EXECUTE FUNCTION "collection_rule_versions_for_store"();

-- Rows of a deleted store go with it (no foreign key: the table is read by every product write, keep it lean).
CREATE FUNCTION "collection_rule_versions_of_deleted_store"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "collection_rule_versions" WHERE "store_id" = OLD."id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "collection_rule_versions_after_store_delete" AFTER DELETE ON "stores"
  FOR EACH ROW EXECUTE FUNCTION "collection_rule_versions_of_deleted_store"();
