/** REST for a product's staged version: ?staged= and ?apply_to= on writes, and the …/staged routes. */

import { requireObject, RestInputError } from '../../api/rest/body';
import { enumParam } from '../../api/rest/params';
import { jsonContent, problemResponse, schemaRef } from '../../api/rest/openapi';
import type { RestRequest, RestRoute } from '../../api/rest/routes';
import { expectedVersion, PRODUCT_FRAGMENT, productResponse } from './products';

const BASE = '/api/v1/merchant/stores/:storeId/products/:productId/staged';

const productIdParameter = { name: 'productId', in: 'path', required: true, schema: { type: 'string' }, description: 'Product id (UUID); an unknown id or a product of another store is 404' };
const ifMatch = { name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'The ETag you read ("v<version>"); 412 when the product changed since' };
const productAnswer = (description: string) => ({
  description,
  headers: { ETag: { $ref: '#/components/headers/ETag' } },
  content: jsonContent({ type: 'object', required: ['data'], properties: { data: schemaRef('Product') } }),
});
const notFound = { '404': problemResponse('No such product in this store (not_found)') };

const FieldChangeSchema = {
  type: 'object',
  required: ['field', 'previous', 'next'],
  properties: {
    field: { type: 'string', description: 'A product field by its REST name (prices per currency: prices.EUR), or variants.<variant id>.<field>' },
    previous: { description: 'The current value' },
    next: { description: 'The staged value' },
  },
};

const StagedMeta = {
  type: 'object',
  properties: {
    has_staged_changes: { type: 'boolean' },
    publish_at: { type: ['string', 'null'], format: 'date-time', description: 'When the scheduler publishes the staged changes; null: not scheduled' },
    publish_scope: { type: ['string', 'null'], enum: ['all', 'prices', null] },
    updated_at: { type: ['string', 'null'], format: 'date-time', description: 'The last staged write' },
    updated_by: { type: ['string', 'null'], description: 'Who made it, as the change history names them' },
  },
};

const scopeParameter = {
  name: 'scope',
  in: 'query',
  schema: { type: 'string', enum: ['all', 'prices'] },
  description: "prices: publish only the price fields (the product's price and prices, the variants' price, compare_at_price and prices); the rest stays staged. Default all",
};

/** The publish body: optional; publish_at schedules instead of publishing now (null cancels a schedule). */
function publishVariables(r: RestRequest) {
  const body = r.body === undefined || r.body === null || r.body === '' ? {} : requireObject(r.body);
  const unknown = Object.keys(body).filter((k) => !['publish_at', 'scope', 'version'].includes(k));
  if (unknown.length) throw new RestInputError(unknown.map((field) => ({ field, code: 'unknown_field', message: 'is not a known field (known: publish_at, scope, version)' })));
  const scope = enumParam(r.query, 'scope', ['all', 'prices'] as const) ?? (body.scope as string | undefined);
  return {
    storeId: r.params.storeId,
    id: r.params.productId,
    scope: typeof scope === 'string' ? scope.toUpperCase() : scope,
    ...('publish_at' in body ? { publishAt: body.publish_at } : {}),
    expectedVersion: expectedVersion(r, body),
  };
}

const STAGED_META = 'hasStagedChanges publishAt publishScope updatedAt updatedBy';

