/**
 * Child processes of a run: the servers under test (service build and
 * baselines, pinned to core 0) and the load generator (pinned to core 1).
 * Every child is registered so it is killed however the run ends.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { cpus } from 'node:os';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadResult, LoadSpec } from './load';

/** The built database client of a checkout (src/platform/db since the domain layout, src/db before). */
const dbClientModule = (root: string) => ['dist/src/platform/db/client.js', 'dist/src/db/client.js'].map((p) => path.join(root, p)).find((p) => existsSync(p)) ?? '';

export const ROOT = path.resolve(__dirname, '..');
const PROBE = path.join(__dirname, 'probe.cjs');

const children = new Set<ChildProcess>();
export function killAllChildren() {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
process.on('exit', killAllChildren);

const hasTaskset = (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return cpus().length >= 2;
  } catch {
    return false;
  }
})();

export const pinning = hasTaskset ? 'servers on core 0, load generator on core 1 (taskset)' : 'not pinned (taskset missing or a single core)';

/** Spawns `node args…` pinned to one core when possible; taskset execs node, so the pid is node's. */
export function spawnNode(args: string[], opts: { cpu: number; env: Record<string, string>; ipc?: boolean; cwd?: string }): ChildProcess {
  const [cmd, argv] = hasTaskset ? ['taskset', ['-c', String(opts.cpu), process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(cmd, argv, {
    cwd: opts.cwd ?? ROOT,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe', ...(opts.ipc ? ['ipc' as const] : [])],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** The production build of the checkout at `root` exists and no file under its src/ (nor the build config) changed since. */
/**
 * The environment the benchmark runs the service with: production, no demo
 * seed, request logging off (as in the baselines) and a rate limit no load
 * reaches, so the public API's limiter is not what is measured. `url` null:
 * the embedded database in `dataDir`.
 */
export function serviceEnv(url: string | null, dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    ...(url ? { DATABASE_URL: url } : {}),
    DATABASE_POOL_SIZE: '10',
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_LIVE_PER_SECOND: '1000000000',
    RATE_LIMIT_TEST_PER_SECOND: '1000000000',
    HOST: '127.0.0.1',
    ...extra,
  };
}

export function buildIsCurrent(root: string): boolean {
  try {
    const built = statSync(path.join(root, 'dist/src/server.js')).mtimeMs;
    const sources = Math.max(newestMtime(path.join(root, 'src')), ...['tsconfig.json', 'tsconfig.build.json'].map((f) => statSync(path.join(root, f)).mtimeMs));
    return built > sources;
  } catch {
    return false;
  }
}

export type TargetName = 'service' | 'B0' | 'B1' | 'B1-lean' | 'B3';

export interface Target {
  name: TargetName;
  url: string;
  pid: number;
  /** SQL statements the process has sent (its own counter), or null when it keeps none. */
  queryCount(): Promise<number | null>;
  /** Resets the kernel's peak-RSS mark (VmHWM) so the next reading covers only what follows. */
  resetPeakRss(): void;
  rssKb(): { current: number; peak: number };
  stop(): Promise<void>;
  output(): string;
}

const SCRIPTS: Record<TargetName, string[]> = {
  service: [path.join(ROOT, 'dist/src/server.js')],
  B0: ['--import', 'tsx', path.join(__dirname, 'baselines/b0.ts')],
  B1: ['--import', 'tsx', path.join(__dirname, 'baselines/b1.ts')],
  'B1-lean': ['--import', 'tsx', path.join(__dirname, 'baselines/b1lean.ts')],
  B3: ['--import', 'tsx', path.join(__dirname, 'baselines/b3.ts')],
};

async function waitReady(url: string, child: ChildProcess, out: () => string, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return Date.now() - started;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server not ready after ${timeoutMs} ms:\n${out()}`);
}

/** `K=V` assignments (as the bench's --service-env and --env options take them) as an environment; a value may hold '='. */
export function environmentOf(assignments: string[]): Record<string, string> {
  return Object.fromEntries(assignments.filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));
}

/** package.json's start:prod: the environment it sets before node, and node's flags before the server. */
function startProd(root: string): { env: Record<string, string>; flags: string[] } {
  const script: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts['start:prod'];
  const parts = /^((?:\S+=\S* )*)node (.*)dist\/src\/server\.js$/.exec(script);
  if (!parts) throw new Error(`package.json's start:prod is not "[K=V …] node [flags …] dist/src/server.js": ${script}`);
  const words = (text: string) => text.trim().split(/\s+/).filter(Boolean);
  return { env: environmentOf(words(parts[1])), flags: words(parts[2]) };
}

/**
 * The node flags the bench starts the service with: production's (package.json's start:prod), or for an experiment
 * those of BENCH_SERVICE_NODE_FLAGS (e.g. BENCH_SERVICE_NODE_FLAGS= for none).
 */
export function serviceNodeFlags(root: string = ROOT): string[] {
  const override = process.env.BENCH_SERVICE_NODE_FLAGS;
  return override === undefined ? startProd(root).flags : override.trim().split(/\s+/).filter(Boolean);
}

/** The environment production sets before node (package.json's start:prod: NODE_ENV, glibc's MALLOC_MMAP_THRESHOLD_). */
export function startProdEnv(root: string = ROOT): Record<string, string> {
  return startProd(root).env;
}

/**
 * Starts a server under test and waits until it answers. `root` runs the
 * service build of another checkout (a git worktree of an earlier commit):
 * its dist/ and its working directory. The service gets serviceNodeFlags() unless `nodeFlags` says otherwise;
 * they go on node's command line, as in production (NODE_OPTIONS refuses some V8 flags). It also gets start:prod's
 * environment (startProdEnv), under what `env` sets.
 */
export async function startTarget(
  name: TargetName,
  port: number,
  env: Record<string, string>,
  opts: { root?: string; nodeFlags?: string[] } = {},
): Promise<Target & { readyMs: number }> {
  const root = opts.root ?? ROOT;
  const script = name === 'service' ? [path.join(root, 'dist/src/server.js')] : SCRIPTS[name];
  const nodeFlags = opts.nodeFlags ?? (name === 'service' ? serviceNodeFlags(root) : []);
  const child = spawnNode([...nodeFlags, '-r', PROBE, ...script], {
    cpu: 0,
    ipc: true,
    cwd: root,
    env: { ...(name === 'service' ? startProdEnv(root) : {}), ...env, PORT: String(port), BENCH_DB_CLIENT_MODULE: dbClientModule(root) },
  });
  let log = '';
  const keep = (b: Buffer) => {
    log = (log + b.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitReady(`${url}${name === 'service' ? '/readyz' : '/healthz'}`, child, () => log);
  let nextId = 0;
  const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status())?.[1] ?? NaN);
  return {
    name,
    url,
    pid: child.pid!,
    readyMs,
    output: () => log,
    queryCount: () =>
      new Promise((resolve) => {
        const id = ++nextId;
        const onMessage = (m: { type?: string; id?: number; queries?: number | null }) => {
          if (m?.type !== 'stats' || m.id !== id) return;
          child.off('message', onMessage);
          resolve(m.queries ?? null);
        };
        child.on('message', onMessage);
        child.send({ type: 'stats', id });
      }),
    resetPeakRss: () => {
      try {
        writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
      } catch {
        /* not permitted: the peak then covers the process lifetime */
      }
    },
    rssKb: () => ({ current: kb('VmRSS'), peak: kb('VmHWM') }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** The load generator child; one per run, reused for every measurement. */
export class LoadGenerator {
  private child = spawnNode(['--import', 'tsx', path.join(__dirname, 'load.ts')], { cpu: 1, ipc: true, env: {} });
  private nextId = 0;
  private pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  constructor() {
    this.child.stderr!.on('data', (b: Buffer) => process.stderr.write(b));
    this.child.on('message', (m: { id: number; result?: LoadResult; error?: string }) => {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) p?.reject(new Error(m.error));
      else p?.resolve(m.result!);
    });
    this.child.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`load generator exited (${code})`));
      this.pending.clear();
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  run(spec: LoadSpec): Promise<LoadResult> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, spec });
    });
  }

  stop() {
    this.child.kill('SIGTERM');
  }
}

/**
 * TCP ports nothing listens on now, chosen by the kernel: all held open at once, so they are distinct, then
 * released for the targets to bind. Fixed ranges derived from the pid once landed on PostgreSQL's 5432 (and
 * could land on Redis's 6379 or RabbitMQ's ports), so a target failed to start.
 */
export async function freePorts(count: number): Promise<number[]> {
  const probes = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Server>((resolve, reject) => {
          const probe = createServer();
          probe.once('error', reject);
          probe.listen(0, '127.0.0.1', () => resolve(probe));
        }),
    ),
  );
  const ports = probes.map((p) => (p.address() as AddressInfo).port);
  await Promise.all(probes.map((p) => new Promise((resolve) => p.close(resolve))));
  return ports;
}

export const freePort = async (): Promise<number> => (await freePorts(1))[0];
