/** Metrics and tracing of every GraphQL operation. */

import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { type DocumentNode, getOperationAST, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { graphqlOperationDuration } from '../../platform/metrics';

const tracer = trace.getTracer('store-catalog.graphql');

/**
 * Times every operation /graphql executes (graphql_operation_duration_seconds), from the
 * start of execution to its result, by operation type, root field and outcome; with
 * tracing on (src/platform/tracing.ts) the execution is also a span, `query products`, whose
 * database statements are its children.
 *
 * The operation name is not a metric label: clients choose it freely, and each name would
 * be a new series. The root field is the schema's (`products`, `createProduct`), so the
 * series are bounded by the schema: an operation with several root fields (or a
 * fragment at its root) is `multiple`, one with only `__typename` is `__typename`.
 */
export function operationTelemetry(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const started = process.hrtime.bigint();
      const { labels, name } = labelsOf(args.document, args.operationName);
      const span = tracer.startSpan(`${labels.type} ${labels.root_field}`, {
        attributes: { 'graphql.operation.type': labels.type, 'graphql.operation.name': name },
      });
      setExecuteFn((executeArgs) => context.with(trace.setSpan(context.active(), span), () => executeFn(executeArgs)));
      return {
        onExecuteDone({ result }) {
          const errors = 'errors' in result ? result.errors : undefined;
          const outcome = errors?.length ? 'error' : 'ok';
          graphqlOperationDuration.observe({ ...labels, outcome }, Number(process.hrtime.bigint() - started) / 1e9);
          if (errors?.length) span.setStatus({ code: SpanStatusCode.ERROR, message: errors[0].message });
          span.end();
        },
      };
    },
  };
}

/** An operation's labels, per document and operation name (documents are parsed once per text, REST's once per route). */
const labelsByDocument = new WeakMap<DocumentNode, Map<string | null, { labels: { type: string; root_field: string }; name: string }>>();
function labelsOf(document: DocumentNode, operationName: string | null | undefined) {
  let byName = labelsByDocument.get(document);
  if (!byName) labelsByDocument.set(document, (byName = new Map()));
  let known = byName.get(operationName ?? null);
  if (!known) {
    const operation = getOperationAST(document, operationName);
    known = { labels: { type: operation?.operation ?? 'unknown', root_field: rootFieldOf(document, operationName) }, name: operation?.name?.value ?? '' };
    // Bounded by the document's operations: a name no operation has is not kept.
    if (operation) byName.set(operationName ?? null, known);
  }
  return known;
}

function rootFieldOf(document: DocumentNode, operationName: string | null | undefined): string {
  const selections = getOperationAST(document, operationName)?.selectionSet.selections ?? [];
  const fields = new Set<string>();
  for (const s of selections) fields.add(s.kind === Kind.FIELD ? s.name.value : 'multiple');
  fields.delete('__typename');
  if (fields.size === 0) return selections.length ? '__typename' : 'unknown';
  return fields.size === 1 ? [...fields][0] : 'multiple';
}
