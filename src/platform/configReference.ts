/** What each environment variable means, beside the schema that parses it, and docs/configuration.md rendered from both. */

import { z } from 'zod';
import { EnvSchema } from './config';

/** One sentence or two per variable, for the people who set them; typed so that a variable without one fails to compile. */
const DESCRIPTIONS: Record<keyof z.input<typeof EnvSchema>, string> = {
  NODE_ENV: '`production` on deployed instances (`npm run start:prod` sets it): logs are JSON lines even on a terminal.',
  PORT: 'Port the service listens on.',
  HOST: 'Address the service listens on.',
  DATABASE_URL: '`postgres://…` or `postgresql://…` selects PostgreSQL (through `@prisma/adapter-pg`); unset, the embedded database (PGlite) under `DATA_DIR/pglite`.',
  DATABASE_POOL_SIZE: 'PostgreSQL connections per process. The sum over instances and workers, plus one for a migration, must stay below the server\'s `max_connections`.',
  DATABASE_PREPARED_STATEMENTS:
    'PostgreSQL: send every statement as a named prepared statement, parsed and planned once per connection and query shape (at most 256 distinct statements per process; any further one is sent unnamed, so no client can make connections hold thousands). `false` behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21).',
  DATABASE_REPLICA_URLS:
    'Streaming replicas of `DATABASE_URL`, comma-separated `postgres://` URLs. Query operations (GraphQL queries, REST GETs) read from a replica that is up, within `DATABASE_REPLICA_MAX_LAG_MS` and past the caller\'s own last write; writes, transactions and every mutation use the primary. Needs `DATABASE_URL`; unset: every read goes to the primary, as without replicas. See the [operations guide](operations.md#scale-out-reads-on-streaming-replicas).',
  DATABASE_REPLICA_MAX_LAG_MS: 'A replica further behind the primary than this (or down) is skipped, with a warning and the `db_replica_lag_seconds` metric, until it catches up. Also how long a client\'s last write position is kept.',
  DATABASE_REPLICA_POLL_MS: 'How often each replica\'s replay position and the primary\'s write position are read (one small query each); routing decisions use the last reading, never a query per request.',
  DATA_DIR: 'The embedded database (`pglite/`), uploaded images with the `disk` driver (`uploads/`) and temporary upload files.',
  PUBLIC_BASE_URL: 'Absolute base URL of the service as clients reach it: `Location` headers, image URLs, error `type` links, the OpenAPI server and the OAuth issuer. Unset: the origin each request came to (the OAuth issuer: `http://localhost:PORT`); required in production when `OAUTH_ENABLED=true`.',
  METRICS_TOKEN: 'Set (16+ characters): `/metrics` asks for it as a bearer token. Unset: `/metrics` is open; restrict it at the load balancer.',
  OTEL_TRACING: 'Export OpenTelemetry traces over OTLP/HTTP; the standard `OTEL_EXPORTER_OTLP_*` and `OTEL_TRACES_SAMPLER*` variables apply. Off, the SDK is not loaded.',
  OTEL_SERVICE_NAME: 'The `service.name` of exported traces.',
  LOG_LEVEL: 'pino level; every request line carries `request_id`.',
  LOG_FORMAT:
    'Unset: pretty lines when stdout is a terminal (outside production), JSON lines otherwise (pipes, files, containers). Pretty needs `pino-pretty`, a development dependency: a production install (`npm ci --omit=dev`) writes JSON lines whatever is set.',
  SEED_DEMO: 'Seed the demo store (owner `owner@demo.store`) when the database has no users, and print its one-time token at start.',
  REDIS_URL: 'Share the public API rate limits and the login throttle between instances. Unset, or while Redis does not answer: each instance counts on its own.',
  OAUTH_ENABLED: 'The OAuth endpoints under `/api/public/v1/oauth` (the spec marks the flow "not yet active"); off, they answer 404 `oauth_not_enabled` and `svc_oat_` tokens are refused.',
  RATE_LIMIT_LIVE_PER_SECOND: 'Public API token bucket per credential, live mode: requests per second.',
  RATE_LIMIT_TEST_PER_SECOND: 'The same for test mode.',
  RATE_LIMIT_LIVE_BURST: 'Bucket capacity (requests a client may send at once), live mode. Unset: one second\'s worth.',
  RATE_LIMIT_TEST_BURST: 'The same for test mode.',
  RATE_LIMIT_REDIS_PREFIX: 'Prefix of the rate-limit keys in Redis, so several deployments can share one server.',
  STORAGE_DRIVER: 'Where image files live: `disk` (`DATA_DIR/uploads`, one machine) or `s3` (an S3-compatible bucket every instance shares).',
  S3_BUCKET: 'The bucket; required with `STORAGE_DRIVER=s3`.',
  S3_REGION: 'The bucket\'s region.',
  S3_ENDPOINT: 'An S3-compatible server\'s URL (MinIO, R2, Ceph…). Unset: AWS S3 in `S3_REGION`.',
  S3_FORCE_PATH_STYLE: 'Address buckets as `endpoint/bucket` rather than `bucket.endpoint`; most self-hosted servers want this.',
  S3_ACCESS_KEY_ID: 'Set both or neither; neither: the AWS SDK\'s default chain (`AWS_ACCESS_KEY_ID`…, a profile, an instance or task role).',
  S3_SECRET_ACCESS_KEY: 'See `S3_ACCESS_KEY_ID`.',
  S3_KEY_PREFIX: 'Prepended to every object key, so one bucket can hold several deployments.',
  S3_PUBLIC_URL: 'Base URL of the objects for `IMAGE_DELIVERY=redirect` (a CDN, or the bucket\'s public URL). Unset: derived from the endpoint and bucket.',
  IMAGE_DELIVERY: '`proxy`: `/uploads/…` streams the file through the service. `redirect` (S3 only): it answers 302 to the object\'s URL; the objects must be readable there.',
  UPLOAD_SWEEP_INTERVAL_MS: 'How often the worker removes stored image files no image uses (`0`: never).',
  UPLOAD_SWEEP_MIN_AGE_SECONDS: 'How old such a file must be before the sweep removes it, so an upload still being recorded keeps its file.',
  UPLOAD_MAX_BYTES: 'Largest image upload (10 MiB by default; the limit itself is allowed); beyond, 413 `payload_too_large`.',
  UPLOAD_MAX_PIXELS: 'Largest image in pixels, read from the header before any pixel is decoded; beyond, 422 `image_dimensions_too_large`.',
  IMPORT_MAX_BYTES: 'Largest bulk import file (50 MiB by default); beyond, 413.',
  IMPORT_MAX_ROWS: 'Most data rows a bulk import file may hold; beyond, the file is refused before anything is queued.',
  AI_BASE_URL: 'An OpenAI-compatible server (OpenAI, Ollama, vLLM) for description generation. Unset: the local, deterministic provider.',
  AI_API_KEY: 'The key sent to `AI_BASE_URL`.',
  AI_MODEL: 'The model asked for at `AI_BASE_URL`.',
  AI_TIMEOUT_MS: 'One deadline for a whole description generation exchange; then 504 `provider_timeout`.',
  DASHBOARD_SESSION_HOURS: 'How long a dashboard sign-in (the `svc_session` cookie) lasts.',
  AUTH_CACHE_TTL_MS: 'How long a verified dashboard token is trusted without a lookup (`0`: every request looks it up). Revocations made on another instance take effect within it.',
  SHUTDOWN_TIMEOUT_MS: 'Grace period for in-flight requests on SIGTERM.',
  REQUEST_TIMEOUT_MS: 'Time a client has to send a whole request, headers and body (uploads included); then 408 and the connection is closed (node\'s own default is 300 s).',
  HEADERS_TIMEOUT_MS: 'Time a client has to send the request headers; at most `REQUEST_TIMEOUT_MS`.',
  CHANGES_RETENTION_DAYS: 'How long the change history keeps events. Keep it at least as long as webhook messages may wait: a message whose event was pruned fails without a request.',
  CHANGES_PRUNE_INTERVAL_MS: 'How often the worker deletes events and delivery-log entries past their retention, and expired idempotency keys (first run a minute after start).',
  WORKER: 'Run the background worker (webhook delivery, scheduled publishing, import and test catalog jobs, retention, the upload sweep) in this process. `false`: serve requests only, beside `npm run worker`.',
  WORKER_POLL_MS: 'How often an idle worker looks for due work; this process\'s own writes wake it at once.',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'Lift the guard against webhook URLs on private, loopback and metadata addresses, and allow `http` on loopback hosts: for tests and local development only (the README\'s tour uses it).',
  WEBHOOK_TIMEOUT_MS: 'One delivery attempt, from connecting to the end of the answer.',
  WEBHOOK_CONCURRENCY: 'Delivery attempts one worker runs at once.',
  WEBHOOK_LOG_RETENTION_DAYS: 'How long webhook messages and attempts stay in the delivery log.',
  GRAPHQL_CORS_ORIGINS: 'Origins (`https://host[:port]`, comma-separated) whose pages may call `/graphql`. Unset: none.',
  GRAPHQL_MAX_TOKENS: 'Most lexical tokens in one `/graphql` document (`query_too_large`).',
  GRAPHQL_MAX_DEPTH: 'Deepest field nesting of one document (`query_too_deep`).',
  GRAPHQL_MAX_ALIASES: 'Most aliased fields in one operation (`too_many_aliases`).',
  GRAPHQL_MAX_DIRECTIVES: 'Most directives in one operation (`too_many_directives`).',
  GRAPHQL_MAX_COST: 'Highest estimated cost of one document, page sizes counted (`query_too_complex`).',
  CACHE_MAX_ENTRIES: 'Bounds of the in-process caches that differ from their defaults, as `name=entries` pairs, comma-separated (e.g. `graphql_documents=500,rate_limit_buckets=20000`). The caches, their defaults and what they hold are in the operations guide (Memory); /metrics shows each one\'s `cache_entries` and `cache_max_entries`.',
  LOGIN_MAX_FAILURES_PER_ACCOUNT: 'Failed logins allowed per account (email) within the window; then 429 `too_many_login_attempts` until it ends.',
  LOGIN_MAX_FAILURES_PER_ADDRESS: 'Failed logins allowed per client address within the window.',
  LOGIN_THROTTLE_WINDOW_SECONDS: 'The login throttle\'s window, starting with the first failure.',
  LOGIN_THROTTLE_REDIS_PREFIX: 'Prefix of the login throttle\'s keys in Redis.',
  TRUST_PROXY_HOPS: 'Proxies in front of the service that append to `X-Forwarded-For` (a load balancer: 1); the login throttle counts the address the outermost one saw. `0`: the connection\'s address.',
};

