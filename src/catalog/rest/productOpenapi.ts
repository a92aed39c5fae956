/** OpenAPI fragments of the merchant product routes. */

import { CATALOG_LIMITS } from '../limits';
import { PRODUCT_STATUSES } from '../services/products';
import { PAGE_LIMITS, PRODUCT_SORTS } from '../services/productList';
import { jsonContent, type OpenApiFragment, problemResponse, schemaRef } from '../../api/rest/openapi';
import { stagingParameters } from './stagingParams';

/** OpenAPI fragments of the merchant product routes (src/catalog/rest/products.ts). */

const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });
const ro = <T extends object>(s: T) => ({ ...s, readOnly: true });

const price = {
  type: 'number',
  minimum: 0,
  maximum: 9_999_999_999.99,
  // Not `multipleOf: 0.01`: validators divide in binary floating point, where 19.99 / 0.01 is no integer, and
  // would refuse most prices. The two decimals are said in words.
  description: 'In the store currency, at most 2 decimals (stored exactly as DECIMAL(12,2)). Requests may also send a decimal string such as "19.99".',
};
/** Money as a request may send it, a decimal string ("19.99"): at most 10 digits and 2 decimals. */
export const decimalString = { type: 'string', pattern: '^\\s*\\d{1,10}(\\.\\d{1,2})?\\s*$' };

/**
 * A price in one of the store's further currencies (GET/PUT …/currencies): decimal strings with exactly the
 * currency's minor-unit digits, in requests and answers alike.
 */
const PriceSchema = {
  type: 'object',
  required: ['currency', 'amount'],
  properties: {
    currency: { type: 'string', pattern: '^[A-Za-z]{3}$', example: 'JPY', description: "ISO 4217, one of the store's further currencies (not its default: that price is `price`); otherwise 422 currency_not_sold or default_currency_price" },
    amount: { type: 'string', pattern: '^\\d+(\\.\\d+)?$', example: '1200', description: 'Exactly the currency\'s minor-unit digits: "12.00" EUR, "1200" JPY, "1.250" KWD (422 invalid_amount; negative: negative_amount)' },
    compare_at_amount: { type: ['string', 'null'], example: '1500', pattern: '^\\d+(\\.\\d+)?$', description: 'The "was" amount, same format, above amount (422 compare_at_amount_not_above_amount)' },
  },
};

/** A `prices` list: one price per further currency, by currency. */
export const pricesSchema = (description: string) => ({ type: 'array', maxItems: CATALOG_LIMITS.currenciesPerStore, items: schemaRef('Price'), description });

export const PRICES_DESCRIPTION =
  "Prices in the store's further currencies, one per currency; no exchange rate is ever applied. Sent, the list replaces the stored one ([] removes them all); left out, they are kept";

const OptionSchema = {
  type: 'object',
  required: ['name', 'values'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 64, description: 'Unique per product (compared without case)' },
    values: { type: 'array', minItems: 1, maxItems: CATALOG_LIMITS.valuesPerOption, items: { type: 'string', minLength: 1, maxLength: 255 }, description: 'In order; unique (without case)' },
  },
};

/** An option as a request sends it (PUT …/options, the create's `options`). */
export const OptionInputSchema = {
  ...OptionSchema,
  properties: {
    ...OptionSchema.properties,
    renamed_from: { type: 'string', description: "The option's current name, when this entry renames it: its variants are renamed in the same write" },
    renamed_values: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Current value to new value ({"Red": "Crimson"}); each new value must be in `values`. Its variants are renamed in the same write',
    },
  },
};

const translationsWrite = {
  type: 'object',
  additionalProperties: { oneOf: [schemaRef('ProductTranslationWrite'), { type: 'null' }] },
  description:
    "Translations by locale (one of the store's further locales; the default is 422 default_locale, another 422 locale_not_enabled, named translations.<locale>): each merges into the stored one, null removes it. Errors name translations.<locale>.<field>",
};

