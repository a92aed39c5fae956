/**
 * REST routes for a store's locales and currencies under /api/v1/merchant/stores/:storeId, shaped as the
 * store's other sub-resources (attributes, product types): the list, POST to add, DELETE to remove, and
 * PATCH on one locale to make it the default (Shopify's shopLocale has enable, update and disable).
 */

import { CATALOG_LIMITS } from '../limits';
import { bodyWith, RestInputError } from '../../api/rest/body';
import { jsonContent, type OpenApiFragment, problemResponse, schemaRef } from '../../api/rest/openapi';
import { boolParam } from '../../api/rest/params';
import type { RestRoute } from '../../api/rest/routes';
import { LOCALE_TAG_MAX } from '../../kernel/locales';

const BASE = '/api/v1/merchant/stores/:storeId';
const LOCALES = `${BASE}/locales`;
const CURRENCIES = `${BASE}/currencies`;

const LOCALE_FIELDS = 'locale name default';
const CURRENCY_FIELDS = 'currency name minor_units: minorUnits default';

const StoreLocale = {
  type: 'object',
  required: ['locale', 'name', 'default'],
  properties: {
    locale: { type: 'string', description: 'Canonical BCP 47 tag: de, de-AT, pt-BR, zh-Hant-TW' },
    name: { type: 'string', description: 'Its English name' },
    default: { type: 'boolean', description: "Whether it is the store's default locale (exactly one is)" },
  },
  examples: [{ locale: 'de-AT', name: 'Austrian German', default: false }],
};
const StoreCurrency = {
  type: 'object',
  required: ['currency', 'name', 'minor_units', 'default'],
  properties: {
    currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' },
    name: { type: 'string', description: 'Its English name' },
    minor_units: { type: 'integer', minimum: 0, maximum: 4, description: 'Digits after the decimal point of an amount in it: JPY 0, EUR 2, KWD 3' },
    default: { type: 'boolean', description: "Whether it is the store's default currency (its `currency`, which product prices are in)" },
  },
  examples: [{ currency: 'JPY', name: 'Japanese Yen', minor_units: 0, default: false }],
};
const StoreLocaleCreate = {
  type: 'object',
  required: ['locale'],
  additionalProperties: false,
  properties: { locale: { type: 'string', maxLength: LOCALE_TAG_MAX, description: 'A BCP 47 tag in any case (de-at is stored as de-AT); extensions and private use are refused' } },
  examples: [{ locale: 'de-AT' }],
};
const StoreLocaleUpdate = {
  type: 'object',
  required: ['default'],
  additionalProperties: false,
  properties: { default: { type: 'boolean', enum: [true], description: 'true makes the locale the default; the former default stays one of the locales' } },
  examples: [{ default: true }],
};
const StoreCurrencyCreate = {
  type: 'object',
  required: ['currency'],
  additionalProperties: false,
  properties: { currency: { type: 'string', description: 'An ISO 4217 code in any case (jpy is stored as JPY)' } },
  examples: [{ currency: 'JPY' }],
};

const components: OpenApiFragment['components'] = { schemas: { StoreLocale, StoreCurrency, StoreLocaleCreate, StoreLocaleUpdate, StoreCurrencyCreate } };

const one = (name: string, description: string) => ({ description, content: jsonContent({ type: 'object', required: ['data'], properties: { data: schemaRef(name) } }) });
const list = (name: string, description: string) => ({ description, content: jsonContent({ type: 'object', required: ['data'], properties: { data: { type: 'array', items: schemaRef(name) } } }) });
const codeParam = (name: string, what: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, description: `The ${what}, in any case` });
const readErrors = {
  '401': problemResponse('No or invalid bearer token (unauthenticated, invalid_token)'),
  '403': problemResponse('The token lacks manage_products for this store (forbidden)'),
  '404': problemResponse('No such store (not_found)'),
};
const writeErrors = {
  ...readErrors,
  '400': problemResponse('Body is not a JSON object (bad_request, malformed_json)'),
  '415': problemResponse('Body is not application/json (unsupported_media_type)'),
};
const location = { Location: { description: 'URL of the new resource', schema: { type: 'string', format: 'uri' } } };
const created = (r: Parameters<RestRoute['respond']>[1], data: Record<string, unknown>, key: string) => ({
  status: 201,
  body: { data },
  headers: { Location: `${r.ctx.baseUrl}${r.req.url!.split('?')[0].replace(/\/+$/, '')}/${encodeURIComponent(String(data[key]))}` },
});

