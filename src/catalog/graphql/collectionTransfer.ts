/**
 * Collections import and export (src/catalog/transfer/collections.ts). An import is small (a catalog has at most
 * 1,000 collections), so it runs in the request and answers its summary; an export is streamed by REST
 * (GET …/collections/export): GraphQL cannot stream a file, so collectionExport only checks the request and names it.
 */

import type { FileUpload } from 'graphql-upload-minimal';
import { text } from 'node:stream/consumers';
import { uploadError } from '../services/images';
import { CONTENT_TYPES, TRANSFER_FORMATS } from '../transfer/format';
import { importCollections, storeLocales } from '../transfer/collections';
import { builder, capability } from '../../api/graphql/builder';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';

const CollectionTransferFormat = builder.enumType('CollectionTransferFormat', { values: TRANSFER_FORMATS, description: 'csv: a header row, then one collection per row; jsonl: one JSON object per line' });

const CollectionExport = builder.simpleObject('CollectionExport', {
  description: 'What GET …/collections/export streams for these arguments',
  fields: (t) => ({ format: t.string(), contentType: t.string(), fileName: t.string() }),
});

const ImportProblem = builder.simpleObject('CollectionImportError', {
  fields: (t) => ({ row: t.int({ description: 'The CSV line (the header is 1) or the JSON Lines line' }), field: t.string(), code: t.string(), message: t.string() }),
});

const CollectionImportSummary = builder.simpleObject('CollectionImportSummary', {
  description: 'What an import did: each record is its own write; a rejected one is reported with every problem it has and left out',
  fields: (t) => ({
    rows: t.int(),
    created: t.int(),
    updated: t.int(),
    unchanged: t.int(),
    rejected: t.int(),
    errors: t.field({ type: [ImportProblem] }),
  }),
});

builder.queryFields((t) => ({
  collectionExport: t.field({
    type: CollectionExport,
    description: "Checks an export of the catalog's collections and names its file; GET /api/v1/merchant/stores/{storeId}/collections/export streams it.",
    args: { storeId: t.arg.id({ required: true }), mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }), format: t.arg({ type: CollectionTransferFormat, required: true }) },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx) => {
      const c = inCatalogMode(ctx, args.mode);
      await storeLocales(c, args.storeId);
      return { format: args.format, contentType: CONTENT_TYPES[args.format], fileName: `collections-${c.mode}.${args.format}` };
    },
  }),
}));

builder.mutationFields((t) => ({
  importCollections: t.field({
    type: CollectionImportSummary,
    description:
      "Imports collections from a CSV or JSON Lines file (GraphQL multipart request) into the catalog of the request's mode: a record whose id or slug names a collection updates it, any other creates one; a manual collection's `products` (ids or SEO slugs) becomes its list. Runs in the request.",
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      file: t.arg({ type: 'Upload', required: true }),
      format: t.arg({ type: CollectionTransferFormat, description: 'Default: from the file name (.jsonl, .ndjson: jsonl), else csv' }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: async (_root, args, ctx) => {
      let upload: FileUpload;
      let body: string;
      try {
        upload = await args.file;
        body = await text(upload.createReadStream());
      } catch (e) {
        uploadError(e);
      }
      const c = inCatalogMode(ctx, args.mode);
      await storeLocales(c, args.storeId);
      const format = args.format ?? (/\.(jsonl|ndjson)$/i.test(upload.filename ?? '') ? 'jsonl' : 'csv');
      return importCollections(c, args.storeId, body, format);
    },
  }),
}));
