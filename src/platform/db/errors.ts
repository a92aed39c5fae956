/** Database failures as operators and clients see them: one-line startup errors and 503 on a lost connection. */

import { AppError } from '../errors';

/**
 * Operational failures to open the database: each message is one line an
 * operator can act on (what failed, where, what to do), with no password in it.
 * Entry points (server, CLI, db:migrate) print it as it is and exit 1.
 */
export class DatabaseUnavailableError extends Error {}

/** The embedded data directory is held by another process. */
export class DataDirBusyError extends DatabaseUnavailableError {}

/** A connection URL (`variable` names where it came from) as it may be shown: the password removed, query parameters kept. */
export function redactedUrl(url: string, variable = 'DATABASE_URL'): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    return parsed.toString().replace(/:@/, '@');
  } catch {
    return `<unparseable ${variable}>`;
  }
}

/** Turns a driver's connection error into one actionable line. */
export function describeConnectionFailure(err: unknown, shownUrl: string): string {
  const e = err as { code?: string; message?: string; errors?: unknown[] };
  // `pg` reports an unreachable host name resolving to several addresses as an AggregateError.
  const code = e.code ?? (e.errors?.[0] as { code?: string } | undefined)?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return `cannot connect to PostgreSQL at ${shownUrl}: connection refused (is the server running and listening there?)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot connect to PostgreSQL at ${shownUrl}: the host name does not resolve`;
    case 'ETIMEDOUT':
    case 'CONNECT_TIMEOUT':
      return `cannot connect to PostgreSQL at ${shownUrl}: the connection timed out`;
    case 'ENOENT':
      return `cannot connect to PostgreSQL at ${shownUrl}: no server socket there`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${shownUrl} refused the credentials: ${e.message ?? 'authentication failed'} (check the user and password in DATABASE_URL)`;
    case '3D000':
      return `PostgreSQL at ${shownUrl}: ${e.message ?? 'the database does not exist'} (create it, e.g. with createdb, or fix the name in DATABASE_URL)`;
    case '53300':
      return `PostgreSQL at ${shownUrl} has no free connection slots: ${e.message ?? 'too many connections'}`;
    case '57P03':
      return `PostgreSQL at ${shownUrl} is starting up or shutting down; try again shortly`;
    default: {
      const message = (e.message ?? String(err)).split('\n')[0];
      return `cannot use PostgreSQL at ${shownUrl}: ${message}`;
    }
  }
}

/** SQLSTATEs and socket errors of a connection that is gone or cannot be had (not of a statement that failed). */
const CONNECTION_CODES = new Set([
  '57P01', // terminated by an administrator (pg_terminate_backend), or a fast shutdown
  '57P02', // crash shutdown
  '57P03', // cannot connect now (starting up, shutting down)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too many connections
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'P1001', // Prisma: cannot reach the database server
  'P1002', // Prisma: the server timed out
  'P1017', // Prisma: the server closed the connection
  'P2024', // Prisma: timed out taking a connection from the pool
]);
const CONNECTION_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const CONNECTION_MESSAGES = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly|Client was closed and is not queryable/i;

/**
 * Whether an error says the database connection was lost or could not be had
 * (a failover, a killed backend, an exhausted pool), as opposed to a
 * statement that failed: such a request answers 503 with Retry-After, and a
 * read may be tried again on a fresh connection. Looks through the wrappers
 * Prisma and the driver adapter put around the driver's error.
 */
export function isConnectionLost(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e = queue.shift() as {
      code?: unknown;
      kind?: unknown;
      originalCode?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown };
      originalError?: unknown;
      thrownValue?: unknown;
    } | null;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    if (typeof e.originalCode === 'string' && CONNECTION_CODES.has(e.originalCode)) return true;
    if (typeof e.kind === 'string' && CONNECTION_KINDS.has(e.kind)) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
    // thrownValue: GraphQL wraps a thrown value that is not an Error of its own realm (a socket error raised by
    // Node's core where the service runs in a separate VM context, as under the test runner) in NonErrorThrown.
    queue.push(e.cause, e.meta?.driverAdapterError, e.originalError, e.thrownValue);
  }
  return false;
}

/** Seconds a client is asked to wait before retrying after a lost connection (the pool reconnects at once). */
const RETRY_AFTER_SECONDS = 1;

/** The answer to a request whose database connection was lost: 503 service_unavailable with Retry-After. */
export function databaseUnavailable(): AppError {
  return new AppError('service_unavailable', 'The database connection was lost while answering; retry the request', {
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
  });
}
