import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { adminQuery, templateStatePath, testDatabaseUrl } from './templates';

export default async function globalTeardown() {
  const TEMPLATE_STATE = templateStatePath();
  const state = JSON.parse(readFileSync(TEMPLATE_STATE, 'utf8'));
  const url = testDatabaseUrl();
  if (state.kind === 'postgres' && url) await adminQuery(url, `DROP DATABASE IF EXISTS ${state.template} WITH (FORCE)`);
  // The run's directory: the template and every test's temporary directories (newTempDir).
  rmSync(path.dirname(TEMPLATE_STATE), { recursive: true, force: true });
}
