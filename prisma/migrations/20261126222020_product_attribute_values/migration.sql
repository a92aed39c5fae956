-- The attribute values products have on themselves or on any of their variants, one row each, kept by triggers on
-- products and variants in the same transaction as every write: attribute filters are semi-joins on it and facets
-- counts over it, where reading the jsonb maps would scan every product of the store. Per-store counters of each value
-- (kept by triggers on the value rows) answer the facets of a list that nothing but status narrows.

-- CreateTable
CREATE TABLE "product_attribute_values" (
    "product_id" UUID NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "status" "ProductStatus" NOT NULL,
    "code" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "value_num" DECIMAL,

    CONSTRAINT "product_attribute_values_pkey" PRIMARY KEY ("product_id","code","value")
);

-- CreateTable
CREATE TABLE "product_attribute_value_counts" (
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "code" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "status" "ProductStatus" NOT NULL,
    "slot" SMALLINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "product_attribute_value_counts_pkey" PRIMARY KEY ("store_id","mode","code","value","status","slot")
);

-- CreateIndex
CREATE INDEX "product_attribute_values_store_id_mode_code_value_product_i_idx" ON "product_attribute_values"("store_id", "mode", "code", "value", "product_id", "status");

-- CreateIndex
CREATE INDEX "product_attribute_values_store_id_mode_code_value_num_produ_idx" ON "product_attribute_values"("store_id", "mode", "code", "value_num", "product_id", "status");

-- A value belongs to one attribute: without these statistics the planner multiplies the selectivities of code and
-- value and expects a few rows where a common value has thousands, and plans a filter's semi-join for the few.
CREATE STATISTICS "product_attribute_values_code_value_stats" (dependencies, mcv) ON "code", "value" FROM "product_attribute_values";

-- AddForeignKey
ALTER TABLE "product_attribute_values" ADD CONSTRAINT "product_attribute_values_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The counters follow the value rows: one statement-level trigger per insert and delete (a refresh deletes and inserts
-- a product's rows in two statements), and the status moves of an update. As product_counts: a writer adds to the slot
-- of its connection, rows locked in key order.
CREATE FUNCTION "product_attribute_value_counts_add_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_attribute_value_counts" AS c ("store_id", "mode", "code", "value", "status", "slot", "count")
  SELECT "store_id", "mode", "code", "value", "status", (pg_backend_pid() % 16)::smallint,
         CASE TG_OP WHEN 'INSERT' THEN count(*) ELSE -count(*) END
  FROM "changed_values"
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("store_id", "mode", "code", "value", "status", "slot") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_attribute_value_counts_after_insert" AFTER INSERT ON "product_attribute_values"
  REFERENCING NEW TABLE AS "changed_values"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_value_counts_add_rows"();

CREATE TRIGGER "product_attribute_value_counts_after_delete" AFTER DELETE ON "product_attribute_values"
  REFERENCING OLD TABLE AS "changed_values"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_value_counts_add_rows"();

CREATE FUNCTION "product_attribute_value_counts_move_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_attribute_value_counts" AS c ("store_id", "mode", "code", "value", "status", "slot", "count")
  SELECT "store_id", "mode", "code", "value", "status", (pg_backend_pid() % 16)::smallint, sum("delta")
  FROM (SELECT "store_id", "mode", "code", "value", "status", -1 AS "delta" FROM "old_values"
        UNION ALL SELECT "store_id", "mode", "code", "value", "status", 1 FROM "new_values") d
  GROUP BY 1, 2, 3, 4, 5
  HAVING sum("delta") <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("store_id", "mode", "code", "value", "status", "slot") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_attribute_value_counts_after_update" AFTER UPDATE ON "product_attribute_values"
  REFERENCING OLD TABLE AS "old_values" NEW TABLE AS "new_values"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_value_counts_move_rows"();