const writableFields = {
  name: { type: 'string', minLength: 1, maxLength: 255, description: 'Surrounding blanks are trimmed' },
  description: { type: 'string', maxLength: 20_000 },
  price: { oneOf: [price, decimalString] },
  prices: pricesSchema(PRICES_DESCRIPTION),
  inventory_quantity: { type: 'integer', minimum: 0, maximum: 2_147_483_647 },
  low_stock_threshold: { type: 'integer', minimum: 0, maximum: 2_147_483_647, description: 'low_stock=true lists products with inventory_quantity <= this' },
  status: { type: 'string', enum: [...PRODUCT_STATUSES] },
  tags: { type: 'array', maxItems: 100, items: { type: 'string', minLength: 1, maxLength: 64 }, description: 'Duplicates are dropped' },
  category_slugs: {
    type: 'array',
    minItems: 1,
    items: { type: 'string', minLength: 1, maxLength: 128 },
    description: 'Slugs of existing categories of the store: none is 422 category_required, an unknown one 422 unknown_category (listing unknown_slugs)',
  },
  product_type_id: nullable('string', {
    format: 'uuid',
    description: "The product type (GET /product-types) whose attributes the product has; unknown: 422 unknown_product_type. null: none, and the product's attribute values are dropped. A change drops the values (the variants' too) the new type lacks",
  }),
  attributes: {
    type: 'object',
    additionalProperties: true,
    description:
      'Attribute values by attribute code ({"material": "cotton", "capacity_l": 1.5}), checked against the product type: unknown_attribute, invalid_type, invalid_value, required, unknown_reference (field attributes.<code>). Sent values merge into the stored ones; null clears one. Encodings in docs/attributes.md',
  },
  publish_at: nullable('string', {
    format: 'date-time',
    description:
      'Scheduled publishing: RFC 3339 with an offset (2026-05-01T09:00:00+02:00), in the future; the product becomes active then (product.published, by the system) and this is cleared. Not on an active product (422 product_active) or an archived one (409 product_archived). Publishing by hand clears it. null cancels it.',
  }),
  unpublish_at: nullable('string', {
    format: 'date-time',
    description:
      'Scheduled unpublishing: RFC 3339 with an offset, in the future and after publish_at; an active product goes back to draft then (product.unpublished, by the system) and this is cleared. Not on an archived product (409 product_archived). Unpublishing by hand clears it. null cancels it.',
  }),
};

const translatedText = (maxLength: number) => nullable('string', { minLength: 1, maxLength });

/** One locale's translation of a product as a request writes it: the product's own shape. */
const ProductTranslationWrite = {
  type: 'object',
  additionalProperties: false,
  description:
    "A product's text in one of the store's further locales. A field left out or null has no translation (a read in the locale falls back to the default's). Read-only fields of a GET (outdated, outdated_fields, updated_at) are accepted and ignored.",
  properties: {
    name: translatedText(255),
    description: nullable('string', { maxLength: 20_000 }),
    seo: nullable('object', {
      additionalProperties: false,
      properties: {
        title: translatedText(70),
        description: translatedText(320),
        slug: nullable('string', { pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 200, description: 'Unique per store, mode and locale (409 slug_taken)' }),
      },
    }),
    options: nullable('object', {
      description: 'By option name in the default locale: {"Size": {"name": "Größe", "values": {"S": "Klein"}}}; an option or value the product lacks is 422 (unknown_option, unknown_option_value)',
      additionalProperties: nullable('object', {
        additionalProperties: false,
        properties: { name: translatedText(64), values: nullable('object', { additionalProperties: translatedText(255) }) },
      }),
    }),
    attributes: nullable('object', {
      description: "plain_text and rich_text values by attribute code ({\"care\": \"Handwäsche\"}); a code the product's type lacks is 422 unknown_attribute, another type not_translatable",
      additionalProperties: nullable('string'),
    }),
    outdated: ro({ type: 'boolean' }),
    outdated_fields: ro({ type: 'array', items: { type: 'string' } }),
    updated_at: ro({ type: 'string', format: 'date-time' }),
  },
  examples: [{ name: 'Bio-Baumwoll-T-Shirt', seo: { slug: 'bio-baumwoll-t-shirt' }, options: { Size: { name: 'Größe', values: { S: 'Klein' } } } }],
};

/** One locale's translation as the product shows it. */
const ProductTranslation = {
  type: 'object',
  required: ['name', 'description', 'seo', 'options', 'attributes', 'outdated', 'outdated_fields', 'updated_at'],
  properties: {
    ...ProductTranslationWrite.properties,
    outdated: ro({ type: 'boolean', description: "Whether a field's default-locale text changed after the translation was written" }),
    outdated_fields: ro({ type: 'array', items: { type: 'string' }, description: 'Those fields: name, description, seo.title, seo.description, seo.slug, options.<name>, attributes.<code>' }),
  },
};

