/** REST routes for the change history. */

import { AppError } from '../../platform/errors';
import { CHANGES_PAGE } from '../services/history';
import { boolParam, intParam, keysetMetaSchema, keysetPage, listParam } from '../../api/rest/params';
import type { RestRequest, RestResponse, RestRoute } from '../../api/rest/routes';

const BASE = '/api/v1/merchant/stores/:storeId';

const CHANGE_FIELDS = `
  edges { cursor node {
    id type occurred_at: occurredAt store_id: storeId mode
    actor { kind id name } source request_id: requestId
    resource { type id version } staged data changes { field previous next }
  } }
  pageInfo { hasNextPage endCursor }`;

/** A time filter: an RFC 3339 date-time with its offset. */
function timeParam(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) || Number.isNaN(Date.parse(v))) {
    throw new AppError('validation_failed', `${name}: must be an RFC 3339 date-time such as 2026-11-23T10:00:00Z`, {
      errors: [{ field: name, code: 'invalid_parameter', message: 'must be an RFC 3339 date-time such as 2026-11-23T10:00:00Z' }],
    });
  }
  return new Date(v).toISOString();
}

/** Query parameters of both history routes; `resource` fixes the resource for the product route. */
function changeVariables(r: RestRequest, resource?: { resourceType: string; resourceId: string }) {
  const q = r.query;
  return {
    storeId: r.params.storeId,
    first: intParam(q, 'limit', { min: 1, max: CHANGES_PAGE.max }),
    after: q.get('after') || undefined,
    filter: {
      resourceType: resource?.resourceType ?? (q.get('resource_type') || undefined),
      resourceId: resource?.resourceId ?? (q.get('resource_id') || undefined),
      actorId: q.get('actor_id') || undefined,
      types: listParam(q, 'type'),
      since: timeParam(q, 'since'),
      until: timeParam(q, 'until'),
      staged: boolParam(q, 'staged'),
    },
  };
}

const changePage = (data: Record<string, any>, r: RestRequest): RestResponse => keysetPage(data.changes, r, CHANGES_PAGE.default);

const OPERATION = `
  query Changes($storeId: ID!, $filter: ChangeFilter, $first: Int, $after: String) {
    changes(storeId: $storeId, filter: $filter, first: $first, after: $after) { ${CHANGE_FIELDS} }
  }`;

const param = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ name, in: 'query', required: false, description, schema });
const PAGING = [
  param('limit', `Page size, 1-${CHANGES_PAGE.max} (default ${CHANGES_PAGE.default})`, { type: 'integer', minimum: 1, maximum: CHANGES_PAGE.max }),
  param('after', 'meta.next_cursor of the previous page'),
  param('actor_id', 'Only changes by this actor (user id, API key id, OAuth app id, CLI operator name)'),
  param('type', 'Event types, comma-separated, e.g. product.updated,product.published'),
  param('since', 'Changes at or after this RFC 3339 time', { type: 'string', format: 'date-time' }),
  param('until', 'Changes before this RFC 3339 time', { type: 'string', format: 'date-time' }),
  param('staged', "true: only edits of products' staged versions (product.staged, product.staged_discarded); false: only the other changes", { type: 'string', enum: ['true', 'false'] }),
];
const nullableString = { type: ['string', 'null'] };
const ChangeSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', example: 'product.updated' },
    occurred_at: { type: 'string', format: 'date-time' },
    store_id: { type: 'string' },
    mode: { type: 'string', enum: ['test', 'live'] },
    actor: { type: 'object', properties: { kind: { type: 'string', example: 'user' }, id: nullableString, name: nullableString } },
    source: { type: 'string', example: 'merchant_rest' },
    request_id: nullableString,
    resource: { type: 'object', properties: { type: { type: 'string', example: 'product' }, id: { type: 'string' }, version: { type: ['integer', 'null'] } } },
    data: { type: 'object', description: 'The resource after the change (its REST representation)' },
    changes: {
      type: ['array', 'null'],
      description: 'For an update (product.updated and the like): one entry per changed field. null for events that are not field changes (created, deleted, published, ...)',
      items: { type: 'object', properties: { field: { type: 'string', example: 'price' }, previous: { example: 24.9 }, next: { example: 29.9 } } },
    },
    staged: { type: 'boolean', description: "An edit of a product's staged version (product.staged, product.staged_discarded), not of the current product" },
  },
};
const RESPONSES = {
  responses: {
    '200': {
      description: 'Changes, newest first: {data: [change], meta: {limit, has_more, next_cursor}}',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: {
              data: { type: 'array', items: ChangeSchema },
              meta: keysetMetaSchema,
            },
          },
        },
      },
    },
  },
};

export const changeRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${BASE}/changes`,
    operationId: 'listChanges',
    summary: "The store's change history, newest first (needs view_changes)",
    auth: 'dashboard',
    operation: OPERATION,
    variables: (r) => changeVariables(r),
    respond: changePage,
    openapi: {
      parameters: [
        param('resource_type', 'product, collection, category, api_key, oauth_grant, member or store'),
        param('resource_id', 'Only changes of this resource'),
        param('mode', 'test or live: only the changes of that mode (also X-Service-Mode); both when absent'),
        ...PAGING,
      ],
      ...RESPONSES,
    },
  },
  {
    method: 'GET',
    path: `${BASE}/products/:productId/changes`,
    operationId: 'listProductChanges',
    summary: "A product's history, newest first, also after it was deleted (needs view_changes or manage_products)",
    auth: 'dashboard',
    operation: OPERATION,
    variables: (r) => changeVariables(r, { resourceType: 'product', resourceId: r.params.productId }),
    respond: changePage,
    openapi: { parameters: PAGING, ...RESPONSES },
  },
  {
    method: 'GET',
    path: `${BASE}/collections/:collectionId/changes`,
    operationId: 'listCollectionChanges',
    summary: "A collection's history (field changes, membership changes), newest first, also after it was deleted (needs view_changes or manage_products)",
    auth: 'dashboard',
    operation: OPERATION,
    variables: (r) => changeVariables(r, { resourceType: 'collection', resourceId: r.params.collectionId }),
    respond: changePage,
    openapi: {
      description: "A collection's history by its id: collection.created, updated (field changes), published, unpublished, deleted, and its membership events (products added, removed, moved).",
      parameters: PAGING,
      ...RESPONSES,
    },
  },
];
