/** Retrying a query once when its database connection was lost. */

import { getOperationAST, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isConnectionLost } from '../../platform/db/errors';

/**
 * A GraphQL query that lost its database connection (a failover, a killed
 * backend) runs once more on a fresh connection: a query only reads, so
 * running it again is safe. A mutation is never retried here; it answers 503
 * service_unavailable with Retry-After and the client decides.
 */
export function retryReadsOnLostConnection(): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn, args }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      setExecuteFn(async (executeArgs) => {
        const first = await executeFn(executeArgs);
        const errors = 'errors' in first ? (first.errors as readonly GraphQLError[] | undefined) : undefined;
        if (!errors?.some((e) => isConnectionLost(e.originalError))) return first;
        return executeFn(executeArgs);
      });
    },
  };
}
