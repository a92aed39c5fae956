/** REST routes for a product's options, variants and SEO record, and for description generation. */

import { allows } from '../../access/auth/authorization';
import type { FieldError } from '../../platform/errors';
import { CATALOG_LIMITS } from '../limits';
import { MAX_WORDS, TONES } from '../services/descriptions';
import { SEO_LIMITS } from '../services/seo';
import { SLUG_PATTERN } from '../services/slugs';
import { MAX_VARIANTS_PER_PRODUCT, WEIGHT_UNITS } from '../services/variants';
import { fromGraphQL, SEO, selectionOf, VARIANT } from '../services/views';
import { decimalString, OptionInputSchema, pricesSchema } from './productOpenapi';
import { expectedVersion, PRODUCT_FRAGMENT, productResponse } from './products';
import { camelizeKeys, requireObject, RestInputError } from '../../api/rest/body';
import { boolParam } from '../../api/rest/params';
import { jsonContent, problemResponse, schemaRef } from '../../api/rest/openapi';
import type { RestRequest, RestRoute } from '../../api/rest/routes';
import { STAGING_ARGUMENTS, STAGING_VARIABLES, stagingParameters, stagingResponses, stagingVariables } from './stagingParams';

const BASE = '/api/v1/merchant/stores/:storeId/products';

const VARIANT_FIELDS = selectionOf(VARIANT);
const SEO_FIELDS = selectionOf(SEO);

/**
 * REST's spelling of a variant GraphQL answered: money as JSON numbers (null without its own price), and no
 * `cost` for whoever may not read it (GraphQL answers it null for them; REST leaves the field out).
 */
const restVariant = (r: RestRequest) => {
  const withCost = allows(r.ctx.principal, 'readCost', r.params.storeId);
  return (v: Record<string, any>) => {
    if (!withCost) delete v.cost;
    return fromGraphQL(VARIANT, v);
  };
};

/** Fields a client may echo back from a GET; they are not writable and are ignored. */
const VARIANT_READ_ONLY = new Set(['id', 'created_at', 'updated_at', 'product_id']);
/** A bulk update names each variant by its id: only the times are echoed back and ignored. */
const PATCH_READ_ONLY = new Set(['created_at', 'updated_at', 'product_id']);
const SEO_READ_ONLY = new Set(['updated_at', 'product_id']);

const writable = (o: Record<string, unknown>, readOnly: Set<string>) => Object.fromEntries(Object.entries(o).filter(([k]) => !readOnly.has(k)));

/** `{"variants": [...]}` or a bare array. Option names and attribute codes are the merchant's own words: never camelized. */
function variantsFromBody(body: unknown, readOnly = VARIANT_READ_ONLY): unknown[] {
  const wrapper = Array.isArray(body) ? { variants: body } : requireObject(body);
  const list = wrapper.variants;
  const errors: FieldError[] = [];
  if (!Array.isArray(list)) {
    errors.push({ field: 'variants', code: list === undefined ? 'required' : 'invalid_type', message: 'must be an array of variants' });
  }
  // The wrapper holds the list only: another key is a mistake the client should hear about, not a silent drop.
  for (const key of Object.keys(wrapper)) {
    if (key !== 'variants') errors.push({ field: key, code: 'unknown_field', message: 'is not a known field (known: variants)' });
  }
  if (errors.length) throw new RestInputError(errors);
  return (list as unknown[]).map((v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? camelizeKeys(writable(v as Record<string, unknown>, readOnly), new Set(['options', 'attributes'])) : v,
  );
}

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

const money = (description: string) => nullable('number', { minimum: 0, description });

const VariantSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', readOnly: true },
    sku: { type: 'string', maxLength: 100, description: 'Unique within the store' },
    title: { type: 'string', maxLength: 255 },
    options: {
      type: 'object',
      additionalProperties: { type: 'string' },
      maxProperties: CATALOG_LIMITS.optionsPerProduct,
      description: "Option name to value: one value of each of the product's options; the combination is unique per product",
    },
    price: money("Overrides the product's price; null: the product's price"),
    compare_at_price: money('The "was" price, above the price the variant sells at (its own, else the product\'s): 422 compare_at_price_not_above_price otherwise'),
    prices: pricesSchema("Prices in the store's further currencies, one per currency; none in a currency: the product's price there applies. Sent, the list replaces the variant's ([] removes them); left out, they are kept"),
    cost: money("What the merchant pays. Shown only to the store's staff with manage_products (dashboard tokens): never to an API key or OAuth token, never in the public API"),
    inventory_quantity: { type: 'integer', minimum: 0 },
    position: { type: 'integer', minimum: 0, description: 'Defaults to the index in the list' },
    barcode: nullable('string', { description: 'GTIN-8, -12, -13 or -14 with a valid check digit: 422 invalid_barcode otherwise' }),
    weight: nullable('object', {
      required: ['value', 'unit'],
      properties: { value: { type: 'number', exclusiveMinimum: 0, description: 'At most 3 decimals' }, unit: { type: 'string', enum: [...WEIGHT_UNITS] } },
    }),
    image_id: nullable('string', { description: "One of the product's own images (422 unknown_image otherwise); cleared when the image is deleted" }),
    attributes: { type: 'object', description: 'Variant attribute values by attribute code' },
    created_at: { type: 'string', format: 'date-time', readOnly: true },
    updated_at: { type: 'string', format: 'date-time', readOnly: true },
  },
  required: ['sku'],
};

