-- A numeric range filter (attributes[capacity][gte]=2&[lte]=6) is a range on value_num within one code. Without
-- statistics on the pair the planner takes value_num's spread over every numeric attribute and the code's share as
-- independent, and expected 6,000 rows where a 100,000-product catalog had 41,000: it then built the list's page
-- from the range first. The MCV list of (code, value_num) holds each numeric attribute's common values; a target of
-- 1000 keeps them for stores with several numeric attributes of a hundred values or more.
CREATE STATISTICS "product_attribute_values_code_value_num_stats" (mcv) ON "code", "value_num" FROM "product_attribute_values";
ALTER STATISTICS "product_attribute_values_code_value_num_stats" SET STATISTICS 1000;
ANALYZE "product_attribute_values";
