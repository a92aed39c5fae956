/** GraphQL for a product's staged version: reading it and its difference, publishing, scheduling and discarding it. */

import { builder, capability } from '../../api/graphql/builder';
import { FieldChange } from '../../api/graphql/fieldChange';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';
import { parseRfc3339 } from '../../kernel/time';
import { validationError } from '../../platform/errors';
import type { Prisma } from '../../platform/db/client';
import { discardStaged, getStagedDifference, getStagedProduct, publishStaged, scheduleStagedPublish } from '../services/stagedChanges';
import { Product, productQuery } from './products';

interface StagedProductShape {
  storeId: string;
  id: string;
  mode: string | null | undefined;
  product: unknown;
  staged: Prisma.ProductStagedGetPayload<object> | null;
}

const StagedPublishScope = builder.enumType('StagedPublishScope', {
  values: { ALL: { value: 'all', description: 'Every staged change' }, PRICES: { value: 'prices', description: "The product's price and prices, the variants' price, compare-at price and prices" } } as const,
});

const StagedProduct = builder.objectRef<StagedProductShape>('StagedProduct').implement({
  description: "A product's staged version: the product as it will be once published (the current product when it has no staged changes).",
  fields: (t) => ({
    product: t.field({ type: Product, resolve: (s) => s.product as never }),
    hasStagedChanges: t.boolean({ resolve: (s) => s.staged !== null }),
    publishAt: t.field({ type: 'DateTime', nullable: true, description: 'When the scheduler publishes the staged changes; null: not scheduled', resolve: (s) => s.staged?.publishAt ?? null }),
    publishScope: t.field({ type: StagedPublishScope, nullable: true, description: 'What the scheduled publish publishes', resolve: (s) => (s.staged?.publishAt ? ((s.staged.publishScope ?? 'all') as 'all' | 'prices') : null) }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, description: 'When the last staged write was made', resolve: (s) => s.staged?.updatedAt ?? null }),
    updatedBy: t.string({ nullable: true, description: 'Who made the last staged write, as the change history names them', resolve: (s) => s.staged?.updatedBy ?? null }),
    changes: t.field({
      type: [FieldChange],
      description: 'The field-level difference from the current product, in the change history\'s form: product fields by REST name (prices per currency as prices.EUR), variant fields as variants.<id>.<field>',
      resolve: (s, _args, ctx) => (s.staged ? getStagedDifference(inCatalogMode(ctx, s.mode as never), s.storeId, s.id) : []),
    }),
  }),
});

builder.queryField('stagedProduct', (t) =>
  t.field({
    type: StagedProduct,
    description: "A product's staged version, with its difference from the current product (docs/staged-changes.md).",
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx, info) => {
      const found = await getStagedProduct(inCatalogMode(ctx, args.mode), args.storeId, args.id, productQuery(ctx, info, ['product']));
      return { storeId: args.storeId, id: args.id, mode: args.mode, ...found };
    },
  }),
);

/** A schedule time as the product's own schedule takes it: RFC 3339 with an offset. */
function publishTime(value: string | null | undefined): Date | null | undefined {
  if (value == null) return value;
  const at = parseRfc3339(value.trim());
  if (!at) throw validationError([{ field: 'publishAt', code: 'invalid_value', message: 'must be an RFC 3339 timestamp with an offset, e.g. 2026-05-01T09:00:00+02:00' }]);
  return at;
}

builder.mutationFields((t) => ({
  publishStagedProduct: t.prismaField({
    type: 'Product',
    description:
      "Publishes the product's staged changes (scope PRICES: only the price fields; the rest stays staged) as a live write, with product.updated and product.staged_published. " +
      'With publishAt, schedules that publish instead (the scheduler runs it then); publishAt null cancels a schedule. Without staged changes, nothing is published.',
    args: {
      storeId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      scope: t.arg({ type: StagedPublishScope, description: 'Default ALL' }),
      publishAt: t.arg.string({ description: 'RFC 3339 timestamp with offset, in the future: publish then instead of now; null cancels a scheduled publish' }),
      expectedVersion: t.arg.int({ description: 'The product version you read: precondition_failed when it changed since' }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => {
      const c = inCatalogMode(ctx, args.mode);
      const at = publishTime(args.publishAt);
      if (at !== undefined) return scheduleStagedPublish(c, args.storeId, args.id, { publishAt: at, scope: args.scope, expectedVersion: args.expectedVersion }, query);
      return publishStaged(c, args.storeId, args.id, { scope: args.scope, expectedVersion: args.expectedVersion }, query);
    },
  }),
  discardStagedProduct: t.prismaField({
    type: 'Product',
    description: "Drops the product's staged changes (and a scheduled publish of them), with product.staged_discarded. Without staged changes, nothing is written.",
    args: {
      storeId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      expectedVersion: t.arg.int({ description: 'The product version you read: precondition_failed when it changed since' }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) => discardStaged(inCatalogMode(ctx, args.mode), args.storeId, args.id, { expectedVersion: args.expectedVersion }, query),
  }),
}));
