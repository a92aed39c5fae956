/** REST routes for attributes and product types under /api/v1/merchant/stores/:storeId. */

import { CATALOG_LIMITS } from '../limits';
import { PAGE_LIMITS } from '../services/productList';
import { ATTRIBUTE_TYPES, PLAIN_TEXT_MAX, REFERENCE_TYPES, RICH_TEXT_MAX } from '../services/attributeValues';
import { camelizeKeys, requireObject } from '../../api/rest/body';
import { jsonContent, type OpenApiFragment, problemResponse, schemaRef } from '../../api/rest/openapi';
import { intParam, PAGE_META_SELECTION, pageResponse } from '../../api/rest/params';
import type { RestRoute } from '../../api/rest/routes';

const BASE = '/api/v1/merchant/stores/:storeId';
const ATTRIBUTES = `${BASE}/attributes`;
const PRODUCT_TYPES = `${BASE}/product-types`;

/** The attribute and product type as REST shows them (attributeView and productTypeView), in GraphQL's words. */
const ATTRIBUTE_FIELDS = `id code name type unit values { value name hex } reference_type: referenceType filterable public
  created_at: createdAt updated_at: updatedAt version translations`;
const ASSIGNMENT_FIELDS = 'attribute_id: attributeId code required';
const PRODUCT_TYPE_FIELDS = `id name product_attributes: productAttributes { ${ASSIGNMENT_FIELDS} } variant_attributes: variantAttributes { ${ASSIGNMENT_FIELDS} }
  created_at: createdAt updated_at: updatedAt version`;

/** Fields of a GET a client may send back in a PATCH: not writable, ignored. */
const READ_ONLY = ['id', 'created_at', 'updated_at', 'version', 'translations'];
/** Values under these keys are the client's own data (a default value), never renamed. */
const OPAQUE = new Set(['default_value']);

/** A translation read back may be sent as it is: its bookkeeping fields are ignored. */
const TRANSLATION_READ_ONLY = ['outdated', 'outdated_fields', 'updated_at'];
const localeParam = { name: 'locale', in: 'path', required: true, schema: { type: 'string' }, description: "One of the store's further locales (BCP 47, any case)" };

const writableBody = (body: unknown) => camelizeKeys(Object.fromEntries(Object.entries(requireObject(body)).filter(([k]) => !READ_ONLY.includes(k))), OPAQUE);

const ro = <T extends object>(s: T) => ({ ...s, readOnly: true });
const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

const ValueSchema = {
  type: 'object',
  required: ['value', 'name'],
  additionalProperties: false,
  properties: {
    value: { type: 'string', pattern: '^[a-z0-9]+(?:[-_][a-z0-9]+)*$', maxLength: 64, description: 'The key products hold and filter URLs name; unique in the attribute' },
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'What a storefront shows' },
    hex: nullable('string', { pattern: '^#[0-9a-fA-F]{6}$', description: 'swatch only, and required there; stored in lower case' }),
  },
};

const attributeProperties = {
  code: {
    type: 'string',
    pattern: '^[a-z][a-z0-9_]{0,63}$',
    description: 'Unique in the store; immutable (422 immutable): it is the key of product and variant values and of filter URLs',
  },
  name: { type: 'string', minLength: 1, maxLength: 255 },
  type: { type: 'string', enum: [...ATTRIBUTE_TYPES], description: `Immutable (422 immutable). plain_text values are strings up to ${PLAIN_TEXT_MAX} characters, rich_text sanitized HTML up to ${RICH_TEXT_MAX}` },
  unit: nullable('string', { minLength: 1, maxLength: 32, description: 'numeric only ("cm", "l")' }),
  values: {
    type: 'array',
    maxItems: CATALOG_LIMITS.valuesPerAttribute,
    items: ValueSchema,
    description: `dropdown, multiselect and swatch: the allowed values in order (at least 1, at most ${CATALOG_LIMITS.valuesPerAttribute}); empty for other types. Removing a value products hold is 409 attribute_value_in_use`,
  },
  reference_type: nullable('string', { enum: [...REFERENCE_TYPES, null], description: 'reference only (and required there): what its values point at' }),
  filterable: { type: 'boolean', description: 'Whether product lists filter and facet by it (default false)' },
  public: { type: 'boolean', description: 'Whether the public API shows its values (default false)' },
};

