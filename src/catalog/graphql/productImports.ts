/** GraphQL types and operations for bulk product import jobs and exports. */

import type { FileUpload } from 'graphql-upload-minimal';
import { uploadError } from '../services/images';
import * as imports from '../services/productImports';
import { IMPORTS_LISTED, PRODUCT_IMPORT_STATUSES, type ImportFailure, type ProductImportRecord } from '../services/productImports';
import { CONTENT_TYPES, type RowError, TRANSFER_FORMATS } from '../transfer/format';
import { ERROR_POLICIES, MAX_REPORTED_ERRORS } from '../transfer/importer';
import { cleanFilter, ProductFilterInputType } from './products';
import { builder, capability } from '../../api/graphql/builder';
import { inCatalogMode, MODE_ARG_DESCRIPTION, ServiceMode } from '../../api/graphql/modes';

/**
 * Bulk product import and export. An import is a job: startProductImport
 * stores the file and queues it, the worker imports it, productImport follows
 * it. An export is a file streamed by REST (GET …/products/export): GraphQL
 * cannot stream one, so productExport only checks the request (permission,
 * filter) and names the file; the REST route runs it, then streams.
 */

const ProductTransferFormat = builder.enumType('ProductTransferFormat', { values: TRANSFER_FORMATS, description: 'csv: a header row, then one product per row; jsonl: one JSON object per line' });
const ProductImportErrorPolicy = builder.enumType('ProductImportErrorPolicy', {
  values: ERROR_POLICIES,
  description: "reject_everything: nothing is imported if any row fails (one transaction); reject_failed_rows: bad rows are left out and reported, the others imported",
});
const ProductImportStatus = builder.enumType('ProductImportStatus', {
  values: PRODUCT_IMPORT_STATUSES,
  description: 'queued: waiting for the worker; running; succeeded: ran to its end (see committed and the counts); failed: see failure (reject_everything with rejected rows fails with rows_rejected)',
});

const ProductImportRowError = builder.objectRef<RowError>('ProductImportRowError').implement({
  description: 'One problem of one row: the row as a spreadsheet numbers it (the CSV header is row 1; in JSON Lines the line), the column, a stable code and a message.',
  fields: (t) => ({
    row: t.exposeInt('row'),
    field: t.exposeString('field', { description: 'The column (e.g. price, variants.0.sku), or (row) for the row as a whole' }),
    code: t.exposeString('code'),
    message: t.exposeString('message'),
  }),
});

const ProductImportFailure = builder.objectRef<ImportFailure>('ProductImportFailure').implement({
  description: 'What stopped an import: a file error (invalid_encoding, malformed_csv, …), rows_rejected (reject_everything), or internal_error',
  fields: (t) => ({
    code: t.exposeString('code'),
    message: t.exposeString('message'),
    row: t.int({ nullable: true, resolve: (f) => f.row ?? null }),
  }),
});