const Product = {
  type: 'object',
  examples: [
    {
      id: '3f8e2a4c-5b6d-4e7f-8a9b-0c1d2e3f4a5b',
      name: 'Organic Cotton T-Shirt',
      description: 'Soft organic cotton with a regular fit.',
      price: 29.9,
      currency: 'EUR',
      prices: [{ currency: 'JPY', amount: '4900', compare_at_amount: null }, { currency: 'KWD', amount: '10.500', compare_at_amount: '12.000' }],
      inventory_quantity: 25,
      low_stock_threshold: 5,
      status: 'active',
      is_active: true,
      published_at: '2026-11-20T08:00:00.000Z',
      publish_at: null,
      unpublish_at: null,
      category_slugs: ['shirts'],
      tags: ['organic', 'summer'],
      options: [{ name: 'Size', values: ['S', 'M', 'L'] }],
      product_type_id: '8a7b6c5d-4e3f-4a1b-9c8d-7e6f5a4b3c2d',
      attributes: { material: 'cotton' },
      variants_count: 3,
      has_staged_changes: false,
      version: 4,
      created_at: '2026-11-18T10:12:31.000Z',
      updated_at: '2026-11-20T08:00:00.000Z',
      images: [
        {
          id: '0b9c7a52-1e3f-4d6a-9c8b-2f1e0d3c4b5a',
          url: 'https://catalog.example.com/uploads/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.jpg',
          width: 1200,
          height: 900,
          mime_type: 'image/jpeg',
          size_bytes: 184_320,
          sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
          alt: 'Front view',
          position: 0,
        },
      ],
      seo: null,
    },
  ],
  required: ['id', 'name', 'description', 'price', 'currency', 'prices', 'inventory_quantity', 'low_stock_threshold', 'status', 'is_active', 'published_at', 'publish_at', 'unpublish_at', 'category_slugs', 'tags', 'options', 'product_type_id', 'attributes', 'variants_count', 'has_staged_changes', 'version', 'created_at', 'updated_at'],
  properties: {
    id: ro({ type: 'string', format: 'uuid' }),
    name: writableFields.name,
    description: writableFields.description,
    price: { ...price, description: 'JSON number in the store currency (exact to 2 decimals)' },
    currency: ro({ type: 'string', description: "The store's ISO 4217 currency" }),
    prices: writableFields.prices,
    inventory_quantity: writableFields.inventory_quantity,
    low_stock_threshold: { ...writableFields.low_stock_threshold, default: 5 },
    status: { ...writableFields.status, default: 'draft' },
    is_active: ro({ type: 'boolean', description: 'status is active' }),
    published_at: ro(nullable('string', { format: 'date-time', description: 'Last time the product was published; null if never' })),
    publish_at: writableFields.publish_at,
    unpublish_at: writableFields.unpublish_at,
    // A read shows what is stored: a product made outside the API (a database restore, say) may have none.
    category_slugs: { type: 'array', items: writableFields.category_slugs.items, description: 'Sorted; at least one for every product created or updated through the API' },
    tags: writableFields.tags,
    options: ro({
      type: 'array',
      maxItems: CATALOG_LIMITS.optionsPerProduct,
      items: {
        type: 'object',
        required: ['name', 'values'],
        properties: { name: { type: 'string' }, values: { type: 'array', maxItems: CATALOG_LIMITS.valuesPerOption, items: { type: 'string' } } },
      },
      description: 'The options that define the variants, in order: each variant names one value of each. Managed through PUT /products/{productId}/options',
    }),
    product_type_id: writableFields.product_type_id,
    attributes: writableFields.attributes,
    variants_count: ro({ type: 'integer', minimum: 0 }),
    has_staged_changes: ro({ type: 'boolean', description: 'Whether the product has a staged version that differs from this, the current one (GET …/staged reads it)' }),
    version: ro({ type: 'integer', minimum: 1, description: 'Increments on every change, staged writes included; the ETag is "v<version>"' }),
    created_at: ro({ type: 'string', format: 'date-time' }),
    updated_at: ro({ type: 'string', format: 'date-time' }),
    images: ro({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' }, url: { type: 'string', format: 'uri' }, width: { type: 'integer' }, height: { type: 'integer' },
          mime_type: { type: 'string' }, size_bytes: { type: 'integer' }, sha256: { type: 'string' }, alt: nullable('string'), position: { type: 'integer' },
        },
      },
      description: 'Managed through POST /products/images',
    }),
    seo: ro(nullable('object', { description: 'Managed through PUT /products/{productId}/seo' })),
    translations: {
      type: 'object',
      additionalProperties: schemaRef('ProductTranslation'),
      description: 'Translations by locale ({"de": {…}}). Sent on a create or update, each locale sent merges into the stored one (a field null clears it) and a locale null removes it; PUT /products/{productId}/translations/{locale} sets one whole',
    },
  },
};

