/**
 * The OpenAPI document as a contract, checked on every exchange of the test suite: what a validating proxy in
 * front of the service would check. A response to a documented operation must have a listed status, a listed
 * content type and a body that matches its schema, naming no field the schema does not (a typed client
 * generated from the document would not see it). A request the document calls invalid must not succeed
 * (the document would refuse a request the service accepts); one a test sends invalid on purpose and the
 * service refuses is no violation.
 *
 * The test server (harness.ts) observes every exchange; an afterEach (contractViolations.ts) fails the test
 * that made a violating one.
 */

import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gunzipSync, brotliDecompressSync, inflateSync } from 'node:zlib';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { restRoutes } from '../../src/app';
import { openApiJson } from '../../src/openapi';
import { recordContractViolation } from './contractViolations';

type Json = Record<string, any>;

interface Exchange {
  method: string;
  /** Path and query as sent. */
  url: string;
  requestHeaders: IncomingHttpHeaders;
  /** The whole body as sent, or undefined if the service answered before reading all of it. */
  requestBody: Buffer | undefined;
  status: number;
  responseHeaders: OutgoingHttpHeaders | Headers;
  responseBody: Buffer;
}

let contract: Contract | undefined;
/** The document the service serves, with its validators compiled on first use. */
export function openApiContract(): Contract {
  return (contract ??= new Contract(JSON.parse(openApiJson(restRoutes)('http://127.0.0.1'))));
}

/** Records the exchange on the test server's request: the body as the parser hands it over, the response as written. */
export function observeExchange(req: IncomingMessage, res: ServerResponse): void {
  const requestChunks: Buffer[] = [];
  const push = req.push.bind(req);
  req.push = (chunk: any, encoding?: BufferEncoding) => {
    if (chunk !== null) requestChunks.push(Buffer.from(chunk, encoding));
    return push(chunk, encoding);
  };
  const responseChunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    responseChunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => (collect(args[0], args[1]), write(...args))) as typeof res.write;
  res.end = ((...args: unknown[]) => (collect(args[0], args[1]), end(...args))) as typeof res.end;
  res.on('finish', () => {
    const exchange: Exchange = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      requestHeaders: req.headers,
      requestBody: req.complete ? Buffer.concat(requestChunks) : undefined,
      status: res.statusCode,
      responseHeaders: res.getHeaders(),
      responseBody: Buffer.concat(responseChunks),
    };
    let found: string[];
    try {
      found = openApiContract().check(exchange);
    } catch (err) {
      found = [`the validator failed: ${(err as Error).stack}`];
    }
    for (const v of found) recordContractViolation(`${exchange.method} ${exchange.url} → ${exchange.status}: ${v}`);
  });
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;

interface Operation {
  path: string;
  method: string;
  segments: string[];
  op: Json;
}

