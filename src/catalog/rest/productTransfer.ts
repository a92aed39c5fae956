/** REST routes for bulk product import and export. */

import { Upload } from 'graphql-upload-minimal';
import { requireCapability } from '../../access/auth/authorization';
import { AppError } from '../../platform/errors';
import { MAX_REPORTED_ERRORS } from '../transfer/importer';
import { exportProducts } from '../transfer/exporter';
import { COLUMNS, type TransferFormat } from '../transfer/format';
import { isMultipart, readMultipartForm, type SpooledFile } from '../../api/rest/multipart';
import { enumParam, intParam } from '../../api/rest/params';
import { listFilterOf } from './products';
import type { RestRequest, RestRoute } from '../../api/rest/routes';

/**
 * Bulk import and export of a store's products (docs/import-export.md):
 * - POST …/products/imports (multipart: file, format, dry_run, error_policy) runs
 *   startProductImport and answers 202 with the queued job;
 * - GET …/products/imports/:importId runs productImport: status, progress,
 *   counts and a page of the error report;
 * - GET …/products/export runs productExport (permission and filter checks),
 *   then streams the file page by page. It is the one route whose body is not
 *   the operation's result: GraphQL cannot stream a file, so the operation
 *   decides whether the export may start and the route streams what the
 *   exporter reads.
 */

const BASE = '/api/v1/merchant/stores/:storeId/products';

const IMPORT_FIELDS = (errors: boolean) => `
  id store_id: storeId mode status format dry_run: dryRun error_policy: errorPolicy committed
  file_name: fileName file_bytes: fileBytes rows_total: rowsTotal rows_processed: rowsProcessed
  created updated unchanged rejected error_count: errorCount
  ${errors ? 'errors: rowErrors(offset: $errorOffset, limit: $errorLimit) { row field code message }' : ''}
  warnings { row field code message }
  failure { code message row }
  requested_by: requestedBy created_at: createdAt started_at: startedAt finished_at: finishedAt`;

const importUrl = (r: RestRequest, id: string) => `${r.ctx.baseUrl}/api/v1/merchant/stores/${encodeURIComponent(r.params.storeId)}/products/imports/${id}`;

/** The job as REST shows it: progress and counts grouped, and where to follow it. */
function importView(j: Record<string, any>, r: RestRequest, errorPage?: { offset: number; limit: number }) {
  const { rows_total, rows_processed, created, updated, unchanged, rejected, error_count, errors, ...rest } = j;
  return {
    ...rest,
    progress: { rows_processed, rows_total },
    counts: { created, updated, unchanged, rejected, errors: error_count },
    ...(errors
      ? { errors, error_report: { offset: errorPage!.offset, limit: errorPage!.limit, returned: errors.length, total: error_count, kept: Math.min(error_count, MAX_REPORTED_ERRORS) } }
      : {}),
    links: { self: importUrl(r, j.id) },
  };
}

/** The Upload value the GraphQL `Upload` scalar accepts, for a file the REST layer has already received. */
function uploadOf(file: SpooledFile): Upload {
  const upload = new Upload();
  (upload as unknown as { resolve(f: SpooledFile): void }).resolve(file);
  return upload;
}

const bool = (v: string | undefined, field: string) => {
  if (v === undefined || v === '') return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  throw new AppError('validation_failed', `${field}: must be true or false`, { errors: [{ field, code: 'invalid_parameter', message: 'must be true or false' }] });
};

// --- OpenAPI -----------------------------------------------------------------

const problem = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) => ({
  description: `${code}: ${detail}`,
  content: {
    'application/problem+json': {
      schema: { $ref: '#/components/schemas/Problem' },
      example: { type: `/docs/errors/${code}`, title: code, status, code, detail, request_id: '6f1c0c3e-1d1b-4c4e-9a55-0b7e0f3a8e21', ...extra },
    },
  },
});
const unauthenticated = problem(401, 'unauthenticated', 'Authentication required: send Authorization: Bearer <token>');
const forbidden = problem(403, 'forbidden', 'You do not have permission to perform this action');
const notFoundStore = problem(404, 'not_found', 'Store not found');

const ImportSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    store_id: { type: 'string', format: 'uuid' },
    mode: { type: 'string', enum: ['live', 'test'], description: 'The catalog it writes (the request\'s mode)' },
    status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
    format: { type: 'string', enum: ['csv', 'jsonl'] },
    dry_run: { type: 'boolean' },
    error_policy: { type: 'string', enum: ['reject_everything', 'reject_failed_rows'] },
    committed: { type: 'boolean', description: 'Whether its writes were kept (succeeded and not a dry run)' },
    file_name: { type: 'string' },
    file_bytes: { type: 'integer' },
    progress: { type: 'object', properties: { rows_processed: { type: 'integer' }, rows_total: { type: 'integer' } } },
    counts: {
      type: 'object',
      properties: { created: { type: 'integer' }, updated: { type: 'integer' }, unchanged: { type: 'integer' }, rejected: { type: 'integer' }, errors: { type: 'integer' } },
    },
    errors: {
      type: 'array',
      description: `A page of the error report (error_offset, error_limit); the job keeps the first ${MAX_REPORTED_ERRORS} errors`,
      items: { type: 'object', properties: { row: { type: 'integer' }, field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } } },
    },
    error_report: { type: 'object', properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, returned: { type: 'integer' }, total: { type: 'integer' }, kept: { type: 'integer' } } },
    warnings: { type: 'array', items: { type: 'object' } },
    failure: { type: ['object', 'null'], properties: { code: { type: 'string' }, message: { type: 'string' }, row: { type: ['integer', 'null'] } } },
    requested_by: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    started_at: { type: ['string', 'null'], format: 'date-time' },
    finished_at: { type: ['string', 'null'], format: 'date-time' },
    links: { type: 'object', properties: { self: { type: 'string', format: 'uri' } } },
  },
};

const exampleJob = (over: Record<string, unknown> = {}) => ({
  id: '01936f4e-8b2a-7c3d-9e4f-5a6b7c8d9e0f',
  store_id: '7d9f8e6a-1b2c-4d3e-8f9a-0b1c2d3e4f5a',
  mode: 'live',
  status: 'queued',
  format: 'csv',
  dry_run: false,
  error_policy: 'reject_failed_rows',
  committed: false,
  file_name: 'products.csv',
  file_bytes: 182_344,
  progress: { rows_processed: 0, rows_total: 1200 },
  counts: { created: 0, updated: 0, unchanged: 0, rejected: 0, errors: 0 },
  warnings: [],
  failure: null,
  requested_by: 'Ana',
  created_at: '2026-11-24T18:40:00.000Z',
  started_at: null,
  finished_at: null,
  links: { self: 'https://shop.example/api/v1/merchant/stores/7d9f8e6a-1b2c-4d3e-8f9a-0b1c2d3e4f5a/products/imports/01936f4e-8b2a-7c3d-9e4f-5a6b7c8d9e0f' },
  ...over,
});

const jobContent = (example: unknown) => ({ 'application/json': { schema: { type: 'object', properties: { data: { $ref: '#/components/schemas/ProductImport' } } }, example: { data: example } } });
const components = { schemas: { ProductImport: ImportSchema } };

const filterParameters = [
  { name: 'format', in: 'query', description: 'csv (default) or jsonl', schema: { type: 'string', enum: ['csv', 'jsonl'], default: 'csv' } },
  { name: 'search', in: 'query', description: 'As the product list: text over name, description, tags and SKUs', schema: { type: 'string' } },
  { name: 'category', in: 'query', description: 'Category slug', schema: { type: 'string' } },
  { name: 'tags', in: 'query', description: 'Comma-separated: products carrying any of them', schema: { type: 'string' } },
  { name: 'is_active', in: 'query', schema: { type: 'boolean' } },
  { name: 'low_stock', in: 'query', schema: { type: 'boolean' } },
  { name: 'scheduled', in: 'query', schema: { type: 'boolean' } },
];

/**
 * An import request's file (the multipart field "file") as an Upload for the operation, and its other fields. The
 * permission is checked before the body is read, so a client that may not import cannot make the server spool a
 * file; `tooLarge` says the limit (`{max}`: the bytes).
 */
export async function importFileOf({ req, params, ctx }: RestRequest, maxBytes: number, tooLarge: string) {
  requireCapability(ctx, 'changeCatalog', params.storeId);
  if (!isMultipart(req)) throw new AppError('unsupported_media_type', 'Send the file as multipart/form-data with a file field "file"');
  const { file, fields } = await readMultipartForm(req, { fileFields: ['file'], maxFileBytes: maxBytes, tmpDir: ctx.config.tmpDir });
  if (!file) throw new AppError('validation_failed', 'file: a file field "file" is required', { errors: [{ field: 'file', code: 'required', message: 'a file field "file" is required' }] });
  if (file.truncated) {
    await file.discard();
    throw new AppError('payload_too_large', tooLarge.replace('{max}', String(maxBytes)), { details: { max_bytes: maxBytes } });
  }
  return { file: uploadOf(file), fields };
}

/** The headers of a streamed export file, as its operation named it. */
export const attachmentHeaders = (file: { contentType: string; fileName: string }) => ({
  'Content-Type': file.contentType,
  'Content-Disposition': `attachment; filename="${file.fileName}"`,
  'Cache-Control': 'no-store',
});

// --- Routes --------------------------------------------------------------------

