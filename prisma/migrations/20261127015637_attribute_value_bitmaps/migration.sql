-- Bitmaps of the products that have each attribute value and each status, so a list narrowed by attributes gets its
-- facets and total at a cost that follows the number of values, not the number of products selected: at 100,000
-- products, counting each facet value over an attribute filter's 8,000 products read every one of those products'
-- value rows (24,000 index pages, over 50 ms); ANDing and counting bitmaps reads a few hundred rows of 512 bytes. Each
-- product of a catalog (store and mode) gets an ordinal, its bit; bitmaps are split into chunks of 4,096 ordinals,
-- one row per value (or status) and chunk, kept by triggers in the same transaction as every write.

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "ordinal" INTEGER NOT NULL DEFAULT 0;

-- AlterTable (filled below, then required)
ALTER TABLE "product_attribute_values" ADD COLUMN     "ordinal" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "product_attribute_value_bitmaps" (
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "code" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "chunk" INTEGER NOT NULL,
    "value_num" DECIMAL,
    "bits" VARBIT NOT NULL,

    CONSTRAINT "product_attribute_value_bitmaps_pkey" PRIMARY KEY ("store_id","mode","code","value","chunk")
);

-- CreateTable
CREATE TABLE "product_status_bitmaps" (
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "status" "ProductStatus" NOT NULL,
    "chunk" INTEGER NOT NULL,
    "bits" VARBIT NOT NULL,

    CONSTRAINT "product_status_bitmaps_pkey" PRIMARY KEY ("store_id","mode","status","chunk")
);

-- CreateTable
CREATE TABLE "product_ordinal_blocks" (
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "slot" SMALLINT NOT NULL,
    "next" INTEGER NOT NULL,
    "stop" INTEGER NOT NULL,

    CONSTRAINT "product_ordinal_blocks_pkey" PRIMARY KEY ("store_id","mode","slot")
);

-- CreateTable
CREATE TABLE "product_ordinal_heads" (
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "next_block" INTEGER NOT NULL,

    CONSTRAINT "product_ordinal_heads_pkey" PRIMARY KEY ("store_id","mode")
);

-- CreateIndex
CREATE INDEX "product_attribute_value_bitmaps_store_id_mode_code_value_nu_idx" ON "product_attribute_value_bitmaps"("store_id", "mode", "code", "value_num");

-- A product's ordinal, on insert and when it moves to another catalog: the next of the block its connection's slot
-- (backend pid mod 16, as product_counts) holds, or the first of a new block. Writers in different slots hold
-- different blocks, so they set bits in different chunks and rarely wait on one bitmap row; one catalog's ordinals
-- stay dense (at most 16 blocks partly used). Ordinals of deleted products are not reused.
CREATE FUNCTION "products_take_ordinal"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  my_slot SMALLINT := (pg_backend_pid() % 16)::smallint;
  taken INTEGER;
BEGIN
  UPDATE "product_ordinal_blocks" b SET "next" = b."next" + 1
  WHERE b."store_id" = NEW."store_id" AND b."mode" = NEW."mode" AND b."slot" = my_slot AND b."next" < b."stop"
  RETURNING b."next" - 1 INTO taken;
  IF taken IS NULL THEN
    INSERT INTO "product_ordinal_heads" AS h ("store_id", "mode", "next_block") VALUES (NEW."store_id", NEW."mode", 1)
    ON CONFLICT ("store_id", "mode") DO UPDATE SET "next_block" = h."next_block" + 1
    RETURNING (h."next_block" - 1) * 4096 INTO taken;
    INSERT INTO "product_ordinal_blocks" ("store_id", "mode", "slot", "next", "stop")
    VALUES (NEW."store_id", NEW."mode", my_slot, taken + 1, taken + 4096)
    ON CONFLICT ("store_id", "mode", "slot") DO UPDATE SET "next" = EXCLUDED."next", "stop" = EXCLUDED."stop";
  END IF;
  NEW."ordinal" := taken;
  RETURN NEW;