const PageMeta = {
  type: 'object',
  required: ['page', 'per_page', 'total', 'total_exact', 'total_pages', 'has_more'],
  properties: {
    page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 100 },
    total: { type: 'integer', minimum: 0, description: 'Matches of the whole list, not of this page' },
    total_exact: { type: 'boolean', description: 'Always true for a list filtered by nothing but is_active. Any other filter counts its matches up to ten pages past this one (offset + 10 × per_page); false when more match than that, `total` then being that bound (more than `total` match, "200+"). has_more is exact either way.' },
    total_pages: { type: 'integer', minimum: 0 },
    has_more: { type: 'boolean' },
    facets: {
      type: 'array',
      items: schemaRef('ProductFacet'),
      description: 'Only when the list asked for `facets`: one per code asked, in the order asked',
    },
  },
};

const ProductFacet = {
  type: 'object',
  description:
    "An attribute's values with product counts over the list's filters, its own filter left out (a product counts if it or one of its variants has the value). Value types (dropdown, multiselect, swatch, boolean, plain_text, reference) have `values`; numeric, date and date_time have `min` and `max`.",
  required: ['code', 'name', 'type', 'unit'],
  properties: {
    code: { type: 'string', example: 'material' },
    name: { type: 'string', example: 'Material' },
    type: { type: 'string', enum: ['plain_text', 'numeric', 'boolean', 'date', 'date_time', 'dropdown', 'multiselect', 'swatch', 'reference'] },
    unit: { type: ['string', 'null'], description: "A numeric attribute's unit" },
    values: {
      type: 'array',
      description:
        "Values with a count above zero, and every selected value. dropdown, multiselect and swatch: in the attribute's order; boolean: true, false; plain_text and reference: most products first, at most 100",
      items: {
        type: 'object',
        required: ['value', 'name', 'count', 'selected'],
        properties: {
          value: { type: 'string', description: 'What attributes[code] takes to select it', example: 'cotton' },
          name: { type: 'string', example: 'Cotton' },
          hex: { type: 'string', description: "A swatch value's colour", example: '#1f6feb' },
          count: { type: 'integer', minimum: 0 },
          selected: { type: 'boolean' },
        },
      },
    },
    min: { type: ['number', 'string', 'null'], description: 'Smallest value among the matching products: a number (numeric) or an ISO 8601 date or date-time; null when none has one' },
    max: { type: ['number', 'string', 'null'], description: 'Largest value' },
  },
};

