import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';

/** The local server's maintenance database; every bench database lives next to it. */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export const adminQuery = <R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  withClient(ADMIN_URL, async (c) => (await c.query<R>(sql, params)).rows);

async function reachable(): Promise<boolean> {
  try {
    await adminQuery('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/** Starts the local cluster when it is down (as CI does), then waits for it to accept connections. */
export async function ensurePostgres(log: (s: string) => void): Promise<void> {
  if (await reachable()) return;
  const versions = (() => {
    try {
      return readdirSync('/etc/postgresql');
    } catch {
      return [];
    }
  })();
  if (!versions.length) throw new Error(`PostgreSQL is not reachable at ${ADMIN_URL} and no local cluster was found under /etc/postgresql`);
  log(`PostgreSQL is down: starting cluster ${versions[0]}/main`);
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', versions[0], 'main', 'start'], { stdio: 'inherit' });
  for (let i = 0; i < 30; i++) {
    if (await reachable()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('PostgreSQL did not come up within 30 s');
}

export async function databaseExists(name: string): Promise<boolean> {
  return (await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
}

export async function dropDatabase(name: string): Promise<void> {
  await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}

/**
 * Drops the databases named `<prefix>_<pid>_…` whose process is gone (killed
 * before it could clean up); a running process keeps its own.
 */
export async function dropAbandonedDatabases(prefix: string): Promise<void> {
  const rows = await adminQuery<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix.replace(/_/g, '\\_')}\\_%`]);
  for (const { datname } of rows) {
    const pid = Number(datname.slice(prefix.length + 1).split('_')[0]);
    let alive = true;
    try {
      process.kill(pid, 0);
    } catch {
      alive = false;
    }
    if (!alive) await dropDatabase(datname);
  }
}

export async function databaseComment(name: string): Promise<string | null> {
  const rows = await adminQuery<{ c: string | null }>('SELECT shobj_description(oid, \'pg_database\') AS c FROM pg_database WHERE datname = $1', [name]);
  return rows[0]?.c ?? null;
}

export async function serverVersion(): Promise<string> {
  const [r] = await adminQuery<{ v: string }>("SELECT current_setting('server_version') AS v");
  return r.v;
}

/**
 * pg_stat_statements needs shared_preload_libraries, i.e. a server restart.
 * The bench never restarts a shared server: it uses the extension when it is
 * already loaded and otherwise falls back to the processes' own statement counters.
 */
export async function statementStatsAvailable(url: string): Promise<boolean> {
  const [r] = await adminQuery<{ l: string }>("SELECT current_setting('shared_preload_libraries') AS l");
  if (!r.l.split(',').some((lib) => lib.trim() === 'pg_stat_statements')) return false;
  await withClient(url, (c) => c.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements'));
  return true;
}

/** Statements executed in one database so far (pg_stat_statements). */
export async function statementCalls(dbName: string): Promise<number> {
  const [r] = await adminQuery<{ n: string | null }>(
    'SELECT sum(calls)::bigint AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)',
    [dbName],
  );
  return Number(r?.n ?? 0);
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** user + system CPU of a process in microseconds, from /proc/<pid>/stat; null once it has exited. */
export function processCpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLK_TCK;
  } catch {
    return null;
  }
}

/** CPU time the whole machine spent busy (all cores, every process), in microseconds, from /proc/stat; null where it cannot be read. */
export function machineBusyMicros(): number | null {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
    return ((user + nice + system + irq + softirq + (steal || 0)) * 1e6) / CLK_TCK;
  } catch {
    return null;
  }
}

/**
 * Sums the CPU time of the PostgreSQL backends serving one database. Pools
 * open and close connections, so backends are polled while the load runs
 * and each one's last reading counts (the tail after a last poll is lost).
 */
export class BackendCpuMeter {
  private start = new Map<number, number>();
  private last = new Map<number, number>();
  private timer?: NodeJS.Timeout;
  private client?: Client;

  constructor(private readonly dbName: string) {}

  private async poll(first = false) {
    if (!this.client) return;
    const { rows } = await this.client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [this.dbName]);
    for (const { pid } of rows) {
      const cpu = processCpuMicros(pid);
      if (cpu === null) continue;
      if (!this.start.has(pid)) this.start.set(pid, first ? cpu : 0);
      this.last.set(pid, cpu);
    }
  }

  async begin(): Promise<void> {
    this.start.clear();
    this.last.clear();
    this.client = new Client({ connectionString: ADMIN_URL });
    await this.client.connect();
    await this.poll(true);
    this.timer = setInterval(() => void this.poll().catch(() => {}), 200);
  }

  /** CPU microseconds the database's backends used since begin(). */
  async end(): Promise<number> {
    clearInterval(this.timer);
    await this.poll().catch(() => {});
    await this.client?.end();
    this.client = undefined;
    let total = 0;
    for (const [pid, cpu] of this.last) total += cpu - (this.start.get(pid) ?? 0);
    return total;
  }
}
