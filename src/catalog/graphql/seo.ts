/** GraphQL type and operation for a product's SEO record. */

import { productWrite } from '../services/stagedChanges';
import { APPLY_TO_ARG_DOC, STAGED_ARG_DOC, StagedApplyTo, writeTarget } from './stagedArgs';
import { SeoInput as SeoRules, setSeo } from '../services/seo';
import { builder, capability } from '../../api/graphql/builder';
import { inputRules } from '../../api/inputCheck';
import { fieldErrorsOf } from '../../platform/validation';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';

builder.prismaObject('Seo', {
  fields: (t) => ({
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    slug: t.exposeString('slug', { nullable: true }),
    canonicalUrl: t.exposeString('canonicalUrl', { nullable: true }),
    ogImageUrl: t.exposeString('ogImageUrl', { nullable: true }),
    noindex: t.exposeBoolean('noindex'),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField('Product', 'seo', (t) => t.relation('seo', { nullable: true, description: 'Null until SEO data is set' }));

const SeoInput = builder.inputType('SeoInput', {
  extensions: inputRules((v) => fieldErrorsOf(SeoRules, v)),
  description: 'The whole SEO record: a field left out or null is cleared (noindex becomes false).',
  fields: (t) => ({
    title: t.string({ description: 'At most 70 characters' }),
    description: t.string({ description: 'At most 320 characters' }),
    slug: t.string({ description: 'Lowercase letters, digits and hyphens; unique within the store' }),
    canonicalUrl: t.string({ description: 'Absolute http(s) URL' }),
    ogImageUrl: t.string({ description: 'Absolute http(s) URL' }),
    noindex: t.boolean(),
  }),
});

builder.mutationField('setProductSeo', (t) =>
  t.prismaField({
    type: 'Seo',
    description: "Sets (replaces) a product's SEO record.",
    args: {
      storeId: t.arg.id({ required: true }),
      productId: t.arg.id({ required: true }),
      input: t.arg({ type: SeoInput, required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      expectedVersion: t.arg.int({ description: 'The product version you read: when the product has changed since, precondition_failed and nothing is written (as updateProduct).' }),
      staged: t.arg.boolean({ description: STAGED_ARG_DOC }),
      applyTo: t.arg({ type: StagedApplyTo, description: APPLY_TO_ARG_DOC }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (query, _root, args, ctx) =>
      productWrite(inCatalogMode(ctx, args.mode), args.storeId, args.productId, writeTarget(args), { unstageable: [], touchesStaged: true }, (t, checkVersion) =>
        setSeo(t, args.storeId, args.productId, args.input, query, { expectedVersion: checkVersion ? args.expectedVersion : null }),
      ),
  }),
);