export class Contract {
  private readonly operations: Operation[] = [];
  private readonly requestAjv = newAjv();
  private readonly responseAjv = newAjv();
  private readonly strictDoc: Json;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly doc: Json) {
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (METHODS.includes(method)) this.operations.push({ path, method, op, segments: path.split('/').filter(Boolean) });
      }
    }
    this.strictDoc = strictResponses(structuredClone(doc));
    // The components are compiled once per validator, shared by every operation's schemas.
    this.requestAjv.addSchema({ $id: 'request', components: rebase(doc.components, 'request') });
    this.responseAjv.addSchema({ $id: 'response', components: rebase(this.strictDoc.components, 'response') });
  }

  /** The documented operation of a method and path: static segments win over templated ones, as in the service. */
  operationOf(method: string, pathname: string): { operation: Operation; params: Record<string, string> } | undefined {
    const parts = pathname.split('/').filter(Boolean);
    let best: { operation: Operation; params: Record<string, string>; score: number } | undefined;
    for (const operation of this.operations) {
      if (operation.method !== method.toLowerCase() || operation.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let score = 0;
      const ok = operation.segments.every((seg, i) => {
        const m = /^\{(\w+)\}$/.exec(seg);
        if (m) {
          params[m[1]] = safeDecode(parts[i]);
          return true;
        }
        score += 1;
        return seg === parts[i];
      });
      if (ok && (!best || score > best.score)) best = { operation, params, score };
    }
    return best && { operation: best.operation, params: best.params };
  }

  /** The violations of one exchange; none for a path the document does not describe. */
  check(x: Exchange): string[] {
    const url = new URL(x.url, 'http://localhost');
    const method = x.method === 'HEAD' ? 'GET' : x.method;
    const found = this.operationOf(method, url.pathname);
    if (!found) return [];
    const { operation, params } = found;
    const out: string[] = [];
    const where = `${operation.method.toUpperCase()} ${operation.path}`;
    const requestProblems = this.requestProblems(operation, params, url, x);
    if (requestProblems.length && x.status < 300) {
      out.push(`the service accepted a request that ${where} documents as invalid: ${requestProblems.join('; ')}`);
    }
    out.push(...this.responseProblems(operation, where, x).map((p) => `response: ${p}`));
    return out;
  }

  /** Why the document calls this request invalid (empty when it is valid). */
  requestProblems(operation: Operation, pathParams: Record<string, string>, url: URL, x: Exchange): string[] {
    const out: string[] = [];
    const parameters = ((operation.op.parameters ?? []) as Json[]).map((p) => this.resolve(p));
    const declaredQuery = new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name));
    const deepObjects = parameters.filter((p) => p.in === 'query' && p.style === 'deepObject').map((p) => p.name as string);
    for (const name of new Set(url.searchParams.keys())) {
      if (!declaredQuery.has(name) && !deepObjects.includes(deepObjectName(name) ?? '')) out.push(`query parameter ${name} is not documented`);
    }
    for (const [i, p] of parameters.entries()) {
      const raw =
        p.in === 'query' && p.style === 'deepObject' ? deepObjectValue(url.searchParams, p.name)
        : p.in === 'query' ? (url.searchParams.get(p.name) ?? undefined)
        : p.in === 'path' ? pathParams[p.name]
        : p.in === 'header' ? headerValue(x.requestHeaders, p.name)
        : undefined;
      if (raw === undefined) {
        if (p.required) out.push(`${p.in} parameter ${p.name} is required`);
        continue;
      }
      if (!p.schema) continue;
      const validate = this.validator(this.requestAjv, `${operation.method} ${operation.path} parameter ${i}`, p.schema);
      if (!validate(typeof raw === 'string' ? coerce(raw, this.resolve(p.schema)) : raw)) out.push(`${p.in} parameter ${p.name}=${JSON.stringify(raw)} ${describe(validate)}`);
    }
    const body = operation.op.requestBody && this.resolve(operation.op.requestBody);
    if (body && x.requestBody !== undefined) {
      const sent = x.requestBody.length > 0;
      const type = mediaType(x.requestHeaders['content-type']);
      if (!sent) {
        if (body.required) out.push('the request body is required');
      } else if (!type || !(type in body.content)) {
        out.push(`request content type ${type ?? '(none)'} is not one of ${Object.keys(body.content).join(', ')}`);
      } else if (JSON_TYPE.test(type) && body.content[type].schema) {
        let value: unknown;
        try {
          value = JSON.parse(x.requestBody.toString('utf8'));
        } catch {
          out.push('the request body is not JSON');
          return out;
        }
        const validate = this.validator(this.requestAjv, `${operation.method} ${operation.path} request ${type}`, body.content[type].schema);
        if (!validate(value)) out.push(`request body ${describe(validate)}`);
      }
    }
    return out;
  }

  responseProblems(operation: Operation, where: string, x: Exchange): string[] {
    const responses = operation.op.responses as Json;
    const key = String(x.status) in responses ? String(x.status) : `${String(x.status)[0]}XX` in responses ? `${String(x.status)[0]}XX` : 'default' in responses ? 'default' : undefined;
    if (!key) return [`status ${x.status} is not documented for ${where} (documented: ${Object.keys(responses).join(', ')})`];
    const response = this.resolve(responses[key]);
    const content = (response.content ?? {}) as Json;
    const body = decoded(x.responseBody, header(x.responseHeaders, 'content-encoding'));
    if (x.method === 'HEAD' || x.status === 304) return [];
    const type = mediaType(header(x.responseHeaders, 'content-type'));
    if (body.length === 0) {
      return Object.keys(content).length ? [`an empty body, where ${where} ${key} documents ${Object.keys(content).join(', ')}`] : [];
    }
    if (!Object.keys(content).length) return [`a body (${type ?? 'no content type'}) where ${where} ${key} documents none`];
    const mediaKey = type && (type in content ? type : Object.keys(content).find((k) => k === '*/*' || (k.endsWith('/*') && type.startsWith(k.slice(0, -1)))));
    if (!mediaKey) return [`content type ${type ?? '(none)'} is not one of ${Object.keys(content).join(', ')} (${where} ${key})`];
    const schema = content[mediaKey].schema;
    if (!schema || !type || !JSON_TYPE.test(type)) return [];
    let value: unknown;
    try {
      value = JSON.parse(body.toString('utf8'));
    } catch {
      return [`the ${type} body is not JSON`];
    }
    const pointer = `${operation.method} ${operation.path} ${key} ${mediaKey}`;
    const strictSchema = this.strictDoc.paths[operation.path][operation.method].responses[key];
    const validate = this.validator(this.responseAjv, pointer, this.resolveIn(this.strictDoc, strictSchema).content[mediaKey].schema);
    return validate(value) ? [] : [`body ${describe(validate)}`];
  }

  private validator(ajv: Ajv2020, key: string, schema: Json): ValidateFunction {
    const side = ajv === this.requestAjv ? 'request' : 'response';
    let validate = this.validators.get(`${side} ${key}`);
    if (!validate) {
      validate = ajv.compile(rebase(schema, side));
      this.validators.set(`${side} ${key}`, validate);
    }
    return validate;
  }

  private resolve(node: Json): Json {
    return this.resolveIn(this.doc, node);
  }

  private resolveIn(doc: Json, node: Json): Json {
    if (!node?.$ref) return node;
    const target = (node.$ref as string)
      .slice(2)
      .split('/')
      .reduce<Json>((n, k) => n?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return this.resolveIn(doc, target);
  }
}

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  // OpenAPI's own formats: any string.
  for (const format of ['binary', 'byte', 'password', 'int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
  return ajv;
}

/**
 * The document's response schemas as a strict validator reads them: an object schema that lists its properties
 * allows no other (a field the service sends that the document does not name is drift). Branches of an allOf are
 * left open, the allOf itself closed.
 */
function strictResponses(doc: Json): Json {
  const seen = new Set<object>();
  const close = (schema: unknown, inAllOf = false): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    if (Array.isArray(schema)) return schema.forEach((s) => close(s));
    const s = schema as Json;
    for (const [k, v] of Object.entries(s)) {
      if (k === 'allOf') (v as unknown[]).forEach((branch) => close(branch, true));
      else if (k === 'properties' || k === '$defs' || k === 'patternProperties' || k === 'dependentSchemas') Object.values(v as Json).forEach((p) => close(p));
      else if (['items', 'prefixItems', 'oneOf', 'anyOf', 'not', 'if', 'then', 'else', 'contains', 'additionalProperties'].includes(k)) close(v);
    }
    const objectish = s.properties !== undefined || s.allOf !== undefined;
    if (objectish && !inAllOf && s.additionalProperties === undefined && s.unevaluatedProperties === undefined) s.unevaluatedProperties = false;
  };
  Object.values((doc.components?.schemas ?? {}) as Json).forEach((s) => close(s));
  for (const item of Object.values(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (!METHODS.includes(method)) continue;
      for (const response of Object.values((op as Json).responses ?? {}) as Json[]) {
        for (const media of Object.values((response.content ?? {}) as Json)) close((media as Json).schema);
      }
    }
  }
  Object.values((doc.components?.responses ?? {}) as Json).forEach((r) => Object.values(((r as Json).content ?? {}) as Json).forEach((m) => close((m as Json).schema)));
  return doc;
}

