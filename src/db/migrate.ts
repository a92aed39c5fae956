import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { createSchemaEngine } from './schemaEngine';

export const PRISMA_DIR = path.resolve(__dirname, '../../prisma');
export const SCHEMA_PATH = path.join(PRISMA_DIR, 'schema.prisma');
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');

const filters = { externalTables: [], externalEnums: [] };

/** The standard `prisma/migrations` folder as the schema engine's MigrationList. */
export async function readMigrationsList(migrationsDir = MIGRATIONS_DIR) {
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const lockContent = await readFile(lockPath, 'utf8').catch(() => 'provider = "postgresql"\n');
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const migrationDirectories = await Promise.all(
    dirs.map(async (name) => ({
      path: path.join(migrationsDir, name),
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok', value: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
      },
    })),
  );
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockPath, content: lockContent },
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
  const engine = await createSchemaEngine(opts.schemaPath ?? SCHEMA_PATH, adapterFactory);
  try {
    const migrationsList = await readMigrationsList(opts.migrationsDir);
    const out = (await engine.applyMigrations({ migrationsList, filters } as never)) as { appliedMigrationNames: string[] };
    return out.appliedMigrationNames;
  } catch (e) {
    throw new MigrationError(`Migration failed: ${describeEngineError(e)}`, { cause: e });
  } finally {
    engine.free();
  }
}

/** SQL that takes the migration history to the current schema.prisma, or '' when they agree. */
export async function diffSchemaAgainstMigrations(
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  opts: { migrationsDir?: string; schemaPath?: string } = {},
): Promise<string> {
  const schemaPath = opts.schemaPath ?? SCHEMA_PATH;
  const engine = await createSchemaEngine(schemaPath, adapterFactory);
  try {
    const from = { tag: 'migrations', ...(await readMigrationsList(opts.migrationsDir)) };
    const to = { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: await readFile(schemaPath, 'utf8') }] };
    const res = (await engine.diff({ from, to, script: true, exitCode: true, shadowDatabaseUrl: null, filters } as never)) as {
      exitCode: number;
      stdout?: string;
    };
    return res.exitCode === 2 ? (res.stdout ?? '') : '';
  } finally {
    engine.free();
  }
}

function describeEngineError(e: unknown): string {
  if (e instanceof Error) {
    const meta = (e as { meta?: unknown }).meta;
    return e.message + (meta ? ` ${JSON.stringify(meta)}` : '');
  }
  return String(e);
}
