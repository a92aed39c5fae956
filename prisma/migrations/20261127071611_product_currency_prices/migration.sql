-- The products' amounts in further currencies (`products.prices`, a JSON column keyed by currency), one row per product
-- and currency, so a list sorted by price in a further currency walks an index and stops after its page, and a price
-- filter in one reads the index's range, as the default currency's `price` does with (store_id, mode, price). Before
-- this, both computed the amount from the JSON of every product of the store (half and a third of the speed of the
-- same list in the default currency, bench/results/currencies.md). Kept by triggers in the same transaction as every
-- write; deleting a product deletes its rows (foreign key).

-- CreateTable
CREATE TABLE "product_currency_prices" (
    "product_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "store_id" UUID NOT NULL,
    "mode" "Mode" NOT NULL,
    "amount" DECIMAL NOT NULL,
    "status" "ProductStatus" NOT NULL,

    CONSTRAINT "product_currency_prices_pkey" PRIMARY KEY ("product_id","currency")
);

-- CreateIndex
-- The status rides along so a storefront page (active products, by price) is an index-only scan of this index.
CREATE INDEX "product_currency_prices_store_mode_currency_amount_idx" ON "product_currency_prices"("store_id", "mode", "currency", "amount", "product_id", "status");

-- AddForeignKey
ALTER TABLE "product_currency_prices" ADD CONSTRAINT "product_currency_prices_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A product's rows, from its prices: a currency whose entry has an amount gets a row.
CREATE FUNCTION "product_currency_prices_of"("product" UUID, "store" UUID, "catalog" "Mode", "prices" JSONB, "product_status" "ProductStatus")
RETURNS TABLE ("product_id" UUID, "currency" TEXT, "store_id" UUID, "mode" "Mode", "amount" DECIMAL, "status" "ProductStatus")
LANGUAGE sql IMMUTABLE AS $$
  SELECT "product", e."key", "store", "catalog", (e."value" ->> 'amount')::numeric, "product_status"
  FROM jsonb_each("prices") e WHERE e."value" ->> 'amount' IS NOT NULL
$$;

-- Inserts: one statement-level trigger, so a bulk insert (an import, a test catalog copy) writes every row at once.
CREATE FUNCTION "product_currency_prices_add_rows"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "product_currency_prices" ("product_id", "currency", "store_id", "mode", "amount", "status")
  SELECT r.* FROM "changed_products" p, "product_currency_prices_of"(p."id", p."store_id", p."mode", p."prices", p."status") r WHERE p."prices" <> '{}'::jsonb;
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_currency_prices_after_insert" AFTER INSERT ON "products"
  REFERENCING NEW TABLE AS "changed_products"
  FOR EACH STATEMENT EXECUTE FUNCTION "product_currency_prices_add_rows"();

-- Updates: only a change of the prices (or of the status, store or mode, which the rows carry) rewrites the product's
-- rows; the WHEN clause keeps every other update free of any work here.
CREATE FUNCTION "product_currency_prices_refresh_row"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "product_currency_prices" WHERE "product_id" = NEW."id";
  INSERT INTO "product_currency_prices" ("product_id", "currency", "store_id", "mode", "amount", "status")
  SELECT r.* FROM "product_currency_prices_of"(NEW."id", NEW."store_id", NEW."mode", NEW."prices", NEW."status") r;
  RETURN NULL;
END
$$;

CREATE TRIGGER "product_currency_prices_after_update" AFTER UPDATE OF "prices", "status", "store_id", "mode" ON "products"
  FOR EACH ROW
  WHEN ((OLD."prices" IS DISTINCT FROM NEW."prices" OR OLD."status" IS DISTINCT FROM NEW."status" OR OLD."store_id" IS DISTINCT FROM NEW."store_id"
    OR OLD."mode" IS DISTINCT FROM NEW."mode") AND (OLD."prices" <> '{}'::jsonb OR NEW."prices" <> '{}'::jsonb))
  EXECUTE FUNCTION "product_currency_prices_refresh_row"();

-- Existing products. No product is written meanwhile: an instance still running the previous release waits for this
-- migration to commit.
LOCK TABLE "products" IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO "product_currency_prices" ("product_id", "currency", "store_id", "mode", "amount", "status")
SELECT r.* FROM "products" p, "product_currency_prices_of"(p."id", p."store_id", p."mode", p."prices", p."status") r WHERE p."prices" <> '{}'::jsonb;
