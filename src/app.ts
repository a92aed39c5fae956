/**
 * The HTTP request handler: routing every path to GraphQL, REST, the OAuth endpoints, docs, the dashboard,
 * uploads and metrics, with authentication and the request's context.
 */

import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { processRequest } from 'graphql-upload-minimal';
import type { Logger } from 'pino';
import { authenticateDashboard, authenticateDashboardOrCsrfSession, authenticateDashboardOrSession, requestedMode } from './access/auth/authenticate';
import { clearedSessionCookie, cookieIsSecure, sessionSetCookie } from './access/auth/sessionCookie';
import { createLoginThrottle } from './access/auth/loginThrottle';
import { forgetAllVerifiedTokens, setDashboardTokenCacheTtl } from './access/auth/dashboardTokens';
import type { Config } from './platform/config';
import { createContext, type RequestContext } from './platform/context';
import { db } from './platform/db/client';
import { createWritePositions } from './platform/db/writePositions';
import type { EventSource } from './kernel/events';
import { ANONYMOUS, SYSTEM } from './kernel/principal';
import type { GraphQLContext } from './api/graphql/builder';
import { csrfRefusal, refusalBody, sessionCsrfRefusal } from './api/graphql/csrf';
import { AppError } from './platform/errors';
import { dashboardRouteLabel, isDashboardPath, serveDashboard } from './api/dashboard';
import { docsRouteLabel, isDocsPath, serveDocs } from './api/docs/serveDocs';
import { serveExplorerPage, wantsExplorerPage } from './api/explorer';
import { createWorker } from './jobs/worker';
import { createLogger, redactUrl, withRequestLog } from './platform/logger';
import { schema } from './schema';
import { merchantProductRoutes } from './catalog/rest/products';
import { MAX_JSON_BYTES, readBodyLimited } from './api/rest/body';
import { sendProblem, toProblem } from './api/rest/problem';
import { handleRest } from './api/rest/handler';
import { createPipeline } from './api/pipeline';
import { catalogExtrasRoutes } from './catalog/rest/catalogExtras';
import { stagedRoutes } from './catalog/rest/staged';
import { attributeRoutes } from './catalog/rest/attributes';
import { collectionRoutes } from './catalog/rest/collections';
import { collectionTransferRoutes } from './catalog/rest/collectionTransfer';
import { localizationRoutes } from './catalog/rest/localization';
import { translationRoutes } from './catalog/rest/translations';
import { changeRoutes } from './events/rest/changes';
import { imageRoutes } from './catalog/rest/images';
import { watchPartTypes } from './api/rest/multipart';
import { uploadRequestError } from './api/graphql/requestErrors';
import { httpRequestDuration, httpRequests, registry } from './platform/metrics';
import { cacheBound, registerCache, setCacheBounds } from './platform/caches';
import { handleOAuth, isOAuthPath, OAUTH_PATHS } from './access/rest/oauth';
import { compileRoutes, type RestRoute } from './api/rest/routes';
import { openApiJson } from './openapi';
import { publicRoutes } from './catalog/rest/public';
import { publicCollectionRoutes } from './catalog/rest/publicCollections';
import { testCatalogRoutes } from './catalog/rest/testCatalog';
import { productTransferRoutes } from './catalog/rest/productTransfer';
import { webhookRoutes } from './events/rest/webhooks';
import { createPublicApi, isPublicApiPath } from './access/rest/publicApi';
import { guardEarlyAnswer } from './platform/http/earlyAnswer';
import { createResponseCompression, prepareAsset, sendAsset, type StaticAsset } from './platform/http/compression';
import { storageFor } from './platform/storage';
import { serveUpload } from './platform/storage/serve';
import { ROUTE_LABEL } from './platform/tracing';

/** The merchant REST downloads (a streamed file) that the dashboard fetches with its session: the catalog's exports. */
const FILE_DOWNLOAD = /^\/api\/v1\/merchant\/stores\/[^/]+\/(products|collections)\/export$/;

export const restRoutes: RestRoute[] = [...merchantProductRoutes, ...productTransferRoutes, ...imageRoutes, ...catalogExtrasRoutes, ...stagedRoutes, ...attributeRoutes, ...collectionRoutes, ...collectionTransferRoutes, ...localizationRoutes, ...translationRoutes, ...changeRoutes, ...webhookRoutes, ...testCatalogRoutes, ...publicRoutes, ...publicCollectionRoutes];