const decimalInput = (schema: Record<string, unknown>) => ({ oneOf: [schema, decimalString], description: `${schema.description}. A decimal string such as "12.50" is accepted too` });

/** A variant as a request sends it: its prices may also be decimal strings ("12.50"), as a product's. */
const VariantInputSchema = {
  ...VariantSchema,
  properties: {
    ...VariantSchema.properties,
    price: decimalInput(VariantSchema.properties.price),
    compare_at_price: decimalInput(VariantSchema.properties.compare_at_price),
    cost: decimalInput(VariantSchema.properties.cost),
  },
};

/** One item of a bulk update: the id, and any writable fields (left out: kept; null clears a nullable one). */
const VariantPatchSchema = {
  ...VariantInputSchema,
  properties: { ...VariantInputSchema.properties, id: { type: 'string', description: 'A variant of this product (422 unknown_variant otherwise)' } },
  required: ['id'],
};

const variantList = (description: string) => ({ description, content: json({ type: 'object', properties: { data: { type: 'array', items: VariantSchema } } }) });

const productErrors = {
  '400': problemResponse('Body is not JSON (bad_request, malformed_json)'),
  '404': problemResponse('No such product in this store (not_found)'),
  '412': problemResponse('If-Match is not the current version (precondition_failed, with current_version); nothing was written'),
};

const ifMatch = { name: 'If-Match', in: 'header', schema: { type: 'string' }, description: 'The product ETag you read ("v<version>"); 412 when the product changed since' };

/** The write's expected product version: If-Match, or the body's `version` where the body is an object. */
const versionOf = (r: RestRequest) => expectedVersion(r, r.body && typeof r.body === 'object' && !Array.isArray(r.body) ? (r.body as Record<string, unknown>) : {});

/** `{"options": [...]}` or a bare array; values are the merchant's own words (renamed_values keys never camelized). */
function optionsFromBody(body: unknown): unknown {
  const wrapper = Array.isArray(body) ? { options: body } : requireObject(body);
  const errors: FieldError[] = [];
  if (!Array.isArray(wrapper.options)) errors.push({ field: 'options', code: wrapper.options === undefined ? 'required' : 'invalid_type', message: 'must be an array of options' });
  for (const key of Object.keys(wrapper)) {
    if (key !== 'options' && key !== 'version') errors.push({ field: key, code: 'unknown_field', message: 'is not a known field (known: options, version)' });
  }
  if (errors.length) throw new RestInputError(errors);
  return camelizeKeys(wrapper.options, new Set(['renamed_values']));
}

/** The generate body: an optional object of defaults. */
function generateInputOf(body: unknown) {
  if (body === undefined || body === null || body === '') return {};
  const { version: _version, ...input } = requireObject(body);
  return camelizeKeys(input, new Set(['attributes']));
}

