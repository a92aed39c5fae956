import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import ts from 'typescript';
import { MAX_JSON_BYTES } from '../../src/api/rest/body';
import { createKey } from '../public/helpers';
import { createStoreFixture, type StoreFixture } from '../helpers/fixtures';
import { startTestServer, type TestServer } from '../helpers/harness';
import { takeContractViolations } from '../helpers/contractViolations';
import { describeIndependentOfDatabase } from '../helpers/serverProcess';
import { Contract, openApiContract } from '../helpers/openapiContract';
import { createProduct, productPath, productsPath } from './helpers';

/**
 * The mismatches a partner found with a validating proxy in front of the service, each as they met it. Every
 * exchange of the suite is also checked against the document (test/helpers/openapiContract.ts); these name the
 * cases and check what that check cannot see on its own.
 */

let t: TestServer;
let s: StoreFixture;
let doc: any;

beforeAll(async () => {
  t = await startTestServer();
  s = await createStoreFixture();
  doc = (await t.request('GET', '/api/openapi.json')).body;
});
afterAll(() => t.close());

const resolve = (node: any): any => (node?.$ref ? resolve(node.$ref.slice(2).split('/').reduce((n: any, k: string) => n?.[k], doc)) : node);
const exchangeOf = async (method: string, url: string, res: { status: number; headers: Headers; text: string }) => ({
  method,
  url,
  requestHeaders: {},
  requestBody: Buffer.alloc(0),
  status: res.status,
  // The text is what fetch decoded: the exchange carries it as sent unencoded.
  responseHeaders: new Headers([...res.headers].filter(([name]) => name !== 'content-encoding')),
  responseBody: Buffer.from(res.text),
});

describe('change history', () => {
  it('documents `changes` as null for events that change no field (created, deleted)', async () => {
    const product = await createProduct(t, s);
    await t.request('DELETE', productPath(s.storeId, product.id), { token: s.ownerToken });
    const url = `${productPath(s.storeId, product.id)}/changes`;
    const res = await t.request('GET', url, { token: s.ownerToken });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => [c.type, c.changes])).toEqual([
      ['product.deleted', null],
      ['product.created', null],
    ]);
    expect(openApiContract().check(await exchangeOf('GET', url, res))).toEqual([]);
  });
});

describe('the public product shapes', () => {
  const shape = (body: unknown) => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const matches = (name: string) => ajv.validate({ $ref: `#/components/schemas/${name}`, components: doc.components }, body);
    return ['PublicProduct', 'Product'].filter(matches);
  };

  it('a product read with a secret key matches Product only, with a publishable key PublicProduct only', async () => {
    const product = await createProduct(t, s, { status: 'active' });
    const secret = await createKey(t, s, { type: 'secret', mode: 'live', scopes: ['products:read'] });
    const publishable = await createKey(t, s, { type: 'publishable', mode: 'live' });
    const full = await t.request('GET', `/api/public/v1/products/${product.id}`, { token: secret.secret });
    const storefront = await t.request('GET', `/api/public/v1/products/${product.id}`, { token: publishable.secret });
    expect([full.status, storefront.status]).toEqual([200, 200]);
    expect(shape(full.body.data)).toEqual(['Product']);
    expect(shape(storefront.body.data)).toEqual(['PublicProduct']);
  });
});

describe('the public list', () => {
  it('documents the whole-catalog filters and sorts a secret key may use', async () => {
    const secret = await createKey(t, s, { type: 'secret', mode: 'live', scopes: ['products:read'] });
    const url = '/api/public/v1/products?is_active=false&low_stock=true&scheduled=false&sort=inventory_quantity';
    const res = await t.request('GET', url, { token: secret.secret });
    expect(res.status).toBe(200);
    const contract = openApiContract();
    const { operation, params } = contract.operationOf('GET', '/api/public/v1/products')!;
    const problems = contract.requestProblems(operation, params, new URL(url, t.url), { method: 'GET', url, requestHeaders: {}, requestBody: undefined } as any);
    expect(problems).toEqual([]);
  });
});

describe('the contract check itself', () => {
  it('reports a field the document does not name, a status it does not list, an accepted request it calls invalid, and not a refused one', async () => {
    const product = await createProduct(t, s);
    const url = productPath(s.storeId, product.id);
    const res = await t.request('GET', url, { token: s.ownerToken });
    const narrowed = structuredClone(openApiContract().doc);
    delete narrowed.components.schemas.Product.properties.tags;
    narrowed.components.schemas.Product.required = narrowed.components.schemas.Product.required.filter((f: string) => f !== 'tags');
    const narrow = new Contract(narrowed);
    expect(narrow.check(await exchangeOf('GET', url, res))).toEqual([expect.stringMatching(/^response: body \/data .*"unevaluatedProperty":"tags"/)]);
    expect(narrow.check({ ...(await exchangeOf('GET', url, res)), status: 302 })).toEqual([expect.stringMatching(/status 302 is not documented/)]);

    // A query parameter the document does not name: the service ignores it, so a test sending it made the document
    // and the service disagree (the whole-catalog filters of the public list went unnoticed that way).
    const unknown = `${productsPath(s.storeId)}?colour=red`;
    expect((await t.request('GET', unknown, { token: s.ownerToken })).status).toBe(200);
    expect(takeContractViolations()).toEqual([expect.stringMatching(/accepted a request .* query parameter colour is not documented/)]);

    // A request the document calls invalid that the service refuses is a test sending it on purpose: no violation.
    const refused = await t.request('POST', productsPath(s.storeId), { token: s.ownerToken, body: { name: 'Boots', price: -1, category_slugs: [s.categories[0]] } });
    expect(refused.status).toBe(422);
    expect(takeContractViolations()).toEqual([]);
  });
});

