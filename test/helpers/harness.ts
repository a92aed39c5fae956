import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import pino, { type Logger } from 'pino';
import { createApp, type App } from '../../src/app';
import { answerClientErrors } from '../../src/api/clientErrors';
import { ERROR_CATALOG } from '../../src/api/docs/errorCatalog';
import { loadConfig, type Config } from '../../src/platform/config';
import { openPGlite } from '../../src/platform/db/adapters';
import { type Database, openDatabase } from '../../src/platform/db/client';
import { contractError, takeContractViolations } from './contractViolations';
import { observeExchange } from './openapiContract';
import { adminQuery, newTempDir, templateStatePath, testDatabaseUrl, withDatabase } from './templates';

void PGlite;

/** A fresh database for this test file, copied from the migrated template (PGlite dump or PostgreSQL TEMPLATE). */
export async function openTestDatabase(): Promise<Database & { dropDatabase: () => Promise<void> }> {
  const state = JSON.parse(readFileSync(templateStatePath(), 'utf8'));
  if (state.kind === 'postgres') {
    const url = testDatabaseUrl()!;
    const name = `catalog_t_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${state.template}`);
    const database = await openDatabase({ kind: 'postgres', url: withDatabase(url, name), poolSize: 5, preparedStatements: true }, { migrate: false });
    return { ...database, dropDatabase: () => adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const blob = new Blob([readFileSync(state.dump)]);
  const pglite = await openPGlite({ loadDataDir: blob });
  const database = await openDatabase({ kind: 'pglite-instance', pglite }, { migrate: false });
  return { ...database, dropDatabase: async () => {} };
}

export interface TestServer {
  url: string;
  app: App;
  config: Config;
  database: Database;
  /** fetch against the server with JSON conveniences. */
  request: (method: string, path: string, opts?: RequestOptions) => Promise<TestResponse>;
  /** POST /graphql. */
  graphql: (query: string, variables?: Record<string, unknown>, opts?: RequestOptions) => Promise<TestResponse>;
  close: () => Promise<void>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  rawBody?: BodyInit;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/**
 * Every problem document any test receives has a `type` that is the page of its code under /docs/errors, and a
 * code that page exists for (test/docs/errorPages.test.ts fetches each of them), so every type the service
 * emits in the suite resolves.
 */
function expectDocumentedType(problem: unknown, request: string): void {
  const { type, code } = (problem ?? {}) as { type?: unknown; code?: unknown };
  const m = typeof type === 'string' ? /^(?:https?:\/\/[^/]+)?\/docs\/errors\/(\w+)$/.exec(type) : null;
  if (!m || m[1] !== code || !Object.hasOwn(ERROR_CATALOG, m[1])) {
    throw new Error(`${request}: problem type ${JSON.stringify(type)} (code ${JSON.stringify(code)}) is not the page of a documented error code`);
  }
}

/** Starts the real handler on an ephemeral port over a fresh database; `now` replaces the app's clock. */
export async function startTestServer(env: Record<string, string> = {}, opts: { now?: () => Date; log?: Logger } = {}): Promise<TestServer> {
  const database = await openTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: newTempDir('catalog-data-'), SEED_DEMO: 'false', ...env });
  const app = createApp(config, { log: opts.log ?? pino({ level: 'silent' }), now: opts.now });
  // Every exchange is checked against the OpenAPI document, as a validating proxy in front of the service would.
  const server: Server = createServer((req, res) => {
    observeExchange(req, res);
    void app.handler(req, res);
  });
  answerClientErrors(server, config.publicBaseUrl);
  await new Promise<void>((resolve) => server.listen(0, config.host, resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: BodyInit | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (res.headers.get('content-type') === 'application/problem+json') expectDocumentedType(parsed, `${method} ${path}`);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };

  return {
    url,
    app,
    config,
    database,
    request,
    graphql: (query, variables, opts = {}) => request('POST', '/graphql', { ...opts, body: { query, variables } }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await database.close();
      await database.dropDatabase();
      const found = takeContractViolations();
      if (found.length) throw contractError(found);
    },
  };
}
