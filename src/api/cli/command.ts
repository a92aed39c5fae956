/**
 * The CLI's commands as data (name, description, flags, examples, run) and the
 * commander program built from them. Parsing, help and usage errors happen
 * here, before any command runs, so `--help` and a mistyped flag never reach
 * the database.
 */
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { RequestContext } from '../../platform/context';

const CLI_NAME = 'npm run cli --';

/** A mistake in how the command was called (exit 2); the database is not touched. */
export class UsageError extends Error {}

/**
 * A command that ran to its end without doing what it was asked (an import that kept no row): its result is
 * printed on stdout as any other, the message on stderr, and the exit code is 1.
 */
export class Unaccomplished extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly result: unknown,
  ) {
    super(message);
  }
}

export interface CliCommand {
  /** The words after `npm run cli --`: a group and an action, e.g. "store create". */
  name: string;
  description: string;
  options: Option[];
  /** Complete command lines, shown under "Examples:" in the command's help. */
  examples: string[];
  /** A positional argument after the action (`<file>`); it arrives among the flags under its name. */
  argument?: { name: string; description: string };
  /** The flag of a service field whose flag is named otherwise (`eventTypes: '--events'`); the others are their field's kebab-case. Errors name fields by it. */
  fieldFlags?: Record<string, string>;
  /** Rules between flags, checked before the database is opened; throws UsageError. */
  check?: (flags: any) => void;
  /** Flags arrive camelCased (`--redirect-uris` → `redirectUris`); the result is printed as JSON. The operator acts (`ctx`). */
  run: (flags: any, ctx: RequestContext) => Promise<unknown>;
}

/** What a command returns when it has written its own output (a file to stdout): nothing more is printed. */
export const OUTPUT_WRITTEN = Symbol('output written');

/** Typed at the definition, erased in the list. */
export const defineCommand = <F>(c: Omit<CliCommand, 'check' | 'run'> & { check?: (flags: F) => void; run: (flags: F, ctx: RequestContext) => Promise<unknown> }): CliCommand => c;

export const GROUPS: Record<string, string> = {
  user: 'Dashboard users',
  store: 'Stores',
  category: "A store's categories",
  attributes: "A store's typed attributes (material, capacity, colour…), shared by its live and test catalogs",
  'product-types': "A store's product types: which attributes apply to their products and to their variants",
  collections: "A catalog's collections: manual (an ordered list of products) or smart (the products their rules match), published to the storefront or not",
  member: "A store's members and their permissions",
  locales: "A store's locales: its default one and up to 20 more (BCP 47 tags)",
  translations: "Translations of a store's products, categories and attributes in its further locales, and what is left to translate",
  currencies: "A store's currencies: its default one (the store's currency) and up to 10 more (ISO 4217)",
  token: 'Dashboard bearer tokens',
  key: "A store's public API keys",
  'oauth-app': 'OAuth apps',
  changes: "A store's change history",
  webhook: "A store's webhook endpoints and their delivery log",
  'test-catalog': "A store's test catalog: copy live products into it, generate fake products in it, delete it",
  products: "A store's products: create one, set a product's type and attribute values, its options and its variants (generate them, update many at once), or import and export them in bulk (CSV or JSON Lines)",
  uploads: 'Stored image files',
};

// Flag helpers: the value placeholder in `flags` ("--email <email>") is what help shows.

/**
 * Flags a command cannot run without. Checked here rather than by commander's makeOptionMandatory, whose
 * check comes before the one for unknown flags: `--nmae X` would be reported as a missing --name, without
 * the "(Did you mean --name?)" every other mistyped flag gets.
 */
const REQUIRED_FLAGS = new WeakSet<Option>();

/** Marks a flag (of any kind: a choice, a list, a date) as one the command cannot run without. */
export const required = <O extends Option>(option: O): O => {
  REQUIRED_FLAGS.add(option);
  return option;
};

export const requiredFlag = (flags: string, description: string) => required(new Option(flags, description));

export const isRequiredFlag = (option: Option) => REQUIRED_FLAGS.has(option);

export const optionalFlag = (flags: string, description: string) => new Option(flags, description);

export const choiceFlag = (flags: string, description: string, choices: readonly string[]) => new Option(flags, description).choices(choices);

/** "a,b, c" → ["a", "b", "c"]; the service validates each item. */
export const listFlag = (flags: string, description: string) =>
  new Option(flags, description).argParser((value: string) =>
    value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** A JSON object (`{"material":"cotton"}`); the service checks what it holds. */
export const jsonObjectFlag = (flags: string, description: string) =>
  new Option(flags, description).argParser((value: string) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new InvalidArgumentError('must be a JSON object, e.g. {"material":"cotton"}.');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidArgumentError('must be a JSON object, e.g. {"material":"cotton"}.');
    return parsed as Record<string, unknown>;
  });

