/** RequestContext, the one argument every service takes first, and how entry points create it. */

import type { Logger } from 'pino';
import type { Config } from './config';
import type { PrismaClient } from './db/client';
import type { Mode } from '../kernel/access';
import type { EventSource } from '../kernel/events';
import type { Principal } from '../kernel/principal';

/**
 * Everything a request knows about itself, whichever entry point it came in by
 * (dashboard GraphQL, merchant REST, public API, OAuth endpoints, the CLI, a
 * scheduled job). Services take it first, as Vendure's services take their
 * RequestContext: they read the principal, the clock and the database from it,
 * never from globals, and every write they make records its events through it
 * (src/platform/outbox/outbox.ts).
 */
export interface RequestContext {
  requestId: string;
  /** The entry point; recorded on every event. */
  source: EventSource;
  /** Who acts: a dashboard user, an API key, an OAuth app, the CLI operator, the system, or nobody yet. */
  principal: Principal;
  /** The mode the request is served in. Public API: the credential's; every other entry point: live. */
  mode: Mode;
  /** The store the principal is confined to (public API credentials); null when the store comes with each operation. */
  storeId: string | null;
  /** The request's clock: expiry checks, timestamps and events read it, so tests can move time. */
  now: () => Date;
  log: Logger;
  config: Config;
  /** Origin used for absolute URLs (image URLs, Location headers). */
  baseUrl: string;
  /** The database (the primary): writes, transactions and reads that decide a write. Inside transaction() a TransactionContext carries the transaction instead. */
  db: PrismaClient;
  /**
   * The database for reads that may be a moment old (lists, reads, history, exports): in a query operation, a
   * streaming replica that has replayed the caller's own writes when one is configured and well
   * (src/api/graphql/replicaReads.ts); otherwise, and always in a mutation or a transaction, `db` itself.
   */
  readDb: PrismaClient;
}

interface ContextInit {
  requestId: string;
  source: EventSource;
  principal: Principal;
  config: Config;
  log: Logger;
  db: PrismaClient;
  readDb?: PrismaClient;
  mode?: Mode;
  storeId?: string | null;
  now?: () => Date;
  baseUrl?: string;
}

/** The one way to make a context; defaults: live mode, no store confinement, the wall clock, the configured public URL. */
export function createContext(init: ContextInit): RequestContext {
  return {
    requestId: init.requestId,
    source: init.source,
    principal: init.principal,
    mode: init.mode ?? 'live',
    storeId: init.storeId ?? null,
    now: init.now ?? (() => new Date()),
    log: init.log,
    config: init.config,
    baseUrl: init.baseUrl ?? init.config.publicBaseUrl ?? `http://localhost:${init.config.port}`,
    db: init.db,
    readDb: init.readDb ?? init.db,
  };
}