/** Rules between variables, checked at start with the rest (loadConfig). */
const RULES = [
  '`HEADERS_TIMEOUT_MS` may not exceed `REQUEST_TIMEOUT_MS`.',
  '`STORAGE_DRIVER=s3` needs `S3_BUCKET`.',
  '`S3_ACCESS_KEY_ID` and `S3_SECRET_ACCESS_KEY`: both or neither.',
  '`IMAGE_DELIVERY=redirect` needs `STORAGE_DRIVER=s3` (files on disk have no URL of their own).',
];

interface JsonSchemaProperty {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  format?: string;
  pattern?: string;
  anyOf?: JsonSchemaProperty[];
}

const code = (v: unknown) => `\`${String(v)}\``;

/** What a variable accepts, in words, from the schema itself. */
function accepts(p: JsonSchemaProperty): string {
  if (p.enum) {
    const values = p.enum.map(String);
    return [...values].sort().join(' ') === '0 1 false no true yes' ? '`true` or `false` (also `1`/`0`, `yes`/`no`)' : values.map(code).join(', ');
  }
  if (p.type === 'integer' || p.type === 'number') {
    const kind = p.type === 'integer' ? 'whole number' : 'number';
    if (p.minimum !== undefined && p.maximum !== undefined) return `${kind}, ${p.minimum}–${p.maximum}`;
    if (p.minimum !== undefined) return `${kind}, at least ${p.minimum}`;
    if (p.exclusiveMinimum !== undefined) return `${kind} above ${p.exclusiveMinimum}`;
    return kind;
  }
  if (p.format === 'uri') return 'URL';
  if (p.pattern === '^postgres(ql)?:\\/\\/') return '`postgres://…` URL';
  if (p.pattern === '^rediss?:\\/\\/') return '`redis://…` or `rediss://…` URL';
  if (p.minLength && p.minLength > 1) return `text, at least ${p.minLength} characters`;
  return 'text';
}

