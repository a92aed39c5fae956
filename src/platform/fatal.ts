/** How entry points report an unrecoverable error and exit. */

import { ConfigError, loadConfig } from './config';
import { DatabaseUnavailableError } from './db/errors';
import { MigrationError } from './db/migrate';
import { StartupError } from './preconditions';

/**
 * How the entry points (server, worker, db:migrate) end on an error they cannot
 * recover from, all of them at start: one line on stderr and exit 1, never a
 * stack trace an operator has to read through. Problems an operator fixes
 * (configuration, a port, an unreachable or busy database or Redis, a failed
 * migration) are printed as their message says; anything else is a bug, named
 * as one, whose stack trace LOG_LEVEL=debug prints.
 */
export function exitOnFatalError(err: unknown): never {
  if (isOperational(err)) console.error(`error: ${oneLine(err.message)}`);
  else if (debugging()) console.error(err);
  else console.error(`error: unexpected failure at start: ${oneLine(err instanceof Error ? err.message : String(err))} (LOG_LEVEL=debug prints the stack trace)`);
  process.exit(1);
}

export function isOperational(err: unknown): err is Error {
  return err instanceof ConfigError || err instanceof DatabaseUnavailableError || err instanceof MigrationError || err instanceof StartupError;
}

/** A message of several lines (a configuration's problems, one a line) as one. */
export function oneLine(message: string): string {
  return message.trim().replace(/:\s*\n\s*/, ': ').replace(/\s*\n\s*/g, '; ');
}

function debugging(): boolean {
  try {
    return ['debug', 'trace'].includes(loadConfig().logLevel);
  } catch {
    return false;
  }
}
