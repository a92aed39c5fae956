-- Category slugs are unique per store whatever their case. New slugs must be
-- lowercase (the service checks the format), but rows written before that rule
-- may hold capitals, so uniqueness is enforced on lower(slug). schema.prisma
-- cannot express an expression index; the migration diff ignores it.

-- Rows that already differ only in case would make the index fail with a bare
-- "could not create unique index". Name them instead and change nothing: which
-- one to rename is the operator's decision, not the migration's.
DO $$
DECLARE
  clashes text;
BEGIN
  SELECT string_agg(format('store %s: %s', store_id, slugs), '; ')
    INTO clashes
    FROM (
      SELECT store_id, string_agg(quote_literal(slug), ', ' ORDER BY slug) AS slugs
        FROM "categories"
       GROUP BY store_id, lower(slug)
      HAVING count(*) > 1
    ) AS duplicated;
  IF clashes IS NOT NULL THEN
    RAISE EXCEPTION 'category slugs that differ only in case: %. Rename all but one of each (UPDATE categories SET slug = ''…'' WHERE id = ''…'') and run the migrations again.', clashes;
  END IF;
END $$;

CREATE UNIQUE INDEX "categories_store_id_lower_slug_key" ON "categories" ("store_id", lower("slug"));
