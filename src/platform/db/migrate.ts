/** Applying and diffing the Prisma migrations with the wasm schema engine. */

import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { createSchemaEngine, freeSchemaEngine } from './schemaEngine';

/** The project's prisma/ folder, seen from src/platform/db (tsx, jest) or dist/src/platform/db (the production build). */
const PRISMA_DIR =
  ['../../../prisma', '../../../../prisma'].map((p) => path.resolve(__dirname, p)).find((d) => existsSync(path.join(d, 'schema.prisma'))) ??
  path.resolve(__dirname, '../../../prisma');
const SCHEMA_PATH = path.join(PRISMA_DIR, 'schema.prisma');
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');

const filters = { externalTables: [], externalEnums: [] };

/**
 * Wraps an adapter factory so that every connection the schema engine opens
 * (including the shadow database) is disposed when the engine is done; the
 * engine itself never closes them, which would leave a pool holding the database.
 */
function tracked(factory: SqlMigrationAwareDriverAdapterFactory) {
  const opened: SqlDriverAdapter[] = [];
  const failures: string[] = [];
  const keep = <T extends SqlDriverAdapter>(a: T) => {
    opened.push(a);
    // The engine reports script failures as an opaque "external connector error"; keep the database's own message.
    const run = a.executeScript.bind(a);
    a.executeScript = async (script: string) => {
      try {
        await run(script);
      } catch (e) {
        failures.push(databaseMessage(e));
        throw e;
      }
    };
    return a;
  };
  const wrapped: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => keep(await factory.connect()),
    connectToShadowDb: async () => keep(await factory.connectToShadowDb()),
  };
  const disposeAll = async () => {
    await Promise.all(opened.splice(0).map((a) => a.dispose().catch(() => {})));
  };
  return { wrapped, disposeAll, failures };
}

function databaseMessage(e: unknown): string {
  const cause = (e as { cause?: { message?: string; originalMessage?: string } }).cause;
  return cause?.originalMessage ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
}

/** The standard `prisma/migrations` folder as the schema engine's MigrationList. */
export async function readMigrationsList(migrationsDir = MIGRATIONS_DIR) {
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const lockContent = await readFile(lockPath, 'utf8').catch(() => 'provider = "postgresql"\n');
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const migrationDirectories = await Promise.all(
    dirs.map(async (name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

export class MigrationError extends Error {}

/**
 * Applies every pending migration, recording them in `_prisma_migrations`
 * exactly like `prisma migrate deploy`. Each migration runs in its own
 * transaction, so a failing one leaves nothing half-applied; re-running is a no-op.
 */
export async function applyMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  opts: { migrationsDir?: string; schemaPath?: string } = {},
): Promise<string[]> {
  const migrationsList = await readMigrationsList(opts.migrationsDir);
  if (await allRecordedAsApplied(adapterFactory, migrationsList.migrationDirectories.map((d) => d.path))) return [];
  const { wrapped, disposeAll, failures } = tracked(adapterFactory);
  const engine = await createSchemaEngine(opts.schemaPath ?? SCHEMA_PATH, wrapped);
  try {
    const out = (await engine.applyMigrations({ migrationsList, filters } as never)) as { appliedMigrationNames: string[] };
    return out.appliedMigrationNames;
  } catch (e) {
    const text = describeEngineError(e);
    const name = /migration_name="([^"]+)"/.exec(text)?.[1];
    const reason = failures.at(-1) ?? text;
    throw new MigrationError(
      name ? `Migration ${name} failed and was rolled back: ${reason}` : `Migrations could not be applied: ${reason}`,
      { cause: e },
    );
  } finally {
    freeSchemaEngine(engine);
    await disposeAll();
  }
}

/**
 * Fast path for every start after the first: when `_prisma_migrations` already
 * records each local migration as finished (and none as failed), there is
 * nothing to do and the wasm engine (a second or two to load) is not started.
 */
async function allRecordedAsApplied(factory: SqlMigrationAwareDriverAdapterFactory, names: string[]): Promise<boolean> {
  const adapter = await factory.connect();
  try {
    const exists = await adapter.queryRaw({ sql: `SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`, args: [], argTypes: [] });
    if (!exists.rows[0]?.[0]) return false;
    const rows = await adapter.queryRaw({
      sql: 'SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations WHERE rolled_back_at IS NULL',
      args: [],
      argTypes: [],
    });
    if (rows.rows.some((r) => !r[1])) return false; // a failed migration: let the engine report it
    const applied = new Set(rows.rows.map((r) => r[0] as string));
    return names.every((n) => applied.has(n));
  } finally {
    await adapter.dispose();
  }
}

/** SQL that takes the migration history to the current schema.prisma, or '' when they agree. */
export async function diffSchemaAgainstMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  opts: { migrationsDir?: string; schemaPath?: string } = {},
): Promise<string> {
  const schemaPath = opts.schemaPath ?? SCHEMA_PATH;
  const { wrapped, disposeAll } = tracked(adapterFactory);
  const engine = await createSchemaEngine(schemaPath, wrapped);
  try {
    const from = { tag: 'migrations', ...(await readMigrationsList(opts.migrationsDir)) };
    const to = { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: await readFile(schemaPath, 'utf8') }] };
    const res = (await engine.diff({ from, to, script: true, exitCode: true, shadowDatabaseUrl: null, filters } as never)) as {
      exitCode: number;
      stdout?: string;
    };
    return res.exitCode === 2 ? (res.stdout ?? '') : '';
  } finally {
    freeSchemaEngine(engine);
    await disposeAll();
  }
}

function describeEngineError(e: unknown): string {
  if (e instanceof Error) {
    const meta = (e as { meta?: unknown }).meta;
    return e.message + (meta ? ` ${JSON.stringify(meta)}` : '');
  }
  return String(e);
}
