/** Optional OpenTelemetry tracing (OTEL_TRACING=true), exported over OTLP/HTTP. */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Span } from '@opentelemetry/api';
import { ConfigError, loadConfig } from './config';

/**
 * A span per HTTP request named by its route pattern (`GET /api/v1/merchant/stores/:storeId/products`),
 * a span per GraphQL operation (src/api/graphql/operationTelemetry.ts), a span per PostgreSQL statement
 * and per outgoing HTTP request (webhook deliveries). Incoming W3C `traceparent` headers are continued.
 *
 * The exporter, the sampler and the batching read the standard variables:
 * OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318),
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_SCHEDULE_DELAY.
 * Off, none of the SDK is loaded; the API's spans are no-ops.
 */

/** Set on a response by the request handler: the route label (the same as the metrics'), read when the request's span ends. */
export const ROUTE_LABEL = Symbol.for('store-catalog.routeLabel');
type Labelled = ServerResponse & { [ROUTE_LABEL]?: { route?: string } };

let shutdown: (() => Promise<void>) | null = null;

/**
 * Starts tracing when the configuration asks for it. It must run before `http` and `pg`
 * are loaded (src/instrument.ts is the entry points' first import). An invalid
 * configuration is left for the entry point to report.
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): void {
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return;
    throw e;
  }
  if (!config.tracing.enabled || shutdown) return;
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.tracing.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Health checks and scrapes would be most of the spans and say nothing.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)(\?|$)/.test(req.url ?? ''),
        applyCustomAttributesOnSpan: (span, request, response) => {
          if (!('statusCode' in response)) return; // an outgoing request: the instrumentation names it
          nameBy(span, request as IncomingMessage, response as Labelled);
        },
      }),
      // Statement text only (Prisma sends parameters apart, so no values reach a span).
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  shutdown = () => provider.shutdown();
}

function nameBy(span: Span, request: IncomingMessage, response: Labelled): void {
  const route = response[ROUTE_LABEL]?.route ?? 'unmatched';
  span.setAttribute('http.route', route);
  span.updateName(`${request.method ?? 'GET'} ${route}`);
}

/** Exports the spans still buffered; for a graceful shutdown. */
export async function stopTracing(): Promise<void> {
  await shutdown?.().catch(() => {});
  shutdown = null;
}