const Attribute = {
  type: 'object',
  required: ['id', 'code', 'name', 'type', 'unit', 'values', 'reference_type', 'filterable', 'public', 'created_at', 'updated_at', 'version'],
  properties: {
    id: ro({ type: 'string', format: 'uuid' }),
    ...attributeProperties,
    created_at: ro({ type: 'string', format: 'date-time' }),
    updated_at: ro({ type: 'string', format: 'date-time' }),
    version: ro({ type: 'integer', minimum: 1, description: 'Increments on every change' }),
    translations: ro({
      type: 'object',
      additionalProperties: schemaRef('AttributeTranslation'),
      description: 'Its name and value labels by locale ({"de": {…}}); written with PUT …/attributes/{attribute}/translations/{locale}',
    }),
  },
  examples: [
    {
      id: '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      code: 'material',
      name: 'Material',
      type: 'dropdown',
      unit: null,
      values: [
        { value: 'cotton', name: 'Cotton', hex: null },
        { value: 'linen', name: 'Linen', hex: null },
      ],
      reference_type: null,
      filterable: true,
      public: true,
      created_at: '2026-11-20T08:00:00.000Z',
      updated_at: '2026-11-20T08:00:00.000Z',
      version: 1,
    },
  ],
};

/** One locale's translation of an attribute as a request writes it. */
const AttributeTranslationWrite = {
  type: 'object',
  additionalProperties: false,
  description: "An attribute's name and value labels in one of the store's further locales; left out or null: none. Read-only fields of a GET (outdated, outdated_fields, updated_at) are ignored.",
  properties: {
    name: nullable('string', { minLength: 1, maxLength: 255 }),
    values: nullable('object', { additionalProperties: nullable('string', { minLength: 1, maxLength: 255 }), description: 'Labels by value code ({"cotton": "Baumwolle"}); a code the attribute lacks is 422 unknown_value' }),
    outdated: ro({ type: 'boolean' }),
    outdated_fields: ro({ type: 'array', items: { type: 'string' } }),
    updated_at: ro({ type: 'string', format: 'date-time' }),
  },
  examples: [{ name: 'Material', values: { cotton: 'Baumwolle' } }],
};
const AttributeTranslation = {
  type: 'object',
  required: ['name', 'values', 'outdated', 'outdated_fields', 'updated_at'],
  properties: {
    ...AttributeTranslationWrite.properties,
    outdated: ro({ type: 'boolean', description: 'Whether the name or a label changed in the default locale after it was written' }),
    outdated_fields: ro({ type: 'array', items: { type: 'string' }, description: 'Those fields: name, values.<code>' }),
  },
};

const AttributeCreate = {
  type: 'object',
  required: ['code', 'name', 'type'],
  additionalProperties: false,
  properties: attributeProperties,
  examples: [{ code: 'material', name: 'Material', type: 'dropdown', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }], filterable: true, public: true }],
};
const AttributeUpdate = {
  type: 'object',
  description: 'Any of the fields; left out keeps the value. code and type are accepted only unchanged, and read-only fields of a GET body are ignored, so a read body can be sent back edited.',
  properties: { ...attributeProperties, id: { type: 'string' }, created_at: { type: 'string' }, updated_at: { type: 'string' }, version: { type: 'integer' }, translations: { type: 'object' } },
  examples: [{ name: 'Fabric', values: [{ value: 'cotton', name: 'Cotton' }, { value: 'linen', name: 'Linen' }, { value: 'wool', name: 'Wool' }] }],
};

const Assignment = {
  type: 'object',
  required: ['attribute_id', 'code', 'required'],
  properties: { attribute_id: { type: 'string', format: 'uuid' }, code: { type: 'string' }, required: { type: 'boolean' } },
};
const AssignmentInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    attribute_id: { type: 'string', description: 'The attribute by id (or give code; both must name the same attribute)' },
    code: { type: 'string', description: 'The attribute by code (or give attribute_id)' },
    required: { type: 'boolean', description: 'Default false' },
    default_value: {
      description:
        "Set on the type's products (or variants) that lack a value when this write makes the attribute required; without it, such a write is 409 attribute_values_missing. In the attribute's encoding (docs/attributes.md)",
    },
  },
};
const assignmentsOf = (level: string) => ({
  type: 'array',
  items: AssignmentInput,
  description: `The ${level} attributes in order; an attribute applies at one level, once. At most ${CATALOG_LIMITS.attributesPerProductType} attributes over both lists. On update the list replaces the current one: values of attributes removed are dropped from the type's products (one event per product changed)`,
});

