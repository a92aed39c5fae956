import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeIndependentOfDatabase } from '../helpers/serverProcess';
import { newTempDir } from '../helpers/templates';

const ROOT = path.resolve(__dirname, '../..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/.bin/depcruise');

/** Runs dependency-cruiser as `npm run lint:imports` does, in `cwd`; never rejects. */
function depcruise(cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      DEPCRUISE,
      ['src', '--config', CONFIG, '--output-type', 'err'],
      { cwd, env: { ...process.env, NODE_OPTIONS: '' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** A throwaway project breaking each rule once, so the test shows every rule can fail. */
function writeViolatingProject(dir: string) {
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', strict: true } }),
    'package.json': JSON.stringify({ name: 'fixture', private: true, devDependencies: { 'dev-only': '1.0.0' } }),
    'node_modules/dev-only/package.json': JSON.stringify({ name: 'dev-only', version: '1.0.0', main: 'index.js' }),
    'node_modules/dev-only/index.js': 'module.exports = 1;\n',
    'test/helper.ts': 'export const helper = 1;\n',
    // no-circular
    'src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
    'src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    // each group importing the group above it (a type-only import counts)
    'src/kernel/mode.ts': "import type { Config } from '../platform/config';\nexport type Mode = Config;\n",
    'src/platform/config.ts': "import { principal } from '../access/auth/principal';\nexport type Config = typeof principal;\n",
    'src/access/auth/principal.ts': "import { builder } from '../../api/graphql/builder';\nexport const principal = builder;\n",
    'src/api/graphql/builder.ts': "import { stores } from '../../access/services/stores';\nexport const builder = stores;\n",
    'src/access/services/stores.ts': "import { products } from '../../catalog/services/products';\nexport const stores = products;\n",
    'src/catalog/services/products.ts': "import { history } from '../../events/services/history';\nexport const products = history;\n",
    'src/events/services/history.ts': "import { worker } from '../../jobs/worker';\nexport const history = worker;\n",
    'src/jobs/worker.ts': "import { createApp } from '../app';\nexport const worker = createApp;\n",
    'src/app.ts': 'export const createApp = 1;\n',
    // services-not-to-surfaces, graphql-not-to-rest-or-cli, rest-not-to-cli
    'src/catalog/services/variants.ts': "import { variantType } from '../graphql/variants';\nexport const variants = variantType;\n",
    'src/catalog/graphql/variants.ts': "import { variantRoute } from '../rest/variants';\nexport const variantType = variantRoute;\n",
    'src/catalog/rest/variants.ts': "import { variantCommand } from '../cli/variants';\nexport const variantRoute = variantCommand;\n",
    'src/catalog/cli/variants.ts': 'export const variantCommand = 1;\n',
    // src-not-to-test-or-bench
    'src/leak.ts': "import { helper } from '../test/helper';\nexport const leak = helper;\n",
    // not-to-dev-dep
    'src/devDep.ts': "import devOnly from 'dev-only';\nexport const x = devOnly;\n",
    // not-to-dev-dep-logger: the logger may use pino-pretty only
    'src/platform/logger.ts': "import devOnly from 'dev-only';\nexport const y = devOnly;\n",
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
}

describeIndependentOfDatabase('import direction (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  test('src has no import cycles and no import against the layering', async () => {
    const { code, output } = await depcruise(ROOT);
    // On failure the received value is dependency-cruiser's report, naming each offending import and rule.
    expect(code === 0 ? '' : `npm run lint:imports would fail (exit ${code}):\n${output}`).toBe('');
  }, 120_000);

  test('the check fails on a cycle and on every other rule, naming the imports', async () => {
    const dir = newTempDir('catalog-depcruise-');
    try {
      writeViolatingProject(dir);
      const { code, output } = await depcruise(dir);
      expect(code).not.toBe(0);
      expect(output).toMatch(/error no-circular: src\/a\.ts →\s+src\/b\.ts →\s+src\/a\.ts/);
      for (const line of [
        'error kernel-not-to-higher-layers: src/kernel/mode.ts → src/platform/config.ts',
        'error platform-not-to-higher-layers: src/platform/config.ts → src/access/auth/principal.ts',
        'error auth-not-to-higher-layers: src/access/auth/principal.ts → src/api/graphql/builder.ts',
        'error api-not-to-higher-layers: src/api/graphql/builder.ts → src/access/services/stores.ts',
        'error access-not-to-higher-layers: src/access/services/stores.ts → src/catalog/services/products.ts',
        'error catalog-not-to-higher-layers: src/catalog/services/products.ts → src/events/services/history.ts',
        'error events-not-to-higher-layers: src/events/services/history.ts → src/jobs/worker.ts',
        'error jobs-not-to-higher-layers: src/jobs/worker.ts → src/app.ts',
        'error services-not-to-surfaces: src/catalog/services/variants.ts → src/catalog/graphql/variants.ts',
        'error graphql-not-to-rest-or-cli: src/catalog/graphql/variants.ts → src/catalog/rest/variants.ts',
        'error rest-not-to-cli: src/catalog/rest/variants.ts → src/catalog/cli/variants.ts',
        'error src-not-to-test-or-bench: src/leak.ts → test/helper.ts',
        'error not-to-dev-dep: src/devDep.ts → node_modules/dev-only/index.js',
        'error not-to-dev-dep-logger: src/platform/logger.ts → node_modules/dev-only/index.js',
      ]) {
        expect(output).toContain(line);
      }
      // Every rule in the configuration is shown to fire above.
      const { forbidden } = require(CONFIG) as { forbidden: { name: string }[] };
      for (const { name } of forbidden) expect(output).toContain(`error ${name}:`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