/**
 * A JSON array (`[{"name":"Size","values":["S","M"]}]`); the service checks what it holds. `@path` reads the array
 * from a file, for lists longer than a command line takes.
 */
export const jsonArrayFlag = (flags: string, description: string, example: string) =>
  new Option(flags, description).argParser((value: string) => {
    let text = value;
    if (value.startsWith('@')) {
      try {
        text = readFileSync(value.slice(1), 'utf8');
      } catch {
        throw new InvalidArgumentError(`cannot read ${value.slice(1)}.`);
      }
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed)) throw new InvalidArgumentError(`must be a JSON array, e.g. ${example}.`);
    return parsed;
  });

export const wholeNumberFlag = (flags: string, description: string, min: number, max: number) =>
  new Option(flags, description).argParser((value: string) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
    return Number(value);
  });

export const dateFlag = (flags: string, description: string) =>
  new Option(flags, description).argParser((value: string) => {
    const date = new Date(value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) throw new InvalidArgumentError('must be an ISO 8601 date, e.g. 2027-01-31 or 2027-01-31T12:00:00Z.');
    return date;
  });

/** For commands that name one record either way (`--id` or `--client-id`, `--id` or `--token`). */
export function exactlyOne(flags: Record<string, unknown>, a: string, b: string) {
  const has = (k: string) => flags[k.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())] !== undefined;
  if (has(a) === has(b)) throw new UsageError(`give exactly one of --${a} or --${b}`);
}

interface ProgramOptions {
  /** Runs a parsed command; the entry point opens the database around it and prints the result. */
  execute: (command: CliCommand, flags: Record<string, unknown>) => Promise<void>;
  /** Where help and commander's errors go (process streams by default; tests capture them). */
  writeOut?: (text: string) => void;
  writeErr?: (text: string) => void;
}

/**
 * The commander program. Settings set here are inherited by every group and
 * command: errors throw (the entry point picks the exit code) instead of
 * exiting, unknown flags and commands name the closest match, and every error
 * is one line.
 */
export function buildProgram(commands: CliCommand[], opts: ProgramOptions): Command {
  const program = new Command(CLI_NAME)
    .description('Administration of the store catalog on the configured database (DATABASE_URL, or the embedded one in DATA_DIR). Results are JSON on stdout; errors one line on stderr.')
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: opts.writeOut ?? ((s) => process.stdout.write(s)),
      writeErr: opts.writeErr ?? ((s) => process.stderr.write(s)),
      // commander puts "(Did you mean …?)" on a second line; keep every error on one.
      outputError: (s, write) => write(`${s.trimEnd().replace(/\s*\n\s*/g, ' ')}\n`),
    });
  program.addHelpText(
    'after',
    `\nExample:\n  ${commands[0]?.examples[0] ?? ''}\n\nRun "${CLI_NAME} <command> <action> --help" for the flags of one action and an example, e.g. "${CLI_NAME} store create --help".\nExit codes: 0 success, 1 the command failed (error: <code>: <message>), 2 usage error (nothing was done).\n`,
  );

  const groups = new Map<string, Command>();
  for (const command of commands) {
    const [groupName, actionName] = command.name.split(' ');
    let group = groups.get(groupName);
    if (!group) {
      const members = commands.filter((c) => c.name.startsWith(`${groupName} `));
      group = program
        .command(groupName)
        .description(`${GROUPS[groupName] ?? groupName}: ${members.map((c) => c.name.split(' ')[1]).join(', ')}`)
        .addHelpText('after', `\nExamples:\n${members.flatMap((c) => c.examples).map((e) => `  ${e}`).join('\n')}\n`);
      groups.set(groupName, group);
    }
    const sub = group.command(actionName).description(command.description);
    if (command.argument) sub.argument(`<${command.argument.name}>`, command.argument.description);
    for (const option of command.options) sub.addOption(option);
    sub.addHelpText('after', `\nExample${command.examples.length > 1 ? 's' : ''}:\n${command.examples.map((e) => `  ${e}`).join('\n')}\n`);
    sub.action(async (...args: unknown[]) => {
      const flags = (command.argument ? { ...(args[1] as Record<string, unknown>), [command.argument.name]: args[0] } : args[0]) as Record<string, unknown>;
      // commander has refused unknown flags by now, each with its closest match.
      const missing = command.options.find((o) => isRequiredFlag(o) && flags[o.attributeName()] === undefined);
      if (missing) sub.error(`error: required option '${missing.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue', exitCode: 2 });
      command.check?.(flags);
      await opts.execute(command, flags);
    });
  }
  return program;
}

/** Next to a secret: it cannot be shown again. */
export const SHOWN_ONCE = 'shown once: store it now';