END
$$;

-- A bitmap chunk with the given positions (0-4095) set.
CREATE FUNCTION "bitmap_chunk"("positions" INTEGER[]) RETURNS VARBIT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  bits VARBIT := repeat('0', 4096)::varbit;
  p INTEGER;
BEGIN
  FOREACH p IN ARRAY "positions" LOOP
    bits := set_bit(bits, p, 1);
  END LOOP;
  RETURN bits;
END
$$;

-- Numbers a store's products in creation order within each catalog, and rebuilds what follows from the ordinals: the
-- value rows' copies and both bitmaps. For this migration's existing products, and for a catalog loaded with triggers
-- off (the benchmarks' seed).
CREATE FUNCTION "product_ordinals_rebuild"("store" UUID) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "products" p SET "ordinal" = o."n"
  FROM (SELECT "id", (row_number() OVER (PARTITION BY "mode" ORDER BY "created_at", "id") - 1)::int AS "n" FROM "products" WHERE "store_id" = "store") o
  WHERE o."id" = p."id" AND p."ordinal" <> o."n";
  DELETE FROM "product_ordinal_blocks" WHERE "store_id" = "store";
  DELETE FROM "product_ordinal_heads" WHERE "store_id" = "store";
  INSERT INTO "product_ordinal_heads" ("store_id", "mode", "next_block")
  SELECT "store_id", "mode", max("ordinal") / 4096 + 1 FROM "products" WHERE "store_id" = "store" GROUP BY 1, 2;
  UPDATE "product_attribute_values" v SET "ordinal" = p."ordinal" FROM "products" p
  WHERE v."store_id" = "store" AND p."id" = v."product_id" AND v."ordinal" <> p."ordinal";
  DELETE FROM "product_attribute_value_bitmaps" WHERE "store_id" = "store";
  INSERT INTO "product_attribute_value_bitmaps" ("store_id", "mode", "code", "value", "chunk", "value_num", "bits")
  SELECT "store_id", "mode", "code", "value", "ordinal" >> 12, min("value_num"), "bitmap_chunk"(array_agg("ordinal" & 4095))
  FROM "product_attribute_values" WHERE "store_id" = "store" GROUP BY 1, 2, 3, 4, 5;
  DELETE FROM "product_status_bitmaps" WHERE "store_id" = "store";
  INSERT INTO "product_status_bitmaps" ("store_id", "mode", "status", "chunk", "bits")
  SELECT "store_id", "mode", "status", "ordinal" >> 12, "bitmap_chunk"(array_agg("ordinal" & 4095))
  FROM "products" WHERE "store_id" = "store" GROUP BY 1, 2, 3, 4;
END
$$;

-- Existing products. No product is written meanwhile: an instance still running the previous release waits for this
-- migration to commit.
LOCK TABLE "products" IN SHARE ROW EXCLUSIVE MODE;
LOCK TABLE "variants" IN SHARE ROW EXCLUSIVE MODE;
LOCK TABLE "product_attribute_values" IN SHARE ROW EXCLUSIVE MODE;
SELECT "product_ordinals_rebuild"("id") FROM "stores";
ALTER TABLE "product_attribute_values" ALTER COLUMN "ordinal" DROP DEFAULT;

-- The newest-first order carries the ordinal, so a list narrowed by attributes walks it index-only, testing each
-- product's bit (built after the numbering, once).
DROP INDEX "products_store_id_mode_created_at_id_idx";
CREATE INDEX "products_store_id_mode_created_at_id_idx" ON "products"("store_id", "mode", "created_at" DESC, "id" DESC, "ordinal");

CREATE TRIGGER "products_take_ordinal_on_insert" BEFORE INSERT ON "products"
  FOR EACH ROW EXECUTE FUNCTION "products_take_ordinal"();

CREATE TRIGGER "products_take_ordinal_on_move" BEFORE UPDATE OF "store_id", "mode" ON "products"
  FOR EACH ROW
  WHEN (OLD."store_id" IS DISTINCT FROM NEW."store_id" OR OLD."mode" IS DISTINCT FROM NEW."mode")
  EXECUTE FUNCTION "products_take_ordinal"();

-- The value rows carry their product's ordinal (otherwise as in migration product_attribute_values). Before the rows
-- change, the bitmap chunks they are in, old and new, are locked in key order: the triggers below clear bits and set
-- bits in two statements, and two writers whose products share a chunk would otherwise each hold one chunk and wait
-- for the other's.
CREATE OR REPLACE FUNCTION "product_attribute_values_refresh"("ids" UUID[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  fresh "product_attribute_values"[];
BEGIN
  IF cardinality("ids") = 0 THEN
    RETURN;
  END IF;
  SELECT coalesce(array_agg(ROW(r.*)::"product_attribute_values"), '{}') INTO fresh FROM (
    SELECT DISTINCT p."id", p."store_id", p."mode", p."status", a."key", x."value", x."num", p."ordinal"
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
    WHERE p."id" = ANY("ids") AND x."value" IS NOT NULL AND length(x."value") <= 256
  ) r;
  PERFORM 1 FROM "product_attribute_value_bitmaps" b
  WHERE (b."store_id", b."mode", b."code", b."value", b."chunk") IN (
    SELECT v."store_id", v."mode", v."code", v."value", v."ordinal" >> 12 FROM "product_attribute_values" v WHERE v."product_id" = ANY("ids")
    UNION SELECT f."store_id", f."mode", f."code", f."value", f."ordinal" >> 12 FROM unnest(fresh) f)
  ORDER BY b."store_id", b."mode", b."code", b."value", b."chunk"
  FOR UPDATE;
  DELETE FROM "product_attribute_values" WHERE "product_id" = ANY("ids");
  INSERT INTO "product_attribute_values" ("product_id", "store_id", "mode", "status", "code", "value", "value_num", "ordinal")
  SELECT f."product_id", f."store_id", f."mode", f."status", f."code", f."value", f."value_num", f."ordinal" FROM unnest(fresh) f;
END
$$;

-- Value bitmaps follow the value rows, once per statement: inserted rows set their bits, deleted rows clear them.
-- Value rows are otherwise only updated for a status move, which the value bitmaps do not hold (the status bitmaps
-- do), so no update trigger. Rows are locked in key order, as the counters are.
CREATE FUNCTION "product_attribute_value_bitmaps_set"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_attribute_value_bitmaps" AS b ("store_id", "mode", "code", "value", "chunk", "value_num", "bits")
  SELECT "store_id", "mode", "code", "value", "ordinal" >> 12, min("value_num"), "bitmap_chunk"(array_agg("ordinal" & 4095))
  FROM "new_values"
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("store_id", "mode", "code", "value", "chunk") DO UPDATE SET "bits" = b."bits" | EXCLUDED."bits";
  RETURN NULL;
END
$$;

CREATE FUNCTION "product_attribute_value_bitmaps_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "product_attribute_value_bitmaps"
  WHERE ("store_id", "mode", "code", "value", "chunk") IN (SELECT "store_id", "mode", "code", "value", "ordinal" >> 12 FROM "old_values")
  ORDER BY "store_id", "mode", "code", "value", "chunk"
  FOR UPDATE;
  UPDATE "product_attribute_value_bitmaps" b SET "bits" = b."bits" & ~c."bits"
  FROM (
    SELECT "store_id", "mode", "code", "value", "ordinal" >> 12 AS "chunk", "bitmap_chunk"(array_agg("ordinal" & 4095)) AS "bits"
    FROM "old_values" GROUP BY 1, 2, 3, 4, 5
  ) c
  WHERE (b."store_id", b."mode", b."code", b."value", b."chunk") = (c."store_id", c."mode", c."code", c."value", c."chunk");
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_attribute_value_bitmaps_after_insert" AFTER INSERT ON "product_attribute_values"
  REFERENCING NEW TABLE AS "new_values"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_value_bitmaps_set"();

CREATE TRIGGER "product_attribute_value_bitmaps_after_delete" AFTER DELETE ON "product_attribute_values"
  REFERENCING OLD TABLE AS "old_values"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_attribute_value_bitmaps_clear"();

-- Status bitmaps follow the products: inserts and deletes once per statement, a product's move (status or catalog,
-- with a new ordinal) per row. product_ordinals_rebuild renumbers without them and rebuilds the bitmaps itself.
CREATE FUNCTION "product_status_bitmaps_set"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_status_bitmaps" AS b ("store_id", "mode", "status", "chunk", "bits")
  SELECT "store_id", "mode", "status", "ordinal" >> 12, "bitmap_chunk"(array_agg("ordinal" & 4095))
  FROM "changed_products"
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT ("store_id", "mode", "status", "chunk") DO UPDATE SET "bits" = b."bits" | EXCLUDED."bits";
  RETURN NULL;
END
$$;

CREATE FUNCTION "product_status_bitmaps_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "product_status_bitmaps"
  WHERE ("store_id", "mode", "status", "chunk") IN (SELECT "store_id", "mode", "status", "ordinal" >> 12 FROM "changed_products")
  ORDER BY "store_id", "mode", "status", "chunk"
  FOR UPDATE;
  UPDATE "product_status_bitmaps" b SET "bits" = b."bits" & ~c."bits"
  FROM (
    SELECT "store_id", "mode", "status", "ordinal" >> 12 AS "chunk", "bitmap_chunk"(array_agg("ordinal" & 4095)) AS "bits"
    FROM "changed_products" GROUP BY 1, 2, 3, 4
  ) c
  WHERE (b."store_id", b."mode", b."status", b."chunk") = (c."store_id", c."mode", c."status", c."chunk");
  RETURN NULL;
END
$$;

CREATE FUNCTION "product_status_bitmaps_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Both chunks first, in key order: a publish and an unpublish in one chunk would otherwise each lock one status's
  -- row and wait for the other's.
  PERFORM 1 FROM "product_status_bitmaps" b
  WHERE (b."store_id", b."mode", b."status", b."chunk") IN (
    (OLD."store_id", OLD."mode", OLD."status", OLD."ordinal" >> 12), (NEW."store_id", NEW."mode", NEW."status", NEW."ordinal" >> 12))
  ORDER BY b."store_id", b."mode", b."status", b."chunk"
  FOR UPDATE;
  UPDATE "product_status_bitmaps" b SET "bits" = set_bit(b."bits", OLD."ordinal" & 4095, 0)
  WHERE b."store_id" = OLD."store_id" AND b."mode" = OLD."mode" AND b."status" = OLD."status" AND b."chunk" = OLD."ordinal" >> 12;
  INSERT INTO "product_status_bitmaps" AS b ("store_id", "mode", "status", "chunk", "bits")
  VALUES (NEW."store_id", NEW."mode", NEW."status", NEW."ordinal" >> 12, "bitmap_chunk"(ARRAY[NEW."ordinal" & 4095]))
  ON CONFLICT ("store_id", "mode", "status", "chunk") DO UPDATE SET "bits" = b."bits" | EXCLUDED."bits";
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_status_bitmaps_after_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "changed_products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_status_bitmaps_set"();

CREATE TRIGGER "product_status_bitmaps_after_delete" AFTER DELETE ON "products"
  REFERENCING OLD TABLE AS "changed_products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_status_bitmaps_clear"();

CREATE TRIGGER "product_status_bitmaps_after_update" AFTER UPDATE OF "status", "store_id", "mode" ON "products"
  FOR EACH ROW
  WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."store_id" IS DISTINCT FROM NEW."store_id" OR OLD."mode" IS DISTINCT FROM NEW."mode")
  EXECUTE FUNCTION "product_status_bitmaps_move"();

ANALYZE "product_attribute_value_bitmaps";
ANALYZE "product_status_bitmaps";
