import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { acquireDataDirLock, readHolder } from '../../src/platform/db/embedded/dataDirLock';
import { describeIndependentOfDatabase, exited, root } from '../helpers/serverProcess';
import { newTempDir } from '../helpers/templates';

const run = promisify(execFile);

/** A process that is gone: its pid was real a moment ago. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  const pid = child.pid!;
  const done = exited(child);
  child.kill('SIGKILL');
  await done;
  return pid;
}

/** Runs `acquireDataDirLock` in a separate process; prints `held` or `busy <pid>`, and keeps a held lock for `holdMs`. */
function acquireInChild(lockFile: string, holdMs: number) {
  const script = `
    const { acquireDataDirLock } = require('./src/platform/db/embedded/dataDirLock');
    acquireDataDirLock(${JSON.stringify(lockFile)}, { role: 'service', command: 'race' }).then(async (a) => {
      console.log('held' in a ? 'held' : 'busy ' + a.busy.pid);
      if ('held' in a) { await new Promise((r) => setTimeout(r, ${holdMs})); await a.held.release(); }
    });`;
  return run(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });
}

describeIndependentOfDatabase('data directory lock', () => {
  jest.setTimeout(60_000);

  it('is taken by one process, names it to the next, and is gone once released', async () => {
    const lockFile = path.join(newTempDir('catalog-lock-'), 'pglite.lock');
    const first = await acquireDataDirLock(lockFile, { role: 'service', command: 'first' });
    if (!('held' in first)) throw new Error('expected the lock');
    const holder = readHolder(lockFile);
    expect(holder).toMatchObject({ pid: process.pid, role: 'service', command: 'first', hostname: hostname() });
    // A second attempt from this same process (same pid, same start time) is refused: the holder is alive.
    const second = await acquireDataDirLock(lockFile, { role: 'service', command: 'second' });
    expect(second).toEqual({ busy: expect.objectContaining({ pid: process.pid, command: 'first' }) });
    await first.held.release();
    expect(readHolder(lockFile)).toBe('missing');
  });

  it('takes over a lock whose process is dead, and one whose pid now belongs to another process', async () => {
    const lockFile = path.join(newTempDir('catalog-lock-'), 'pglite.lock');
    const stale = { pid: await deadPid(), role: 'service', command: 'killed', started_at: new Date(0).toISOString(), hostname: hostname() };
    writeFileSync(lockFile, JSON.stringify(stale));
    const taken = await acquireDataDirLock(lockFile, { role: 'service', command: 'next' });
    expect('held' in taken).toBe(true);
    if ('held' in taken) await taken.held.release();

    // Our own pid, but recorded with another process start time: a pid reused after a restart.
    writeFileSync(lockFile, JSON.stringify({ ...stale, pid: process.pid, process_start: '1' }));
    const reused = await acquireDataDirLock(lockFile, { role: 'service', command: 'after restart' });
    expect('held' in reused).toBe(true);
    if ('held' in reused) await reused.held.release();
  });

  it('lets exactly one of several processes racing for a stale lock win', async () => {
    const lockFile = path.join(newTempDir('catalog-lock-'), 'pglite.lock');
    writeFileSync(lockFile, JSON.stringify({ pid: await deadPid(), role: 'service', command: 'killed', started_at: 'x', hostname: hostname() }));
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map(() => acquireInChild(lockFile, 8000)));
    const lines = results.map((r) => r.stdout.trim());
    expect(lines.filter((l) => l === 'held')).toHaveLength(1);
    const winner = lines.filter((l) => l.startsWith('busy ')).map((l) => l.slice(5));
    expect(new Set(winner).size).toBe(1); // every loser names the same holder
    expect(readHolder(lockFile)).toBe('missing');
  });

  it('waits for a tool (a CLI command) that holds the directory briefly, instead of failing', async () => {
    const lockFile = path.join(newTempDir('catalog-lock-'), 'pglite.lock');
    const tool = await acquireDataDirLock(lockFile, { role: 'tool', command: 'cli' });
    if (!('held' in tool)) throw new Error('expected the lock');
    // Its holder record says "tool": a second process would wait; here the same process waits for the release.
    setTimeout(() => void tool.held.release(), 400);
    const started = Date.now();
    const next = await acquireDataDirLock(lockFile, { role: 'service', command: 'service' }, { waitForToolMs: 5000 });
    expect('held' in next).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    if ('held' in next) await next.held.release();
    expect(readHolder(lockFile)).toBe('missing');
  });
});
