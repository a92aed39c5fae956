/** Which database an operation reads: a streaming replica for a query that may read one, the primary otherwise. */

import { type ExecutionResult, getOperationAST, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Principal } from '../../kernel/principal';
import { currentDatabase } from '../../platform/db/client';
import { type ReadTarget, readingFrom, type ReplicaSet } from '../../platform/db/replicas';
import type { WritePositions } from '../../platform/db/writePositions';
import { AppError } from '../../platform/errors';
import { requestLog } from '../../platform/logger';
import { databaseReads } from '../../platform/metrics';
import type { GraphQLContext } from './builder';

/**
 * With DATABASE_REPLICA_URLS set (nothing happens without: no lookup, no query):
 *
 * - A query operation (every GraphQL query; every REST GET, which runs one) reads from a replica, round robin
 *   among those serving, that has replayed the caller's last write; with none, from the primary. Its Prisma reads
 *   take the replica from the context (`ctx.readDb`), its direct reads (readRows) from the async scope. Writes
 *   and transactions inside it still go to the primary (`ctx.db`).
 * - A query that fails on a replica with anything but the service's own errors runs once more on the primary,
 *   and the replica serves nothing more until its monitor sees it well: no request fails because of a replica.
 * - After a mutation (committed or not), the primary's write position is recorded for the caller (per user,
 *   per API credential or OAuth grant; src/platform/db/writePositions.ts), so its next read, through any
 *   instance sharing the Redis, goes to a replica only once that replica has replayed past it.
 */
export function readsFromReplicas(positions: WritePositions | undefined, log: Logger): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const replicas = currentDatabase()?.replicas;
      if (!replicas || !positions) return;
      const operation = getOperationAST(args.document, args.operationName)?.operation;
      const ctx = args.contextValue as unknown as GraphQLContext;
      const client = clientOf(ctx.principal);
      if (operation === 'mutation') {
        if (!client) return;
        setExecuteFn(async (a) => {
          try {
            return await executeFn(a);
          } finally {
            await recordWrite(replicas, positions, client, log);
          }
        });
        return;
      }
      if (operation !== 'query') return;
      setExecuteFn(async (a) => {
        const route = await routeRead(replicas, positions, client);
        if (!route.replica) {
          databaseReads.inc({ target: 'primary', reason: route.reason });
          return executeFn(a);
        }
        const replica = route.replica;
        ctx.readDb = replica.prisma;
        ctx.readTarget = replica;
        const first = (await readingFrom(replica, () => executeFn(a))) as ExecutionResult;
        const failure = first.errors?.find((e: GraphQLError) => e.originalError && !(e.originalError instanceof AppError));
        if (!failure) {
          databaseReads.inc({ target: 'replica', reason: 'caught_up' });
          return first;
        }
        replicas.reportFailure(replica, failure.originalError);
        databaseReads.inc({ target: 'primary', reason: 'replica_failed' });
        ctx.readDb = ctx.db;
        ctx.readTarget = undefined;
        return executeFn(a);
      });
    },
  };
}

/** The replica a query operation reads, or why the primary serves it. */
async function routeRead(replicas: ReplicaSet, positions: WritePositions, client: string | null): Promise<{ replica?: ReadTarget; reason: string }> {
  if (!replicas.anyServing()) return { reason: 'no_replica_serving' };
  const after = client ? await positions.lastWrite(client) : null;
  if (after === undefined) return { reason: 'position_unknown' };
  const replica = replicas.choose(after);
  return replica ? { replica, reason: 'caught_up' } : { reason: after === null ? 'no_replica_serving' : 'behind_own_write' };
}

async function recordWrite(replicas: ReplicaSet, positions: WritePositions, client: string, log: Logger): Promise<void> {
  try {
    await positions.record(client, await replicas.primaryPosition());
  } catch (err) {
    // The primary did not answer: the mutation itself has failed or will show it; nothing more to record.
    requestLog(log).warn({ err }, 'could not record the write position for read-your-writes');
  }
}

/** Whose writes a read must see: the dashboard user, or the public API credential (an OAuth app's grant, not its token); null for nobody. */
function clientOf(p: Principal): string | null {
  switch (p.kind) {
    case 'user':
      return `user:${p.userId}`;
    case 'api_key':
    case 'oauth_app':
      return `credential:${p.bucket}`;
    default:
      return null;
  }
}
