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

function loadEngineModule(): Promise<EngineModule> {
  loaded ??= (async () => {
    const mod: EngineModule = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = path.join(path.dirname(require.resolve('@prisma/schema-engine-wasm')), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': mod as never });
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
  return mod.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] } as never,
    (l: string) => log(l),
    bindMigrationAwareSqlAdapterFactory(adapterFactory) as never,
  );
}
