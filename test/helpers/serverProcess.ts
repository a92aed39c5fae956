import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(__dirname, '../..');

/** `npm start`'s command (package.json), so that a spawned service runs with its flags (V8's heap sizes) as the README's does. */
export const NPM_START = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start as string;

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * A port unlikely to be taken by a parallel test file. It stays below Linux's ephemeral range (32768 and up), where
 * the outgoing connections of the run (to PostgreSQL, Redis, the servers under test) take their local ports: a port
 * drawn there was once already bound when a validating proxy came to listen on it.
 */
export const randomPort = () => 12000 + Math.floor(Math.random() * 20000);

/** The environment of a real service or CLI process on the embedded database in `dataDir`, whatever the test run's DATABASE_URL. */
export function embeddedEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_OPTIONS: '', ...extra };
}

/**
 * `describe` for tests whose service or CLI processes run on their own embedded database (embeddedEnv,
 * cliOn): they do the same work whatever the test run's DATABASE_URL, so the PostgreSQL pass skips them,
 * with this reason in their name, instead of running them a second time.
 */
export function describeEmbeddedProcesses(name: string, fn: () => void): void {
  if (!process.env.DATABASE_URL) return describe(name, fn);
  describe.skip(`${name} [runs in the embedded-database pass: its processes use their own embedded database whatever DATABASE_URL says]`, fn);
}

/**
 * `describe` for tests that do the same work whatever the test run's DATABASE_URL: on an embedded database they open
 * themselves, or on none (files, the static documents). The PostgreSQL pass skips them, with this reason in their
 * name, instead of running them a second time.
 */
export function describeIndependentOfDatabase(name: string, fn: () => void): void {
  if (!process.env.DATABASE_URL) return describe(name, fn);
  describe.skip(`${name} [runs in the embedded-database pass: it does the same work whatever DATABASE_URL says]`, fn);
}

/** Processes the test file started; whatever still runs when the file ends (a test timed out before its stop) is killed. */
const spawned = new Set<ChildProcess>();
afterAll(() => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Counts a process the test file started among those killed when the file ends, should a timed-out test leave it running. */
export function killedWithTestFile<C extends ChildProcess>(child: C): C {
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  return child;
}

/** Spawns `src/server.ts` as `npm start` does (its node flags, tsx), without waiting; `cwd` is the project directory (the checkout, or a copy of it). */
export function spawnServer(env: NodeJS.ProcessEnv, cwd = root): ChildProcess & { output(): string } {
  const child = killedWithTestFile(spawn(process.execPath, NPM_START.split(/\s+/).slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

/** Resolves once a spawned service logs that it listens; rejects if it exits first. */
export function listening(child: ChildProcess & { output(): string }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (child.output().includes('"listening on')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`server exited (${code}):\n${child.output()}`));
    });
  });
}

/** Starts the real service process on the embedded database in `dataDir` and waits until it listens. */
export async function startServer(dataDir: string, opts: { port?: number; env?: Record<string, string> } = {}): Promise<ServerProcess> {
  const port = opts.port ?? randomPort();
  const child = spawnServer(embeddedEnv(dataDir, { PORT: String(port), HOST: '127.0.0.1', ...opts.env }));
  await listening(child);
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: child.output,
    stop: () => {
      const done = exited(child);
      child.kill('SIGTERM');
      return done;
    },
  };
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
