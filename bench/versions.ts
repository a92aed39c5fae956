/**
 * Other versions of the service, built side by side with this checkout so a
 * benchmark can measure "before" and "after" in one run: a detached git
 * worktree of a commit, with its dependencies, its generated Prisma client and
 * its production build (dist/).
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { dropDatabase } from './postgres';
import { buildIsCurrent, killAllChildren, ROOT } from './processes';

export const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Runs a command in `cwd`, its output shown only when it fails. */
export function runQuietly(cmd: string, a: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(cmd, a, { cwd, maxBuffer: 1 << 26 }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd} ${a.join(' ')} in ${cwd} failed:\n${stdout}${stderr}`)) : resolve())),
  );
}

/**
 * Every package the other commit's lock pins is in this checkout's
 * node_modules at the same version: the worktree can share node_modules
 * instead of installing its own.
 */
function lockIsSubset(ref: string): boolean {
  const theirs = JSON.parse(execFileSync('git', ['show', `${ref}:package-lock.json`], { cwd: ROOT, maxBuffer: 1 << 28 }).toString()).packages as Record<string, { version?: string }>;
  const ours = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')).packages as Record<string, { version?: string }>;
  return Object.entries(theirs).every(([k, v]) => k === '' || ours[k]?.version === v.version);
}

/** The worktrees one benchmark run builds; `removeAll` takes them away again (or prints them, to keep). */
export class Worktrees {
  private dirs: string[] = [];

  constructor(private log: (s: string) => void) {}

  /** A detached worktree of `ref` outside the repository, built. */
  async build(ref: string, label: string): Promise<string> {
    const dir = path.join(tmpdir(), `bench-${label}-${process.pid}`);
    this.log(`${label}: worktree of ${ref} in ${dir}`);
    git(ROOT, 'worktree', 'add', '--detach', dir, ref);
    this.dirs.push(dir);
    if (lockIsSubset(ref)) {
      symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      await runQuietly('sh', ['scripts/generate.sh'], dir);
    } else {
      this.log(`${label}: its package-lock.json pins versions this checkout lacks: npm ci`);
      await runQuietly('npm', ['ci', '--no-audit', '--no-fund'], dir);
    }
    this.log(`${label}: building`);
    await runQuietly('npm', ['run', '--silent', 'build'], dir);
    this.log(`${label}: built`);
    return dir;
  }

  removeAll(keep = false) {
    for (const dir of this.dirs.splice(0)) {
      if (keep) {
        this.log(`worktree kept: ${dir} (git worktree remove --force ${dir})`);
        continue;
      }
      // The shared node_modules is a link: unlink it first, so nothing behind it can be touched.
      try {
        unlinkSync(path.join(dir, 'node_modules'));
      } catch {
        /* not a link (npm ci) or already gone */
      }
      try {
        git(ROOT, 'worktree', 'remove', '--force', dir);
      } catch (e) {
        console.error(`could not remove worktree ${dir}: ${(e as Error).message}`);
      }
    }
  }
}

/** This checkout, built unless dist/ is newer than every source; and how to name it in a report. */
export async function buildThisCheckout(log: (s: string) => void): Promise<{ root: string; describe: string }> {
  const dirty = git(ROOT, 'status', '--porcelain', '--', 'src', 'prisma', 'package-lock.json') !== '';
  const describe = `${git(ROOT, 'rev-parse', '--short', 'HEAD')}${dirty ? ' + uncommitted changes under src/ or prisma/' : ''}`;
  if (buildIsCurrent(ROOT)) log('after: dist/ is newer than every source file: build skipped');
  else {
    log('after: building this checkout (npm run build)');
    await runQuietly('npm', ['run', '--silent', 'build'], ROOT);
    log('after: built');
  }
  return { root: ROOT, describe };
}

/**
 * What a before/after run leaves behind (its processes, databases, worktrees
 * and work directory), removed by the returned function, which also runs on
 * SIGINT or SIGTERM.
 */
export function cleanupOf(run: { databases: string[]; worktrees: Worktrees; keepWorktrees: boolean; workDir: string; log: (s: string) => void }): () => Promise<void> {
  const cleanup = async () => {
    killAllChildren();
    for (const db of run.databases.splice(0)) await dropDatabase(db).catch(() => {});
    run.worktrees.removeAll(run.keepWorktrees);
    rmSync(run.workDir, { recursive: true, force: true });
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, () => {
      run.log(`${sig}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return cleanup;
}
