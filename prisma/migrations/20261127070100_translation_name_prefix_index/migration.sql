-- Search ranking in a locale (src/catalog/services/productList.ts, searchSidesSql): a product matched by its
-- translation is ranked by its translated name, equal to the search text first, then starting with it. As
-- products_store_mode_name_prefix_idx does for the products' own names, this pattern index answers the equality
-- and the prefix within a store, mode and locale, so those groups read the few names that qualify instead of
-- joining every translation that has the words. A translation without a name ranks as '' (its product's own name
-- cannot hold the words, or its own text would have matched).
--
-- An expression index: Prisma's schema cannot state one and its migration diff leaves it alone (schema.prisma
-- names it beside the model's indexes).
CREATE INDEX "product_translations_name_prefix_idx" ON "product_translations" ("store_id", "mode", "locale", lower(coalesce("name", '')) text_pattern_ops);