export const productTransferRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: `${BASE}/imports`,
    operationId: 'startProductImport',
    summary: 'Import products from a CSV or JSON Lines file, as a background job (multipart/form-data; needs products write permission)',
    auth: 'dashboard',
    multipart: true,
    operation: /* GraphQL */ `
      mutation StartProductImport($storeId: ID!, $file: Upload!, $format: ProductTransferFormat, $dryRun: Boolean, $errorPolicy: ProductImportErrorPolicy) {
        startProductImport(storeId: $storeId, file: $file, format: $format, dryRun: $dryRun, errorPolicy: $errorPolicy) { ${IMPORT_FIELDS(false)} }
      }`,
    variables: async (r) => {
      const { file, fields } = await importFileOf(r, r.ctx.config.imports.maxBytes, 'Import files are limited to {max} bytes (IMPORT_MAX_BYTES)');
      return {
        storeId: r.params.storeId,
        file,
        format: fields.format || undefined,
        dryRun: bool(fields.dry_run, 'dry_run'),
        errorPolicy: fields.error_policy || undefined,
      };
    },
    respond: (data, r) => {
      const job = importView(data.startProductImport, r);
      return { status: 202, body: { data: job }, headers: { Location: job.links.self } };
    },
    openapi: {
      components,
      description:
        'Stores the file and queues its import; the worker runs it and `GET …/products/imports/{importId}` follows it. Each row creates a product or updates the one its `id` ' +
        'or `sku` names; columns: ' + COLUMNS.join(', ') + ' (docs/import-export.md). The file is checked first (UTF-8, header, CSV syntax, row limit): ' +
        'a file that cannot be read is 422 validation_failed with the file error\'s code on `file`, and nothing is queued. Over IMPORT_MAX_BYTES (50 MiB): 413.',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: {
                file: { type: 'string', format: 'binary', description: 'The CSV (header row first) or JSON Lines file, UTF-8' },
                format: { type: 'string', enum: ['csv', 'jsonl'], description: 'Default: jsonl for a .jsonl or .ndjson file name, else csv' },
                dry_run: { type: 'string', enum: ['true', 'false'], default: 'false', description: 'Check and count only: nothing is written, no event recorded' },
                error_policy: { type: 'string', enum: ['reject_everything', 'reject_failed_rows'], default: 'reject_everything' },
              },
            },
            example: { file: 'sku,name,price,category_slugs\nTEE-1,Tee,19.90,shirts\n', format: 'csv', dry_run: 'false', error_policy: 'reject_failed_rows' },
          },
        },
      },
      responses: {
        '202': { description: 'The queued import; Location is where to follow it', headers: { Location: { description: 'The job', schema: { type: 'string', format: 'uri' } } }, content: jobContent(exampleJob()) },
        '401': unauthenticated,
        '403': forbidden,
        '404': notFoundStore,
        '413': problem(413, 'payload_too_large', 'Import files are limited to 52428800 bytes (IMPORT_MAX_BYTES)', { max_bytes: 52_428_800 }),
        '415': problem(415, 'unsupported_media_type', 'Send the file as multipart/form-data with a file field "file"'),
        '422': problem(422, 'validation_failed', 'file: Unknown column "colour" in the header; the columns are id, sku, name, …', {
          row: 1,
          errors: [{ field: 'file', code: 'unknown_column', message: 'Unknown column "colour" in the header; the columns are id, sku, name, …' }],
        }),
      },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/imports/:importId`,
    operationId: 'getProductImport',
    summary: 'A product import: status, progress, counts and a page of its error report (needs products write permission)',
    auth: 'dashboard',
    operation: /* GraphQL */ `
      query ProductImport($storeId: ID!, $id: ID!, $errorOffset: Int, $errorLimit: Int) {
        productImport(storeId: $storeId, id: $id) { ${IMPORT_FIELDS(true)} }
      }`,
    variables: ({ params, query }) => {
      const errorOffset = intParam(query, 'error_offset') ?? 0;
      const errorLimit = intParam(query, 'error_limit') ?? 100;
      if (errorOffset < 0 || errorLimit < 0 || errorLimit > MAX_REPORTED_ERRORS) {
        throw new AppError('validation_failed', `error_offset must be >= 0 and error_limit between 0 and ${MAX_REPORTED_ERRORS}`, {
          errors: [{ field: errorOffset < 0 ? 'error_offset' : 'error_limit', code: 'invalid_parameter', message: `out of range (error_limit at most ${MAX_REPORTED_ERRORS})` }],
        });
      }
      return { storeId: params.storeId, id: params.importId, errorOffset, errorLimit };
    },
    respond: (data, r) => ({
      body: { data: importView(data.productImport, r, { offset: intParam(r.query, 'error_offset') ?? 0, limit: intParam(r.query, 'error_limit') ?? 100 }) },
    }),
    openapi: {
      components,
      description:
        `The error report lists each problem as {row, field, code, message}: row as a spreadsheet numbers it (the CSV header is row 1; in JSON Lines the line number). ` +
        `The job keeps the first ${MAX_REPORTED_ERRORS} errors (counts.errors counts them all); error_offset and error_limit (default 100, at most ${MAX_REPORTED_ERRORS}) page through them. ` +
        'reject_failed_rows moves progress after every committed batch of 200 rows; reject_everything and dry runs are one transaction, so their counts appear when they end.',
      parameters: [
        { name: 'error_offset', in: 'query', description: 'First error of the page (default 0)', schema: { type: 'integer', minimum: 0, default: 0 } },
        { name: 'error_limit', in: 'query', description: `Errors per page (default 100, at most ${MAX_REPORTED_ERRORS})`, schema: { type: 'integer', minimum: 0, maximum: MAX_REPORTED_ERRORS, default: 100 } },
      ],
      responses: {
        '200': {
          description: 'The import',
          content: jobContent(
            exampleJob({
              status: 'succeeded',
              committed: true,
              progress: { rows_processed: 1200, rows_total: 1200 },
              counts: { created: 1150, updated: 40, unchanged: 8, rejected: 2, errors: 2 },
              errors: [
                { row: 17, field: 'price', code: 'invalid_value', message: 'must be a number >= 0 with at most 2 decimals and below 10,000,000,000' },
                { row: 240, field: 'category_slugs', code: 'unknown_category', message: 'no category with slug "sandals" in this store' },
              ],
              error_report: { offset: 0, limit: 100, returned: 2, total: 2, kept: 2 },
              started_at: '2026-11-24T18:40:01.000Z',
              finished_at: '2026-11-24T18:40:09.000Z',
            }),
          ),
        },
        '401': unauthenticated,
        '403': forbidden,
        '404': problem(404, 'not_found', 'Product import not found'),
        '422': problem(422, 'validation_failed', 'error_offset must be >= 0 and error_limit between 0 and 1000', {
          errors: [{ field: 'error_limit', code: 'invalid_parameter', message: 'out of range (error_limit at most 1000)' }],
        }),
      },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/export`,
    operationId: 'exportProducts',
    summary: 'Export the catalog (or the products matching the list filters) as CSV or JSON Lines, streamed (needs products read permission)',
    auth: 'dashboard',
    operation: /* GraphQL */ `
      query ProductExport($storeId: ID!, $format: ProductTransferFormat!, $filter: ProductFilter) {
        productExport(storeId: $storeId, format: $format, filter: $filter) { format contentType fileName }
      }`,
    variables: ({ params, query }) => ({
      storeId: params.storeId,
      format: enumParam(query, 'format', ['csv', 'jsonl'] as const) ?? 'csv',
      filter: listFilterOf(query),
    }),
    respond: () => ({ status: 500 }),
    stream: (data, r) => ({
      headers: attachmentHeaders(data.productExport),
      body: exportProducts(r.ctx, r.params.storeId, listFilterOf(r.query), data.productExport.format as TransferFormat),
    }),
    openapi: {
      description:
        'Streams the products of the catalog (the request\'s mode) matching the same filters as the product list, oldest first, in the column format the import reads: ' +
        'importing an export unchanged changes nothing. Read in keyset pages of 100, so memory stays flat whatever the catalog size. ' +
        'An error after the first bytes were sent ends the response without its last chunk (the file is visibly incomplete), since the status was sent already.',
      parameters: filterParameters,
      responses: {
        '200': {
          description: 'The file (Content-Disposition: attachment)',
          headers: { 'Content-Disposition': { description: 'attachment; filename="products-live.csv"', schema: { type: 'string' } } },
          content: {
            'text/csv': {
              schema: { type: 'string' },
              example: `${COLUMNS.join(',')}\n0193…,TEE-S,Tee,Soft tee,19.9,10,5,active,shirts,summer|cotton,"[{""sku"":""TEE-S"",""title"":"""",""options"":{""size"":""S""},""price"":null,""inventory_quantity"":4,""position"":0}]",,,,,,false\n`,
            },
            'application/x-ndjson': {
              schema: { type: 'string' },
              example: '{"id":"0193…","sku":"TEE-S","name":"Tee","description":"Soft tee","price":19.9,"inventory_quantity":10,"low_stock_threshold":5,"status":"active","category_slugs":["shirts"],"tags":["summer","cotton"],"variants":[],"seo_title":null,"seo_description":null,"seo_slug":null,"seo_canonical_url":null,"seo_og_image_url":null,"seo_noindex":false}\n',
            },
          },
        },
        '401': unauthenticated,
        '403': forbidden,
        '404': notFoundStore,
        '422': problem(422, 'validation_failed', 'format: must be one of csv, jsonl', { errors: [{ field: 'format', code: 'invalid_parameter', message: 'must be one of csv, jsonl' }] }),
      },
    },
  },
];
