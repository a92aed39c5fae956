import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';

/**
 * A PostgreSQL primary and one streaming replica of its own, for the replica tests: `initdb`, `pg_basebackup -R`
 * and `pg_ctl` on free ports in a temporary directory, run as the `postgres` user (the binaries refuse root),
 * never touching the machine's own server. Stopped and removed by `stop()`.
 */
const BIN = process.env.PG_BIN_DIR ?? debianServerBinaries();
const run = promisify(execFile);

export interface ReplicaCluster {
  primaryUrl: string;
  replicaUrl: string;
  replicaPort: number;
  /** One statement on the replica (pg_wal_replay_pause(), …). */
  onReplica(sql: string): Promise<unknown[]>;
  /** Stops the replica at once, as a crash would (`pg_ctl stop -m immediate`). */
  crashReplica(): Promise<void>;
  stop(): Promise<void>;
}

/** Whether this machine can run the cluster: root (to act as `postgres`) and PostgreSQL's server binaries. */
export async function canRunReplicaCluster(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  try {
    await run(path.join(BIN, 'pg_ctl'), ['--version']);
    await run('id', ['-u', 'postgres']);
    return true;
  } catch {
    return false;
  }
}

/** util-linux's runuser lives in sbin, which a CI job's PATH may leave out. */
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p)) ?? 'runuser';
const asPostgres = (command: string, args: string[]) => run(RUNUSER, ['-u', 'postgres', '--', path.join(BIN, command), ...args]);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startReplicaCluster(): Promise<ReplicaCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-replicas-'));
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  chownSync(dir, uidOf('postgres'), gidOf('postgres'));
  const started: string[] = [];
  const stopServer = async (d: string) => void (await asPostgres('pg_ctl', ['-D', d, '-m', 'immediate', 'stop']).catch(() => {}));
  try {
    await asPostgres('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres']);
    appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      // fsync off: a test cluster that is thrown away; wal_level replica and senders for the base backup and the stream.
      `\nport=${primaryPort}\nlisten_addresses='127.0.0.1'\nunix_socket_directories='${dir}'\nwal_level=replica\nmax_wal_senders=5\nfsync=off\nmax_connections=100\n`,
    );
    appendFileSync(path.join(primaryDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
    await asPostgres('pg_ctl', ['-D', primaryDir, '-w', '-l', path.join(dir, 'primary.log'), 'start']);
    started.push(primaryDir);
    await asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream']);
    const conf = path.join(replicaDir, 'postgresql.conf');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace(`port=${primaryPort}`, `port=${replicaPort}`));
    await asPostgres('pg_ctl', ['-D', replicaDir, '-w', '-l', path.join(dir, 'replica.log'), 'start']);
    started.push(replicaDir);
  } catch (e) {
    await Promise.all(started.map(stopServer));
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl,
    replicaPort,
    async onReplica(sql) {
      const client = new Client({ connectionString: replicaUrl });
      await client.connect();
      try {
        return (await client.query(sql)).rows;
      } finally {
        await client.end();
      }
    },
    crashReplica: () => stopServer(replicaDir),
    async stop() {
      await Promise.all(started.map(stopServer));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Debian's PostgreSQL server binaries, of its newest installed major version (/usr/lib/postgresql/15/bin here). */
function debianServerBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  return path.join(root, versions[0] ?? '15', 'bin');
}

function uidOf(user: string): number {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${user}:`));
  return Number(line!.split(':')[2]);
}

function gidOf(user: string): number {
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${user}:`));
  return Number(line!.split(':')[3]);
}