export const stagedRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: BASE,
    operationId: 'getStagedProduct',
    summary: "Read a product's staged version (the product as it will be once published)",
    auth: 'dashboard',
    operation: `
      query GetStagedProduct($storeId: ID!, $id: ID!) { stagedProduct(storeId: $storeId, id: $id) { product { ...RestProduct } ${STAGED_META} } }${PRODUCT_FRAGMENT}`,
    variables: ({ params }) => ({ storeId: params.storeId, id: params.productId }),
    respond: (data) => {
      const s = data.stagedProduct;
      const answer = productResponse(s.product);
      const meta = { has_staged_changes: s.hasStagedChanges, publish_at: s.publishAt, publish_scope: s.publishScope?.toLowerCase() ?? null, updated_at: s.updatedAt, updated_by: s.updatedBy };
      return { ...answer, body: { ...answer.body, meta } };
    },
    openapi: {
      description:
        "The product as its staged version shows it (commercetools' staged projection): the current product with the staged writes over it, in the product's own representation and with its ETag. Without staged changes it is the current product. `meta` says when the staged version was last written, by whom, and whether a publish is scheduled. docs/staged-changes.md",
      parameters: [productIdParameter],
      responses: {
        '200': {
          description: 'The staged product in the product representation (the current product when it has no staged changes); meta: the staged version\'s bookkeeping',
          headers: { ETag: { $ref: '#/components/headers/ETag' } },
          content: jsonContent({ type: 'object', required: ['data', 'meta'], properties: { data: schemaRef('Product'), meta: StagedMeta } }),
        },
        ...notFound,
      },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/diff`,
    operationId: 'getStagedProductDiff',
    summary: 'The field-level difference between a product and its staged version (change history format)',
    auth: 'dashboard',
    operation: `
      query GetStagedDiff($storeId: ID!, $id: ID!) { stagedProduct(storeId: $storeId, id: $id) { changes { field previous next } } }`,
    variables: ({ params }) => ({ storeId: params.storeId, id: params.productId }),
    respond: (data) => ({ body: { data: data.stagedProduct.changes } }),
    openapi: {
      description:
        'What publishing would change, field by field, in the change history\'s form ({field, previous, next}): product fields by their REST names (prices per currency as prices.EUR), variant fields as variants.<variant id>.<field>. Empty without staged changes.',
      parameters: [productIdParameter],
      responses: {
        '200': { description: 'One entry per changed field ([] without staged changes)', content: jsonContent({ type: 'object', properties: { data: { type: 'array', items: FieldChangeSchema } } }) },
        ...notFound,
      },
    },
  },
  {
    method: 'POST',
    path: `${BASE}/publish`,
    operationId: 'publishStagedProduct',
    summary: "Publish a product's staged changes (all, or scope=prices), now or at publish_at",
    auth: 'dashboard',
    operation: `
      mutation PublishStaged($storeId: ID!, $id: ID!, $scope: StagedPublishScope, $publishAt: String, $expectedVersion: Int) {
        publishStagedProduct(storeId: $storeId, id: $id, scope: $scope, publishAt: $publishAt, expectedVersion: $expectedVersion) { ...RestProduct }
      }${PRODUCT_FRAGMENT}`,
    variables: publishVariables,
    respond: (data) => productResponse(data.publishStagedProduct),
    openapi: {
      description:
        'Writes the staged changes to the current product as one live write (a new version, product.updated and product.variants_updated as the live writes record them, then product.staged_published). scope=prices publishes only the price fields and leaves the rest staged. With `publish_at` in the body, the scheduler publishes at that time instead (null cancels). Without staged changes nothing is written.',
      parameters: [productIdParameter, ifMatch, scopeParameter],
      requestBody: {
        required: false,
        content: jsonContent({
          type: 'object',
          properties: {
            publish_at: {
              type: ['string', 'null'],
              description: 'RFC 3339 with an offset, in the future: the scheduler publishes then instead of now (product.staged records the schedule); null cancels a scheduled publish',
            },
            scope: { type: 'string', enum: ['all', 'prices'], description: 'As the scope parameter' },
            version: { type: 'integer', description: 'The product version you read (as If-Match)' },
          },
        }),
      },
      responses: {
        '200': productAnswer('The current product after the publish (or with the schedule set); unchanged when it had no staged changes'),
        ...notFound,
        '409': problemResponse('publish_at without staged changes (no_staged_changes); the staged SEO slug is taken now (slug_taken)'),
        '412': problemResponse('If-Match is not the current version (precondition_failed)'),
        '422': problemResponse('publish_at not in the future or not RFC 3339 (validation_failed)'),
      },
    },
  },
  {
    method: 'POST',
    path: `${BASE}/discard`,
    operationId: 'discardStagedProduct',
    summary: "Discard a product's staged changes",
    auth: 'dashboard',
    operation: `
      mutation DiscardStaged($storeId: ID!, $id: ID!, $expectedVersion: Int) {
        discardStagedProduct(storeId: $storeId, id: $id, expectedVersion: $expectedVersion) { ...RestProduct }
      }${PRODUCT_FRAGMENT}`,
    variables: (r) => ({ storeId: r.params.storeId, id: r.params.productId, expectedVersion: expectedVersion(r, {}) }),
    respond: (data) => productResponse(data.discardStagedProduct),
    openapi: {
      description: 'Drops the staged version (and a scheduled publish of it): a new product version with product.staged_discarded, whose changes list what was dropped. Without staged changes nothing is written.',
      parameters: [productIdParameter, ifMatch],
      responses: {
        '200': productAnswer('The current product, without staged changes'),
        ...notFound,
        '412': problemResponse('If-Match is not the current version (precondition_failed)'),
      },
    },
  },
];

