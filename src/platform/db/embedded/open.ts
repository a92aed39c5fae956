/** Opening the embedded PGlite database: as the service that owns and shares it, or as a tool through its socket. */

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { DatabaseUnavailableError, DataDirBusyError } from '../errors';
import { openPGlite } from '../adapters';
import { acquireDataDirLock, type DataDirHolder, type HeldDataDirLock, isRunning, readHolder } from './dataDirLock';
import { PGliteSession } from './pgliteSession';
import { serveOverSocket, SOCKET_FILE, type SocketServer } from './socketServer';

interface EmbeddedTarget {
  kind: 'pglite';
  /** PGlite's own directory (PGDATA). */
  dataDir: string;
  /** The lock file naming the one process that opened `dataDir`. */
  lockFile: string;
  /** Where the service listens for local clients (`.s.PGSQL.5432`, as PostgreSQL names it). */
  socketDir: string;
}

/**
 * `service`: holds the directory for its lifetime and shares it over the socket.
 * `tool` (CLI, db:migrate): goes through the running service's socket when there
 * is one, and otherwise holds the directory itself while it works.
 */
export type EmbeddedRole = 'service' | 'tool';

export type EmbeddedConnection =
  | { via: 'direct'; session: PGliteSession; socket: SocketServer | null; close(): Promise<void> }
  | { via: 'service'; url: string; holder: DataDirHolder };

/** Unix socket paths are limited to 107 bytes on Linux (108 with the terminating NUL). */
const MAX_SOCKET_PATH = 107;
/** A tool (a CLI command, a migration run) holds the directory for seconds: wait for it rather than fail. */
const WAIT_FOR_TOOL_MS = 30_000;
/** A service that has just taken the lock opens PGlite and migrates before its socket appears. */
const WAIT_FOR_SOCKET_MS = 60_000;

export async function openEmbedded(target: EmbeddedTarget, role: EmbeddedRole, opts: { onSocketError?: (err: unknown) => void } = {}): Promise<EmbeddedConnection> {
  await mkdir(target.dataDir, { recursive: true });
  const socketPath = path.join(target.socketDir, SOCKET_FILE);
  const canShare = role === 'service' && Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH;
  const attempt = await acquireDataDirLock(
    target.lockFile,
    { role, command: commandLine(), socket: canShare ? socketPath : undefined },
    { waitForToolMs: WAIT_FOR_TOOL_MS },
  );
  if ('busy' in attempt) {
    const holder = attempt.busy;
    if (role === 'tool' && holder.role === 'service' && holder.socket) return { via: 'service', url: await socketUrlOf(target, holder), holder };
    throw new DataDirBusyError(busyMessage(target, holder, role));
  }
  return openDirect(target, attempt.held, canShare ? socketPath : null, opts.onSocketError);
}

async function openDirect(target: EmbeddedTarget, lock: HeldDataDirLock, socketPath: string | null, onSocketError?: (err: unknown) => void): Promise<EmbeddedConnection> {
  let pglite: PGlite | undefined;
  try {
    pglite = await openPGlite({ dataDir: target.dataDir }).catch((e: unknown) => {
      // PGlite says only that it failed (a damaged directory, one of another PostgreSQL version, a full disk).
      const reason = e instanceof Error ? e.message : String(e);
      throw new DatabaseUnavailableError(
        `the embedded database ${displayPath(target.dataDir)} cannot be opened (${reason}): if it is damaged or of another version, move it away or set DATA_DIR to another directory`,
        { cause: e },
      );
    });
    const session = new PGliteSession(pglite);
    const socket = socketPath ? await serveOverSocket(session, socketPath, { onError: onSocketError }) : null;
    return {
      via: 'direct',
      session,
      socket,
      async close() {
        try {
          await socket?.close();
          if (!pglite!.closed) await pglite!.close();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (e) {
    if (pglite && !pglite.closed) await pglite.close().catch(() => {});
    await lock.release();
    throw e;
  }
}

/** Waits until the service's socket exists (it opens the database first), while the service still runs. */
async function socketUrlOf(target: EmbeddedTarget, holder: DataDirHolder): Promise<string> {
  const deadline = Date.now() + WAIT_FOR_SOCKET_MS;
  while (!existsSync(holder.socket!)) {
    const current = readHolder(target.lockFile);
    const stillThere = typeof current === 'object' && current.pid === holder.pid && isRunning(current);
    if (!stillThere || Date.now() > deadline) {
      throw new DataDirBusyError(
        stillThere
          ? `the service holding ${displayPath(target.dataDir)} (pid ${holder.pid}) has not opened its socket ${holder.socket} within ${WAIT_FOR_SOCKET_MS / 1000} s`
          : `the service holding ${displayPath(target.dataDir)} (pid ${holder.pid}) stopped while we waited for it; run the command again`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return socketConnectionUrl(path.dirname(holder.socket!));
}

/** libpq-style URL of a socket directory (`host` names the directory, as `psql -h <dir>` does). */
export function socketConnectionUrl(socketDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
}

function busyMessage(target: EmbeddedTarget, holder: DataDirHolder, role: EmbeddedRole): string {
  const who = `${holder.role === 'service' ? 'the service' : 'a command'} "${holder.command}" (pid ${holder.pid}, since ${holder.started_at})`;
  const where = displayPath(target.dataDir);
  if (role === 'service') return `the embedded database ${where} is in use by ${who}: stop it first, or set DATA_DIR to another directory`;
  if (holder.role === 'service') return `the embedded database ${where} is in use by ${who}, which does not share it (its socket path would exceed ${MAX_SOCKET_PATH} bytes): stop it, or use a shorter DATA_DIR`;
  return `the embedded database ${where} is still in use by ${who} after ${WAIT_FOR_TOOL_MS / 1000} s`;
}

function displayPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') ? `./${relative}` : dir;
}

/** How the holder is named to others, e.g. `src/server.ts` or `src/cli.ts user create`. */
function commandLine(): string {
  const script = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) || process.argv[1] : 'node';
  const args = process.argv.slice(2, 4).filter((a) => !a.startsWith('-'));
  return [script, ...args].join(' ');
}