const ProductImport = builder.objectRef<ProductImportRecord>('ProductImport').implement({
  description: 'A bulk product import run by the worker. Poll it for progress; the counts are final once it has finished.',
  fields: (t) => ({
    id: t.exposeID('id'),
    storeId: t.exposeID('storeId'),
    mode: t.field({ type: ServiceMode, description: 'The catalog it writes', resolve: (j) => j.mode }),
    status: t.field({ type: ProductImportStatus, resolve: (j) => j.status }),
    format: t.field({ type: ProductTransferFormat, resolve: (j) => j.format as (typeof TRANSFER_FORMATS)[number] }),
    dryRun: t.exposeBoolean('dryRun'),
    errorPolicy: t.field({ type: ProductImportErrorPolicy, resolve: (j) => j.errorPolicy as (typeof ERROR_POLICIES)[number] }),
    committed: t.boolean({ description: 'Whether its writes were kept: succeeded and not a dry run', resolve: (j) => imports.importCommitted(j) }),
    fileName: t.exposeString('fileName'),
    fileBytes: t.exposeInt('fileBytes'),
    rowsTotal: t.exposeInt('rowsTotal', { description: 'Data rows in the file' }),
    rowsProcessed: t.exposeInt('rowsProcessed', {
      description: 'Rows handled so far (reject_failed_rows: after each committed batch of 200; reject_everything and dry runs: when the job ends, being one transaction)',
    }),
    created: t.exposeInt('created'),
    updated: t.exposeInt('updated'),
    unchanged: t.exposeInt('unchanged', { description: 'Rows that matched a product and changed nothing' }),
    rejected: t.exposeInt('rejected', { description: 'Rows with at least one error' }),
    errorCount: t.exposeInt('errorCount', { description: `Row errors in all; rowErrors holds the first ${MAX_REPORTED_ERRORS}` }),
    rowErrors: t.field({
      type: [ProductImportRowError],
      description: `The error report, in row order: the first ${MAX_REPORTED_ERRORS} errors at most (errorCount counts them all), a page of it per offset and limit.`,
      args: { offset: t.arg.int({ defaultValue: 0 }), limit: t.arg.int({ defaultValue: 100, description: 'At most 1000' }) },
      resolve: (j, args) => {
        const offset = Math.max(0, args.offset ?? 0);
        const limit = Math.min(MAX_REPORTED_ERRORS, Math.max(0, args.limit ?? 100));
        return (j.errors as unknown as RowError[]).slice(offset, offset + limit);
      },
    }),
    warnings: t.field({ type: [ProductImportRowError], description: 'Columns ignored (image_urls)', resolve: (j) => j.warnings as unknown as RowError[] }),
    failure: t.field({ type: ProductImportFailure, nullable: true, resolve: (j) => (j.failure as unknown as ImportFailure | null) ?? null }),
    requestedBy: t.exposeString('requestedBy'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const ProductExport = builder.simpleObject('ProductExport', {
  description: 'What GET …/products/export streams for these arguments',
  fields: (t) => ({ format: t.string(), contentType: t.string(), fileName: t.string() }),
});

builder.queryFields((t) => ({
  productImport: t.field({
    type: ProductImport,
    description: 'One product import with its progress, counts and error report. Needs products write permission.',
    args: { storeId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (_root, args, ctx) => imports.getProductImport(ctx, args.storeId, args.id),
  }),
  productImports: t.field({
    type: [ProductImport],
    description: `The store's latest ${IMPORTS_LISTED} product imports, newest first. Needs products write permission.`,
    args: { storeId: t.arg.id({ required: true }) },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: (_root, args, ctx) => imports.listProductImports(ctx, args.storeId),
  }),
  productExport: t.field({
    type: ProductExport,
    description:
      'Checks an export (permission to read the catalog, the filter) and names its file. The file itself is streamed by GET /api/v1/merchant/stores/{storeId}/products/export (GraphQL cannot stream a file).',
    args: {
      storeId: t.arg.id({ required: true }),
      mode: t.arg({ type: ServiceMode, description: MODE_ARG_DESCRIPTION }),
      format: t.arg({ type: ProductTransferFormat, required: true }),
      filter: t.arg({ type: ProductFilterInputType }),
    },
    authScopes: (_root, args) => capability('readCatalog', args.storeId),
    resolve: async (_root, args, ctx) => {
      await imports.checkExport(inCatalogMode(ctx, args.mode), args.storeId, cleanFilter(args.filter));
      return { format: args.format, contentType: CONTENT_TYPES[args.format], fileName: `products-${inCatalogMode(ctx, args.mode).mode}.${args.format}` };
    },
  }),
}));

builder.mutationFields((t) => ({
  startProductImport: t.field({
    type: ProductImport,
    description:
      'Stores an import file (GraphQL multipart request) and queues its import into the catalog of the request\'s mode; the worker runs it. ' +
      'A file that cannot be read (not UTF-8, an unknown column, broken CSV, too many rows) is refused at once: validation_failed with the file error\'s code on the field `file`. Needs products write permission.',
    args: {
      storeId: t.arg.id({ required: true }),
      file: t.arg({ type: 'Upload', required: true }),
      format: t.arg({ type: ProductTransferFormat, description: 'Default: from the file name (.jsonl, .ndjson: jsonl), else csv' }),
      dryRun: t.arg.boolean({ defaultValue: false, description: 'Check and count only: nothing is written, no event recorded' }),
      errorPolicy: t.arg({ type: ProductImportErrorPolicy, defaultValue: 'reject_everything' }),
    },
    authScopes: (_root, args) => capability('changeCatalog', args.storeId),
    resolve: async (_root, args, ctx) => {
      let upload: FileUpload;
      let stream: ReturnType<FileUpload['createReadStream']>;
      try {
        upload = await args.file;
        stream = upload.createReadStream();
      } catch (e) {
        // A file the map names but the request lacks is the client's error, not an unexpected one.
        uploadError(e);
      }
      const format = args.format ?? (/\.(jsonl|ndjson)$/i.test(upload.filename ?? '') ? 'jsonl' : 'csv');
      return imports.startProductImport(ctx, args.storeId, stream, {
        format,
        dryRun: args.dryRun ?? false,
        errorPolicy: args.errorPolicy ?? 'reject_everything',
        fileName: upload.filename ?? '',
      });
    },
  }),
}));