const ProductType = {
  type: 'object',
  required: ['id', 'name', 'product_attributes', 'variant_attributes', 'created_at', 'updated_at', 'version'],
  properties: {
    id: ro({ type: 'string', format: 'uuid' }),
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'Unique in the store' },
    product_attributes: { type: 'array', items: Assignment, description: 'The attributes of the product itself, in order' },
    variant_attributes: { type: 'array', items: Assignment, description: 'The attributes of each variant, in order' },
    created_at: ro({ type: 'string', format: 'date-time' }),
    updated_at: ro({ type: 'string', format: 'date-time' }),
    version: ro({ type: 'integer', minimum: 1 }),
  },
  examples: [
    {
      id: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
      name: 'Shirts',
      product_attributes: [{ attribute_id: '5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d', code: 'material', required: true }],
      variant_attributes: [],
      created_at: '2026-11-20T08:00:00.000Z',
      updated_at: '2026-11-20T08:00:00.000Z',
      version: 1,
    },
  ],
};
const ProductTypeWrite = (required: string[]) => ({
  type: 'object',
  ...(required.length ? { required, additionalProperties: false } : {}),
  properties: {
    name: ProductType.properties.name,
    product_attributes: assignmentsOf('product'),
    variant_attributes: assignmentsOf('variant'),
    ...(required.length ? {} : { id: { type: 'string' }, created_at: { type: 'string' }, updated_at: { type: 'string' }, version: { type: 'integer' } }),
  },
  examples: [{ name: 'Shirts', product_attributes: [{ code: 'material', required: true }], variant_attributes: [{ code: 'color' }] }],
});

const components: OpenApiFragment['components'] = {
  schemas: { Attribute, AttributeCreate, AttributeUpdate, AttributeTranslation, AttributeTranslationWrite, ProductType, ProductTypeCreate: ProductTypeWrite(['name']), ProductTypeUpdate: ProductTypeWrite([]) },
};

const one = (name: string, description: string) => ({ description, content: jsonContent({ type: 'object', required: ['data'], properties: { data: schemaRef(name) } }) });
const page = (name: string, description: string) => ({
  description,
  content: jsonContent({ type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: schemaRef(name) }, meta: schemaRef('PageMeta') } }),
});
const pageParameters = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.page.min, maximum: PAGE_LIMITS.page.max, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.perPage.min, maximum: PAGE_LIMITS.perPage.max, default: 20 } },
];
const idParam = (name: string, what: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: `The ${what}; unknown, or another store's: 404` });
const errors = {
  '401': problemResponse('No or invalid bearer token (unauthenticated, invalid_token)'),
  '403': problemResponse('The token lacks manage_products for this store (forbidden)'),
};
const notFound = (what: string) => ({ '404': problemResponse(`No such ${what} in this store (not_found)`) });
const badBody = {
  '400': problemResponse('Body is not a JSON object (bad_request, malformed_json)'),
  '415': problemResponse('Body is not application/json (unsupported_media_type)'),
};
const body = (name: string) => ({ required: true, content: jsonContent(schemaRef(name)) });
const pageVariables = ({ params, query }: Parameters<RestRoute['variables']>[0]) => ({
  storeId: params.storeId,
  page: intParam(query, 'page', PAGE_LIMITS.page),
  perPage: intParam(query, 'per_page', PAGE_LIMITS.perPage),
});
const created = (r: Parameters<RestRoute['respond']>[1], data: { id: string }) => ({
  status: 201,
  body: { data },
  headers: { Location: `${r.ctx.baseUrl}${r.req.url!.split('?')[0].replace(/\/+$/, '')}/${data.id}` },
});
const location = { Location: { description: 'URL of the new resource', schema: { type: 'string', format: 'uri' } } };

