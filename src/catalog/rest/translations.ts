/** REST route for what is left to translate: GET /api/v1/merchant/stores/:storeId/translations/status?locale=de. */

import { enumParam, intParam, keysetMetaSchema, keysetPage } from '../../api/rest/params';
import { jsonContent, problemResponse } from '../../api/rest/openapi';
import type { RestRoute } from '../../api/rest/routes';
import { STATUS_PAGE } from '../services/translationStatus';
import { TRANSLATION_KINDS } from '../services/translations';

const BASE = '/api/v1/merchant/stores/:storeId';

const param = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }, required = false) => ({ name, in: 'query', required, description, schema });

const fields = { type: 'array', items: { type: 'string' } };
const StatusItem = {
  type: 'object',
  required: ['kind', 'id', 'name', 'missing_fields', 'outdated_fields'],
  properties: {
    kind: { type: 'string', enum: [...TRANSLATION_KINDS] },
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string', description: 'In the default locale' },
    missing_fields: { ...fields, description: 'Fields with default-locale text and no translation: name, description, seo.title, seo.slug, options.<name> (its name or a value label), attributes.<code>, values.<value> (an attribute value label)' },
    outdated_fields: { ...fields, description: 'Translated fields whose default-locale text changed after they were written' },
  },
};
const KindCount = {
  type: 'object',
  required: ['total', 'missing', 'outdated', 'todo'],
  properties: {
    total: { type: 'integer', minimum: 0, description: 'Items of the kind (products: of the request\'s catalog)' },
    missing: { type: 'integer', minimum: 0, description: 'Items with a missing field' },
    outdated: { type: 'integer', minimum: 0, description: 'Items with an outdated field' },
    todo: { type: 'integer', minimum: 0, description: 'Items with either: what the list pages through' },
  },
};

export const translationRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${BASE}/translations/status`,
    operationId: 'getTranslationStatus',
    summary: 'What is left to translate in a locale (counts per kind, and the items to work on)',
    auth: 'dashboard',
    operation: `
      query TranslationStatus($storeId: ID!, $locale: String!, $kind: TranslationKind, $first: Int, $after: String) {
        translationStatus(storeId: $storeId, locale: $locale, kind: $kind, first: $first, after: $after) {
          locale counts { kind total missing outdated todo }
          edges { cursor node { kind id name missing_fields: missingFields outdated_fields: outdatedFields } }
          pageInfo { hasNextPage endCursor }
        }
      }`,
    variables: ({ params, query }) => ({
      storeId: params.storeId,
      locale: query.get('locale') ?? '',
      kind: enumParam(query, 'kind', TRANSLATION_KINDS),
      first: intParam(query, 'limit', { min: 1, max: STATUS_PAGE.max }),
      after: query.get('after') || undefined,
    }),
    respond: (data, r) => {
      const status = data.translationStatus;
      const page = keysetPage(status, r, STATUS_PAGE.default);
      const body = page.body as { data: unknown[]; meta: Record<string, unknown> };
      const counts = Object.fromEntries(status.counts.map(({ kind, ...c }: Record<string, unknown>) => [kind, c]));
      return { ...page, body: { ...body, meta: { ...body.meta, locale: status.locale, counts } } };
    },
    openapi: {
      description:
        "For one of the store's further locales: per kind (product, category, attribute) how many items have a missing or an outdated translation, and those items, products first, then categories, then attributes, each in id order. Products are those of the request's catalog (mode). Needs manage_products.",
      parameters: [
        param('locale', "One of the store's further locales", { type: 'string' }, true),
        param('kind', 'Only this kind', { type: 'string', enum: [...TRANSLATION_KINDS] }),
        param('limit', `Page size, 1-${STATUS_PAGE.max} (default ${STATUS_PAGE.default})`, { type: 'integer', minimum: 1, maximum: STATUS_PAGE.max }),
        param('after', 'meta.next_cursor of the previous page'),
      ],
      responses: {
        '200': {
          description: 'A page of the items to translate, with the counts',
          content: jsonContent({
            type: 'object',
            required: ['data', 'meta'],
            properties: {
              data: { type: 'array', items: StatusItem },
              meta: {
                ...keysetMetaSchema,
                required: [...keysetMetaSchema.required, 'locale', 'counts'],
                properties: {
                  ...keysetMetaSchema.properties,
                  locale: { type: 'string', description: 'The locale, canonical' },
                  counts: { type: 'object', description: 'By kind (the kinds asked)', additionalProperties: KindCount },
                },
              },
            },
          }),
        },
        '401': problemResponse('No or invalid bearer token (unauthenticated, invalid_token)'),
        '403': problemResponse('The token lacks manage_products for this store (forbidden)'),
        '404': problemResponse('No such store (not_found)'),
        '422': problemResponse("The locale is missing, the default (default_locale) or not one of the store's (locale_not_enabled); or kind, limit or after is invalid (validation_failed)"),
      },
    },
  },
];