export const localizationRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: LOCALES,
    operationId: 'listStoreLocales',
    summary: "List the store's locales (the default first)",
    auth: 'dashboard',
    operation: `query ListStoreLocales($storeId: ID!) { storeLocales(storeId: $storeId) { ${LOCALE_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId }),
    respond: (data) => ({ body: { data: data.storeLocales } }),
    openapi: {
      description: `The store's default locale first, then up to ${CATALOG_LIMITS.localesPerStore} more in the order added. Stores made before locales existed have en. Needs manage_products.`,
      components,
      responses: { '200': list('StoreLocale', 'Every locale of the store'), ...readErrors },
    },
  },
  {
    method: 'POST',
    path: LOCALES,
    operationId: 'addStoreLocale',
    summary: 'Add a locale',
    auth: 'dashboard',
    operation: `mutation AddStoreLocale($storeId: ID!, $locale: String!) { addStoreLocale(storeId: $storeId, locale: $locale) { ${LOCALE_FIELDS} } }`,
    variables: ({ params, body }) => ({ storeId: params.storeId, locale: bodyWith(body, ['locale']).locale }),
    respond: (data, r) => created(r, data.addStoreLocale, 'locale'),
    openapi: {
      description: `Adds a BCP 47 locale, normalised (de-at is de-AT, EN is en). A store has at most ${CATALOG_LIMITS.localesPerStore} locales beside its default one. Needs manage_products.`,
      components,
      requestBody: { required: true, content: jsonContent(schemaRef('StoreLocaleCreate')) },
      responses: {
        '201': { ...one('StoreLocale', 'The added locale'), headers: location },
        ...writeErrors,
        '409': problemResponse('The store has the locale already (locale_taken)'),
        '422': problemResponse('Not a BCP 47 tag (validation_failed: invalid_locale, naming locale) or the store has the most locales it may (limit_exceeded)'),
      },
    },
  },
  {
    method: 'PATCH',
    path: `${LOCALES}/:locale`,
    operationId: 'updateStoreLocale',
    summary: 'Make a locale the default',
    auth: 'dashboard',
    operation: `mutation SetDefaultStoreLocale($storeId: ID!, $locale: String!) { setDefaultStoreLocale(storeId: $storeId, locale: $locale) { ${LOCALE_FIELDS} } }`,
    variables: ({ params, body }) => {
      if (bodyWith(body, ['default']).default !== true) {
        throw new RestInputError([{ field: 'default', code: 'invalid', message: 'must be true: a locale stops being the default when another one becomes it' }]);
      }
      return { storeId: params.storeId, locale: params.locale };
    },
    respond: (data) => ({ body: { data: data.setDefaultStoreLocale } }),
    openapi: {
      description:
        "With {\"default\": true}, makes one of the store's locales its default; the former default stays one of its locales, so the count does not change. A locale translations use cannot become the default (409 locale_has_translations): the resources' own fields hold the default locale's text, so remove its translations first. Needs manage_products.",
      components,
      parameters: [codeParam('locale', 'locale (BCP 47 tag)')],
      requestBody: { required: true, content: jsonContent(schemaRef('StoreLocaleUpdate')) },
      responses: {
        '200': one('StoreLocale', 'The locale, now the default'),
        ...writeErrors,
        '404': problemResponse('No such store, or the store lacks the locale (not_found): add it first'),
        '409': problemResponse('Translations use the locale (locale_has_translations)'),
        '422': problemResponse('default is not true (validation_failed), or the tag is invalid (invalid_locale)'),
      },
    },
  },
  {
    method: 'DELETE',
    path: `${LOCALES}/:locale`,
    operationId: 'removeStoreLocale',
    summary: 'Remove a locale',
    auth: 'dashboard',
    operation: `mutation RemoveStoreLocale($storeId: ID!, $locale: String!, $deleteTranslations: Boolean) {
      removeStoreLocale(storeId: $storeId, locale: $locale, deleteTranslations: $deleteTranslations) { locale } }`,
    variables: ({ params, query }) => ({ storeId: params.storeId, locale: params.locale, deleteTranslations: boolParam(query, 'delete_translations') }),
    respond: () => ({ status: 204 }),
    openapi: {
      description:
        "Removes a locale. The default cannot be removed (409 default_locale_not_removable): make another the default first. When translations use the locale, delete_translations=true is needed and deletes them in the same write; without it 409 locale_has_translations (with their count in `translations`). Needs manage_products.",
      components,
      parameters: [
        codeParam('locale', 'locale (BCP 47 tag)'),
        { name: 'delete_translations', in: 'query', schema: { type: 'string', enum: ['true', 'false'] }, description: 'true: delete the translations in this locale with it' },
      ],
      responses: {
        '204': { description: 'Removed' },
        ...readErrors,
        '404': problemResponse('No such store, or the store lacks the locale (not_found)'),
        '409': problemResponse('The locale is the default (default_locale_not_removable), or translations use it and delete_translations is not true (locale_has_translations)'),
        '422': problemResponse('The tag or delete_translations is invalid (validation_failed)'),
      },
    },
  },
  {
    method: 'GET',
    path: CURRENCIES,
    operationId: 'listStoreCurrencies',
    summary: "List the store's currencies (the default first)",
    auth: 'dashboard',
    operation: `query ListStoreCurrencies($storeId: ID!) { storeCurrencies(storeId: $storeId) { ${CURRENCY_FIELDS} } }`,
    variables: ({ params }) => ({ storeId: params.storeId }),
    respond: (data) => ({ body: { data: data.storeCurrencies } }),
    openapi: {
      description: `The store's default currency (its currency) first, then up to ${CATALOG_LIMITS.currenciesPerStore} more in the order added, each with its minor units. Needs manage_products.`,
      components,
      responses: { '200': list('StoreCurrency', 'Every currency of the store'), ...readErrors },
    },
  },
  {
    method: 'POST',
    path: CURRENCIES,
    operationId: 'addStoreCurrency',
    summary: 'Add a currency',
    auth: 'dashboard',
    operation: `mutation AddStoreCurrency($storeId: ID!, $currency: String!) { addStoreCurrency(storeId: $storeId, currency: $currency) { ${CURRENCY_FIELDS} } }`,
    variables: ({ params, body }) => ({ storeId: params.storeId, currency: bodyWith(body, ['currency']).currency }),
    respond: (data, r) => created(r, data.addStoreCurrency, 'currency'),
    openapi: {
      description: `Adds an ISO 4217 currency, upper-cased. A store has at most ${CATALOG_LIMITS.currenciesPerStore} currencies beside its default one. No exchange rate is ever applied: prices in it exist only where the merchant sets them. Needs manage_products.`,
      components,
      requestBody: { required: true, content: jsonContent(schemaRef('StoreCurrencyCreate')) },
      responses: {
        '201': { ...one('StoreCurrency', 'The added currency'), headers: location },
        ...writeErrors,
        '409': problemResponse('The store has the currency already (currency_taken)'),
        '422': problemResponse('Not an ISO 4217 code (validation_failed: invalid_currency, naming currency) or the store has the most currencies it may (limit_exceeded)'),
      },
    },
  },
  {
    method: 'DELETE',
    path: `${CURRENCIES}/:currency`,
    operationId: 'removeStoreCurrency',
    summary: 'Remove a currency',
    auth: 'dashboard',
    operation: `mutation RemoveStoreCurrency($storeId: ID!, $currency: String!, $deletePrices: Boolean) {
      removeStoreCurrency(storeId: $storeId, currency: $currency, deletePrices: $deletePrices) { currency } }`,
    variables: ({ params, query }) => ({ storeId: params.storeId, currency: params.currency, deletePrices: boolParam(query, 'delete_prices') }),
    respond: () => ({ status: 204 }),
    openapi: {
      description:
        "Removes a currency. The default (the store's currency) cannot be removed (409 default_currency_not_removable). When products or variants (test or live) have prices in it, delete_prices=true is needed and deletes them with it (409 currency_in_use otherwise, with how many `products`). Needs manage_products.",
      components,
      parameters: [
        codeParam('currency', 'currency (ISO 4217 code)'),
        { name: 'delete_prices', in: 'query', schema: { type: 'string', enum: ['true', 'false'] }, description: 'true: delete the prices in this currency with it' },
      ],
      responses: {
        '204': { description: 'Removed' },
        ...readErrors,
        '404': problemResponse('No such store, or the store lacks the currency (not_found)'),
        '409': problemResponse('The currency is the default (default_currency_not_removable), or prices use it and delete_prices is not true (currency_in_use)'),
        '422': problemResponse('Not an ISO 4217 code, or delete_prices is invalid (validation_failed)'),
      },
    },
  },
];
