/** Minimal `--flag value` / `--flag` parser for the CLI (no positional magic, clear errors). */
export function parseFlags(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new CliError(`unexpected argument "${a}"`);
    const [key, inline] = a.slice(2).split('=', 2);
    if (inline !== undefined) out[key] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out[key] = argv[++i];
    else out[key] = true;
  }
  return out;
}

export class CliError extends Error {}

export function required(flags: Record<string, string | true>, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new CliError(`--${name} is required`);
  return v;
}

export function optional(flags: Record<string, string | true>, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function list(flags: Record<string, string | true>, name: string): string[] {
  const v = optional(flags, name);
  return v ? v.split(',').map((s) => s.trim()).filter(Boolean) : [];
}

export interface CliCommand {
  /** e.g. "store create" */
  name: string;
  usage: string;
  run: (flags: Record<string, string | true>) => Promise<unknown>;
}