-- A product's rows from its own and its variants' attribute maps: a multiselect's array gives a row per element; a
-- number is stored in its shortest spelling (1.50 and 1.5 are one value) with value_num for ranges; a boolean as
-- true/false. Text longer than 256 characters (rich text) is not indexed: lists cannot filter by it.
CREATE FUNCTION "product_attribute_values_refresh"("ids" UUID[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality("ids") = 0 THEN
    RETURN;
  END IF;
  DELETE FROM "product_attribute_values" WHERE "product_id" = ANY("ids");
  INSERT INTO "product_attribute_values" ("product_id", "store_id", "mode", "status", "code", "value", "value_num")
  SELECT DISTINCT p."id", p."store_id", p."mode", p."status", a."key", x."value", x."num"
  FROM "products" p
  CROSS JOIN LATERAL (
    SELECT e."key", e."value" FROM jsonb_each(p."attributes") e
    UNION ALL
    SELECT e."key", e."value" FROM "variants" va CROSS JOIN LATERAL jsonb_each(va."attributes") e WHERE va."product_id" = p."id"
  ) a
  CROSS JOIN LATERAL jsonb_array_elements(CASE jsonb_typeof(a."value") WHEN 'array' THEN a."value" ELSE jsonb_build_array(a."value") END) el
  CROSS JOIN LATERAL (
    SELECT CASE jsonb_typeof(el."value")
             WHEN 'string' THEN el."value" #>> '{}'
             WHEN 'boolean' THEN el."value"::text
             WHEN 'number' THEN trim_scale((el."value" #>> '{}')::numeric)::text
           END AS "value",
           CASE jsonb_typeof(el."value") WHEN 'number' THEN (el."value" #>> '{}')::numeric END AS "num"
  ) x
  WHERE p."id" = ANY("ids") AND x."value" IS NOT NULL AND length(x."value") <= 256;
END
$$;

-- Existing products (none has attribute values yet when this runs; kept for a database restored in between).
LOCK TABLE "products" IN SHARE MODE;
LOCK TABLE "variants" IN SHARE MODE;
SELECT "product_attribute_values_refresh"(ARRAY(
  SELECT "id" FROM "products" WHERE "attributes" <> '{}'::jsonb
  UNION SELECT "product_id" FROM "variants" WHERE "attributes" <> '{}'::jsonb
));

-- Inserted products (one statement-level trigger, so a bulk copy refreshes its products in one statement).
CREATE FUNCTION "product_attribute_values_after_product_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "product_attribute_values_refresh"(ARRAY(SELECT "id" FROM "new_products" WHERE "attributes" <> '{}'::jsonb));
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_attribute_values_after_product_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "new_products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_values_after_product_insert"();

-- A product's attributes, status, mode or store changed; any other update does no work here (WHEN).
CREATE FUNCTION "product_attribute_values_after_product_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."attributes" IS DISTINCT FROM NEW."attributes" OR OLD."store_id" IS DISTINCT FROM NEW."store_id" OR OLD."mode" IS DISTINCT FROM NEW."mode" THEN
    PERFORM "product_attribute_values_refresh"(ARRAY[NEW."id"]);
  ELSE
    UPDATE "product_attribute_values" SET "status" = NEW."status" WHERE "product_id" = NEW."id";
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_attribute_values_after_product_update" AFTER UPDATE OF "attributes", "status", "mode", "store_id" ON "products"
  FOR EACH ROW
  WHEN (OLD."attributes" IS DISTINCT FROM NEW."attributes" OR OLD."status" IS DISTINCT FROM NEW."status"
        OR OLD."mode" IS DISTINCT FROM NEW."mode" OR OLD."store_id" IS DISTINCT FROM NEW."store_id")
  EXECUTE FUNCTION "product_attribute_values_after_product_update"();

-- Variants inserted or deleted: their products' rows, once per statement. (A deleted product's rows go with it by the
-- foreign key; its variants' trigger then finds no product to refresh.)
CREATE FUNCTION "product_attribute_values_after_variant_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "product_attribute_values_refresh"(ARRAY(SELECT DISTINCT "product_id" FROM "changed_variants" WHERE "attributes" <> '{}'::jsonb));
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_attribute_values_after_variant_insert" AFTER INSERT ON "variants"
  REFERENCING NEW TABLE AS "changed_variants"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_values_after_variant_rows"();

CREATE TRIGGER "product_attribute_values_after_variant_delete" AFTER DELETE ON "variants"
  REFERENCING OLD TABLE AS "changed_variants"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_values_after_variant_rows"();

-- A variant's attributes changed (or it moved to another product): both products' rows.
CREATE FUNCTION "product_attribute_values_after_variant_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "product_attribute_values_refresh"(ARRAY[OLD."product_id", NEW."product_id"]);
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_attribute_values_after_variant_update" AFTER UPDATE OF "attributes", "product_id" ON "variants"
  FOR EACH ROW
  WHEN (OLD."attributes" IS DISTINCT FROM NEW."attributes" OR OLD."product_id" IS DISTINCT FROM NEW."product_id")
  EXECUTE FUNCTION "product_attribute_values_after_variant_update"();