const components: OpenApiFragment['components'] = {
  schemas: {
    Product,
    Price: PriceSchema,
    ProductCreate: {
      type: 'object',
      required: ['name', 'price', 'category_slugs'],
      additionalProperties: false,
      // The defaults are told, not declared: typed clients generated from a component (openapi-typescript's
      // defaults) make a property with `default` required, which on a request means "must be sent".
      properties: {
        ...writableFields,
        inventory_quantity: { ...writableFields.inventory_quantity, description: 'Default 0' },
        status: { ...writableFields.status, description: 'Default draft' },
        low_stock_threshold: { ...writableFields.low_stock_threshold, description: `${writableFields.low_stock_threshold.description}. Default 5` },
        translations: translationsWrite,
        options: {
          type: 'array',
          maxItems: CATALOG_LIMITS.optionsPerProduct,
          items: OptionInputSchema,
          description:
            "The options that define the product's variants, in order, checked as PUT /products/{productId}/options checks them (errors named options.N.name, options.N.values.M); the product starts without variants (POST …/variants/generate makes them). Default none",
        },
        variants: {
          type: 'array',
          maxItems: CATALOG_LIMITS.variantsPerProduct,
          items: {
            type: 'object',
            required: ['sku'],
            description: 'A variant as PUT /products/{productId}/variants takes it: these fields and the others it lists (barcode, compare_at_price, cost, weight, prices, attributes)',
            properties: {
              sku: { type: 'string', description: 'Unique within the store', example: 'TSHIRT-RED-M' },
              title: { type: 'string', example: 'Red / M' },
              options: { type: 'object', additionalProperties: { type: 'string' }, description: 'Option name to value', example: { Color: 'Red', Size: 'M' } },
              price: { oneOf: [{ type: 'number', minimum: 0 }, decimalString], description: "Default: the product's price", example: 24.9 },
              inventory_quantity: { type: 'integer', minimum: 0, example: 5 },
            },
          },
          description:
            'The variants, created with the product in one write: nothing is created unless all of it is valid, and every error of either comes at once (422, fields such as variants.2.sku; a SKU another product holds is sku_taken). Option values they name are added to the options. Default none',
        },
      },
    },
    ProductUpdate: {
      type: 'object',
      description:
        'Any of the create fields; fields left out keep their value, null is rejected (except publish_at and unpublish_at: null cancels the schedule). Read-only fields of a GET body are accepted and ignored, so a read body can be sent back edited; other unknown fields are 422.',
      properties: { ...writableFields, translations: translationsWrite, version: { type: 'integer', description: 'The version you read: 412 precondition_failed when it is no longer current' } },
    },
    PageMeta,
    ProductFacet,
    ProductTranslation,
    ProductTranslationWrite,
  },
  headers: {
    ETag: { description: 'Strong validator "v<version>"; send it back in If-Match', schema: { type: 'string', example: '"v3"' } },
    Link: { description: 'RFC 8288 links rel="first", "prev", "next", "last" (prev/next only where they exist)', schema: { type: 'string' } },
  },
};

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
const productBody = (description: string, headers: Record<string, unknown> = { ETag: header('ETag') }) => ({
  description,
  headers,
  content: jsonContent({ type: 'object', required: ['data'], properties: { data: schemaRef('Product') } }),
});
const productId = { name: 'productId', in: 'path', required: true, schema: { type: 'string' }, description: 'Product id (UUID); an unknown id or a product of another store is 404' };
const localeParam = { name: 'locale', in: 'path', required: true, schema: { type: 'string' }, description: "One of the store's further locales (BCP 47, any case: de-at is de-AT)" };
const errors = {
  '401': problemResponse('No or invalid bearer token (unauthenticated, invalid_token)'),
  '403': problemResponse('The token lacks manage_products for this store (forbidden)'),
};
const notFound = { '404': problemResponse('No such product in this store (not_found)') };
const badBody = {
  '400': problemResponse('Body is not a JSON object (bad_request, malformed_json)'),
  '415': problemResponse('Body is not application/json (unsupported_media_type)'),
};
const boolQuery = (name: string, description: string) => ({ name, in: 'query', schema: { type: 'string', enum: ['true', 'false'] }, description });

