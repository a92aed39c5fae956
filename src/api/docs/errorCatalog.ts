/** The error catalogue: what each stable error code means and what a client does about it. */

import type { ErrorCode } from '../../platform/errors';

/**
 * What each stable error code means and what a client does about it: the text of the pages every problem
 * document's `type` points at (/docs/errors/{code}), and of the examples in /api/openapi.json. A Record over
 * ErrorCode, so a code added to STATUS_BY_CODE does not compile until it is explained here.
 */
interface ErrorExplanation {
  /** One sentence: what went wrong. */
  meaning: string;
  /** What the client should do about it. */
  action: string;
  /** A `detail` as the service writes it for this code, for examples. */
  example: string;
  /** Set when only /graphql answers with this code: its page shows a GraphQL error, not a problem document. */
  graphqlOnly?: true;
}

/** The field-error codes every surface uses in `errors[]` (REST) and `extensions.errors` (GraphQL), besides the rules' own. */
const FIELD_ERROR_CODES =
  '`required` (a required field is missing), `unknown_field` (a field the input does not have), `invalid_type` (a value of the wrong type, null where a value is needed), ' +
  '`invalid_value` (the right type but not an accepted value: an unknown enum value, a malformed price, URL or time), `too_small` and `too_big` (a number, a length or a list size out of bounds), ' +
  '`invalid_character` (the NUL character), `invalid_parameter` (a query parameter that cannot be read as its type); ' +
  'for attributes and product types (docs/attributes.md): `unknown_attribute`, `unknown_reference`, `unknown_product_type`, `product_type_required`, `immutable`, `not_allowed`, `duplicate_value`, `duplicate_attribute`, `attribute_values_missing`, `attribute_value_in_use`';

/** How a GraphQL request error on a well-formed request is answered, in the words of each such code's page. */
const GRAPHQL_REQUEST_ERROR_STATUS =
  'A client that accepts application/graphql-response+json gets HTTP 400; one that accepts only application/json gets 200, as GraphQL over HTTP asks.';

