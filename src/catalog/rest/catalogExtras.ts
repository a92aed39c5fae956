/** REST routes for a product's variants and SEO record, and for description generation. */

import type { FieldError } from '../../platform/errors';
import { MAX_WORDS, TONES } from '../services/descriptions';
import { SEO_LIMITS } from '../services/seo';
import { SLUG_PATTERN } from '../services/slugs';
import { MAX_VARIANTS_PER_PRODUCT } from '../services/variants';
import { fromGraphQL, SEO, selectionOf, VARIANT } from '../services/views';
import { decimalString } from './productOpenapi';
import { camelizeKeys, requireObject } from '../../api/rest/body';
import { RestInputError } from '../../api/rest/problem';
import type { RestRoute } from '../../api/rest/routes';

const BASE = '/api/v1/merchant/stores/:storeId/products';

const VARIANT_FIELDS = selectionOf(VARIANT);
const SEO_FIELDS = selectionOf(SEO);

/** REST's spelling of a variant GraphQL answered: its price a JSON number (null without its own price). */
const restVariant = (v: Record<string, any>) => fromGraphQL(VARIANT, v);

/** Fields a client may echo back from a GET; they are not writable and are ignored. */
const VARIANT_READ_ONLY = new Set(['id', 'created_at', 'updated_at', 'product_id']);
const SEO_READ_ONLY = new Set(['updated_at', 'product_id']);

const writable = (o: Record<string, unknown>, readOnly: Set<string>) => Object.fromEntries(Object.entries(o).filter(([k]) => !readOnly.has(k)));

/** `{"variants": [...]}` or a bare array. Option names are the merchant's own words: never camelized. */
function variantsFromBody(body: unknown): unknown[] {
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
    v && typeof v === 'object' && !Array.isArray(v) ? camelizeKeys(writable(v as Record<string, unknown>, VARIANT_READ_ONLY), new Set(['options'])) : v,
  );
}

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
const nullable = (type: string, extra: Record<string, unknown> = {}) => ({ type: [type, 'null'], ...extra });

const VariantSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', readOnly: true },
    sku: { type: 'string', maxLength: 100, description: 'Unique within the store' },
    title: { type: 'string', maxLength: 255 },
    options: { type: 'object', additionalProperties: { type: 'string' }, description: 'Option name to value; the combination is unique per product' },
    price: nullable('number', { minimum: 0, description: "Overrides the product's price; null: the product's price" }),
    inventory_quantity: { type: 'integer', minimum: 0 },
    position: { type: 'integer', minimum: 0, description: 'Defaults to the index in the list' },
    created_at: { type: 'string', format: 'date-time', readOnly: true },
    updated_at: { type: 'string', format: 'date-time', readOnly: true },
  },
  required: ['sku'],
};

/** A variant as a request sends it: its price may also be a decimal string ("12.50"), as a product's. */
const VariantInputSchema = {
  ...VariantSchema,
  properties: {
    ...VariantSchema.properties,
    price: {
      oneOf: [VariantSchema.properties.price, decimalString],
      description: "Overrides the product's price; null: the product's price. A decimal string such as \"12.50\" is accepted too",
    },
  },
};

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
      mutation ReplaceVariants($storeId: ID!, $productId: ID!, $variants: [VariantInput!]!) {
        replaceProductVariants(storeId: $storeId, productId: $productId, variants: $variants) { ${VARIANT_FIELDS} }
      }`,
    variables: ({ params, body }) => ({ storeId: params.storeId, productId: params.productId, variants: variantsFromBody(body) }),
    respond: (data) => ({ body: { data: data.replaceProductVariants.map(restVariant) } }),
    openapi: {
      requestBody: {
        required: true,
        content: json({
          oneOf: [
            { type: 'object', properties: { variants: { type: 'array', maxItems: MAX_VARIANTS_PER_PRODUCT, items: VariantInputSchema } }, required: ['variants'] },
            { type: 'array', maxItems: MAX_VARIANTS_PER_PRODUCT, items: VariantInputSchema },
          ],
        }),
      },
      responses: { '200': { description: 'The new variant set, ordered by position', content: json({ type: 'object', properties: { data: { type: 'array', items: VariantSchema } } }) } },
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
    respond: (data) => ({ body: { data: data.productVariants.map(restVariant) } }),
    openapi: {
      responses: { '200': { description: 'Variants ordered by position', content: json({ type: 'object', properties: { data: { type: 'array', items: VariantSchema } } }) } },
    },
  },
  {
    method: 'PUT',
    path: `${BASE}/:productId/seo`,
    operationId: 'setProductSeo',
    summary: "Set a product's SEO record (replace: fields left out are cleared)",
    auth: 'dashboard',
    operation: `
      mutation SetSeo($storeId: ID!, $productId: ID!, $input: SeoInput!) {
        setProductSeo(storeId: $storeId, productId: $productId, input: $input) { ${SEO_FIELDS} }
      }`,
    variables: ({ params, body }) => ({
      storeId: params.storeId,
      productId: params.productId,
      input: camelizeKeys(writable(requireObject(body), SEO_READ_ONLY)),
    }),
    respond: (data) => ({ body: { data: data.setProductSeo } }),
    openapi: {
      requestBody: { required: true, content: json(SeoSchema) },
      responses: { '200': { description: 'The SEO record', content: json({ type: 'object', properties: { data: SeoSchema } }) } },
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