export const attributeRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: ATTRIBUTES,
    operationId: 'listAttributes',
    summary: "List the store's attributes (by code, paged)",
    auth: 'dashboard',
    operation: `query ListAttributes($storeId: ID!, $page: Int, $perPage: Int) {
      attributes(storeId: $storeId, page: $page, perPage: $perPage) { items { ${ATTRIBUTE_FIELDS} } ${PAGE_META_SELECTION} } }`,
    variables: pageVariables,
    respond: (data, r) => pageResponse(r, data.attributes.items, data.attributes.meta),
    openapi: {
      description: "The store's typed attributes, ordered by code. Shared by the live and test catalogs, like categories. Needs manage_products.",
      components,
      parameters: pageParameters,
      responses: { '200': page('Attribute', 'One page of attributes'), ...errors, '422': problemResponse('page or per_page out of range (validation_failed)') },
    },
  },
  {
    method: 'GET',
    path: `${ATTRIBUTES}/:attribute`,
    operationId: 'getAttribute',
    summary: 'Read one attribute (by id or code)',
    auth: 'dashboard',
    operation: `query GetAttribute($storeId: ID!, $attribute: String!) { attribute(storeId: $storeId, attribute: $attribute) { ${ATTRIBUTE_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId, attribute: params.attribute }),
    respond: (data) => ({ body: { data: data.attribute } }),
    openapi: {
      description: 'One attribute of the store, named by its id or its code. Needs manage_products.',
      components,
      parameters: [idParam('attribute', 'attribute id or code')],
      responses: { '200': one('Attribute', 'The attribute'), ...errors, ...notFound('attribute') },
    },
  },
  {
    method: 'POST',
    path: ATTRIBUTES,
    operationId: 'createAttribute',
    summary: 'Create an attribute',
    auth: 'dashboard',
    operation: `mutation CreateAttribute($storeId: ID!, $input: AttributeCreateInput!) { createAttribute(storeId: $storeId, input: $input) { ${ATTRIBUTE_FIELDS} } }`,
    variables: ({ params, body: b }) => ({ storeId: params.storeId, input: camelizeKeys(requireObject(b)) }),
    respond: (data, r) => created(r, data.createAttribute),
    openapi: {
      description: `Creates a typed attribute. values are required for dropdown, multiselect and swatch (swatch values need hex), unit is for numeric only, reference_type is required for reference. A store has at most ${CATALOG_LIMITS.attributesPerStore} attributes. Needs manage_products.`,
      components,
      requestBody: body('AttributeCreate'),
      responses: {
        '201': { ...one('Attribute', 'The created attribute'), headers: location },
        ...badBody,
        ...errors,
        '409': problemResponse('Another attribute of the store has the code (code_taken)'),
        '422': problemResponse('Invalid field (validation_failed: required, not_allowed, duplicate_value, too_big...) or the store has the most attributes it may (limit_exceeded)'),
      },
    },
  },
  {
    method: 'PATCH',
    path: `${ATTRIBUTES}/:attribute`,
    operationId: 'updateAttribute',
    summary: 'Update an attribute (partial; code and type never change)',
    auth: 'dashboard',
    operation: `mutation UpdateAttribute($storeId: ID!, $attribute: String!, $input: AttributeUpdateInput!) {
      updateAttribute(storeId: $storeId, attribute: $attribute, input: $input) { ${ATTRIBUTE_FIELDS} } }`,
    variables: ({ params, body: b }) => ({ storeId: params.storeId, attribute: params.attribute, input: writableBody(b ?? {}) }),
    respond: (data) => ({ body: { data: data.updateAttribute } }),
    openapi: {
      description:
        'Changes name, unit, values, reference_type, filterable or public. code and type are immutable: the code is the key of stored values and filter URLs, and the type decides how stored values are encoded. values replaces the list: renaming (name) and reordering are free, removing a value products or variants hold is 409 attribute_value_in_use. Needs manage_products.',
      components,
      parameters: [idParam('attribute', 'attribute id or code')],
      requestBody: { required: false, content: jsonContent(schemaRef('AttributeUpdate')) },
      responses: {
        '200': one('Attribute', 'The updated attribute'),
        ...badBody,
        ...errors,
        ...notFound('attribute'),
        '409': problemResponse('Values removed that products hold (attribute_value_in_use, with values and products)'),
        '422': problemResponse('Invalid field (validation_failed: immutable, not_allowed, duplicate_value, too_big...)'),
      },
    },
  },
  {
    method: 'PUT',
    path: `${ATTRIBUTES}/:attribute/translations/:locale`,
    operationId: 'setAttributeTranslation',
    summary: "Set an attribute's name and value labels in one locale (replace)",
    auth: 'dashboard',
    operation: `mutation SetAttributeTranslation($storeId: ID!, $attribute: String!, $locale: String!, $input: AttributeTranslationInput!) {
      setAttributeTranslation(storeId: $storeId, attribute: $attribute, locale: $locale, translation: $input) { ${ATTRIBUTE_FIELDS} } }`,
    variables: ({ params, body: b }) => {
      const writable = Object.fromEntries(Object.entries(requireObject(b)).filter(([k]) => !TRANSLATION_READ_ONLY.includes(k)));
      return { storeId: params.storeId, attribute: params.attribute, locale: params.locale, input: camelizeKeys(writable, new Set(['values'])) };
    },
    respond: (data) => ({ body: { data: data.setAttributeTranslation } }),
    openapi: {
      description:
        "Sets the attribute's name and value labels in one of the store's further locales whole: left out, they have none. Writing them clears their outdated marks; moves the attribute's version and records translation.updated. Needs manage_products.",
      components,
      parameters: [idParam('attribute', 'attribute id or code'), localeParam],
      requestBody: { required: true, content: jsonContent(schemaRef('AttributeTranslationWrite')) },
      responses: {
        '200': one('Attribute', 'The attribute with its translations'),
        ...badBody,
        ...errors,
        ...notFound('attribute'),
        '422': problemResponse("The locale is the default (default_locale) or not one of the store's (locale_not_enabled), naming locale; a value code the attribute lacks (unknown_value, values.<code>); an invalid field (validation_failed)"),
      },
    },
  },
  {
    method: 'DELETE',
    path: `${ATTRIBUTES}/:attribute/translations/:locale`,
    operationId: 'removeAttributeTranslation',
    summary: "Remove an attribute's translation in one locale",
    auth: 'dashboard',
    operation: `mutation RemoveAttributeTranslation($storeId: ID!, $attribute: String!, $locale: String!) {
      removeAttributeTranslation(storeId: $storeId, attribute: $attribute, locale: $locale) { id } }`,
    variables: ({ params }) => ({ storeId: params.storeId, attribute: params.attribute, locale: params.locale }),
    respond: () => ({ status: 204 }),
    openapi: {
      description: "Removes the attribute's translation in a locale; records translation.deleted. Needs manage_products.",
      components,
      parameters: [idParam('attribute', 'attribute id or code'), localeParam],
      responses: {
        '204': { description: 'Removed' },
        ...errors,
        '404': problemResponse('No such attribute, or it has no translation in the locale (not_found)'),
        '422': problemResponse("The locale is the default or not one of the store's (default_locale, locale_not_enabled)"),
      },
    },
  },
  {
    method: 'DELETE',
    path: `${ATTRIBUTES}/:attribute`,
    operationId: 'deleteAttribute',
    summary: 'Delete an attribute no product type applies',
    auth: 'dashboard',
    operation: `mutation DeleteAttribute($storeId: ID!, $attribute: String!) { deleteAttribute(storeId: $storeId, attribute: $attribute) { id } }`,
    variables: ({ params }) => ({ storeId: params.storeId, attribute: params.attribute }),
    respond: () => ({ status: 204 }),
    openapi: {
      description: 'Deletes an attribute. One that product types apply is 409 attribute_in_use, naming the types (product_types): remove it from them first. Needs manage_products.',
      components,
      parameters: [idParam('attribute', 'attribute id or code')],
      responses: { '204': { description: 'Deleted' }, ...errors, ...notFound('attribute'), '409': problemResponse('Product types apply it (attribute_in_use, with product_types)') },
    },
  },
  {
    method: 'GET',
    path: PRODUCT_TYPES,
    operationId: 'listProductTypes',
    summary: "List the store's product types (by name, paged)",
    auth: 'dashboard',
    operation: `query ListProductTypes($storeId: ID!, $page: Int, $perPage: Int) {
      productTypes(storeId: $storeId, page: $page, perPage: $perPage) { items { ${PRODUCT_TYPE_FIELDS} } ${PAGE_META_SELECTION} } }`,
    variables: pageVariables,
    respond: (data, r) => pageResponse(r, data.productTypes.items, data.productTypes.meta),
    openapi: {
      description: "The store's product types, ordered by name, each with its product-level and variant-level attributes in order. Needs manage_products.",
      components,
      parameters: pageParameters,
      responses: { '200': page('ProductType', 'One page of product types'), ...errors, '422': problemResponse('page or per_page out of range (validation_failed)') },
    },
  },
  {
    method: 'GET',
    path: `${PRODUCT_TYPES}/:productType`,
    operationId: 'getProductType',
    summary: 'Read one product type (by id or name)',
    auth: 'dashboard',
    operation: `query GetProductType($storeId: ID!, $productType: String!) { productType(storeId: $storeId, productType: $productType) { ${PRODUCT_TYPE_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId, productType: params.productType }),
    respond: (data) => ({ body: { data: data.productType } }),
    openapi: {
      description: 'One product type of the store, named by its id or its name, with its attributes. Needs manage_products.',
      components,
      parameters: [idParam('productType', 'product type id or name')],
      responses: { '200': one('ProductType', 'The product type'), ...errors, ...notFound('product type') },
    },
  },
  {
    method: 'POST',
    path: PRODUCT_TYPES,
    operationId: 'createProductType',
    summary: 'Create a product type',
    auth: 'dashboard',
    operation: `mutation CreateProductType($storeId: ID!, $input: ProductTypeInput!) { createProductType(storeId: $storeId, input: $input) { ${PRODUCT_TYPE_FIELDS} } }`,
    variables: ({ params, body: b }) => ({ storeId: params.storeId, input: camelizeKeys(requireObject(b), OPAQUE) }),
    respond: (data, r) => created(r, data.createProductType),
    openapi: {
      description: `Creates a product type: which attributes apply to its products and which to their variants, each required or not (attributes named by attribute_id or code). A store has at most ${CATALOG_LIMITS.productTypesPerStore} product types. Needs manage_products.`,
      components,
      requestBody: body('ProductTypeCreate'),
      responses: {
        '201': { ...one('ProductType', 'The created product type'), headers: location },
        ...badBody,
        ...errors,
        '409': problemResponse('Another product type of the store has the name (name_taken)'),
        '422': problemResponse('Invalid field (validation_failed: unknown_attribute, duplicate_attribute, too_big...) or the store has the most product types it may (limit_exceeded)'),
      },
    },
  },
  {
    method: 'PATCH',
    path: `${PRODUCT_TYPES}/:productType`,
    operationId: 'updateProductType',
    summary: 'Update a product type (partial; its products follow in the same write)',
    auth: 'dashboard',
    operation: `mutation UpdateProductType($storeId: ID!, $productType: String!, $input: ProductTypeInput!) {
      updateProductType(storeId: $storeId, productType: $productType, input: $input) { ${PRODUCT_TYPE_FIELDS} } }`,
    variables: ({ params, body: b }) => ({ storeId: params.storeId, productType: params.productType, input: writableBody(b ?? {}) }),
    respond: (data) => ({ body: { data: data.updateProductType } }),
    openapi: {
      description:
        "Renames the type or replaces an attribute list. The type's products (live and test catalogs) follow in the same write: values of attributes removed are dropped (from products or their variants), and an attribute made required gets the item's default on products lacking a value; without a default while products lack one, 409 attribute_values_missing and nothing is written. Each product changed records one event (product.updated, or product.variants_replaced when its variants' values changed). Needs manage_products.",
      components,
      parameters: [idParam('productType', 'product type id or name')],
      requestBody: { required: false, content: jsonContent(schemaRef('ProductTypeUpdate')) },
      responses: {
        '200': one('ProductType', 'The updated product type'),
        ...badBody,
        ...errors,
        ...notFound('product type'),
        '409': problemResponse('Another product type has the name (name_taken), or products lack a newly required value and no default was given (attribute_values_missing, with attributes and products)'),
        '422': problemResponse('Invalid field (validation_failed: unknown_attribute, duplicate_attribute, too_big, a default that is no value of its attribute...)'),
      },
    },
  },
  {
    method: 'DELETE',
    path: `${PRODUCT_TYPES}/:productType`,
    operationId: 'deleteProductType',
    summary: 'Delete a product type no product has',
    auth: 'dashboard',
    operation: `mutation DeleteProductType($storeId: ID!, $productType: String!) { deleteProductType(storeId: $storeId, productType: $productType) { id } }`,
    variables: ({ params }) => ({ storeId: params.storeId, productType: params.productType }),
    respond: () => ({ status: 204 }),
    openapi: {
      description: 'Deletes a product type. One that products of the live or test catalog have is 409 product_type_in_use with their number (products): give them another type or none first. Needs manage_products.',
      components,
      parameters: [idParam('productType', 'product type id or name')],
      responses: { '204': { description: 'Deleted' }, ...errors, ...notFound('product type'), '409': problemResponse('Products have the type (product_type_in_use, with products)') },
    },
  },
];
