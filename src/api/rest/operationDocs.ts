/** Descriptions of the REST operations in the API reference, and the scopes of the public ones. */

import type { Scope } from '../../kernel/access';

/**
 * What the reference says of each REST operation beyond its one-line summary: its description, and for the
 * public API the OAuth scopes that admit it. Kept by operationId in one place because the public API's routes
 * are the merchant routes re-mounted (src/catalog/rest/public.ts): the same fragment, a different audience, other
 * words. A route's own `openapi.description` is used where this has none; test/products/openapi.test.ts fails
 * on an operation with neither.
 */
interface OperationDoc {
  description: string;
  /** Public API: each entry is one way in (any of them); an OAuth token needs every scope of one entry. */
  scopes?: Scope[][];
}

const READ: Scope[][] = [['products:read'], ['products:write']];
const WRITE: Scope[][] = [['products:write']];
const CATALOG: Scope[][] = [['public:read'], ['products:read'], ['products:write']];

const STORE_PATH = 'The store is the one in the path; the dashboard token needs `manage_products` there (owners always pass).';
const PUBLIC_STORE = "The store and mode are the credential's (an API key's or an OAuth grant's); `X-Service-Mode` or `mode` may only repeat that mode.";
const IDEMPOTENT = 'Send an `Idempotency-Key` to make a retry safe: the same key and request answer the first response again.';