const SeoSchema = {
  type: 'object',
  properties: {
    title: nullable('string', { maxLength: SEO_LIMITS.title }),
    description: nullable('string', { maxLength: SEO_LIMITS.description }),
    slug: nullable('string', {
      pattern: `^\\s*${SLUG_PATTERN.source.slice(1, -1)}\\s*$`,
      maxLength: SEO_LIMITS.slug,
      description: 'Unique within the store; lowercase letters, digits and single hyphens (surrounding blanks are trimmed)',
    }),
    canonical_url: nullable('string', { format: 'uri' }),
    og_image_url: nullable('string', { format: 'uri' }),
    noindex: { type: 'boolean' },
    updated_at: { type: 'string', format: 'date-time', readOnly: true },
  },
};

export const catalogExtrasRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: `${BASE}/:productId/variants`,
    operationId: 'replaceProductVariants',
    summary: 'Replace the whole variant set of a product (one transaction)',
    auth: 'dashboard',
    operation: `
      mutation ReplaceVariants($storeId: ID!, $productId: ID!, $variants: [VariantInput!]!, $expectedVersion: Int, $applyTo: StagedApplyTo) {
        replaceProductVariants(storeId: $storeId, productId: $productId, variants: $variants, expectedVersion: $expectedVersion, applyTo: $applyTo) { ${VARIANT_FIELDS} }
      }`,
    variables: (r) => ({ storeId: r.params.storeId, productId: r.params.productId, variants: variantsFromBody(r.body), expectedVersion: versionOf(r), applyTo: stagingVariables(r.query).applyTo }),
    respond: (data, r) => ({ body: { data: data.replaceProductVariants.map(restVariant(r)) } }),
    openapi: {
      parameters: [ifMatch, ...stagingParameters(false)],
      requestBody: {
        required: true,
        content: json({
          oneOf: [
            { type: 'object', properties: { variants: { type: 'array', maxItems: MAX_VARIANTS_PER_PRODUCT, items: VariantInputSchema } }, required: ['variants'] },
            { type: 'array', maxItems: MAX_VARIANTS_PER_PRODUCT, items: VariantInputSchema },
          ],
        }),
      },
      responses: { '200': variantList('The new variant set, ordered by position'), ...productErrors, '409': stagingResponses['409'] },
    },
  },
  {
    method: 'GET',
    path: `${BASE}/:productId/variants`,
    operationId: 'listProductVariants',
    summary: "A product's variants, ordered by position",
    auth: 'dashboard',
    operation: `
      query ProductVariants($storeId: ID!, $productId: ID!) {
        productVariants(storeId: $storeId, productId: $productId) { ${VARIANT_FIELDS} }
      }`,
    variables: ({ params }) => ({ storeId: params.storeId, productId: params.productId }),
    respond: (data, r) => ({ body: { data: data.productVariants.map(restVariant(r)) } }),
    openapi: {
      responses: { '200': { description: 'Variants ordered by position', content: json({ type: 'object', properties: { data: { type: 'array', items: VariantSchema } } }) } },
    },
  },
  {
    method: 'PATCH',
    path: `${BASE}/:productId/variants`,
    operationId: 'updateProductVariants',
    summary: 'Update many variants of a product by id (one write: one version, one event)',
    auth: 'dashboard',
    operation: `
      mutation UpdateVariants($storeId: ID!, $productId: ID!, $variants: [VariantPatchInput!]!, $expectedVersion: Int, ${STAGING_VARIABLES}) {
        updateProductVariants(storeId: $storeId, productId: $productId, variants: $variants, expectedVersion: $expectedVersion, ${STAGING_ARGUMENTS}) { ${VARIANT_FIELDS} }
      }`,
    stageable: true,
    variables: (r) => ({
      storeId: r.params.storeId,
      productId: r.params.productId,
      variants: variantsFromBody(r.body, PATCH_READ_ONLY),
      expectedVersion: versionOf(r),
      ...stagingVariables(r.query),
    }),
    respond: (data, r) => ({ body: { data: data.updateProductVariants.map(restVariant(r)) } }),
    openapi: {
      parameters: [ifMatch, ...stagingParameters()],
      requestBody: {
        required: true,
        content: json({
          oneOf: [
            { type: 'object', properties: { variants: { type: 'array', minItems: 1, maxItems: MAX_VARIANTS_PER_PRODUCT, items: VariantPatchSchema } }, required: ['variants'] },
            { type: 'array', minItems: 1, maxItems: MAX_VARIANTS_PER_PRODUCT, items: VariantPatchSchema },
          ],
        }),
      },
      responses: {
        '200': variantList('The named variants, in the order named, as they are now'),
        ...productErrors,
        '409': problemResponse('A SKU another product of the store holds (sku_taken); the product has staged changes (staged_changes_pending)'),
        '422': problemResponse('With staged=true, sku, inventory_quantity or cost (not_stageable). Every error of every item at once (validation_failed), named variants.N.field: unknown_variant, duplicate_variant, duplicate_sku, duplicate_options, unknown_option, unknown_option_value, missing_option, invalid_barcode, compare_at_price_not_above_price, unknown_image'),
      },
    },
  },
  {
    method: 'POST',
    path: `${BASE}/:productId/variants/generate`,
    operationId: 'generateProductVariants',
    summary: "Create every missing combination of the product's options as variants (one write)",
    auth: 'dashboard',
    operation: `
      mutation GenerateVariants($storeId: ID!, $productId: ID!, $input: GenerateVariantsInput, $expectedVersion: Int) {
        generateProductVariants(storeId: $storeId, productId: $productId, input: $input, expectedVersion: $expectedVersion) { ${VARIANT_FIELDS} }
      }`,
    variables: (r) => ({ storeId: r.params.storeId, productId: r.params.productId, input: generateInputOf(r.body), expectedVersion: versionOf(r) }),
    respond: (data, r) => {
      const created = data.generateProductVariants.map(restVariant(r));
      return { status: created.length ? 201 : 200, body: { data: created, meta: { created: created.length } } };
    },
    openapi: {
      parameters: [ifMatch],
      requestBody: {
        required: false,
        content: json({
          type: 'object',
          properties: {
            price: { oneOf: [money("Price of each new variant; default null: the product's price"), decimalString] },
            inventory_quantity: { type: 'integer', minimum: 0, description: 'Inventory of each new variant; default 0' },
            sku_pattern: {
              type: 'string',
              minLength: 1,
              maxLength: 200,
              description:
                'SKU of each new variant: {product} (the product id up to its first hyphen, in capitals), {position} (the variant\'s position) and {<option name>} (its value of that option; names without case). Default {product}-{<option 1>}-{<option 2>}…',
            },
            attributes: {
              type: 'object',
              description: 'Variant attribute values by attribute code that every new variant gets; needed when the product type requires values of variants (else 422 `attributes.<code>` `required`)',
            },
            version: { type: 'integer', description: 'The product version you read (as If-Match)' },
          },
        }),
      },
      responses: {
        '201': { description: 'The created variants, by position, and their count', content: json({ type: 'object', properties: { data: { type: 'array', items: VariantSchema }, meta: { type: 'object', properties: { created: { type: 'integer' } } } } }) },
        '200': { description: 'Every combination has a variant already: nothing was created', content: json({ type: 'object', properties: { data: { type: 'array', maxItems: 0 }, meta: { type: 'object', properties: { created: { type: 'integer', enum: [0] } } } } }) },
        ...productErrors,
        '409': problemResponse('A generated SKU is used by another variant of the store (sku_taken, with skus); nothing was written'),
        '422': problemResponse(
          `More than ${MAX_VARIANTS_PER_PRODUCT} variants in all (limit_exceeded, limit_name variants_per_product); a bad default or pattern (validation_failed: unknown_placeholder, duplicate_sku, too_big)`,
        ),
      },
    },
  },
  {
    method: 'PUT',
    path: `${BASE}/:productId/options`,
    operationId: 'setProductOptions',
    summary: "Set a product's options (renames carried to its variants)",
    auth: 'dashboard',
    operation: `
      mutation SetOptions($storeId: ID!, $productId: ID!, $options: [ProductOptionInput!]!, $deleteVariants: Boolean, $expectedVersion: Int, ${STAGING_VARIABLES}) {
        setProductOptions(storeId: $storeId, productId: $productId, options: $options, deleteVariants: $deleteVariants, expectedVersion: $expectedVersion, ${STAGING_ARGUMENTS}) { ...RestProduct }
      }${PRODUCT_FRAGMENT}`,
    stageable: true,
    variables: (r) => ({
      storeId: r.params.storeId,
      productId: r.params.productId,
      options: optionsFromBody(r.body),
      deleteVariants: boolParam(r.query, 'delete_variants'),
      expectedVersion: versionOf(r),
      ...stagingVariables(r.query),
    }),
    respond: (data) => productResponse(data.setProductOptions),
    openapi: {
      parameters: [
        ifMatch,
        ...stagingParameters(),
        {
          name: 'delete_variants',
          in: 'query',
          schema: { type: 'string', enum: ['true', 'false'] },
          description: 'true: delete, in the same write, the variants the change leaves without a value or with the combination of an earlier variant (409 options_in_use otherwise)',
        },
      ],
      requestBody: {
        required: true,
        content: json({
          oneOf: [
            {
              type: 'object',
              required: ['options'],
              properties: { options: { type: 'array', maxItems: CATALOG_LIMITS.optionsPerProduct, items: OptionInputSchema }, version: { type: 'integer', description: 'The product version you read (as If-Match)' } },
            },
            { type: 'array', maxItems: CATALOG_LIMITS.optionsPerProduct, items: OptionInputSchema },
          ],
        }),
      },
      responses: {
        '200': { description: 'The product with its options', headers: { ETag: { $ref: '#/components/headers/ETag' } }, content: jsonContent({ type: 'object', properties: { data: schemaRef('Product') } }) },
        ...productErrors,
        '409': problemResponse('Variants use a value this removes, or would share a combination once an option is removed (options_in_use, listing them in `variants`); nothing was written. The product has staged changes (staged_changes_pending)'),
        '422': problemResponse('Invalid options (validation_failed: duplicate_option, duplicate_value, unknown_option, unknown_option_value, too_big)'),
      },
    },
  },
  {
    method: 'PUT',
    path: `${BASE}/:productId/seo`,
    operationId: 'setProductSeo',
    summary: "Set a product's SEO record (replace: fields left out are cleared)",
    auth: 'dashboard',
    operation: `
      mutation SetSeo($storeId: ID!, $productId: ID!, $input: SeoInput!, ${STAGING_VARIABLES}) {
        setProductSeo(storeId: $storeId, productId: $productId, input: $input, ${STAGING_ARGUMENTS}) { ${SEO_FIELDS} }
      }`,
    stageable: true,
    variables: ({ params, body, query }) => ({
      storeId: params.storeId,
      productId: params.productId,
      input: camelizeKeys(writable(requireObject(body), SEO_READ_ONLY)),
      ...stagingVariables(query),
    }),
    respond: (data) => ({ body: { data: data.setProductSeo } }),
    openapi: {
      parameters: stagingParameters(),
      requestBody: { required: true, content: json(SeoSchema) },
      responses: { '200': { description: 'The SEO record (the staged one, with staged=true)', content: json({ type: 'object', properties: { data: SeoSchema } }) }, ...stagingResponses },
    },
  },
  {
    method: 'POST',
    path: `${BASE}/generate-description`,
    operationId: 'generateProductDescription',
    summary: 'Generate a product description (nothing is saved)',
    auth: 'dashboard',
    operation: `
      mutation GenerateDescription($storeId: ID!, $input: DescriptionInput!) {
        generateProductDescription(storeId: $storeId, input: $input) { description provider model }
      }`,
    // Attribute names are the merchant's own words: never camelized.
    variables: ({ params, body }) => ({ storeId: params.storeId, input: camelizeKeys(requireObject(body), new Set(['attributes'])) }),
    respond: (data) => ({ body: { data: data.generateProductDescription } }),
    openapi: {
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          description: 'product_id, or name (with optional category and attributes); fields sent override the product\'s',
          properties: {
            product_id: { type: 'string' },
            name: { type: 'string', maxLength: 255 },
            category: { type: 'string', maxLength: 128 },
            attributes: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
            tags: { type: 'array', items: { type: 'string' } },
            tone: { type: 'string', enum: [...TONES], default: 'neutral' },
            language: { type: 'string', default: 'en', description: 'The local provider writes en and de' },
            max_words: { type: 'integer', minimum: MAX_WORDS.min, maximum: MAX_WORDS.max, default: MAX_WORDS.default },
          },
        }),
      },
      responses: {
        '200': {
          description: 'The generated text; 502 provider_error or 504 provider_timeout when the AI provider fails',
          content: json({
            type: 'object',
            properties: { data: { type: 'object', properties: { description: { type: 'string' }, provider: { type: 'string' }, model: { type: 'string' } } } },
          }),
        },
      },
    },
  },
];