// After the other requests: the service answers the 413 before the body has arrived and closes the connection.
describe('a body over the limit', () => {
  it('a 413 for a JSON body over the limit carries max_bytes, as the document says', async () => {
    const url = productsPath(s.storeId);
    const res = await t.request('POST', url, { token: s.ownerToken, body: { name: 'x'.repeat(MAX_JSON_BYTES), price: 1, category_slugs: [s.categories[0]] } });
    expect(res.status).toBe(413);
    expect(res.body.max_bytes).toBe(MAX_JSON_BYTES);
    expect(openApiContract().check(await exchangeOf('POST', url, res))).toEqual([]);
  });
});

// The document alone, after every request (a request after seconds of work may meet a keep-alive connection the server is closing).
describe('problems', () => {
  /** Every member a `details: {...}` of the source gives an error, found by reading the source as TypeScript. */
  function detailsKeys(): Map<string, string> {
    const found = new Map<string, string>();
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? (e.name === 'generated' ? [] : files(path.join(dir, e.name))) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
    for (const file of files(path.resolve(__dirname, '../../src'))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'details') {
          const collect = (n: ts.Node): void => {
            if (ts.isObjectLiteralExpression(n)) {
              for (const p of n.properties) if ((ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && p.name) found.set(p.name.getText(source), path.relative(process.cwd(), file));
            } else ts.forEachChild(n, collect);
          };
          collect(node.initializer);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    return found;
  }

  it('the Problem schema names every extension member the service sends', () => {
    const keys = detailsKeys();
    expect(keys.size).toBeGreaterThan(15);
    const named = Object.keys(doc.components.schemas.Problem.properties);
    const missing = [...keys].filter(([key]) => !named.includes(key)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });

});

describe('public operations', () => {
  it('list their 401, 403 and 429 (with Retry-After), and 404 where the path names a resource', () => {
    const missing: string[] = [];
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (!p.startsWith('/api/public/v1/') || p.startsWith('/api/public/v1/oauth/')) continue;
      for (const [method, op] of Object.entries(item)) {
        const expected = ['401', '403', '429', ...(p.includes('{') ? ['404'] : [])];
        for (const status of expected) if (!op.responses[status]) missing.push(`${method.toUpperCase()} ${p} ${status}`);
        if (op.responses['429'] && !op.responses['429'].headers?.['Retry-After']) missing.push(`${method.toUpperCase()} ${p} 429 Retry-After`);
        for (const status of ['401', '403']) {
          const text = op.responses[status]?.description ?? '';
          if (/dashboard|manage_products/.test(text)) missing.push(`${method.toUpperCase()} ${p} ${status} speaks of the dashboard: ${text}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describeIndependentOfDatabase('examples', () => {
  it('are valid values of their schemas, formats included (a URI is a URI), in bodies, headers and parameters', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    for (const f of ['binary', 'byte', 'password']) ajv.addFormat(f, true);
    const failures: unknown[] = [];
    const check = (where: string, schema: any, values: unknown[]) => {
      if (!schema) return;
      const validate = ajv.compile({ ...schema, components: doc.components });
      for (const value of values) if (!validate(value)) failures.push({ where, value, errors: validate.errors });
    };
    const examplesOf = (node: any): unknown[] => (node.example !== undefined ? [node.example] : Object.values(node.examples ?? {}).map((e: any) => e.value));
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${p}`;
        for (const param of (op.parameters ?? []).map(resolve)) check(`${where} parameter ${param.name}`, param.schema, examplesOf(param));
        for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, any>)) if (type.endsWith('json')) check(`${where} request`, media.schema, examplesOf(media));
        for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
          const response = resolve(r);
          for (const [name, h] of Object.entries((response.headers ?? {}) as Record<string, any>)) {
            const header = resolve(h);
            check(`${where} ${status} header ${name}`, header.schema, [...examplesOf(header), ...(header.schema?.example !== undefined ? [header.schema.example] : [])]);
          }
          for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, any>)) if (type.endsWith('json')) check(`${where} ${status} ${type}`, media.schema, examplesOf(media));
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('request bodies', () => {
  it('declare no `default` in a component they reference: a generated client would have to send the field', () => {
    const declared: string[] = [];
    const seen = new Set<string>();
    const walk = (node: any, where: string): void => {
      if (!node || typeof node !== 'object') return;
      if (typeof node.$ref === 'string') {
        if (seen.has(node.$ref)) return;
        seen.add(node.$ref);
        return walk(resolve(node), node.$ref);
      }
      if (where.startsWith('#/components/') && node.default !== undefined) declared.push(`${where} default ${JSON.stringify(node.default)}`);
      for (const [k, v] of Object.entries(node)) {
        if (k === 'default' || k === 'example' || k === 'examples') continue;
        // A properties map's keys are field names (a field may be called `default`): walk each field's schema.
        if (k === 'properties' && v && typeof v === 'object') for (const field of Object.values(v)) walk(field, where);
        else walk(v, `${where}/${k}`);
      }
    };
    for (const item of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(item)) for (const media of Object.values((op.requestBody?.content ?? {}) as Record<string, any>)) walk(media.schema, 'inline');
    }
    expect(declared).toEqual([]);
  });
});
