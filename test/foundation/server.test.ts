import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { migratedDataDir } from '../helpers/templates';

const root = path.resolve(__dirname, '../..');

/** Starts `src/server.ts` as a real process on the embedded database and waits for it to listen. */
async function startServer(port: number, dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (out.includes('"listening on')) {
        clearInterval(timer);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
  return { child, output: () => out };
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('server process', () => {
  jest.setTimeout(90_000);

  it('seeds a demo store once, prints a token and a curl that works, and finishes in-flight requests on SIGTERM', async () => {
    const dataDir = migratedDataDir('catalog-server-');
    const port = 20000 + Math.floor(Math.random() * 20000);
    const first = await startServer(port, dataDir);
    const printed = first.output();
    const curl = /curl -H "Authorization: Bearer (svc_dash_\w+)" (http:\/\/localhost:\d+\/api\/v1\/merchant\/stores\/[0-9a-f-]+\/products)/.exec(printed);
    expect(curl).not.toBeNull();
    const list = await fetch(curl![2].replace('localhost', '127.0.0.1'), { headers: { authorization: `Bearer ${curl![1]}` } });
    expect(list.status).toBe(200);
    expect((await list.json()).data.length).toBeGreaterThan(0);

    // A request whose body is still arriving when SIGTERM comes must still get its answer.
    const inflight = new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: new URL(curl![2]).pathname, headers: { authorization: `Bearer ${curl![1]}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.write('{"name": "Late arrival", ');
      setTimeout(() => {
        first.child.kill('SIGTERM');
        setTimeout(() => req.end('"price": 3, "category_slugs": ["home"]}'), 300);
      }, 200);
    });
    const [status, code] = await Promise.all([inflight, exited(first.child)]);
    expect(status).toBe(201);
    expect(code).toBe(0);
    expect(first.output()).toContain('"stopped"');

    // Second start on the same data: no new seed, no token printed.
    const second = await startServer(port, dataDir);
    expect(second.output()).not.toContain('svc_dash_');
    // The service process collects its own metrics (CPU, memory, event loop, GC) for /metrics.
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const name of ['process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds', 'nodejs_gc_duration_seconds']) expect(metrics).toContain(`# TYPE ${name} `);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });
});
