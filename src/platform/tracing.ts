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
 * The exporter reads its own; SDK 3's tracer provider and batch processor read
 * none, so samplerFromEnv and batchingFromEnv below read theirs.
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
  const sdk = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { context, propagation, trace } = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { registerInstrumentations } = require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.tracing.serviceName }),
    sampler: samplerFromEnv(sdk, env),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...batchingFromEnv(env) })],
  });
  // What SDK 2's NodeTracerProvider.register() did: the context follows async calls, W3C headers carry it.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  trace.setGlobalTracerProvider(provider);
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

type Sdk = typeof import('@opentelemetry/sdk-trace');

/** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the specification defines them; parentbased_always_on by default. */
function samplerFromEnv(sdk: Sdk, env: NodeJS.ProcessEnv): import('@opentelemetry/sdk-trace').Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on';
  const arg = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const ratio = () => new sdk.TraceIdRatioBasedSampler(Number.isFinite(arg) && arg >= 0 && arg <= 1 && env.OTEL_TRACES_SAMPLER_ARG?.trim() ? arg : 1);
  switch (name) {
    case 'always_on':
      return new sdk.AlwaysOnSampler();
    case 'always_off':
      return new sdk.AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new sdk.ParentBasedSampler({ root: ratio() });
    default:
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
  }
}

/** OTEL_BSP_SCHEDULE_DELAY, OTEL_BSP_EXPORT_TIMEOUT, OTEL_BSP_MAX_QUEUE_SIZE, OTEL_BSP_MAX_EXPORT_BATCH_SIZE; unset ones keep the SDK's defaults. */
function batchingFromEnv(env: NodeJS.ProcessEnv): Omit<import('@opentelemetry/sdk-trace').BatchSpanProcessorOptions, 'exporter'> {
  const read = (key: string) => {
    const value = Number(env[key]);
    return env[key]?.trim() && Number.isFinite(value) && value > 0 ? value : undefined;
  };
  return {
    scheduledDelayMillis: read('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: read('OTEL_BSP_EXPORT_TIMEOUT'),
    maxQueueSize: read('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: read('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  };
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