export const productOpenapi: Record<string, OpenApiFragment> = {
  listProducts: {
    description: 'A search without `sort` ranks best matches first: names equal to the search text, then names starting with it, then names with a later word starting with it, then any other match; newest first within each group. Otherwise the default is -created_at.',
    components,
    parameters: [
      { name: 'page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.page.min, maximum: PAGE_LIMITS.page.max, default: 1 }, description: 'A page past the end is empty (with the true total)' },
      { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: PAGE_LIMITS.perPage.min, maximum: PAGE_LIMITS.perPage.max, default: 20 } },
      { name: 'search', in: 'query', schema: { type: 'string', maxLength: 200 }, description: 'Case-insensitive; every word must occur in the name, description, tags or variant SKUs' },
      { name: 'category', in: 'query', schema: { type: 'string' }, description: 'Category slug' },
      { name: 'tags', in: 'query', schema: { type: 'string' }, description: 'Comma-separated; a product matches if it carries any of them' },
      boolQuery('is_active', 'true: status active; false: draft or archived'),
      boolQuery('low_stock', 'true: inventory_quantity <= low_stock_threshold'),
      boolQuery('scheduled', 'true: products with a pending publish_at or unpublish_at (the schedules the scheduler will run); false: neither'),
      { name: 'sort', in: 'query', schema: { type: 'string', enum: [...PRODUCT_SORTS] }, description: 'A leading - sorts descending' },
      {
        name: 'attributes',
        in: 'query',
        style: 'deepObject',
        explode: true,
        schema: {
          type: 'object',
          additionalProperties: { oneOf: [{ type: 'string' }, { type: 'object', properties: { gte: { type: 'string' }, lte: { type: 'string' } }, additionalProperties: false }] },
        },
        description:
          'Filters by filterable attributes, all of which must match; a product matches if it or one of its variants has a matching value. `attributes[material]=cotton,linen`: any of these values (a multiselect: products having any of them; booleans true or false); `attributes[capacity][gte]=1`, `attributes[capacity][lte]=2`: an inclusive range (numeric, date as YYYY-MM-DD, date_time as ISO 8601 with offset). An unknown or non-filterable attribute, or a value it cannot take, is 422 validation_failed naming the parameter (errors[].code invalid_parameter).',
      },
      { name: 'product_type', in: 'query', schema: { type: 'string' }, description: 'Comma-separated product type ids; a product matches if it is of any of them' },
      {
        name: 'facets',
        in: 'query',
        schema: { type: 'string' },
        description: "Comma-separated codes of filterable attributes (at most 10): adds meta.facets, each attribute's values with product counts over this list's filters, its own filter left out",
      },
    ],
    responses: {
      '200': {
        description: 'One page of products',
        headers: { Link: header('Link') },
        content: jsonContent({ type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: schemaRef('Product') }, meta: schemaRef('PageMeta') } }),
      },
      ...errors,
      '422': problemResponse('A query parameter is out of range or unknown (validation_failed; errors[].field names it)'),
    },
  },
  getProduct: {
    components,
    parameters: [productId],
    responses: { '200': productBody('The product'), ...errors, ...notFound },
  },
  createProduct: {
    components,
    requestBody: { required: true, content: jsonContent(schemaRef('ProductCreate')) },
    responses: {
      '201': productBody('The created product', {
        ETag: header('ETag'),
        Location: { description: 'URL of the new product', schema: { type: 'string', format: 'uri' } },
      }),
      ...badBody,
      ...errors,
      '409': problemResponse('publish_at or unpublish_at on an archived product (product_archived)'),
      '422': problemResponse('Invalid field (validation_failed, including attribute values: attributes.<code>), no category slug (category_required) or unknown slugs (unknown_category, with unknown_slugs)'),
    },
  },
  updateProduct: {
    components,
    parameters: [
      productId,
      { name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'The ETag you read ("v<version>"); 412 when the product changed since' },
      ...stagingParameters(),
    ],
    // No body is an update without fields: a no-op answering the product (a stale If-Match still fails).
    requestBody: { required: false, content: jsonContent(schemaRef('ProductUpdate')) },
    responses: {
      '200': productBody('The updated product'),
      ...badBody,
      ...errors,
      ...notFound,
      '409': problemResponse('publish_at or unpublish_at on an archived product (product_archived); the product has staged changes and the write changes something staged (staged_changes_pending)'),
      '412': problemResponse('If-Match or version is not the current version (precondition_failed, with current_version); nothing was written'),
      '422': problemResponse('Invalid field (validation_failed, category_required, unknown_category); with staged=true, a field that is never staged (not_stageable)'),
    },
  },
  deleteProduct: {
    components,
    parameters: [productId],
    responses: { '204': { description: 'Deleted with its variants, SEO record and images' }, ...errors, ...notFound },
  },
  publishProduct: {
    components,
    parameters: [productId],
    responses: {
      '200': productBody('The product, status active (idempotent)'),
      ...errors,
      ...notFound,
      '409': problemResponse('The product is archived (product_archived)'),
    },
  },
  unpublishProduct: {
    components,
    parameters: [productId],
    responses: { '200': productBody('The product, status draft (idempotent)'), ...errors, ...notFound },
  },
  setProductTranslation: {
    description:
      "Sets the product's translation in one of the store's further locales whole: fields left out have none. Writing it clears its outdated marks. Moves the product's version and records translation.updated. Needs manage_products.",
    components,
    parameters: [productId, localeParam],
    requestBody: { required: true, content: jsonContent(schemaRef('ProductTranslationWrite')) },
    responses: {
      '200': productBody('The product with its translations'),
      ...badBody,
      ...errors,
      ...notFound,
      '409': problemResponse('Another product of the catalog has the translated slug in this locale (slug_taken)'),
      '422': problemResponse(
        'The locale is the default (default_locale) or not one of the store\'s (locale_not_enabled), both naming locale; an option, value or attribute the product lacks (unknown_option, unknown_option_value, unknown_attribute), an attribute that is not text (not_translatable), or an invalid field, each named as sent (validation_failed)',
      ),
    },
  },
  removeProductTranslation: {
    description: "Removes the product's translation in a locale; records translation.deleted. Needs manage_products.",
    components,
    parameters: [productId, localeParam],
    responses: {
      '200': productBody('The product without the translation'),
      ...errors,
      '404': problemResponse('No such product, or it has no translation in the locale (not_found)'),
      '422': problemResponse('The locale is the default or not one of the store\'s (default_locale, locale_not_enabled)'),
    },
  },
};
