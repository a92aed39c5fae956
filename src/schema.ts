/** The GraphQL schema, assembled from every domain's types. */

import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './api/graphql/builder';
import { withIdempotencyKeyArgument } from './api/graphql/idempotency';
import './api/graphql/scalars';
import './access/graphql/users';
import './access/graphql/dashboardSessions';
import './catalog/graphql/products';
import './catalog/graphql/variants';
import './catalog/graphql/options';
import './catalog/graphql/seo';
import './catalog/graphql/descriptions';
import './catalog/graphql/images';
import './catalog/graphql/staged';
import './access/graphql/oauth';
import './access/graphql/apiKeys';
import './catalog/graphql/public';
import './catalog/graphql/categories';
import './catalog/graphql/attributes';
import './catalog/graphql/collections';
import './catalog/graphql/localization';
import './catalog/graphql/translations';
import './events/graphql/changes';
import './events/graphql/webhooks';
import './catalog/graphql/testCatalog';
import './catalog/graphql/productImports';

/** Every mutation takes an idempotencyKey (added once, here, to the built schema). */
export const schema = withIdempotencyKeyArgument(builder.toSchema());

/** The SDL committed as schema.graphql (sorted, so diffs stay readable). */
export const printedSchema = () => printSchema(lexicographicSortSchema(schema)) + '\n';