/** docs/configuration.md: every variable of the schema, its default, what it accepts and what it does. */
export function renderConfigurationReference(): string {
  const schema = z.toJSONSchema(EnvSchema, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, JsonSchemaProperty> };
  const rows = Object.entries(schema.properties).map(([name, p]) => {
    const description = DESCRIPTIONS[name as keyof typeof DESCRIPTIONS];
    // The default as the schema applies it (a boolean's default sits behind its string parsing, where JSON Schema cannot see it).
    const field = EnvSchema.shape[name as keyof typeof EnvSchema.shape] as { def: { type: string; defaultValue?: unknown } };
    const value = field.def.type === 'default' ? field.def.defaultValue : p.default;
    const fallback = value === undefined ? 'unset' : value === '' ? 'empty' : code(value);
    return `| \`${name}\` | ${fallback} | ${accepts(p)} | ${description.replace(/\|/g, '\\|')} |`;
  });
  return [
    '# Configuration reference',
    '',
    '<!-- Generated by `npm run docs:reference` from the schema in src/platform/config.ts and the descriptions in src/platform/configReference.ts; test/docs/reference.test.ts fails when this file differs. -->',
    '',
    'The service, the worker and the CLI read their settings from environment variables, validated at start. An invalid value stops the process before it opens the database, with one line naming each bad variable; empty values count as unset.',
    '',
    '| variable | default | accepts | what it does |',
    '|---|---|---|---|',
    ...rows,
    '',
    'Rules between variables:',
    '',
    ...RULES.map((r) => `- ${r}`),
    '',
  ].join('\n');
}
