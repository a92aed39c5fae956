/**
 * Operational failures to open the database: each message is one line an
 * operator can act on (what failed, where, what to do), with no password in it.
 * Entry points (server, CLI, db:migrate) print it as it is and exit 1.
 */
export class DatabaseUnavailableError extends Error {}

/** The embedded data directory is held by another process. */
export class DataDirBusyError extends DatabaseUnavailableError {}

/** A PostgreSQL URL as it may be shown: the password replaced, query parameters kept. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    return parsed.toString().replace(/:@/, '@');
  } catch {
    return '<unparseable DATABASE_URL>';
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
