/** How entry points report an unrecoverable error and exit. */

import { ConfigError } from './config';
import { DatabaseUnavailableError } from './db/errors';
import { MigrationError } from './db/migrate';

/**
 * How the entry points (server, CLI, db:migrate) end on an error they cannot
 * recover from. Problems an operator fixes (configuration, an unreachable or
 * busy database, a failed migration) are printed as one line; anything else
 * is a bug and keeps its stack trace.
 */
export function exitOnFatalError(err: unknown): never {
  if (isOperational(err)) console.error(`error: ${err.message}`);
  else console.error(err);
  process.exit(1);
}

export function isOperational(err: unknown): err is Error {
  return err instanceof ConfigError || err instanceof DatabaseUnavailableError || err instanceof MigrationError;
}
