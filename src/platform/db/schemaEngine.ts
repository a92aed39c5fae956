/** Loading Prisma's wasm schema engine, which applies migrations without a native binary. */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/**
 * Loads Prisma's official wasm schema engine (the offline replacement for the
 * native `prisma migrate` binary). The package's entry point imports its .wasm
 * as an ES module (a WebAssembly ESM integration import). Node 22 refuses that
 * without --experimental-wasm-modules (ERR_UNKNOWN_FILE_EXTENSION), and Node 24
 * allows it but prints an ExperimentalWarning on every process that migrates,
 * so the module is instantiated by hand exactly as its own entry point would.
 */
type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg', { with: { 'resolution-mode': 'import' } });
type SchemaEngine = Awaited<ReturnType<EngineModule['SchemaEngine']['new']>>;

let loaded: Promise<EngineModule> | undefined;

/**
 * The engine's timeouts (the 10 s wait for PostgreSQL's advisory lock, say) race an operation against a
 * setTimeout it never clears: the engine imports no clearTimeout. Once the operation has won, the timer
 * still holds the event loop for the rest of its delay, so a process that has finished migrating (npm run
 * db:migrate, a test run's global setup) stayed up 10 s more. The timers are created through this import,
 * kept here until they fire, and cleared when the last engine is freed (freeSchemaEngine): no operation
 * waits on them any more.
 */
const pendingTimers = new Set<NodeJS.Timeout>();
let liveEngines = 0;

function withTrackedTimers(mod: EngineModule): Record<string, unknown> {
  const imports: Record<string, unknown> = { ...mod };
  for (const name of Object.keys(mod)) {
    if (!name.startsWith('__wbg_setTimeout_')) continue;
    imports[name] = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        callback();
      }, ms >>> 0);
      pendingTimers.add(timer);
      return timer;
    };
  }
  return imports;
}

function engineDone(): void {
  liveEngines -= 1;
  if (liveEngines > 0) return;
  for (const timer of pendingTimers) clearTimeout(timer);
  pendingTimers.clear();
}

function loadEngineModule(): Promise<EngineModule> {
  loaded ??= (async () => {
    const mod: EngineModule = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': withTrackedTimers(mod) as never });
    mod.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start: () => void }).__wbindgen_start();
    return mod;
  })();
  return loaded;
}

export async function createSchemaEngine(
  schemaPath: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  log: (line: string) => void = () => {},
): Promise<SchemaEngine> {
  const mod = await loadEngineModule();
  const { bindMigrationAwareSqlAdapterFactory } = await import('@prisma/driver-adapter-utils');
  const schema = await readFile(schemaPath, 'utf8');
  liveEngines += 1;
  try {
    return await mod.SchemaEngine.new(
      { datamodels: [[schemaPath, schema]] } as never,
      (l: string) => log(l),
      bindMigrationAwareSqlAdapterFactory(adapterFactory) as never,
    );
  } catch (e) {
    engineDone();
    throw e;
  }
}

/** Frees an engine from createSchemaEngine; with it the last one, the timers the engines left behind are cleared. */
export function freeSchemaEngine(engine: SchemaEngine): void {
  try {
    engine.free();
  } finally {
    engineDone();
  }
}
