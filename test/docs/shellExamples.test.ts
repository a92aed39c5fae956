import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { referenceDocuments } from '../../src/docsReference';
import { describeEmbeddedProcesses, exited, listening, NPM_START, randomPort, root, spawnServer } from '../helpers/serverProcess';
import { newTempDir, withMigratedDatabase } from '../helpers/templates';

/**
 * The one rule for shell examples in the README and the guides: every ```sh
 * block runs, in order, in one bash session per document, so variables one
 * block sets (BASE, STORE, TOKEN…) are there for the next; each must exit 0,
 * and a ```text output block right after it lists lines its output must
 * contain (`…` stands for anything). A block that cannot run here says why,
 * as ```sh no-run: <reason>, and such blocks are few.
 */

const DOCUMENTS = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
/** The generated references show each command's examples inline, as its --help does; they hold no shell block. */
const GENERATED = Object.keys(referenceDocuments());
/** Deliberate exceptions, all documents together: installing, the test suite itself, processes that run until stopped, and servers a test run does not have. */
const MAX_NO_RUN = 10;

interface Block {
  line: number;
  lang: string;
  info: string;
  body: string;
}

interface Example {
  line: number;
  body: string;
  /** `[VAR=value …] npm start`: the test (re)starts the service process with these variables. */
  start?: Record<string, string>;
  /** Lines the output must contain, from a ```text output block right after it (for `npm start`, the service's output). */
  output: string[];
}

/** Every fenced block of a Markdown document, with its language, the rest of its info string, and its text (list indentation removed). */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const re = /^( *)```(\S*)[ \t]*(.*)\n([\s\S]*?)^ *```[ \t]*$/gm;
  for (const m of markdown.matchAll(re)) {
    const indent = m[1].length;
    const body = m[4]
      .split('\n')
      .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
      .join('\n');
    blocks.push({ line: markdown.slice(0, m.index).split('\n').length, lang: m[2], info: m[3].trim(), body });
  }
  return blocks;
}

const START = /^((?:[A-Z_][A-Z0-9_]*=\S+\s+)*)npm start$/;

/** The document's shell examples in order; throws on a block that breaks the rule. */
function examplesOf(file: string): { examples: Example[]; noRun: { line: number; reason: string }[] } {
  const blocks = fencedBlocks(readFileSync(path.join(root, file), 'utf8'));
  const examples: Example[] = [];
  const noRun: { line: number; reason: string }[] = [];
  let previous: Block | undefined;
  for (const b of blocks) {
    const where = `${file}:${b.line}`;
    if (['bash', 'shell', 'console', 'zsh', 'shell-session'].includes(b.lang)) throw new Error(`${where}: a shell example is a \`\`\`sh block (found \`\`\`${b.lang})`);
    if (b.lang !== 'sh' && /^\s*(curl|npm|npx|psql|node) /m.test(b.body) && !(b.lang === 'text' && b.info === 'output')) {
      throw new Error(`${where}: a command line in a \`\`\`${b.lang || '(plain)'} block; shell examples are \`\`\`sh blocks, which run`);
    }
    if (b.lang === 'text' && b.info === 'output') {
      if (previous?.lang !== 'sh' || previous.info) throw new Error(`${where}: an output block follows a runnable \`\`\`sh block`);
      examples[examples.length - 1].output = b.body.split('\n').map((l) => l.trim()).filter(Boolean);
    } else if (b.lang === 'sh') {
      if (b.info) {
        const reason = /^no-run: (.{15,})$/.exec(b.info)?.[1];
        if (!reason) throw new Error(`${where}: \`\`\`sh takes nothing after it but "no-run: <the reason, in words>"`);
        noRun.push({ line: b.line, reason });
      } else {
        const commands = b.body.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter((l) => l && !l.startsWith('#'));
        const start = commands.length === 1 ? START.exec(commands[0]) : null;
        if (!start && commands.some((c) => /\bnpm start\b/.test(c))) throw new Error(`${where}: \`npm start\` stands alone in its block (with variables before it, if any)`);
        const env = start ? Object.fromEntries(start[1].trim().split(/\s+/).filter(Boolean).map((a) => a.split('=') as [string, string])) : undefined;
        examples.push({ line: b.line, body: b.body, start: env, output: [] });
      }
    }
    previous = b;
  }
  return { examples, noRun };
}

/** A line of promised output: its parts, split at `…`, appear in order on one line of what the block printed. */
function printed(stdout: string, promise: string): boolean {
  const parts = promise.split('…').map((p) => p.trim()).filter(Boolean);
  return stdout.split('\n').some((line) => {
    let at = 0;
    for (const p of parts) {
      const i = line.indexOf(p, at);
      if (i < 0) return false;
      at = i + p.length;
    }
    return true;
  });
}

/**
 * A project directory as a newcomer has it: the checkout's files (linked), no `data/` yet, so the
 * default DATA_DIR (./data) is fresh, and files the examples write stay out of the checkout. With
 * `migrated`, ./data holds an embedded database that is migrated but holds nothing yet (the first
 * start on a new directory, which migrates it, is the README's).
 */
function freshCheckout(migrated: boolean): string {
  const dir = newTempDir('catalog-docs-');
  for (const entry of readdirSync(root)) {
    if (['data', '.git', '.cache'].includes(entry)) continue;
    symlinkSync(path.join(root, entry), path.join(dir, entry));
  }
  if (migrated) withMigratedDatabase(path.join(dir, 'data'));
  return dir;
}

