/**
 * `npm run cli -- <command> [--flags]`: administration on the configured
 * database (DATABASE_URL or the embedded PGlite). Prints JSON results.
 */
import { type CliCommand, CliError, parseFlags } from './cli/args';
import { apiKeyCommands } from './cli/apiKeys';
import { oauthCommands } from './cli/oauth';
import { storeCommands } from './cli/stores';
import { ConfigError, loadConfig } from './config';
import { closeDatabase, openDatabase } from './db/client';
import { AppError } from './errors';

const commands: CliCommand[] = [...storeCommands, ...apiKeyCommands, ...oauthCommands];

function usage(): string {
  return ['usage: npm run cli -- <command> [flags]', '', ...commands.map((c) => `  ${c.name.padEnd(20)} ${c.usage}`)].join('\n');
}

async function main(argv: string[]) {
  const name = argv.slice(0, 2).join(' ');
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.error(argv.length ? `unknown command "${name}"\n\n${usage()}` : usage());
    return 2;
  }
  const flags = parseFlags(argv.slice(2));
  await openDatabase(loadConfig().database);
  try {
    console.log(JSON.stringify(await command.run(flags), null, 2));
    return 0;
  } finally {
    await closeDatabase();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((e) => {
    if (e instanceof CliError || e instanceof ConfigError) console.error(`error: ${e.message}\n\n${usage()}`);
    else if (e instanceof AppError) console.error(`error (${e.code}): ${e.message}`);
    else console.error(e);
    process.exit(1);
  });
