/**
 * The service as `npm start` runs it, on a fresh embedded database with the demo store, for scripts that look at
 * the dashboard in a browser (`npm run dashboard:screenshots`, `npm run bench:lighthouse`). The database lives in a
 * temporary directory removed by stop().
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

const ROOT = path.resolve(__dirname, '..');

/** Builds the dashboard (`npm run dashboard:build`) when dashboard/dist is missing or older than its sources. */
export function ensureDashboardBuilt(log: (line: string) => void = console.error): void {
  const index = path.join(ROOT, 'dashboard', 'dist', 'index.html');
  const src = path.join(ROOT, 'dashboard', 'src');
  const newest = Math.max(...(readdirSync(src, { recursive: true }) as string[]).filter((n) => !n.startsWith('generated')).map((n) => statSync(path.join(src, n)).mtimeMs));
  if (existsSync(index) && statSync(index).mtimeMs >= newest) return;
  log('building the dashboard…');
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-dashboard.ts'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
  if (r.status !== 0) throw new Error('the dashboard build failed');
}

export interface DemoService {
  url: string;
  storeId: string;
  /** The demo owner's dashboard token (the one the start prints), for seeding through the merchant API. */
  token: string;
  email: string;
  password: string;
  output(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts the service on a free port with a new embedded database (the demo store seeded) and waits until it listens. */
export async function startDemoService(env: Record<string, string> = {}): Promise<DemoService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dashboard-demo-'));
  const port = await freePort();
  const start = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  const child = spawn(process.execPath, start.split(/\s+/).slice(1), {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', DATA_DIR: dataDir, PORT: String(port), SEED_DEMO: 'true', LOG_LEVEL: 'warn', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    children.delete(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the service exited (${child.exitCode}) before it listened:\n${out}`);
    }
    const ok = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    const token = /token:\s+(\S+)/.exec(out)?.[1];
    const storeId = /store id:\s+(\S+)/.exec(out)?.[1];
    if (ok && token && storeId) return { url, storeId, token, email: 'owner@demo.store', password: 'demo-password', output: () => out, stop };
    if (Date.now() > until) {
      await stop();
      throw new Error(`the service did not start within 120 s:\n${out}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A merchant API call as the demo owner; throws with the answer on anything but 2xx. */
export async function merchantApi<T = Record<string, unknown>>(s: DemoService, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${s.url}/api/v1/merchant/stores/${s.storeId}${route}`, {
    method,
    headers: { Authorization: `Bearer ${s.token}`, ...(body instanceof FormData || body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}

/** A photo-sized picture (a gradient in the product's own colour), so a thumbnail has real bytes to load. */
export async function productPicture(hue: number, size = 800): Promise<Buffer> {
  const raw = Buffer.alloc(size * size * 3);
  const [r, g, b] = [Math.round(128 + 127 * Math.cos(hue)), Math.round(128 + 127 * Math.cos(hue + 2.1)), Math.round(128 + 127 * Math.cos(hue + 4.2))];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const f = 0.5 + (x + y) / (4 * size);
      raw.set([r * f, g * f, b * f], (y * size + x) * 3);
    }
  }
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

/** Adds `count` products to the demo store, each with `images` pictures; returns their ids in creation order. */
export async function seedProducts(s: DemoService, count: number, images = 2): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `${['Linen', 'Wool', 'Cotton', 'Silk', 'Canvas'][i % 5]} ${['Scarf', 'Tote', 'Shirt', 'Cap', 'Apron', 'Blanket'][i % 6]} ${i + 1}`;
    const { data: product } = await merchantApi<{ data: { id: string } }>(s, 'POST', '/products', {
      name,
      price: (12 + i * 1.5).toFixed(2),
      inventory_quantity: (i * 7) % 40,
      tags: ['seeded', i % 2 ? 'summer' : 'winter'],
      category_slugs: [['apparel', 'accessories', 'home'][i % 3]],
      description: `${name}, made to last.`,
    });
    for (let n = 0; n < images; n++) {
      const form = new FormData();
      form.append('product_id', product.id);
      form.append('image', new Blob([new Uint8Array(await productPicture(i + n / 3))], { type: 'image/jpeg' }), `${i}-${n}.jpg`);
      await merchantApi(s, 'POST', '/products/images', form);
    }
    ids.push(product.id);
  }
  return ids;
}

/** Signs in through GraphQL `signIn` (the demo owner, or another account) and returns the session cookie ("svc_session=…"). */
export async function sessionCookie(s: { url: string; email: string; password: string }): Promise<string> {
  const res = await fetch(`${s.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { csrfToken } }', variables: { e: s.email, p: s.password } }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('svc_session='));
  if (!res.ok || !cookie) throw new Error(`signIn: ${res.status} ${await res.text()}`);
  return cookie.split(';')[0]!;
}
