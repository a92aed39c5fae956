import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, loadConfig } from '../../src/platform/config';
import { chooseLogFormat } from '../../src/platform/logger';
import { newTempDir } from '../helpers/templates';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');

describe('LOG_FORMAT', () => {
  it('is json, pretty or unset; anything else stops the start naming it', () => {
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
  });
});

describe('chooseLogFormat', () => {
  it.each([
    // configured, isTTY, env, pino-pretty installed → format
    [undefined, true, 'development', true, 'pretty'],
    [undefined, false, 'development', true, 'json'],
    [undefined, true, 'production', true, 'json'],
    [undefined, true, 'test', true, 'pretty'],
    [undefined, true, 'development', false, 'json'],
    ['json', true, 'development', true, 'json'],
    ['pretty', false, 'development', true, 'pretty'],
    ['pretty', false, 'production', true, 'pretty'],
    ['pretty', true, 'production', false, 'json'],
  ] as const)('LOG_FORMAT=%s, terminal %s, %s, pino-pretty %s: %s', (configured, isTTY, env, prettyAvailable, format) => {
    expect(chooseLogFormat({ configured, isTTY, env, prettyAvailable }).format).toBe(format);
  });

  it('says why it writes JSON only when pretty was asked for explicitly', () => {
    expect(chooseLogFormat({ configured: 'pretty', isTTY: false, env: 'production', prettyAvailable: false }).warning).toMatch(/pino-pretty/);
    expect(chooseLogFormat({ configured: undefined, isTTY: true, env: 'development', prettyAvailable: false }).warning).toBeUndefined();
  });
});

/** The environment of a process that builds the app as `npm start` does. */
const childEnv = (env: Record<string, string>) => ({
  ...process.env,
  NODE_OPTIONS: '',
  NODE_ENV: 'development',
  LOG_LEVEL: 'info',
  LOG_FORMAT: '',
  DATA_DIR: newTempDir('catalog-log-'),
  ...env,
});
const nodeArgs = (preload: string[] = []) => [...preload, '--import', 'tsx', 'test/helpers/logLines.ts'];

const jsonLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('a real process', () => {
  it('writes JSON lines when stdout is not a terminal (a pipe)', async () => {
    const { stdout } = await run(process.execPath, nodeArgs(), { cwd: root, env: childEnv({}) });
    const lines = jsonLines(stdout);
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, msg: 'hello from the logger', answer: 42, time: expect.any(String) }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', request_id: 'req-abcdef123456', method: 'GET', url: '/healthz', status: 200 }));
  });

  it('with LOG_FORMAT=pretty but without pino-pretty (a production install), still starts and writes JSON lines, saying why', async () => {
    const preload = ['--require', path.join(root, 'test/helpers/withoutPinoPretty.cjs')];
    const { stdout } = await run(process.execPath, nodeArgs(preload), { cwd: root, env: childEnv({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }) });
    const lines = jsonLines(stdout);
    expect(lines[0]).toMatchObject({ level: 40, msg: expect.stringContaining('pino-pretty') });
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'hello from the logger' }));
  });

  const hasScript = (() => {
    try {
      execFileSync('script', ['-q', '-e', '-c', 'true', '/dev/null'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  const onTerminal = hasScript ? it : it.skip;

  /** Runs the process on a pseudo-terminal (util-linux `script`), as in a developer's shell. */
  async function onPty(env: Record<string, string>, preload: string[] = []) {
    const command = [process.execPath, ...nodeArgs(preload)].map((a) => `'${a}'`).join(' ');
    const { stdout } = await run('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: root, env: childEnv(env) });
    // eslint-disable-next-line no-control-regex
    return stdout.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');
  }

  onTerminal('writes pretty lines on a terminal: one line per request, the request id in front', async () => {
    const out = await onPty({});
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: hello from the logger$/m);
    expect(out).toMatch(/^ {4}answer: 42$/m);
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: req-abcd GET \/healthz 200 \d+\.\d ms$/m);
    expect(out).not.toMatch(/^\{/m);
  });

  onTerminal('writes JSON lines on a terminal with LOG_FORMAT=json, and when pino-pretty is not installed', async () => {
    for (const out of [await onPty({ LOG_FORMAT: 'json' }), await onPty({}, ['--require', path.join(root, 'test/helpers/withoutPinoPretty.cjs')])]) {
      expect(jsonLines(out)).toContainEqual(expect.objectContaining({ msg: 'hello from the logger' }));
    }
  });
});