export const OPERATION_DOCS: Record<string, OperationDoc> = {
  listProducts: {
    description: `A page of the store's products (20 by default, at most 100) with \`meta\` and an RFC 8288 \`Link\` header. Filters combine: \`search\`, \`category\`, \`tags\`, \`is_active\`, \`low_stock\`, \`scheduled\`. A search without \`sort\` ranks best matches first (names equal to the text, then starting with it, then a later word starting with it, then any other match), newest first within each group; otherwise the default order is \`-created_at\`. ${STORE_PATH}`,
  },
  getProduct: {
    description: `One product with its categories, tags, images, SEO record and variant count. The \`ETag\` ("v<version>") is what \`If-Match\` expects on an update. ${STORE_PATH}`,
  },
  createProduct: {
    description: `Creates a product (status \`draft\` unless given). \`name\`, \`price\` and at least one existing category slug are required; unknown fields are rejected. Answers 201 with the product, its \`ETag\` and \`Location\`. ${IDEMPOTENT} ${STORE_PATH}`,
  },
  updateProduct: {
    description: `Changes the fields sent and keeps the others. Guard against lost updates with \`If-Match: "v<version>"\` (or a body \`version\`): when the product changed since you read it the answer is 412 and nothing is written. Read-only fields of a GET body are ignored, so a read body can be edited and sent back. ${IDEMPOTENT} ${STORE_PATH}`,
  },
  deleteProduct: {
    description: `Deletes the product with its variants, SEO record, category links and images, in one statement. A second delete is 404. ${IDEMPOTENT} ${STORE_PATH}`,
  },
  publishProduct: {
    description: `Sets the status to \`active\` and \`published_at\` to now, and clears a pending \`publish_at\`. Publishing an active product changes nothing; an archived product cannot be published (409). ${STORE_PATH}`,
  },
  unpublishProduct: {
    description: `Sets the status back to \`draft\` and clears a pending \`unpublish_at\`; unpublishing a draft changes nothing. ${STORE_PATH}`,
  },
  uploadProductImage: {
    description: `Uploads a JPEG, PNG or WebP image (multipart/form-data, field \`image\` or \`file\`), optionally attached to a product (\`product_id\`) with an \`alt\` text. The bytes decide the stored type; a declared type that is not an image type is 415. Uploads are streamed and limited by \`UPLOAD_MAX_BYTES\` (413) and \`UPLOAD_MAX_PIXELS\` (422). ${STORE_PATH}`,
  },
  removeProductImage: {
    description: `Takes the image off its product; the product's version moves on (its ETag changes). The stored file is removed later, once no image uses it. ${STORE_PATH}`,
  },
  replaceProductVariants: {
    description: `Replaces the product's whole variant set in one transaction: variants left out are deleted, SKUs must be unique in the store (409 \`sku_taken\`, or 422 \`duplicate_sku\` within the request). The body is \`{"variants": [...]}\` or the bare array. ${STORE_PATH}`,
  },
  listProductVariants: {
    description: `The product's variants ordered by \`position\`, with SKU, price, inventory and options. ${STORE_PATH}`,
  },
  updateProductVariants: {
    description: `Updates many variants of the product by id in one write (one version, one \`product.variants_updated\` event): each item is \`{"id", ...fields}\`, fields left out are kept and null clears a nullable one. Every error of every item comes at once, named \`variants.N.field\` (\`unknown_variant\` for an id the product does not have). Options must be the product's (\`unknown_option\`, \`unknown_option_value\`, \`missing_option\`). \`cost\` is shown to dashboard users only. ${STORE_PATH}`,
  },
  generateProductVariants: {
    description: `Creates every combination of the product's options that no variant has yet, in one write, after the existing variants, with optional defaults (\`price\`, \`inventory_quantity\`, \`sku_pattern\`). Answers 201 with the created variants and \`meta.created\` (200 with none when every combination exists). More than 2,048 variants in all is 422 \`limit_exceeded\`; a generated SKU already used in the store is 409 \`sku_taken\`; nothing is written then. ${STORE_PATH}`,
  },
  setProductOptions: {
    description: `Sets the product's options, \`[{"name", "values"}]\` in order (at most 5 options of 100 values). An entry with \`renamed_from\` (or the same name in another case) renames an option, \`renamed_values\` renames values: the variants follow in the same write. An option added gives existing variants its first value. Removing a value variants use, or an option whose removal leaves two variants with one combination, is 409 \`options_in_use\` listing them, unless \`delete_variants=true\` deletes them (the first by position stays). ${STORE_PATH}`,
  },
  setProductSeo: {
    description: `Replaces the product's SEO record (title, description, slug, canonical URL, Open Graph image, noindex); fields left out are cleared. Slugs are unique within the store. ${STORE_PATH}`,
  },
  generateProductDescription: {
    description: `Writes a product description with the configured provider (an OpenAI-compatible API, or the built-in local one) from an existing product or a name, category and attributes. Nothing is saved: send the text back in an update to keep it. A failing provider is 502 \`provider_error\` or 504 \`provider_timeout\`. ${STORE_PATH}`,
  },
  listChanges: {
    description:
      "The store's change history, newest first: one entry per write with its actor, source, resource and field-level `changes` (previous and next values). Filter by resource, actor, event type, mode and time; page with `after` (the previous page's `meta.next_cursor`). Needs `view_changes` for the store (owners always pass).",
  },
  listProductChanges: {
    description: "One product's history, newest first, also after the product was deleted. Needs `view_changes` or `manage_products` for the store. Page with `after` (the previous page's `meta.next_cursor`).",
  },
  listWebhookEndpoints: { description: "The store's webhook endpoints (both modes unless one is named), oldest first, without their secrets. Needs `manage_webhooks`." },
  createWebhookEndpoint: {
    description: `Registers an https URL to receive the store's events (all, or the \`event_types\` listed). The answer holds the signing secret (\`whsec_…\`), shown only here: verify each delivery's signature with it (Standard Webhooks). URLs on private, loopback or metadata addresses are refused (422 \`webhook_url_forbidden\`). ${IDEMPOTENT} Needs \`manage_webhooks\`.`,
  },
  getWebhookEndpoint: { description: 'One endpoint with its URL, event types, status and delivery health, without its secret. Needs `manage_webhooks`.' },
  updateWebhookEndpoint: {
    description: 'Changes the fields sent (`url`, `event_types`, `description`, `status`) and keeps the others. Setting `status` to `enabled` on an endpoint that was disabled after repeated failures resumes its deliveries. Needs `manage_webhooks`.',
  },
  deleteWebhookEndpoint: { description: 'Deletes the endpoint and its delivery log; messages not yet delivered to it are dropped. Needs `manage_webhooks`.' },
  rollWebhookEndpointSecret: {
    description: 'Creates a new signing secret, shown only in this answer. During the overlap (`overlap_hours`) deliveries are signed with both, so receivers can switch without missing one. Needs `manage_webhooks`.',
  },
  pingWebhookEndpoint: { description: 'Queues a `ping` message to the endpoint (one attempt) to test its reachability and signature check; its attempt appears in the delivery log. Needs `manage_webhooks`.' },
  replayWebhookMessages: {
    description: 'Queues once more every message to this endpoint that failed since the given time (at most the log retention). Answers with how many were queued. A disabled endpoint is 409 `endpoint_disabled`. Needs `manage_webhooks`.',
  },
  listWebhookMessages: {
    description: "The store's delivery log, newest first, for the retention period (30 days by default): each message with its event type, status and last attempt. Filter by endpoint, status or event type; page with `after` (the previous page's `meta.next_cursor`). Needs `manage_webhooks`.",
  },
  getWebhookMessage: { description: 'One message with its payload and every delivery attempt (status, response code, duration, error). Needs `manage_webhooks`.' },
  resendWebhookMessage: { description: 'Queues the message for delivery again now, whatever its status. A disabled endpoint is 409 `endpoint_disabled`. Needs `manage_webhooks`.' },
  copyLiveProductsToTest: {
    description: `Starts a background job copying live products (all, or those matching the filter, at most 10,000) into the store's test catalog, so integrations can be tried on real data. Answers 202 with the job and its \`Location\`; one job per store runs at a time (409 \`conflict\`). Needs \`manage_products\`.`,
  },
  deleteTestData: { description: "Starts a background job deleting every test-mode product of the store with its variants, SEO records, images and category links. Live data is never touched. Answers 202 with the job. Needs `manage_products`." },
  listTestCatalogJobs: { description: "The store's latest test catalog jobs (copies and deletions), newest first, with their status and progress. Needs `manage_products`." },
  getTestCatalogJob: { description: 'One test catalog job: kind, status (queued, running, succeeded, failed), products done and total, and its error if it failed. Needs `manage_products`.' },
  listSupportedCountries: {
    description: `The countries where payments are supported, with their default and supported currencies. Any credential of the store with \`public:read\` or \`payments:read\`. ${PUBLIC_STORE}`,
    scopes: [['public:read'], ['payments:read']],
  },
  listPublicProducts: {
    description: `A page of the credential's catalog. With \`public:read\` only: active products in the storefront view (in stock or not, no inventory counts). With \`products:read\` or \`products:write\`: every product in the merchant representation, with the merchant list's filters. ${PUBLIC_STORE}`,
    scopes: CATALOG,
  },
  listPublicCollections: {
    description: `A page of the catalog's published collections, newest first, in the storefront view: title and description in the requested locale (\`locale\` or \`Accept-Language\`, along the fallback chain), never their rules or counts. Unpublished collections are not listed. ${PUBLIC_STORE}`,
    scopes: CATALOG,
  },
  getPublicCollection: {
    description: `One published collection, named by its id or its slug, in the storefront view; an unpublished one is 404 as an unknown one is. ${PUBLIC_STORE}`,
    scopes: CATALOG,
  },
  listPublicCollectionProducts: {
    description: `The storefront product list (GET /api/public/v1/products) narrowed to the collection's members: active products only, public attributes only, prices in \`currency\`. Left without \`sort\`, the products come in the collection's own order (a manual collection's list, or its newest, name, price_asc or price_desc). ${PUBLIC_STORE}`,
    scopes: CATALOG,
  },
  getPublicProduct: {
    description: `One product of the credential's catalog. With \`public:read\` only: active products, storefront view (others are 404). With \`products:read\` or \`products:write\`: any status, merchant representation with its \`ETag\`. ${PUBLIC_STORE}`,
    scopes: CATALOG,
  },
  createPublicProduct: { description: `Creates a product in the credential's catalog, as the merchant API does (same validation, events and idempotency). ${IDEMPOTENT} ${PUBLIC_STORE}`, scopes: WRITE },
  updatePublicProduct: { description: `Changes the fields sent; \`If-Match\` or \`version\` guards against lost updates (412). ${IDEMPOTENT} ${PUBLIC_STORE}`, scopes: WRITE },
  deletePublicProduct: { description: `Deletes a product with its variants, SEO record and images. ${IDEMPOTENT} ${PUBLIC_STORE}`, scopes: WRITE },
  publishPublicProduct: { description: `Sets the status to \`active\` (idempotent; an archived product is 409 \`product_archived\`). ${PUBLIC_STORE}`, scopes: WRITE },
  unpublishPublicProduct: { description: `Sets the status back to \`draft\` (idempotent). ${PUBLIC_STORE}`, scopes: WRITE },
  replacePublicProductVariants: { description: `Replaces the product's whole variant set in one transaction; SKUs are unique in the store and mode. ${PUBLIC_STORE}`, scopes: WRITE },
  listPublicProductVariants: { description: `The product's variants ordered by position (never their \`cost\`). ${PUBLIC_STORE}`, scopes: READ },
  updatePublicProductVariants: { description: `Updates many variants of the product by id in one write (fields left out are kept). Never shows \`cost\`. ${PUBLIC_STORE}`, scopes: WRITE },
  generatePublicProductVariants: { description: `Creates every missing combination of the product's options as variants, in one write. ${PUBLIC_STORE}`, scopes: WRITE },
  setPublicProductOptions: { description: `Sets the product's options; renames are carried to its variants (\`delete_variants=true\` deletes the variants a removal leaves without a value). ${PUBLIC_STORE}`, scopes: WRITE },
  setPublicProductSeo: { description: `Replaces the product's SEO record; fields left out are cleared. ${PUBLIC_STORE}`, scopes: WRITE },
  uploadPublicProductImage: { description: `Uploads a JPEG, PNG or WebP image (multipart/form-data), optionally attached to a product. ${PUBLIC_STORE}`, scopes: WRITE },
  removePublicProductImage: { description: `Takes an image off its product; the product's version moves on. ${PUBLIC_STORE}`, scopes: WRITE },
};
