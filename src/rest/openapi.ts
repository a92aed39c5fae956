import type { RestRoute } from './routes';

const problem = { $ref: '#/components/responses/Problem' };

/** OpenAPI 3.1 description of the REST surface, generated from the route table so the two cannot drift. */
export function openApiDocument(routes: RestRoute[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...r.path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    const extra = (r.openapi ?? {}) as { parameters?: unknown[]; responses?: Record<string, unknown>; requestBody?: unknown };
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.auth === 'dashboard' ? { security: [{ dashboardToken: [] }] } : r.auth === 'public' ? { security: [{ apiKey: [] }, { apiKeyHeader: [] }] } : {}),
      parameters: [...pathParams, ...(extra.parameters ?? [])],
      ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
      responses: { ...(extra.responses ?? { '200': { description: 'OK' } }), '4XX': problem, '5XX': problem },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Store catalog REST API', version: '1.0.0', description: 'Merchant product API and public integration API. Errors are RFC 9457 problem documents.' },
    paths,
    components: {
      securitySchemes: {
        dashboardToken: { type: 'http', scheme: 'bearer', description: 'Dashboard token (svc_dash_…)' },
        apiKey: { type: 'http', scheme: 'bearer', description: 'API key (svc_test_…/svc_live_…) or OAuth access token (svc_oat_…)' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      schemas: {
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code', 'request_id'],
          properties: {
            type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' },
            code: { type: 'string' }, request_id: { type: 'string' },
            errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } } } },
          },
        },
      },
      responses: { Problem: { description: 'Error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } } },
    },
  };
}
