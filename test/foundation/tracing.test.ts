import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ChildProcess } from 'node:child_process';
import { exited, listening, randomPort, spawnServer, embeddedEnv } from '../helpers/serverProcess';
import { adminQuery, newTempDir, templateStatePath, testDatabaseUrl, withDatabase } from '../helpers/templates';
import { type Receiver, startReceiver } from '../helpers/webhooks';

/**
 * OTEL_TRACING=true on a real service process, exporting over OTLP/HTTP to a
 * local receiver that reads the spans as a collector would (OTLP JSON). A
 * request's span is named by its route pattern and continues the caller's W3C
 * traceparent; a GraphQL operation is a span under its request; on PostgreSQL
 * each statement is a span in the same trace. Health checks make none.
 */
jest.setTimeout(120_000);

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

const url = testDatabaseUrl();
let receiver: Receiver;
let child: ChildProcess & { output(): string };
let base: string;
const dbName = `catalog_trace_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  receiver = await startReceiver();
  const port = randomPort();
  const tracing = {
    OTEL_TRACING: 'true',
    OTEL_SERVICE_NAME: 'catalog-under-test',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    PORT: String(port),
    HOST: '127.0.0.1',
  };
  if (url) {
    const { template } = JSON.parse(readFileSync(templateStatePath(), 'utf8')) as { template: string };
    await adminQuery(url, `CREATE DATABASE ${dbName} TEMPLATE ${template}`);
    child = spawnServer({ ...process.env, NODE_OPTIONS: '', REDIS_URL: '', DATA_DIR: newTempDir('catalog-trace-'), DATABASE_URL: withDatabase(url, dbName), ...tracing });
  } else {
    child = spawnServer(embeddedEnv(newTempDir('catalog-trace-'), tracing));
  }
  await listening(child);
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  if (child) {
    const done = exited(child);
    child.kill('SIGTERM');
    await done;
  }
  await receiver?.close();
  if (url) await adminQuery(url, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
});

/** Every span the receiver got so far, with the resource's service name. */
function received(): (OtlpSpan & { service: string })[] {
  return receiver.requests.flatMap((r) => {
    expect(r.path).toBe('/v1/traces');
    const body = JSON.parse(r.body) as {
      resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
    };
    return body.resourceSpans.flatMap((rs) => {
      const service = String(rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue);
      return rs.scopeSpans.flatMap((ss) => ss.spans.map((s) => ({ ...s, service })));
    });
  });
}

async function spansUntil(found: (spans: ReturnType<typeof received>) => boolean): Promise<ReturnType<typeof received>> {
  for (let i = 0; i < 100; i++) {
    const spans = received();
    if (found(spans)) return spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return received();
}

const attribute = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value.stringValue;

it('exports request, GraphQL and database spans named by route, continuing the caller’s trace', async () => {
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    return body.data;
  };
  const { login } = await gql('mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', { e: 'owner@demo.store', p: 'demo-password' });
  const { viewer } = await gql('query Whoami { viewer { memberships { store { id } } } }', {}, login.token);
  const storeId = viewer.memberships[0].store.id as string;

  const traceId = randomBytes(16).toString('hex');
  const callerSpan = randomBytes(8).toString('hex');
  const list = await fetch(`${base}/api/v1/merchant/stores/${storeId}/products`, {
    headers: { authorization: `Bearer ${login.token}`, traceparent: `00-${traceId}-${callerSpan}-01` },
  });
  expect(list.status).toBe(200);

  const route = 'GET /api/v1/merchant/stores/:storeId/products';
  const spans = await spansUntil((all) => all.some((s) => s.name === route) && all.some((s) => s.name === 'query viewer'));
  expect(spans.every((s) => s.service === 'catalog-under-test')).toBe(true);

  const request = spans.find((s) => s.name === route)!;
  expect(request).toMatchObject({ traceId, parentSpanId: callerSpan });
  expect(attribute(request, 'http.route')).toBe('/api/v1/merchant/stores/:storeId/products');

  const operation = spans.find((s) => s.name === 'query viewer')!;
  expect(attribute(operation, 'graphql.operation.name')).toBe('Whoami');
  const graphqlRequest = spans.find((s) => s.spanId === operation.parentSpanId);
  expect(graphqlRequest?.name).toBe('POST /graphql');

  if (url) {
    // The list's statements are children in its trace.
    const statements = spans.filter((s) => s.traceId === traceId && s.name.startsWith('pg.'));
    expect(statements.length).toBeGreaterThan(0);
    expect(spans.some((s) => s.traceId === operation.traceId && s.name.startsWith('pg.'))).toBe(true);
  }
  // Health checks are not traced.
  expect(spans.some((s) => attribute(s, 'http.route') === '/healthz' || s.name.includes('/healthz'))).toBe(false);
});