export const ERROR_CATALOG: Record<ErrorCode, ErrorExplanation> = {
  bad_request: {
    meaning:
      'The request could not be read as HTTP the service understands: a malformed multipart body, JSON nested deeper than 32 levels, or a request line the server refused. ' +
      'On /graphql: a body that is not one GraphQL request (a batch, no `query` string, `variables` or `extensions` that are not objects, an unknown parameter, a persisted query without its document).',
    action: 'Fix the request itself (its framing, encoding or structure); sending it again unchanged gives the same answer.',
    example: 'The JSON body is nested deeper than 32 arrays or objects',
  },
  malformed_json: {
    meaning:
      'The body was declared as JSON but is not valid JSON (a syntax error, a truncated body, or an encoding other than UTF-8); on /graphql also an empty body, and the `variables` or `extensions` parameter of a GET.',
    action: 'Send a syntactically valid UTF-8 JSON document with Content-Type: application/json. The message names the position of the first error where the parser could tell it.',
    example: 'The request body is not valid JSON: Unexpected end of JSON input',
  },
  invalid_parameter: {
    meaning: 'A query or form parameter has a value outside what the endpoint accepts (in OAuth authorization requests: a parameter the flow cannot use, such as an unknown store_id).',
    action: 'Correct the parameter named in `detail`; the endpoint reference lists each parameter with its allowed values.',
    example: 'store_id is not a store this user may connect apps to',
  },
  invalid_mode: {
    meaning: 'The mode named by the X-Service-Mode header or the `mode` query parameter is neither `test` nor `live`.',
    action: 'Send `test` or `live` (the problem lists them in `allowed_modes`), or leave the mode out to use the credential’s own mode.',
    example: 'The X-Service-Mode header must be "test" or "live", not "staging"',
  },
  conflicting_credentials: {
    meaning: 'The request carries two different credentials: one in Authorization and another in X-API-Key.',
    action: 'Send one credential, in one of the two headers.',
    example: 'Authorization and X-API-Key carry different credentials; send one of them',
  },
  conflicting_mode: {
    meaning: 'The request names both test and live mode (for example X-Service-Mode: test with ?mode=live, or a mode that differs from the one an argument implies).',
    action: 'Name one mode, in one place: the X-Service-Mode header or the `mode` parameter, matching the mode of any id you send.',
    example: 'The request names both test and live mode; send one mode',
  },
  invalid_idempotency_key: {
    meaning: 'The Idempotency-Key header is empty, longer than 255 characters, or holds characters other than printable ASCII (in GraphQL: idempotencyKey on an operation with more than one mutation field).',
    action: 'Use 1 to 255 printable ASCII characters; a fresh UUID per logical write is a good choice.',
    example: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
  },
  graphql_parse_failed: {
    meaning: `The GraphQL document in \`query\` is not valid GraphQL syntax; \`locations\` gives the line and column. ${GRAPHQL_REQUEST_ERROR_STATUS}`,
    action: 'Fix the syntax at the reported line and column (GraphiQL at /graphql underlines it); nothing ran.',
    example: 'Syntax Error: Expected Name, found <EOF>.',
    graphqlOnly: true,
  },
  graphql_validation_failed: {
    meaning: `The document is valid GraphQL but does not fit the schema: an unknown field or argument, a literal of the wrong type, a missing required argument, or a subscription (the service has none); \`locations\` points at it. ${GRAPHQL_REQUEST_ERROR_STATUS}`,
    action: 'Check the document against the schema (GraphiQL at /graphql, or schema.graphql); the message names the field or argument. Nothing ran.',
    example: 'Cannot query field "nope" on type "Query".',
    graphqlOnly: true,
  },
  unknown_operation: {
    meaning: `The request does not say which operation of the document to run: \`operationName\` names none of its operations, or the document holds several and \`operationName\` is missing. ${GRAPHQL_REQUEST_ERROR_STATUS}`,
    action: 'Send `operationName` with the name of one of the document’s operations, or send a document holding a single operation.',
    example: 'The document has no operation named "ListProducts"',
    graphqlOnly: true,
  },
  invalid_variables: {
    meaning:
      'A variable’s value does not fit the type the operation declares for it (a string for an Int, null or nothing for a required variable, an unknown enum value or input field). ' +
      '`extensions.errors` lists every problem of the variables at once, as validation_failed’s `errors[]` does: each value of the wrong type, and the rules the other fields of the same input break ' +
      '(an empty name beside a fraction for a whole number), each with `field` (its path in the input: `name`, `variants.1.sku`; another variable by its name), `code` and `message`. ' +
      GRAPHQL_REQUEST_ERROR_STATUS,
    action: 'Correct each field listed in `extensions.errors` and send the request again. Nothing ran.',
    example: 'The variables are not valid: inventoryQuantity: must be an integer; name: must not be empty',
    graphqlOnly: true,
  },
  query_too_large: {
    meaning: 'The GraphQL document has more lexical tokens than GRAPHQL_MAX_TOKENS (2000 by default). They are counted before parsing, so nesting thousands of levels deep or long fragment chains stop here.',
    action: 'Send a smaller document: fewer fields, or the work split over several requests.',
    example: 'Token limit of 2000 exceeded.',
    graphqlOnly: true,
  },
  query_too_deep: {
    meaning: 'Fields are nested deeper than GRAPHQL_MAX_DEPTH (12 by default), fragments followed; introspection’s `__schema` does not count.',
    action: 'Select less deeply, and read deeply nested data with a separate query by id.',
    example: 'Query depth limit of 12 exceeded, found 13.',
    graphqlOnly: true,
  },
  too_many_aliases: {
    meaning: 'An operation holds more aliased fields than GRAPHQL_MAX_ALIASES (20 by default), fragments followed.',
    action: 'Use fewer aliases: ask for a list (products with a filter) instead of one aliased field per item, or split the request.',
    example: 'Aliases limit of 20 exceeded, found 21.',
    graphqlOnly: true,
  },
  too_many_directives: {
    meaning: 'An operation holds more directives (@include, @skip…) than GRAPHQL_MAX_DIRECTIVES (20 by default).',
    action: 'Use fewer directives: decide on the client which fields to ask for, or split the request.',
    example: 'Directives limit of 20 exceeded, found 21.',
    graphqlOnly: true,
  },
  query_too_complex: {
    meaning: 'The operation’s estimated cost is over GRAPHQL_MAX_COST (50,000 by default): each field costs 1 plus what it selects, times the page size of paged lists; or fragments fan out to more than 10,000 fields.',
    action: 'Ask for smaller pages (perPage, first) or fewer nested lists, or split the request; the message gives the cost found.',
    example: 'Query cost 72000 exceeds the limit of 50000; ask for smaller pages or fewer fields',
    graphqlOnly: true,
  },
  too_many_logins: {
    meaning: 'A GraphQL document holds more than one login or signIn field (aliases included): each checks a password, so one request may try one.',
    action: 'Send one login or signIn per request; another attempt is another request (and counts towards the login throttle).',
    example: 'A request may hold one login field (login or signIn)',
    graphqlOnly: true,
  },
  unauthenticated: {
    meaning: 'The endpoint needs a credential and the request carried none.',
    action: 'Send a credential: `Authorization: Bearer <token>` with a dashboard token on /api/v1 and /graphql, an API key or OAuth access token on /api/public/v1. The WWW-Authenticate header names the realm.',
    example: 'Authentication required: send "Authorization: Bearer <token>"',
  },
  invalid_token: {
    meaning: 'The bearer token sent is malformed, unknown, expired or revoked (a mistyped token fails its checksum before any lookup).',
    action: 'Get a new token (the `login` mutation, `npm run cli -- token issue`, or the OAuth token endpoint with a refresh token) and retry with it. Do not retry with the same token.',
    example: 'The token is not valid',
  },
  invalid_credentials: {
    meaning: 'The email and password of a login did not match an account.',
    action: 'Check the email and password. Repeated failures are throttled (429 too_many_login_attempts).',
    example: 'Invalid email or password',
  },
  invalid_api_key: {
    meaning: 'The API key or OAuth access token sent to the public API is malformed or unknown.',
    action: 'Check that the whole key (svc_test_… or svc_live_…) was copied; create a new key if it was lost. Do not retry with the same value.',
    example: 'The API key is not valid',
  },
  api_key_expired: {
    meaning: 'The API key or access token was valid but its expiry time has passed.',
    action: 'Roll or create a key (`npm run cli -- key roll`), or refresh the OAuth access token with its refresh token, then retry.',
    example: 'The API key has expired',
  },
  api_key_revoked: {
    meaning: 'The API key or access token was revoked (by the store, by rolling it, or through the OAuth revoke endpoint).',
    action: 'Use the key that replaced it or create a new one; an OAuth app has to be authorized again.',
    example: 'The API key has been revoked',
  },
  forbidden: {
    meaning:
      'The credential is valid but its user lacks the store permission the operation needs. The message names it, and so does the member `required_permission` ' +
      '(`required_permissions` lists every permission that would do); an operation only the store owner may perform names `required_role: owner` instead.',
    action: 'Ask a store owner to grant the permission (`npm run cli -- member add … --permissions …`), or use a user that has it.',
    example: 'This action requires the manage_products permission on this store',
  },
  insufficient_scope: {
    meaning: 'The API key or OAuth token does not carry the scope the endpoint needs (for example products:write to create a product).',
    action: 'Use a key of a type that carries the scope, or have the OAuth app ask for the scope and be authorized again. The WWW-Authenticate header names the missing scope.',
    example: 'This endpoint needs the products:write scope',
  },
  csrf_token_invalid: {
    meaning: 'A mutation came with the dashboard session cookie but without the session’s X-CSRF-Token header, or with another session’s. The cookie goes with every request a browser makes, even one another site’s page starts; the token proves the request comes from the dashboard itself.',
    action: 'Send the header X-CSRF-Token with the csrfToken that signIn returned, or that the dashboardSession query returns after a reload. Clients that are not the dashboard send a bearer token instead of the cookie and need no CSRF token.',
    example: 'A mutation sent with the dashboard session cookie needs the X-CSRF-Token header (its value comes with signIn and dashboardSession)',
  },
  csrf_header_required: {
    meaning: 'A POST to /graphql whose Content-Type a page on another site could send without a CORS preflight (text/plain, multipart/form-data, or none) came without the X-GraphQL-Yoga-CSRF header, so it may be a cross-site request forgery; nothing ran and no upload was read.',
    action: 'Send the body as application/json, or add an X-GraphQL-Yoga-CSRF (or Apollo-Require-Preflight) header with any value, as upload clients do.',
    example: 'A text/plain POST to /graphql needs an X-GraphQL-Yoga-CSRF header (any value), or send application/json',
    graphqlOnly: true,
  },
  mode_mismatch: {
    meaning: 'The request asks for one mode (test or live) but the credential belongs to the other.',
    action: 'Use a credential of the mode you want, or drop the mode from the request to use the credential’s own.',
    example: 'This request asks for live mode but the credential is a test-mode credential',
  },
  app_suspended: {
    meaning: 'The OAuth app the token belongs to is suspended, so none of its tokens work and it cannot be authorized.',
    action: 'Contact the store operator; the app works again once it is activated (`npm run cli -- oauth-app activate`).',
    example: 'The OAuth app this token belongs to is suspended',
  },
  not_found: {
    meaning: 'The resource does not exist, or belongs to a store (or mode) the credential cannot see: the two are answered alike so that existence is never revealed.',
    action: 'Check the ids in the path and that the credential is for the right store and mode. A deleted resource stays 404.',
    example: 'Product not found',
  },
  route_not_found: {
    meaning: 'No endpoint exists at this path (the resource may exist at another path, or the path has a typo).',
    action: 'Check the path against the API reference at /docs.',
    example: 'No endpoint GET /api/v1/merchant/stores/42/prodcts',
  },
  oauth_not_enabled: {
    meaning: 'The OAuth endpoints are switched off on this service (OAUTH_ENABLED is false), so every OAuth path answers 404.',
    action: 'Use an API key instead, or ask the operator to enable OAuth.',
    example: 'The OAuth authorization flow is not enabled on this service',
  },
  invitation_unusable: {
    meaning: 'The invitation link was right but can no longer be used: it expired (links last 7 days), was already used, or the store owner withdrew it. `invitation_state` says which: expired, used or revoked.',
    action: 'Ask the store owner for a new invitation.',
    example: 'This invitation has expired; ask the store owner for a new one',
    graphqlOnly: true,
  },
  method_not_allowed: {
    meaning: 'The path exists but does not accept this HTTP method (on /graphql: a method other than GET and POST, or a mutation sent as GET).',
    action: 'Use one of the methods the Allow header lists.',
    example: 'DELETE is not supported on /metrics',
  },
  not_acceptable: {
    meaning: 'The Accept header asks only for media types the endpoint cannot produce.',
    action: 'Accept application/json (or */*); /graphql also answers application/graphql-response+json.',
    example: 'This endpoint answers application/json',
  },
  request_timeout: {
    meaning: 'The request line, headers or body did not arrive within the server’s time limit, so the connection was closed.',
    action: 'Retry on a new connection; send large uploads over a faster link or split them.',
    example: 'The request was not received in time',
  },
  conflict: {
    meaning: 'The request conflicts with the current state of the resource: a concurrent change, a duplicate, or a state that does not allow the operation (a job still running, a key already rolled).',
    action: 'Read `detail`, fetch the current state, and retry once the conflict is resolved; a concurrent change can simply be retried.',
    example: 'A test catalog job of this store is running; wait until it has finished',
  },
  sku_taken: {
    meaning: 'A product variant uses a SKU that another variant of the store (in the same mode) already has.',
    action: 'Choose another SKU; `errors[]` names the variant whose SKU is taken.',
    example: 'The SKU "TEE-M" is already used by another variant of this store',
  },
  slug_taken: {
    meaning: 'A category slug (compared without case) is already used by another category of the store.',
    action: 'Choose another slug, or use the existing category.',
    example: 'The slug "shoes" is already used by another category',
  },
  category_in_use: {
    meaning: 'The category cannot be deleted while products are in it.',
    action: 'Move or delete the products of the category first.',
    example: 'The category is used by 3 products',
  },
  code_taken: {
    meaning: 'Another attribute of the store already has this code (`code`).',
    action: 'Choose another code, or use the existing attribute.',
    example: 'The code "material" is already used by another attribute of this store',
  },
  name_taken: {
    meaning: 'Another product type of the store already has this name (`name`).',
    action: 'Choose another name, or use the existing product type.',
    example: 'The name "Shirts" is already used by another product type of this store',
  },
  attribute_in_use: {
    meaning: 'The attribute cannot be deleted while product types apply it; `product_types` lists them.',
    action: 'Remove the attribute from those product types first (which drops its values from their products), then delete it.',
    example: 'The attribute "material" is used by the product type(s) "Shirts"; remove it from them first',
  },
  attribute_value_in_use: {
    meaning: 'The update removes values of a dropdown, multiselect or swatch attribute that products or their variants hold; `values` lists them and `products` counts the products.',
    action: 'Give those products another value (or none) first, or keep the values. Renaming a value (its `name`) or reordering them is always allowed.',
    example: '3 product(s) hold the value(s) linen of "material"; change them first',
  },
  attribute_values_missing: {
    meaning: 'The product type change makes an attribute required while products of the type (or their variants) have no value for it; `attributes` names them and `products` counts the products.',
    action: 'Send a `default_value` with each newly required attribute (it is set on the products that lack a value), or set the values on those products first.',
    example: '4 product(s) of the type lack a value of the required attribute(s) material; give a default for each',
  },
  product_type_in_use: {
    meaning: 'The product type cannot be deleted while products (of the live or the test catalog) have it; `products` counts them.',
    action: 'Give those products another product type or none first (which drops their attribute values), then delete it.',
    example: 'The product type "Shirts" is the type of 12 product(s) (test catalog included); give them another type or none first',
  },
  options_in_use: {
    meaning: "A change of a product's options would leave variants without a value (a value removed) or with another variant's combination (an option removed); `variants` lists them with their id, SKU, options and the reason.",
    action: 'Change or delete those variants first, or send the same request with delete_variants=true to delete them in the same write.',
    example: '2 variant(s) use option values this write removes or would share one combination: TEE-XL-RED, TEE-XL-BLUE. Send delete_variants=true to delete them in the same write',
  },
  locale_taken: {
    meaning: 'The store already has this locale (`locale`, normalised: de-at and de-AT are one), as its default or as a further one.',
    action: 'Nothing to do: the locale is there. List the store\'s locales to see them.',
    example: 'The store already has the locale "de-AT"',
  },
  currency_taken: {
    meaning: 'The store already has this currency (`currency`), as its default or as a further one.',
    action: 'Nothing to do: the currency is there. List the store\'s currencies to see them.',
    example: 'The store already has the currency "JPY"',
  },
  currency_in_use: {
    meaning: 'Products or variants of the store (test or live) have prices in the currency being removed (`currency`; `products`: how many products have them, on themselves or on their variants).',
    action: 'Remove those prices first (write each product\'s or variant\'s `prices` without it), or send the same request with delete_prices=true to delete them with the currency.',
    example: "3 product(s) have prices in JPY (their own or their variants'); remove them first, or pass delete_prices=true to delete them with the currency",
  },
  default_locale_not_removable: {
    meaning: "The locale is the store's default locale, which a store always has (`locale`).",
    action: 'Make another of the store\'s locales the default first (PATCH …/locales/{locale} with {"default": true}), then remove this one.',
    example: '"en" is the store\'s default locale and cannot be removed; make another locale the default first',
  },
  locale_has_translations: {
    meaning:
      'Translations use the locale (`locale`, with their count in `translations`): removing it would delete them, and making it the default would leave them beside the resources\' own fields, which hold the default locale\'s text.',
    action: 'To remove it, send delete_translations=true (GraphQL deleteTranslations: true), which deletes them in the same write. To make it the default, remove its translations first (remove the locale with them, or each translation).',
    example: '12 translations use the locale "de"; send delete_translations=true to delete them with it',
  },
  default_currency_not_removable: {
    meaning: "The currency is the store's default currency (its `currency`, which every product's `price` is in) (`currency`).",
    action: 'Keep it: the default currency cannot be removed or changed.',
    example: '"EUR" is the store\'s default currency and cannot be removed',
  },
  limit_exceeded: {
    meaning: 'The write would take the store past one of the catalog\'s published limits (docs/limits.md); `limit_name` names it and `limit` is its maximum.',
    action: 'Remove something the limit counts first (an unused attribute or product type), or keep within the limit.',
    example: 'A store has at most 500 attributes',
  },
  product_archived: {
    meaning: 'The product is archived, and an archived product cannot be published.',
    action: 'Set its status to draft or active with an update first, or create a new product.',
    example: 'An archived product cannot be published',
  },
  staged_changes_pending: {
    meaning: 'The product has staged changes, and this live write changes something its staged version holds: publishing would overwrite the write, or the write the staged changes.',
    action: 'Send the write with staged=true (it changes the staged version), with staged=false&apply_to=both (it changes the current product and the staged version), or publish or discard the staged changes first (docs/staged-changes.md).',
    example: 'The product has staged changes: stage this write too (staged=true), apply it to both versions (staged=false&apply_to=both), or publish or discard the staged changes first',
  },
  no_staged_changes: {
    meaning: 'The product has no staged changes, so there is nothing to schedule for publishing.',
    action: 'Stage a change first (a write with staged=true), then schedule its publishing.',
    example: 'The product has no staged changes to publish',
  },
  not_stageable: {
    meaning: 'A write with staged=true sends what a staged version does not hold (stock, status, schedule, translations, SKUs, cost), or the write itself cannot be staged; `errors` names them.',
    action: 'Send those fields, or that write, to the current product (without staged=true); docs/staged-changes.md lists what can be staged.',
    example: 'inventory_quantity: never staged; write without staged=true',
  },
  collection_is_smart: {
    meaning: "The collection is smart: its products follow its rules, so they are not added, removed or moved by hand.",
    action: "Change the collection's rules, or make a manual collection for a hand-picked list.",
    example: 'The collection is smart: its products follow its rules, they are not added, removed or moved by hand',
  },
  endpoint_disabled: {
    meaning: 'The webhook endpoint is disabled, so messages cannot be resent, replayed or pinged to it.',
    action: 'Enable the endpoint (PATCH it with `"status": "enabled"`), then retry.',
    example: 'The webhook endpoint is disabled; enable it first',
  },
  idempotency_key_in_progress: {
    meaning: 'A request with the same Idempotency-Key is still running.',
    action: 'Wait for the Retry-After seconds and send the same request again: it then gets the first request’s answer.',
    example: 'A request with this Idempotency-Key is still in progress',
  },
  precondition_failed: {
    meaning: 'The If-Match header (or the body’s `version`) names an older version of the resource than the current one: someone changed it since you read it.',
    action: 'GET the resource again, reapply your change to the current version, and send it with the new ETag.',
    example: 'The product has changed (version 4, If-Match "v3")',
  },
  payload_too_large: {
    meaning:
      'The body is larger than the endpoint accepts (1 MiB for JSON, 64 KiB for forms, UPLOAD_MAX_BYTES for images); `max_bytes` says the limit. An upload to /graphql with more than 10 files is refused alike, with `max_files`.',
    action: 'Send a smaller body: fewer items per request, or a smaller image.',
    example: 'The request body is larger than 1048576 bytes',
  },
  unsupported_media_type: {
    meaning: 'The body’s Content-Type is not one the endpoint accepts (for images: a declared type other than JPEG, PNG or WebP; on /graphql: anything but application/json, or multipart/form-data for uploads).',
    action: 'Send the type the endpoint documents: application/json for JSON bodies, multipart/form-data for uploads, a form for OAuth.',
    example: 'Only image/jpeg, image/png and image/webp are accepted',
  },
  validation_failed: {
    meaning:
      'The body or parameters are well-formed but break one or more rules. `errors[]` lists every problem of the request at once (a value of the wrong type and the rules the other fields break come together), each with ' +
      '`field` (the field as the client named it, with its path: `inventory_quantity`, `variants.1.sku`, `tags.0`; an import row’s column; a CLI flag), `code` and `message`. ' +
      `The codes: ${FIELD_ERROR_CODES}; or a rule’s own code, which names the rule (duplicate_sku, unknown_event_type, in_the_past, sku_not_in_variants…).`,
    action: 'Correct each field listed in `errors[]` and send the request again.',
    example: 'name: must not be empty; price: must be a number >= 0 with at most 2 decimals and below 10,000,000,000; inventory_quantity: must be an integer',
  },
  category_required: {
    meaning: 'A product needs at least one category slug and the request gave none.',
    action: 'Send `category_slugs` with at least one slug of a category of the store.',
    example: 'A product needs at least one category slug',
  },
  unknown_category: {
    meaning: 'One or more category slugs do not name a category of the store; `errors[]` lists them.',
    action: 'Create the categories first (`npm run cli -- category create`), or use existing slugs.',
    example: 'Unknown category slugs: boots',
  },
  invalid_image: {
    meaning: 'The uploaded file starts like a JPEG, PNG or WebP but cannot be decoded as an image.',
    action: 'Upload an intact image file; re-export it from an image editor if it was damaged.',
    example: 'The file starts like image/png but is not a readable image',
  },
  webhook_url_forbidden: {
    meaning:
      'The webhook URL points at a private, loopback, link-local or cloud metadata address (by its host, or by what its host name resolves to), which the service refuses to call: ' +
      'a merchant could otherwise make it POST into the network it runs in. Webhook URLs are https, so a plain http URL is refused too (as validation_failed).',
    action:
      'Use a publicly reachable https URL. For local development, where the receiver runs on your own machine or network, start the service with WEBHOOK_ALLOW_PRIVATE_TARGETS=true: ' +
      'it accepts private and loopback targets, and http for a loopback host (http://localhost:8080/hooks, http://127.0.0.1:8080/hooks). Never set it in production; ' +
      'there refusals do not name it.',
    example: 'The webhook URL resolves to a private address',
  },
  image_dimensions_too_large: {
    meaning: 'The image has more pixels than UPLOAD_MAX_PIXELS allows.',
    action: 'Scale the image down before uploading it.',
    example: 'The image is 12000x9000 pixels; at most 40000000 pixels are accepted',
  },
  too_many_products: {
    meaning: 'A test catalog copy would copy more than 10,000 products.',
    action: 'Narrow the copy with a filter (category, tags, status) so that it matches fewer products.',
    example: 'The copy matches more than 10000 products',
  },
  idempotency_key_reused: {
    meaning: 'The Idempotency-Key was already used, within 24 hours, for a different request (another method, path, query or body).',
    action: 'Use a new key for a new request; reuse a key only to retry exactly the same request.',
    example: 'This Idempotency-Key was used for a different request',
  },
  rate_limited: {
    meaning: 'The credential has sent more requests per second than its mode allows.',
    action: 'Wait for the Retry-After seconds, then continue at a lower rate; the RateLimit headers show the budget left.',
    example: 'Rate limit exceeded; retry after 1 second',
  },
  too_many_login_attempts: {
    meaning: 'Too many failed logins for this account or from this address within the throttle window.',
    action: 'Wait for the Retry-After seconds before trying again; a successful login clears the account’s count.',
    example: 'Too many failed login attempts; retry after 900 seconds',
  },
  headers_too_large: {
    meaning: 'The request line and headers together are larger than 16 KB.',
    action: 'Send long values (filters, lists) in a request body instead of the URL or headers.',
    example: 'The request line and headers are larger than the server accepts (16 KB): send long values in the body',
  },
  internal_error: {
    meaning: 'The service failed in a way it did not expect; the details are in its log, not in the answer.',
    action: 'Retry later; if it persists, report it quoting the `request_id` of the answer.',
    example: 'An unexpected error occurred; quote the request id when reporting it',
  },
  provider_error: {
    meaning: 'The description generator (an external AI provider) answered with an error.',
    action: 'Retry later, or write the description yourself.',
    example: 'The description provider answered with an error',
  },
  service_unavailable: {
    meaning: 'The service lost its database connection during the request; reads were already retried once.',
    action: 'Retry after the Retry-After seconds. A write whose connection was lost during its commit may have been applied: read before retrying it (or retry with the same Idempotency-Key).',
    example: 'The database is unavailable; retry shortly',
  },
  provider_timeout: {
    meaning: 'The description generator (an external AI provider) did not answer in time.',
    action: 'Retry later, or write the description yourself.',
    example: 'The description provider did not answer in time',
  },
};

/** Where the pages live; a problem's `type` is `<base URL>/docs/errors/<code>`. */
export const ERROR_PAGES_PATH = '/docs/errors';

/**
 * A problem document's `type`: the page explaining its code, absolute on the service's public base URL
 * (PUBLIC_BASE_URL, else the request's origin) so that a client, a log viewer or a person can follow it as it
 * is. With no base known (a request node's parser refused before any header was read) it is the relative
 * reference RFC 9457 allows, which resolves against the request's own URL.
 */
export const errorTypeUri = (baseUrl: string | undefined, code: string): string => `${baseUrl ?? ''}${ERROR_PAGES_PATH}/${code}`;
