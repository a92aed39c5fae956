/**
 * REST routes for importing and exporting a catalog's collections (docs/import-export.md, "Collections"):
 * - GET …/collections/export runs collectionExport (permission, store), then streams the file;
 * - POST …/collections/import (multipart: file, format) runs importCollections in the request and answers its summary.
 */

import { exportCollections, COLLECTION_COLUMNS } from '../transfer/collections';
import type { TransferFormat } from '../transfer/format';
import { enumParam } from '../../api/rest/params';
import { jsonContent, problemResponse } from '../../api/rest/openapi';
import type { RestRoute } from '../../api/rest/routes';
import { attachmentHeaders, importFileOf } from './productTransfer';

const BASE = '/api/v1/merchant/stores/:storeId/collections';

/** Collections files are small (at most 1,000 collections of up to 5,000 members): 20 MiB is a generous bound. */
const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

const errors = {
  '401': problemResponse('No or invalid bearer token (unauthenticated, invalid_token)'),
  '403': problemResponse('The credential may not read (export) or change (import) the catalog (forbidden)'),
  '404': problemResponse('No such store (not_found)'),
};

const Summary = {
  type: 'object',
  required: ['rows', 'created', 'updated', 'unchanged', 'rejected', 'errors'],
  properties: {
    rows: { type: 'integer' },
    created: { type: 'integer' },
    updated: { type: 'integer' },
    unchanged: { type: 'integer' },
    rejected: { type: 'integer' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['row', 'field', 'code', 'message'],
        properties: { row: { type: 'integer', description: 'The CSV line (header = 1) or the JSON Lines line' }, field: { type: 'string', example: 'products.2' }, code: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

export const collectionTransferRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${BASE}/export`,
    operationId: 'exportCollections',
    summary: "Export the catalog's collections as CSV or JSON Lines (streamed)",
    auth: 'dashboard',
    operation: `query CollectionExport($storeId: ID!, $format: CollectionTransferFormat!) { collectionExport(storeId: $storeId, format: $format) { format contentType fileName } }`,
    variables: ({ params, query }) => ({ storeId: params.storeId, format: enumParam(query, 'format', ['csv', 'jsonl'] as const) ?? 'jsonl' }),
    respond: () => ({ status: 500 }),
    stream: (data, r) => ({
      headers: attachmentHeaders(data.collectionExport),
      body: exportCollections(r.ctx, r.params.storeId, data.collectionExport.format as TransferFormat),
    }),
    openapi: {
      description:
        "Every collection of the catalog (the request's mode), oldest first, in the format POST …/collections/import reads: importing an export unchanged changes nothing. " +
        'A manual collection carries its products in order (ids); a smart one its rules (its members follow them).',
      parameters: [{ name: 'format', in: 'query', description: 'jsonl (default) or csv', schema: { type: 'string', enum: ['csv', 'jsonl'], default: 'jsonl' } }],
      responses: {
        '200': {
          description: 'The file (Content-Disposition: attachment)',
          headers: { 'Content-Disposition': { description: 'attachment; filename="collections-live.jsonl"', schema: { type: 'string' } } },
          content: {
            'application/x-ndjson': {
              schema: { type: 'string' },
              example: '{"id":"0193…","title":"Staff picks","slug":"staff-picks","description":"","kind":"manual","rules":[],"match":"all","sort":"manual","published":true,"products":["0193…","0194…"]}\n',
            },
            'text/csv': { schema: { type: 'string' }, example: `${COLLECTION_COLUMNS.join(',')}\n0193…,Under 50,under-50,,smart,"[{""field"":""price"",""operator"":""less_than"",""value"":""50""}]",all,price_asc,true,\n` },
          },
        },
        ...errors,
        '422': problemResponse('format: must be one of csv, jsonl (validation_failed)'),
      },
    },
  },
  {
    method: 'POST',
    path: `${BASE}/import`,
    operationId: 'importCollections',
    summary: 'Import collections from a CSV or JSON Lines file (multipart/form-data), in the request',
    auth: 'dashboard',
    multipart: true,
    operation: `mutation ImportCollections($storeId: ID!, $file: Upload!, $format: CollectionTransferFormat) {
      importCollections(storeId: $storeId, file: $file, format: $format) { rows created updated unchanged rejected errors { row field code message } } }`,
    variables: async (r) => {
      const { file, fields } = await importFileOf(r, MAX_IMPORT_BYTES, 'Collection import files are limited to {max} bytes');
      return { storeId: r.params.storeId, file, format: fields.format || undefined };
    },
    respond: (data) => ({ body: { data: data.importCollections } }),
    openapi: {
      description:
        'Each record (CSV row or JSON line) updates the collection its `id` (else its `slug`) names in the catalog, or creates one; kind cannot change. ' +
        "A manual collection's `products` (ids or SEO slugs, `|`-separated in CSV) becomes its list; `title:<locale>` and `description:<locale>` (JSON: `translations`) its translations. " +
        'Each record is its own write with its events: one that fails is reported with every problem it has and left out, the others are kept.',
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['file'],
              properties: { file: { type: 'string', format: 'binary' }, format: { type: 'string', enum: ['csv', 'jsonl'], description: 'Default: jsonl for a .jsonl or .ndjson file name, else csv' } },
            },
          },
        },
      },
      responses: {
        '200': { description: 'What the import did', content: jsonContent({ type: 'object', required: ['data'], properties: { data: Summary } }) },
        ...errors,
        '413': problemResponse('Over 20 MiB (payload_too_large)'),
        '415': problemResponse('Not multipart/form-data (unsupported_media_type)'),
        '422': problemResponse('No file, broken CSV or an unknown column (validation_failed, on `file`)'),
      },
    },
  },
];
