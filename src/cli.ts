/**
 * `npm run cli -- <command> [flags]`: administration on the configured
 * database (DATABASE_URL or the embedded PGlite in DATA_DIR).
 */
import { CommanderError } from 'commander';
import { buildProgram, type CliCommand, OUTPUT_WRITTEN, Unaccomplished, UsageError } from './api/cli/command';
import { commands } from './cliCommands';
import { operatorContext } from './api/cli/context';
import { loadConfig } from './platform/config';
import type { RequestContext } from './platform/context';
import { closeDatabase, openDatabase } from './platform/db/client';
import { AppError } from './platform/errors';
import { isOperational } from './platform/fatal';
import { camelToSnake } from './platform/naming';

/** The one place the CLI opens and closes the database, around one command; the command acts as the operator. */
async function withDatabase<T>(fn: (ctx: RequestContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    return await fn(operatorContext(config, database.prisma));
  } finally {
    await closeDatabase();
  }
}


/**
 * A service error as one line; a message made of field errors names each field by the command's flag for it
 * (`--inventory-quantity`), else as the REST API does (snake_case).
 */
function describeAppError(e: AppError, command: CliCommand | undefined): string {
  const fieldErrors = (rename: (field: string) => string) => e.errors?.map((f) => `${rename(f.field)}: ${f.message}`).join('; ');
  const byFlag = flagNaming(command);
  const message = e.message === fieldErrors((f) => f) ? fieldErrors(byFlag)! : e.message;
  return `${e.code}: ${message}`.replace(/\s*\n\s*/g, ' ');
}

/**
 * A field path named by the command's flag for its first part (`inventoryQuantity` → `--inventory-quantity`), the
 * rest in snake_case as a JSON flag's keys are given (`--variants.0.compare_at_price`; attribute codes are
 * snake_case already).
 */
function flagNaming(command: CliCommand | undefined): (field: string) => string {
  const flags = new Map([
    ...(command?.options ?? []).filter((o) => o.long).map((o): [string, string] => [o.attributeName(), o.long!]),
    ...Object.entries(command?.fieldFlags ?? {}),
  ]);
  return (field) => {
    const [head, ...rest] = field.split('.');
    const flag = flags.get(head);
    return [flag ?? camelToSnake(head), ...rest.map(camelToSnake)].join('.');
  };
}

/** Prints what went wrong and returns the exit code; `command` is the one that ran, if any. */
function report(e: unknown, command?: CliCommand): number {
  if (e instanceof CommanderError) {
    // commander has already printed help or its one-line error.
    return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 2;
  }
  if (e instanceof Unaccomplished) {
    process.stdout.write(`${JSON.stringify(e.result, null, 2)}\n`);
    console.error(`error: ${e.code}: ${e.message}`);
    return 1;
  }
  if (e instanceof UsageError) {
    console.error(`error: ${e.message} (see --help)`);
    return 2;
  }
  if (e instanceof AppError) {
    console.error(`error: ${describeAppError(e, command)}`);
    return 1;
  }
  // Configuration, an unreachable or busy database, a failed migration: one line. Anything else is a bug and keeps its stack.
  if (isOperational(e)) console.error(`error: ${e.message.replace(/\s*\n\s*/g, '; ')}`);
  else console.error(e);
  return 1;
}

/**
 * Runs one command. Output: the result as pretty-printed snake_case JSON on stdout, exit 0.
 * Errors: one line `error: …` on stderr; exit 1 when the command failed
 * (`error: <code>: <message>` for the service's errors; a command that ran
 * but did not do what it was asked prints its result too), exit 2 for a usage
 * error (unknown command or flag, missing or malformed value), which is
 * reported before the database is opened.
 */
async function main(argv: string[]): Promise<number> {
  let ran: CliCommand | undefined;
  const program = buildProgram(commands, {
    execute: async (command, flags) => {
      ran = command;
      const result = await withDatabase((ctx) => command.run(flags, ctx));
      if (result !== OUTPUT_WRITTEN) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    },
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    return report(e, ran);
  }
}

void main(process.argv.slice(2)).then((code) => {
  // Exit once both streams have flushed (a pipe may still hold the JSON); the database is closed by then.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
});