/** A copy of a schema whose local references (#/components/...) name the schema `id` that holds the components. */
function rebase<T>(node: T, id: string): T {
  if (Array.isArray(node)) return node.map((n) => rebase(n, id)) as T;
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${id}${v}` : rebase(v, id)]),
  ) as T;
}

/** The parameter a deepObject-style key belongs to: `attributes` of `attributes[material]` or `attributes[capacity][gte]`. */
const deepObjectName = (key: string) => /^([^[\]]+)\[/.exec(key)?.[1];

/** A deepObject parameter's value as a validator reads it (`a[x]=1&a[y][gte]=2` is {x: "1", y: {gte: "2"}}), or undefined when not sent. */
function deepObjectValue(params: URLSearchParams, name: string): Record<string, unknown> | undefined {
  let out: Record<string, any> | undefined;
  for (const [key, value] of params) {
    const path = key.startsWith(`${name}[`) ? [...key.slice(name.length).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1]) : [];
    if (!path.length) continue;
    out ??= {};
    let node = out;
    for (const part of path.slice(0, -1)) node = node[part] = typeof node[part] === 'object' ? node[part] : {};
    node[path.at(-1)!] = value;
  }
  return out;
}

/** A parameter's string as its schema's type (what an OpenAPI validator does with form-style parameters). */
function coerce(raw: string, schema: Json | undefined): unknown {
  const types = [schema?.type ?? []].flat() as string[];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw.trim())) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (types.includes('array')) return raw.split(',');
  return raw;
}

function describe(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '(root)'} ${e.message}${e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties' ? ` (${JSON.stringify(e.params)})` : e.keyword === 'enum' ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`)
    .join(', ');
}

const mediaType = (value: unknown) => (typeof value === 'string' ? value.split(';')[0].trim().toLowerCase() || undefined : undefined);

function header(headers: OutgoingHttpHeaders | Headers, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name.toLowerCase()];
  return v === undefined ? undefined : String(v);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (!body.length) return body;
  if (encoding === 'gzip') return gunzipSync(body);
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'deflate') return inflateSync(body);
  return body;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