export interface App {
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  log: Logger;
  close: () => Promise<void>;
  /** Resolves once background work started by requests (api key last_used_at writes) has finished. */
  settle: () => Promise<void>;
  /** Forgets what the process keeps in memory about the database (verified tokens): another process has written to it. */
  forgetCachedState: () => void;
  /** A context for work no request started (seeding, scheduled jobs): the system acts. */
  systemContext: () => RequestContext;
  /**
   * Starts the background worker (webhook dispatch and delivery, scheduled
   * publishing, retention of events and of the delivery log). A service calls
   * it once unless WORKER=false. Returns a stop function that resolves once the
   * attempts in flight are recorded.
   */
  startJobs: () => () => Promise<void>;
}

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Paths that are their own route label in the metrics; OAuth's are fixed paths too. */
const FIXED_ROUTES = new Set(['/', '/healthz', '/readyz', '/metrics', '/graphql', '/api/openapi.json', ...OAUTH_PATHS]);
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The Prometheus text exposition of this process's metrics. With METRICS_TOKEN set it asks for that token
 * as a bearer token (401 otherwise), compared in constant time.
 */
async function serveMetrics(req: IncomingMessage, res: ServerResponse, token: string | undefined): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new AppError('method_not_allowed', `${req.method} is not supported on /metrics`, { headers: { Allow: 'GET, HEAD' } });
  if (token) {
    const sent = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const a = createHash('sha256').update(sent).digest();
    const b = createHash('sha256').update(token).digest();
    if (!timingSafeEqual(a, b)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthenticated', 'Metrics need Authorization: Bearer <METRICS_TOKEN>');
    }
  }
  const text = await registry.metrics();
  res.statusCode = 200;
  res.setHeader('Content-Type', registry.contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * Builds the service's request handler. It never listens: src/server.ts (or a test) does. `now` is the clock
 * credential expiry and rate limiting use (tests pass a controllable one); `compiledPlans: false` makes every REST
 * route execute its GraphQL operation, even the hot reads that have a compiled plan (a test compares the two).
 */
export function createApp(config: Config, opts: { log?: Logger; now?: () => Date; compiledPlans?: boolean } = {}): App {
  const log = opts.log ?? createLogger(config);
  setDashboardTokenCacheTtl(config.authCacheTtlMs);
  setCacheBounds(config.cacheMaxEntries);
  const openapi = openApiJson(restRoutes);
  const compress = createResponseCompression();
  /** The OpenAPI document per base URL (PUBLIC_BASE_URL, else the host a client used), compressed once each; the last few are kept. */
  const openapiAssets = new Map<string, Promise<StaticAsset>>();
  // One per base URL a client used (without PUBLIC_BASE_URL each Host header makes one), the last few.
  registerCache('openapi_documents', () => openapiAssets.size);
  const openapiAsset = (baseUrl: string) => {
    let asset = openapiAssets.get(baseUrl);
    if (!asset) {
      if (openapiAssets.size >= cacheBound('openapi_documents')) openapiAssets.delete(openapiAssets.keys().next().value!);
      asset = prepareAsset(openapi(baseUrl), 'application/json');
      openapiAssets.set(baseUrl, asset);
    }
    return asset;
  };
  const now = opts.now ?? (() => new Date());
  const publicApi = createPublicApi(config, log, now);
  const loginThrottle = createLoginThrottle(config, log, () => now().getTime());

  /** The context every request starts from: nobody acts yet; authentication names the principal. */
  const requestContext = (req: IncomingMessage | null, requestId: string, reqLog: Logger, source: EventSource): RequestContext =>
    createContext({ requestId, source, principal: ANONYMOUS, config, log: reqLog, db: db(), now, baseUrl: req ? baseUrlOf(req, config) : undefined });

  // Read-your-writes with replicas: kept as long as a replica allowed to serve can lag (plus a few polls).
  const replicas = config.database.kind === 'postgres' ? config.database.replicas : undefined;
  const writePositions = replicas ? createWritePositions({ redisUrl: config.redisUrl, ttlMs: replicas.maxLagMs + 5 * replicas.pollMs, log }) : undefined;
  const pipeline = createPipeline({ schema, config, log, loginThrottle, writePositions });
  let routes: ReturnType<typeof compileRoutes>;
  try {
    routes = compileRoutes(pipeline, restRoutes, { compiledPlans: opts.compiledPlans });
  } catch (e) {
    // A route that fails to compile (a document over the configured limits) stops the start: the shared-state
    // connections opened above close, so the caller is left nothing to clean up.
    void Promise.allSettled([publicApi.close(), loginThrottle.close(), writePositions?.close()]);
    throw e;
  }

  /**
   * A merchant REST request's context: the signed-in user (a bearer token; for the
   * file downloads, also the session cookie with its X-CSRF-Token header, so the
   * dashboard can fetch an export), or nobody, in the mode the request names
   * (X-Service-Mode or `?mode=`), live when it names none. The response says which
   * mode served it.
   */
  async function dashboardContext(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string, reqLog: Logger, source: EventSource): Promise<GraphQLContext> {
    const ctx = requestContext(req, requestId, reqLog, source);
    const named = requestedMode(req.headers, url.searchParams);
    const mode = named ?? 'live';
    res.setHeader('X-Service-Mode', mode);
    const principal = req.method === 'GET' && FILE_DOWNLOAD.test(url.pathname) ? await authenticateDashboardOrCsrfSession(ctx, req.headers) : await authenticateDashboard(ctx, req.headers);
    return { ...ctx, mode, requestedMode: named, principal, setResponseHeader: (k, v) => void res.setHeader(k, v) };
  }

  /** /graphql's context: as dashboardContext, and signed in by the session cookie when no bearer token is sent; the response can set or clear that cookie. */
  async function graphqlContext(req: IncomingMessage, res: ServerResponse, url: URL, requestId: string, reqLog: Logger): Promise<GraphQLContext> {
    const ctx = requestContext(req, requestId, reqLog, 'dashboard_graphql');
    const named = requestedMode(req.headers, url.searchParams);
    const mode = named ?? 'live';
    res.setHeader('X-Service-Mode', mode);
    const secure = cookieIsSecure(config.publicBaseUrl, req.headers.host);
    const sessionCookie = {
      set: (token: string, expiresAt: Date) => void res.appendHeader('Set-Cookie', sessionSetCookie(token, expiresAt, now(), secure)),
      clear: () => void res.appendHeader('Set-Cookie', clearedSessionCookie(secure)),
    };
    const { principal, session, staleCookie } = await authenticateDashboardOrSession(ctx, req.headers);
    if (staleCookie) sessionCookie.clear();
    return { ...ctx, mode, requestedMode: named, principal, session, sessionCookie, acceptLanguage: req.headers['accept-language'], setResponseHeader: (k, v) => void res.setHeader(k, v) };
  }

  /** Where the dashboard's page may load images from besides this origin: the object store's, when /uploads/ redirects there. */
  let imageOriginMemo: string | null | undefined;
  const imageOrigin = () => {
    if (imageOriginMemo === undefined) imageOriginMemo = config.imageDelivery === 'redirect' ? new URL(storageFor(config).urlOf('x') ?? 'http://invalid').origin : null;
    return imageOriginMemo ?? undefined;
  };

  /** Requests being answered now: the in-process worker paces itself while there are any. */
  let requestsInFlight = 0;

  async function handler(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    requestsInFlight += 1;
    res.once('close', () => {
      requestsInFlight -= 1;
    });
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', requestId);
    // No response is to be sniffed into another type than it declares (JSON as HTML, an upload as script).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    guardEarlyAnswer(req, res);
    compress(req, res);
    const reqLog = log.child({ request_id: requestId });
    const url = new URL(req.url ?? '/', 'http://internal');
    const path = url.pathname;
    // The route as metrics label it: a fixed path, or a REST route's pattern once handleRest has matched it.
    const seen: { route?: string } = { route: FIXED_ROUTES.has(path) ? path : path.startsWith('/uploads/') ? '/uploads/:file' : undefined };
    // The request's trace span takes the same name when it ends (src/platform/tracing.ts).
    (res as ServerResponse & { [ROUTE_LABEL]?: typeof seen })[ROUTE_LABEL] = seen;
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      reqLog.info({ method: req.method, url: redactUrl(req.url ?? '/'), status: res.statusCode, ms: seconds * 1000 }, 'request');
      const labels = { route: seen.route ?? 'unmatched', method: KNOWN_METHODS.has(req.method ?? '') ? req.method! : 'other', status: String(res.statusCode) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, seconds);
    });
    try {
      if (path === '/healthz') return json(res, 200, { status: 'ok' });
      if (path === '/metrics') return await serveMetrics(req, res, config.metricsToken);
      if (path === '/readyz') {
        try {
          await db().$queryRaw`SELECT 1`;
          return json(res, 200, { status: 'ready' });
        } catch (err) {
          reqLog.warn({ err }, 'database not reachable');
          return json(res, 503, { status: 'unavailable', reason: 'database unreachable' });
        }
      }
      if (path === '/api/openapi.json') {
        // no-cache: clients revalidate (304 on the ETag), so a new release's document is seen at once.
        return sendAsset(req, res, await openapiAsset(baseUrlOf(req, config)), { cacheControl: 'no-cache' });
      }
      if (isDocsPath(path)) {
        seen.route = docsRouteLabel(path);
        return await serveDocs(req, res, path, baseUrlOf(req, config));
      }
      if (isDashboardPath(path)) {
        seen.route = dashboardRouteLabel(path);
        return await serveDashboard(req, res, path, { imageOrigin: imageOrigin() });
      }
      if (path.startsWith('/uploads/')) return await serveUpload(req, res, path.slice('/uploads/'.length), storageFor(config), config.imageDelivery);
      if (path === '/') {
        res.statusCode = 302;
        res.setHeader('Location', '/graphql');
        res.end();
        return;
      }
      if (path === '/graphql') {
        if (wantsExplorerPage(req)) return await serveExplorerPage(req, res);
        let ctx: GraphQLContext;
        try {
          ctx = await graphqlContext(req, res, url, requestId, reqLog);
        } catch (err) {
          return graphqlAuthError(res, err);
        }
        const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
        if (hasBody && !(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
          // Limited like REST bodies; Yoga takes an already read body as it is (a Buffer is a BodyInit).
          (req as IncomingMessage & { body?: unknown }).body = await readBodyLimited(req, MAX_JSON_BYTES, 'GraphQL request');
        } else if (hasBody) {
          // Yoga's CSRF check (csrfPreventionPlugin) would come after this parser: refuse a forgeable upload before reading it.
          const refusal = csrfRefusal(req.method, req.headers['content-type'], (h) => req.headers[h] !== undefined) ?? sessionCsrfRefusal(ctx);
          if (refusal) {
            res.statusCode = refusal.status;
            res.setHeader('Content-Type', 'application/json');
            res.end(refusalBody(refusal));
            return;
          }
          // Before processRequest pipes the request (same tick): busboy reports a part without a type as text/plain.
          ctx.uploadPartTypes = watchPartTypes(req);
          (req as IncomingMessage & { body?: unknown }).body = await processRequest(req, res, {
            // busboy flags a file that merely reaches the limit as truncated; one byte more keeps maxBytes itself allowed.
            maxFileSize: config.upload.maxBytes + 1,
            maxFiles: 10,
          }).catch(uploadRequestError);
        }
        // requestListener writes the response itself; extra arguments become the server context.
        await withRequestLog(reqLog, () => pipeline.graphqlListener(req, res, { ctx }));
        // An upload no resolver read (the mutation was refused, say) is drained or its connection closed by guardEarlyAnswer.
        return;
      }
      if (isOAuthPath(path)) return await handleOAuth(req, res, url, requestContext(req, requestId, reqLog, 'public_api'));
      if (isPublicApiPath(path)) {
        if (publicApi.cors(req, res)) return;
        const ctx = await publicApi.authenticate(requestContext(req, requestId, reqLog, 'public_api'), req, res, url);
        return await withRequestLog(reqLog, () => handleRest(pipeline, routes, req, res, url, ctx, seen));
      }
      if (path.startsWith('/api/')) {
        const ctx = await dashboardContext(req, res, url, requestId, reqLog, 'merchant_rest');
        return await withRequestLog(reqLog, () => handleRest(pipeline, routes, req, res, url, ctx, seen));
      }
      throw new AppError('route_not_found', `No endpoint ${req.method} ${path}`);
    } catch (err) {
      const p = toProblem(err);
      if (p.status >= 500) reqLog.error({ err }, 'request failed');
      const status = (err as { status?: number }).status;
      // graphql-upload-minimal signals limits with an HttpError carrying .status (413 etc.).
      if (!(err instanceof AppError) && status && status >= 400 && status < 500) {
        return sendProblem(res, { status, code: status === 413 ? 'payload_too_large' : 'bad_request', detail: (err as Error).message }, requestId, baseUrlOf(req, config));
      }
      sendProblem(res, p, requestId, baseUrlOf(req, config));
    }
  }

  const systemContext = () => ({ ...requestContext(null, randomUUID(), log, 'system'), principal: SYSTEM });
  const startJobs = () => {
    const worker = createWorker({ config, log: log.child({ component: 'worker' }), db, now, requestsInFlight: () => requestsInFlight });
    worker.start();
    return () => worker.stop();
  };

  return {
    handler,
    log,
    close: async () => {
      await publicApi.close();
      await loginThrottle.close();
      await writePositions?.close();
    },
    settle: () => publicApi.settle(),
    forgetCachedState: forgetAllVerifiedTokens,
    systemContext,
    startJobs,
  };
}

function graphqlAuthError(res: ServerResponse, err: unknown): void {
  if (!(err instanceof AppError)) throw err;
  for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
  return json(res, err.status, { errors: [{ message: err.message, extensions: { code: err.code } }] });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}

function baseUrlOf(req: IncomingMessage, config: Config): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  return `http://${req.headers.host ?? `localhost:${config.port}`}`;
}
