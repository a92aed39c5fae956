-- Products per store, mode and status, kept by triggers in the same transaction
-- as every write to products, so an unfiltered or status list has its exact
-- total from a few counter rows instead of counting products (issue: a page
-- costs work proportional to the page, not to the catalog).
--
-- A writer adds to the slot of its database connection (backend pid mod 16):
-- concurrent writers of one store rarely wait on the same row. A slot can go
-- negative; a total is the sum of the slots.

-- CreateTable
CREATE TABLE "product_counts" (
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "status" "ProductStatus" NOT NULL,
    "slot" SMALLINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "product_counts_pkey" PRIMARY KEY ("store_id","mode","status","slot")
);

-- No product is written between the backfill and the triggers: an instance
-- still running the previous release waits for this migration to commit.
LOCK TABLE "products" IN SHARE MODE;

INSERT INTO "product_counts" ("store_id", "mode", "status", "slot", "count")
SELECT "store_id", "mode", "status", 0, count(*) FROM "products" GROUP BY 1, 2, 3;

-- Inserts and deletes: one statement-level trigger each, so a bulk write
-- (a test catalog copy, deleting test data) updates each counter once.
-- Rows are locked in key order, so two writers cannot deadlock on them within
-- one statement.
CREATE FUNCTION "product_counts_add_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_counts" AS c ("store_id", "mode", "status", "slot", "count")
  SELECT "store_id", "mode", "status", (pg_backend_pid() % 16)::smallint,
         CASE TG_OP WHEN 'INSERT' THEN count(*) ELSE -count(*) END
  FROM "changed_products"
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT ("store_id", "mode", "status", "slot") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_counts_after_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "changed_products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_counts_add_rows"();

CREATE TRIGGER "product_counts_after_delete" AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS "changed_products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_counts_add_rows"();

-- Updates: only a change of status (or mode, or store) moves a product between
-- counters; the WHEN clause keeps every other update free of any counter work.
CREATE FUNCTION "product_counts_move_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_counts" AS c ("store_id", "mode", "status", "slot", "count")
  SELECT d."store_id", d."mode", d."status", (pg_backend_pid() % 16)::smallint, d."delta"
  FROM (VALUES (OLD."store_id", OLD."mode", OLD."status", -1), (NEW."store_id", NEW."mode", NEW."status", 1))
       AS d("store_id", "mode", "status", "delta")
  ORDER BY 1, 2, 3
  ON CONFLICT ("store_id", "mode", "status", "slot") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_counts_after_update" AFTER UPDATE OF "store_id", "mode", "status" ON "products"
  FOR EACH ROW
  WHEN (OLD."store_id" IS DISTINCT FROM NEW."store_id" OR OLD."mode" IS DISTINCT FROM NEW."mode" OR OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "product_counts_move_row"();
