-- Search ranking (src/services/productList.ts): names equal to the search text
-- first, then names starting with it, then every other match, newest first in
-- each group. This pattern index (text_pattern_ops) answers the case-insensitive
-- equality and prefix whatever the database's collation, and ANALYZE keeps
-- statistics on its expression, so the planner knows whether a prefix is rare
-- (read it from this index) or common (walk the created_at order instead).
--
-- An expression index: Prisma's schema cannot state one and its migration
-- diff leaves it alone (schema.prisma names it beside the model's indexes).
CREATE INDEX "products_store_mode_name_prefix_idx" ON "products" ("store_id", "mode", lower("name") text_pattern_ops);
