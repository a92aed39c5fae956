import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder';
import { withIdempotencyKeyArgument } from './idempotency';
import './scalars';
import './users';
import './dashboardSessions';
import './products';
import './variants';
import './seo';
import './descriptions';
import './images';
import './oauth';
import './apiKeys';
import './public';
import './categories';
import './changes';
import './webhooks';
import './testCatalog';
import './productImports';

/** Every mutation takes an idempotencyKey (added once, here, to the built schema). */
export const schema = withIdempotencyKeyArgument(builder.toSchema());

/** The SDL committed as schema.graphql (sorted, so diffs stay readable). */
export const printedSchema = () => printSchema(lexicographicSortSchema(schema)) + '\n';
