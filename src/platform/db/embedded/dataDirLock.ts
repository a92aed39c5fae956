/** The lock file that gives an embedded data directory one owning process at a time. */

import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * Who holds an embedded data directory. Written as JSON into the lock file,
 * so a second process can say who is in the way, and whether that process
 * shares the database over a socket.
 */
export interface DataDirHolder {
  pid: number;
  /** `service` shares the database over `socket`; `tool` (CLI, migrations) holds it briefly and shares nothing. */
  role: 'service' | 'tool';
  command: string;
  started_at: string;
  hostname: string;
  /** The process's start time in clock ticks since boot (Linux), so a reused pid is not taken for the holder. */
  process_start?: string;
  socket?: string;
}

export interface HeldDataDirLock {
  holder: DataDirHolder;
  release(): Promise<void>;
}

type LockAttempt = { held: HeldDataDirLock } | { busy: DataDirHolder };

/**
 * Takes the lock file of an embedded data directory for this process.
 * The file is created exclusively (O_EXCL); a lock left by a process that no
 * longer runs is taken over. Returns the live holder instead when another
 * process has it. `waitMs` keeps retrying while the holder is a short-lived tool.
 */
export async function acquireDataDirLock(
  lockPath: string,
  me: Pick<DataDirHolder, 'role' | 'command' | 'socket'>,
  opts: { waitForToolMs?: number } = {},
): Promise<LockAttempt> {
  const deadline = Date.now() + (opts.waitForToolMs ?? 0);
  const holder: DataDirHolder = {
    pid: process.pid,
    ...me,
    started_at: new Date().toISOString(),
    hostname: hostname(),
    process_start: processStartTicks(process.pid),
  };
  for (;;) {
    const attempt = await tryAcquire(lockPath, holder);
    if ('held' in attempt) return attempt;
    if (attempt.busy.role !== 'tool' || Date.now() >= deadline) return attempt;
    await sleep(100);
  }
}

async function tryAcquire(lockPath: string, holder: DataDirHolder): Promise<LockAttempt> {
  for (let round = 0; ; round++) {
    try {
      await writeFile(lockPath, JSON.stringify(holder, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
      return { held: heldLock(lockPath, holder) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const current = readHolder(lockPath);
    if (current === 'missing') continue; // released between our two calls: try again
    if (current === 'unreadable') {
      // Another process is between creating the file and writing it; a file that stays empty is debris.
      if (ageMs(lockPath) < 5000 && round < 50) {
        await sleep(100);
        continue;
      }
    } else if (isRunning(current)) {
      return { busy: current };
    }
    await takeOverStaleLock(lockPath, current);
  }
}

/**
 * Removes a stale lock. A guard file makes the check and the removal one step,
 * so two processes that both found the same stale lock cannot remove the fresh
 * lock the faster of them has just written.
 */
async function takeOverStaleLock(lockPath: string, stale: DataDirHolder | 'unreadable') {
  const guard = `${lockPath}.takeover`;
  try {
    await writeFile(guard, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const guardPid = Number(await readFile(guard, 'utf8').catch(() => ''));
    // A guard whose writer died (or never wrote its pid) would block every start: clear it.
    if (!(guardPid > 0 && pidAlive(guardPid)) && ageMs(guard) > 1000) await unlink(guard).catch(() => {});
    await sleep(20);
    return;
  }
  try {
    const now = readHolder(lockPath);
    const same = now === stale || (typeof now === 'object' && typeof stale === 'object' && now.pid === stale.pid && now.started_at === stale.started_at);
    if (same) await unlink(lockPath).catch(() => {});
  } finally {
    await unlink(guard).catch(() => {});
  }
}

function heldLock(lockPath: string, holder: DataDirHolder): HeldDataDirLock {
  let released = false;
  const isOurs = () => {
    const current = readHolder(lockPath);
    return typeof current === 'object' && current.pid === holder.pid && current.started_at === holder.started_at;
  };
  // process.exit() (an error path, a signal handler) skips async cleanup: remove the lock synchronously then.
  const onExit = () => {
    if (!released && isOurs()) {
      try {
        unlinkSync(lockPath);
      } catch {
        /* already gone */
      }
    }
  };
  process.once('exit', onExit);
  return {
    holder,
    async release() {
      if (released) return;
      released = true;
      process.off('exit', onExit);
      if (isOurs()) await unlink(lockPath).catch(() => {});
    },
  };
}

/** The holder recorded in a lock file; 'unreadable' while a writer has created but not yet filled it. */
export function readHolder(lockPath: string): DataDirHolder | 'missing' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw e;
  }
  try {
    const parsed = JSON.parse(text) as DataDirHolder;
    return typeof parsed.pid === 'number' ? parsed : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** Whether the process that wrote a lock still runs (a lock from another host is assumed live). */
export function isRunning(holder: DataDirHolder): boolean {
  if (holder.hostname !== hostname()) return true;
  if (!pidAlive(holder.pid)) return false;
  // The pid runs, but is it the same process? After a restart (a container's, a machine's) pids repeat.
  const start = processStartTicks(holder.pid);
  return !(holder.process_start && start && start !== holder.process_start);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat (start time since boot); undefined where /proc does not exist. */
function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses: count fields after its closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function ageMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