/** Runs the blocks of one document in one bash session beside the service; resolves when all ran. */
async function runDocument(file: string, examples: Example[]) {
  const dir = freshCheckout(file !== 'README.md');
  const scratch = newTempDir('catalog-docs-blocks-');
  const curlHome = path.join(scratch, 'curl');
  mkdirSync(curlHome);
  // An HTTP error fails the block, as a failing command does: curl exits 22 on a 4xx or 5xx (the body is still shown).
  writeFileSync(path.join(curlHome, '.curlrc'), '--fail-with-body\n');
  const port = randomPort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: '', REDIS_URL: '', NODE_OPTIONS: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', CURL_HOME: curlHome };
  for (const v of ['DATA_DIR', 'NODE_ENV', 'BASE', 'STORE', 'TOKEN']) delete env[v];

  let server: ReturnType<typeof spawnServer> | undefined;
  const startService = async (extra: Record<string, string>) => {
    if (server) {
      server.kill('SIGTERM');
      expect(await exited(server)).toBe(0);
    }
    server = spawnServer({ ...env, ...extra }, dir);
    await listening(server);
  };

  const bash = spawn('bash', ['--noprofile', '--norc'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams;
  let stdout = '';
  let stderr = '';
  bash.stdout.on('data', (d) => (stdout += d));
  bash.stderr.on('data', (d) => (stderr += d));
  const bashExit = exited(bash);
  bash.stdin.write('set -eo pipefail\n');

  try {
    if (!examples[0]?.start) await startService({});
    for (const [i, ex] of examples.entries()) {
      const where = `${file}:${ex.line}`;
      if (ex.start) {
        await startService(ex.start);
        for (const promise of ex.output) expect({ where, promise, printed: printed(server!.output(), promise) ? 'yes' : server!.output() }).toEqual({ where, promise, printed: 'yes' });
        continue;
      }
      const blockFile = path.join(scratch, `block-${i}.sh`);
      writeFileSync(blockFile, `${ex.body}\n`);
      const marker = `__block_${i}_done__`;
      const from = stdout.length;
      stderr = '';
      // Its commands read no input from the session's own stdin (where the next blocks arrive).
      bash.stdin.write(`source ${JSON.stringify(blockFile)} </dev/null\nprintf '\\n%s\\n' ${marker}\n`);
      // Done when the marker is printed; failed when bash exits first (set -e: a command of the block failed).
      const outcome = await Promise.race([
        new Promise<'done'>((resolve) => {
          const check = setInterval(() => {
            if (stdout.includes(`${marker}\n`, from)) {
              clearInterval(check);
              resolve('done');
            }
          }, 50);
          void bashExit.then(() => clearInterval(check));
        }),
        bashExit.then((code) => `exited ${code}` as const),
      ]);
      const output = stdout.slice(from).replace(`\n${marker}\n`, '');
      expect({ where, outcome, stderr: outcome === 'done' ? '' : stderr, output: outcome === 'done' ? '' : output }).toEqual({ where, outcome: 'done', stderr: '', output: '' });
      for (const promise of ex.output) expect({ where, promise, printed: printed(output, promise) ? 'yes' : output }).toEqual({ where, promise, printed: 'yes' });
    }
  } finally {
    bash.stdin.end();
    await bashExit;
    if (server) {
      server.kill('SIGTERM');
      expect(await exited(server)).toBe(0);
    }
  }
}

describe('shell examples of the README and the guides', () => {
  const documents = DOCUMENTS.filter((f) => !GENERATED.includes(f));

  it('are ```sh blocks: none hides in another kind of block, and every one that does not run says why; those are few', () => {
    expect(documents).toEqual(expect.arrayContaining(['README.md', 'docs/webhooks.md', 'docs/operations.md']));
    const noRun = documents.flatMap((f) => examplesOf(f).noRun.map((n) => ({ ...n, file: f })));
    expect(noRun.length).toBeLessThanOrEqual(MAX_NO_RUN);
    for (const f of GENERATED) expect(fencedBlocks(readFileSync(path.join(root, f), 'utf8')).filter((b) => b.lang === 'sh')).toEqual([]);
  });

  it('`npm start` in the documents is the process the test starts', () => {
    // spawnServer runs NPM_START's arguments: the command must be plain node flags before tsx and the server, nothing a shell would expand.
    expect(NPM_START).toMatch(/^node (--[a-z-]+=\d+ )*--import tsx src\/server\.ts$/);
  });

  it("the deployment guide's instance command and environment are `npm run start:prod`'s", () => {
    const startProd: string = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts['start:prod'];
    const [, environment, command] = /^((?:[A-Z_]+=\S+ )*)(node .*)$/.exec(startProd)!;
    const guide = readFileSync(path.join(root, 'docs/operations.md'), 'utf8').replace(/\s+/g, ' ');
    expect(guide).toContain(`each instance runs \`${command}\``);
    for (const assignment of environment.trim().split(' ')) expect(guide).toContain(`\`${assignment}\``);
  });
});

describeEmbeddedProcesses('shell examples, run', () => {
  jest.setTimeout(600_000);

  it.each(DOCUMENTS.filter((f) => !GENERATED.includes(f)))('%s: every block runs in order against the state the text sets up, beside `npm start` on a fresh data directory', async (file) => {
    const { examples } = examplesOf(file);
    if (examples.some((e) => !e.start)) await runDocument(file, examples);
  });

  it('the README tour reaches a signed, verified webhook', () => {
    const { examples } = examplesOf('README.md');
    expect(examples.some((e) => e.start?.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true')).toBe(true);
    expect(examples.flatMap((e) => e.output)).toEqual(expect.arrayContaining([expect.stringMatching(/^verified msg_… ping/)]));
  });
});
