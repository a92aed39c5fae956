/** The service's configuration: environment variables validated with zod into one typed Config (docs/configuration.md is generated from it and the descriptions in configReference.ts). */

import path from 'node:path';
import { z } from 'zod';
import { CACHE_DEFAULTS, type CacheName } from './caches';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('0.0.0.0'),
  /** postgres:// or postgresql:// selects PostgreSQL; unset selects the embedded PGlite under DATA_DIR. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
  /** Named (server-side prepared) statements on PostgreSQL; false behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21). */
  DATABASE_PREPARED_STATEMENTS: bool.default(true),
  /** Streaming replicas of DATABASE_URL (comma-separated postgres:// URLs) that reads which may be a moment old go to (src/platform/db/replicas.ts). */
  DATABASE_REPLICA_URLS: z
    .string()
    .transform((v) => v.split(',').map((u) => u.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, 'replica URLs start with postgres:// or postgresql://, comma-separated')))
    .optional(),
  /** A replica further behind the primary than this is skipped until it catches up. */
  DATABASE_REPLICA_MAX_LAG_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  /** How often each replica's replay position (and the primary's write position) is read. */
  DATABASE_REPLICA_POLL_MS: z.coerce.number().int().min(20).max(10_000).default(200),
  DATA_DIR: z.string().default('./data'),
  /** Absolute base URL used in Location headers and image URLs (defaults to the request's own origin), and the OAuth issuer (defaults to http://localhost:PORT; required in production with OAuth on). */
  PUBLIC_BASE_URL: z.string().url().optional(),
  /** Set: /metrics asks for it as a bearer token. Unset: /metrics is open (restrict it at the load balancer). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** OpenTelemetry traces over OTLP/HTTP (src/platform/tracing.ts); the exporter and sampler read the standard OTEL_* variables. */
  OTEL_TRACING: bool.default(false),
  OTEL_SERVICE_NAME: z.string().min(1).default('store-catalog'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unset: pretty lines on a terminal outside production, JSON lines otherwise (see src/platform/logger.ts). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SEED_DEMO: bool.default(true),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  OAUTH_ENABLED: bool.default(false),
  RATE_LIMIT_LIVE_PER_SECOND: z.coerce.number().positive().default(100),
  RATE_LIMIT_TEST_PER_SECOND: z.coerce.number().positive().default(25),
  /** Token-bucket capacity (requests a client may send at once); defaults to one second's worth. */
  RATE_LIMIT_LIVE_BURST: z.coerce.number().int().positive().optional(),
  RATE_LIMIT_TEST_BURST: z.coerce.number().int().positive().optional(),
  /** Prefix of the rate-limit keys in Redis, so several deployments (or test runs) can share one server. */
  RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('svc:ratelimit:'),
  /** Where uploaded images live: `disk` (under DATA_DIR/uploads; one machine) or `s3` (any S3-compatible store; shared by every instance). */
  STORAGE_DRIVER: z.enum(['disk', 's3']).default('disk'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** An S3-compatible server's URL (MinIO, R2, Ceph, …); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: z.string().url().optional(),
  /** Address buckets as `endpoint/bucket` rather than `bucket.endpoint` (most self-hosted S3-compatible servers want this). */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Both or neither; neither: the AWS SDK's default chain (AWS_ACCESS_KEY_ID…, a profile, an instance or task role). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Prepended to every object key, so one bucket can hold several deployments. */
  S3_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, 'letters, digits and !_.*\'()/- only')
    .default(''),
  /** Base URL of the objects for IMAGE_DELIVERY=redirect (a CDN, or the bucket's public URL); unset: derived from the endpoint and bucket. */
  S3_PUBLIC_URL: z.string().url().optional(),
  /** `proxy`: /uploads/… streams the file through the service; `redirect`: it answers 302 to the object's URL (S3 only; the objects must be readable there). */
  IMAGE_DELIVERY: z.enum(['proxy', 'redirect']).default('proxy'),
  /** How often the worker removes stored files no image uses any more (0: never). */
  UPLOAD_SWEEP_INTERVAL_MS: z.coerce.number().int().min(0).default(3_600_000),
  /** A stored file is removed only once it is this old, so an upload still being recorded keeps its file. */
  UPLOAD_SWEEP_MIN_AGE_SECONDS: z.coerce.number().int().min(60).default(3600),
  UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
  UPLOAD_MAX_PIXELS: z.coerce.number().int().positive().default(40_000_000),
  /** Bulk product imports: the largest file (413 above it) and the most data rows a file may hold. */
  IMPORT_MAX_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  IMPORT_MAX_ROWS: z.coerce.number().int().positive().default(100_000),
  AI_BASE_URL: z.string().url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().default('gpt-4o-mini'),
  AI_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** How long a dashboard session (signIn's cookie) lasts; then the user signs in again. */
  DASHBOARD_SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 90).default(7 * 24),
  /** How long a verified dashboard token is trusted without a lookup (0: every request looks it up). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** How long a client may take to send a whole request (headers and body; uploads included); 408 and closed after. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(60_000),
  /** How long a client may take to send the request headers. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(15_000),
  /** How long the change history keeps events; older ones are deleted by a scheduled job. */
  CHANGES_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  /** How often that job runs. */
  CHANGES_PRUNE_INTERVAL_MS: z.coerce.number().int().min(1000).default(3_600_000),
  /** Run the background worker (webhook delivery, scheduled publishing, retention) inside this process. */
  WORKER: bool.default(true),
  /** How often an idle worker looks for due work; work committed by this process wakes it at once. */
  WORKER_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Lifts the SSRF guard: webhook URLs may be http on loopback and target private addresses (tests, local development). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool.default(false),
  /** How long one delivery attempt may take, connection to last byte of the answer. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Attempts one worker runs at once. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** How long messages and attempts stay in the delivery log. */
  WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Origins (scheme://host[:port], comma-separated) whose pages may call /graphql; unset: none but /graphql's own. */
  GRAPHQL_CORS_ORIGINS: z
    .string()
    .transform((v) => v.split(',').map((o) => o.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s]+$/, 'origins are scheme://host[:port], comma-separated')))
    .optional(),
  /** Bounds of in-process caches that differ from their defaults (src/platform/caches.ts): `name=entries`, comma-separated. */
  CACHE_MAX_ENTRIES: z
    .string()
    .transform((v, ctx) => {
      const bounds: Partial<Record<CacheName, number>> = {};
      for (const part of v.split(',').map((p) => p.trim()).filter(Boolean)) {
        const [name, n] = part.split('=').map((s) => s.trim());
        if (!(name in CACHE_DEFAULTS) || !/^\d+$/.test(n ?? '') || Number(n) < 1) {
          ctx.addIssue({ code: 'custom', message: `"${part}" is not name=entries with a cache of ${Object.keys(CACHE_DEFAULTS).join(', ')} and a whole number from 1` });
          return z.NEVER;
        }
        bounds[name as CacheName] = Number(n);
      }
      return bounds;
    })
    .optional(),
  /** Limits of one /graphql document (src/api/graphql/limits.ts). */
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(200).max(100_000).default(2000),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(3).max(100).default(12),
  // 24: the REST product representation's own selection holds 21 aliased fields (src/catalog/services/views.ts).
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(24),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).max(1000).default(20),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(100).default(50_000),
  /** Failed logins allowed per account (email) and per client address within the window, then 429 until it ends. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  LOGIN_THROTTLE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  /** Prefix of the login throttle's keys in Redis (shared by every instance on REDIS_URL). */
  LOGIN_THROTTLE_REDIS_PREFIX: z.string().min(1).default('svc:login:'),
  /** Proxies in front of the service that append to X-Forwarded-For; 0: the client address is the socket's. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
});

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}

/** Parses and validates the environment once; every setting of the service is read here. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // node refuses a headers timeout longer than the request timeout; say so by name rather than crash at listen.
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(`Invalid configuration:\n  HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS})`);
  }
  const combinationProblems = [
    e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET && '  S3_BUCKET: required when STORAGE_DRIVER=s3',
    !!e.S3_ACCESS_KEY_ID !== !!e.S3_SECRET_ACCESS_KEY && '  S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither',
    e.IMAGE_DELIVERY === 'redirect' && e.STORAGE_DRIVER !== 's3' && '  IMAGE_DELIVERY: redirect needs STORAGE_DRIVER=s3 (files on disk have no URL of their own)',
    e.DATABASE_REPLICA_URLS?.length && !e.DATABASE_URL && '  DATABASE_REPLICA_URLS: needs DATABASE_URL (the primary); the embedded database has no replicas',
    e.OAUTH_ENABLED && e.NODE_ENV === 'production' && !e.PUBLIC_BASE_URL && '  PUBLIC_BASE_URL: required in production when OAUTH_ENABLED=true (it is the OAuth issuer clients check)',
  ].filter((p): p is string => !!p);
  if (combinationProblems.length) throw new ConfigError(`Invalid configuration:\n${combinationProblems.join('\n')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? ({
          kind: 'postgres',
          url: e.DATABASE_URL,
          poolSize: e.DATABASE_POOL_SIZE,
          preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
          replicas: e.DATABASE_REPLICA_URLS?.length ? { urls: e.DATABASE_REPLICA_URLS, maxLagMs: e.DATABASE_REPLICA_MAX_LAG_MS, pollMs: e.DATABASE_REPLICA_POLL_MS } : undefined,
        } as const)
      : ({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite'), lockFile: path.join(dataDir, 'pglite.lock'), socketDir: dataDir } as const),
    dataDir,
    /** Uploads wait here while they are checked and re-encoded; each file is removed when its request ends. */
    tmpDir: path.join(dataDir, 'tmp'),
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/$/, ''),
    metricsToken: e.METRICS_TOKEN,
    tracing: { enabled: e.OTEL_TRACING, serviceName: e.OTEL_SERVICE_NAME },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    seedDemo: e.SEED_DEMO,
    redisUrl: e.REDIS_URL,
    oauthEnabled: e.OAUTH_ENABLED,
    rateLimit: {
      live: { perSecond: e.RATE_LIMIT_LIVE_PER_SECOND, burst: e.RATE_LIMIT_LIVE_BURST ?? Math.max(1, Math.ceil(e.RATE_LIMIT_LIVE_PER_SECOND)) },
      test: { perSecond: e.RATE_LIMIT_TEST_PER_SECOND, burst: e.RATE_LIMIT_TEST_BURST ?? Math.max(1, Math.ceil(e.RATE_LIMIT_TEST_PER_SECOND)) },
      redisPrefix: e.RATE_LIMIT_REDIS_PREFIX,
    },
    upload: { maxBytes: e.UPLOAD_MAX_BYTES, maxPixels: e.UPLOAD_MAX_PIXELS },
    imports: { maxBytes: e.IMPORT_MAX_BYTES, maxRows: e.IMPORT_MAX_ROWS },
    storage:
      e.STORAGE_DRIVER === 's3'
        ? ({
            driver: 's3',
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT?.replace(/\/$/, ''),
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            credentials: e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! } : undefined,
            keyPrefix: e.S3_KEY_PREFIX,
            publicUrl: e.S3_PUBLIC_URL?.replace(/\/$/, ''),
          } as const)
        : ({ driver: 'disk', root: path.join(dataDir, 'uploads') } as const),
    imageDelivery: e.IMAGE_DELIVERY,
    uploadSweep: { intervalMs: e.UPLOAD_SWEEP_INTERVAL_MS, minAgeMs: e.UPLOAD_SWEEP_MIN_AGE_SECONDS * 1000 },
    ai: e.AI_BASE_URL
      ? { kind: 'openai' as const, baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY ?? 'none', model: e.AI_MODEL, timeoutMs: e.AI_TIMEOUT_MS }
      : { kind: 'local' as const, timeoutMs: e.AI_TIMEOUT_MS },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    http: { requestTimeoutMs: e.REQUEST_TIMEOUT_MS, headersTimeoutMs: e.HEADERS_TIMEOUT_MS },
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    dashboardSessionMs: e.DASHBOARD_SESSION_HOURS * 3_600_000,
    changes: { retentionDays: e.CHANGES_RETENTION_DAYS, pruneIntervalMs: e.CHANGES_PRUNE_INTERVAL_MS },
    worker: { enabled: e.WORKER, pollMs: e.WORKER_POLL_MS },
    webhooks: {
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrency: e.WEBHOOK_CONCURRENCY,
      logRetentionDays: e.WEBHOOK_LOG_RETENTION_DAYS,
    },
    graphqlCorsOrigins: e.GRAPHQL_CORS_ORIGINS ?? [],
    cacheMaxEntries: e.CACHE_MAX_ENTRIES ?? {},
    graphqlLimits: {
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    loginThrottle: {
      maxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: e.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowMs: e.LOGIN_THROTTLE_WINDOW_SECONDS * 1000,
      redisPrefix: e.LOGIN_THROTTLE_REDIS_PREFIX,
    },
    trustProxyHops: e.TRUST_PROXY_HOPS,
  };
}
